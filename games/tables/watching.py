"""Watchers: people without a seat who follow a table through its watch link (issues 27, 36).

A watcher sees what the table's family shows to no seat (`Family.panel(table, None)`, its
channels for `None`): the public page, and in multi-night Werewolf the graveyard's talk, which
the living may not read. The watcher rules (docs/security.md) keep a seated player from reading,
by a watch link, what their seat may not:

1. A browser that holds a seat at the table is that player, never a watcher (views.watch does
   not remember a watch for it; views.table_view puts the seat first).
2. The host's page shows the watch link only while the host's own seat reads every channel a
   watcher reads (`shows_watch_link`): in the lobby; in One Night all game; in Werewolf once
   the host is dead, or as the moderator of a table-mode game. A living Werewolf host never
   sees it, so cannot open it in a private window (which holds no seat) either.
3. The link has two keys: the lobby's and the game's (from the deal on). The lobby's key keeps
   opening the table after the deal only while a watcher reads no channel but the public one,
   which every seat reads (`lobby_watch_holds`): a player who opened the lobby's link in a
   private window, or a watcher who followed "Play again" into a lobby, is not a watcher of
   a Werewolf game once it is dealt. Every page, fragment and push to a watcher checks the
   watch still holds (`may_watch`); a socket whose watch lapsed is closed.

Keys are keyed hashes of the table's code, so they need no column and cannot be guessed from
the code; the host hands them out.
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.urls import reverse

from games.tables.family import PUBLIC, SeatInfo, TableInfo, family_named
from games.tables.models import Seat, Stage, Table
from games.tables.reads import seat_info, table_info

SESSION_WATCHING = "watching"
# Tables a browser's session keeps watching: the newest ones (the cookie stays small).
REMEMBERED_WATCHES = 20
# The two keys of a table's watch link: the one shown in the lobby, the one shown once dealt.
LOBBY = "lobby"
GAME = "game"
KEYS = (LOBBY, GAME)


def watch_key(code: str, key: str = LOBBY) -> str:
    """The secret part of table `code`'s watch link (96 bits): the lobby's or the game's."""
    salt = f"watch:{code}" if key == LOBBY else f"watch:{code}:{key}"
    digest = hmac.new(settings.SECRET_KEY.encode(), salt.encode(), hashlib.sha256)
    return digest.hexdigest()[:24]


def current_key(table: Table) -> str:
    """Which key the table's watch link carries now."""
    return LOBBY if table.stage == Stage.LOBBY else GAME


def which_key(code: str, key: str) -> str | None:
    """Which of table `code`'s keys `key` is (LOBBY or GAME), whether or not it opens the
    table now; None if neither."""
    for which in KEYS:
        if hmac.compare_digest(watch_key(code, which), key or ""):
            return which
    return None


def channels_read(info: TableInfo, viewer: SeatInfo | None) -> frozenset[str]:
    """The channels `viewer` (None: a watcher) reads at the table now, as its family says."""
    channels = family_named(info.family).channels(info, viewer)
    return frozenset(c.name for c in channels if c.read)


def watcher_reads(info: TableInfo) -> frozenset[str]:
    """The channels a watcher reads at the table now."""
    return channels_read(info, None)


def lobby_watch_holds(table: Table, seats: list[Seat] | None = None) -> bool:
    """Whether the lobby's key opens the table now: in the lobby, or while a watcher reads
    nothing but the public channel, which every seat reads (rule 3)."""
    if table.stage == Stage.LOBBY:
        return True
    return watcher_reads(table_info(table, seats)) <= {PUBLIC}


def key_holds(table: Table, key: str, seats: list[Seat] | None = None) -> bool:
    """Whether a watch opened with `key` (LOBBY or GAME) still holds at `table`."""
    if key == GAME:
        return table.stage != Stage.LOBBY
    return key == LOBBY and lobby_watch_holds(table, seats)


def reads_what_watchers_read(table: Table, seat: Seat, seats: list[Seat] | None = None) -> bool:
    """Whether `seat` reads every channel a watcher of its table reads now."""
    info = table_info(table, seats)
    return watcher_reads(info) <= channels_read(info, seat_info(seat))


def watch_link_open(table: Table, seats: list[Seat] | None = None) -> bool:
    """Whether the table's host may hand out a watch link now (rule 2)."""
    if table.stage not in (Stage.LOBBY, Stage.PLAYING):
        return False
    if seats is None:
        seats = list(table.seats.order_by("position"))
    host = next((s for s in seats if s.is_host), None)
    return host is not None and reads_what_watchers_read(table, host, seats)


def shows_watch_link(table: Table, me: Seat | None, seats: list[Seat] | None = None) -> bool:
    """Whether `me`'s page shows the table's watch link: the host's, while rule 2 allows."""
    return me is not None and me.is_host and watch_link_open(table, seats)


def watch_path(table: Table) -> str:
    """The address of the table's watch link as it is now (the lobby's or the game's key)."""
    return reverse("watch", args=[table.code, watch_key(table.code, current_key(table))])


def _watches(session: object) -> dict[str, str]:
    """The tables this browser watches, each with the key it came by. A list (sessions before
    issue 36) held codes opened with the only key there was then: the lobby's."""
    stored = session.get(SESSION_WATCHING, {}) if hasattr(session, "get") else {}
    if isinstance(stored, list):
        stored = {code: LOBBY for code in stored}
    if not isinstance(stored, dict):
        return {}
    return {c: k for c, k in stored.items() if isinstance(c, str) and k in KEYS}


def remember_watching(session: SessionBase, code: str, key: str = LOBBY) -> None:
    """Keep `code` in this browser's (signed) session as a table it watches by `key`."""
    watches = _watches(session)
    watches.pop(code, None)  # re-inserted last: the newest
    watches[code] = key
    kept = list(watches.items())[-REMEMBERED_WATCHES:]
    session[SESSION_WATCHING] = dict(kept)


def is_watching(session: object, code: str) -> bool:
    """Whether this browser opened table `code`'s watch link (by either key)."""
    return code in _watches(session)


def may_watch(session: object, table: Table, seats: list[Seat] | None = None) -> bool:
    """Whether this browser watches `table` and its watch still holds (rule 3)."""
    key = _watches(session).get(table.code)
    return key is not None and key_holds(table, key, seats)
