"""A form that moves the game on is answered with the new phase alone; the phase change's push
brings the page its panel (games/consumers.py, static/js/game.js). Here the host's push is
lost on the way: the page must still reach the new phase, by asking for its panel itself,
without a reload and without the host clicking again.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import WebSocketRoute, expect

from .live_server import LiveServer
from .players import QUIET_DECK, NewPlayerPage, fill_deck, seat_table

LIVE_MS = 3_000
# The page asks for its panel when the push has not come 5 s after the answer (game.js).
FALLBACK_MS = 5_000 + LIVE_MS


def test_a_lost_phase_push_is_made_up_for_by_the_page(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    dropped: list[dict[str, object]] = []
    answers: list[dict[str, object]] = []
    passed: list[dict[str, object]] = []

    def losing_the_night_push(ws: WebSocketRoute) -> None:
        """The host's socket, through the test: the push that carries the night's panel is
        dropped; everything else passes."""
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("answer"):
                answers.append(frame)
            pushed_panel = frame.get("type") == "status" and "panel_html" in frame
            if pushed_panel and frame.get("phase") == "night" and not frame.get("answer"):
                dropped.append(frame)
                return
            passed.append(frame)
            ws.send(message)

        server.on_message(from_server)

    ann = new_player_page("Ann")
    ben = new_player_page("Ben", phone=True)
    cat = new_player_page("Cat", phone=True)
    ann.context.route_web_socket(re.compile(r"/ws/game/"), losing_the_night_push)

    seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    fill_deck(ann, QUIET_DECK)
    expect(ann.locator("body[data-live=yes]")).to_be_attached()
    before_saving = len(passed)
    ann.get_by_role("button", name="Save the cards").click()
    expect(ann.locator("#status")).to_contain_text("Cards (6 of 6 needed")
    # The new deck is pushed to every page a moment after the form's answer, and that push
    # swaps the status box, start button included: let it come before the click.
    for _ in range(60):
        if any("6 of 6 needed):" in str(f.get("html")) for f in passed[before_saving:]):
            break
        ann.wait_for_timeout(50)
    ann.evaluate("window.sameDocument = true")  # gone if the page reloads

    start = ann.get_by_role("button", name="Deal the cards and start the night")
    start.click()
    for page in (ben, cat):  # their pushes came
        expect(page.locator("#panel[data-phase=night]")).to_be_visible(timeout=LIVE_MS)
    # The host's answer said "night" and nothing more; its push was dropped. Until the page
    # has its panel, the start button stays busy: a second click would only be refused.
    expect(ann.locator("#panel[data-phase=lobby]")).to_be_visible()
    expect(start).to_be_disabled()
    expect(ann.locator("#panel[data-phase=night]")).to_be_visible(timeout=FALLBACK_MS)
    expect(ann.get_by_role("button", name="No action: I'm ready")).to_be_visible()
    assert ann.evaluate("window.sameDocument === true"), "the host's page was reloaded"
    assert dropped, "the test dropped no push: it tested nothing"
    moved_on = [a for a in answers if a.get("phase") == "night"]
    assert moved_on and all(a.get("follows") is True for a in moved_on), answers
    assert all("panel_html" not in a for a in moved_on), moved_on
