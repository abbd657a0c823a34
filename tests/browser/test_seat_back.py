"""A lost seat comes back through the host (issue 35, item 4), in Chromium against daphne: a
player whose seat stayed in another browser (a chat app's own) opens the game in a fresh
browser context, reads how to get it back, the host shows that seat's code on the host's
screen, the player types it, and plays on from the new browser."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .live_server import LiveServer
from .players import QUIET_DECK, NewPlayerPage, in_phase, save_deck, seat_table, start_game
from .test_accessibility import audit


def test_a_player_gets_their_seat_back_in_a_fresh_browser_through_the_host(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    url = live_server.url
    ann, ben, cat = (new_player_page(n, phone=n != "Ann") for n in ("Ann", "Ben", "Cat"))
    code = seat_table(url, ann, "Ann", {"Ben": ben, "Cat": cat})
    save_deck(ann, QUIET_DECK)
    start_game(ann)
    barriers: dict[str, str] = {}

    # Ben's seat stays in the browser he joined from; the phone's own browser holds none.
    phone = new_player_page("Ben, the phone's own browser", phone=True)
    phone.goto(f"{url}/g/{code}/")
    expect(phone.get_by_role("heading", name="You are not in this game")).to_be_visible()
    expect(phone.locator("#watch-offer")).to_contain_text("Ask the host for the watch link")
    audit(phone, "not in this game", barriers)

    # The host shows Ben's seat code on the host's screen; the table's chat is told.
    ann.locator("details.seat-back summary").click()
    ann.locator("details.seat-back select[name=seat]").select_option(label="Ben")
    ann.get_by_role("button", name="Show their seat code").click()
    expect(ann.get_by_role("heading", name="Ben's seat code")).to_be_visible()
    expect(ann.locator("figure.qr svg")).to_be_visible()
    seat_code = ann.locator("#seat-code-text").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{4} [A-Z0-9]{4}", seat_code), seat_code
    audit(ann, "seat code", barriers)
    ann.get_by_role("link", name="Back to the game").click()
    in_phase(ann, "Night")
    expect(cat.locator('.chat-log[data-channel="public"]')).to_contain_text(
        "showing Ben's seat code"
    )

    # A wrong code is refused with a message; the right one seats the new browser.
    phone.get_by_label("Seat code").fill("ZZZZ ZZZZ")
    phone.get_by_role("button", name="Take my seat back").click()
    expect(phone.locator("#seat-code-error")).to_contain_text("does not open a seat")
    phone.get_by_label("Seat code").fill(seat_code.lower())
    phone.get_by_role("button", name="Take my seat back").click()
    expect(phone).to_have_url(f"{url}/g/{code}/")
    expect(phone.locator(".game-head")).to_contain_text("You are Ben")
    expect(cat.locator('.chat-log[data-channel="public"]')).to_contain_text(
        "Ben's seat was opened on another screen"
    )

    # Ben plays on from the new browser: the night ends when he has done his part.
    for page in (ann, cat, phone):
        in_phase(page, "Night")
        page.get_by_role("button", name="No action: I'm ready").click()
    for page in (ann, cat, phone, ben):
        in_phase(page, "Day")
    assert not barriers, barriers
