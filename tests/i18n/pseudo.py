"""A pseudo-language that shows which words are not marked for translation.

`build(locale_dir)` runs the project's makemessages for the language "x-pseudo" into a folder
of the test's, then "translates" every message by swapping each ASCII letter for an accented
look-alike (placeholders, tags and entities kept) and compiles it. A page rendered in that
language then has no plain ASCII word left, except the ones that are not ours to translate (the
players' names, the table's code): `english_words(html)` lists what is left, which is exactly
what a translator could not reach.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from contextlib import chdir
from html.parser import HTMLParser
from pathlib import Path

import polib
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

CODE = "x-pseudo"
FOLDER = "x_Pseudo"  # django.utils.translation.to_locale("x-pseudo")

# Where the project's translatable text lives.
SOURCES = ("games", "templates", "onenight")

_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "áƀćďéƒǧĥíĵķĺḿńóṕʠŕśţúṽŵẋýźÁƁĆĎÉƑǦĤÍĴĶĹḾŃÓṔɊŔŚŢÚṼŴẊÝŹ"
_SWAP = str.maketrans(_PLAIN, _ACCENTED)
# Kept as they are: printf placeholders, {names}, HTML tags and entities, and a command in
# <code> (typed as it is). Only the tags our messages hold: a "<player>" or "<code>" in a chat
# command's help is words, to be translated.
_TAGS = r"<code>[^<]*</code>|</?(?:a|abbr|b|br|em|i|kbd|p|small|span|strong)\b[^<>]*>"
_KEEP = re.compile(
    r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr%]|\{[^{}]*\}|" + _TAGS + r"|&#?\w+;"
)


def pseudo(message: str) -> str:
    """`message` with its letters swapped, its placeholders and markup untouched."""
    out, end = [], 0
    for match in _KEEP.finditer(message):
        out.append(message[end : match.start()].translate(_SWAP))
        out.append(match.group(0))
        end = match.end()
    out.append(message[end:].translate(_SWAP))
    return "".join(out)


def build(locale_dir: Path) -> Path:
    """Make, translate and compile the pseudo-language's catalogue under `locale_dir`.

    makemessages writes each file's messages to the locale folder nearest the file, which would
    be the project's own: it runs instead in `locale_dir`'s parent, where links stand for the
    project's code, so that the catalogue lands in `locale_dir` and the project is untouched."""
    locale_dir.mkdir(parents=True, exist_ok=True)
    root = locale_dir.parent
    for folder in SOURCES:
        link = root / folder
        if not link.exists():
            link.symlink_to(Path(settings.BASE_DIR) / folder, target_is_directory=True)
    with override_settings(LOCALE_PATHS=[locale_dir]), chdir(root):
        call_command(
            "makemessages",
            locale=[FOLDER],
            domain="django",
            symlinks=True,
            no_location=True,
            verbosity=0,
        )
    po_path = locale_dir / FOLDER / "LC_MESSAGES" / "django.po"
    catalogue = polib.pofile(str(po_path))
    for entry in catalogue:
        if entry.msgid_plural:
            entry.msgstr_plural = {0: pseudo(entry.msgid), 1: pseudo(entry.msgid_plural)}
        else:
            entry.msgstr = pseudo(entry.msgid)
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
    catalogue.metadata["Plural-Forms"] = "nplurals=2; plural=(n != 1);"
    catalogue.save(str(po_path))
    catalogue.save_as_mofile(str(po_path.with_suffix(".mo")))
    return po_path


def language(locale_dir: Path, site: str = CODE) -> override_settings:
    """Settings offering the pseudo-language; with `site` as the site's language (by default
    the pseudo-language itself: every page, socket and note speaks it)."""
    return override_settings(
        LOCALE_PATHS=[locale_dir],
        LANGUAGES=[("en-gb", "English"), (CODE, "Pseudo")],
        LANGUAGE_CODE=site,
    )


# --- Reading a page -------------------------------------------------------------------------

# Attributes a reader sees or hears (a screen reader reads labels, titles and alternatives).
_READ_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "data-confirm", "content"}
_BUTTON_INPUTS = {"submit", "button", "reset"}


# Not read: scripts, styles, drawings, a command as typed (<code>), and what the page marks as
# not to be translated (HTML's translate="no": a language's own name, a citation).
_UNREAD = {"script", "style", "svg", "code"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._open: list[tuple[str, bool]] = []  # each open element, and whether it is unread

    @property
    def _skip(self) -> bool:
        return any(unread for _tag, unread in self._open)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        unread = tag in _UNREAD or found.get("translate") == "no"
        if tag not in _VOID:
            self._open.append((tag, unread))
        if unread or self._skip:
            return
        if tag == "meta" and found.get("name") not in {"description"}:
            return
        for name, value in attrs:
            if value and (name in _READ_ATTRIBUTES or name.startswith("data-say")):
                self.texts.append(value)
        if tag == "input" and found.get("type") in _BUTTON_INPUTS and found.get("value"):
            self.texts.append(str(found["value"]))

    def handle_endtag(self, tag: str) -> None:
        # Up to the element it closes (some, such as <li> and <p>, are closed implicitly).
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index][0] == tag:
                del self._open[index:]
                break

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.texts.append(data)


_WORD = re.compile("[A-Za-z][A-Za-z'\u2019-]*[A-Za-z]|[A-Za-z]")
# Not ours to translate: citations of the rule documents, which name sections of English texts
# ("rules/002 s5.3", "(004 II Witch)", "(001 night phase)"), web addresses and codes.
_NOT_WORDS = re.compile(
    r"\(\s*(?:00[0-4]|rules/)[^)]*\)|rules/\d{3}|\bs\d+[a-z]?(?:\.\d+)*\b|https?://\S+"
    r"|\b[A-Z0-9]{4,}\b"
)


def english_words(body: str, allowed: Iterable[str] = ()) -> list[str]:
    """Plain ASCII words a reader of `body` (an HTML page or fragment) would meet, other than
    `allowed` (names the players chose, the table's code) and single letters."""
    reader = _Reader()
    reader.feed(body)
    allow = {word.lower() for name in allowed for word in _WORD.findall(name)}
    left = []
    for text in reader.texts:
        for word in _WORD.findall(_NOT_WORDS.sub(" ", text)):
            if len(word) > 1 and word.lower() not in allow:
                left.append(word)
    return left
