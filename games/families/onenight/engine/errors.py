"""Typed errors raised by the rules engine.

Every error carries a message a player can read as it is: the web app shows it next to the form,
the scenario runner prints it. Nothing is changed when one is raised.
"""

from __future__ import annotations


def shown(value: object, limit: int = 40) -> str:
    """A value as an error message quotes it: repr, cut short so hostile input stays small."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class RuleError(ValueError):
    """Base class: the input breaks a rule of the game."""


class InvalidPlayersError(RuleError):
    """The seats are not a valid table (count, names)."""


class InvalidDeckError(RuleError):
    """The chosen cards do not make a legal deck for this ruleset and table."""


class IllegalActionError(RuleError):
    """A night action that the player's start role does not allow."""


class IllegalVoteError(RuleError):
    """A vote that the rules do not allow (for oneself, for a stranger, missing)."""
