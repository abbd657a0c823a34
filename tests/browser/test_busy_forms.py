"""A form stays busy (its buttons disabled) until its answer comes, even when a push redraws it.

Every form is an htmx POST (static/js/table.js disables its buttons on the way out). The lobby's
panel, with the host's start button in it, is pushed to every page again whenever the table
changes. Here the host's start POST is held back on its way to the server while the host's other
tab saves the deck, so the first tab's panel is redrawn by a push with a fresh start button: that
button must stay disabled until the start's answer, and the game must then start once.
"""

from __future__ import annotations

from playwright.sync_api import Request, Route, WebSocketRoute, expect

from .live_server import GameDB, LiveServer
from .players import (
    QUIET_DECK,
    TABLE_SOCKET,
    NewPlayerPage,
    fill_deck,
    in_phase,
    join_table,
    open_chat,
    panel_version,
    save_deck,
    seat_table,
    start_game,
)

LIVE_MS = 3_000


def test_a_redrawn_start_button_stays_busy_until_the_answer(
    live_server: LiveServer, new_player_page: NewPlayerPage, game_db: GameDB
) -> None:
    held: list[Route] = []
    starts_sent: list[Request] = []

    def holding_the_start(route: Route) -> None:
        """The first start POST waits here until the test lets it go."""
        starts_sent.append(route.request)
        if not held:
            held.append(route)
            return
        route.continue_()

    ann = new_player_page("Ann")
    ben = new_player_page("Ben", phone=True)
    cat = new_player_page("Cat", phone=True)
    code = seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    save_deck(ann, QUIET_DECK)
    ann.route("**/start", holding_the_start)

    start = ann.get_by_role("button", name="Deal and start the game")
    expect(start).to_be_enabled()
    start.click()
    expect(start).to_be_disabled()
    assert held, "the start form was not sent"

    # The host's second tab saves the same deck: every page of the table gets its panel again,
    # the first tab's included, while its start is still on its way.
    ann.evaluate("document.getElementById('panel').dataset.stale = 'yes'")
    other_tab = ann.context.new_page()
    other_tab.goto(f"{live_server.url}/g/{code}/")
    fill_deck(other_tab, QUIET_DECK)
    other_tab.get_by_role("button", name="Save the cards").click()
    expect(ann.locator("#panel[data-stale]")).to_have_count(0, timeout=LIVE_MS)
    expect(ann.locator("#panel[data-stage=lobby]")).to_be_visible()
    fresh = ann.get_by_role("button", name="Deal and start the game")
    expect(fresh).to_be_disabled()  # the fresh button, drawn by the push
    # A click on it sends nothing.
    fresh.click(force=True)
    ann.wait_for_timeout(200)
    assert len(starts_sent) == 1, starts_sent

    held[0].continue_()
    for page in (ann, ben, cat):
        expect(page.locator("#panel[data-stage=playing]")).to_be_visible(timeout=LIVE_MS)
        expect(page.locator("#night-action")).to_be_visible()
    assert len(starts_sent) == 1, starts_sent
    assert game_db.table(code)["phase"] == "night"
    starts = game_db.query(
        "SELECT count(*) AS n FROM tables_move m JOIN tables_table t ON t.id = m.table_id"
        " WHERE t.code = ? AND m.kind = 'start'",
        (code,),
    )
    assert starts[0]["n"] == 1


def test_a_chat_line_on_its_way_keeps_its_send_button_busy(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    """The chat form goes over the page's socket (issue 39): its Send button stays busy until
    the socket's answer comes (held back here by the test), then the box is emptied."""
    held: list[str] = []
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        """Ben's socket goes through the test, which holds back the answer to his line."""
        server = ws.connect_to_server()
        sockets.append(ws)

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and '"chat-sent"' in message and not held:
                held.append(message)
                return
            ws.send(message)

        server.on_message(from_server)

    ann = new_player_page("Ann")
    ben = new_player_page("Ben", phone=True)
    cat = new_player_page("Cat", phone=True)
    ben.context.route_web_socket(TABLE_SOCKET, through)
    seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    expect(ben.locator("#offline")).to_be_hidden()

    open_chat(ben)  # a phone: the chat is a drawer
    box = ben.locator(".chat-box")
    box.get_by_label("Chat message").fill("is anyone there?")
    box.get_by_role("button", name="Send").click()
    expect(ann.locator(".chat-log")).to_contain_text("is anyone there?", timeout=LIVE_MS)
    expect(box.get_by_role("button", name="Send")).to_be_disabled()
    expect(box.get_by_label("Chat message")).to_have_value("is anyone there?")
    assert len(held) == 1
    # The answer comes: the form is ready again and emptied; the line is on every page.
    sockets[-1].send(held[0])
    expect(box.get_by_role("button", name="Send")).to_be_enabled()
    expect(box.get_by_label("Chat message")).to_have_value("")
    for page in (ann, ben, cat):
        expect(page.locator(".chat-log")).to_contain_text("is anyone there?", timeout=LIVE_MS)


# Dealt in the order of the counters (live_server.deals_in_order): Ann the Seer, Ben the Robber,
# Cat the Troublemaker, three Villagers in the centre.
CHOOSERS = {"seer": 1, "robber": 1, "troublemaker": 1, "villager": 3}


def test_a_push_keeps_what_a_player_chose_and_has_not_sent(
    live_server: LiveServer, new_player_page: NewPlayerPage, game_db: GameDB
) -> None:
    """Every move at the table redraws every page's panel. What a player has chosen in a form
    and not sent yet (a radio, two selects, a number being typed) stays as it was, focus
    included; what the server changed is shown."""
    ann = new_player_page("Ann", phone=True)
    ben = new_player_page("Ben")
    cat = new_player_page("Cat", phone=True)
    code = seat_table(live_server.url, ann, "Ann", {"Ben": ben})

    # The host is typing a number of cards when Cat sits down: the lobby is redrawn. She has
    # selected what she typed to type over it, and the selection is still there after the push.
    villagers = ann.locator("input[name=count_villager]")
    villagers.fill("3")
    villagers.select_text()
    version = panel_version(ann)
    join_table(live_server.url, code, cat, "Cat")
    expect(ann.locator(".lobby")).to_contain_text("3 at the table", timeout=LIVE_MS)
    assert panel_version(ann) > version
    expect(villagers).to_have_value("3")
    expect(villagers).to_be_focused()
    ann.keyboard.type("2")  # over the selection: 2, not 23 or 32
    expect(villagers).to_have_value("2")
    ann.keyboard.type("0")  # typing goes on in the field: 20 is over the limit of 3
    expect(villagers).to_have_value("20")

    save_deck(ann, CHOOSERS)
    with live_server.deals_in_order():
        start_game(ann)
    assert [game_db.start_roles(code)[n] for n in ("Ann", "Ben", "Cat")] == [
        "seer",
        "robber",
        "troublemaker",
    ]
    in_phase(cat, "Night", LIVE_MS)
    # Ann and Cat choose, and before they send, Ben's action redraws their panels.
    ann.locator("#night-action").get_by_role("radio", name="Cat's card").check()
    cat.get_by_label("First player").select_option(label="Ann")
    cat.get_by_label("Second player").select_option(label="Ben")
    ben.locator("#night-action").get_by_role("button", name="No action").click()
    for page in (ann, cat):
        expect(page.locator("#status")).to_contain_text(
            "1 of 3 players have sent their night action.", timeout=LIVE_MS
        )
    expect(ann.get_by_role("radio", name="Cat's card")).to_be_checked()
    expect(cat.get_by_label("First player")).to_have_value(str(game_db.seats(code)["Ann"]["id"]))
    expect(cat.get_by_label("Second player")).to_have_value(str(game_db.seats(code)["Ben"]["id"]))
    ann.get_by_role("button", name="Send my action").click()
    cat.get_by_role("button", name="Swap their cards").click()
    in_phase(ann, "Day", LIVE_MS)
    in_phase(cat, "Day", LIVE_MS)
    expect(ann.locator("#night-report")).to_contain_text(
        "You looked at Cat's card: it is the Troublemaker."
    )
    expect(cat.locator("#night-report")).to_contain_text("You swapped the cards of Ann and Ben.")
