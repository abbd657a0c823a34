"""The session cookie stays small however many games a browser joins.

Issue 25, hole 5: the session is a signed cookie holding one seat token per game joined, about
36 bytes each; past about 110 games it passed the 4,096 bytes browsers keep, the browser
dropped it, and the player was logged out of every game at once. Now only the newest seats
are kept (games/views.REMEMBERED_SEATS); an older seat comes back through its rejoin link.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Seat
from games.views import REMEMBERED_SEATS
from tests.factories import create_lobby

pytestmark = pytest.mark.django_db

# What browsers keep of one cookie, its name and attributes included (RFC 6265 s6.1).
BROWSER_LIMIT = 4096
GAMES = 150


def cookie_size(client: Client) -> int:
    return len(client.cookies["sessionid"].OutputString())


def test_the_session_cookie_stays_under_the_browsers_limit() -> None:
    """A browser that takes a seat at 150 games: the cookie never passes the limit, and the
    newest seats are the ones it keeps."""
    client = Client()
    seats: list[Seat] = []
    largest = 0
    for i in range(GAMES):
        seat = services.game_create(host_name=f"Ann {i}")
        response = client.get(reverse("rejoin", args=[seat.game.code, seat.token]))
        assert response.status_code == 302
        seats.append(seat)
        largest = max(largest, cookie_size(client))
    assert largest < BROWSER_LIMIT // 2 + 512, largest
    for seat in seats[-REMEMBERED_SEATS:]:
        assert client.get(reverse("game", args=[seat.game.code])).status_code == 200
    # An older seat: not in the cookie any more, but its rejoin link brings it back.
    oldest = seats[0]
    assert client.get(reverse("game", args=[oldest.game.code])).status_code == 302  # lobby: join
    client.get(reverse("rejoin", args=[oldest.game.code, oldest.token]))
    assert client.get(reverse("game", args=[oldest.game.code])).status_code == 200
    assert cookie_size(client) < BROWSER_LIMIT


def test_taking_a_seat_again_makes_it_the_newest() -> None:
    """A seat taken again (its rejoin link, a new game) is kept ahead of seats taken since."""
    client = Client()
    first = create_lobby(["Ann", "Ben", "Cat"])
    client.get(reverse("rejoin", args=[first.code, first.seats["Ann"].token]))
    for i in range(REMEMBERED_SEATS - 1):
        seat = services.game_create(host_name=f"Ann {i}")
        client.get(reverse("rejoin", args=[seat.game.code, seat.token]))
    client.get(reverse("rejoin", args=[first.code, first.seats["Ann"].token]))
    seat = services.game_create(host_name="Zoe")
    client.get(reverse("rejoin", args=[seat.game.code, seat.token]))
    assert client.get(reverse("game", args=[first.code])).status_code == 200
