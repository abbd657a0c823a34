"""Sending the notices owed (issue 41, item 3): each once, by whichever process gets to it.

Where the database locks one row at a time (PostgreSQL), a sender takes a due notice with
`SELECT ... FOR UPDATE SKIP LOCKED`, sends it, and marks it sent in that same transaction: two
processes never take the same row, and a process that dies mid-send leaves the row as it was,
for the next sender. Only notice rows are locked: no move waits for a send.

SQLite locks the whole database for a writing transaction, so holding one through a send would
hold up every move. There a sender claims the notice first (a short transaction that stamps
`claimed_until`), sends, and then marks it sent; a sender that dies between the two leaves the
claim to expire and the notice is sent by the next one.

A failure is counted: a notice is tried again later, and dropped after MAX_TRIES; an address the
mail server refuses outright is dropped at once (the seat's address is removed), never retried
forever. A notice whose step has passed by the time it is due (held through quiet hours) is not
sent: the game has moved on and another notice says so.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import connection, transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.chatbot.models import SeatLink
from games.tables.models import Move, Table

from . import push
from .links import unsubscribe_path
from .models import (
    EMAIL,
    PHASE,
    PUSH,
    REMINDER,
    WEB_CHANNELS,
    Notice,
    PushDevice,
    Subscription,
)
from .owed import chat_service, site_root, step_of

log = logging.getLogger(__name__)

MAX_TRIES = 4
RETRY_AFTER = timedelta(minutes=5)
CLAIM = timedelta(minutes=10)  # longer than any one send may take (settings.EMAIL_TIMEOUT)


def _pending(now: datetime, channels: tuple[str, ...] = WEB_CHANNELS) -> QuerySet[Notice]:
    """The notices due by `channels` (by default those this app's servers send)."""
    due = Notice.objects.filter(sent_at=None, dropped="", due_at__lte=now, channel__in=channels)
    return due.order_by("due_at", "id")


def send_due(now: datetime | None = None, limit: int = 100) -> int:
    """Send up to `limit` notices that are due; how many were sent."""
    when = now or timezone.now()
    locking = connection.features.has_select_for_update_skip_locked
    sent = 0
    for _turn in range(limit):
        outcome = _send_locked(when) if locking else _send_claimed(when)
        if outcome is None:
            break
        sent += outcome
    return sent


@transaction.atomic
def _send_locked(now: datetime) -> int | None:
    notice = _pending(now).select_for_update(skip_locked=True).first()
    if notice is None:
        return None
    return _deliver(notice, now)


def _send_claimed(now: datetime) -> int | None:
    for notice_id in _pending(now).values_list("pk", flat=True)[:20]:
        with transaction.atomic():
            free = Notice.objects.filter(pk=notice_id, sent_at=None, dropped="").exclude(
                claimed_until__gt=now
            )
            if not free.update(claimed_until=now + CLAIM):
                continue
        # Sent outside any transaction: SQLite's would stop every move until the send is done.
        return _deliver(Notice.objects.get(pk=notice_id), now)
    return None


def _deliver(notice: Notice, now: datetime) -> int:
    """Send `notice` (or drop it) and record what happened; 1 if it was sent."""
    subscription = Subscription.objects.filter(seat_id=notice.seat_id).first()
    reason = _stale(notice, subscription)
    if reason:
        _save(notice, dropped=reason)
        return 0
    assert subscription is not None
    try:
        if notice.channel == PUSH:
            link = f"{site_root(subscription)}{reverse('table', args=[_code_of(notice)])}"
            push.send(notice, link)
        else:
            _email(notice, subscription)
    except smtplib.SMTPRecipientsRefused:
        log.warning("Notice %s: the address was refused; dropped", notice.pk)
        Subscription.objects.filter(pk=subscription.pk, email=subscription.email).update(email="")
        _save(notice, dropped="address refused", tries=notice.tries + 1)
        return 0
    except (smtplib.SMTPException, OSError, push.PushFailed) as error:
        tries = notice.tries + 1
        log.warning("Notice %s not sent (try %d): %s", notice.pk, tries, error)
        if tries >= MAX_TRIES:
            _save(notice, dropped="failed", tries=tries)
        else:
            _save(notice, tries=tries, due_at=now + RETRY_AFTER * tries, claimed_until=None)
        return 0
    _save(notice, sent_at=now)
    return 1


def _save(notice: Notice, **fields: object) -> None:
    for name, value in fields.items():
        setattr(notice, name, value)
    notice.save(update_fields=list(fields))


def _stale(notice: Notice, subscription: Subscription | None) -> str:
    """Why the notice should not go out now, or "" if it should."""
    if subscription is None:
        return "unsubscribed"
    if notice.channel == EMAIL and not subscription.wants_email:
        return "unsubscribed"
    if notice.channel == PUSH and not PushDevice.objects.filter(seat_id=notice.seat_id).exists():
        return "unsubscribed"
    if notice.channel not in WEB_CHANNELS:
        if not subscription.chat_dm:
            return "unsubscribed"
        if chat_service(notice.seat_id) != notice.channel:
            return "unlinked"
    if notice.kind in (PHASE, REMINDER):
        table = Table.objects.filter(seats__pk=notice.seat_id).first()
        if table is None or step_of(table) != notice.step:
            return "moved on"
        moved = Move.objects.filter(table=table, seat_id=notice.seat_id, version__gt=notice.version)
        if notice.kind == REMINDER and moved.exists():
            return "acted"
    return ""


def _code_of(notice: Notice) -> str:
    return Table.objects.filter(seats__pk=notice.seat_id).values_list("code", flat=True)[0]


def _email(notice: Notice, subscription: Subscription) -> None:
    """The notice as an e-mail with a one-click unsubscribe link (RFC 8058 too)."""
    unsubscribe = f"{site_root(subscription)}{unsubscribe_path(notice.seat_id)}"
    with translation.override(subscription.language or settings.LANGUAGE_CODE):
        footer = _("No more e-mails from this game: %(link)s") % {"link": unsubscribe}
    message = EmailMessage(
        subject=notice.subject,
        body=f"{notice.body}\n\n-- \n{footer}\n",
        to=[subscription.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.send(fail_silently=False)


# --- By chat direct message: sent by the chat service's bot process ----------------------------
#
# The bot is a process of its own (games/chatbot), one per chat service (relay.claim). Its relay
# pass asks for the notices due by its service's direct messages, sends each, and marks it sent
# (`chat_sent`, one conditional update: a notice is marked once). Nothing is held for it in
# memory: a notice owed while the bot is down stays owed in the database and goes out when it
# starts (held through quiet hours, or dropped if the game has moved on since, as by e-mail).


def chat_notices_due(service: str, now: datetime) -> list[tuple[Notice, str, str]]:
    """The notices due now by `service`'s direct messages: each with the chat account's id it
    goes to and its text. A notice that should no longer go out is dropped here."""
    out: list[tuple[Notice, str, str]] = []
    for notice in _pending(now, (service,))[:100]:
        subscription = Subscription.objects.filter(seat_id=notice.seat_id).first()
        reason = _stale(notice, subscription)
        user_id = (
            SeatLink.objects.filter(seat_id=notice.seat_id, account__service=service)
            .values_list("account__user_id", flat=True)
            .first()
        )
        if reason or subscription is None or user_id is None:
            _save(notice, dropped=reason or "unlinked")
            continue
        with translation.override(subscription.language or settings.LANGUAGE_CODE):
            footer = _("No more of these messages: untick them on your seat's page.")
        out.append((notice, user_id, f"**{notice.subject}**\n\n{notice.body}\n\n{footer}"))
    return out


def chat_sent(notice_id: int, now: datetime, given_up: str = "") -> bool:
    """Record a notice the bot sent (or gave up: the member takes no direct messages); False
    if it was recorded already."""
    fields: dict[str, object] = {"dropped": given_up[:64]} if given_up else {"sent_at": now}
    return bool(Notice.objects.filter(pk=notice_id, sent_at=None, dropped="").update(**fields))
