"""Shared pieces of the security suite: role-word scanning, snapshots and request helpers."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

from django.http import HttpResponse

from games.engine import Role, Team
from games.models import CentreCard, ChatMessage, Game, NightAction, Seat, SeatTaken, Vote

# Every way a page could name a role: the title or value in any case, and plurals, wherever it
# stands (text, attribute, CSS class such as team-werewolf, hidden input, data-*, comment).
# Word boundaries: "team-werewolf" matches (the hyphen is a boundary), a token or code does not.
_ROLE_STEMS: dict[str, Role] = {
    "doppelgangers?": Role.DOPPELGANGER,
    "werewol(?:f|ves)": Role.WEREWOLF,
    "minions?": Role.MINION,
    "masons?": Role.MASON,
    "seers?": Role.SEER,
    "robbers?": Role.ROBBER,
    "troublemakers?": Role.TROUBLEMAKER,
    "drunks?": Role.DRUNK,
    "insomniacs?": Role.INSOMNIAC,
    "hunters?": Role.HUNTER,
    "villagers?": Role.VILLAGER,
    "tanners?": Role.TANNER,
}
ROLE_WORD = re.compile(r"\b(" + "|".join(f"(?:{s})" for s in _ROLE_STEMS) + r")\b", re.I)
_STEM_PATTERNS = [(re.compile(f"^(?:{s})$", re.I), role) for s, role in _ROLE_STEMS.items()]

# The POST routes of games/urls.py that take just the game's code in their path.
POST_ROUTES = (
    "deck",
    "lock",
    "start",
    "cancel",
    "night_action",
    "end_day",
    "ready",
    "vote",
    "play_again",
)

TEAM_ROLE: dict[Team, Role | None] = {
    Team.TOWN: None,
    Team.WEREWOLF: Role.WEREWOLF,
    Team.TANNER: Role.TANNER,
}


def role_of_word(word: str) -> Role:
    for pattern, role in _STEM_PATTERNS:
        if pattern.match(word):
            return role
    raise AssertionError(word)


def roles_named(text: str) -> set[Role]:
    """The roles a text names, in any form ROLE_WORD recognises."""
    return {role_of_word(m.group(1)) for m in ROLE_WORD.finditer(text)}


def role_mentions(text: str) -> list[tuple[Role, str]]:
    """Every mention with 60 characters of context either side (for failure messages)."""
    found = []
    for m in ROLE_WORD.finditer(text):
        start, end = max(0, m.start() - 60), min(len(text), m.end() + 60)
        found.append((role_of_word(m.group(1)), text[start:end].replace("\n", " ")))
    return found


def unescaped(body: str) -> str:
    """The markup with entities decoded: attributes, classes and comments kept."""
    return html.unescape(body)


def plain(body: str) -> str:
    """The words a reader sees: tags dropped (so "a <strong>Seer</strong>." reads "a Seer."),
    entities decoded, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", body))).strip()


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def strings_in(value: Any) -> Iterable[str]:
    """Every string (keys included) inside a decoded JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def message_of(response: HttpResponse) -> str:
    """The human message of a refusal: role="alert" elements and form error lists."""
    body = response.content.decode()
    found = re.findall(r'role="alert"[^>]*>(.*?)</', body, flags=re.S)
    found += re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', body, flags=re.S)
    return " | ".join(plain(f) for f in found if plain(f))


def db_snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every game table (all games, not one): nothing may change unnoticed."""
    return {
        "game": list(Game.objects.order_by("pk").values()),
        "seat": list(Seat.objects.order_by("pk").values()),
        "centre": list(CentreCard.objects.order_by("pk").values()),
        "action": list(NightAction.objects.order_by("pk").values()),
        "vote": list(Vote.objects.order_by("pk").values()),
        "chat": list(ChatMessage.objects.order_by("pk").values()),
        "seat_taken": list(SeatTaken.objects.order_by("pk").values()),
    }


def snapshot_diff(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Human-readable differences between two snapshots (empty: nothing changed)."""
    changes = []
    for table, rows in before.items():
        old = {r["id"]: r for r in rows}
        new = {r["id"]: r for r in after[table]}
        for pk in old.keys() - new.keys():
            changes.append(f"{table} {pk} deleted")
        for pk in new.keys() - old.keys():
            changes.append(f"{table} {pk} created: {new[pk]}")
        for pk in old.keys() & new.keys():
            for key, value in old[pk].items():
                if new[pk][key] != value:
                    changes.append(f"{table} {pk}.{key}: {value!r} -> {new[pk][key]!r}")
    return changes
