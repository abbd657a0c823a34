"""Table mode, One Night (issue 28), on a phone in Chromium: the narrator calls the wake steps
of a deck with a Doppelganger in rules/002's order, the day's clock runs out into "3, 2, 1,
Vote!", and the reveal sheet names the dead and the winners as the engine does."""

from __future__ import annotations

from playwright.sync_api import expect

from games.families.onenight.engine import Role, Ruleset
from games.families.onenight.narrator import narration, reveal_sheet

from .live_server import LiveServer
from .players import NewPlayerPage

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]
DECK = {
    "doppelganger": 1,
    "werewolf": 2,
    "minion": 1,
    "seer": 1,
    "robber": 1,
    "troublemaker": 1,
    "insomniac": 1,
}
# rules/002 s5, for this deck: every step the narrator must call, in order.
WAKE_ORDER = [
    "doppelganger",
    "doppelganger-minion",
    "werewolves",
    "minion",
    "seer",
    "robber",
    "troublemaker",
    "insomniac",
    "doppelganger-insomniac",
]


def test_the_narrator_calls_a_doppelganger_deck_in_order_then_counts_the_reveal(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    page = new_player_page("Host", phone=True)
    page.goto(f"{live_server.url}/at-the-table/")
    page.get_by_role("link", name="Set up the narrator").click()
    page.get_by_label("Rules", exact=True).select_option("official")
    page.get_by_label("Players, one per line").fill("\n".join(PLAYERS))
    for role, count in DECK.items():
        page.locator(f"input[name=count_{role}]").fill(str(count))
    page.get_by_label("Day length (minutes)").fill("1")
    page.get_by_role("button", name="Ready: show the night").click()
    steps = page.locator("#steps li")
    expect(steps).to_have_count(len(WAKE_ORDER))
    assert [steps.nth(i).get_attribute("data-key") for i in range(len(WAKE_ORDER))] == WAKE_ORDER
    # A quick night: no speech, one second for the seer, none for the others; the seer's step
    # is skipped by hand.
    page.get_by_label("Speak aloud").uncheck()
    for i, key in enumerate(WAKE_ORDER):
        page.locator("#steps li input.seconds").nth(i).fill("30" if key == "seer" else "0")
    page.get_by_role("button", name="Start the night").click()
    expect(page.locator("#now")).to_contain_text("Seer, wake up")
    expect(page.locator("body")).to_have_class("night-screen")  # dark while eyes are closed
    page.get_by_role("button", name="Skip this step").click()
    expect(page.locator("#narrator")).to_have_attribute("data-night", "over")
    assert page.locator("#narrator").get_attribute("data-called") == " ".join(WAKE_ORDER)
    expect(page.locator("#day")).to_be_visible()
    expect(page.locator("body")).not_to_have_class("night-screen")
    # The day: the host calls the vote early; the count-in ends on "Vote!".
    page.get_by_role("button", name="Vote now").click()
    expect(page.locator("#vote-call")).to_have_text("Vote!")
    expect(page.locator("#narrator")).to_have_attribute("data-day", "over")
    # The reveal sheet: the cards as they lie now, and the votes.
    cards = ("werewolf", "seer", "doppelganger", "minion", "robber")
    final = dict(zip(PLAYERS, cards, strict=True))
    votes = {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ben", "Eve": "Ann"}
    for index, name in enumerate(PLAYERS):
        page.locator(f"select[name=final_{index}]").select_option(final[name])
        page.locator(f"select[name=vote_{index}]").select_option(votes[name])
    page.get_by_label("the card it copied").select_option("werewolf")
    page.get_by_role("button", name="Who died, who won?").click()
    expect(page.locator("#verdict .verdict-dead")).to_have_text("Died: Ann.")
    verdict = reveal_sheet(
        Ruleset.OFFICIAL,
        PLAYERS,
        {n: Role(c) for n, c in final.items()},
        votes,
        copied=Role.WEREWOLF,
    )
    assert verdict.dead == ("Ann",)
    expect(page.locator("#verdict .verdict-winners")).to_have_text(
        f"Winners: {', '.join(verdict.winners)}."
    )
    expect(page.locator("#verdict")).to_contain_text(verdict.reason)
    assert [c.key for c in narration(Ruleset.OFFICIAL, [Role(r) for r in DECK])] == WAKE_ORDER


def test_a_sheet_that_cannot_be_is_refused_with_a_reason(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    page = new_player_page("Host", phone=True)
    page.goto(f"{live_server.url}/at-the-table/one-night/?go=1&players=Ann%0ABen")
    expect(page.locator("#setup-error")).to_contain_text("3 to 12 players")
    page.goto(
        f"{live_server.url}/at-the-table/one-night/?go=1&ruleset=house&players=Ann%0ABen%0ACat"
    )
    for index in range(3):
        page.locator(f"select[name=final_{index}]").select_option("villager")
    page.locator("select[name=final_0]").select_option("werewolf")
    page.locator("select[name=final_1]").select_option("werewolf")
    page.locator("select[name=final_2]").select_option("werewolf")
    page.get_by_role("button", name="Who died, who won?").click()
    expect(page.locator("#verdict")).to_contain_text("These rules have 2 Werewolf cards, not 3.")
