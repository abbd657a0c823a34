"""Games as JSON: a deal and the moves sent, so that a table can store a game and play it again.

The state of a game is the fold of its log, and the log follows from the deal and the moves
(the engine has no chance in it), so storing those two is storing the game: `load` replays them.
Pure: JSON-ready dicts in and out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import RuleError
from .game import Game, apply, start
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
from .setup import Setup, make_setup

_MOVES: dict[str, type] = {
    "night": NightAction,
    "vote": Vote,
    "sheriff_vote": SheriffVote,
    "ability": UseAbility,
    "accuse": Accuse,
    "call_vote": CallVote,
    "smite": Smite,
    "decide": Decide,
    "advance": Advance,
}
_NAMES = {kind: name for name, kind in _MOVES.items()}


def setup_to_json(setup: Setup) -> dict[str, Any]:
    return {
        "ruleset": setup.ruleset.name,
        "options": dict(setup.options),
        "players": list(setup.players),
        "roles": {p: r.name for p, r in setup.roles.items()},
        "crossbows": sorted(setup.crossbows),
        "lovers": [list(pair) for pair in setup.lovers],
        "rivals": [list(pair) for pair in setup.rivals],
        "opens_with": setup.opens_with,
    }


def setup_from_json(data: Mapping[str, Any]) -> Setup:
    return make_setup(
        data["ruleset"],
        list(data["players"]),
        dict(data["roles"]),
        dict(data.get("options", {})),
        crossbows=list(data.get("crossbows", [])),
        lovers=[list(p) for p in data.get("lovers", [])],
        rivals=[list(p) for p in data.get("rivals", [])],
        opens_with=data.get("opens_with", "night"),
    )


def move_to_json(move: Move) -> dict[str, Any]:
    data: dict[str, Any] = {"type": _NAMES[type(move)]}
    for name in move.__dataclass_fields__:
        value = getattr(move, name)
        data[name] = dict(value) if isinstance(value, Mapping) else value
    return data


def move_from_json(data: Mapping[str, Any]) -> Move:
    kind = _MOVES.get(str(data.get("type")))
    if kind is None:
        raise RuleError(f"Unknown move {data.get('type')!r}.")
    fields = {k: v for k, v in data.items() if k != "type"}
    return kind(**fields)


def load(setup: Mapping[str, Any], moves: Iterable[Mapping[str, Any]]) -> Game:
    """The game a stored deal and its moves lead to."""
    game = start(setup_from_json(setup))
    for move in moves:
        game = apply(game, move_from_json(move))
    return game
