"""What the moderator's screen shows at a table-mode game: every player at a glance, the log,
and the step's part (a decision awaited, the night's calls, or the day: what to read out, the
votes, the day's abilities and calls)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.tables.citing import Cited
from games.tables.family import TableInfo

from .. import names
from ..engine.report import phase_reports
from ..steps import label
from ..stored import game_of
from ..story import record_lines
from .calls import Call, calls
from .choices import Choice
from .counting import Voter, VoteRow, vote
from .dashboard import PlayerRow, player_rows
from .day import day
from .daybreak import read_out
from .decisions import awaited


@dataclass(frozen=True, slots=True)
class ModeratorView:
    label: str
    ruleset: str
    phase_kind: str
    step: str
    over: bool
    players: tuple[PlayerRow, ...]
    living: tuple[Choice, ...]
    calls: tuple[Call, ...] = ()
    current: Call | None = None
    read_out: tuple[str, ...] = ()
    tell: tuple[str, ...] = ()
    count: str = "normal"
    voting: str = ""  # "vote" or "sheriff_vote" while votes are taken
    vote_rows: tuple[VoteRow, ...] = ()
    ballots: tuple[tuple[str, int, str], ...] = ()  # (voter, seat id, current target seat id)
    targets: tuple[Choice, ...] = ()
    accused: str = ""  # counting by hand: the player voted for, tapped (a seat id, "nobody")
    accused_label: str = ""
    voters: tuple[Voter, ...] = ()
    # (player, seat id, ability key, its title, what it does, its targets, whether "no one"
    # may be chosen)
    abilities: tuple[tuple[str, int, str, str, str, tuple[Choice, ...], bool], ...] = ()
    accusing: bool = False
    call: tuple[str, str, str] | None = None  # an open execution call: accused, by, second
    awaited: tuple[str, str, tuple[Choice, ...], str] | None = None  # what, who, choices, no
    sheriff: str | None = None
    outcome: str = ""
    winners: tuple[str, ...] = ()
    log: tuple[tuple[str, tuple[Cited, ...]], ...] = field(default_factory=tuple)
    can_undo: bool = False
    smite: bool = False


def moderator_view(table: TableInfo) -> ModeratorView:
    raw = table.state
    game = game_of(raw)
    state = game.state
    seats: Mapping[str, int] = raw["seats"]
    living = tuple(Choice(str(seats[p]), p) for p in state.living())
    view: dict[str, Any] = {
        "label": label(game),
        "ruleset": game.setup.ruleset.name,
        "phase_kind": state.phase.kind if state.phase else "",
        "step": state.step,
        "over": state.over,
        "players": player_rows(game, raw),
        "living": living,
        "count": raw.get("count") or "normal",
        "sheriff": state.sheriff,
        "can_undo": bool(raw.get("undo")),
        "log": tuple(
            (names.phase(r.phase), tuple(record_lines(r, game.setup.ruleset.name)))
            for r in phase_reports(game.setup, game.log)
        ),
    }
    if state.over:
        outcome = state.outcome
        assert outcome is not None
        view["outcome"] = names.side(outcome.winner)
        view["winners"] = outcome.winners
        return ModeratorView(**view)
    if state.awaited is not None:
        view["awaited"] = awaited(game, seats)
        view["read_out"], view["tell"] = read_out(game, awaited=True)
        return ModeratorView(**view)
    if state.phase is not None and state.phase.kind == "night":
        tonight = calls(game, raw)
        view["calls"] = tuple(tonight)
        view["current"] = next((c for c in tonight if not c.done), None)
        return ModeratorView(**view)
    view["read_out"], view["tell"] = read_out(game)
    view |= vote(game, seats, living, raw)
    view |= day(game, seats)
    return ModeratorView(**view)
