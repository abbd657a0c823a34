"""The session cookie stays small however many games a browser joins.

Issue 25, hole 5: the session is a signed cookie holding one seat token per table joined, about
36 bytes each; past about 110 tables it passed the 4,096 bytes browsers keep, the browser
dropped it, and the player was logged out of every game at once. Now only the newest seats
are kept (games/tables/sessions.remember_seat, REMEMBERED_SEATS); an older seat comes back through
its rejoin link.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.families.onenight.options import RULES_PHRASE
from games.tables import services
from games.tables.models import Seat
from games.tables.sessions import REMEMBERED_SEATS
from tests.factories import create_lobby, new_client
from tests.security.audit import url

pytestmark = pytest.mark.django_db

# What browsers keep of one cookie, its name and attributes included (RFC 6265 s6.1).
BROWSER_LIMIT = 4096
GAMES = 150


def new_table(host_name: str) -> Seat:
    return services.table_create(family="onenight", ruleset="house", host_name=host_name)


def cookie_size(client: Client) -> int:
    return len(client.cookies["sessionid"].OutputString())


def test_the_session_cookie_stays_under_the_browsers_limit() -> None:
    """A browser that takes a seat at 150 tables: the cookie never passes the limit, and the
    newest seats are the ones it keeps."""
    client = new_client()
    seats: list[Seat] = []
    largest = 0
    for i in range(GAMES):
        seat = new_table(f"Ann {i}")
        response = client.get(url("rejoin", seat.table.code, seat.token))
        assert response.status_code == 302
        seats.append(seat)
        largest = max(largest, cookie_size(client))
    assert largest < BROWSER_LIMIT // 2 + 512, largest
    for seat in seats[-REMEMBERED_SEATS:]:
        assert client.get(url("table", seat.table.code)).status_code == 200
    # An older seat: not in the cookie any more, but its rejoin link brings it back.
    oldest = seats[0]
    lobby = client.get(url("table", oldest.table.code))
    assert lobby.status_code == 302 and lobby["Location"] == url("join", oldest.table.code)
    client.get(url("rejoin", oldest.table.code, oldest.token))
    assert client.get(url("table", oldest.table.code)).status_code == 200
    assert cookie_size(client) < BROWSER_LIMIT


def test_creating_and_joining_keep_the_cookie_small_too() -> None:
    """The other two ways a seat enters the session (opening a table, taking a seat by the
    invite link) keep only the newest seats as well."""
    client = new_client()
    codes: list[str] = []
    for i in range(REMEMBERED_SEATS + 10):
        if i % 2:
            response = client.post(
                url("table_new"), {"host_name": f"Ann {i}", "game": "onenight:official"}
            )
            assert response.status_code == 302, response.content[:300]
            codes.append(response["Location"].strip("/").split("/")[-1])
        else:
            table = new_table(f"Host {i}").table
            data = {"name": f"Guest {i}", "phrase": RULES_PHRASE}
            assert client.post(url("join", table.code), data).status_code == 302
            codes.append(table.code)
    assert len(client.session["seats"]) == REMEMBERED_SEATS
    assert list(client.session["seats"]) == codes[-REMEMBERED_SEATS:]
    assert cookie_size(client) < BROWSER_LIMIT // 2 + 512


def test_taking_a_seat_again_makes_it_the_newest() -> None:
    """A seat taken again (its rejoin link) is kept ahead of seats taken since."""
    client = new_client()
    first = create_lobby(["Ann", "Ben", "Cat"])
    client.get(url("rejoin", first.code, first.seats["Ann"].token))
    for i in range(REMEMBERED_SEATS - 1):
        seat = new_table(f"Ann {i}")
        client.get(url("rejoin", seat.table.code, seat.token))
    client.get(url("rejoin", first.code, first.seats["Ann"].token))
    seat = new_table("Zoe")
    client.get(url("rejoin", seat.table.code, seat.token))
    assert client.get(url("table", first.code)).status_code == 200
