"""Play: a seat's move, as its family rules on it, and "play again" once a game is over."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from games.tables.family import Fields
from games.tables.models import Seat, Stage, Table
from games.tables.push import Answered
from games.tables.reads import seat_info, table_info
from games.tables.services.common import (
    NotAllowedError,
    apply_change,
    at_table,
    bump,
    current_time,
    decide,
    expect_stage,
    family_of,
    lobby_label,
    locked_table,
    seat_at,
)


@dataclass(frozen=True, slots=True)
class Moved:
    """A table and its seats as a move stored them (the seats read under the table's lock, kept
    in step with what the move wrote): the move's answer draws its panel from them, at the
    version the move made, without reading the seats again."""

    table: Table
    seats: list[Seat]


def seat_move(*, seat: Seat, kind: str, fields: Fields, now: datetime | None = None) -> Table:
    """A seat's move of `kind` with its form's `fields`, as the family rules on it. Returns
    the table as stored after it."""
    return seat_moved(seat=seat, kind=kind, fields=fields, now=now).table


@transaction.atomic
def seat_moved(
    *,
    seat: Seat,
    kind: str,
    fields: Fields,
    now: datetime | None = None,
    answering: str | None = None,
) -> Moved:
    """`seat_move`, returning the seats as the move left them too. `answering`: the key the
    socket of the page sending the move gave it (push.Answered), when that page is answered
    with its seat's panel."""
    held = at_table(seat.table_id, seat.pk)
    table = held.table
    game = family_of(table)
    if not (table.stage == Stage.OVER and game.takes_back_end(held.info, kind)):
        expect_stage(table, Stage.PLAYING)
    assert held.seat is not None
    info, me, when = held.info, seat_info(held.seat), current_time(now)
    change = decide(lambda: game.move(info, me, kind, fields, when))
    answered = Answered(answering, held.seat) if answering else None
    apply_change(
        table, change, seat=held.seat, kind=kind, fields=fields, seats=held.seats, answered=answered
    )
    return Moved(table, held.seats)


@transaction.atomic
def play_again(*, seat: Seat) -> Seat:
    """After the end, seat the same players in a new lobby with the same game and options (as
    the family carries them over).
    Whoever asks first opens it; everyone follows to the same new table. Returns the asking
    player's seat there."""
    table = locked_table(seat.table_id)
    seat_at(table, seat.pk)
    expect_stage(table, Stage.OVER)
    follow = Table.objects.filter(previous=table).first()
    if follow is None:
        seats = list(table.seats.order_by("position"))
        host = next((s for s in seats if s.is_host), seats[0])
        options = family_of(table).replay_options(table_info(table, seats))
        follow = Table.objects.create(
            family=table.family,
            ruleset=table.ruleset,
            options=options,
            previous=table,
            phase_label=lobby_label(),
        )
        Seat.objects.bulk_create(
            Seat(table=follow, name=s.name, position=i, is_host=s.pk == host.pk, previous_seat=s)
            for i, s in enumerate(seats)
        )
        bump(table)  # every page of the old table learns where the new one is
    mine = Seat.objects.filter(table=follow, previous_seat_id=seat.pk).first()
    if mine is None:
        raise NotAllowedError(
            _("The host took you off the new table. Ask them for the invite link to join again.")
        )
    return mine
