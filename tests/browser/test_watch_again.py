"""A watcher follows "Play again" as the players do (issue 35, item 5): once a player opens the
next table, the watcher's page goes there by itself, still watching, instead of staying on the
old reveal."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .live_server import LiveServer
from .players import (
    QUIET_DECK,
    NewPlayerPage,
    code_of,
    in_phase,
    quiet_night,
    save_deck,
    seat_table,
    start_game,
)


def test_a_watcher_follows_the_players_to_the_new_game(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    url = live_server.url
    ann, ben, cat = (new_player_page(n, phone=True) for n in ("Ann", "Ben", "Cat"))
    code = seat_table(url, ann, "Ann", {"Ben": ben, "Cat": cat})
    save_deck(ann, QUIET_DECK)
    ann.locator(".watch-link summary").click()
    watch = ann.locator(".watch-link input").input_value()
    watcher = new_player_page("Watcher")
    watcher.goto(watch)
    expect(watcher).to_have_url(f"{url}/g/{code}/")
    expect(watcher.locator("#watching")).to_be_visible()
    start_game(ann)
    quiet_night({"Ann": ann, "Ben": ben, "Cat": cat})
    ann.get_by_role("button", name="End the day now (host)").click()
    for voter, target in (("Ann", "Ben"), ("Ben", "Cat"), ("Cat", "Ben")):
        page = {"Ann": ann, "Ben": ben, "Cat": cat}[voter]
        in_phase(page, "Voting")
        page.locator("#voting").get_by_role("radio", name=target, exact=True).check()
        page.get_by_role("button", name="Cast my vote").click()
    expect(watcher.locator("#reveal")).to_be_visible()
    expect(watcher.get_by_role("button", name="Play again with the same players")).to_have_count(0)

    ben.get_by_role("button", name="Play again with the same players").click()
    expect(ben).not_to_have_url(re.compile(f"/g/{code}/"))
    new_code = code_of(ben)
    # The watcher's page goes to the new table by itself, and watches it.
    expect(watcher).to_have_url(f"{url}/g/{new_code}/")
    expect(watcher.locator("#watching")).to_be_visible()
    expect(watcher.locator(".lobby")).to_contain_text("3 at the table")
    expect(watcher.locator("#panel")).to_have_attribute("data-stage", "lobby")
    # And keeps following it live: a player who leaves is gone from the watcher's lobby too.
    expect(cat).to_have_url(f"{url}/g/{new_code}/")
    cat.get_by_role("button", name="Leave the table").click()
    expect(watcher.locator(".lobby")).to_contain_text("2 at the table")
