"""A table and its seats as a family sees them (games/tables/family.py): plain, read-only
values built from the rows, so that no game code touches a model. And the read a table's
pushes share: one read of a table and its seats per version (`table_at`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from types import MappingProxyType

from games.tables.family import SeatInfo, TableInfo, family_named
from games.tables.models import Seat, Table


def seat_info(seat: Seat) -> SeatInfo:
    return SeatInfo(
        id=seat.pk, name=seat.name, position=seat.position, is_host=seat.is_host, alive=seat.alive
    )


def table_info(table: Table, seats: Iterable[Seat] | None = None) -> TableInfo:
    """`table` for its family; `seats` if already read (in seat order), else read now."""
    rows = table.seats.order_by("position") if seats is None else seats
    return TableInfo(
        code=table.code,
        family=table.family,
        ruleset=table.ruleset,
        options=MappingProxyType(dict(table.options or {})),
        stage=table.stage,
        phase=table.phase,
        round=table.round,
        version=table.version,
        deadline=table.deadline,
        state=table.state,
        seats=tuple(seat_info(s) for s in rows),
    )


def players_have_screens(table: Table, seats: Iterable[Seat] | None = None) -> bool:
    """Whether each player plays on a screen of their own: not in a game moderated at a table,
    where the host's screen plays for everyone (the family's `players_have_screens`); `seats`
    if already read."""
    return family_named(table.family).players_have_screens(table_info(table, seats))


# The last read of each table's rows made for a push, by table: a change's push redraws every
# open page of the table, and each page's consumer renders its own seat from the same table
# and seats at the same version (issue 39: the phase change read them once a seat). What a
# page sees is built from the version, as before: every change that a page may be shown bumps
# it (services/common.py `bump`), and a change seen by its sender alone keeps it but is
# answered to the sender, whose page drops a push of a version it already shows
# (static/js/table.js). The rows are only read from: nothing renders into them. Keyed by the
# table's id, which the database never gives out twice (an AUTOINCREMENT key on SQLite, a
# sequence on PostgreSQL).
_READS: OrderedDict[int, tuple[Table, list[Seat]]] = OrderedDict()
_READS_KEPT = 256
_READS_LOCK = threading.Lock()


def table_at(table_id: int, version: int) -> tuple[Table, list[Seat]] | None:
    """The table and its seats (in seat order, each seat's `table` set) at `version` or newer:
    the read kept from the last push of the table when it is that new, else read now and kept.
    None if the table is gone."""
    with _READS_LOCK:
        kept = _READS.get(table_id)
    if kept is not None and kept[0].version >= version:
        return kept
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seats = list(table.seats.order_by("position"))
    for seat in seats:
        seat.table = table
    with _READS_LOCK:
        _READS[table_id] = (table, seats)
        _READS.move_to_end(table_id)
        while len(_READS) > _READS_KEPT:
            _READS.popitem(last=False)
    return table, seats


def forget_reads() -> None:
    """Drop the kept reads (tests: a rolled-back test's table ids are given out again)."""
    with _READS_LOCK:
        _READS.clear()
