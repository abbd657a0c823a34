"""A table and its seats as a family sees them (games/tables/family.py): plain, read-only
values built from the rows, so that no game code touches a model."""

from __future__ import annotations

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


def players_have_screens(table: Table) -> bool:
    """Whether each player plays on a screen of their own: not in a game moderated at a table,
    where the host's screen plays for everyone (the family's `players_have_screens`)."""
    return family_named(table.family).players_have_screens(table_info(table))
