"""The paths of one game's page and forms, reversed once per game code.

A phase change renders every seat's panel, and each panel links five to seven of these paths;
`{% url %}` reverses each one anew (about 16 µs more than reading a variable, some 20 % of a
phase change's rendering: docs/benchmarks.md, change 29). The paths of a game never change
while the process runs, so they are reversed once and kept; templates read them as
`view.paths.<url name>`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache

from django.urls import get_script_prefix, reverse

# Games whose paths are kept: far more than one process has tables open at once.
KEPT_GAMES = 4096


@dataclass(frozen=True, slots=True)
class GamePaths:
    """The path of each page and form of one game that takes only the game's code, named by
    its URL name (games/urls.py)."""

    game: str
    join: str
    status: str
    deck: str
    lock: str
    start: str
    cancel: str
    night_action: str
    end_day: str
    ready: str
    vote: str
    play_again: str


def game_paths(code: str) -> GamePaths:
    """The paths of game `code`, under the script prefix of the request being served (part of
    the key, so a server mounted under another prefix never gets another's paths). The URL
    conf is not part of the key: nothing here sets one per request (`request.urlconf`)."""
    return _paths(code, get_script_prefix())


@lru_cache(maxsize=KEPT_GAMES)
def _paths(code: str, script_prefix: str) -> GamePaths:
    # reverse() reads the same script prefix that is part of the key.
    return GamePaths(**{f.name: reverse(f.name, args=[code]) for f in fields(GamePaths)})
