"""Just enough HTML parsing for a bot to fill the game's real forms as a browser would."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PHASE_RE = re.compile(r'<div id="game" data-code="[^"]*" data-phase="([a-z]+)"')
PANEL_PHASE_RE = re.compile(r'<section id="panel" data-phase="([a-z]+)"')


@dataclass
class Field:
    tag: str  # input, select, textarea
    type: str
    name: str
    value: str
    checked: bool = False
    options: list[str] = field(default_factory=list)


@dataclass
class Form:
    action: str
    method: str
    fields: list[Field] = field(default_factory=list)
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (name, value) of named ones

    def named(self, name: str) -> list[Field]:
        return [f for f in self.fields if f.name == name]

    def defaults(self) -> dict[str, str]:
        """What the browser would post without any change: hidden and text values, checked
        radios and checkboxes, the selected (or first) option of each select."""
        data: dict[str, str] = {}
        for f in self.fields:
            if not f.name:
                continue
            if f.type in ("radio", "checkbox"):
                if f.checked:
                    data[f.name] = f.value
            elif f.tag == "select" or f.type not in ("submit", "button", "image", "reset"):
                data[f.name] = f.value
        return data


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: Field | None = None
        self.in_q = False
        self.quote = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.current = Form(action=a.get("action", ""), method=a.get("method", "get").lower())
            self.forms.append(self.current)
        elif tag == "q":
            self.in_q = True
        if self.current is None:
            return
        if tag == "input":
            self.current.fields.append(
                Field(
                    tag="input",
                    type=a.get("type", "text").lower(),
                    name=a.get("name", ""),
                    value=a.get("value", ""),
                    checked="checked" in a,
                )
            )
        elif tag == "select":
            self.select = Field(tag="select", type="select", name=a.get("name", ""), value="")
            self.current.fields.append(self.select)
        elif tag == "option" and self.select is not None:
            value = a.get("value", "")
            self.select.options.append(value)
            if "selected" in a or len(self.select.options) == 1:
                self.select.value = value
        elif tag == "button" and a.get("name"):
            self.current.buttons.append((a["name"], a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None
        elif tag == "q":
            self.in_q = False

    def handle_data(self, data: str) -> None:
        if self.in_q:
            self.quote += data


@dataclass
class Page:
    forms: list[Form]
    quote: str

    def form(self, action_suffix: str) -> Form | None:
        """The first form whose action ends with `action_suffix` ("" matches a form posting
        to the page itself)."""
        for f in self.forms:
            if action_suffix == "" and f.action == "" and f.method == "post":
                return f
            if action_suffix and f.action.endswith(action_suffix):
                return f
        return None


def parse(html: str) -> Page:
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return Page(forms=parser.forms, quote=parser.quote.strip())


def csrf_token(html: str) -> str | None:
    match = CSRF_RE.search(html)
    return match.group(1) if match else None


def page_phase(html: str) -> str | None:
    """The phase a full game page (or an htmx panel) shows."""
    match = PHASE_RE.search(html) or PANEL_PHASE_RE.search(html)
    return match.group(1) if match else None
