"""The rest of the day on the moderator's screen: the day's abilities (a knight's duel, a
hunter's shot...), rules/003's execution calls and Fate's smite."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import names
from ..engine import Game
from ..engine.forms import forms_for
from .choices import choices


def day(game: Game, seats: Mapping[str, int]) -> dict[str, Any]:
    """The screen's day abilities, the open execution call (or whether one may be made), and
    whether Fate may smite."""
    state = game.state
    view: dict[str, Any] = {}
    abilities = []
    for player in state.living():
        for form in forms_for(state, player):
            if form.kind == "day":
                options = choices(form, seats)
                summary = names.text(form.summary)
                title = str(names.FORM_TITLES.get(form.key, form.key))
                none = form.optional and bool(options)  # "no one" only where the rule allows
                abilities.append((player, seats[player], form.key, title, summary, options, none))
    view["abilities"] = tuple(abilities)
    if state.call is not None:
        view["call"] = (state.call.accused, state.call.by, state.call.second)
    else:
        view["accusing"] = game.setup.ruleset.day == "execution_calls" and state.step == "speech"
    view["smite"] = game.setup.ruleset.day == "execution_calls"
    return view
