"""What every table service shares: the refusals, the lock, the checks, and storing what the
family decided (the state, the version, the notes, the move).

Each service locks the table row (PostgreSQL: SELECT ... FOR UPDATE; SQLite: the IMMEDIATE
transaction already holds the write lock) and re-reads what it checks, so when two requests
race, one wins and the other gets a clear `ServiceError`. A change bumps the table's version;
pages are told after commit (push.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from games.tables import language, push
from games.tables.family import Change, Family, FamilyError, Fields, TableInfo, family_named
from games.tables.models import ChatLine, Move, Seat, Stage, Table
from games.tables.reads import table_info


class ServiceError(Exception):
    """A request the table cannot accept now; the message is shown to the player as it is."""

    status = 400


class NotAllowedError(ServiceError):
    """The seat may not do this (not the host, not at this table)."""

    status = 403


class WrongStageError(ServiceError):
    """The table is not where this request needs it (another request may have won)."""

    status = 409


def current_time(now: datetime | None) -> datetime:
    """`now` if a caller (a test, the ticker) gives one, else the clock's."""
    return now if now is not None else timezone.now()


def refused(error: FamilyError) -> ServiceError:
    """The family's refusal as the services' own, with the same status."""
    kind = {403: NotAllowedError, 409: WrongStageError}.get(error.status, ServiceError)
    return kind(str(error))


def locked_table(table_id: int) -> Table:
    """The table row, locked for the rest of the transaction where the database can."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotAllowedError(_("This table is gone.")) from None


@dataclass(slots=True)
class Locked:
    """A table locked for this transaction, its seats as stored now (read after the lock, so
    a removal that committed meanwhile is seen), and the asking seat among them."""

    table: Table
    seats: list[Seat]
    seat: Seat | None = None

    @property
    def info(self) -> TableInfo:
        return table_info(self.table, self.seats)


def at_table(table_id: int, seat_id: int | None = None) -> Locked:
    """Lock the table and read its seats once; NotAllowedError if `seat_id` is not one."""
    table = locked_table(table_id)
    seats = list(table.seats.order_by("position"))
    for seat in seats:
        seat.table = table
    if seat_id is None:
        return Locked(table, seats)
    current = next((s for s in seats if s.pk == seat_id), None)
    if current is None:
        raise NotAllowedError(_("You are not seated at this table."))
    return Locked(table, seats, current)


def seat_at(table: Table, seat_id: int) -> Seat:
    """The seat as stored now, read after the table's lock was taken; NotAllowedError if it
    is no longer at the table."""
    seat = Seat.objects.filter(pk=seat_id, table=table).first()
    if seat is None:
        raise NotAllowedError(_("You are not seated at this table."))
    seat.table = table
    return seat


def expect_stage(table: Table, *stages: str) -> None:
    """WrongStageError, saying where the table is, unless it is in one of `stages`."""
    if table.stage not in stages:
        messages: dict[str, str] = {
            Stage.LOBBY: _("The game has not started yet."),
            Stage.PLAYING: _("The game has started: that can't be done now."),
            Stage.OVER: _("This game is over."),
            Stage.CANCELLED: _("This game was cancelled."),
        }
        raise WrongStageError(messages.get(table.stage, _("That can't be done now.")))


def family_of(table: Table) -> Family:
    """The family that plays `table`."""
    return family_named(table.family)


def decide(decision: Callable[[], Change]) -> Change:
    """The family's `decision` (a deal, a move, a deadline, a cancel); its refusal as ours.
    The family writes what it stores for every reader (notes, its phase's label) in the site's
    language itself (games/tables/language.py), and its refusals in the reader's."""
    try:
        return decision()
    except FamilyError as error:
        raise refused(error) from None


def as_cancelled(change: Change) -> Change:
    """`change` as a cancelled game's, its label in the site's language (it is stored)."""
    with language.shared():
        # Translators: the phase a game is in once its host or staff stopped it.
        label = _("Cancelled")
    return replace(change, phase="cancelled", phase_label=label, finished=True)


def lobby_label() -> str:
    """A new table's phase label, stored: in the site's language."""
    with language.shared():
        # Translators: the phase a table is in before its game starts.
        return _("Lobby")


def bump(
    table: Table,
    only: frozenset[int] | None = None,
    seats: list[Seat] | None = None,
    answered: push.Answered | None = None,
    **fields: object,
) -> None:
    """Store `fields` and the next version of the table, and tell its pages after commit:
    every page redraws its seat's view, or, with `only`, just those seats' pages do and the
    others get the public status (built from `seats`, the table's seats as read); the page
    `answered` is spared a redraw its request's answer already made."""
    table.version += 1
    for name, value in fields.items():
        setattr(table, name, value)
    table.save(update_fields=["version", *fields])
    push.table_changed_on_commit(table, only, seats, answered)


def post_note(table: Table, text: str, channel: str = "public") -> None:
    """A line from the app in `channel`, delivered after commit."""
    line = ChatLine.objects.create(table=table, channel=channel, note=True, text=text)
    push.chat_line_on_commit(table, line)


def apply_change(
    table: Table,
    change: Change,
    *,
    seat: Seat | None,
    kind: str,
    fields: Fields,
    stage: str | None = None,
    seats: list[Seat] | None = None,
    answered: push.Answered | None = None,
) -> None:
    """Store what the family decided: its state, the phase and clock, the dead, the move, the
    notes; then the version. The stage follows: playing once dealt, over once finished.
    `seats` (read under the lock) are kept as stored: whoever drew from them draws this
    version. `answered`: the page whose request this is, answered with its seat's panel
    (push.Answered)."""
    if stage is None:
        stage = Stage.OVER if change.finished else Stage.PLAYING
    same_step = (change.phase_label, change.round) == (table.phase_label, table.round)
    quiet = not (change.dead or change.notes or change.finished) and stage == table.stage
    if change.unseen and quiet and same_step:
        # Seen by its sender alone: no new version, no push (a version that moved with no
        # count would tell the table that someone made a move nobody else makes).
        table.state = change.state
        table.save(update_fields=["state"])
        record_move(table, seat, kind, fields)
        return
    if change.dead:
        # A family may list every death so far (werewolf/steps.py): only the seats still alive
        # in the read made under the table's lock are written, and none when there are none.
        dying = (
            change.dead
            if seats is None
            else [s.pk for s in seats if s.pk in change.dead and s.alive]
        )
        if dying:
            Seat.objects.filter(table=table, pk__in=dying).update(alive=False)
        # The rows read stay as stored: the push's status and the move's answer draw from them.
        for each in seats or ():
            if each.pk in change.dead:
                each.alive = False
    for note in change.notes:
        post_note(table, note.text, note.channel)
    deadline = None if change.finished else change.deadline
    paused = table.paused_seconds
    if paused is not None and same_step and not change.finished:
        deadline = None  # the step goes on, paused by the host: the clock stays stopped
    else:
        paused = None  # a new step: its own clock
    updates: dict[str, object] = {
        "paused_seconds": paused,
        "state": change.state,
        "stage": stage,
        "phase": change.phase,
        "phase_label": change.phase_label,
        "round": change.round,
        "deadline": deadline,
    }
    if change.finished and table.finished_at is None:
        updates["finished_at"] = timezone.now()
    if table.stage == Stage.OVER and not change.finished:
        # The end taken back (table mode's undo): the game goes on, its dead are those it says.
        updates["finished_at"] = None
        Seat.objects.filter(table=table, alive=False).exclude(pk__in=change.dead).update(alive=True)
        for each in seats or ():
            each.alive = each.pk not in change.dead
    only = None
    same_stage = stage == table.stage and same_step
    if change.redraw is not None and same_stage:
        only = change.redraw | ({seat.pk} if seat is not None else frozenset())
    bump(table, only, seats, answered=answered, **updates)
    record_move(table, seat, kind, fields)


def record_move(table: Table, seat: Seat | None, kind: str, fields: Fields) -> None:
    """The move, as sent, with the table's version after it."""
    Move.objects.create(
        table=table,
        seat=seat,
        kind=kind,
        fields={k: list(v) for k, v in fields.items() if not k.startswith("csrf")},
        version=table.version,
    )


def host_of(seat: Seat) -> Table:
    """The table of `seat`, locked; NotAllowedError unless the seat is (still) its host."""
    table = locked_table(seat.table_id)
    current = seat_at(table, seat.pk)
    if not current.is_host:
        raise NotAllowedError(_("Only the host can do that."))
    return table


def move_host(table: Table, old: Seat | None, new: Seat, note: Callable[[], str]) -> None:
    """Move the host role from `old` (None: gone already) to `new`, and tell the table (`note`
    makes the line, in the site's language)."""
    if old is not None:
        Seat.objects.filter(pk=old.pk).update(is_host=False)
    Seat.objects.filter(pk=new.pk).update(is_host=True)
    with language.shared():
        post_note(table, note())
    bump(table)
