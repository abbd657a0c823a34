"""A whole game of One Night played with the keyboard alone (issue 30): every control the
players need is reached with Tab and worked with Enter, Space or the arrows, on every page;
no mouse, no touch. Each page then shows its player's own result."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from .live_server import LiveServer
from .players import NewPlayerPage, in_phase

TABS = 90


def tab_to(page: Page, target: Locator) -> None:
    """Press Tab until `target` has the focus (from wherever the focus is now)."""
    for _ in range(TABS):
        page.keyboard.press("Tab")
        try:
            expect(target).to_be_focused(timeout=80)
            return
        except AssertionError:
            continue
    raise AssertionError(f"{target} cannot be reached with Tab")


def press(page: Page, target: Locator, key: str = "Enter") -> None:
    tab_to(page, target)
    page.keyboard.press(key)


def test_a_whole_game_with_the_keyboard_alone(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    ann, ben, cat = (new_player_page(n) for n in ("Ann", "Ben", "Cat"))
    ann.goto(live_server.url + "/")
    tab_to(ann, ann.get_by_label("Your name"))
    ann.keyboard.type("Ann")
    press(ann, ann.get_by_role("button", name="Create the game"))
    expect(ann).to_have_url(re.compile(r"/g/[A-Z0-9]+/$"))
    code = re.search(r"/g/([A-Z0-9]+)/$", ann.url).group(1)  # type: ignore[union-attr]
    # No rules phrase at this table: the select, worked with the arrows.
    tab_to(ann, ann.get_by_label("Players type the rules phrase to join"))
    ann.keyboard.press("ArrowDown")
    press(ann, ann.get_by_role("button", name="Save the settings"))
    expect(ann.get_by_label("Players type the rules phrase to join")).to_have_value("no")
    for page, name in ((ben, "Ben"), (cat, "Cat")):
        page.goto(f"{live_server.url}/g/{code}/join")
        tab_to(page, page.get_by_label("Your name"))
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        in_phase(page, "Lobby")
    expect(ann.locator(".lobby")).to_contain_text("3 at the table")
    with live_server.deals_in_order():  # the suggested deck: werewolf, werewolf, seer, ...
        press(ann, ann.get_by_role("button", name="Deal and start the game"))
        for page in (ann, ben, cat):
            in_phase(page, "Night")
    # The night: the two werewolves have nothing to do; the seer picks a card with Space.
    for page in (ann, ben):
        press(page, page.get_by_role("button", name="No action: I'm ready"))
    tab_to(cat, cat.get_by_role("radio", name="Ann's card"))
    cat.keyboard.press("Space")
    press(cat, cat.get_by_role("button", name="Send my action"))
    for page in (ann, ben, cat):
        in_phase(page, "Day")
    expect(cat.locator("#night-report")).to_contain_text("Ann's card: it is the Werewolf")
    # The day: a line in the chat, then everyone ready.
    tab_to(cat, cat.get_by_label("Chat message"))
    cat.keyboard.type("Ann is a werewolf, I looked")
    cat.keyboard.press("Enter")
    expect(ann.locator(".chat-log")).to_contain_text("Ann is a werewolf, I looked")
    for page in (ann, ben, cat):
        press(page, page.get_by_role("button", name="I'm ready to vote"))
    for page in (ann, ben, cat):
        in_phase(page, "Voting")
    # The vote, each up the circle (the confirm dialog is answered like a click would be).
    for page in (ann, ben, cat):
        press(page, page.get_by_role("button", name=re.compile(r"^Vote up: ")))
    for page in (ann, ben, cat):
        in_phase(page, "Reveal")
        expect(page.locator("#my-result")).to_be_visible()
    expect(ann.locator("#my-result")).to_contain_text("You won")
    expect(cat.locator("#my-result")).to_contain_text("You lost")
