"""Typed errors of the multi-night engine.

Each carries a message a player can read as it is, naming the phase, the player and the rule
(with its section). Nothing is changed when one is raised: the engine works on copies.
"""

from __future__ import annotations


def shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: repr, cut short so that hostile input stays small."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class RuleError(ValueError):
    """Base class: the input breaks a rule of the game."""


class SetupError(RuleError):
    """The players, the deal or the options are not a legal game."""


class IllegalMoveError(RuleError):
    """A move the rules do not allow now: a dead player acting, a target out of reach, a second
    potion, a vote out of turn."""


class OutOfTurnError(IllegalMoveError):
    """A move sent in a phase or step that does not take it (a vote at night, anything after the
    end of the game)."""
