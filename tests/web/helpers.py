"""Small helpers for reading responses in the web tests."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from games.tables.models import Seat

SESSION_SEATS = "seats"

# What a player is told when a move does not fit where the game is (the core's stage messages
# for the lobby and the end, One Night's phase messages in play).
PHASE_MESSAGES: dict[str, str] = {
    "lobby": "The game has not started yet.",
    "night": "It is night: that can't be done now.",
    "day": "It is the day: that can't be done now.",
    "voting": "Voting is under way: that can't be done now.",
    "reveal": "This game is over.",
    "cancelled": "This game was cancelled.",
}
PHASES = ("lobby", "night", "day", "voting", "reveal", "cancelled")

HTMX = {"HTTP_HX_REQUEST": "true"}


def text(response: HttpResponse) -> str:
    """The response body with HTML entities decoded (so messages read as the player sees them)."""
    return html.unescape(response.content.decode())


def visible(response: HttpResponse) -> str:
    """The words on the page: tags dropped, entities decoded, runs of spaces made one."""
    words = re.sub(r"<[^>]+>", "", raw(response))
    return re.sub(r"\s+", " ", html.unescape(words))


def raw(response: HttpResponse) -> str:
    return response.content.decode()


def alerts(response: HttpResponse) -> list[str]:
    """The text of every role="alert" element and error list item (the messages a player reads)."""
    body = raw(response)
    found = re.findall(r'role="alert"[^>]*>(.*?)</', body, flags=re.S)
    found += re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', body, flags=re.S)
    return [html.unescape(re.sub(r"<[^>]+>", " ", f)).strip() for f in found]


def panel_of(response: HttpResponse) -> str:
    """The panel section of a page or fragment (what htmx swaps and the socket pushes)."""
    body = raw(response)
    match = re.search(r'<section id="panel".*?</section>', body, flags=re.S)
    assert match is not None, body[:2000]
    return match.group(0)


def is_panel_only(response: HttpResponse) -> bool:
    """An htmx answer: the panel alone, no page around it, no chat."""
    body = raw(response)
    return (
        body.lstrip().startswith('<section id="panel"')
        and "<html" not in body
        and 'id="chat"' not in body
    )


def panel_attr(response: HttpResponse, name: str) -> str:
    """An attribute of the panel section (data-version, data-phase-label, data-stage...)."""
    match = re.search(rf'<section id="panel"[^>]*\s{name}="([^"]*)"', raw(response), flags=re.S)
    assert match is not None, raw(response)[:1000]
    return match.group(1)


def seat_in_session(client: Client, code: str) -> Seat | None:
    token = client.session.get(SESSION_SEATS, {}).get(code)
    if token is None:
        return None
    return Seat.objects.get(token=token)


def url(name: str, *args: object) -> str:
    return reverse(name, args=args)


def move_url(code: str, kind: str) -> str:
    """Where a One Night move is posted: /g/<code>/do/<kind>."""
    return reverse("move", args=[code, kind])


# --- the page's own forms, filled in as a browser without JavaScript would ---------------------


@dataclass
class FormField:
    kind: str  # an input's type, "select" or "textarea"
    name: str
    value: str
    checked: bool = False
    required: bool = False
    options: list[str] = field(default_factory=list)


@dataclass
class PageForm:
    action: str
    method: str
    hx_post: str | None
    fields: list[FormField] = field(default_factory=list)
    buttons: list[tuple[str, str, str]] = field(default_factory=list)  # (name, value, text)
    unchecked: set[str] = field(default_factory=set)  # buttons with formnovalidate, by name

    def values(self, name: str) -> list[str]:
        """The values a radio group or select offers."""
        found = [f for f in self.fields if f.name == name]
        return [o for f in found for o in f.options] + [f.value for f in found if not f.options]

    def data(
        self, button: str | None = None, **chosen: str | list[str]
    ) -> dict[str, str | list[str]]:
        """What a browser posts: hidden and typed values, checked boxes, each select's chosen
        (or first) option, the pressed button's name and value (`button`: a part of its text),
        and the values `chosen` for the named fields."""
        posted: dict[str, list[str]] = {}
        for f in self.fields:
            if not f.name or f.name in chosen:
                continue
            if f.kind in ("radio", "checkbox"):
                if f.checked:
                    posted.setdefault(f.name, []).append(f.value)
            elif f.kind not in ("submit", "button", "image", "reset"):
                posted.setdefault(f.name, []).append(f.value)
        for name, value in chosen.items():
            posted[name] = value if isinstance(value, list) else [value]
        if button is not None:
            pressed = next(b for b in self.buttons if button in b[2])
            if pressed[0]:
                posted.setdefault(pressed[0], []).append(pressed[1])
        return {k: v[0] if len(v) == 1 else v for k, v in posted.items()}


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[PageForm] = []
        self.form: PageForm | None = None
        self.select: FormField | None = None
        self.button: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v if v is not None else "" for k, v in attrs}
        if tag == "form":
            method = a.get("method", "get").lower()
            self.form = PageForm(a.get("action", ""), method, a.get("hx-post"))
            self.forms.append(self.form)
        if self.form is None:
            return
        if tag == "input":
            self.form.fields.append(
                FormField(
                    kind=a.get("type", "text").lower(),
                    name=a.get("name", ""),
                    value=a.get("value", ""),
                    checked="checked" in a,
                    required="required" in a,
                )
            )
        elif tag == "select":
            self.select = FormField("select", a.get("name", ""), "", required="required" in a)
            self.form.fields.append(self.select)
        elif tag == "option" and self.select is not None:
            self.select.options.append(a.get("value", ""))
            if "selected" in a or len(self.select.options) == 1:
                self.select.value = a.get("value", "")
        elif tag == "textarea":
            self.form.fields.append(FormField("textarea", a.get("name", ""), ""))
        elif tag == "button":
            self.button = [a.get("name", ""), a.get("value", ""), ""]
            if "formnovalidate" in a:
                self.form.unchecked.add(a.get("name", ""))

    def handle_data(self, data: str) -> None:
        if self.button is not None:
            self.button[2] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "button" and self.button is not None and self.form is not None:
            name, value, label = self.button
            self.form.buttons.append((name, value, re.sub(r"\s+", " ", label).strip()))
            self.button = None


def page_forms(response: HttpResponse) -> list[PageForm]:
    """Every form of a page, as a browser reads it."""
    parser = _FormParser()
    parser.feed(raw(response))
    parser.close()
    return parser.forms


def page_form(response: HttpResponse, action: str, button: str | None = None) -> PageForm:
    """The page's form that posts to `action` (and has a button saying `button`)."""
    found = [
        f
        for f in page_forms(response)
        if f.action == action and (button is None or any(button in b[2] for b in f.buttons))
    ]
    assert found, (action, button, [(f.action, f.buttons) for f in page_forms(response)])
    return found[0]
