"""Watchers: people without a seat who follow a table through its watch link (issue 27).

A watcher sees what the table's family shows to no seat (`Family.panel(table, None)`, its
channels for `None`): the public page, and in multi-night Werewolf the graveyard's talk. They
never act and never write. The link's key is a keyed hash of the table's code, so it needs no
column and cannot be guessed from the code; the host hands it out. A browser that holds a seat
at the table is that player, never a watcher: a player cannot read the graveyard by opening the
watch link (their seat wins, views.table_view).
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

SESSION_WATCHING = "watching"
# Tables a browser's session keeps watching: the newest ones (the cookie stays small).
REMEMBERED_WATCHES = 20


def watch_key(code: str) -> str:
    """The secret part of table `code`'s watch link (96 bits)."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"watch:{code}".encode(), hashlib.sha256)
    return digest.hexdigest()[:24]


def key_matches(code: str, key: str) -> bool:
    return hmac.compare_digest(watch_key(code), key or "")


def remember_watching(session: object, code: str) -> None:
    """Keep `code` in this browser's (signed) session as a table it may watch."""
    codes = session.get(SESSION_WATCHING, []) if hasattr(session, "get") else []
    if not isinstance(codes, list):
        codes = []
    codes = [c for c in codes if isinstance(c, str) and c != code]
    codes.append(code)
    session[SESSION_WATCHING] = codes[-REMEMBERED_WATCHES:]  # type: ignore[index]


def is_watching(session: object, code: str) -> bool:
    """Whether this browser opened table `code`'s watch link."""
    codes = session.get(SESSION_WATCHING, []) if hasattr(session, "get") else []
    return isinstance(codes, list) and code in codes
