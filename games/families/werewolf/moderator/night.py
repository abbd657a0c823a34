"""The night as the moderator enters it: one ability of one role at a time (the pack's choice
once for the whole pack), the witch's one potion a night, and her call again when the pack
changes its victim after she answered."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.tables.family import FamilyError, NotNow

from .. import posted
from ..engine import NOBODY, Game, NightAction
from ..engine.forms import Form, forms_for
from ..engine.night import current_victim
from .sending import sent

# 004 II Witch: one potion a night; choosing one sets the other aside.
ONE_POTION = ("save", "poison")


def pack_chooses_once(game: Game, form: Form) -> bool:
    """Whether the pack chooses once for all (rules/001's plurality, rules/004's agreement);
    rules/003's werewolves maul one by one."""
    return form.group_key and game.setup.ruleset.pack != "individual"


def night_choice(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    """One ability of one role tonight (the pack's choice for every member of the pack). It is
    added to what the player chose before; an empty target skips it."""
    key = posted.trimmed(fields, "key")
    night = [f for f in forms_for(game.state, player) if f.kind == "night"]
    form = next((f for f in night if f.key == key), None)
    if form is None:
        raise NotNow(_("%(player)s has no such choice to make now.") % {"player": player})
    if pack_chooses_once(game, form):
        members = [
            p
            for p in game.state.living()
            if any(f.kind == "night" and f.key == key for f in forms_for(game.state, p))
        ]
    else:
        members = [player]
    value = posted.trimmed(fields, "target")
    victim = current_victim(game.state)
    addressed = {k: list(v) for k, v in (raw.get("addressed") or {}).items()}
    for member in members:
        choice = dict(game.state.choices.get(member, {}))
        settled = {key}
        if key == "save":
            if value in ("yes", "1", "on"):
                if not form.targets:  # a page from before the victim changed
                    raise FamilyError(_("The antidote cannot save anyone tonight."))
                choice["save"] = True
            else:
                choice.pop("save", None)
        else:
            target = posted.player(raw, value, nobody=NOBODY in form.targets)
            if target is None:
                choice.pop(key, None)
            else:
                choice[key] = target
        if key in ONE_POTION and choice.get(key):
            other = next(k for k in ONE_POTION if k != key)
            choice.pop(other, None)
            settled.add(other)
        raw, game = sent(raw, game, NightAction(member, choice))
        addressed[member] = sorted({*addressed.get(member, []), *settled})
    done = set(raw.get("done") or [])
    if form.group_key and current_victim(game.state) != victim:
        raw, game = _reopen_antidote(raw, game, addressed, done)
    raw = {**raw, "addressed": addressed}
    for member in members:
        keys = {f.key for f in forms_for(game.state, member) if f.kind == "night"}
        if keys <= set(addressed.get(member, [])):
            done.add(member)
    return {**raw, "done": sorted(done)}, game


def _reopen_antidote(
    raw: dict[str, Any], game: Game, addressed: dict[str, list[str]], done: set[str]
) -> tuple[dict[str, Any], Game]:
    """The pack's victim changed after the witch answered: her antidote was for the victim
    she was shown (004 III: the witch "learns kill target and uses antidote/poison"), so her
    call comes again. Without this a save could be left with nobody attacked, which no
    daybreak accepts."""
    for witch in game.state.living():
        choice = dict(game.state.choices.get(witch, {}))
        keys = set(addressed.get(witch, []))
        if "save" not in keys or not any(f.key == "save" for f in forms_for(game.state, witch)):
            continue
        if choice.pop("save", None):
            raw, game = sent(raw, game, NightAction(witch, choice))
        reopened = {"save"} | ({"poison"} if not choice.get("poison") else set())
        addressed[witch] = sorted(keys - reopened)
        done.discard(witch)
    return raw, game
