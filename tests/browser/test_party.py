"""A party on one home Wi-Fi (issue 35): every phone joins from one address, and the lobby's
invite is an address the phones can reach.

The server here is not the suite's: it listens on every interface (`make run HOST=0.0.0.0`)
and keeps the shipped caps on joining (the suite lifts them for every other server). Every
browser context below comes from 127.0.0.1: one address, as phones behind one router are.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect

from games.tables.sharing import network_address
from games.tables.templatetags.invite import qr_svg

from .live_server import LiveServer, run_live_server
from .players import DEFAULT_TIMEOUT_MS, PHONE, NewPlayerPage, create_table

CAPS = (
    "ONENIGHT_JOINS_PER_MINUTE",
    "ONENIGHT_JOIN_TABLES_PER_MINUTE",
    "ONENIGHT_TABLE_JOINS_PER_MINUTE",
)
# A forum game (rules/001): the host and seventeen friends, the largest group multi-night
# games are played by (8 to 18), all behind one router.
GUESTS = 17


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    """This module's server (it stands in for the suite's `live_server` in its fixtures):
    daphne bound to 0.0.0.0 with the shipped caps on joining."""
    with run_live_server(name="daphne-party", unset_env=CAPS, bind="0.0.0.0") as server:
        yield server


def test_a_party_behind_one_router_seats_eighteen_players(
    live_server: LiveServer, browser: Browser, new_player_page: NewPlayerPage
) -> None:
    url = live_server.url
    host = new_player_page("Host", phone=True)
    code = create_table(url, host, "Ann", "werewolf:forum")
    names = [f"Friend {i}" for i in range(1, GUESTS + 1)]
    for name in names:
        # Each phone its own context (cookies), closed once seated: the seat stays.
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        try:
            phone = context.new_page()
            phone.goto(f"{url}/g/{code}/join")
            phone.get_by_label("Your name").fill(name)
            phone.get_by_role("button", name="Take a seat").click()
            expect(phone).to_have_url(f"{url}/g/{code}/")
            expect(phone.locator(".lobby")).to_contain_text(f"{name} (you)")
        finally:
            context.close()
    lobby = host.locator(".lobby")
    expect(lobby).to_contain_text(f"{GUESTS + 1} at the table")
    for name in names:
        expect(lobby.locator(".seats")).to_contain_text(name)
    seats = live_server.db.seats(code)
    assert list(seats) == ["Ann", *names]


def test_the_invite_is_an_address_phones_reach(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    lan = network_address()
    if lan is None:
        pytest.skip("this machine has no network address besides loopback")
    host = new_player_page("Host")
    # The host opens the app as the README says, at the loopback address.
    assert urlsplit(live_server.url).hostname == "127.0.0.1"
    code = create_table(live_server.url, host, "Ann", "werewolf:classic")
    invite = host.locator("#invite-link").input_value()
    parts = urlsplit(invite)
    assert parts.hostname == lan and parts.port == live_server.port, invite
    assert not ipaddress.ip_address(parts.hostname).is_loopback
    assert parts.path == f"/g/{code}/join"
    expect(host.locator("#invite-local-only")).to_have_count(0)
    # The QR code encodes that link: its drawing is the one of the link.
    drawn = host.locator("figure.qr svg path").first.get_attribute("d")
    expected = re.search(r' d="([^"]+)"', str(qr_svg(invite)))
    assert expected is not None and drawn == expected.group(1)
    # The rejoin link the page hands out is on the network address too.
    rejoin = host.locator(".rejoin input").input_value()
    assert urlsplit(rejoin).hostname == lan
    # And a phone that opens the invite at that address reaches the join page.
    phone = new_player_page("Ben", phone=True)
    phone.goto(invite)
    expect(phone.get_by_role("button", name="Take a seat")).to_be_visible()
    phone.get_by_label("Your name").fill("Ben")
    phone.get_by_role("button", name="Take a seat").click()
    expect(phone).to_have_url(re.compile(rf"^http://{re.escape(lan)}:\d+/g/{code}/$"))
    expect(host.locator(".lobby")).to_contain_text("Ben")
