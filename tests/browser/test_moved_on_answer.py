"""A form's answer and the table's pushes race; the page must always end on the newest panel.

Every panel carries the table's version (templates/tables/page.html); static/js/table.js never
swaps in anything older than what the page shows (its "htmx:beforeSwap" check), and makes up
for a push that never came: when its countdown runs out it asks its socket for a "sync", and
when its socket is down it polls /g/<code>/panel. Each test here holds back or drops one
message on its way and checks the page, in real Chromium against daphne.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import APIResponse, Page, Route, WebSocketRoute, expect

from .live_server import LiveServer, run_live_server
from .players import (
    COUNT_ANSWERS,
    QUIET_DECK,
    TABLE_SOCKET,
    NewPlayerPage,
    PlayerPage,
    answers_handled,
    in_phase,
    panel_version,
    quiet_night,
    save_deck,
    seat_table,
    start_game,
    wait_for_answers,
)

LIVE_MS = 3_000
POLL_MS = 5_000 + LIVE_MS  # the page polls every 5 s while its socket is down (table.js)


def three_at_the_day(
    live_server: LiveServer, new_player_page: NewPlayerPage, **sockets: Any
) -> tuple[str, dict[str, Page]]:
    """Ann (the host), Ben and Cat, dealt QUIET_DECK and through the night to the day.
    `Ben=handler` routes Ben's websockets through `handler` (likewise for Ann, Cat)."""
    pages: dict[str, Page] = {}
    for name, phone in (("Ann", False), ("Ben", True), ("Cat", True)):
        page = new_player_page(name, phone=phone)
        page.context.add_init_script(COUNT_ANSWERS)
        if name in sockets:
            page.context.route_web_socket(TABLE_SOCKET, sockets[name])
        pages[name] = page
    ann = pages["Ann"]
    code = seat_table(live_server.url, ann, "Ann", {"Ben": pages["Ben"], "Cat": pages["Cat"]})
    save_deck(ann, QUIET_DECK)
    start_game(ann)
    quiet_night(pages, timeout=LIVE_MS)
    return code, pages


def test_an_answer_older_than_a_push_is_not_swapped_in(
    live_server: LiveServer, new_player_page: NewPlayerPage, player_pages: list[PlayerPage]
) -> None:
    held: list[tuple[Route, APIResponse]] = []

    def answer_held_back(route: Route) -> None:
        """Ben's "ready" reaches the server; its answer waits here."""
        held.append((route, route.fetch()))

    _, pages = three_at_the_day(live_server, new_player_page)
    ann, ben = pages["Ann"], pages["Ben"]
    ben.evaluate("window.sameDocument = true")
    ben.route("**/do/ready", answer_held_back)
    day_version = panel_version(ben)

    ben.get_by_role("button", name="I'm ready to vote").click()
    for page in (ann, pages["Cat"]):  # the server took it: the others are told
        expect(page.locator("#status")).to_contain_text("1 of 3 players are ready to vote.")
    assert len(held) == 1
    # The host ends the day before Ben's answer (the day, Ben ready) comes back.
    ann.get_by_role("button", name="End the day now (host)").click()
    in_phase(ben, "Voting", LIVE_MS)
    voting_version = panel_version(ben)
    assert voting_version > day_version + 1

    before = answers_handled(ben)
    route, response = held[0]
    route.fulfill(response=response)
    wait_for_answers(ben, before + 1)
    # The answer was older than the panel shown: it is dropped, and the page stays on the vote.
    assert re.search(rf'data-version="{day_version + 1}"', response.text())
    assert panel_version(ben) == voting_version
    in_phase(ben, "Voting")
    expect(ben.locator("#voting")).to_be_visible()
    expect(ben.locator("#day-ready")).to_have_count(0)
    expect(ben.locator("#phase-label")).to_have_text("Voting")
    assert ben.evaluate("window.sameDocument === true")
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)


def test_a_move_that_lost_the_race_to_a_push_gets_its_message(
    live_server: LiveServer, new_player_page: NewPlayerPage, player_pages: list[PlayerPage]
) -> None:
    """Ben's "ready" reaches the server only after the host ended the day, whose push has
    already brought Ben the vote: his answer (the same version, and why nothing was done) is
    shown in the panel it is for (docs/architecture.md: a request that lost a race gets a clear
    message and changes nothing)."""
    held: list[Route] = []
    _, pages = three_at_the_day(live_server, new_player_page)
    ann, ben = pages["Ann"], pages["Ben"]
    ben.route("**/do/ready", lambda route: held.append(route))

    ben.get_by_role("button", name="I'm ready to vote").click()
    # The route's handler runs when Playwright next reads the browser's events, not during the
    # click: wait for it rather than assert at once (a loaded machine raced past it in CI).
    for _ in range(250):
        if held:
            break
        ben.wait_for_timeout(20)
    assert len(held) == 1
    ann.get_by_role("button", name="End the day now (host)").click()
    in_phase(ben, "Voting", LIVE_MS)
    voting_version = panel_version(ben)

    before = answers_handled(ben)
    held[0].continue_()
    wait_for_answers(ben, before + 1)
    expect(ben.locator("#panel-error")).to_have_text("Voting is under way: that can't be done now.")
    assert panel_version(ben) == voting_version
    expect(ben.locator("#voting")).to_be_visible()
    expect(ben.get_by_role("button", name="Cast my vote")).to_be_enabled()
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)


def test_an_answer_after_the_push_of_its_own_change(
    live_server: LiveServer, new_player_page: NewPlayerPage, player_pages: list[PlayerPage]
) -> None:
    """The push of a seat's own move often beats the move's answer to its page (a page whose
    form did not name its socket: a second tab's move, say): the answer (the same version) must
    leave the page as it is, working, with no error."""
    held: list[tuple[Route, APIResponse]] = []
    _, pages = three_at_the_day(live_server, new_player_page)
    ben = pages["Ben"]
    ben.route("**/do/ready", lambda route: held.append((route, fetched_unnamed(route))))
    day_version = panel_version(ben)

    ben.get_by_role("button", name="I'm ready to vote").click()
    # The push of Ben's own change comes first and redraws his panel.
    expect(ben.locator("#panel")).to_have_attribute(
        "data-version", str(day_version + 1), timeout=LIVE_MS
    )
    expect(ben.locator("#status")).to_contain_text("1 of 3 players are ready to vote.")
    unready = ben.get_by_role("button", name="I'm not ready after all")
    expect(unready).to_be_visible()
    expect(unready).to_be_disabled()  # drawn busy: the form's answer is still on its way

    before = answers_handled(ben)
    route, response = held[0]
    route.fulfill(response=response)
    wait_for_answers(ben, before + 1)
    assert panel_version(ben) == day_version + 1
    expect(unready).to_be_enabled()
    # And it works: Ben takes it back, and everyone sees it.
    ben.unroute("**/do/ready")
    unready.click()
    for page in pages.values():
        expect(page.locator("#status")).to_contain_text(
            "0 of 3 players are ready to vote.", timeout=LIVE_MS
        )
    expect(ben.get_by_role("button", name="I'm ready to vote")).to_be_enabled()
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)


def fetched_unnamed(route: Route) -> APIResponse:
    """The form's request sent without the key naming the page's socket (X-Table-Socket): the
    server then has the page's socket draw the change as any other page's."""
    headers = {k: v for k, v in route.request.headers.items() if k.lower() != "x-table-socket"}
    return route.fetch(headers=headers)


def test_the_socket_does_not_redraw_its_pages_own_move_and_a_later_status_waits_for_it(
    live_server: LiveServer, new_player_page: NewPlayerPage, player_pages: list[PlayerPage]
) -> None:
    """A form sent while the socket is open names it: the answer is the page's panel, its
    socket draws nothing more (issue 39, lever 4). If another player's move comes (a status
    for the version after) while the answer is still on its way, the page asks its socket
    instead of showing that status on its older panel; the late answer changes nothing."""
    held: list[tuple[Route, APIResponse]] = []
    _, pages = three_at_the_day(live_server, new_player_page)
    ben, cat = pages["Ben"], pages["Cat"]
    ben.route("**/do/ready", lambda route: held.append((route, route.fetch())))
    day_version = panel_version(ben)

    ben.get_by_role("button", name="I'm ready to vote").click()
    expect(cat.locator("#status")).to_contain_text(
        "1 of 3 players are ready to vote.", timeout=LIVE_MS
    )
    assert held and panel_version(ben) == day_version  # no push of its own move drew it
    cat.get_by_role("button", name="I'm ready to vote").click()
    expect(ben.locator("#panel")).to_have_attribute(
        "data-version", str(day_version + 2), timeout=LIVE_MS
    )
    expect(ben.locator("#status")).to_contain_text("2 of 3 players are ready to vote.")
    expect(ben.get_by_role("button", name="I'm not ready after all")).to_be_visible()

    before = answers_handled(ben)
    route, response = held[0]
    route.fulfill(response=response)
    wait_for_answers(ben, before + 1)
    assert panel_version(ben) == day_version + 2
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)


def test_a_lost_push_is_made_up_by_a_sync_when_the_countdown_runs_out(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    """The day's deadline passes and the server moves every table on by itself; the push that
    brings Ann her vote is lost. Her countdown ran out, so her page asks its socket for a sync,
    and gets the vote without a reload."""
    dropping: list[bool] = []
    dropped: list[dict[str, Any]] = []
    synced: list[dict[str, Any]] = []

    def losing_pushes(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "sync":
                synced.append(frame)
            server.send(message)

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message)
            if dropping and frame.get("type") == "panel":
                dropped.append(frame)
                return
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    code, pages = three_at_the_day(live_server, new_player_page, Ann=losing_pushes)
    ann, ben = pages["Ann"], pages["Ben"]
    ann.evaluate("window.sameDocument = true")
    # A short day: the deadline is stored a few seconds ahead; Ben's "ready" brings every page
    # a panel with the new deadline.
    live_server.db.set_deadline(code, datetime.now(UTC) + timedelta(seconds=4))
    ben.get_by_role("button", name="I'm ready to vote").click()
    expect(ann.locator("#status")).to_contain_text("1 of 3 players are ready", timeout=LIVE_MS)
    expect(ann.locator("time.countdown")).to_have_text(re.compile(r"^0:0[0-4]$"))
    dropping.append(True)  # from now on, no push reaches Ann's page

    in_phase(ben, "Voting", 10_000)
    in_phase(ann, "Voting", 10_000)
    expect(ann.locator("#voting")).to_be_visible()
    expect(ann.locator("#phase-label")).to_have_text("Voting")
    assert dropped, "no push was dropped: the test tested nothing"
    assert synced, "the page did not ask for a sync"
    assert ann.evaluate("window.sameDocument === true"), "Ann's page was reloaded"


@pytest.fixture(scope="module")
def server_without_clock() -> Iterator[LiveServer]:
    """A second daphne whose clock never runs (ONENIGHT_TICKER=0), as if it were late: only
    the pages notice a passed deadline."""
    with run_live_server(name="daphne-no-clock", extra_env={"ONENIGHT_TICKER": "0"}) as server:
        yield server


def test_a_page_whose_countdown_ran_out_moves_the_game_on_when_the_clock_is_late(
    server_without_clock: LiveServer, new_player_page: NewPlayerPage
) -> None:
    """The day's deadline passes and no clock moves the table on: each page's countdown runs
    out, its sync notices the passed deadline (as a page load does), and every page gets the
    vote without a reload."""
    code, pages = three_at_the_day(server_without_clock, new_player_page)
    for page in pages.values():
        page.evaluate("window.sameDocument = true")
    server_without_clock.db.set_deadline(code, datetime.now(UTC) + timedelta(seconds=3))
    pages["Ben"].get_by_role("button", name="I'm ready to vote").click()
    for page in pages.values():
        expect(page.locator("time.countdown")).to_have_text(re.compile(r"^0:0[0-3]$"))
    for page in pages.values():
        in_phase(page, "Voting", 10_000)
        assert page.evaluate("window.sameDocument === true")
    moved = server_without_clock.db.query(
        "SELECT count(*) AS n FROM tables_move m JOIN tables_table t ON t.id = m.table_id"
        " WHERE t.code = ? AND m.kind = 'deadline'",
        (code,),
    )
    assert moved[0]["n"] == 1  # once, whichever page noticed first


def test_a_page_whose_socket_is_down_follows_by_polling(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    """Cat's socket is cut and every new one refused (a proxy that drops websockets): her page
    says it is offline and follows the game by polling its panel."""
    cut: list[bool] = []
    sockets: list[WebSocketRoute] = []

    def cuttable(ws: WebSocketRoute) -> None:
        if cut:
            ws.close(code=1011, reason="refused by the test")
            return
        ws.connect_to_server()
        sockets.append(ws)

    ann = new_player_page("Ann")
    ben = new_player_page("Ben", phone=True)
    cat = new_player_page("Cat", phone=True)
    cat.context.route_web_socket(TABLE_SOCKET, cuttable)
    seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    save_deck(ann, QUIET_DECK)
    expect(cat.locator(".deck-summary")).to_contain_text("6 of 6 cards:", timeout=LIVE_MS)
    cat.evaluate("window.sameDocument = true")
    assert sockets

    cut.append(True)
    sockets[-1].close(code=1011, reason="cut by the test")
    expect(cat.locator("#offline")).to_be_visible(timeout=LIVE_MS)
    start_game(ann)
    in_phase(ben, "Night", LIVE_MS)
    in_phase(cat, "Night", POLL_MS)
    expect(cat.locator("#role-message h2")).to_have_text(re.compile(r"^You are the "))
    expect(cat.locator("#phase-label")).to_have_text("Night")
    # Her own move is a POST whose answer is her panel; the others' come by the poll.
    cat.get_by_role("button", name="No action: I'm ready").click()
    expect(cat.locator("#night-action .done")).to_be_visible()
    for page in (ann, ben):
        page.get_by_role("button", name="No action: I'm ready").click()
    in_phase(cat, "Day", POLL_MS)
    expect(cat.locator("#night-report")).to_be_visible()
    expect(cat.locator("#offline")).to_be_visible()
    assert cat.evaluate("window.sameDocument === true"), "Cat's page was reloaded"
