"""Players' names: how a typed name is cleaned, and which names are refused.

A name is only ever shown: forms name a seat by its id (games/selectors, games/seat_forms) and
the app's own notes in the chat are not a player's line at all. Still, a name that reads as a
centre card ("left", "left, middle") or as the app's own voice ("Moderator") would mislead the
players who read it, so such names are refused, with a message that says why.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from games.engine import CENTRE_POSITIONS, RuleError, validate_player_name
from games.models import MODERATOR

# What the night-action form puts between two centre cards (games/seat_forms.CENTRE_TARGETS).
SEPARATOR = ","


class RefusedName(ValueError):
    """A name that cannot be used; the message says why, for the player who typed it."""


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[\W_]+", name.casefold()) if w]


def reads_as_centre(name: str) -> bool:
    """True if the name's words are all centre positions ("left", "Left middle", "right-left"):
    a player so named would read as centre cards wherever targets are listed."""
    words = _words(name)
    return bool(words) and all(w in CENTRE_POSITIONS for w in words)


def clean_name(name: object) -> str:
    """The name as it will be stored: Unicode-normalised, runs of spaces made one, trimmed;
    RefusedName if it breaks a rule (the engine's: not empty, at most 24 printable
    characters, not a centre position; and ours, below)."""
    if not isinstance(name, str):
        raise RefusedName("Every player needs a name that is not empty.")
    name = re.sub(r"\s+", " ", unicodedata.normalize("NFC", name)).strip()
    try:
        validate_player_name(name)
    except RuleError as error:
        raise RefusedName(str(error)) from None
    if SEPARATOR in name:
        raise RefusedName(f"A name cannot contain a comma (“{SEPARATOR}”); pick another name.")
    if reads_as_centre(name):
        raise RefusedName(f"“{name}” reads as a centre card; pick another name.")
    if name.casefold() == MODERATOR.casefold():
        raise RefusedName(f"{MODERATOR} is the name of the app's own notes; pick another name.")
    return name


def clashing_name(name: str, seated: Iterable[str]) -> str | None:
    """The seated name that `name` (already cleaned) would be taken for, if any: the same
    ignoring case."""
    key = name.casefold()
    return next((s for s in seated if s.casefold() == key), None)
