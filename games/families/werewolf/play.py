"""Multi-night Werewolf at a table: the deal, each seat's moves, the clock and the app's pace.

The table stores the deal and the moves sent (engine/codec.py); the game is those moves played
again, so every ruling is the engine's. What the table adds around the engine: seats named by
id in forms, who has said they are done with the current step (a night's choices, the day's
speeches), the auto-advance once everyone is done, the deadline of each step (options.py's
pace), an Oxford accusation waiting for its seconder, and the public notes of each phase.
"""

from __future__ import annotations

import json
import random
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _

from games.tables import language
from games.tables.family import Change, FamilyError, NotAllowed, Note, NotNow, SeatInfo, TableInfo

from . import options as table_options
from .announcements import announce
from .engine import (
    NOBODY,
    Accuse,
    Advance,
    CallVote,
    Decide,
    Game,
    Move,
    NightAction,
    RuleError,
    SheriffVote,
    Smite,
    UseAbility,
    Vote,
    apply,
    codec,
    make_setup,
)
from .engine import (
    start as start_game,
)
from .engine.forms import Form, forms_for
from .engine.night import unsettled as night_unsettled

# --- The stored game -----------------------------------------------------------------------------


# The games of the last few states asked for: a page, its pushes and the next move read the
# same one, and a move leaves the game it made here, so the pages after it need no replay.
_GAMES: OrderedDict[tuple[str, str], Game] = OrderedDict()
_GAMES_KEPT = 256
_GAMES_LOCK = threading.Lock()


def _key(state: Mapping[str, Any]) -> tuple[str, str]:
    return (
        json.dumps(state["setup"], sort_keys=True),
        json.dumps(state["moves"], sort_keys=True),
    )


def _keep(key: tuple[str, str], game: Game) -> None:
    with _GAMES_LOCK:
        _GAMES[key] = game
        _GAMES.move_to_end(key)
        while len(_GAMES) > _GAMES_KEPT:
            _GAMES.popitem(last=False)


def game_of(state: Mapping[str, Any]) -> Game:
    """The engine's game for a stored state: its moves played again (or the game kept from
    the last time)."""
    key = _key(state)
    with _GAMES_LOCK:
        game = _GAMES.get(key)
    if game is None:
        game = codec.load(json.loads(key[0]), json.loads(key[1]))
    _keep(key, game)
    return game


def name_of(state: Mapping[str, Any], seat_id: int) -> str | None:
    return next((n for n, i in state["seats"].items() if i == seat_id), None)


def _target(state: Mapping[str, Any], raw: str | None, *, nobody: bool = False) -> str | None:
    """A posted target: a seat id (a name is only ever shown), "nobody" where allowed, or ""
    for none."""
    raw = (raw or "").strip()
    if not raw:
        return None
    if nobody and raw == NOBODY:
        return NOBODY
    name = name_of(state, int(raw)) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None
    if name is None:
        raise FamilyError(_("Choose a player from the list on the page."))
    return name


def _one(fields: Mapping[str, Sequence[str]], name: str) -> str | None:
    values = fields.get(name)
    return values[-1] if values else None


def _form(game: Game, player: str, kind: str, key: str | None = None) -> Form | None:
    """The form of `kind` (and `key`) `player` has now, as their page shows it."""
    return next(
        (
            f
            for f in forms_for(game.state, player)
            if f.kind == kind and (key is None or f.key == key)
        ),
        None,
    )


def _chosen(raw: Mapping[str, Any], form: Form, value: str | None, missing: str = "") -> str | None:
    """The target posted for `form`, checked against the choices its page offered, before the
    engine sees it (its refusals are in its own words, for the scenario files): a player on
    the form's list, NOBODY where the list has it, None for "no one" on a form that may be
    sent without a target. Nothing chosen: None, or the refusal `missing` when given (a vote
    is always a deliberate choice). A player no longer on the list (a page drawn before a
    death) is refused in words that say so."""
    value = (value or "").strip()
    if value == NOBODY and (NOBODY in form.targets or form.optional):
        return NOBODY if NOBODY in form.targets else None
    if not value:
        if missing:
            raise FamilyError(missing)
        return None
    name = _target(raw, value)
    if name not in form.targets:
        raise FamilyError(
            _("%(player)s can't be chosen now: choose again from the page.") % {"player": name}
        )
    return name


# --- Phases, steps, deadlines --------------------------------------------------------------------


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


def _change(
    table: TableInfo,
    raw: dict[str, Any],
    before: Game | None,
    after: Game,
    now: datetime,
    *,
    taken_back: bool = False,
) -> Change:
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
        raw = {**raw, "done": [], "addressed": {}, "called": []}
    _keep(_key(raw), after)  # the next page reads this state: no replay
    seats = raw["seats"]
    dead = frozenset(seats[p] for p in after.state.deaths if p in seats)
    fresh = after.log[len(before.log) :] if before is not None else after.log
    with language.shared():  # stored once for every reader: the site's language
        notes = () if taken_back else announce(fresh, after)
        phase_label = label(after)
    state = after.state
    return Change(
        state=raw,
        phase="over" if state.over else f"{state.phase.kind}",
        phase_label=phase_label,
        round=0 if state.phase is None else state.phase.number,
        deadline=deadline,
        dead=dead,
        notes=tuple(Note(text) for text in notes),
        finished=state.over,
    )


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
    raw = {
        "setup": codec.setup_to_json(setup),
        "moves": [],
        "seats": {s.name: s.id for s in seats},
        "done": [],
        "accusation": None,
    }
    return _change(table, raw, None, game, now)


# --- Moves ---------------------------------------------------------------------------------------


def _send(raw: dict[str, Any], game: Game, *moves: Move) -> tuple[dict[str, Any], Game]:
    for move in moves:
        try:
            game = apply(game, move)
        except RuleError as error:
            raise FamilyError(str(error)) from None
        raw = {**raw, "moves": [*raw["moves"], codec.move_to_json(move)]}
    return raw, game


def asked(state: Any, player: str) -> bool:
    """Whether `player` has something to do now: a form; at night, every living player (those
    without a night ability say they are done for the night, so that the count of who is done
    and the night's early end tell nothing of who holds a power: docs/security.md); in the
    day's speeches, saying they are done talking (every living player has that button, not
    only those with a day ability: the discussion ends when the whole village is done, not
    when the werewolf is)."""
    if forms_for(state, player):
        return True
    if player not in state.alive or state.pending or state.phase is None or state.over:
        return False
    if state.phase.kind == "night":
        return not state.closing
    return state.step == "speech" and state.call is None


def sleeping(state: Any, player: str) -> bool:
    """Whether `player` is alive tonight with no night form: their part is to say they are
    done for the night (a page's "Done for tonight")."""
    return (
        state.phase is not None
        and state.phase.kind == "night"
        and asked(state, player)
        and not forms_for(state, player)
    )


def unsettled(game: Game) -> Mapping[str, str]:
    """Tonight's choices that would keep the night from ending, by player, with the reason (the
    killers of a split pack): a killer whose own move splits the pack is not done, and every
    killer's page says why while it lasts."""
    state = game.state
    if state.phase is None or state.phase.kind != "night" or state.pending or state.over:
        return {}
    return night_unsettled(state)


def done_players(raw: Mapping[str, Any], game: Game) -> frozenset[str]:
    """The living players counted done with the current step: those who said so (by sending
    their choices, their vote, "done"). Only a player's own move changes whether they are
    done, so the public count moves by one at most with each move: a killer whose choice splits
    the pack is not done, but his partners stay as they were (a count falling or rising by two
    would tell the table that two killers disagree, or now agree; docs/security.md)."""
    done = set(raw.get("done") or ())
    return frozenset(p for p in game.state.living() if p in done)


def _everyone_done(raw: Mapping[str, Any], game: Game) -> bool:
    """Whether every living player who has something to do now has done it."""
    done = done_players(raw, game)
    state = game.state
    return all(player in done or not asked(state, player) for player in state.living())


def _done(raw: dict[str, Any], player: str, *, done: bool = True) -> dict[str, Any]:
    others = {p for p in raw.get("done", []) if p != player}
    return {**raw, "done": sorted(others | ({player} if done else set()))}


def _advance_if_all_done(raw: dict[str, Any], game: Game) -> tuple[dict[str, Any], Game]:
    """Move the step on by itself once everyone has done their part (the documents' moderator
    would): a night once every living player has sent their choices or said they are done, an
    election or a vote with every vote cast, the speeches once everyone is ready, an execution
    call once every fist is shown.

    A night where everyone is done always ends, or the table would learn that something holds
    it: a killer who split the pack is not done, so the pack agrees; a witch's antidote whose
    victim the pack has since taken back is left unused, as at the deadline (docs/rules.md 10).
    """
    state = game.state
    if state.over or state.pending or not _everyone_done(raw, game):
        return raw, game
    at_night = state.phase is not None and state.phase.kind == "night"
    try:
        return _send(raw, game, Advance())
    except FamilyError:
        if not at_night:
            return raw, game
    return _send(raw, game, Advance(at_deadline=True))


def _night(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    """A seat's choices for tonight (every night ability of its role, in one form; none is
    "nothing tonight"): they replace earlier ones until the night ends."""
    choice: dict[str, object] = {}
    if _form(game, player, "night") is None:
        raise NotNow(_("There is no night choice for you to make now."))
    for form in forms_for(game.state, player):
        if form.kind != "night":
            continue
        value = _one(fields, form.key)
        if form.key == "save":
            if value in ("yes", "on", "1"):
                if not form.targets:  # a page drawn before the pack changed its mind
                    raise FamilyError(_("Nobody is attacked tonight: there is nobody to save."))
                choice["save"] = True
            continue
        target = _chosen(raw, form, value)
        if target is not None:
            choice[form.key] = target
    raw, game = _send(raw, game, NightAction(player, choice))
    # Not done while their own choices keep the night from ending (a split pack): only the
    # sender's flag moves, whatever their choice does to the others' (done_players).
    return _done(raw, player, done=player not in unsettled(game)), game


def _vote(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    form = _form(game, player, "vote")
    if form is None:
        raise NotNow(_("There is no vote for you to cast now."))
    target = _chosen(raw, form, _one(fields, "target"), _("Choose whom you vote for."))
    raw, game = _send(raw, game, Vote(player, target))
    return _done(raw, player), game


def _sheriff_vote(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    form = _form(game, player, "sheriff_vote")
    if form is None:
        raise NotNow(_("There is no sheriff election now."))
    missing = _("Choose whom you vote for as sheriff.")
    target = _chosen(raw, form, _one(fields, "target"), missing)
    raw, game = _send(raw, game, SheriffVote(player, target))
    return _done(raw, player), game


def _ready(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    """Done with the day's speeches or, for a player without a night form, with the night (or,
    with ready=no, not after all)."""
    state = game.state
    if state.phase is None or (state.phase.kind == "night" and not sleeping(state, player)):
        raise NotNow(_("There is nothing to say you are done with now."))
    return _done(raw, player, done=_one(fields, "ready") != "no"), game


def _ability(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    key = (_one(fields, "ability") or "").strip()
    form = _form(game, player, "day", key)
    if form is None:
        raise NotNow(_("You can't do that now."))
    missing = "" if form.optional or not form.targets else _("Choose a player first.")
    target = _chosen(raw, form, _one(fields, "target"), missing)
    return _send(raw, game, UseAbility(player, key, target))


def _accuse(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    """rules/003: an execution call waits for another player to second it."""
    if not any(f.kind == "accuse" for f in forms_for(game.state, player)):
        raise NotNow(_("There is no execution call to make now."))
    form = _form(game, player, "accuse")
    assert form is not None
    accused = _chosen(raw, form, _one(fields, "target"), _("Accuse another living player."))
    assert accused is not None
    return {**raw, "accusation": {"accused": accused, "by": player}}, game


def _second(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    accusation = raw.get("accusation")
    if not accusation:
        raise NotNow(_("There is no accusation to second."))
    if _form(game, player, "accuse") is None:
        raise NotNow(_("The call cannot be seconded now."))
    if player in (accusation["by"], accusation["accused"]):
        # 003 The Local Justice System: the call "must be seconded by another player".
        raise FamilyError(_("Someone other than the caller and the accused must second the call."))
    raw = {**raw, "accusation": None}
    return _send(raw, game, Accuse(accusation["accused"], accusation["by"], player))


def _fist(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    if _form(game, player, "call_vote") is None:
        raise NotNow(_("There is no execution call to vote on now."))
    raw, game = _send(raw, game, CallVote(player, _one(fields, "yes") == "yes"))
    return _done(raw, player), game


def _decide(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    awaited = game.state.awaited
    form = _form(game, player, "decide")
    if awaited is None or awaited.player != player or form is None:
        raise NotNow(_("Nothing waits for your decision."))
    missing = _("Choose a player, or nobody.")
    target = _chosen(raw, form, _one(fields, "target"), missing)
    return _send(raw, game, Decide(player, awaited.kind, target))


SEAT_MOVES = {
    "night": _night,
    "vote": _vote,
    "sheriff_vote": _sheriff_vote,
    "ready": _ready,
    "ability": _ability,
    "accuse": _accuse,
    "second": _second,
    "fist": _fist,
    "decide": _decide,
}


def move(
    table: TableInfo, seat: SeatInfo, kind: str, fields: Mapping[str, Sequence[str]], now: datetime
) -> Change:
    if table.options.get("table_mode") and seat.is_host:
        from . import moderating  # built on this module: imported here, not at the top

        raw, before, game = moderating.move(table, seat, kind, fields)
        return _change(table, raw, before, game, now, taken_back=kind == "undo")
    raw = dict(table.state)
    before = game_of(raw)
    if kind in ("advance", "smite"):
        if not seat.is_host:
            raise NotAllowed(_("Only the host can do that."))
        if kind == "smite":  # rules/003: Fate's smite, shown to the table (a note)
            if not can_smite(before):
                raise NotNow(_("Fate smites by day, between the game's decisions and calls."))
            target = _target(raw, _one(fields, "target"))
            if target is None:
                raise FamilyError(_("Choose the player Fate strikes down."))
            if target not in before.state.alive:
                raise FamilyError(_("%(player)s is dead.") % {"player": target})
            raw, game = _send(raw, before, Smite(target))
        else:
            # The host cuts a night short as its deadline would end it, with the documented
            # defaults: a refusal ("the werewolves must agree: Ann named Dan, Ben named Cat")
            # would show a seated host the pack and its choices, and any refusal at all would
            # tell the table that the pack is split (docs/security.md).
            at_night = before.state.phase is not None and before.state.phase.kind == "night"
            raw, game = _send(
                raw, before, Advance(at_deadline=at_night and not before.state.pending)
            )
        return _change(table, _without_dead_accusation(raw, game), before, game, now)
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
    raw, game = _advance_if_all_done(raw, game)
    raw = _without_dead_accusation(raw, game)
    change = _change(table, raw, before, game, now)
    if step_key(before) == step_key(game) and kind in QUIET_MOVES:
        return replace(change, redraw=_whose_view_changed(raw, game, player, kind))
    return change


def _without_dead_accusation(raw: dict[str, Any], game: Game) -> dict[str, Any]:
    """An accusation waiting for its seconder lapses with its day, and when its caller or the
    accused dies (a crossbow, a smite): a call needs three living players, by day (003 The
    Local Justice System)."""
    accusation = raw.get("accusation")
    if not accusation:
        return raw
    state = game.state
    by_day = state.phase is not None and state.phase.kind == "day" and not state.day_over
    alive = accusation["by"] in state.alive and accusation["accused"] in state.alive
    return raw if by_day and alive and not state.over else {**raw, "accusation": None}


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


# Moves that, while the step goes on, change other seats' views only through the public
# status (a count, the votes so far), or the pack's: their pages take the status alone.
QUIET_MOVES = ("night", "vote", "sheriff_vote", "ready", "fist")


def _whose_view_changed(
    raw: Mapping[str, Any], game: Game, player: str, kind: str
) -> frozenset[int]:
    """The seats whose own view a quiet move changed: a werewolf's night choice shows in the
    pack's view (the live count) and in the witch's (the victim she may save)."""
    seats = raw["seats"]
    if kind != "night" or game.setup.roles[player].pack is None:
        return frozenset()
    state = game.state
    involved = [
        p
        for p in state.alive
        if game.setup.roles[p].pack is not None
        or any(a.key == "save" for a in game.setup.roles[p].abilities)
    ]
    return frozenset(seats[p] for p in involved if p in seats)


def on_deadline(table: TableInfo, now: datetime) -> Change:
    """The step's time is up: the engine's documented defaults for whoever has not acted
    (docs/rules.md 10), and the next step begins."""
    raw = dict(table.state)
    before = game_of(raw)
    raw, game = _send({**raw, "accusation": None}, before, Advance(at_deadline=True))
    return _change(table, raw, before, game, now)


def cancel(table: TableInfo, now: datetime) -> Change:
    raw = dict(table.state or {})
    with language.shared():
        cancelled = _("Cancelled")
    return Change(state=raw, phase="cancelled", phase_label=cancelled, finished=True)
