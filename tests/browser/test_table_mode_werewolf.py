"""Table mode, multi-night (issue 28), on a phone in Chromium: the moderator seats the players,
enters the real cards, is guided through each night in rules/004's order, reads out the dawn,
counts the sheriff election and a vote by hand (the accused, then each voter) and a vote the
advanced way, lets the sheriff break a tie, undoes a mis-tap, and ends on the result the
scenario runner gives for the same game. Then an Oxford and a forum game, shorter."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from games.families.werewolf.engine.scenario import run_scenario
from tests.werewolf.test_table_mode import CLASSIC, CLASSIC_SCENARIO

from .live_server import LiveServer
from .players import NewPlayerPage


def _open(page: Page, url: str, game: str, players: list[str]) -> None:
    page.goto(f"{url}/at-the-table/")
    page.get_by_role("link", name="Set up a moderated game").click()
    page.get_by_label("The game").select_option(game)
    page.get_by_label("Players, one per line").fill("\n".join(players))
    page.get_by_role("button", name="Seat the players").click()
    expect(page.locator("#deal")).to_be_visible()


def _enter_cards(page: Page, cards: dict[str, str]) -> None:
    page.get_by_label("Who deals").select_option("cards")
    page.get_by_role("button", name="Save the deal").click()
    for name, role in cards.items():
        page.get_by_label(f"{name}'s card").select_option(role)
    page.get_by_role("button", name="Save the deal").click()
    page.get_by_role("button", name="Deal and start the game").click()
    expect(page.locator("#moderator")).to_be_visible()


def _tap(page: Page, label: str) -> None:
    """A choice of the current call."""
    version = page.locator("#panel").get_attribute("data-version")
    page.locator("#mod-call").get_by_role("button", name=label, exact=True).click()
    expect(page.locator("#panel")).not_to_have_attribute("data-version", version or "")


def _press(page: Page, name: str) -> None:
    version = page.locator("#panel").get_attribute("data-version")
    page.get_by_role("button", name=name).click()
    expect(page.locator("#panel")).not_to_have_attribute("data-version", version or "")


def _count(page: Page, votes: dict[str, str]) -> None:
    """Counting by hand: for each player voted for, tap them, then tap each of their voters;
    each tap is recorded at once (the panel moves on)."""
    by_target: dict[str, list[str]] = {}
    for voter, target in votes.items():
        by_target.setdefault(target, []).append(voter)
    for target, voters in by_target.items():
        version = page.locator("#panel").get_attribute("data-version")
        page.locator(f'#tally-accused [data-accused="{target}"]').click()
        expect(page.locator("#panel")).not_to_have_attribute("data-version", version or "")
        expect(page.locator(f'#tally-accused [data-accused="{target}"]')).to_have_attribute(
            "aria-pressed", "true"
        )
        for voter in voters:
            version = page.locator("#panel").get_attribute("data-version")
            page.locator(f'#tally-voters [data-voter="{voter}"]').click()
            expect(page.locator("#panel")).not_to_have_attribute("data-version", version or "")
        count = page.locator(f'#tally-accused [data-accused="{target}"] .count')
        expect(count).to_have_text(str(len(voters)))


def test_a_classic_game_moderated_on_a_phone(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    page = new_player_page("Moderator", phone=True)
    _open(page, live_server.url, "classic", list(CLASSIC))
    _enter_cards(page, CLASSIC)
    # Night 1, guided: the werewolves, the witch (both potions), the seer; the screen is dark.
    expect(page.locator("body")).to_have_class("night-screen")
    expect(page.locator("#mod-call h2")).to_have_text("The werewolves")
    _tap(page, "Fay")
    expect(page.locator("#mod-call h2")).to_have_text("Dan (Witch)")
    expect(page.locator("#mod-call")).to_contain_text("Save Fay")
    _tap(page, "Do not save")
    _tap(page, "No poison tonight")
    expect(page.locator("#mod-call h2")).to_have_text("Cat (Seer)")
    _tap(page, "Ann")
    expect(page.locator("#mod-calls")).to_contain_text("Show them: Ann shows as werewolf.")
    _press(page, "Daybreak")
    # Daybreak: the dead without causes (rules/004), what to tell the seer.
    expect(page.locator("#mod-dawn")).to_contain_text("Last night died: Fay.")
    expect(page.locator("#mod-private")).to_contain_text("Cat: Ann shows as: werewolf.")
    expect(page.locator("body")).not_to_have_class("night-screen")
    # The sheriff election, counted the normal way, the count following each tap.
    _count(page, {**{v: "Cat" for v in ("Ann", "Ben", "Dan", "Eve", "Gus", "Hal")}, "Cat": "Dan"})
    _press(page, "End the election: count")
    expect(page.locator(".mod-head")).to_contain_text("Sheriff: Cat")
    _press(page, "End the discussion: to the vote")
    # The vote, normal way: a tie, broken by the sheriff.
    _count(page, {"Dan": "Ann", "Eve": "Ann", "Ann": "Gus", "Ben": "Gus"})
    _press(page, "End the vote: count")
    expect(page.locator("#mod-decide")).to_contain_text("Waiting for Cat's tie break")
    page.locator("#mod-decide").get_by_role("button", name="Ann", exact=True).click()
    # Night 2, with a mis-tap undone.
    expect(page.locator("#mod-call h2")).to_have_text("The werewolves")
    _tap(page, "Dan")
    expect(page.locator("#mod-call h2")).to_have_text("Dan (Witch)")
    _press(page, "Undo the last step")
    expect(page.locator("#mod-call h2")).to_have_text("The werewolves")
    _tap(page, "Cat")
    _tap(page, "Save Cat")  # one potion a night: the poison's call is settled with it
    _tap(page, "Ben")
    _press(page, "Daybreak")
    expect(page.locator("#mod-dawn")).to_contain_text("Nobody died last night.")
    _press(page, "End the discussion: to the vote")
    # Day 2, the advanced way: who voted for whom, counted at the end; 2.5 against 2.
    _press(page, "Advanced counting")
    for voter, target in {"Cat": "Ben", "Dan": "Ben", "Ben": "Dan", "Gus": "Dan"}.items():
        page.locator("#mod-vote").get_by_label(voter).select_option(label=target)
    _press(page, "End the vote: count")
    expected = run_scenario(CLASSIC_SCENARIO)
    expect(page.locator("#mod-end")).to_contain_text(f"The {expected['winner']} win")
    for player in expected["alive"]:
        expect(page.locator("#mod-players")).to_contain_text(player)


def test_an_oxford_call_and_a_forum_game_dealt_by_the_app(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    page = new_player_page("Fate", phone=True)
    cards = {
        "Ann": "werewolf",
        "Ben": "wolfsbane",
        "Cat": "trapper",
        "Dan": "villager",
        "Eve": "villager",
    }
    _open(page, live_server.url, "oxford", list(cards))
    _enter_cards(page, cards)
    _press(page, "Daybreak")  # night 1 has no actions in the Oxford game
    page.get_by_label("Accused").select_option(label="Ann")
    page.get_by_label("Called by").select_option(label="Ben")
    page.get_by_label("Seconded by").select_option(label="Cat")
    _press(page, "Put the call to the fists")
    for player in ("Ben", "Cat", "Dan"):
        page.locator("#mod-fists").get_by_label(player).check()
    _press(page, "Count the fists")
    expect(page.locator("#mod-end")).to_contain_text("The village win")
    # A forum game for five seats, the app dealing: the moderator sees every role.
    page.goto(f"{live_server.url}/at-the-table/several-nights/")
    page.get_by_label("The game").select_option("forum")
    page.get_by_label("Players, one per line").fill("5")
    page.get_by_role("button", name="Seat the players").click()
    page.get_by_role("button", name="Deal and start the game").click()
    expect(page.locator("#mod-call h2")).to_have_text("The werewolves")
    expect(page.locator("#mod-players tr")).to_have_count(5)


FORUM = {"Ann": "werewolf", "Ben": "seer", "Cat": "protector", "Dan": "villager", "Eve": "villager"}
FORUM_SCENARIO = {
    "ruleset": "forum",
    "players": list(FORUM),
    "roles": FORUM,
    "phases": [
        {
            "night": {
                "actions": {
                    "Ann": {"kill": "Dan"},
                    "Ben": {"see": "Ann"},
                    "Cat": {"protect": "Ben"},
                }
            }
        },
        {"day": {"votes": {"Ben": "Ann", "Cat": "Ann", "Eve": "Ann", "Ann": "Ben"}}},
    ],
}


def test_a_forum_game_moderated_to_its_end(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    page = new_player_page("Moderator", phone=True)
    _open(page, live_server.url, "forum", list(FORUM))
    _enter_cards(page, FORUM)
    _tap(page, "Dan")  # the pack
    _tap(page, "Ann")  # the seer
    _tap(page, "Ben")  # the protector
    _press(page, "Daybreak")
    expect(page.locator("#mod-dawn")).to_contain_text("Dan")
    expect(page.locator("#mod-private")).to_contain_text("Ben: Ann shows as")
    _count(page, {"Ben": "Ann", "Cat": "Ann", "Eve": "Ann", "Ann": "Ben"})
    _press(page, "End the vote: count")
    expected = run_scenario(FORUM_SCENARIO)
    expect(page.locator("#mod-end")).to_contain_text(f"The {expected['winner']} win")
    for player in expected["alive"]:
        expect(page.locator("#mod-players tr", has_text=player)).to_contain_text("alive")


NINE = {
    "Ann": "werewolf",
    "Ben": "werewolf",
    "Cat": "werewolf",
    "Dan": "seer",
    "Eve": "witch",
    "Fay": "hunter",
    "Gus": "guardian",
    "Hal": "villager",
    "Ivy": "villager",
}
NINE_SCENARIO = {
    "ruleset": "classic",
    "players": list(NINE),
    "roles": NINE,
    "phases": [
        {
            "night": {
                "actions": {
                    **{wolf: {"kill": "Dan"} for wolf in ("Ann", "Ben", "Cat")},
                    "Dan": {"check": "Ann"},
                    "Gus": {"guard": "Hal"},
                }
            }
        },
        {
            "day": {
                "votes": {
                    **{voter: "Ann" for voter in ("Eve", "Fay", "Gus", "Hal", "Ivy")},
                    **{voter: "Hal" for voter in ("Ann", "Ben", "Cat")},
                }
            }
        },
        {
            "night": {
                "actions": {
                    **{wolf: {"kill": "Hal"} for wolf in ("Ben", "Cat")},
                    "Eve": {"save": True},
                    "Gus": {"guard": "Ivy"},
                }
            }
        },
        {"day": {}},
        {
            "night": {
                "actions": {
                    **{wolf: {"kill": "Ivy"} for wolf in ("Ben", "Cat")},
                    "Eve": {"poison": "Ben"},
                    "Gus": {"guard": "Fay"},
                }
            }
        },
        {"day": {}},
        {"night": {"actions": {"Cat": {"kill": "Hal"}, "Gus": {"guard": "Hal"}}}},
        {"day": {"votes": {voter: "Cat" for voter in ("Eve", "Fay", "Gus", "Hal")}}},
    ],
}


def _call(page: Page, title: str) -> None:
    expect(page.locator("#mod-call h2")).to_have_text(title)


def _vote(page: Page, votes: dict[str, str]) -> None:
    _press(page, "End the discussion: to the vote")
    _count(page, votes)
    _press(page, "End the vote: count")


def test_the_reported_game_passes_the_dead_seer_and_the_spent_witch_to_its_end(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    """Issue 35, as reported on a phone: a 1.7.0 game for nine; the seer attacked on night 1
    and not saved; from night 2 the seer's call is passed with one tap, and once the witch
    has used both potions, hers too; the game is played to its end, which is the scenario
    runner's for the same choices."""
    page = new_player_page("Moderator", phone=True)
    _open(page, live_server.url, "classic", list(NINE))
    _enter_cards(page, NINE)
    # Night 1: the pack attacks the seer; the witch neither saves nor poisons.
    _call(page, "The werewolves")
    _tap(page, "Dan")
    _call(page, "Eve (Witch)")
    _tap(page, "Do not save")
    _tap(page, "No poison tonight")
    _call(page, "Dan (Seer)")
    _tap(page, "Ann")
    _call(page, "Gus (Guardian)")
    _tap(page, "Hal")
    _press(page, "Daybreak")
    expect(page.locator("#mod-dawn")).to_contain_text("Last night died: Dan.")
    _press(page, "End the election: count")  # nobody stands: no sheriff
    _vote(
        page,
        {"Eve": "Ann", "Fay": "Ann", "Gus": "Ann", "Hal": "Ann", "Ivy": "Ann"}
        | {"Ann": "Hal", "Ben": "Hal", "Cat": "Hal"},
    )
    # Night 2: the seer is dead, her call is kept for secrecy and passed with one tap.
    _call(page, "The werewolves")
    _tap(page, "Hal")
    _call(page, "Eve (Witch)")
    _tap(page, "Save Hal")  # the antidote; the poison waits for another night
    _call(page, "Seer")
    expect(page.locator("#mod-call")).to_contain_text("Nobody answers")
    _tap(page, "Called: next")
    _call(page, "Gus (Guardian)")
    _tap(page, "Ivy")
    _press(page, "Daybreak")
    expect(page.locator("#mod-dawn")).to_contain_text("Nobody died last night.")
    _vote(page, {})
    # Night 3: the witch's poison, her last potion.
    _tap(page, "Ivy")
    _call(page, "Eve (Witch)")
    _tap(page, "Ben")
    _call(page, "Seer")
    _tap(page, "Called: next")
    _tap(page, "Fay")
    _press(page, "Daybreak")
    _vote(page, {})
    # Night 4: the witch has nothing left: her call is passed with one tap, then the seer's.
    _call(page, "The werewolves")
    _tap(page, "Hal")
    _call(page, "Witch")
    _tap(page, "Called: next")
    _call(page, "Seer")
    _tap(page, "Called: next")
    _call(page, "Gus (Guardian)")
    _tap(page, "Hal")
    _press(page, "Daybreak")
    expect(page.locator("#mod-dawn")).to_contain_text("Nobody died last night.")
    _vote(page, {"Eve": "Cat", "Fay": "Cat", "Gus": "Cat", "Hal": "Cat"})
    expected = run_scenario(NINE_SCENARIO)
    expect(page.locator("#mod-end")).to_contain_text(f"The {expected['winner']} win")
    for player in NINE:
        who = page.locator("td.who", has_text=re.compile(f"^{player}$"))
        row = page.locator("#mod-players tr").filter(has=who)
        expect(row).to_contain_text("alive" if player in expected["alive"] else "dead")
