"""A whole game in one call: the night, the vote and the outcome.

This is what the scenario runner, the services and the tests all use, so every ruling comes from
one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .deck import Deal
from .night import NightResult, resolve_night
from .voting import Outcome, VoteResult, decide_outcome, tally_votes


@dataclass(frozen=True, slots=True)
class GameResult:
    """The night, and once votes are in, the vote and the outcome."""

    night: NightResult
    vote: VoteResult | None
    outcome: Outcome | None


def finish_game(night: NightResult, votes: Mapping[str, str | None]) -> GameResult:
    """Tally `votes` after `night` and decide who won."""
    vote = tally_votes(night, votes)
    outcome = decide_outcome(night, vote.dead, vote.votes)
    return GameResult(night=night, vote=vote, outcome=outcome)


def play_game(
    deal: Deal,
    actions: Mapping[str, Sequence[str]],
    votes: Mapping[str, str | None] | None = None,
    *,
    with_log: bool = True,
) -> GameResult:
    """Resolve the night from `actions`; with `votes`, also the vote and the outcome."""
    night = resolve_night(deal, actions, with_log=with_log)
    if votes is None:
        return GameResult(night=night, vote=None, outcome=None)
    return finish_game(night, votes)
