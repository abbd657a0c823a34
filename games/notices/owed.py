"""What a seat is owed, worked out from the stored table (issue 41, items 2 and 3).

A scan, run by the sender loop of any process (loop.py), reads the subscriptions whose table has
a new version, or whose reminder has come due, and compares what the seat should have been told
by now with what it has been (`Subscription.told`). Each new item becomes a `Notice` row in the
same transaction that records it as told, under the subscription's row lock: so a notice is
owed once, whichever process notices first, and a restart finds the same rows. Moves never wait
for it: the table row is only read.

What a notice says is built from what the seat may see: the family's own view of that seat
(`Family.panel`: the phase's name and whether the seat is asked to act), the seat's own life and
the table's public stage. Never the game's state. Subjects say only the game's code and its
public phase; the body the rest (still nothing another seat may not know of this one, since it
goes to this seat alone).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from games.chatbot.models import SeatLink
from games.tables.family import family_named
from games.tables.models import Seat, Stage, Table
from games.tables.reads import seat_info, table_info

from .models import DIED, EMAIL, ENDED, PHASE, PUSH, REMINDER, Notice, PushDevice, Subscription


@dataclass(frozen=True, slots=True)
class Owed:
    """One thing a seat should have been told: its kind, its key (once per seat) and words."""

    kind: str
    key: str
    subject: str
    body: str


def step_of(table: Table) -> str:
    """The table's current step, as a notice remembers it."""
    return f"{table.round}|{table.phase}|{table.phase_label}"[:160]


def zone_of(name: str) -> ZoneInfo:
    """The named time zone, or UTC if the name is not one (a stored choice is checked)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def site_root(subscription: Subscription) -> str:
    """Where links in a seat's notices lead: the site's address, else the one it asked from."""
    return settings.SITE_URL or subscription.site


def when_text(moment: datetime, zone: ZoneInfo) -> str:
    """A time as the reader reads it: their language's format, their zone's name."""
    local = moment.astimezone(zone)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} ({local.tzname()})"


def in_quiet_hours(subscription: Subscription, moment: datetime) -> datetime | None:
    """If `moment` falls in the seat's quiet hours (local), when they end; else None."""
    start, end = subscription.quiet_from, subscription.quiet_to
    if start is None or end is None or start == end:
        return None
    local = moment.astimezone(zone_of(subscription.time_zone))
    hour = local.hour
    quiet = start <= hour < end if start < end else hour >= start or hour < end
    if not quiet:
        return None
    morning = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if morning <= local:
        morning += timedelta(days=1)
    # The wall clock's morning (a day across a change of summer time is 23 or 25 hours).
    morning = morning.replace(tzinfo=None).replace(tzinfo=local.tzinfo)
    return morning.astimezone(UTC)


def due_at(subscription: Subscription, now: datetime, deadline: datetime | None) -> datetime:
    """When a notice owed now goes out: now, or, in the seat's quiet hours, when they end;
    unless the deadline falls before then (a notice after it would come too late)."""
    morning = in_quiet_hours(subscription, now)
    if morning is None or (deadline is not None and deadline <= morning):
        return now
    return morning


def owed_now(
    subscription: Subscription, table: Table, seats: list[Seat], now: datetime
) -> list[Owed]:
    """Everything the seat should have been told by now, in order, in its language and zone."""
    seat = next((s for s in seats if s.pk == subscription.seat_id), None)
    if seat is None or table.stage == Stage.LOBBY:
        return []
    zone = zone_of(subscription.time_zone)
    root = site_root(subscription)
    link = f"{root}{reverse('table', args=[table.code])}"
    out: list[Owed] = []
    with translation.override(subscription.language or settings.LANGUAGE_CODE):
        game = _("Game %(code)s") % {"code": table.code}
        if table.stage == Stage.PLAYING and seat.alive:
            info = table_info(table, seats)
            panel = family_named(table.family).panel(info, seat_info(seat), now)
            phase = panel.phase_label or table.phase_label
            step = step_of(table)
            lines = [_("%(phase)s has begun.") % {"phase": phase}]
            if panel.attention:
                lines.append(_("The game is waiting for you: open your seat to play."))
            else:
                lines.append(_("Nothing is asked of you for now."))
            if table.deadline is not None:
                lines.append(
                    _("This step ends %(when)s.") % {"when": when_text(table.deadline, zone)}
                )
            lines.append(link)
            out.append(Owed(PHASE, f"phase:{step}", f"{game}: {phase}", "\n\n".join(lines)))
            remind = timedelta(minutes=subscription.remind_minutes)
            deadline = table.deadline
            if (
                subscription.remind_minutes
                and deadline is not None
                and deadline - remind <= now < deadline
                and panel.attention
            ):
                body = "\n\n".join(
                    [
                        _("%(phase)s ends %(when)s and the game still waits for you.")
                        % {"phase": phase, "when": when_text(deadline, zone)},
                        link,
                    ]
                )
                key = f"remind:{step}:{deadline.isoformat()}"
                # Translators: an e-mail's subject: the game, then its phase.
                subject = _("%(game)s: %(phase)s ends soon") % {"game": game, "phase": phase}
                out.append(Owed(REMINDER, key, subject, body))
        if not seat.alive:
            body = "\n\n".join(
                [_("You are out of the game. You can still follow it to its end."), link]
            )
            out.append(Owed(DIED, "died", _("%(game)s: news for you") % {"game": game}, body))
        if table.stage == Stage.OVER:
            body = "\n\n".join([_("The game is over. See how it ended:"), link])
            out.append(Owed(ENDED, "ended", _("%(game)s is over") % {"game": game}, body))
        elif table.stage == Stage.CANCELLED:
            body = "\n\n".join([_("The host stopped the game. Nobody's secrets were shown."), link])
            out.append(Owed(ENDED, "ended", _("%(game)s was cancelled") % {"game": game}, body))
    return out


def _remind_at(
    subscription: Subscription, table: Table, told: set[str], now: datetime
) -> datetime | None:
    """When the scan must look again for this seat's reminder, or None: not before the table
    changes (sent already, or due and not needed: the seat has done its part)."""
    if not subscription.remind_minutes or table.deadline is None or table.stage != Stage.PLAYING:
        return None
    key = f"remind:{step_of(table)}:{table.deadline.isoformat()}"
    if key in told:
        return None
    at = table.deadline - timedelta(minutes=subscription.remind_minutes)
    return at if at > now else None


def baseline(subscription: Subscription, now: datetime | None = None) -> None:
    """A seat that asks for notices is owed what comes next, not what it can see already: what
    is owed now is recorded as told (not saved; the caller saves)."""
    when = now or timezone.now()
    table = Table.objects.get(pk=subscription.seat.table_id)
    seats = list(table.seats.order_by("position"))
    owed = owed_now(subscription, table, seats, when)
    told = {o.key for o in owed if o.kind != REMINDER}
    subscription.told = sorted(told | set(subscription.told))
    subscription.seen_version = table.version
    subscription.remind_at = _remind_at(subscription, table, set(subscription.told), when)
    if any(o.kind == REMINDER for o in owed):
        subscription.remind_at = when  # a reminder due already: the next scan owes it


def chat_service(seat_id: int) -> str | None:
    """The chat service ("discord") the seat is linked to, if it is: where its notices by
    direct message go (its bot sends them)."""
    link = SeatLink.objects.filter(seat_id=seat_id).values_list("account__service", flat=True)
    return link.first()


def channels_of(subscription: Subscription) -> list[str]:
    """The channels the seat's notices go by now: e-mail, push, its chat service's DMs."""
    channels = [EMAIL] if subscription.wants_email else []
    if PushDevice.objects.filter(seat_id=subscription.seat_id).exists():
        channels.append(PUSH)
    service = chat_service(subscription.seat_id) if subscription.chat_dm else None
    if service is not None:
        channels.append(service)
    return channels


def scan(now: datetime | None = None) -> int:
    """Store every notice owed now; how many. Safe in any number of processes at once."""
    when = now or timezone.now()
    changed = Q(seen_version__lt=F("seat__table__version")) | Q(remind_at__lte=when)
    candidates = (
        Subscription.objects.filter(done=False)
        .exclude(seat__table__stage=Stage.LOBBY)
        .filter(changed)
        .values_list("pk", flat=True)
    )
    return sum(_scan_one(pk, when) for pk in list(candidates))


@transaction.atomic
def _scan_one(subscription_id: int, now: datetime) -> int:
    # Only the subscription's row is locked (never the table's: moves go on), and a row
    # another process is scanning is skipped: it will store the same notices.
    subscription = (
        Subscription.objects.select_for_update(skip_locked=True).filter(pk=subscription_id).first()
    )
    if subscription is None:
        return 0
    seat = Seat.objects.filter(pk=subscription.seat_id).select_related("table").first()
    if seat is None:
        return 0
    table = seat.table
    seats = list(table.seats.order_by("position"))
    told = set(subscription.told)
    fresh = [o for o in owed_now(subscription, table, seats, now) if o.key not in told]
    channels = channels_of(subscription)
    step = step_of(table)
    Notice.objects.bulk_create(
        [
            Notice(
                seat_id=subscription.seat_id,
                channel=channel,
                kind=o.kind,
                key=o.key[:200],
                subject=o.subject[:200],
                body=o.body,
                step=step if o.kind in (PHASE, REMINDER) else "",
                due_at=due_at(subscription, now, table.deadline),
                version=table.version,
            )
            for o in fresh
            for channel in channels
        ],
        ignore_conflicts=True,
    )
    told |= {o.key for o in fresh}
    subscription.told = sorted(told)
    subscription.seen_version = table.version
    subscription.remind_at = _remind_at(subscription, table, told, now)
    subscription.done = table.ended and "ended" in told
    subscription.save(update_fields=["told", "seen_version", "remind_at", "done"])
    return len(fresh) * len(channels)
