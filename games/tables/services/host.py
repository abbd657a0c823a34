"""What the host (or staff) does to a table: handing the host role on (or passing it when the
host has gone), locking the lobby, the game's options, the start (with the deal's chance,
`new_rng`, which the tests replace here), stopping the game, and staff's look at a running
game's hidden state.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.tables.family import FamilyError, Fields, new_rng
from games.tables.models import Seat, Stage, Table
from games.tables.reads import table_info
from games.tables.services.common import (
    NotAllowedError,
    ServiceError,
    WrongStageError,
    apply_change,
    as_cancelled,
    bump,
    current_time,
    decide,
    expect_stage,
    family_of,
    host_of,
    locked_table,
    move_host,
    refused,
    seat_at,
)


@transaction.atomic
def host_hand_over(*, host: Seat, seat_id: int) -> None:
    """The host makes another player the host (they may be leaving, or want to play)."""
    table = host_of(host)
    if table.ended:
        raise WrongStageError(_("This game is over."))
    new = table.seats.filter(pk=seat_id).first()
    if new is None or new.pk == host.pk:
        raise ServiceError(_("Choose another player at this table."))
    if new.last_seen is None:
        # A seat played without a device (a game moderated at a table) could not host.
        raise ServiceError(
            _("%(player)s has no screen open at this table: choose a player who has.")
            % {"player": new.name}
        )
    move_host(table, host, new, lambda: _("%(player)s is the host now.") % {"player": new.name})


# A host whose page has been closed this long, while another player's is open, hands the role
# on to the player who notices (games/tables/views.py: a player's page load).
HOST_GONE = timedelta(minutes=5)


def host_seems_gone(
    table: Table, now: datetime | None = None, seats: Iterable[Seat] | None = None
) -> bool:
    """A read without a lock, for every page load: whether `host_pass_if_gone` is worth its
    locked transaction. `seats`: the table's seats if already read (the page's own read)."""
    if table.ended:
        return False
    since = current_time(now) - HOST_GONE
    if seats is not None:
        return any(s.is_host and s.last_seen is not None and s.last_seen < since for s in seats)
    return Seat.objects.filter(table=table, is_host=True, last_seen__lt=since).exists()


@transaction.atomic
def host_pass_if_gone(*, seat: Seat, now: datetime | None = None) -> bool:
    """If the table's host has gone (their page closed for HOST_GONE; a host whose page never
    held a socket is never judged gone), `seat`, whose page is open, becomes the host. Returns
    True if it did. Safe under races: the row is locked and the host read again."""
    when = current_time(now)
    table = locked_table(seat.table_id)
    if table.ended:
        return False
    host = table.seats.filter(is_host=True).first()
    me = table.seats.filter(pk=seat.pk).first()
    if host is None or me is None or host.pk == me.pk:
        return False
    if host.last_seen is None or when - host.last_seen < HOST_GONE:
        return False
    move_host(
        table,
        host,
        me,
        lambda: (
            _("%(player)s has left the table; %(heir)s is the host now.")
            % {"player": host.name, "heir": me.name}
        ),
    )
    return True


@transaction.atomic
def table_lock_set(*, host: Seat, locked: bool) -> None:
    """The host locks the lobby against new players (or unlocks it); the seated keep their
    seats and rejoin links."""
    table = host_of(host)
    expect_stage(table, Stage.LOBBY)
    bump(table, joins_locked=bool(locked))


@transaction.atomic
def options_set(*, host: Seat, fields: Fields) -> None:
    """The host changes the game's options in the lobby (the family checks them)."""
    table = host_of(host)
    expect_stage(table, Stage.LOBBY)
    try:
        options = family_of(table).set_options(table_info(table), fields)
    except FamilyError as error:
        raise refused(error) from None
    bump(table, options=options)


@transaction.atomic
def table_start(*, host: Seat, fields: Fields | None = None, now: datetime | None = None) -> Table:
    """Deal (the family's deal, with the operating system's secure chance) and begin.

    `fields` are the lobby's option forms as the host's page shows them: changes the host made
    and did not save are saved with the start, in the same transaction (a refused option
    refuses the start and changes nothing)."""
    table = host_of(host)
    expect_stage(table, Stage.LOBBY)
    game = family_of(table)
    if fields:
        try:
            table.options = game.set_options(table_info(table), fields)
        except FamilyError as error:
            raise refused(error) from None
        table.save(update_fields=["options"])
    info = table_info(table)
    problem = game.start_problem(info)
    if problem:
        raise ServiceError(problem)
    when = current_time(now)
    rng = new_rng()
    change = decide(lambda: game.start(info, rng, when))
    table.started_at = when
    table.save(update_fields=["started_at"])
    apply_change(table, change, seat=host, kind="start", fields={})
    return table


@transaction.atomic
def table_cancel(*, table: Table, by: Seat | None = None) -> None:
    """Stop a game that has not ended: the host (in the lobby or during play, say when a
    player has left for good) or staff in the admin. Nobody's secrets are revealed."""
    table = locked_table(table.pk)
    if by is not None and not seat_at(table, by.pk).is_host:
        raise NotAllowedError(_("Only the host can do that."))
    if table.ended:
        raise WrongStageError(_("This game is already over."))
    info, when = table_info(table), timezone.now()
    change = as_cancelled(decide(lambda: family_of(table).cancel(info, when)))
    apply_change(table, change, seat=by, kind="cancel", fields={}, stage=Stage.CANCELLED)


@transaction.atomic
def secrets_open(*, table: Table, user: object) -> None:
    """Record that a staff user opened a running game's hidden state in the admin."""
    Table.objects.filter(pk=table.pk).update(
        secrets_opened_at=timezone.now(), secrets_opened_by=user
    )
