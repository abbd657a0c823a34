"""Random official games with Vampire's cards, played through the family's moves as the pages
post them (docs/rules.md 8b.7), from the deal to the reveal: every game ends, and while the
night goes on some seat is asked something and at least one of the posts its form offers is
accepted, so players who only answer their pages always reach the day. Some nights, days and
votes run out (the night's defaults: `play._fill_missing`)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from games.families.onenight import options as table_options
from games.families.onenight import panels
from games.families.onenight.engine import (
    VAMPIRE_ROLES,
    Role,
    RuleError,
    Ruleset,
    role_limits,
    validate_deck,
)
from games.families.onenight.family import OneNight
from games.families.onenight.play import OneNightState
from games.tables.family import Change, FamilyError, SeatInfo, TableInfo
from tests.onenight.offered import offered

FAMILY = OneNight()
NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
GAMES = 120


def random_deck(rng: random.Random) -> tuple[list[Role], int]:
    """A legal official deck for 3 to 8 players with one to five of Vampire's cards."""
    limits = role_limits(Ruleset.OFFICIAL)
    vampire = sorted(VAMPIRE_ROLES)
    others = [r for r, n in limits.items() if r not in VAMPIRE_ROLES for _ in range(n)]
    for _attempt in range(1000):
        players = rng.randint(3, 8)
        deck = rng.sample(vampire, rng.randint(1, min(5, players + 3)))
        deck += rng.sample(others, players + 3 - len(deck))
        try:
            validate_deck(Ruleset.OFFICIAL, deck, players)
        except RuleError:
            continue
        return deck, players
    raise AssertionError("no deck")


def applied(table: TableInfo, change: Change) -> TableInfo:
    return replace(
        table,
        state=change.state,
        phase=change.phase,
        deadline=change.deadline,
        version=table.version + 1,
        stage="over" if change.finished else "playing",
    )


def new_game(rng: random.Random) -> TableInfo:
    deck, players = random_deck(rng)
    seats = tuple(
        SeatInfo(id=100 + i, name=NAMES[i], position=i, is_host=i == 0) for i in range(players)
    )
    options = {**table_options.defaults("official"), "deck": [r.value for r in deck]}
    table = TableInfo(
        code="VAMPIRES", family="onenight", ruleset="official", options=options,
        stage="playing", phase="lobby", round=0, version=1, deadline=None, state=None,
        seats=seats,
    )  # fmt: skip
    assert FAMILY.start_problem(table) is None
    return applied(table, FAMILY.start(table, rng, NOW))


def night(table: TableInfo, rng: random.Random, figures: Counter[str]) -> TableInfo:
    runs_out = rng.random() < 0.25
    for _step in range(100):
        if table.phase != "night":
            return table
        state = OneNightState(table.state)
        asked = [
            (seat, form)
            for seat in table.seats
            if (form := panels.action_form(state, seat.name, state.actions.get(seat.name)))
        ]
        assert asked, "the night goes on, yet no page asks anything"
        if runs_out and rng.random() < 0.3:
            figures["nights run out"] += 1
            return applied(table, FAMILY.on_deadline(table, NOW))
        seat, form = rng.choice(asked)
        accepted: list[Change] = []
        for kind, fields in offered(form):
            try:
                accepted.append(FAMILY.move(table, seat, kind, fields, NOW))
            except FamilyError:
                figures["offered posts refused"] += 1
        assert accepted, (seat.name, state.deal.cards[seat.name], form)
        figures[f"{state.deal.cards[seat.name].value} {form.kind}"] += 1
        table = applied(table, rng.choice(accepted))
    raise AssertionError("the night never ended")


def day_and_vote(table: TableInfo, rng: random.Random) -> TableInfo:
    assert table.phase == "day"
    state = OneNightState(table.state)
    night_result = state.night()  # the stored actions are legal
    for seat in table.seats:
        view = panels.view_of(table, seat)
        assert view.night_report and view.action_form is None
        assert any("your mark was the Mark of" in line for line in view.night_report)
        # The chat's no-quoting check reads the same lines (rules/000 s5c).
        assert set(view.night_report) <= set(panels.private_texts(table, seat))
    assert night_result.marks
    ending = rng.choice(("ready", "host", "deadline"))
    if ending == "ready":
        for seat in table.seats:
            table = applied(table, FAMILY.move(table, seat, "ready", {"ready": ["yes"]}, NOW))
    elif ending == "host":
        host = next(s for s in table.seats if s.is_host)
        table = applied(table, FAMILY.move(table, host, "end_day", {}, NOW))
    else:
        table = applied(table, FAMILY.on_deadline(table, NOW))
    assert table.phase == "voting"
    for seat in table.seats:
        if table.phase != "voting" or rng.random() < 0.1:
            break
        target = rng.choice([s for s in table.seats if s.id != seat.id])
        table = applied(table, FAMILY.move(table, seat, "vote", {"target": [str(target.id)]}, NOW))
    if table.phase == "voting":
        table = applied(table, FAMILY.on_deadline(table, NOW))
    return table


@pytest.mark.parametrize("seed", range(GAMES))
def test_a_random_vampire_game_ends_at_the_reveal(seed: int) -> None:
    rng = random.Random(seed)
    figures: Counter[str] = Counter()
    table = night(new_game(rng), rng, figures)
    table = day_and_vote(table, rng)
    assert table.phase == "reveal" and table.stage == "over"
    state = OneNightState(table.state)
    assert state.result is not None and state.result["reason"]
    reveal: Any = panels.view_of(table, table.seats[0]).reveal
    assert reveal is not None and reveal.marks
    assert all(row.mark for row in reveal.rows)
    assert [r.name for r in reveal.rows] == [s.name for s in table.seats]
