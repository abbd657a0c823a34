"""Small helpers for reading responses in the web tests."""

from __future__ import annotations

import html
import re

from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from games.models import Phase, Seat

SESSION_SEATS = "seats"

# What a player is told when a move does not fit the game's phase.
PHASE_MESSAGES: dict[str, str] = {
    Phase.LOBBY: "The game has not started yet.",
    Phase.NIGHT: "It is night: that can't be done now.",
    Phase.DAY: "It is the day: that can't be done now.",
    Phase.VOTING: "Voting is under way: that can't be done now.",
    Phase.REVEAL: "This game is over.",
    Phase.CANCELLED: "This game was cancelled.",
}


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


def seat_in_session(client: Client, code: str) -> Seat | None:
    token = client.session.get(SESSION_SEATS, {}).get(code)
    if token is None:
        return None
    return Seat.objects.get(token=token)


def url(name: str, *args: object) -> str:
    return reverse(name, args=args)


HTMX = {"HTTP_HX_REQUEST": "true"}
