"""The game's steps at the table: what the clock times, each step's name in the header, its
deadline (options.py's pace), whether Fate may smite now, and the Change a move hands the
table core (the new state, the phase, the deadline, the dead, the public notes).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _

from games.tables import language
from games.tables.family import Change, Note, TableInfo

from . import names
from . import options as table_options
from .announcements import announce
from .engine import Game
from .stored import keep


def step_key(game: Game) -> tuple[str, str, str]:
    """What the clock times: the phase, its step and what is awaited (a new key, a new
    deadline)."""
    state = game.state
    awaited = state.awaited
    if state.over:
        return ("over", "", "")
    waiting = f"{awaited.kind}:{awaited.player}" if awaited else ""
    call = f"call:{state.call.accused}" if state.call else ""
    return (str(state.phase), state.step, waiting or call)


def _minutes_for(game: Game, minutes: Mapping[str, int]) -> int:
    state = game.state
    if state.awaited is not None:
        return minutes["decide"]
    if state.call is not None:
        return minutes["call"]
    assert state.phase is not None
    if state.phase.kind == "night":
        return minutes["night"]
    if state.step == "election":
        return minutes["election"]
    if state.step == "voting" and state.setup.ruleset.day == "sheriff":
        return minutes["vote"]
    return minutes["day"]


def label(game: Game) -> str:
    """The phase as the table's header shows it ("Night 2", "Day 1: vote")."""
    state = game.state
    if state.over:
        return _("The end")
    assert state.phase is not None
    number = {"number": state.phase.number}
    if state.phase.kind == "night":
        return _("Night %(number)d") % number
    if state.setup.ruleset.day != "sheriff":
        return _("Day %(number)d") % number
    if state.step == "election":
        return _("Day %(number)d: sheriff election") % number
    if state.step == "speech":
        return _("Day %(number)d: discussion") % number
    if state.step == "voting":
        return _("Day %(number)d: vote") % number
    # Translators: a day and the step it is at, named by the engine.
    return _("Day %(number)d: %(step)s") % {**number, "step": state.step}


def clock_sentence(game: Game) -> str | None:
    """What the step's deadline ends, as the village's channel is told it (`{when}` is the
    deadline, shown by the chat service): the night, the day or its step (004's sheriff
    election, discussion and vote), the call on an accused (003) or a player's awaited
    decision. All of it is on every page's status line already."""
    state = game.state
    if state.over or state.phase is None:
        return None
    number = {"number": state.phase.number}
    # Translators (every sentence below): {when} is the deadline as the chat service shows it
    # ("in 5 minutes (21:30)"): keep it as it is.
    if state.awaited is not None:
        what = names.awaited_phrase(state.awaited.player, state.awaited.kind)
        return _("The wait for %(what)s ends {when}.") % {"what": what}
    if state.call is not None:
        return _("The call on %(player)s ends {when}.") % {
            "player": names.player(state.call.accused)
        }
    if state.phase.kind == "night":
        return _("Night %(number)d ends {when}.") % number
    if state.setup.ruleset.day == "sheriff":
        if state.step == "election":
            return _("The sheriff election ends {when}.")
        if state.step == "speech":
            return _("The discussion ends {when}.")
        if state.step == "voting":
            return _("The vote ends {when}.")
    return _("Day %(number)d ends {when}.") % number


def can_smite(game: Game) -> bool:
    """Whether Fate may smite now (003 Fate; the engine's `_smite`): Fate's game, by day, with
    no decision awaited and no execution call open."""
    state = game.state
    return (
        game.setup.ruleset.name == "oxford"
        and not state.over
        and state.phase is not None
        and state.phase.kind == "day"
        and not state.pending
        and state.call is None
    )


def change(
    table: TableInfo,
    raw: dict[str, Any],
    before: Game | None,
    after: Game,
    now: datetime,
    *,
    taken_back: bool = False,
) -> Change:
    """What a move (or the deal, with no game `before`) changes at the table."""
    minutes = {**table_options.PACES["live"], **(table.options.get("minutes") or {})}
    if table.options.get("table_mode"):
        deadline = None  # at a table the moderator paces the game
    elif before is not None and step_key(before) == step_key(after) and table.deadline:
        deadline = table.deadline
    else:
        deadline = (
            None if after.state.over else now + timedelta(minutes=_minutes_for(after, minutes))
        )
    if (before is None or step_key(before) != step_key(after)) and not taken_back:
        # A new step: nobody has done their part yet (an undo restored its own lists).
        raw = {**raw, "done": [], "addressed": {}, "called": [], "before_pack": []}
    keep(raw, after)  # the next page reads this state: no replay
    seats = raw["seats"]
    dead = frozenset(seats[p] for p in after.state.deaths if p in seats)
    fresh = after.log[len(before.log) :] if before is not None else after.log
    with language.shared():  # stored once for every reader: the site's language
        notes = () if taken_back else announce(fresh, after)
        phase_label = label(after)
    state = after.state
    assert state.over or state.phase is not None  # a game under way is in a night or a day
    return Change(
        state=raw,
        phase="over" if state.over or state.phase is None else state.phase.kind,
        phase_label=phase_label,
        round=0 if state.phase is None else state.phase.number,
        deadline=deadline,
        dead=dead,
        notes=tuple(Note(text) for text in notes),
        finished=state.over,
    )
