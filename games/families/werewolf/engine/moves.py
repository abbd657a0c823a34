"""The moves a game takes, as typed values, and the checks every move's target goes through.

Every client (the scenario runner, the web pages, table mode, a chat bot) sends these to
`game.apply`; nothing else changes a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.words import _

from .abilities import CHECKS
from .roles import Ability, Targets
from .setup import NOBODY
from .state import State, refusal


@dataclass(frozen=True, slots=True)
class NightAction:
    """A player's choice for tonight, e.g. {"kill": "Dan", "charm": "Ben"} or {"save": True};
    it replaces their earlier choice; {} takes it back."""

    player: str
    choice: Mapping[str, object]


@dataclass(frozen=True, slots=True)
class Vote:
    """A day vote: a player's name, "nobody" where the ruleset has it (rules/001), or None to
    take the vote back."""

    voter: str
    target: str | None


@dataclass(frozen=True, slots=True)
class SheriffVote:
    """rules/004, day 1: a vote in the sheriff election (None takes it back)."""

    voter: str
    candidate: str | None


@dataclass(frozen=True, slots=True)
class UseAbility:
    """A day ability, used at once: a crossbow shot (rules/003), the knight's duel, a
    werewolf's explosion (rules/004)."""

    player: str
    ability: str
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Accuse:
    """rules/003: an execution call on `accused`, put by `by` and seconded by `second`."""

    accused: str
    by: str
    second: str


@dataclass(frozen=True, slots=True)
class CallVote:
    """rules/003: open fist (`yes`) or closed fist on the open execution call."""

    voter: str
    yes: bool


@dataclass(frozen=True, slots=True)
class Smite:
    """rules/003 Fate: the moderator strikes a rule-breaker down."""

    target: str


@dataclass(frozen=True, slots=True)
class Decide:
    """An awaited decision: a dead hunter's or werewolf king's shot ("shoot"), a dying
    sheriff's badge ("badge"), the sheriff's tie break ("tie_break"); None declines."""

    player: str
    kind: str
    choice: str | None


@dataclass(frozen=True, slots=True)
class Advance:
    """The host or the clock moves the game on: ends the night, the election, the speeches,
    the vote, an execution call or the day. `at_deadline` applies the documented defaults
    to whoever did not act (docs/rules.md) instead of refusing an unfinished choice."""

    at_deadline: bool = False


Move = NightAction | Vote | SheriffVote | UseAbility | Accuse | CallVote | Smite | Decide | Advance


def target_problem(state: State, player: str, ability: Ability, target: object) -> str | None:
    """Why `player` may not aim `ability` at `target` now (a refusal's whole message, naming
    the phase, the player and the ability's section), or None if they may.

    The target must be a living player (FORMAT: "A name in an action must be a player alive
    when the action is taken"), another one where the ability says so, or "nobody" where the
    ruleset allows forgoing; then the ability's own checks apply.
    """
    if target == NOBODY and ability.nobody:
        return None
    section = ability.section
    if not isinstance(target, str):
        message = _("%(phase)s: %(player)s must name a player, not %(target)s (%(section)s).")
        return refusal(state, player, message, target=repr(target), section=section)
    if target not in state.setup.roles:
        message = _("%(phase)s: %(player)s named %(target)s, who is not a player (%(section)s).")
        return refusal(state, player, message, target=repr(target), section=section)
    if target not in state.alive:
        message = _("%(phase)s: %(player)s named %(target)s, who is dead (%(section)s).")
        return refusal(state, player, message, target=target, section=section)
    if target == player and ability.targets in (Targets.OTHER, Targets.OPTIONAL_OTHER):
        # Translators: %(ability)s is the ability's key word, as the rules name it ("see",
        # "protect", "poison"...): it is not translated.
        message = _("%(phase)s: %(player)s cannot %(ability)s themselves (%(section)s).")
        return refusal(state, player, message, ability=ability.key, section=section)
    for check in ability.checks:
        problem = CHECKS[check](state, player, ability, target)
        if problem is not None:
            return problem
    return None
