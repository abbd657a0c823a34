"""The votes on the moderator's screen, counted as rules/004 III describes: "normal", each
candidate with the voters tapped for them and their count (the sheriff's vote weighs more),
or "advanced", each voter's ballot entered and counted at the end.

Counting by hand (issue 38 item 5) is one big tap per player: the moderator taps the player
voted for (the "accused", kept in the table's state with the vote it belongs to), then each
voter whose hand is up; each tap is the voter's own vote, recorded at once, so no vote is lost
if the page reloads, and a second tap takes it back."""

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
class Voter:
    """A voter's button while votes are counted by hand."""

    name: str
    seat_id: int
    now: str  # whom they vote for now, as shown under their name ("" for no vote yet)
    pressed: bool  # they vote for the accused now: a tap takes the vote back
    weight: float


@dataclass(frozen=True, slots=True)
class VoteRow:
    """A candidate and the voters counted for them (normal counting)."""

    name: str
    seat_id: int | None
    voters: tuple[str, ...]
    count: float
    label: str = ""  # the candidate as shown (`name` is the engine's, "nobody" included)


def vote(
    game: Game, seats: Mapping[str, int], living: tuple[Choice, ...], raw: Mapping[str, Any]
) -> dict[str, Any]:
    """The screen's vote: which one is taken ("vote", "sheriff_vote" or "" for none), and while
    it is, each candidate's row, each voter's ballot and the targets to pick from, and the
    accused tapped with each voter's button (counting by hand)."""
    state = game.state
    view: dict[str, Any] = {}
    taken = voting(game)
    view["voting"] = taken
    if taken:
        votes = state.sheriff_votes if taken == "sheriff_vote" else state.votes
        classic = game.setup.ruleset.day == "sheriff"
        rows = []
        nobody = taken == "vote" and game.setup.ruleset.day == "plurality"
        candidates = list(state.living()) + ([NOBODY] if nobody else [])
        for candidate in candidates:
            voters = tuple(v for v, t in votes.items() if t == candidate)
            weight = sum(
                SHERIFF_WEIGHT if classic and taken == "vote" and v == state.sheriff else 1
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
        accused = accused_of(game, raw)
        if accused is not None and accused in {_value(r.name, seats) for r in rows}:
            view["accused"] = accused
            view["accused_label"] = next(
                (r.label for r in rows if _value(r.name, seats) == accused), ""
            )
            view["voters"] = tuple(
                Voter(
                    p,
                    seats[p],
                    _shown(votes, p),
                    _value(votes[p], seats) == accused if votes.get(p) else False,
                    SHERIFF_WEIGHT if classic and taken == "vote" and p == state.sheriff else 1,
                )
                for p, _seat, _now in view["ballots"]
            )
    return view


def voting(game: Game) -> str:
    """The vote taken now: "vote", "sheriff_vote", or "" for none."""
    state = game.state
    if state.step == "election":
        return "sheriff_vote"
    if state.call is None and state.step == "voting":
        return "vote"
    return ""


def _value(candidate: str, seats: Mapping[str, int]) -> str:
    """A candidate as the page posts it: a seat id, or "nobody"."""
    return NOBODY if candidate == NOBODY else str(seats.get(candidate, ""))


def _shown(votes: Mapping[str, str | None], voter: str) -> str:
    """Whom `voter` votes for now, under their name on the counting screen."""
    if voter not in votes:
        return ""
    target = votes[voter]
    if target is None:
        return _("no vote")
    # Translators: under a voter's name while votes are counted: whom they vote for now.
    return _("for %(player)s") % {"player": names.player(target)}


def marker(game: Game) -> str:
    """The vote an accused belongs to (this phase's vote or election): a choice left from an
    earlier vote is not shown in the next one."""
    phase = game.state.phase
    return f"{phase.kind}{phase.number}:{game.state.step}" if phase else ""


def accused_of(game: Game, raw: Mapping[str, Any]) -> str | None:
    """The player being voted for whom the moderator tapped, as the page posts them; None if
    none yet (or one from another vote, or no longer a candidate)."""
    kept = raw.get("accused")
    if not isinstance(kept, list) or len(kept) != 2 or kept[0] != marker(game):
        return None
    return str(kept[1])


def candidates(game: Game, seats: Mapping[str, int]) -> set[str]:
    """The values the moderator may tap as the accused now."""
    state = game.state
    nobody = voting(game) == "vote" and game.setup.ruleset.day == "plurality"
    return {_value(p, seats) for p in state.living()} | ({NOBODY} if nobody else set())


def _ballot(target: str | None, seats: Mapping[str, int]) -> str:
    """A voter's current vote as the form posts it."""
    if target is None:
        return ""
    return NOBODY if target == NOBODY else str(seats.get(target, ""))
