"""Getting a seat back (issue 35): a player whose browser lost their seat (the invite opened in
a chat app's own browser, then in the phone's) asks the host, whose screen shows that seat's
code and a QR code of a link carrying it; typed on the "not in this game" page, or scanned,
the code puts the seat in the new browser's session.

A seat code is 8 letters of the table codes' alphabet (about 8.5·10¹¹ codes), a keyed hash of
the seat's secret token and a ten-minute window: it needs no column, it works for 10 to 20
minutes after it is shown, and it says nothing about the token. The host's screen shows one
only when the host asks, and the table's chat says so each time (services.seat_code_show):
see docs/security.md, "Getting a seat back".

The chat notes guard only what the host's own seat reads too. So during the game a code is
shown, and accepted, only for a seat that reads no channel the host's seat may not read
(`givable_seats`, the watcher rules' comparison, games/tables/watching.py): a living host is
never given a dead player's seat (the graveyard) or a werewolf's (the pack). Never the host's
own seat, and never at a table whose players have no screens (table mode). Wrong codes are
counted and limited per client and per table (views.seat_back).
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from games.tables.family import family_named
from games.tables.models import CODE_ALPHABET, Seat, Stage, Table
from games.tables.reads import seat_info, table_info
from games.tables.watching import channels_read

SEAT_CODE_LENGTH = 8
# A code belongs to one window and is accepted in that one and the next: 10 to 20 minutes.
WINDOW_SECONDS = 600
WINDOW_MINUTES = WINDOW_SECONDS // 60


def _window(now: datetime | None) -> int:
    return int((now or timezone.now()).timestamp()) // WINDOW_SECONDS


def _code(table_code: str, token: str, window: int) -> str:
    message = f"seat-back:{table_code}:{token}:{window}".encode()
    number = int.from_bytes(
        hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).digest(), "big"
    )
    letters = []
    for _ in range(SEAT_CODE_LENGTH):
        number, index = divmod(number, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[index])
    return "".join(letters)


def seat_code(seat: Seat, table: Table, now: datetime | None = None) -> str:
    """The code the host's screen shows for `seat` now."""
    return _code(table.code, seat.token, _window(now))


def readable(code: str) -> str:
    """A code as the screen shows it: two groups of four letters."""
    return f"{code[:4]} {code[4:]}"


def cleaned(typed: object) -> str:
    """What was typed, in capitals, without spaces or dashes; "" if it cannot be a code."""
    text = "".join(ch for ch in str(typed or "")[:40].upper() if ch not in " -\t")
    if len(text) != SEAT_CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in text):
        return ""
    return text


def givable_seats(table: Table, seats: list[Seat] | None = None) -> frozenset[int]:
    """The seats whose code may be shown to the host, and used, now: never the host's own, only
    where players have screens, and during the game only a seat that reads no channel the
    host's own seat may not (in the lobby, and once the game is over, any other seat). No
    query when `seats` (in seat order) are given."""
    if seats is None:
        seats = list(table.seats.order_by("position"))
    info = table_info(table, seats)
    family = family_named(table.family)
    if not family.players_have_screens(info):
        return frozenset()
    others = [s for s in seats if not s.is_host]
    if table.stage != Stage.PLAYING:
        return frozenset(s.pk for s in others)
    host = next((s for s in seats if s.is_host), None)
    if host is None:
        return frozenset()
    hosts = channels_read(info, seat_info(host))
    return frozenset(s.pk for s in others if channels_read(info, seat_info(s)) <= hosts)


def may_give_back(table: Table, seat: Seat, seats: list[Seat] | None = None) -> bool:
    """Whether `seat`'s code may be shown to the host, and used, now (`givable_seats`)."""
    return seat.pk in givable_seats(table, seats)


def seat_with_code(table: Table, typed: object, now: datetime | None = None) -> Seat | None:
    """The seat of `table` whose code (shown in this window or the last) is `typed`, if that
    seat may be given back now (`may_give_back`)."""
    code = cleaned(typed)
    if not code:
        return None
    window = _window(now)
    seats = list(table.seats.order_by("position"))
    givable = givable_seats(table, seats)
    for seat in seats:
        if seat.pk not in givable:
            continue
        for each in (window, window - 1):
            if hmac.compare_digest(_code(table.code, seat.token, each), code):
                seat.table = table
                return seat
    return None
