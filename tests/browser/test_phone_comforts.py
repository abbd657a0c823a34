"""More of what a group expects on phones (issue 30), each the way a player meets it: a player
the host removes sees a clear page, not one page inside another; a chat error goes once the next
line is sent; the phone vibrates (and may beep) when the game newly needs the player; the clock
stays in the header while the chat scrolls; the rules page and the role cards are a tap away;
the host hands the role over; the end banner names the player's own cards."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .live_server import GameDB, LiveServer
from .players import (
    QUIET_DECK,
    NewPlayerPage,
    close_chat,
    in_phase,
    open_chat,
    quiet_night,
    save_deck,
    seat_table,
    start_game,
)


def test_a_removed_player_sees_a_clear_page_of_its_own(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    ann, ben, cat = (new_player_page(n, phone=n != "Ann") for n in ("Ann", "Ben", "Cat"))
    code = seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    ann.locator(".seats li", has_text="Cat").get_by_role("button", name="Remove").click()
    # Cat's page is replaced by the join page of that table, whole: one header, no game inside.
    expect(cat).to_have_url(re.compile(f"/g/{code}/join$"))
    expect(cat.locator("header.site")).to_have_count(1)
    expect(cat.locator("#table")).to_have_count(0)


def test_a_chat_error_goes_once_the_next_line_is_sent(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    ann, ben = (new_player_page(n, phone=True) for n in ("Ann", "Ben"))
    seat_table(live_server.url, ann, "Ann", {"Ben": ben})
    open_chat(ben)  # a phone: the chat is a drawer (issue 38)
    box = ben.locator('.chat-box[data-channel="public"]')
    box.get_by_role("button", name="Send").click()  # nothing typed
    expect(box.locator(".chat-error")).to_have_text("Type a message first.")
    box.get_by_label("Chat message").fill("hello all")
    box.get_by_role("button", name="Send").click()
    expect(ben.locator(".chat-log")).to_contain_text("hello all")
    expect(box.locator(".chat-error")).to_have_count(0)


def test_the_phone_calls_for_attention_when_the_game_newly_needs_the_player(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    ann, ben, cat = (new_player_page(n, phone=True) for n in ("Ann", "Ben", "Cat"))
    seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    save_deck(ann, QUIET_DECK)
    ben.get_by_label("Sound when it is my turn").check()  # stored for the next pages too
    start_game(ann)
    in_phase(ben, "Night")
    # Ben's page was told of the night by a push: it vibrated (and beeped) once.
    expect(ben.locator("#table")).to_have_attribute("data-called", "1")
    quiet_night({"Ann": ann, "Ben": ben, "Cat": cat})
    # In the day the clock sits in the header, which stays in sight over the chat's drawer.
    expect(ben.locator("#head-clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    open_chat(ben)
    box = ben.locator("header.game-head").bounding_box()
    drawer = ben.locator("#chat").bounding_box()
    assert box is not None and drawer is not None and box["y"] + box["height"] <= drawer["y"]
    close_chat(ben)
    ann.get_by_role("button", name="End the day now (host)").click()
    in_phase(ben, "Voting")
    expect(ben.locator("#table")).to_have_attribute("data-called", "2")
    ben.reload()
    expect(ben.get_by_label("Sound when it is my turn")).to_be_checked()  # remembered


def test_the_rules_and_cards_are_a_tap_away_and_keep_the_phrase_to_the_reader(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    ann, ben = (new_player_page(n, phone=True) for n in ("Ann", "Ben"))
    ann.goto(live_server.url + "/")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_role("button", name="Create the game").click()
    code = re.search(r"/g/([A-Z0-9]+)/$", ann.url).group(1)  # type: ignore[union-attr]
    ben.goto(f"{live_server.url}/g/{code}/join")
    expect(ben.locator("main")).not_to_contain_text("The Ocean Chose Me")
    with ben.expect_popup() as popup:
        ben.get_by_role("link", name="the rules").click()
    rules = popup.value
    expect(rules.locator("#playing-fair")).to_contain_text("The Ocean Chose Me")
    expect(rules.locator("#role-seer")).to_contain_text("Wakes:")
    # The lobby's chips open the card of their role.
    chip = ann.locator(".deck-summary a.chip").first
    href = chip.get_attribute("href") or ""
    assert re.search(r"/one-night/house/rules#role-[a-z]+$", href), href


def test_the_host_hands_the_role_to_another_player(
    live_server: LiveServer, new_player_page: NewPlayerPage, game_db: GameDB
) -> None:
    ann, ben = (new_player_page(n) for n in ("Ann", "Ben"))
    code = seat_table(live_server.url, ann, "Ann", {"Ben": ben})
    ann.get_by_role("button", name="Make Ben the host").click()
    expect(ben.get_by_role("button", name="Deal and start the game")).to_be_visible()
    expect(ann.get_by_role("button", name="Deal and start the game")).to_have_count(0)
    expect(ann.locator(".chat-log")).to_contain_text("Ben is the host now.")
    assert game_db.table(code)["stage"] == "lobby"


def test_what_the_host_typed_in_one_form_survives_the_answer_to_another(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    """The host types a day length, does not save it, and saves the cards: the cards' answer
    redraws the panel, and the typed day length is still there to be saved."""
    ann, ben, cat = (new_player_page(n) for n in ("Ann", "Ben", "Cat"))
    seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    ann.get_by_label("Day length (minutes)").fill("12")
    save_deck(ann, QUIET_DECK)
    expect(ann.get_by_label("Day length (minutes)")).to_have_value("12")
