"""Opening a table and sitting down: the host's new lobby, joining (with its caps and the
rules phrase), the host seating a player without a device, removing and leaving, and the seat
codes that give a player their seat back on another screen (games/tables/seat_codes.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.tables import language
from games.tables.family import Family, family_named
from games.tables.models import Seat, SeatTaken, Stage, Table
from games.tables.names import RefusedName, clashing_name, clean_name
from games.tables.reads import players_have_screens, table_info
from games.tables.seat_codes import may_give_back
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
    lobby_label,
    locked_table,
    move_host,
    post_note,
    seat_at,
)

TABLE_LOCKED = gettext_lazy(
    "The host has locked this table: no new players can join. Ask the host to unlock it if you"
    " should be playing."
)


def _name(family: Family, name: object) -> str:
    """The name typed, as it will be stored; refused if the names' rules or the game's own
    reserved names (its `reserved_names`) forbid it."""
    try:
        return clean_name(name, family.reserved_names)
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
        since = current_time(now) - timedelta(minutes=1)
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
        phase_label=lobby_label(),
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
    table = locked_table(table.pk)
    expect_stage(table, Stage.LOBBY)
    if table.joins_locked:
        raise NotAllowedError(str(TABLE_LOCKED))
    game = family_of(table)
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
    when = current_time(now)
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
    bump(table)
    return seat


@transaction.atomic
def seat_add(*, host: Seat, name: str) -> Seat:
    """The host seats a player who plays without a device of their own (a game moderated at a
    table): in the lobby, under the same name rules as anyone joining."""
    table = host_of(host)
    expect_stage(table, Stage.LOBBY)
    game = family_of(table)
    clean = _name(game, name)
    seats = list(table.seats.all())
    limit = game.seat_limits(table.ruleset)[1]
    if len(seats) > limit:  # the host's seat is the moderator's, not a player's
        raise ServiceError(_table_full(limit))
    if clashing_name(clean, (s.name for s in seats)) is not None:
        raise ServiceError(_name_taken(clean))
    position = max((s.position for s in seats), default=-1) + 1
    seat = Seat.objects.create(table=table, name=clean, position=position)
    bump(table)
    return seat


def _table_full(limit: int) -> str:
    return ngettext(
        "The table is full: these rules allow %(count)d player.",
        "The table is full: these rules allow %(count)d players.",
        limit,
    ) % {"count": limit}


def _name_taken(name: str) -> str:
    return _("Someone called %(name)s is already at the table; pick another name.") % {"name": name}


@transaction.atomic
def seat_remove(*, host: Seat, seat_id: int) -> None:
    """The host takes a player out of the lobby (not themselves)."""
    table = host_of(host)
    expect_stage(table, Stage.LOBBY)
    seat = table.seats.filter(pk=seat_id).first()
    if seat is None:
        raise ServiceError(_("That player is not at this table."))
    if seat.pk == host.pk:
        raise ServiceError(_("The host cannot remove themselves."))
    seat.delete()
    bump(table)


@transaction.atomic
def seat_leave(*, seat: Seat) -> None:
    """A player leaves the lobby. A host who leaves passes the role to the next player in seat
    order; the last player to leave closes the table."""
    table = locked_table(seat.table_id)
    current = seat_at(table, seat.pk)
    expect_stage(table, Stage.LOBBY)
    others = list(table.seats.exclude(pk=current.pk).order_by("position"))
    current.delete()
    if not others:
        info, when = table_info(table), timezone.now()
        change = as_cancelled(decide(lambda: family_of(table).cancel(info, when)))
        apply_change(table, change, seat=None, kind="cancel", fields={}, stage=Stage.CANCELLED)
        return
    if current.is_host:
        heir = others[0]
        move_host(
            table,
            None,
            heir,
            lambda: (
                _("%(player)s left; %(heir)s is the host now.")
                % {"player": current.name, "heir": heir.name}
            ),
        )
    else:
        bump(table)


@transaction.atomic
def seat_code_show(*, host: Seat, seat_id: int) -> Seat:
    """The host shows another player's seat code (games/tables/seat_codes.py), for a player
    whose browser lost their seat to take it back on another screen. The table's chat says so
    each time, so a host who took a player's seat could not do it unseen. Returns the seat."""
    table = host_of(host)
    if table.ended:
        raise WrongStageError(_("This game is over."))
    if not players_have_screens(table):
        raise ServiceError(
            _(
                "At this table the moderator's screen plays for everyone: there is no seat to"
                " give back."
            )
        )
    seats = list(table.seats.order_by("position"))
    seat = next((s for s in seats if s.pk == seat_id), None)
    if seat is None or seat.pk == host.pk:
        raise ServiceError(_("Choose another player at this table."))
    seat.table = table
    if not may_give_back(table, seat, seats):
        raise ServiceError(
            _(
                "%(player)s's seat reads what yours may not (such as the dead's graveyard or the"
                " werewolves' channel), so you cannot be shown its code. A host whose seat reads"
                " it can, or it comes back with the player's own rejoin link."
            )
            % {"player": seat.name}
        )
    with language.shared():
        post_note(
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
    table = locked_table(seat.table_id)
    current = seat_at(table, seat.pk)
    with language.shared():
        post_note(
            table,
            _("%(player)s's seat was opened on another screen with its seat code.")
            % {"player": current.name},
        )
