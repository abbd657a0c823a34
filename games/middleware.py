"""Small response fixes that apply to every page."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


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
            "games/message.html",
            {
                "title": "Use the buttons on the page",
                "text": "This address only answers the game page's own buttons and forms."
                " Go back to the game and use them there.",
            },
            status=405,
        )
        page["Allow"] = response.get("Allow", "")
        return page
