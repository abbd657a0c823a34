"""What notices keep: each seat's choice (where and when to be told), the host's defaults for a
table, and every notice owed, stored as a row before it is sent (games/notices/owed.py makes
them, games/notices/sender.py sends each once)."""

from __future__ import annotations

from django.db import models

from games.tables.models import Seat, Table

# The kinds of notice, by what a seat is told.
PHASE, REMINDER, DIED, ENDED = "phase", "reminder", "died", "ended"
KINDS = (PHASE, REMINDER, DIED, ENDED)
EMAIL = "email"
PUSH = "push"  # the browser's push notifications (Web Push: RFC 8030, 8291, 8292)
# Sent by this app's own server processes (sender.py). A notice by chat direct message has the
# chat service's name as its channel ("discord") and is sent by that service's bot process
# (games/chatbot/relay.py), never by the servers.
WEB_CHANNELS = (EMAIL, PUSH)


class TableDefaults(models.Model):
    """What a table's host proposes to its players (issue 41, item 1): how long before a
    deadline to remind them, and the quiet hours. A player's own choice overrides it; nothing
    is sent to a player who did not ask."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="notice_defaults")
    remind_minutes = models.PositiveIntegerField(default=6 * 60)
    quiet_from = models.PositiveSmallIntegerField(null=True, blank=True, default=22)
    quiet_to = models.PositiveSmallIntegerField(null=True, blank=True, default=8)

    def __str__(self) -> str:
        return f"Notice defaults of {self.table_id}"


class Subscription(models.Model):
    """One seat's notices: where to send them (an e-mail address), in which language and time
    zone, how long before a deadline to remind it (0: never), its quiet hours (local hours;
    none: no quiet hours). `told` holds the keys of what the seat has been owed already
    (owed.py), so each is owed once; `seen_version` the table version last looked at."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="notices")
    email = models.EmailField(blank=True, default="")
    language = models.CharField(max_length=16, default="en-gb")
    time_zone = models.CharField(max_length=64, default="UTC")
    remind_minutes = models.PositiveIntegerField(default=0)
    quiet_from = models.PositiveSmallIntegerField(null=True, blank=True)
    quiet_to = models.PositiveSmallIntegerField(null=True, blank=True)
    # The address the player asked from (https://host): the links in their e-mails, unless
    # the site's own address is set (settings.SITE_URL).
    site = models.CharField(max_length=200, blank=True, default="")
    # By direct message from the chat bot, to the chat account the seat is linked to
    # (games/chatbot: SeatLink); only offered while the seat is linked.
    chat_dm = models.BooleanField(default=False)
    told = models.JSONField(default=list, blank=True)
    seen_version = models.PositiveBigIntegerField(default=0)
    # When a reminder of the current deadline is due (owed.py keeps it): the sender's scan
    # reads the subscriptions whose table changed or whose reminder came due, nothing else.
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True)
    done = models.BooleanField(default=False)  # the end was owed: nothing more to scan
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Notices of seat {self.seat_id}"

    @property
    def wants_email(self) -> bool:
        return bool(self.email)


class Notice(models.Model):
    """A notice owed to a seat by one channel. Made once (unique by seat, channel and key),
    sent once: the sender locks the row, sends, and marks it sent in the same transaction.
    A notice that keeps failing is dropped after a few tries, never retried forever."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="owed_notices")
    channel = models.CharField(max_length=16, default=EMAIL)
    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=200)
    subject = models.CharField(max_length=200)
    body = models.TextField()
    # The table's step when it was owed ("round|phase|label"): a phase's news or a reminder
    # held through quiet hours is dropped if the game has moved on by the time it is due.
    step = models.CharField(max_length=160, blank=True, default="")
    # The table's version when it was owed: a reminder held through quiet hours is dropped if
    # the seat has made a move since.
    version = models.PositiveBigIntegerField(default=0)
    due_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    dropped = models.CharField(max_length=64, blank=True, default="")  # why it was not sent
    tries = models.PositiveSmallIntegerField(default=0)
    # Where a row cannot be locked alone (SQLite), a sender claims the notice until then
    # before sending it (sender.py).
    claimed_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["due_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "channel", "key"], name="notice_once"),
        ]
        indexes = [
            models.Index(fields=["sent_at", "dropped", "due_at"], name="notice_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} notice {self.key} to seat {self.seat_id}"

    @property
    def pending(self) -> bool:
        return self.sent_at is None and not self.dropped


class PushDevice(models.Model):
    """A browser that subscribed to a seat's push notifications: the push service's endpoint
    and the keys its messages are encrypted with (RFC 8291). Dropped when the push service
    says the subscription is gone (404, 410)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="push_devices")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Push device of seat {self.seat_id}"

    def info(self) -> dict[str, object]:
        """As pywebpush takes it (the browser's PushSubscription, as JSON)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
