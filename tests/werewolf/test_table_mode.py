"""Table mode for multi-night Werewolf (issue 28), through the pages as the moderator's phone
posts them: the set-up, real cards entered, a guided night, both ways of counting a vote with a
sheriff's 1.5 and a tie broken by the sheriff, an undo, Oxford's execution call, and the same
result the scenario runner gives for the same game."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.families.werewolf.engine.scenario import run_scenario
from games.families.werewolf.stored import game_of
from games.tables.models import Seat, Table
from tests.factories import new_client

pytestmark = pytest.mark.django_db

CLASSIC = {
    "Ann": "werewolf",
    "Ben": "werewolf",
    "Cat": "seer",
    "Dan": "witch",
    "Eve": "hunter",
    "Fay": "villager",
    "Gus": "villager",
    "Hal": "villager",
}
CLASSIC_SCENARIO = {
    "ruleset": "classic",
    "players": list(CLASSIC),
    "roles": CLASSIC,
    "phases": [
        {
            "night": {
                "actions": {"Ann": {"kill": "Fay"}, "Ben": {"kill": "Fay"}, "Cat": {"check": "Ann"}}
            }
        },
        {
            "day": {
                "sheriff_votes": {
                    "Ann": "Cat",
                    "Ben": "Cat",
                    "Cat": "Dan",
                    "Dan": "Cat",
                    "Eve": "Cat",
                    "Gus": "Cat",
                    "Hal": "Cat",
                },
                "votes": {"Dan": "Ann", "Eve": "Ann", "Ann": "Gus", "Ben": "Gus"},
                "tie_break": "Ann",
            }
        },
        {
            "night": {
                "actions": {"Ben": {"kill": "Cat"}, "Dan": {"save": True}, "Cat": {"check": "Ben"}}
            }
        },
        {"day": {"votes": {"Cat": "Ben", "Dan": "Ben", "Ben": "Dan", "Gus": "Dan"}}},
    ],
}


class Moderator:
    """The moderator's phone: opens the table, posts each tap, reads the panel."""

    def __init__(self, ruleset: str, players: list[str]) -> None:
        self.client: Client = new_client()
        answer = self.client.post(
            reverse("moderate"),
            {"ruleset": ruleset, "moderator": "Mo", "players": "\n".join(players)},
        )
        assert answer.status_code == 302, answer.content[:500]
        self.code = answer["Location"].rstrip("/").split("/")[-1]
        self.table = Table.objects.get(code=self.code)
        self.seats = {s.name: s.pk for s in Seat.objects.filter(table=self.table)}

    def post(self, kind: str, fields: dict[str, object], status: int = 200) -> str:
        answer = self.client.post(
            reverse("move", args=[self.code, kind]), fields, HTTP_HX_REQUEST="true"
        )
        assert answer.status_code == status, html.unescape(answer.content.decode())[:2000]
        return html.unescape(answer.content.decode())

    def page(self) -> str:
        return html.unescape(self.client.get(reverse("table", args=[self.code])).content.decode())

    def deal(self, cards: dict[str, str]) -> None:
        self.client.post(reverse("options", args=[self.code]), {"deal": "cards"})
        fields = {f"card_{self.seats[n]}": role for n, role in cards.items()}
        answer = self.client.post(reverse("options", args=[self.code]), fields)
        assert answer.status_code in (200, 302), answer.content[:500]
        answer = self.client.post(reverse("start", args=[self.code]))
        assert answer.status_code in (200, 302), html.unescape(answer.content.decode())[:2000]
        self.table.refresh_from_db()
        assert self.table.stage == "playing", self.page()[:3000]

    def night(self, who: str, key: str, target: str) -> str:
        value = {"": "", "yes": "yes", "no": "no"}.get(target, str(self.seats.get(target, target)))
        return self.post("night", {"as": self.seats[who], "key": key, "target": value})

    def game(self):  # the engine's Game
        self.table.refresh_from_db()
        return game_of(self.table.state)

    def quiet_night(self, victim: str, checked: str) -> None:
        """A CLASSIC night with nothing unusual: the pack (Ann) kills `victim`, the witch (Dan)
        keeps both potions, the seer (Cat) checks `checked`; then daybreak."""
        self.night("Ann", "kill", victim)
        self.night("Dan", "save", "no")
        self.night("Dan", "poison", "")
        self.night("Cat", "check", checked)
        self.post("advance", {})

    def quiet_day(self) -> None:
        """A day where nobody is elected sheriff nor voted out: on to the next night."""
        self.post("sheriff_votes", {})
        self.post("advance", {})
        self.post("votes", {})


@pytest.fixture
def mod() -> Moderator:
    """The moderator's phone with CLASSIC at the table, its real cards entered: night 1 is
    being called (the start of most tests here)."""
    mod = Moderator("classic", list(CLASSIC))
    mod.deal(CLASSIC)
    return mod


def test_a_classic_game_moderated_at_the_table_ends_as_the_scenario_runner_says() -> None:
    mod = Moderator("classic", list(CLASSIC))
    assert "Mo" not in game_of_players(mod)  # the moderator's seat is not a player
    page = mod.page()
    assert "Who deals" in page
    mod.deal(CLASSIC)
    assert set(mod.game().setup.players) == set(CLASSIC)
    page = mod.page()
    # The night in rules/004's order: the werewolves first, then the witch, then the seer.
    calls = re.findall(r'<li class="[^"]*" data-key="([a-z_]+)">', page)
    assert calls[:4] == ["kill", "save", "poison", "check"], calls
    assert "data-dark" in page  # the screen goes dark at night
    mod.night("Ann", "kill", "Fay")
    page = mod.night("Dan", "save", "no")
    assert "poison" in page  # the witch's second potion is called next
    mod.night("Dan", "poison", "")
    page = mod.night("Cat", "check", "Ann")
    assert "Show them: Ann shows as werewolf." in page  # the seer's answer, at once
    assert mod.game().state.phase.kind == "night"  # the moderator ends the night
    mod.post("advance", {})
    assert mod.game().state.phase.kind == "day"
    page = mod.page()
    assert "Last night died: Fay." in page
    assert "Last words: Fay (the first night's dead always speak)." in page  # 004 III
    assert "Cat: Ann shows as: werewolf." in page
    # The sheriff election, counted the normal way (voters tapped under their candidate).
    votes = {
        "Ann": "Cat",
        "Ben": "Cat",
        "Cat": "Dan",
        "Dan": "Cat",
        "Eve": "Cat",
        "Gus": "Cat",
        "Hal": "Cat",
    }
    mod.post("sheriff_votes", {f"vote_{mod.seats[v]}": mod.seats[c] for v, c in votes.items()})
    assert mod.game().state.sheriff == "Cat"
    mod.post("advance", {})  # the discussion ends: the vote
    # The vote, counted the normal way: a tie between Ann and Gus, broken by the sheriff.
    votes = {"Dan": "Ann", "Eve": "Ann", "Ann": "Gus", "Ben": "Gus"}
    page = mod.post("votes", {f"vote_{mod.seats[v]}": mod.seats[c] for v, c in votes.items()})
    assert "Waiting for Cat's tie break" in page
    mod.post("decide", {"target": mod.seats["Ann"]})
    assert "Ann" not in mod.game().state.alive
    # Night 2, with a mis-tap undone.
    mod.night("Ben", "kill", "Dan")
    page = mod.post("undo", {})
    assert mod.game().state.choices.get("Ben", {}).get("kill") is None
    mod.night("Ben", "kill", "Cat")
    page = mod.page()
    assert "Save Cat" in page  # the witch is told the victim
    page = mod.night("Dan", "save", "yes")
    assert 'data-key="poison"' in page and "Dan (Witch)</strong>: nothing" in page  # one potion
    mod.night("Cat", "check", "Ben")
    mod.post("advance", {})
    page = mod.page()
    assert "Nobody died last night." in page
    mod.post("advance", {})
    # Day 2, counted the advanced way: who voted for whom, counted at the end; the sheriff's
    # 1.5 makes 2.5 against 2.
    mod.post("count", {"count": "advanced"})
    page = mod.page()
    assert "(sheriff, 1.5)" in page
    votes = {"Cat": "Ben", "Dan": "Ben", "Ben": "Dan", "Gus": "Dan"}
    page = mod.post("votes", {f"vote_{mod.seats[v]}": mod.seats[c] for v, c in votes.items()})
    game = mod.game()
    assert game.state.over
    expected = run_scenario(CLASSIC_SCENARIO)
    assert expected["winner"] == game.state.outcome.winner == "good"
    assert expected["alive"] == list(game.state.living())
    assert "The good win" in mod.page()


def game_of_players(mod: Moderator) -> list[str]:
    return [s for s in mod.seats if s != "Mo"] if mod.table.stage == "lobby" else []


def test_an_oxford_game_with_an_execution_call_and_fates_dashboard() -> None:
    cards = {
        "Ann": "werewolf",
        "Ben": "wolfsbane",
        "Cat": "trapper",
        "Dan": "villager",
        "Eve": "villager",
    }
    mod = Moderator("oxford", list(cards))
    mod.deal(cards)
    page = mod.page()
    assert "Everyone has been called" in page  # Oxford's night 1 has no actions
    mod.post("advance", {})
    assert mod.game().state.phase.kind == "day"
    page = mod.page()
    assert "An execution call" in page and "Fate smites" in page
    assert "wolfsbane" in page.lower()  # every player's role at a glance
    fields = {"accused": mod.seats["Ann"], "by": mod.seats["Ben"], "second": mod.seats["Cat"]}
    page = mod.post("accuse", fields)
    assert "Execution call on Ann" in page
    page = mod.post("fists", {"open": [mod.seats[n] for n in ("Ben", "Cat", "Dan")]})
    game = mod.game()
    assert game.state.over and game.state.outcome.winner == "village"
    scenario = {
        "ruleset": "oxford",
        "players": list(cards),
        "roles": cards,
        "phases": [
            {"night": {}},
            {
                "day": {
                    "events": [
                        {
                            "call": {
                                "accused": "Ann",
                                "by": "Ben",
                                "second": "Cat",
                                "yes": ["Ben", "Cat", "Dan"],
                            }
                        }
                    ]
                }
            },
        ],
    }
    assert run_scenario(scenario)["winner"] == "village"


def test_a_forum_game_by_seat_numbers_with_the_app_dealing() -> None:
    mod = Moderator("forum", ["5"])
    assert sorted(mod.seats) == ["Mo", "Seat 1", "Seat 2", "Seat 3", "Seat 4", "Seat 5"]
    mod.client.post(
        reverse("options", args=[mod.code]),
        {"count_werewolf": "1", "count_seer": "1", "count_protector": "1", "count_villager": "2"},
    )
    assert mod.client.post(reverse("start", args=[mod.code])).status_code in (200, 302)
    game = mod.game()
    assert sorted(game.setup.players) == [f"Seat {n}" for n in range(1, 6)]
    page = mod.page()
    for player, role in game.setup.roles.items():
        assert f"{player}</td><td>{role.title}" in page  # the moderator sees every role


def test_only_the_moderator_moves_and_a_refused_tap_changes_nothing(mod: Moderator) -> None:
    version = Table.objects.get(pk=mod.table.pk).version
    page = mod.post(
        "night", {"as": mod.seats["Cat"], "key": "check", "target": mod.seats["Cat"]}, 400
    )
    assert "error" in page
    mod.post("night", {"as": "99999", "key": "kill", "target": ""}, 400)
    assert Table.objects.get(pk=mod.table.pk).version == version
    stranger = new_client()
    answer = stranger.post(reverse("move", args=[mod.code, "night"]), {"as": mod.seats["Ann"]})
    assert answer.status_code in (302, 403)
    assert Table.objects.get(pk=mod.table.pk).version == version


def _called(page: str) -> str:
    """The current call's heading in the moderator-only area (who holds the role called)."""
    found = re.search(r'id="mod-private">.*?<h2>([^<]+)</h2>', page, re.S)
    assert found, page[:3000]
    return found.group(1)


def _read_aloud(page: str) -> str:
    """What the moderator reads aloud to the table, as text."""
    found = re.search(r'<div class="read-aloud" id="mod-read"[^>]*>(.*?)</div>', page, re.S)
    assert found, page[:3000]
    return re.sub(r"<[^>]+>", " ", found.group(1))


def test_the_read_aloud_block_names_the_role_called_and_nothing_secret(mod: Moderator) -> None:
    """Issue 38 item 5: what the moderator reads aloud names the role called, never who holds
    it, whether they are alive, nor a rule's section; those are in the moderator-only area."""
    page = mod.page()
    assert "Hand the host role to" not in page  # the players have no phone to host from
    assert "Sound when it is my turn" not in page and "rejoin link" not in page
    spoken = _read_aloud(page)
    assert "Werewolves, wake up." in spoken and "Werewolves, close your eyes." in spoken
    for secret in (*CLASSIC, "004", "rules/", "(", "Seer"):
        assert secret not in spoken, (secret, spoken)
    private = page[page.index('id="mod-private"') :]
    assert "Only for you" in private and "004" in private
    assert page.index('id="mod-read"') < page.index('id="mod-private"')
    mod.night("Ann", "kill", "Cat")  # the seer dies tonight
    spoken = _read_aloud(mod.page())
    assert "Witch, wake up." in spoken and "close your eyes" not in spoken  # two potions
    assert "Dan" not in spoken
    spoken = _read_aloud(mod.night("Dan", "save", "no"))
    assert "still awake" in spoken and "Witch, close your eyes." in spoken
    mod.night("Dan", "poison", "")
    mod.night("Cat", "check", "Ben")
    mod.post("advance", {})
    mod.quiet_day()
    page = mod.night("Ann", "kill", "Fay")
    mod.night("Dan", "save", "no")
    page = mod.night("Dan", "poison", "")
    spoken = _read_aloud(page)  # the dead seer's call sounds like any other
    assert " ".join(spoken.split()) == "Seer, wake up. Then: “Seer, close your eyes.”"
    assert "Nobody answers" in page[page.index('id="mod-private"') :]


def _calls(page: str) -> list[str]:
    return re.findall(r'<li class="[^"]*" data-key="([a-z_]*)">\s*<strong>([^<]+)</strong>', page)


def test_oxford_werewolves_maul_one_by_one() -> None:
    cards = {
        "Ann": "werewolf",
        "Ben": "werewolf",
        "Cat": "trapper",
        "Dan": "villager",
        "Eve": "villager",
        "Fay": "wolfsbane",
    }
    mod = Moderator("oxford", list(cards))
    mod.deal(cards)
    mod.post("advance", {})  # night 1: they meet; nobody acts
    mod.post("advance", {})  # day 1: no call
    assert mod.game().state.phase.label == "night 2"
    spoken = _read_aloud(mod.page())  # the pack wakes once, by the pack's name
    assert "Werewolves, wake up." in spoken and "Ann" not in spoken
    mod.night("Ann", "maul", "Dan")
    assert "Werewolves, close your eyes." in _read_aloud(mod.page())
    mod.night("Ben", "maul", "Eve")
    choices = mod.game().state.choices
    assert choices["Ann"]["maul"] == "Dan" and choices["Ben"]["maul"] == "Eve"


def test_undo_takes_back_the_end_and_a_daybreak_keeps_the_nights_calls() -> None:
    cards = {
        "Ann": "werewolf",
        "Ben": "wolfsbane",
        "Cat": "trapper",
        "Dan": "villager",
        "Eve": "villager",
    }
    mod = Moderator("oxford", list(cards))
    mod.deal(cards)
    mod.post("advance", {})
    mod.post("smite", {"target": mod.seats["Ann"]})  # a mis-tap: the last werewolf
    mod.table.refresh_from_db()
    assert mod.table.stage == "over"
    mod.post("undo", {})
    mod.table.refresh_from_db()
    assert mod.table.stage == "playing" and "Ann" in mod.game().state.alive
    assert Seat.objects.get(pk=mod.seats["Ann"]).alive
    # Night 2: every call made, daybreak, then undo: the calls are still made.
    mod.post("advance", {})
    mod.night("Ann", "maul", "Dan")
    mod.night("Ben", "protect", "Dan")
    mod.night("Cat", "trap", "Dan")
    before = _calls(mod.page())
    mod.post("advance", {})
    mod.post("undo", {})
    assert _calls(mod.page()) == before
    assert "Everyone has been called" in mod.page()


def test_a_double_tap_is_refused_and_changes_nothing(mod: Moderator) -> None:
    version = Table.objects.get(pk=mod.table.pk).version
    mod.post(
        "night",
        {"as": mod.seats["Ann"], "key": "kill", "target": mod.seats["Fay"], "version": version},
    )
    page = mod.post(
        "night",
        {"as": mod.seats["Ann"], "key": "kill", "target": mod.seats["Gus"], "version": version},
        409,
    )
    assert "moved on" in page
    assert mod.game().state.choices["Ann"]["kill"] == "Fay"


def test_a_dead_role_is_still_called_in_its_place(mod: Moderator) -> None:
    mod.quiet_night("Cat", "Ben")  # the seer dies tonight
    mod.quiet_day()
    assert mod.game().state.phase.label == "night 2"
    calls = _calls(mod.page())
    assert [title for _, title in calls] == ["The werewolves", "Dan (Witch)", "Dan (Witch)", "Seer"]
    page = mod.post("night", {"as": mod.seats["Ann"], "key": "kill", "target": mod.seats["Fay"]})
    mod.night("Dan", "save", "no")
    page = mod.night("Dan", "poison", "")
    assert "Called: next" in page  # the dead seer's call is the current one
    page = mod.post("called", {"role": "seer"})
    assert "Everyone has been called" in page


def test_oxford_lovers_and_crossbows_entered_from_fates_cards() -> None:
    cards = {
        "Ann": "werewolf",
        "Ben": "wolfsbane",
        "Cat": "trapper",
        "Dan": "villager",
        "Eve": "villager",
        "Fay": "werewolf",
    }
    mod = Moderator("oxford", list(cards))
    options = reverse("options", args=[mod.code])
    mod.client.post(options, {"lovers": "1", "crossbows": "1"})
    mod.client.post(options, {"deal": "cards"})
    fields = {f"card_{mod.seats[n]}": role for n, role in cards.items()}
    mod.client.post(options, fields)
    page = mod.page()
    assert "Lovers, pair 1" in page and "crossbow Fate gave" in page
    assert "Enter the lovers Fate dealt" in page  # the start waits for them
    pair = {"oxford_deal": "1", "lover_0_a": mod.seats["Ben"], "lover_0_b": mod.seats["Dan"]}
    mod.client.post(options, {**pair, "crossbow": [mod.seats["Fay"]]})
    assert mod.client.post(reverse("start", args=[mod.code])).status_code in (200, 302)
    setup = mod.game().setup
    assert setup.lovers == (("Ben", "Dan"),) and setup.crossbows == frozenset({"Fay"})


def test_a_call_kept_for_a_dead_role_is_passed_even_from_an_old_page(mod: Moderator) -> None:
    """Issue 35: the passed call's form once posted a hidden as=0, which was refused as a
    player ("Choose a player from the list on the page.") and left the night stuck."""
    mod.quiet_night("Cat", "Ben")  # the seer dies
    mod.quiet_day()
    mod.night("Ann", "kill", "Fay")
    mod.night("Dan", "save", "no")
    page = mod.night("Dan", "poison", "")
    form = re.search(r'<form[^>]*action="([^"]+)"[^>]*>(?:(?!</form>).)*id="called"', page, re.S)
    assert form and form.group(1).endswith("/called")
    assert 'name="as"' not in form.group(0)  # nothing to read as a player
    page = mod.post("called", {"as": "0", "key": "", "role": "seer"})  # as an old page sent it
    assert "Everyone has been called" in page


def test_a_witch_with_both_potions_spent_is_passed_with_one_tap(mod: Moderator) -> None:
    mod.night("Ann", "kill", "Fay")
    mod.night("Dan", "save", "yes")  # the antidote, night 1
    mod.night("Cat", "check", "Ann")
    mod.post("advance", {})
    mod.quiet_day()
    mod.night("Ann", "kill", "Gus")
    mod.night("Dan", "poison", "Hal")  # the poison, night 2
    mod.night("Cat", "check", "Ben")
    mod.post("advance", {})
    mod.post("advance", {})
    mod.post("votes", {})
    assert mod.game().state.phase.label == "night 3"
    page = mod.night("Ann", "kill", "Eve")
    assert _called(page) == "Witch"
    page = mod.post("called", {"role": "witch"})
    assert "Cat (Seer)" in _called(page)


def test_a_changed_victim_calls_the_witch_again(mod: Moderator) -> None:
    """A save stands for the victim the witch was shown: the pack's victim changed, or taken
    back, her call comes again, and daybreak is never refused for a save with nobody
    attacked."""
    mod.night("Ann", "kill", "Fay")
    mod.night("Dan", "save", "yes")
    mod.night("Cat", "check", "Ann")
    page = mod.night("Ann", "kill", "")  # the moderator changes the pack's choice: no kill
    assert "save" not in mod.game().state.choices.get("Dan", {})
    assert _called(page) == "Dan (Witch)"
    mod.night("Dan", "save", "no")
    page = mod.night("Dan", "poison", "")
    assert "Everyone has been called" in page
    mod.post("advance", {})
    assert mod.game().state.phase.kind == "day"


KNIGHT = {**CLASSIC, "Eve": "knight"}


def test_the_knights_duel_offers_no_no_one_and_refuses_in_the_pages_words() -> None:
    """004 II Knight: the duel names a player. The page offers no "no one"; a duel sent
    without a target, or at the knight himself, is refused in the page's words with the
    section, never the engine's ("must name a player, not None")."""
    mod = Moderator("classic", list(KNIGHT))
    mod.deal(KNIGHT)
    mod.quiet_night("Gus", "Ann")
    page = mod.post("sheriff_votes", {})
    duel = re.search(
        r'<select name="target"[^>]*aria-label="Eve\'s Duel target">(.*?)</select>', page
    )
    assert duel, page
    assert "no one" not in duel.group(1)
    assert re.match(r'<option value="" disabled selected>choose…</option>', duel.group(1))
    version = Table.objects.get(pk=mod.table.pk).version
    for target in ("", str(mod.seats["Eve"])):
        page = mod.post(
            "ability", {"as": mod.seats["Eve"], "ability": "duel", "target": target}, 400
        )
        assert "None" not in page and "Eve (Knight)" not in page
        assert "Choose the player Eve names" in page or "(004 II Knight" in page
    assert Table.objects.get(pk=mod.table.pk).version == version
    page = mod.post(
        "ability", {"as": mod.seats["Eve"], "ability": "duel", "target": mod.seats["Ann"]}
    )
    assert "Ann" not in mod.game().state.alive


def test_votes_counted_by_hand_are_one_tap_per_player_without_javascript(mod: Moderator) -> None:
    """Issue 38 item 5: tap the accused, then each voter; each tap is a plain form (no
    JavaScript), recorded at once, and a second tap takes a vote back; nothing is lost."""
    mod.quiet_night("Fay", "Ann")
    page = mod.page()
    buttons = re.findall(r'<button type="submit" name="accused" value="(\d+)"', page)
    assert len(buttons) == len(CLASSIC) - 1  # one big button per living candidate
    assert 'name="vote_' not in page  # no grid of radio chips

    def tap(kind: str, fields: dict[str, object]) -> None:
        answer = mod.client.post(reverse("move", args=[mod.code, kind]), fields)  # no htmx
        assert answer.status_code in (200, 302, 303), answer.content[:1500]

    tap("accused", {"accused": mod.seats["Cat"]})
    page = mod.page()
    assert re.search(r"Tap each player who votes for <strong>Cat</strong>", page)
    for voter in ("Ann", "Ben", "Cat", "Dan"):
        tap("sheriff_vote", {"as": mod.seats[voter], "target": mod.seats["Cat"]})
    tap("sheriff_vote", {"as": mod.seats["Dan"], "target": ""})  # Dan's hand went down
    tap("accused", {"accused": mod.seats["Eve"]})
    tap("sheriff_vote", {"as": mod.seats["Dan"], "target": mod.seats["Eve"]})
    votes = mod.game().state.sheriff_votes
    assert {v: t for v, t in votes.items() if t} == {
        "Ann": "Cat", "Ben": "Cat", "Cat": "Cat", "Dan": "Eve"
    }  # fmt: skip
    page = mod.page()
    assert re.search(r'aria-pressed="true" data-voter="Dan">Dan <small>for Eve</small>', page)
    assert re.search(r'aria-pressed="false" data-voter="Ann">Ann <small>for Cat</small>', page)
    refused = mod.client.post(reverse("move", args=[mod.code, "accused"]), {"accused": "999"})
    assert refused.status_code == 400
    mod.post("sheriff_votes", {})
    assert mod.game().state.sheriff == "Cat"
