"""A form sent over the socket stays busy until its answer, even when a push redraws its card.

The lobby's status box, with the host's start button in it, is pushed to every page again
whenever the table changes. Here the host's start form is held back on its way to the server
while the host's other tab saves the deck, so the first tab's status box is redrawn with a
fresh start button: that button must stay disabled until the start's answer, and the game must
then start once.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import WebSocketRoute, expect

from .live_server import GameDB, LiveServer
from .players import QUIET_DECK, NewPlayerPage, fill_deck, seat_table

LIVE_MS = 3_000


def test_a_redrawn_start_button_stays_busy_until_the_answer(
    live_server: LiveServer, new_player_page: NewPlayerPage, game_db: GameDB
) -> None:
    held: list[tuple[WebSocketRoute, str | bytes]] = []  # (its way to the server, the frame)
    starts_sent: list[str | bytes] = []

    def holding_the_start(ws: WebSocketRoute) -> None:
        """The host's sockets, through the test: the first start form sent waits here until
        the test lets it go; everything else passes both ways."""
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "form" and str(frame.get("path", "")).endswith("/start"):
                starts_sent.append(message)
                if not held:
                    held.append((server, message))
                    return
            server.send(message)

        ws.on_message(from_page)
        server.on_message(lambda message: ws.send(message))

    ann = new_player_page("Ann")
    ben = new_player_page("Ben", phone=True)
    cat = new_player_page("Cat", phone=True)
    ann.context.route_web_socket(re.compile(r"/ws/game/"), holding_the_start)

    code = seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    fill_deck(ann, QUIET_DECK)
    expect(ann.locator("body[data-live=yes]")).to_be_attached()
    ann.get_by_role("button", name="Save the cards").click()
    expect(ann.locator("#status")).to_contain_text("Cards (6 of 6 needed")

    start = ann.get_by_role("button", name="Deal the cards and start the night")
    start.click()
    expect(start).to_be_disabled()
    assert held, "the start form did not go over the socket"

    # The host's second tab saves the same deck: every page of the table gets its status box
    # again, the first tab's included, while its start is still on its way. (Should the first
    # save's own push come only now, it redraws the box all the same.)
    ann.evaluate("document.getElementById('status').dataset.stale = 'yes'")
    other_tab = ann.context.new_page()
    other_tab.goto(f"{live_server.url}/g/{code}/")
    expect(other_tab.locator("body[data-live=yes]")).to_be_attached()
    other_tab.get_by_role("button", name="Save the cards").click()
    expect(ann.locator("#status[data-stale]")).to_have_count(0, timeout=LIVE_MS)
    expect(ann.locator("#panel[data-phase=lobby]")).to_be_visible()
    expect(start).to_be_disabled()  # the fresh button, drawn by the push

    server, start_frame = held[0]
    server.send(start_frame)
    for page in (ann, ben, cat):
        expect(page.locator("#panel[data-phase=night]")).to_be_visible(timeout=LIVE_MS)
    assert len(starts_sent) == 1, starts_sent
    assert game_db.game(code)["phase"] == "night"
