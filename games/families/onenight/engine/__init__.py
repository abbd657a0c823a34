"""The One Night rules engine: pure Python, no Django.

Frozen dataclasses and enums in, results out; every broken rule raises a `RuleError` with a
message a player can read. The web app, the admin, the scenario runner and the tests all call
these functions, so every ruling is made here and only here.
"""

from __future__ import annotations

from .actions import (
    action_rule,
    copied_action_rule,
    is_lone_werewolf,
    validate_action,
    validate_copy,
)
from .artifacts import ARTIFACTS, Artifact
from .deck import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Deal,
    deal_cards,
    default_deck,
    make_deal,
    max_players,
    validate_deck,
    validate_player_name,
    validate_players,
)
from .errors import (
    IllegalActionError,
    IllegalVoteError,
    InvalidDeckError,
    InvalidPlayersError,
    RuleError,
)
from .game import GameResult, finish_game, play_game
from .marks import Mark
from .night import NightResult, NightStep, resolve_night
from .roles import (
    CENTRE_POSITIONS,
    CENTRE_WOLF,
    EXPANSION_ROLES,
    ActionRule,
    CentrePosition,
    Requirement,
    Role,
    Ruleset,
    TargetShape,
    Team,
    has_marks,
    is_werewolf,
    role_limits,
    team_of,
)
from .roles_vampire import VAMPIRE_ROLES
from .voting import Outcome, VoteResult, decide_outcome, tally_votes, validate_vote

__all__ = [
    "ARTIFACTS",
    "CENTRE_POSITIONS",
    "CENTRE_WOLF",
    "EXPANSION_ROLES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "VAMPIRE_ROLES",
    "ActionRule",
    "Artifact",
    "CentrePosition",
    "Deal",
    "GameResult",
    "IllegalActionError",
    "IllegalVoteError",
    "InvalidDeckError",
    "InvalidPlayersError",
    "Mark",
    "NightResult",
    "NightStep",
    "Outcome",
    "Requirement",
    "Role",
    "RuleError",
    "Ruleset",
    "TargetShape",
    "Team",
    "VoteResult",
    "action_rule",
    "copied_action_rule",
    "deal_cards",
    "decide_outcome",
    "default_deck",
    "finish_game",
    "has_marks",
    "is_lone_werewolf",
    "is_werewolf",
    "make_deal",
    "max_players",
    "play_game",
    "resolve_night",
    "role_limits",
    "tally_votes",
    "team_of",
    "validate_action",
    "validate_copy",
    "validate_deck",
    "validate_player_name",
    "validate_players",
    "validate_vote",
]
