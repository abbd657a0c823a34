"""A player's own moves from their page in an online game: tonight's choices, a vote, being done
with the day's speeches, a day ability, an Oxford execution call and its seconder, a fist, a
decision on death. Each reads what the page posted (posted.py), checks it against the form the
page offered and hands the engine its move; an accusation waits in the table's state for its
seconder (rules/003).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.tables.family import FamilyError, NotNow

from . import posted
from .engine import (
    Accuse,
    CallVote,
    Decide,
    Game,
    NightAction,
    SheriffVote,
    UseAbility,
    Vote,
)
from .engine.forms import forms_for
from .progress import answers_the_victim, marked_done, pack_to_choose, sleeping, talking, unsettled
from .stored import send


def _night(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    """A seat's choices for tonight (every night ability of its role, in one form; none is
    "nothing tonight"): they replace earlier ones until the night ends."""
    choice: dict[str, object] = {}
    if posted.offered(game, player, "night") is None:
        raise NotNow(_("There is no night choice for you to make now."))
    for form in forms_for(game.state, player):
        if form.kind != "night":
            continue
        value = posted.field(fields, form.key)
        if form.key == "save":
            if value in ("yes", "on", "1"):
                if not form.targets:  # a page drawn before the pack changed its mind
                    raise FamilyError(_("Nobody is attacked tonight: there is nobody to save."))
                choice["save"] = True
            continue
        target = posted.chosen(raw, form, value)
        if target is not None:
            choice[form.key] = target
    raw, game = send(raw, game, NightAction(player, choice))
    # Not done while their own choices keep the night from ending (a split pack): only the
    # sender's flag moves, whatever their choice does to the others' (done_players). Nor a
    # witch holding her antidote who answers before the pack has chosen: she is asked again
    # once it has, and the night waits for that answer (004 III; docs/rules.md 10, the witch).
    # Whatever she sends then counts, the same choices again included: she is done.
    early = answers_the_victim(game, player) and pack_to_choose(raw, game)
    others = [p for p in raw.get("before_pack") or () if p != player]
    raw = {**raw, "before_pack": sorted([*others, player]) if early else others}
    done = player not in unsettled(game) and not early
    return marked_done(raw, player, done=done), game


def _vote(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    form = posted.offered(game, player, "vote")
    if form is None:
        raise NotNow(_("There is no vote for you to cast now."))
    target = posted.chosen(
        raw, form, posted.field(fields, "target"), _("Choose whom you vote for.")
    )
    raw, game = send(raw, game, Vote(player, target))
    return marked_done(raw, player), game


def _sheriff_vote(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    form = posted.offered(game, player, "sheriff_vote")
    if form is None:
        raise NotNow(_("There is no sheriff election now."))
    missing = _("Choose whom you vote for as sheriff.")
    target = posted.chosen(raw, form, posted.field(fields, "target"), missing)
    raw, game = send(raw, game, SheriffVote(player, target))
    return marked_done(raw, player), game


def _ready(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    """Done with the day's speeches or, for a player without a night form, with the night (or,
    with ready=no, not after all). Only there: in an election or a vote a player is done by
    voting, so "done" there would move the count (and could close the vote) without a vote."""
    state = game.state
    if not (sleeping(state, player) or talking(state, player)):
        raise NotNow(_("There is nothing to say you are done with now."))
    return marked_done(raw, player, done=posted.field(fields, "ready") != "no"), game


def _ability(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    key = (posted.field(fields, "ability") or "").strip()
    form = posted.offered(game, player, "day", key)
    if form is None:
        raise NotNow(_("You can't do that now."))
    missing = "" if form.optional or not form.targets else _("Choose a player first.")
    target = posted.chosen(raw, form, posted.field(fields, "target"), missing)
    return send(raw, game, UseAbility(player, key, target))


def _accuse(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    """rules/003: an execution call waits for another player to second it."""
    if not any(f.kind == "accuse" for f in forms_for(game.state, player)):
        raise NotNow(_("There is no execution call to make now."))
    form = posted.offered(game, player, "accuse")
    assert form is not None
    accused = posted.chosen(
        raw, form, posted.field(fields, "target"), _("Accuse another living player.")
    )
    assert accused is not None
    return {**raw, "accusation": {"accused": accused, "by": player}}, game


def _second(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    accusation = raw.get("accusation")
    if not accusation:
        raise NotNow(_("There is no accusation to second."))
    if posted.offered(game, player, "accuse") is None:
        raise NotNow(_("The call cannot be seconded now."))
    if player in (accusation["by"], accusation["accused"]):
        # 003 The Local Justice System: the call "must be seconded by another player".
        raise FamilyError(_("Someone other than the caller and the accused must second the call."))
    raw = {**raw, "accusation": None}
    return send(raw, game, Accuse(accusation["accused"], accusation["by"], player))


def _fist(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    if posted.offered(game, player, "call_vote") is None:
        raise NotNow(_("There is no execution call to vote on now."))
    raw, game = send(raw, game, CallVote(player, posted.field(fields, "yes") == "yes"))
    return marked_done(raw, player), game


def _decide(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    awaited = game.state.awaited
    form = posted.offered(game, player, "decide")
    if awaited is None or awaited.player != player or form is None:
        raise NotNow(_("Nothing waits for your decision."))
    missing = _("Choose a player, or nobody.")
    target = posted.chosen(raw, form, posted.field(fields, "target"), missing)
    return send(raw, game, Decide(player, awaited.kind, target))


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


def without_dead_accusation(raw: dict[str, Any], game: Game) -> dict[str, Any]:
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


# Moves that, while the step goes on, change other seats' views only through the public
# status (a count, the votes so far), or the pack's: their pages take the status alone.
QUIET_MOVES = ("night", "vote", "sheriff_vote", "ready", "fist")


def whose_view_changed(
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
