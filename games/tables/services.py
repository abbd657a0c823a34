"""Every change to a table: one function, one transaction, the state it expects checked first.

Each service locks the table row (PostgreSQL: SELECT ... FOR UPDATE; SQLite: the IMMEDIATE
transaction already holds the write lock) and re-reads what it checks, so when two requests
race, one wins and the other gets a clear `ServiceError`. A change bumps the table's version;
pages are told after commit (push.py). The game's rules are its family's: these functions store
what the family decides.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.tables import language, push
from games.tables.family import (
    Change,
    Family,
    FamilyError,
    Fields,
    TableInfo,
    family_named,
    new_rng,
)
from games.tables.models import ChatLine, Move, Seat, SeatTaken, Stage, Table
from games.tables.names import RefusedName, clashing_name, clean_name
from games.tables.reads import players_have_screens, seat_info, table_info

TABLE_LOCKED = gettext_lazy(
    "The host has locked this table: no new players can join. Ask the host to unlock it if you"
    " should be playing."
)
CHAT_MAX_LENGTH = 500
# Per seat: at most CHAT_BURST lines in any CHAT_WINDOW seconds, counted from the stored lines,
# so the limit holds across reconnects and server processes.
CHAT_BURST = 5
CHAT_WINDOW = 10


class ServiceError(Exception):
    """A request the table cannot accept now; the message is shown to the player as it is."""

    status = 400


class NotAllowedError(ServiceError):
    """The seat may not do this (not the host, not at this table)."""

    status = 403


class WrongStageError(ServiceError):
    """The table is not where this request needs it (another request may have won)."""

    status = 409


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


def _refused(error: FamilyError) -> ServiceError:
    kind = {403: NotAllowedError, 409: WrongStageError}.get(error.status, ServiceError)
    return kind(str(error))


def _locked(table_id: int) -> Table:
    """The table row, locked for the rest of the transaction where the database can."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotAllowedError(_("This table is gone.")) from None


@dataclass(slots=True)
class _Locked:
    """A table locked for this transaction, its seats as stored now (read after the lock, so
    a removal that committed meanwhile is seen), and the asking seat among them."""

    table: Table
    seats: list[Seat]
    seat: Seat | None = None

    @property
    def info(self) -> TableInfo:
        return table_info(self.table, self.seats)


def _at_table(table_id: int, seat_id: int | None = None) -> _Locked:
    """Lock the table and read its seats once; NotAllowedError if `seat_id` is not one."""
    table = _locked(table_id)
    seats = list(table.seats.order_by("position"))
    for seat in seats:
        seat.table = table
    if seat_id is None:
        return _Locked(table, seats)
    current = next((s for s in seats if s.pk == seat_id), None)
    if current is None:
        raise NotAllowedError(_("You are not seated at this table."))
    return _Locked(table, seats, current)


def _seat_at(table: Table, seat_id: int) -> Seat:
    """The seat as stored now, read after the table's lock was taken; NotAllowedError if it
    is no longer at the table."""
    seat = Seat.objects.filter(pk=seat_id, table=table).first()
    if seat is None:
        raise NotAllowedError(_("You are not seated at this table."))
    seat.table = table
    return seat


def _expect(table: Table, *stages: str) -> None:
    if table.stage not in stages:
        messages = {
            Stage.LOBBY: _("The game has not started yet."),
            Stage.PLAYING: _("The game has started: that can't be done now."),
            Stage.OVER: _("This game is over."),
            Stage.CANCELLED: _("This game was cancelled."),
        }
        raise WrongStageError(messages.get(table.stage, _("That can't be done now.")))


def _family(table: Table) -> Family:
    return family_named(table.family)


def _decide(decision: Callable[[], Change]) -> Change:
    """The family's `decision` (a deal, a move, a deadline, a cancel); its refusal as ours.
    The family writes what it stores for every reader (notes, its phase's label) in the site's
    language itself (games/tables/language.py), and its refusals in the reader's."""
    try:
        return decision()
    except FamilyError as error:
        raise _refused(error) from None


def _cancelled(change: Change) -> Change:
    """`change` as a cancelled game's, its label in the site's language (it is stored)."""
    with language.shared():
        # Translators: the phase a game is in once its host or staff stopped it.
        label = _("Cancelled")
    return replace(change, phase="cancelled", phase_label=label, finished=True)


def _lobby_label() -> str:
    """A new table's phase label, stored: in the site's language."""
    with language.shared():
        # Translators: the phase a table is in before its game starts.
        return _("Lobby")


def _bump(
    table: Table,
    only: frozenset[int] | None = None,
    seats: list[Seat] | None = None,
    **fields: object,
) -> None:
    """Store `fields` and the next version of the table, and tell its pages after commit:
    every page redraws its seat's view, or, with `only`, just those seats' pages do and the
    others get the public status (built from `seats`, the table's seats as read)."""
    table.version += 1
    for name, value in fields.items():
        setattr(table, name, value)
    table.save(update_fields=["version", *fields])
    push.table_changed_on_commit(table, only, seats)


def _note(table: Table, text: str, channel: str = "public") -> None:
    line = ChatLine.objects.create(table=table, channel=channel, note=True, text=text)
    push.chat_line_on_commit(table, line)


def _apply(
    table: Table,
    change: Change,
    *,
    seat: Seat | None,
    kind: str,
    fields: Fields,
    stage: str | None = None,
    seats: list[Seat] | None = None,
) -> None:
    """Store what the family decided: its state, the phase and clock, the dead, the move, the
    notes; then the version. The stage follows: playing once dealt, over once finished."""
    if stage is None:
        stage = Stage.OVER if change.finished else Stage.PLAYING
    same_step = (change.phase_label, change.round) == (table.phase_label, table.round)
    quiet = not (change.dead or change.notes or change.finished) and stage == table.stage
    if change.unseen and quiet and same_step:
        # Seen by its sender alone: no new version, no push (a version that moved with no
        # count would tell the table that someone made a move nobody else makes).
        table.state = change.state
        table.save(update_fields=["state"])
        _record(table, seat, kind, fields)
        return
    if change.dead:
        Seat.objects.filter(table=table, pk__in=change.dead).update(alive=False)
    for note in change.notes:
        _note(table, note.text, note.channel)
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
    only = None
    same_stage = stage == table.stage and same_step
    if change.redraw is not None and same_stage:
        only = change.redraw | ({seat.pk} if seat is not None else frozenset())
    _bump(table, only, seats, **updates)
    _record(table, seat, kind, fields)


def _record(table: Table, seat: Seat | None, kind: str, fields: Fields) -> None:
    """The move, as sent, with the table's version after it."""
    Move.objects.create(
        table=table,
        seat=seat,
        kind=kind,
        fields={k: list(v) for k, v in fields.items() if not k.startswith("csrf")},
        version=table.version,
    )


# --- Opening a table and sitting down -----------------------------------------------------------


def _name(family: Family, name: object) -> str:
    try:
        return clean_name(name, getattr(family, "reserved_names", ()))
    except RefusedName as error:
        raise ServiceError(str(error)) from None


@transaction.atomic
def table_create(
    *,
    family: str,
    ruleset: str,
    host_name: str,
    creator_key: str = "",
    options: Mapping[str, object] | None = None,
    now: datetime | None = None,
) -> Seat:
    """Open a lobby for a game of `family` under `ruleset` and seat its host. Returns the
    host's seat. One client (`creator_key`, a keyed hash of its address) may open at most
    settings.GAMES_PER_MINUTE tables in any minute. `options` are laid over the family's
    defaults (the page that opens the table chose them, e.g. table mode)."""
    try:
        game = family_named(family)
    except KeyError:
        raise ServiceError(_("Choose one of the games on the page.")) from None
    if ruleset not in game.rulesets:
        raise ServiceError(_("Choose one of the rules on the page."))
    name = _name(game, host_name)
    if creator_key:
        since = _now(now) - timedelta(minutes=1)
        recent = Table.objects.filter(creator_key=creator_key, created_at__gt=since).count()
        if recent >= settings.GAMES_PER_MINUTE:
            raise ServiceError(
                ngettext(
                    "You have created %(count)d game in the last minute. Wait a moment.",
                    "You have created %(count)d games in the last minute. Wait a moment.",
                    recent,
                )
                % {"count": recent}
            )
    table = Table.objects.create(
        family=family,
        ruleset=ruleset,
        options={**game.default_options(ruleset), **(options or {})},
        creator_key=creator_key,
        phase_label=_lobby_label(),
    )
    return Seat.objects.create(table=table, name=name, position=0, is_host=True)


def _check_join_caps(table: Table, joiner_key: str, when: datetime) -> None:
    """Refuse a seat past the caps on joining, counted over the last minute from `SeatTaken`,
    so seats since removed count too (docs/security.md, "Abuse", says what each protects and
    how it was sized):

    - settings.JOIN_TABLES_PER_MINUTE: the tables one client address takes seats at. One
      address does not sit down at every lobby it knows of; a party behind one router sits at
      one table (or two).
    - settings.JOINS_PER_MINUTE: the seats one client address takes, at any tables. A whole
      party of the largest size the rules are written for, behind one router, joins at once.
    - settings.TABLE_JOINS_PER_MINUTE: the seats taken at one table, from any addresses. The
      host's one-click removals are not undone faster than that by a stranger.
    """
    since = when - timedelta(minutes=1)
    SeatTaken.objects.filter(taken_at__lte=since).delete()
    if joiner_key:
        mine = list(
            SeatTaken.objects.filter(client_key=joiner_key, taken_at__gt=since).values_list(
                "table_id", flat=True
            )
        )
        tables = set(mine)
        if table.pk not in tables and len(tables) >= settings.JOIN_TABLES_PER_MINUTE:
            raise ServiceError(
                ngettext(
                    "From your address, seats were taken at %(count)d table in the last"
                    " minute. Wait a moment and try again.",
                    "From your address, seats were taken at %(count)d tables in the last"
                    " minute. Wait a moment and try again.",
                    len(tables),
                )
                % {"count": len(tables)}
            )
        if len(mine) >= settings.JOINS_PER_MINUTE:
            raise ServiceError(
                ngettext(
                    "%(count)d seat was taken from your address in the last minute. Wait a"
                    " moment and try again.",
                    "%(count)d seats were taken from your address in the last minute. Wait a"
                    " moment and try again.",
                    len(mine),
                )
                % {"count": len(mine)}
            )
    here = SeatTaken.objects.filter(table=table, taken_at__gt=since).count()
    if here >= settings.TABLE_JOINS_PER_MINUTE:
        raise ServiceError(
            ngettext(
                "%(count)d seat was taken at this table in the last minute. Wait a moment and"
                " try again.",
                "%(count)d seats were taken at this table in the last minute. Wait a moment and"
                " try again.",
                here,
            )
            % {"count": here}
        )


def phrase_matches(typed: str, phrase: str) -> bool:
    """Case, spacing and punctuation do not matter when typing a phrase."""

    def simplify(value: str) -> str:
        return re.sub(r"[^a-z0-9]", "", value.lower())

    return simplify(typed or "") == simplify(phrase)


@transaction.atomic
def seat_join(
    *,
    table: Table,
    name: str,
    phrase: str = "",
    joiner_key: str = "",
    now: datetime | None = None,
) -> Seat:
    """Seat a new player in the lobby, unless the host has locked it, the table is full, the
    name passes for another, or the game asks for a phrase (rules/000 s5e) not typed."""
    table = _locked(table.pk)
    _expect(table, Stage.LOBBY)
    if table.joins_locked:
        raise NotAllowedError(str(TABLE_LOCKED))
    game = _family(table)
    clean = _name(game, name)
    info = table_info(table)
    wanted = game.join_phrase(info)
    if wanted and not phrase_matches(phrase, wanted):
        raise ServiceError(
            _(
                "Type the phrase the rules ask for, to show you read them (it is in their section"
                " on playing fair)."
            )
        )
    seats = list(table.seats.all())
    limit = game.seat_limits(table.ruleset)[1]
    if len(seats) >= limit:
        raise ServiceError(_table_full(limit))
    if clashing_name(clean, (s.name for s in seats)) is not None:
        raise ServiceError(_name_taken(clean))
    when = _now(now)
    _check_join_caps(table, joiner_key, when)
    position = max((s.position for s in seats), default=-1) + 1
    try:
        with transaction.atomic():
            seat = Seat.objects.create(table=table, name=clean, position=position)
    except IntegrityError:
        raise ServiceError(
            _("Someone called %(name)s just sat down; pick another name.") % {"name": clean}
        ) from None
    SeatTaken.objects.create(table=table, client_key=joiner_key, taken_at=when)
    _bump(table)
    return seat


@transaction.atomic
def seat_add(*, host: Seat, name: str) -> Seat:
    """The host seats a player who plays without a device of their own (a game moderated at a
    table): in the lobby, under the same name rules as anyone joining."""
    table = _host_of(host)
    _expect(table, Stage.LOBBY)
    game = _family(table)
    clean = _name(game, name)
    seats = list(table.seats.all())
    limit = game.seat_limits(table.ruleset)[1]
    if len(seats) > limit:  # the host's seat is the moderator's, not a player's
        raise ServiceError(_table_full(limit))
    if clashing_name(clean, (s.name for s in seats)) is not None:
        raise ServiceError(_name_taken(clean))
    position = max((s.position for s in seats), default=-1) + 1
    seat = Seat.objects.create(table=table, name=clean, position=position)
    _bump(table)
    return seat


def _table_full(limit: int) -> str:
    return ngettext(
        "The table is full: these rules allow %(count)d player.",
        "The table is full: these rules allow %(count)d players.",
        limit,
    ) % {"count": limit}


def _name_taken(name: str) -> str:
    return _("Someone called %(name)s is already at the table; pick another name.") % {"name": name}


def _host_of(seat: Seat) -> Table:
    table = _locked(seat.table_id)
    current = _seat_at(table, seat.pk)
    if not current.is_host:
        raise NotAllowedError(_("Only the host can do that."))
    return table


@transaction.atomic
def seat_remove(*, host: Seat, seat_id: int) -> None:
    """The host takes a player out of the lobby (not themselves)."""
    table = _host_of(host)
    _expect(table, Stage.LOBBY)
    seat = table.seats.filter(pk=seat_id).first()
    if seat is None:
        raise ServiceError(_("That player is not at this table."))
    if seat.pk == host.pk:
        raise ServiceError(_("The host cannot remove themselves."))
    seat.delete()
    _bump(table)


def _make_host(table: Table, old: Seat | None, new: Seat, note: Callable[[], str]) -> None:
    """Move the host role from `old` (None: gone already) to `new`, and tell the table (`note`
    makes the line, in the site's language)."""
    if old is not None:
        Seat.objects.filter(pk=old.pk).update(is_host=False)
    Seat.objects.filter(pk=new.pk).update(is_host=True)
    with language.shared():
        _note(table, note())
    _bump(table)


@transaction.atomic
def host_hand_over(*, host: Seat, seat_id: int) -> None:
    """The host makes another player the host (they may be leaving, or want to play)."""
    table = _host_of(host)
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
    _make_host(table, host, new, lambda: _("%(player)s is the host now.") % {"player": new.name})


@transaction.atomic
def seat_leave(*, seat: Seat) -> None:
    """A player leaves the lobby. A host who leaves passes the role to the next player in seat
    order; the last player to leave closes the table."""
    table = _locked(seat.table_id)
    current = _seat_at(table, seat.pk)
    _expect(table, Stage.LOBBY)
    others = list(table.seats.exclude(pk=current.pk).order_by("position"))
    current.delete()
    if not others:
        info, when = table_info(table), timezone.now()
        change = _cancelled(_decide(lambda: _family(table).cancel(info, when)))
        _apply(table, change, seat=None, kind="cancel", fields={}, stage=Stage.CANCELLED)
        return
    if current.is_host:
        heir = others[0]
        _make_host(
            table,
            None,
            heir,
            lambda: (
                _("%(player)s left; %(heir)s is the host now.")
                % {"player": current.name, "heir": heir.name}
            ),
        )
    else:
        _bump(table)


# A host whose page has been closed this long, while another player's is open, hands the role
# on to the player who notices (games/tables/views.py: a player's page load).
HOST_GONE = timedelta(minutes=5)


def host_seems_gone(table: Table, now: datetime | None = None) -> bool:
    """A read without a lock, for every page load: whether `host_pass_if_gone` is worth its
    locked transaction."""
    if table.ended:
        return False
    since = _now(now) - HOST_GONE
    return Seat.objects.filter(table=table, is_host=True, last_seen__lt=since).exists()


@transaction.atomic
def host_pass_if_gone(*, seat: Seat, now: datetime | None = None) -> bool:
    """If the table's host has gone (their page closed for HOST_GONE; a host whose page never
    held a socket is never judged gone), `seat`, whose page is open, becomes the host. Returns
    True if it did. Safe under races: the row is locked and the host read again."""
    when = _now(now)
    table = _locked(seat.table_id)
    if table.ended:
        return False
    host = table.seats.filter(is_host=True).first()
    me = table.seats.filter(pk=seat.pk).first()
    if host is None or me is None or host.pk == me.pk:
        return False
    if host.last_seen is None or when - host.last_seen < HOST_GONE:
        return False
    _make_host(
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
def seat_code_show(*, host: Seat, seat_id: int) -> Seat:
    """The host shows another player's seat code (games/tables/seat_codes.py), for a player
    whose browser lost their seat to take it back on another screen. The table's chat says so
    each time, so a host who took a player's seat could not do it unseen. Returns the seat."""
    table = _host_of(host)
    if table.ended:
        raise WrongStageError(_("This game is over."))
    if not players_have_screens(table):
        raise ServiceError(
            _(
                "At this table the moderator's screen plays for everyone: there is no seat to"
                " give back."
            )
        )
    seat = table.seats.filter(pk=seat_id).first()
    if seat is None or seat.pk == host.pk:
        raise ServiceError(_("Choose another player at this table."))
    seat.table = table
    with language.shared():
        _note(
            table,
            _(
                "The host is showing %(player)s's seat code, for %(player)s to take their seat"
                " back on another screen."
            )
            % {"player": seat.name},
        )
    return seat


@transaction.atomic
def seat_taken_back(*, seat: Seat) -> None:
    """A browser took `seat` by its seat code: the table's chat says so, so that the player
    would notice if it was not them."""
    table = _locked(seat.table_id)
    current = _seat_at(table, seat.pk)
    with language.shared():
        _note(
            table,
            _("%(player)s's seat was opened on another screen with its seat code.")
            % {"player": current.name},
        )


@transaction.atomic
def table_lock_set(*, host: Seat, locked: bool) -> None:
    """The host locks the lobby against new players (or unlocks it); the seated keep their
    seats and rejoin links."""
    table = _host_of(host)
    _expect(table, Stage.LOBBY)
    _bump(table, joins_locked=bool(locked))


@transaction.atomic
def options_set(*, host: Seat, fields: Fields) -> None:
    """The host changes the game's options in the lobby (the family checks them)."""
    table = _host_of(host)
    _expect(table, Stage.LOBBY)
    try:
        options = _family(table).set_options(table_info(table), fields)
    except FamilyError as error:
        raise _refused(error) from None
    _bump(table, options=options)


@transaction.atomic
def table_start(*, host: Seat, fields: Fields | None = None, now: datetime | None = None) -> Table:
    """Deal (the family's deal, with the operating system's secure chance) and begin.

    `fields` are the lobby's option forms as the host's page shows them: changes the host made
    and did not save are saved with the start, in the same transaction (a refused option
    refuses the start and changes nothing)."""
    table = _host_of(host)
    _expect(table, Stage.LOBBY)
    game = _family(table)
    if fields:
        try:
            table.options = game.set_options(table_info(table), fields)
        except FamilyError as error:
            raise _refused(error) from None
        table.save(update_fields=["options"])
    info = table_info(table)
    problem = game.start_problem(info)
    if problem:
        raise ServiceError(problem)
    when = _now(now)
    rng = new_rng()
    change = _decide(lambda: game.start(info, rng, when))
    table.started_at = when
    table.save(update_fields=["started_at"])
    _apply(table, change, seat=host, kind="start", fields={})
    return table


# --- The host's clock ---------------------------------------------------------------------------

MAX_EXTENSION_MINUTES = 14 * 24 * 60


@transaction.atomic
def clock_set(*, host: Seat, action: str, minutes: int = 0, now: datetime | None = None) -> None:
    """The host pauses the clock (the time left is kept), resumes it, or gives the current
    step `minutes` more; the table is told in the chat."""
    table = _host_of(host)
    _expect(table, Stage.PLAYING)
    when = _now(now)
    if action == "pause":
        if table.deadline is None:
            raise ServiceError(_("The clock is not running."))
        left = max(0, int((table.deadline - when).total_seconds()))
        with language.shared():
            _note(table, _("The host paused the clock."))
        _bump(table, deadline=None, paused_seconds=left)
    elif action == "resume":
        if table.paused_seconds is None:
            raise ServiceError(_("The clock is not paused."))
        with language.shared():
            _note(table, _("The host started the clock again."))
        deadline = when + timedelta(seconds=table.paused_seconds)
        _bump(table, deadline=deadline, paused_seconds=None)
    elif action == "extend":
        if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
            raise ServiceError(
                _("Give 1 to %(most)d more minutes.") % {"most": MAX_EXTENSION_MINUTES}
            )
        if table.paused_seconds is not None:
            _bump(table, paused_seconds=table.paused_seconds + 60 * minutes)
        elif table.deadline is not None:
            _bump(table, deadline=max(table.deadline, when) + timedelta(minutes=minutes))
        else:
            raise ServiceError(_("This step has no time limit to extend."))
        with language.shared():
            text = ngettext(
                "The host gave this step %(count)d more minute.",
                "The host gave this step %(count)d more minutes.",
                minutes,
            ) % {"count": minutes}
            _note(table, text)
    else:
        raise ServiceError(_("Pause, resume or extend the clock."))


# --- Play ---------------------------------------------------------------------------------------


@transaction.atomic
def seat_move(*, seat: Seat, kind: str, fields: Fields, now: datetime | None = None) -> Table:
    """A seat's move of `kind` with its form's `fields`, as the family rules on it. Returns
    the table as stored after it."""
    held = _at_table(seat.table_id, seat.pk)
    table = held.table
    game = _family(table)
    takes_back = getattr(game, "takes_back_end", None)
    if not (table.stage == Stage.OVER and takes_back is not None and takes_back(held.info, kind)):
        _expect(table, Stage.PLAYING)
    assert held.seat is not None
    info, me, when = held.info, seat_info(held.seat), _now(now)
    change = _decide(lambda: game.move(info, me, kind, fields, when))
    _apply(table, change, seat=held.seat, kind=kind, fields=fields, seats=held.seats)
    return table


@transaction.atomic
def table_advance_if_due(*, table_id: int, now: datetime | None = None) -> bool:
    """If the table's deadline has passed, move it on exactly once. Returns True if it moved.

    Safe from any request, consumer or ticker, in any number of processes: the row is locked
    and the deadline re-read inside the transaction."""
    when = _now(now)
    table = _locked(table_id)
    if table.stage != Stage.PLAYING or table.deadline is None or table.deadline > when:
        return False
    info = table_info(table)
    change = _decide(lambda: _family(table).on_deadline(info, when))
    _apply(table, change, seat=None, kind="deadline", fields={})
    return True


@transaction.atomic
def table_move_on(*, table: Table, now: datetime | None = None) -> None:
    """Staff move a game on at once, as if its deadline had passed (the family's defaults for
    whoever has not acted)."""
    table = _locked(table.pk)
    _expect(table, Stage.PLAYING)
    when = _now(now)
    info = table_info(table)
    change = _decide(lambda: _family(table).on_deadline(info, when))
    _apply(table, change, seat=None, kind="move_on", fields={})


def table_caught_up(table: Table) -> Table:
    """`table`, moved on first and read again if its deadline has passed: a page load or a
    push notices a passed deadline as well as the ticker does."""
    if table.deadline is not None and table.deadline <= timezone.now():
        table_advance_if_due(table_id=table.pk)
        table.refresh_from_db()
    return table


def advance_due_tables(*, now: datetime | None = None) -> list[str]:
    """Move on every table whose deadline has passed; their codes. Used by the clock."""
    when = _now(now)
    due = Table.objects.filter(deadline__lte=when, stage=Stage.PLAYING).values_list("pk", "code")
    return [code for table_id, code in due if table_advance_if_due(table_id=table_id, now=when)]


@transaction.atomic
def table_cancel(*, table: Table, by: Seat | None = None) -> None:
    """Stop a game that has not ended: the host (in the lobby or during play, say when a
    player has left for good) or staff in the admin. Nobody's secrets are revealed."""
    table = _locked(table.pk)
    if by is not None and not _seat_at(table, by.pk).is_host:
        raise NotAllowedError(_("Only the host can do that."))
    if table.ended:
        raise WrongStageError(_("This game is already over."))
    info, when = table_info(table), timezone.now()
    change = _cancelled(_decide(lambda: _family(table).cancel(info, when)))
    _apply(table, change, seat=by, kind="cancel", fields={}, stage=Stage.CANCELLED)


@transaction.atomic
def secrets_open(*, table: Table, user: object) -> None:
    """Record that a staff user opened a running game's hidden state in the admin."""
    Table.objects.filter(pk=table.pk).update(
        secrets_opened_at=timezone.now(), secrets_opened_by=user
    )


@transaction.atomic
def play_again(*, seat: Seat) -> Seat:
    """After the end, seat the same players in a new lobby with the same game and options.
    Whoever asks first opens it; everyone follows to the same new table. Returns the asking
    player's seat there."""
    table = _locked(seat.table_id)
    _seat_at(table, seat.pk)
    _expect(table, Stage.OVER)
    follow = Table.objects.filter(previous=table).first()
    if follow is None:
        seats = list(table.seats.order_by("position"))
        host = next((s for s in seats if s.is_host), seats[0])
        options = dict(table.options)
        if "rules_phrase" in options:
            options["rules_phrase"] = False  # they read the rules for the last game
        follow = Table.objects.create(
            family=table.family,
            ruleset=table.ruleset,
            options=options,
            previous=table,
            phase_label=_lobby_label(),
        )
        Seat.objects.bulk_create(
            Seat(table=follow, name=s.name, position=i, is_host=s.pk == host.pk, previous_seat=s)
            for i, s in enumerate(seats)
        )
        _bump(table)  # every page of the old table learns where the new one is
    mine = Seat.objects.filter(table=follow, previous_seat_id=seat.pk).first()
    if mine is None:
        raise NotAllowedError(
            _("The host took you off the new table. Ask them for the invite link to join again.")
        )
    return mine


# --- Chat ---------------------------------------------------------------------------------------


def clean_chat_text(text: object) -> str:
    """The line as it will be stored: control and invisible format characters dropped (they
    only serve to disguise a line), trimmed; newlines and tabs stay."""
    if not isinstance(text, str):
        raise ServiceError(_("A chat message must be text."))
    text = "".join(
        c
        for c in unicodedata.normalize("NFC", text)
        if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co")
    ).strip()
    if not text:
        raise ServiceError(_("Type a message first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(
            _("Messages are limited to %(most)d characters.") % {"most": CHAT_MAX_LENGTH}
        )
    return text


@transaction.atomic
def chat_post(
    *,
    seat: Seat,
    text: object,
    channel: str = "public",
    via: str = "",
    now: datetime | None = None,
) -> ChatLine:
    """Store a chat line and deliver it after commit to every page that may read its channel.

    Refused (nothing stored) when the game closes the channel to this seat now, when the seat
    sends too fast, and when the game's rules refuse the line (rules/000 s5c: no quoting).
    `via` names the chat service the line was written on, if not a page (games/chatbot)."""
    clean = clean_chat_text(text)
    held = _at_table(seat.table_id, seat.pk)
    table, current = held.table, held.seat
    assert current is not None
    game = _family(table)
    info = held.info
    me = seat_info(current)
    access = next((c for c in game.channels(info, me) if c.name == channel), None)
    if access is None or not access.write:
        raise WrongStageError(
            access.closed if access and access.closed else _("You cannot write there now.")
        )
    when = _now(now)
    recent = ChatLine.objects.filter(
        seat=current, sent_at__gt=when - timedelta(seconds=CHAT_WINDOW)
    ).count()
    if recent >= CHAT_BURST:
        raise ServiceError(
            _("Slow down: at most %(lines)d messages every %(seconds)d seconds.")
            % {"lines": CHAT_BURST, "seconds": CHAT_WINDOW}
        )

    problem = game.chat_problem(info, me, channel, clean)
    if problem:
        raise ServiceError(problem)
    line = ChatLine.objects.create(
        table=table, channel=channel, seat=current, author=current.name, text=clean, via=via
    )
    push.chat_line_on_commit(table, line)
    return line
