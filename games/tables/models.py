"""What the table core stores: tables, seats, the moves seats sent, and chat lines.

A table's game lives in `Table.state`, as its family hands it back (JSON); the core never reads
it. Every change goes through games/tables/services/, one transaction each, and bumps
`Table.version`, which every page and push carries.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

# Table codes: no 0/O, 1/I/L, so a code read aloud or from a phone is typed right. 8 characters
# of 31 give about 8.5e11 codes: not guessable by trying.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8
NAME_LENGTH = 24
# A page says it is open when it connects and every PING_SECONDS after (static/js/table.js).
PING_SECONDS = 30
CONNECTED_WITHIN = timedelta(seconds=2 * PING_SECONDS + 10)


def new_table_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_seat_token() -> str:
    """The secret in a player's private rejoin link (144 random bits)."""
    return secrets.token_urlsafe(18)


class Stage(models.TextChoices):
    """A table's lifecycle, the same for every game: not the game's phases, which are the
    family's (`Table.phase` is only shown)."""

    LOBBY = "lobby", "Lobby"
    PLAYING = "playing", "Playing"
    OVER = "over", "Over"
    CANCELLED = "cancelled", "Cancelled"


class Table(models.Model):
    """One game at one table, from the lobby to the end."""

    code = models.CharField(max_length=16, unique=True, default=new_table_code, editable=False)
    family = models.CharField(max_length=32)
    ruleset = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    stage = models.CharField(max_length=16, choices=Stage.choices, default=Stage.LOBBY)
    phase = models.CharField(max_length=32, default="lobby")  # the family's name for it
    phase_label = models.CharField(max_length=64, default="Lobby")
    round = models.PositiveIntegerField(default=0)
    # Bumped by every change: pages and pushes carry it, and a page ignores anything older.
    version = models.PositiveBigIntegerField(default=1)
    # When the current phase ends by itself; None: never. Fired exactly once (services).
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # While the host has paused the clock: the seconds that were left (the deadline is None).
    paused_seconds = models.PositiveIntegerField(null=True, blank=True)
    state = models.JSONField(null=True, blank=True)  # the family's, opaque to the core
    joins_locked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    previous = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_table"
    )
    # A keyed hash of the creating client's address (never the address), for the cap on how
    # many tables one client may open per minute.
    creator_key = models.CharField(max_length=32, blank=True, default="", editable=False)
    # Staff who opened the hidden state in the admin while the game was running.
    secrets_opened_at = models.DateTimeField(null=True, blank=True)
    secrets_opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["creator_key", "created_at"], name="table_creator_recent")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(stage__in=[s.value for s in Stage]), name="table_stage_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.code} ({self.phase_label})"

    @property
    def in_lobby(self) -> bool:
        return self.stage == Stage.LOBBY

    @property
    def in_play(self) -> bool:
        return self.stage == Stage.PLAYING

    @property
    def ended(self) -> bool:
        return self.stage in (Stage.OVER, Stage.CANCELLED)


class Seat(models.Model):
    """A player at a table. The seat is the player's identity: there are no accounts."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    name = models.CharField(max_length=NAME_LENGTH)
    position = models.PositiveSmallIntegerField()
    is_host = models.BooleanField(default=False)
    alive = models.BooleanField(default=True)
    token = models.CharField(max_length=32, unique=True, default=new_seat_token, editable=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    # When one of the player's pages last showed it was open (games/tables/consumers.py).
    last_seen = models.DateTimeField(null=True, blank=True)
    # "Play again": this player's seat at the previous table, so each player follows to their
    # own new seat (never to a newcomer who took the same name).
    previous_seat = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_seat"
    )

    class Meta:
        ordering = ["table_id", "position"]
        constraints = [
            models.UniqueConstraint("table", Lower("name"), name="seat_name_unique_at_table"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    def connected(self, now: datetime) -> bool:
        """Whether a page of this player was open a moment ago."""
        return self.last_seen is not None and now - self.last_seen < CONNECTED_WITHIN


class Move(models.Model):
    """A move a seat (or the clock: no seat) sent and the game accepted, in order: the table's
    record of play, for the admin and the reveal. The game's state is the family's."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL)
    kind = models.CharField(max_length=32)
    fields = models.JSONField(default=dict, blank=True)
    version = models.PositiveBigIntegerField()  # the table's version after this move
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["table", "id"], name="move_table_id")]

    def __str__(self) -> str:
        return f"{self.kind} at {self.table_id} v{self.version}"


class ChatLine(models.Model):
    """A line in one of a table's chat channels. `author` is the player's name when they wrote
    it, kept if the seat is later removed; a line with no seat and `note` set is the app's."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_lines")
    channel = models.CharField(max_length=32, default="public")
    seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="chat_lines"
    )
    author = models.CharField(max_length=NAME_LENGTH, blank=True, default="")
    note = models.BooleanField(default=False)
    text = models.TextField(max_length=500)
    sent_at = models.DateTimeField(auto_now_add=True)
    # Where the line was written when not on a page (a chat service such as "discord"): a relay
    # does not echo a line back to where it came from.
    via = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["table", "channel", "id"], name="chat_table_channel_id")]

    def __str__(self) -> str:
        return f"Chat {self.pk} at {self.table_id}"


class SeatTaken(models.Model):
    """A seat taken at a table, kept after the host removes it: what the caps on joining count
    (services.seat_join). Rows older than a minute are dropped as new ones come."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    client_key = models.CharField(max_length=32, blank=True, default="")
    taken_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["client_key", "taken_at"], name="seat_taken_client")]

    def __str__(self) -> str:
        return f"Seat taken at {self.table_id} at {self.taken_at}"
