"""The phase changes drawn (issue 38 item 2): night falls on every page when the game deals,
day breaks when the night ends, the reveal's cards turn over; nothing moves on a page whose
reader asked for reduced motion. The night's ambience is off until switched on."""

from __future__ import annotations

from playwright.sync_api import expect

from .live_server import LiveServer
from .players import (
    QUIET_DECK,
    NewPlayerPage,
    in_phase,
    quiet_night,
    save_deck,
    seat_table,
    start_game,
)


def test_night_falls_day_breaks_and_the_reveal_turns_unless_motion_is_reduced(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    url = live_server.url
    ann = new_player_page("Ann", phone=True)
    ben = new_player_page("Ben", phone=True)
    cat = new_player_page("Cat", phone=True)
    cat.emulate_media(reduced_motion="reduce")
    seat_table(url, ann, "Ann", {"Ben": ben, "Cat": cat})
    save_deck(ann, QUIET_DECK)
    expect(ann.locator("body")).not_to_have_attribute("data-phase-art", "night-falls")
    expect(ann.locator("#ambience")).not_to_be_checked()
    start_game(ann)
    # The host's page (its own answer) and a guest's (redrawn by the push) both see night fall.
    for page in (ann, ben):
        in_phase(page, "Night")
        expect(page.locator("body")).to_have_attribute("data-phase-art", "night-falls")
    quiet_night({"Ann": ann, "Ben": ben, "Cat": cat})
    expect(ben.locator("body")).to_have_attribute("data-phase-art", "day-breaks")
    ann.get_by_role("button", name="End the day now").click()
    for page, target in ((ann, "Ben"), (ben, "Cat"), (cat, "Ann")):
        in_phase(page, "Voting")
        page.get_by_role("radio", name=target).check()
        page.get_by_role("button", name="Cast my vote").click()
    in_phase(ben, "Reveal")
    expect(ben.locator("body")).to_have_attribute("data-phase-art", "reveal")
    # Reduced motion: the same game, nothing drawn.
    in_phase(cat, "Reveal")
    expect(cat.locator("body")).not_to_have_attribute("data-phase-art", "reveal")
    assert cat.locator("body").get_attribute("data-phase-art") is None
    assert cat.locator(".phase-curtain").count() == 0
