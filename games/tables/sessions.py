"""Which seat a browser holds: the seat tokens its (signed) session keeps, one per table.

There are no accounts: a player is known by the seat token in their session (issue 25).
"""

from __future__ import annotations

import re

from django.http import HttpRequest

from games.tables.models import Seat, Table

SESSION_SEATS = "seats"
# Seats a browser's session keeps, the most recently taken: far more games than anyone plays at
# once, and a cookie under 2 KB, under half the 4,096 bytes browsers keep (issue 25).
REMEMBERED_SEATS = 40
# A seat token's shape (models.new_seat_token) and the longest one the column holds.
SEAT_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,32}")
TABLE_CODE = re.compile(r"[A-Za-z0-9]{1,16}")


def remember_seat(request: HttpRequest, seat: Seat) -> None:
    """Keep `seat` in this browser's session, as its newest seat; only the REMEMBERED_SEATS
    newest are kept (a player at an older table takes their seat back with its rejoin link)."""
    seats = request.session.get(SESSION_SEATS, {})
    seats = dict(seats) if isinstance(seats, dict) else {}
    code = seat.table.code
    seats.pop(code, None)  # re-inserted last: the newest
    seats[code] = seat.token
    for old in list(seats)[: max(0, len(seats) - REMEMBERED_SEATS)]:
        del seats[old]
    request.session[SESSION_SEATS] = seats


def session_token(session: object, code: str) -> str | None:
    seats = session.get(SESSION_SEATS, {}) if hasattr(session, "get") else {}
    token = seats.get(code) if isinstance(seats, dict) else None
    return token if isinstance(token, str) and SEAT_TOKEN.fullmatch(token) else None


def find_table(code: str) -> Table | None:
    if not TABLE_CODE.fullmatch(code or ""):
        return None
    return Table.objects.filter(code=code.upper()).first()


def seat_of(session: object, table: Table) -> Seat | None:
    """The seat this session holds at `table`, if any."""
    token = session_token(session, table.code)
    if token is None:
        return None
    seat = Seat.objects.filter(table=table, token=token).first()
    if seat is not None:
        seat.table = table
    return seat
