"""The moderator's moves at a table-mode game: what each tap of the moderator's screen sends
to the engine, for the player the moderator names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.tables.family import FamilyError, NotAllowed, NotNow, SeatInfo, TableInfo

from .. import names, posted
from ..engine import (
    Accuse,
    Advance,
    CallVote,
    Decide,
    Game,
    SheriffVote,
    Smite,
    UseAbility,
    Vote,
)
from ..engine.forms import forms_for
from ..stored import game_of
from .counting import COUNTS, candidates, marker, voting
from .night import night_choice
from .sending import sent
from .undo import remember, undo

# The moves the moderator makes for one named player (the form's "as").
FOR_A_PLAYER = frozenset({"night", "vote", "sheriff_vote", "ability"})


def move(
    table: TableInfo, seat: SeatInfo, kind: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game, Game]:
    """A move of the moderator (the host's seat) at a table-mode game: (state, game before,
    game after)."""
    if not seat.is_host:
        raise NotAllowed(_("Only the moderator can do that."))
    raw = dict(table.state)
    before = game_of(raw)
    version = posted.trimmed(fields, "version")
    if version and version != str(table.version):
        # A second tap on a button the first tap already answered: the game has moved on.
        raise NotNow(_("The game has moved on since that screen: look again and tap once."))
    if kind == "undo":
        raw = undo(raw)
        return raw, before, game_of(raw)
    if kind == "count":
        wanted = posted.trimmed(fields, "count")
        if wanted not in COUNTS:
            raise FamilyError(_("Count the votes the normal way or the advanced way."))
        return {**raw, "count": wanted}, before, before
    if kind == "accused":
        # Counting by hand: the player voted for, tapped before their voters (not a move of
        # the game: kept with the vote it belongs to, and not undone).
        # A second tap on the accused ("") lets them go.
        wanted = posted.trimmed(fields, "accused")
        if not voting(before) or wanted not in {"", *candidates(before, raw["seats"])}:
            raise FamilyError(_("Tap a player from the list on the page."))
        return {**raw, "accused": [marker(before), wanted] if wanted else None}, before, before
    raw = remember(raw)
    game = before
    # Only the moves made for a player read whose they are: a call passed for secrecy, the
    # votes counted at once or a decision name no one in "as" (an old page may still post it).
    player = None
    if kind in FOR_A_PLAYER and posted.trimmed(fields, "as"):
        player = posted.player(raw, posted.trimmed(fields, "as"))
    if kind == "night":
        if player is None:
            raise FamilyError(_("Say whose choice this is."))
        raw, game = night_choice(raw, game, player, fields)
        # No daybreak by itself: the moderator may still show a seer her answer, or change a
        # choice; "Daybreak" ends the night.
    elif kind == "called":
        role = posted.trimmed(fields, "role")
        if role not in game.setup.ruleset.roles:
            raise FamilyError(_("Say which role was called."))
        raw = {**raw, "called": sorted({*(raw.get("called") or []), role})}
    elif kind in ("vote", "sheriff_vote"):
        if player is None:
            raise FamilyError(_("Say who votes."))
        target = posted.player(raw, posted.trimmed(fields, "target"), nobody=kind == "vote")
        made = Vote(player, target) if kind == "vote" else SheriffVote(player, target)
        raw, game = sent(raw, game, made)
    elif kind in ("votes", "sheriff_votes"):
        # rules/004 III "advanced": every record at once; a blank leaves that voter out.
        for name, seat_id in raw["seats"].items():
            value = posted.trimmed(fields, f"vote_{seat_id}")
            if not value or name not in game.state.alive:
                continue
            target = (
                None if value == "abstain" else posted.player(raw, value, nobody=kind == "votes")
            )
            made = Vote(name, target) if kind == "votes" else SheriffVote(name, target)
            raw, game = sent(raw, game, made)
        raw, game = sent(raw, game, Advance())
    elif kind == "ability":
        if player is None:
            raise FamilyError(_("Say who uses it."))
        ability = posted.trimmed(fields, "ability")
        form = next(
            (f for f in forms_for(game.state, player) if f.kind == "day" and f.key == ability),
            None,
        )
        if form is None:
            raise NotNow(_("%(player)s has no such choice to make now.") % {"player": player})
        target = posted.player(raw, posted.trimmed(fields, "target"))
        if target is None and form.targets and not form.optional:
            # A duel or a shot names someone (004 II Knight): there is no "no one" to choose.
            raise FamilyError(
                _("Choose the player %(player)s names: %(title)s needs one.")
                % {"player": player, "title": str(names.FORM_TITLES.get(form.key, form.key))}
            )
        raw, game = sent(raw, game, UseAbility(player, ability, target))
    elif kind == "accuse":
        accused = posted.player(raw, posted.trimmed(fields, "accused"))
        by = posted.player(raw, posted.trimmed(fields, "by"))
        second = posted.player(raw, posted.trimmed(fields, "second"))
        if accused is None or by is None or second is None:
            raise FamilyError(_("Name the accused, who calls and who seconds."))
        if len({accused, by, second}) < 3:  # 003 The Local Justice System
            raise FamilyError(
                _("The accused, the caller and the seconder are three different players.")
            )
        raw, game = sent(raw, game, Accuse(accused, by, second))
    elif kind == "fists":
        # rules/003: every living player's fist at once, open (yes) or closed (no).
        opened = set(fields.get("open") or ())
        for name in game.state.living():
            seat_id = str(raw["seats"][name])
            if any(f.kind == "call_vote" for f in forms_for(game.state, name)):
                raw, game = sent(raw, game, CallVote(name, seat_id in opened))
        if game.state.call is not None:
            raw, game = sent(raw, game, Advance())
    elif kind == "decide":
        awaited = game.state.awaited
        if awaited is None:
            raise NotNow(_("Nothing waits for a decision."))
        target = posted.player(raw, posted.trimmed(fields, "target"))
        raw, game = sent(raw, game, Decide(awaited.player, awaited.kind, target))
    elif kind == "advance":
        raw, game = sent(raw, game, Advance())
    elif kind == "smite":  # rules/003: Fate strikes a rule-breaker down
        target = posted.player(raw, posted.trimmed(fields, "target"))
        if target is None:
            raise FamilyError(_("Choose whom Fate smites."))
        raw, game = sent(raw, game, Smite(target))
    else:
        raise NotNow(_("That can't be done in this game."))
    return raw, before, game
