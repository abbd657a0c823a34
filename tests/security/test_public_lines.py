"""What the public lines of a multi-night game may tell (issue 36, item 1; docs/security.md,
"What each public line may reveal").

The hole: at night every seat and every watcher read "x of N players have done their part",
where N counted the living who had a night form. When players died, N fell by the number of
the dead who had held a night power, and it fell again when the witch spent her second
potion; rules/004 announces deaths without roles. Now every living player has a part at night
(those without a power say they are done for the night), so N is the number of the living,
and the night ends early only once all of them are done. A split pack is not done: a table
that saw everyone done while the night went on would learn that two killers disagree.

Played through the family (play.py, panels.py) with the roles dealt as typed, no database.
"""

from __future__ import annotations

import contextlib
import random
import re
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from games.families.werewolf import panels, play, progress, steps, stored
from games.tables.family import Change, FamilyError, SeatInfo, TableInfo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")


class Table:
    """A table of the family alone: the deal as typed, each move as a seat posts it."""

    def __init__(self, ruleset: str, roles: dict[str, str], **options: Any) -> None:
        self.seats = tuple(
            SeatInfo(id=10 + i, name=name, position=i, is_host=i == 0)
            for i, name in enumerate(roles)
        )
        self.info = TableInfo(
            code="TESTCODE",
            family="werewolf",
            ruleset=ruleset,
            options={"deal": "cards", "dealt": roles, **options},
            stage="lobby",
            phase="",
            round=0,
            version=0,
            deadline=None,
            state=None,
            seats=self.seats,
        )
        self.notes: list[str] = []
        self._take(play.start(self.info, random.Random(0), NOW))

    def _take(self, change: Change) -> None:
        self.notes += [note.text for note in change.notes]
        fields = {
            "state": change.state,
            "stage": "over" if change.finished else "playing",
            "phase": change.phase,
            "round": change.round,
            "deadline": change.deadline,
            "version": self.info.version + 1,
        }
        self.info = replace(self.info, **fields)

    def seat(self, name: str) -> SeatInfo:
        return next(s for s in self.seats if s.name == name)

    def id(self, name: str) -> str:
        return str(self.seat(name).id)

    def move(self, name: str, kind: str, **fields: str) -> None:
        self._take(
            play.move(self.info, self.seat(name), kind, {k: [v] for k, v in fields.items()}, NOW)
        )

    def status(self) -> str:
        return panels.public_status(self.info)[0]

    def count(self) -> tuple[int, int]:
        found = re.search(r"(\d+) of (\d+) players? ha(?:s|ve) done", self.status())
        assert found, self.status()
        return int(found.group(1)), int(found.group(2))

    def label(self) -> str:
        return steps.label(stored.game_of(self.info.state))

    def living(self) -> int:
        return len(stored.game_of(self.info.state).state.living())

    def view(self, name: str) -> panels.WerewolfView:
        return panels.view_of(self.info, self.seat(name))


CLASSIC = {
    "Ann": "werewolf",
    "Ben": "werewolf",
    "Cat": "seer",
    "Dan": "witch",
    "Eve": "guardian",
    "Fay": "villager",
    "Gus": "villager",
    "Hal": "hunter",
    "Ivy": "villager",
}


def test_the_night_count_counts_every_living_player_whatever_they_hold() -> None:
    """The table of the issue: whoever dies, and whatever the witch has left, N is the number
    of the living at every night, and the count starts at 0."""
    table = Table("classic", CLASSIC)
    assert table.label() == "Night 1"
    assert table.count() == (0, 9)
    # Night 1: the pack kills the seer; the witch poisons the guardian (a second power gone).
    table.move("Ann", "night", kill=table.id("Cat"))
    table.move("Ben", "night", kill=table.id("Cat"))
    table.move("Dan", "night", poison=table.id("Eve"))
    table.move("Cat", "night", see=table.id("Ann"))
    table.move("Eve", "night", guard=table.id("Fay"))
    assert table.count() == (5, 9)
    for sleeper in ("Fay", "Gus", "Hal"):
        table.move(sleeper, "ready", ready="yes")
    assert table.label() == "Night 1", "the night waits for every living player"
    assert table.count() == (8, 9)
    table.move("Ivy", "ready", ready="yes")
    assert table.label().startswith("Day 1"), "everyone done: the night ends"
    # Day 1 to night 2, the host moving on through the election, speeches and the vote.
    while not table.label().startswith("Night"):
        table.move("Ann", "advance")
    assert table.living() == 7
    assert table.count() == (0, 7), "two powers died: N is still the number of the living"


def test_a_player_without_a_night_power_has_a_part_to_play_and_can_take_it_back() -> None:
    table = Table("classic", CLASSIC)
    fay = table.view("Fay")
    assert fay.sleep and not fay.night and not fay.done
    table.move("Fay", "ready", ready="yes")
    assert table.view("Fay").done
    table.move("Fay", "ready", ready="no")
    assert not table.view("Fay").done
    # A seat with a night form sends its choices (empty: nothing tonight), not "done".
    assert not table.view("Cat").sleep
    with pytest.raises(FamilyError):
        table.move("Cat", "ready", ready="yes")


def test_a_split_pack_is_not_done_so_the_count_never_shows_a_night_that_cannot_end() -> None:
    """Everyone done while the night went on told the table the pack was split (two killers
    alive). Now the killer whose own choice splits the pack is not done (and every killer is
    told why), while his partner's count stays as it was: the count moves by one at most."""
    table = Table("classic", CLASSIC)
    table.move("Ann", "night", kill=table.id("Cat"))
    for name in ("Cat", "Dan", "Eve"):
        table.move(name, "night")
    for name in ("Fay", "Gus", "Hal", "Ivy"):
        table.move(name, "ready", ready="yes")
    # Dan, the witch, answered before the pack chose: not done, asked again once it has
    # (docs/rules.md 10, the witch).
    assert table.count() == (7, 9)
    table.move("Ben", "night", kill=table.id("Fay"))
    assert table.label() == "Night 1"
    assert table.count() == (7, 9), "Ben is not done; Ann still is"
    assert "agree" in table.view("Ben").unsettled.text and not table.view("Ben").done
    assert "agree" in table.view("Ann").unsettled.text and table.view("Ann").done
    assert table.view("Fay").unsettled.text == ""
    table.move("Ann", "night", kill=table.id("Fay"))
    assert table.count() == (7, 9), "the pack agrees, but Ben has not said so since"
    table.move("Ben", "night", kill=table.id("Fay"))
    assert table.count() == (8, 9) and table.label() == "Night 1", "the witch is asked again"
    table.move("Dan", "night")
    assert table.label().startswith("Day 1")
    assert "Fay died." in table.notes


def test_the_host_moving_a_split_night_on_learns_nothing_of_the_pack() -> None:
    """The host's "Move on now" was refused on a split pack with the engine's message, which
    named the killers and their choices ("Ann named Cat, Ben named Fay") to a seated host, a
    villager here. Now the host cuts the night short as its deadline would (docs/rules.md 10):
    the pack attacks the player most of its killers named, nobody on a tie."""
    roles = {**CLASSIC, "Ann": "villager", "Fay": "werewolf"}
    table = Table("classic", roles)
    table.move("Ben", "night", kill=table.id("Cat"))
    table.move("Fay", "night", kill=table.id("Gus"))
    table.move("Ann", "advance")
    assert table.label().startswith("Day 1")
    assert "Cat died." not in table.notes and "Gus died." not in table.notes


def test_an_antidote_whose_victim_was_taken_back_does_not_hold_the_night() -> None:
    """The witch sent the antidote, then the pack took its kill back: once everyone is done the
    night ends, her antidote unused (as at the deadline), instead of going on with everyone
    done, which told the table that the witch had saved and the pack had changed its mind."""
    table = Table("classic", CLASSIC)
    table.move("Ann", "night", kill=table.id("Fay"))
    table.move("Ben", "night")  # Ben holds off: the pack has chosen Fay
    table.move("Dan", "night", save="yes")
    table.move("Ann", "night")
    for name in ("Cat", "Eve"):
        table.move(name, "night")
    for name in ("Fay", "Gus", "Hal", "Ivy"):
        table.move(name, "ready", ready="yes")
    assert table.label().startswith("Day 1")
    assert not [note for note in table.notes if note.endswith(" died.")]
    assert stored.game_of(table.info.state).state.used("Dan", "save") == 0


def test_every_move_changes_the_night_count_by_one_at_most() -> None:
    """Random nights of three killers choosing, changing their minds and splitting the pack,
    a witch, a seer and sleepers saying they are done and taking it back: each move moves the
    count by one at most, and a count of everyone done is a night that has ended."""
    roles = {**CLASSIC, "Cat": "werewolf", "Hal": "seer"}
    rng = random.Random(36)
    for _game in range(20):
        table = Table("classic", roles)
        for _move in range(60):
            if table.label() != "Night 1":
                break
            before = table.count()
            name = rng.choice(NAMES)
            if roles[name] == "werewolf":
                target = rng.choice(["", "Fay", "Gus", "Ivy"])
                table.move(name, "night", **({"kill": table.id(target)} if target else {}))
            elif roles[name] == "witch":
                # A save while nobody is attacked: refused, nothing moves.
                with contextlib.suppress(FamilyError):
                    table.move(name, "night", **({"save": "yes"} if rng.random() < 0.5 else {}))
            elif name in ("Eve", "Hal"):
                table.move(name, "night")
            else:
                table.move(name, "ready", ready=rng.choice(["yes", "yes", "no"]))
            if table.label() == "Night 1":
                done, count = table.count()
                assert abs(done - before[0]) <= 1, (before, done)
                assert done < count


def test_the_deaths_of_a_night_are_told_in_seat_order_not_in_the_order_they_followed() -> None:
    """The chat's notes told the deaths as the engine emitted them: a death that follows from
    another (the wolf beauty's charm) came last, out of seat order, so the table learnt that
    Ann died of a charm and that Eve or Fay was the wolf beauty."""
    roles = {
        "Ann": "villager",
        "Ben": "seer",
        "Cat": "witch",
        "Dan": "villager",
        "Eve": "wolf_beauty",
        "Fay": "villager",
        "Gus": "werewolf",
        "Hal": "guardian",
        "Ivy": "villager",
    }
    table = Table("classic", roles)
    table.move("Eve", "night", kill=table.id("Fay"), charm=table.id("Ann"))
    table.move("Gus", "night", kill=table.id("Fay"))
    table.move("Cat", "night", poison=table.id("Eve"))
    table.move("Ben", "night", see=table.id("Gus"))
    table.move("Hal", "night", guard=table.id("Dan"))
    for name in ("Ann", "Dan", "Fay", "Ivy"):
        table.move(name, "ready", ready="yes")
    deaths = [note for note in table.notes if note.endswith(" died.")]
    assert deaths == ["Ann died.", "Eve died.", "Fay died."]


@pytest.mark.parametrize("ruleset", ["forum", "oxford", "classic"])
def test_random_nights_count_the_living_at_their_start(ruleset: str) -> None:
    """Whole random games of each ruleset: at the start of every night the count reads 0 of
    the number of the living, whoever is dead and whatever they held."""
    from games.families.werewolf.options import line_up

    rng = random.Random(ruleset)
    for game_number in range(4):
        cards = [r for r, n in sorted(line_up(ruleset, 9).items()) for _ in range(n)]
        rng.shuffle(cards)
        options: dict[str, Any] = {}
        if ruleset == "oxford":
            options["pairs"] = {"lovers": [], "rivals": []}
        table = Table(ruleset, dict(zip(NAMES, cards, strict=True)), **options)
        nights = 0
        last_night = ""
        for _step in range(300):
            if table.info.stage != "playing":
                break
            label = table.label()
            if label.startswith("Night") and label != last_night:
                last_night = label
                nights += 1
                if panels.public_status(table.info)[0].startswith("Waiting"):
                    pass
                else:
                    assert table.count() == (0, table.living()), (game_number, label)
            _random_move(table, rng)
        assert nights >= 1


def _random_move(table: Table, rng: random.Random) -> None:
    """One seat's legal move, or the host moving on when nobody has one."""
    from games.families.werewolf.engine.forms import forms_for

    game = stored.game_of(table.info.state)
    state = game.state
    names = [s.name for s in table.seats]
    rng.shuffle(names)
    for name in names:
        forms = forms_for(state, name)
        if not forms and progress.asked(state, name) and rng.random() < 0.9:
            if name in progress.done_players(table.info.state, game):
                continue
            table.move(name, "ready", ready="yes")
            return
        for form in forms:
            target = rng.choice(form.targets) if form.targets else ""
            value = target if target in ("", "nobody") else table.id(target)
            kind = {"night": "night", "call_vote": "fist", "day": "ability"}.get(
                form.kind, form.kind
            )
            try:
                if kind == "night":
                    table.move(name, "night", **({form.key: value} if value else {}))
                elif kind == "fist":
                    table.move(name, "fist", yes=rng.choice(["yes", "no"]))
                elif kind in ("vote", "sheriff_vote", "decide"):
                    table.move(name, kind, target=value)
                else:
                    continue
                return
            except FamilyError:
                continue
    table.move(names[0] if table.seat(names[0]).is_host else "Ann", "advance")


# --- One Night ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_doppelgangers_copy_leaves_no_public_trace(monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy of a card that acts is a first step whose action follows; it moved the table's
    version and pushed a status with an unchanged count to every page, where every other night
    move moves the count: the table learnt that the Doppelganger was a player's card, not a
    centre card. Now the copy is stored with no new version and no push; its sender's answer
    carries the copied card's form."""
    from games.tables import push
    from tests.factories import OFFICIAL_FIVE, client_for, deal_game, form_targets, move
    from tests.security.audit import HTMX, url

    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(push, "_send", lambda group, message: sent.append(message))
    table = deal_game("official", **OFFICIAL_FIVE)
    version = table.refresh().version
    ann = client_for(table, "Ann")
    answer = ann.post(
        url("move", table.code, "copy"), {"targets": form_targets(table, "Cat")}, **HTMX
    )
    assert answer.status_code == 200
    assert "Robber" in answer.content.decode()  # Ann now does the robber's action
    assert table.refresh().version == version
    assert sent == []
    assert ann.get(url("table", table.code)).headers["X-Table-Version"] == str(version)
    move(table.seat("Ann"), "action", targets=form_targets(table, "Dan"))
    assert table.refresh().version == version + 1
    assert (
        "1 of 5 players have sent"
        in client_for(table, "Ben").get(url("panel", table.code)).content.decode()
    )
