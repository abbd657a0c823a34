"""Every player at a glance on the moderator's screen (Fate's dashboard, rules/003): role,
life, and what marks them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from .. import names
from ..engine import Game
from ..engine.causes import described
from ..engine.report import phase_reports

# A limited ability's uses left, on the moderator's dashboard.
USES_LEFT = {
    # Translators: on the moderator's list of players: the shots left (a crossbow, a hunter's).
    "shoot": gettext_lazy("shoot: %(count)d left"),
    "crossbow": gettext_lazy("crossbow: %(count)d left"),
    # Translators: the witch's poison potions left.
    "poison": gettext_lazy("poison: %(count)d left"),
    # Translators: the witch's antidotes left.
    "save": gettext_lazy("save: %(count)d left"),
}
# Tonight's protection of a player, on the moderator's dashboard.
TONIGHT = {
    "trap": gettext_lazy("tonight: trap %(player)s"),
    "protect": gettext_lazy("tonight: protect %(player)s"),
    "guard": gettext_lazy("tonight: guard %(player)s"),
}


@dataclass(frozen=True, slots=True)
class PlayerRow:
    name: str
    seat_id: int
    role: str
    side: str
    alive: bool
    notes: tuple[str, ...]


def player_rows(game: Game, raw: Mapping[str, Any]) -> tuple[PlayerRow, ...]:
    """Every player at a glance (Fate's dashboard, rules/003): role, life, and what marks them."""
    state = game.state
    setup = game.setup
    reports = phase_reports(setup, game.log)
    latest = reports[-1] if reports else None
    mornings = [r for r in reports if r.phase.kind == "night"]
    injured = set(mornings[-1].injured or ()) if mornings else set()
    rows = []
    for player in setup.players:
        role = setup.roles[player]
        notes: list[str] = []
        death = state.deaths.get(player)
        if death is not None:
            text, _section = described(death.cause)
            notes.append(
                # Translators: on the moderator's list of players: when and how they died.
                _("died on %(phase)s: %(cause)s")
                % {"phase": names.phase(death.phase), "cause": names.text(text)}
            )
        if state.sheriff == player:
            # Translators: on the moderator's list of players: this player is the sheriff.
            notes.append(pgettext("mark", "sheriff"))
        for a, b in setup.lovers:
            if player in (a, b):
                notes.append(_("in love with %(player)s") % {"player": b if player == a else a})
        for a, b in setup.rivals:
            if player in (a, b):
                notes.append(_("rival of %(player)s") % {"player": b if player == a else a})
        for ability in setup.abilities(player):
            if ability.uses is not None and ability.key in USES_LEFT:
                left = ability.uses - state.used(player, ability.key)
                notes.append(str(USES_LEFT[ability.key]) % {"count": left})
        if player in injured and player in state.alive:
            notes.append(_("injured this morning"))
        if player in state.revealed_idiots:
            notes.append(_("revealed idiot"))
        for key, target in state.choices.get(player, {}).items():
            if key in TONIGHT and target:
                notes.append(str(TONIGHT[key]) % {"player": names.player(str(target))})
        if latest is not None and latest.silenced == player:
            # Translators: on the moderator's list of players: silenced today (rules/004).
            notes.append(pgettext("mark", "silenced"))
        seat_id = raw["seats"][player]
        alive = player in state.alive
        rows.append(PlayerRow(player, seat_id, names.title(role), role.side, alive, tuple(notes)))
    return tuple(rows)
