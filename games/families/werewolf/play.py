"""Multi-night Werewolf at a table: the deal, the moves, the clock and the app's pace.

The table stores the deal and the moves sent (stored.py); the game is those moves played
again, so every ruling is the engine's. What the table adds around the engine: seats named by
id in forms (posted.py), who has said they are done with the current step (a night's choices,
the day's speeches) and the auto-advance once everyone is done (progress.py), the deadline of
each step (steps.py, options.py's pace), an Oxford accusation waiting for its seconder
(seat_moves.py), and the public notes of each phase (announcements.py). At a table-mode game
the host's seat is the moderator's (moderator/).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games.tables import language
from games.tables.family import Change, FamilyError, NotAllowed, NotNow, SeatInfo, TableInfo

from . import options as table_options
from . import posted
from .engine import Advance, RuleError, Smite, codec, make_setup
from .engine import start as start_game
from .moderator import moves as moderator_moves
from .progress import advance_if_all_done
from .seat_moves import QUIET_MOVES, SEAT_MOVES, whose_view_changed, without_dead_accusation
from .steps import can_smite, change, step_key
from .stored import game_of, name_of, send

# --- The deal ------------------------------------------------------------------------------------


def start(table: TableInfo, rng: random.Random, now: datetime) -> Change:
    """Deal the roles (and, in rules/003, Fate's lovers, rivals and crossbows) with `rng`."""
    seats = table_options.players_of(table)
    names = [s.name for s in seats]
    entered = table.options.get("dealt") or {}
    if table.options.get("deal") == "cards":
        # Table mode with real cards: the roles as the moderator typed them from the cards.
        dealt = {name: entered[name] for name in names}
    else:
        roles = table_options.roles_of(table.ruleset, table.options, len(seats))
        cards = [role for role, count in sorted(roles.items()) for _copy in range(count)]
        rng.shuffle(cards)
        dealt = dict(zip(names, cards, strict=True))
    extras: dict[str, Any] = {}
    if table.ruleset == "oxford" and table.options.get("deal") == "cards":
        # Fate dealt the Lover Deck and the crossbows by hand: as entered (engine-checked).
        entered_pairs = table.options.get("pairs") or {}
        extras["lovers"] = [list(p) for p in entered_pairs.get("lovers", [])]
        extras["rivals"] = [list(p) for p in entered_pairs.get("rivals", [])]
        extras["crossbows"] = list(table.options.get("crossbow_holders") or [])
    elif table.ruleset == "oxford":
        free = names[:]
        rng.shuffle(free)
        lovers = int(table.options.get("lovers", 0))
        rivals = int(table.options.get("rivals", 0))
        pairs = [free[i : i + 2] for i in range(0, 2 * (lovers + rivals), 2)]
        extras["lovers"] = pairs[:lovers]
        extras["rivals"] = pairs[lovers:]
        pack = [p for p in names if dealt[p] in ("werewolf", "dark_villager")]
        rng.shuffle(pack)
        extras["crossbows"] = pack[: int(table.options.get("crossbows", 0))]
    try:
        setup = make_setup(
            table.ruleset,
            names,
            dealt,
            table.options.get("rules") or {},
            opens_with=table.options.get("opens_with", "night"),
            **extras,
        )
    except RuleError as error:
        raise FamilyError(str(error)) from None
    game = start_game(setup)
    raw: dict[str, Any] = {
        "setup": codec.setup_to_json(setup),
        "moves": [],
        "seats": {s.name: s.id for s in seats},
        "done": [],
        "accusation": None,
    }
    return change(table, raw, None, game, now)


# --- Moves ---------------------------------------------------------------------------------------


def move(
    table: TableInfo, seat: SeatInfo, kind: str, fields: Mapping[str, Sequence[str]], now: datetime
) -> Change:
    if table.options.get("table_mode") and seat.is_host:
        raw, before, game = moderator_moves.move(table, seat, kind, fields)
        return change(table, raw, before, game, now, taken_back=kind == "undo")
    raw = dict(table.state)
    before = game_of(raw)
    if kind in ("advance", "smite"):
        if not seat.is_host:
            raise NotAllowed(_("Only the host can do that."))
        if kind == "smite":  # rules/003: Fate's smite, shown to the table (a note)
            if not can_smite(before):
                raise NotNow(_("Fate smites by day, between the game's decisions and calls."))
            target = posted.player(raw, posted.field(fields, "target"))
            if target is None:
                raise FamilyError(_("Choose the player Fate strikes down."))
            if target not in before.state.alive:
                raise FamilyError(_("%(player)s is dead.") % {"player": target})
            raw, game = send(raw, before, Smite(target))
        else:
            # The host cuts a night short as its deadline would end it, with the documented
            # defaults: a refusal ("the werewolves must agree: Ann named Dan, Ben named Cat")
            # would show a seated host the pack and its choices, and any refusal at all would
            # tell the table that the pack is split (docs/security.md).
            at_night = before.state.phase is not None and before.state.phase.kind == "night"
            raw, game = send(
                raw, before, Advance(at_deadline=at_night and not before.state.pending)
            )
        return change(table, without_dead_accusation(raw, game), before, game, now)
    player = name_of(raw, seat.id)
    if player is None:
        raise NotAllowed(_("You are not playing in this game."))
    handler = SEAT_MOVES.get(kind)
    if handler is None:
        raise NotNow(_("That can't be done in this game."))
    if player not in before.state.alive and kind != "decide":
        # Not a 403: the seat is a player whose page was drawn before it died (the game moved on).
        raise NotNow(_("You have died: the game goes on without you."))
    raw, game = handler(raw, before, player, fields)
    raw, game = advance_if_all_done(raw, game)
    raw = without_dead_accusation(raw, game)
    changed = change(table, raw, before, game, now)
    if step_key(before) == step_key(game) and kind in QUIET_MOVES:
        return replace(changed, redraw=whose_view_changed(raw, game, player, kind))
    return changed


def on_deadline(table: TableInfo, now: datetime) -> Change:
    """The step's time is up: the engine's documented defaults for whoever has not acted
    (docs/rules.md 10), and the next step begins."""
    raw = dict(table.state)
    before = game_of(raw)
    raw, game = send({**raw, "accusation": None}, before, Advance(at_deadline=True))
    return change(table, raw, before, game, now)


def cancel(table: TableInfo, now: datetime) -> Change:
    raw = dict(table.state or {})
    with language.shared():
        cancelled = _("Cancelled")
    return Change(state=raw, phase="cancelled", phase_label=cancelled, finished=True)
