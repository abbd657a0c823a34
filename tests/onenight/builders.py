"""Small builders shared by the engine tests: a deal, a night and a game from keyword arguments.

Keyword order is seat order: `deal("house", Ann="seer", Ben="robber", ..., left=..., middle=...,
right=...)` seats Ann then Ben. Centre positions may be given in any order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from games.families.onenight.engine import (
    CENTRE_POSITIONS,
    GameResult,
    NightResult,
    Ruleset,
    make_deal,
    play_game,
    resolve_night,
)
from games.families.onenight.engine.deck import Deal

# ../shared/scenarios beside the project: FORMAT.md, examples.jsonl, expected.jsonl.
SCENARIOS = Path(__file__).resolve().parents[3] / "shared" / "scenarios"

NAMES: tuple[str, ...] = (
    "Ann",
    "Ben",
    "Cat",
    "Dan",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jon",
    "Kim",
    "Lou",
    "Max",
)


def deal(ruleset: str = "house", /, **cards: str) -> Deal:
    """A validated deal; players are the non-centre keywords, in the order given."""
    players = [name for name in cards if name not in CENTRE_POSITIONS]
    return make_deal(Ruleset(ruleset), players, cards)


def night(
    the_deal: Deal, actions: Mapping[str, Sequence[str]] | None = None, /, **kw: Sequence[str]
) -> NightResult:
    """Resolve the night of `the_deal` with actions from a mapping and/or keywords."""
    return resolve_night(the_deal, {**(actions or {}), **kw})


def game(
    the_deal: Deal,
    actions: Mapping[str, Sequence[str]],
    votes: Mapping[str, str | None],
) -> GameResult:
    """Play a whole game: the night, the vote and the outcome."""
    return play_game(the_deal, actions, votes)


def ring_votes(players: Sequence[str]) -> dict[str, str]:
    """Everyone votes for the next player round the table: one vote each, nobody dies."""
    return {p: players[(i + 1) % len(players)] for i, p in enumerate(players)}


def votes_for(players: Sequence[str], target: str, target_vote: str | None = None) -> dict:
    """Everyone votes for `target`; `target` votes for `target_vote` (default: the first other)."""
    others = [p for p in players if p != target]
    return {p: (target if p != target else (target_vote or others[0])) for p in players}
