"""A decision the game waits for on the moderator's screen (a dead hunter's shot, a dying
sheriff's badge, a sheriff's tie break): whose, what, the players to pick from, and the button
that declines it."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .. import names
from ..engine import Game
from ..engine.forms import forms_for
from .choices import Choice, choices

# The button that declines an awaited decision: a dead hunter need not shoot (004 II Hunter:
# "can choose"), a dying sheriff may lose the badge and a sheriff may break a tie on no one
# (004 III; docs/rules.md 10 and 13).
DECLINES = {
    # Translators: a dead hunter or werewolf king does not shoot (table mode).
    "shoot": gettext_lazy("No shot"),
    # Translators: a dying sheriff hands the badge to nobody: it is lost (rules/004).
    "badge": gettext_lazy("Nobody: the badge is lost"),
    # Translators: the sheriff breaks a tie by eliminating no one.
    "tie_break": gettext_lazy("No one"),
}


def awaited(game: Game, seats: Mapping[str, int]) -> tuple[str, str, tuple[Choice, ...], str]:
    """The decision awaited: (what, who, the choices, the button that declines it)."""
    awaited = game.state.awaited
    assert awaited is not None
    form = next(iter(forms_for(game.state, awaited.player)), None)
    options = choices(form, seats) if form is not None else ()
    what = names.awaited_phrase(awaited.player, awaited.kind)
    decline = str(DECLINES.get(awaited.kind, _("No one")))
    return (what, awaited.player, options, decline)
