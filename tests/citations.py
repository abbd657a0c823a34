"""Rule citations a player can read (issue 38 item 3): a page's visible words, outside the
"why?" elements, hold no section of the rules documents ("004 III", "rules/001", "s6a").

`citations(html)` lists the citations left in what a reader sees: the text and the attributes a
browser shows or reads aloud (a label, a confirmation, a placeholder), with everything inside an
element of class "why" left out (the rule is kept there, one tap away). The browser tests read
a live page's HTML with the same function.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# A section of one of our rules documents: "rules/004", "004 III", "004 II Knight", "001 day
# phase", "(003)", "000 s6a", or a bare section mark "s6a" / "s5".
CITATION = re.compile(
    r"rules/00[0-4]"
    r"|\b00[0-4]\b(?=\s*[),;/]|\s+(?:[IVX]+\b|s\d|[A-Z][a-z]|day\b|night\b))"
    r"|(?<![\w/-])s\d{1,2}[a-e]?\b(?![\w/-])"
)

# Attributes whose words a reader meets (shown on hover or before a confirm, or read aloud).
READ = ("title", "aria-label", "placeholder", "data-confirm", "alt")
# Elements with no closing tag.
VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip
HIDDEN = {"script", "style", "template"}


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip_depth = 0  # > 0 inside a "why" element, a script or a style
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            if not self.skip_depth:
                self._attributes(attrs)
            return
        if self.skip_depth:
            self.skip_depth += 1
            return
        classes = (dict(attrs).get("class") or "").split()
        if "why" in classes or tag in HIDDEN:
            self.skip_depth = 1
            return
        self._attributes(attrs)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.skip_depth:
            self._attributes(attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.skip_depth:
            self.skip_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip_depth:
            self.texts.append(data)

    def _attributes(self, attrs: list[tuple[str, str | None]]) -> None:
        self.texts += [value for key, value in attrs if key in READ and value]


def visible_text(html: str) -> str:
    """The words a reader meets on `html`, outside the "why?" elements."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return " ".join(" ".join(reader.texts).split())


def citations(html: str) -> list[str]:
    """Each rule citation left in what a reader meets, with a little context around it."""
    text = visible_text(html)
    return [text[max(0, m.start() - 50) : m.end() + 20] for m in CITATION.finditer(text)]
