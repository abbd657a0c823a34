"""Small response fixes that apply to every page."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# The control characters (Unicode category Cc), and those a form field may not hold: all but
# a textarea's tabs and line breaks (the admin's).
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
FIELD_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
CONTROL_CHARACTER_IN_FORM = gettext_lazy(
    "It holds a control character, which nobody types. Nothing was changed: go back and send"
    " it again."
)


class ExplainMethodNotAllowed:
    """Give Django's bare 405 (a GET on an address that only takes a form's POST, say) a page
    that says what happened, instead of a blank screen."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content:
            return response
        page = render(
            request,
            "tables/message.html",
            {
                "title": _("Use the buttons on the page"),
                "text": _(
                    "This address only answers the game page's own buttons and forms."
                    " Go back to the game and use them there."
                ),
            },
            status=405,
        )
        page["Allow"] = response.get("Allow", "")
        return page


def has_control_character(text: str, *, in_field: bool = False) -> bool:
    """Whether `text` holds a control character; `in_field`: other than a tab or line break."""
    return (FIELD_CONTROL if in_field else CONTROL).search(text) is not None


def _fields(request: HttpRequest) -> Iterable[str]:
    """Every field name and value of the request's query string and posted form."""
    for data in (request.GET, request.POST):
        for name, values in data.lists():
            yield name
            yield from values


class RefuseControlCharacters:
    """Answer a request whose path holds a control character (NUL and the like: nothing a
    person types, and PostgreSQL refuses NUL in any text) with a plain 404, and one whose
    query string or form holds one with a 400 that says so, before any view or the database
    sees it. Nothing is changed. Tabs and line breaks in form fields are allowed."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_control_character(request.path):
            return render(
                request,
                "tables/message.html",
                {"title": _("No such page"), "text": _("There is nothing at this address.")},
                status=404,
            )
        if any(has_control_character(text, in_field=True) for text in _fields(request)):
            return render(
                request,
                "tables/message.html",
                {
                    "title": _("That form could not be read"),
                    "text": str(CONTROL_CHARACTER_IN_FORM),
                },
                status=400,
            )
        return self.get_response(request)
