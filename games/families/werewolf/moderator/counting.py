"""The votes on the moderator's screen, counted as rules/004 III describes: "normal", each
candidate with the voters tapped for them and their count (the sheriff's vote weighs more),
or "advanced", each voter's ballot entered and counted at the end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from .. import names
from ..engine import NOBODY, Game
from ..engine.day import SHERIFF_WEIGHT
from ..engine.forms import forms_for
from .choices import Choice

COUNTS = ("normal", "advanced")  # rules/004 III's two ways of counting a vote


@dataclass(frozen=True, slots=True)
class VoteRow:
    """A candidate and the voters counted for them (normal counting)."""

    name: str
    seat_id: int | None
    voters: tuple[str, ...]
    count: float
    label: str = ""  # the candidate as shown (`name` is the engine's, "nobody" included)


def vote(game: Game, seats: Mapping[str, int], living: tuple[Choice, ...]) -> dict[str, Any]:
    """The screen's vote: which one is taken ("vote", "sheriff_vote" or "" for none), and while
    it is, each candidate's row, each voter's ballot and the targets to pick from."""
    state = game.state
    view: dict[str, Any] = {}
    voting = ""
    if state.step == "election":
        voting = "sheriff_vote"
    elif state.call is None and state.step == "voting":
        voting = "vote"
    view["voting"] = voting
    if voting:
        votes = state.sheriff_votes if voting == "sheriff_vote" else state.votes
        classic = game.setup.ruleset.day == "sheriff"
        rows = []
        nobody = voting == "vote" and game.setup.ruleset.day == "plurality"
        candidates = list(state.living()) + ([NOBODY] if nobody else [])
        for candidate in candidates:
            voters = tuple(v for v, t in votes.items() if t == candidate)
            weight = sum(
                SHERIFF_WEIGHT if classic and voting == "vote" and v == state.sheriff else 1
                for v in voters
            )
            shown = names.player(candidate)
            rows.append(VoteRow(candidate, seats.get(candidate), voters, weight, shown))
        view["vote_rows"] = tuple(rows)
        view["ballots"] = tuple(
            (p, seats[p], _ballot(votes.get(p), seats))
            for p in state.living()
            if any(f.kind in ("vote", "sheriff_vote") for f in forms_for(state, p))
        )
        view["targets"] = living + ((Choice(NOBODY, _("Nobody")),) if nobody else ())
    return view


def _ballot(target: str | None, seats: Mapping[str, int]) -> str:
    """A voter's current vote as the form posts it."""
    if target is None:
        return ""
    return NOBODY if target == NOBODY else str(seats.get(target, ""))
