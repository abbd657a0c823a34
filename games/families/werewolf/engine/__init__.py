"""The multi-night Werewolf rules engine: pure Python, no Django.

Three rulesets: `forum` (rules/001), `oxford` (rules/003) and `classic` (rules/004). Typed moves
in (`moves.py`), events and typed state out; every broken rule raises a `RuleError` with a
message a player can read. Roles are data (`roles.py`), abilities small named resolvers
(`abilities.py`), the night a fold (`night.py`), the day each ruleset's own decision
(`day.py`), the log of events the one source of the state (`events.py`).
"""

from __future__ import annotations

from .errors import IllegalMoveError, OutOfTurnError, RuleError, SetupError
from .events import Event, replay
from .game import Game, apply, next_phase, start, undo
from .moves import (
    Accuse,
    Advance,
    CallVote,
    Decide,
    Move,
    NightAction,
    SheriffVote,
    Smite,
    UseAbility,
    Vote,
)
from .report import PhaseReport, phase_reports
from .roles import Ability, Role, Targets, Timing
from .rulesets import RULESETS, Option, Ruleset
from .setup import NOBODY, Setup, make_setup
from .state import Awaited, Outcome, Phase, State

__all__ = [
    "NOBODY",
    "RULESETS",
    "Ability",
    "Accuse",
    "Advance",
    "Awaited",
    "CallVote",
    "Decide",
    "Event",
    "Game",
    "IllegalMoveError",
    "Move",
    "NightAction",
    "Option",
    "OutOfTurnError",
    "Outcome",
    "Phase",
    "PhaseReport",
    "Role",
    "RuleError",
    "Ruleset",
    "Setup",
    "SetupError",
    "SheriffVote",
    "Smite",
    "State",
    "Targets",
    "Timing",
    "UseAbility",
    "Vote",
    "apply",
    "make_setup",
    "next_phase",
    "phase_reports",
    "replay",
    "start",
    "undo",
]
