"""The game a table stores: the deal and the moves sent (engine/codec.py), and the seats' names.

The game is those moves played again, so every ruling is the engine's. A game read or made here
is kept for the next reader: a page, its pushes and the next move read the same one, and a
move leaves the game it made, so the pages after it need no replay.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from games.tables.family import FamilyError

from .engine import Game, Move, RuleError, apply, codec

# The games of the last few states asked for: a page, its pushes and the next move read the
# same one, and a move leaves the game it made here, so the pages after it need no replay.
_GAMES: OrderedDict[tuple[str, str], Game] = OrderedDict()
_GAMES_KEPT = 256
_GAMES_LOCK = threading.Lock()


def _key(state: Mapping[str, Any]) -> tuple[str, str]:
    return (
        json.dumps(state["setup"], sort_keys=True),
        json.dumps(state["moves"], sort_keys=True),
    )


def _keep(key: tuple[str, str], game: Game) -> None:
    with _GAMES_LOCK:
        _GAMES[key] = game
        _GAMES.move_to_end(key)
        while len(_GAMES) > _GAMES_KEPT:
            _GAMES.popitem(last=False)


def keep(state: Mapping[str, Any], game: Game) -> None:
    """Keep `game` as the game of `state` (the state a move made): the next page reads it with
    no replay."""
    _keep(_key(state), game)


def game_of(state: Mapping[str, Any]) -> Game:
    """The engine's game for a stored state: its moves played again (or the game kept from
    the last time)."""
    key = _key(state)
    with _GAMES_LOCK:
        game = _GAMES.get(key)
    if game is None:
        game = codec.load(json.loads(key[0]), json.loads(key[1]))
    _keep(key, game)
    return game


def name_of(state: Mapping[str, Any], seat_id: int) -> str | None:
    return next((n for n, i in state["seats"].items() if i == seat_id), None)


def send(raw: dict[str, Any], game: Game, *moves: Move) -> tuple[dict[str, Any], Game]:
    """The moves played by the engine and stored after the others (a refusal in the engine's
    words: a FamilyError)."""
    for move in moves:
        try:
            game = apply(game, move)
        except RuleError as error:
            raise FamilyError(str(error)) from None
        raw = {**raw, "moves": [*raw["moves"], codec.move_to_json(move)]}
    return raw, game
