"""What is stored about a game: seats, centre cards, night actions, votes and chat.

The models only store; every rule lives in games/engine and every change goes through
games/services.py. Constraints make the illegal states the services guard against impossible
at the database level as well (one action and one vote per seat, unique names per game).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

from games.engine import CENTRE_POSITIONS, Role, Ruleset

# Game codes: no 0/O, 1/I/L, so a code read aloud or from a phone is typed right. 8 characters
# of 30 give about 6.5e11 codes: not guessable by trying.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def new_game_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_seat_token() -> str:
    """The secret in a player's private rejoin link."""
    return secrets.token_urlsafe(18)


class RowQuerySet[M: models.Model](models.QuerySet):
    """QuerySet with a lookup of the one row a unique filter matches."""

    def one_or_none(self) -> M | None:
        """The row the filter matches (it must match at most one), or None.

        Unlike `first()`, it sorts nothing: `first()` orders by the model's ordering, which for
        a seat meant a join to its game on every lookup, and compiling an ORDER BY was a tenth
        of the server's work under load (docs/benchmarks.md).
        """
        rows = list(self.order_by()[:1])
        return rows[0] if rows else None


class Phase(models.TextChoices):
    """The phases of rules/000 section 3, plus the lobby before and the reveal after."""

    LOBBY = "lobby", "Lobby"
    NIGHT = "night", "Night"
    DAY = "day", "Day"
    VOTING = "voting", "Voting"
    REVEAL = "reveal", "Reveal"
    CANCELLED = "cancelled", "Cancelled"


RULESET_CHOICES = [(Ruleset.HOUSE.value, "House rules"), (Ruleset.OFFICIAL.value, "Official rules")]
ROLE_CHOICES = [(role.value, role.title) for role in Role]
CENTRE_CHOICES = [(p, p.capitalize()) for p in CENTRE_POSITIONS]


class Game(models.Model):
    """One game of One Night, from the lobby to the reveal."""

    code = models.CharField(max_length=16, unique=True, default=new_game_code, editable=False)
    ruleset = models.CharField(max_length=16, choices=RULESET_CHOICES, default=Ruleset.HOUSE.value)
    phase = models.CharField(max_length=16, choices=Phase.choices, default=Phase.LOBBY)
    # The host's chosen cards, as role names; players + 3 of them when the game starts.
    deck = models.JSONField(default=list, blank=True)
    day_seconds = models.PositiveIntegerField(default=30 * 60)
    night_seconds = models.PositiveIntegerField(null=True, blank=True)
    vote_seconds = models.PositiveIntegerField(null=True, blank=True)
    require_rules_phrase = models.BooleanField(default=True)
    # When the current phase ends by itself (night/vote time limit, end of the day); None: never.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    day_started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set by the night resolution (official rules: what the Doppelganger copied).
    copied_role = models.CharField(max_length=16, choices=ROLE_CHOICES, blank=True, default="")
    # Set by the reveal: the engine's outcome, stored so the reveal page never recomputes it.
    result = models.JSONField(null=True, blank=True)
    # The random order of the voting ring (rules/000 s6a), as seat ids.
    vote_ring = models.JSONField(default=list, blank=True)
    previous_game = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_game"
    )
    # A keyed hash of the creating client's address (never the address itself), for the cap on
    # how many games one client may create per minute.
    creator_key = models.CharField(max_length=32, blank=True, default="", editable=False)
    # The host has locked the table: nobody new may take a seat (the seated keep theirs).
    joins_locked = models.BooleanField(default=False)
    # Staff who opened the hidden roles in the admin while the game was running.
    secrets_opened_at = models.DateTimeField(null=True, blank=True)
    secrets_opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = RowQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["creator_key", "created_at"], name="game_creator_recent")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(phase__in=[p.value for p in Phase]), name="game_phase_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(ruleset__in=[r.value for r in Ruleset]),
                name="game_ruleset_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.code} ({self.get_phase_display()})"

    @property
    def in_progress(self) -> bool:
        return self.phase in (Phase.NIGHT, Phase.DAY, Phase.VOTING)


class Seat(models.Model):
    """A player at a game's table. The seat is the player's identity: there are no accounts."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    name = models.CharField(max_length=24)
    position = models.PositiveSmallIntegerField()
    is_host = models.BooleanField(default=False)
    token = models.CharField(max_length=32, unique=True, default=new_seat_token, editable=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    start_role = models.CharField(max_length=16, choices=ROLE_CHOICES, blank=True, default="")
    final_role = models.CharField(max_length=16, choices=ROLE_CHOICES, blank=True, default="")
    ready_to_vote = models.BooleanField(default=False)
    # "Play again": this player's seat at the previous table, so each player follows to their
    # own new seat (never to a newcomer who took the same name).
    previous_seat = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="next_seat"
    )

    objects = RowQuerySet.as_manager()

    class Meta:
        # By the game's id, not the game: ordering by a foreign key sorts by the other model's
        # own ordering, a join on every query of seats. Newest game first, as in the admin.
        ordering = ["-game_id", "position"]
        constraints = [
            models.UniqueConstraint("game", Lower("name"), name="seat_name_unique_in_game"),
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class SeatTaken(models.Model):
    """A seat taken at a table through its invite link, kept after the seat is removed: what
    the caps on joining count (per client address and per table, games/services.seat_join).
    `client_key` is a keyed hash of the address, as `Game.creator_key`; rows older than the
    cap's minute are deleted as new ones come."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    client_key = models.CharField(max_length=32, blank=True, default="")
    taken_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["client_key", "taken_at"], name="seat_taken_by_client"),
            models.Index(fields=["game", "taken_at"], name="seat_taken_at_table"),
        ]

    def __str__(self) -> str:
        return f"Seat taken at {self.game_id} at {self.taken_at:%H:%M:%S}"


class CentreCard(models.Model):
    """One of the three centre cards (rules/000 s3a), at its fixed position."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="centre_cards")
    position = models.CharField(max_length=8, choices=CENTRE_CHOICES)
    start_role = models.CharField(max_length=16, choices=ROLE_CHOICES)
    final_role = models.CharField(max_length=16, choices=ROLE_CHOICES, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="centre_position_unique")
        ]

    def __str__(self) -> str:
        return f"{self.position} centre card"


class NightAction(models.Model):
    """What a seat sent in for the night (targets as player names or centre positions).

    One per seat. A Doppelganger sends its copy first (`complete` stays False while the copied
    role's own action is still to come). `by_deadline` marks actions the moderator filled in
    when the night time limit passed.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="night_actions")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="night_action")
    targets = models.JSONField(default=list, blank=True)
    complete = models.BooleanField(default=True)
    by_deadline = models.BooleanField(default=False)
    sent_at = models.DateTimeField(auto_now=True)

    objects = RowQuerySet.as_manager()

    def __str__(self) -> str:
        return f"Night action of {self.seat}"


class Vote(models.Model):
    """A seat's secret, final vote. `target` None is "no vote" (the vote time limit passed)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="votes")
    voter = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="vote")
    target = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="votes_received"
    )
    by_deadline = models.BooleanField(default=False)
    cast_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(target=models.F("voter")), name="vote_not_for_self"
            )
        ]

    def __str__(self) -> str:
        return f"Vote of {self.voter}"


class ChatMessage(models.Model):
    """A line in the game's one chat (rules/000 s5a).

    `author` is the player's name when they wrote it, kept if the seat is later removed; an
    empty author is a note from the moderator.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.SET_NULL, related_name="chat_messages"
    )
    author = models.CharField(max_length=24, blank=True, default="")
    text = models.TextField(max_length=500)
    phase = models.CharField(max_length=16, choices=Phase.choices)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "id"], name="chat_game_id")]

    def __str__(self) -> str:
        return f"Chat {self.pk} in {self.game_id}"

    @property
    def is_note(self) -> bool:
        """A note from the app itself (no author), never a player's line."""
        return not self.author

    @property
    def author_name(self) -> str:
        return self.author or MODERATOR


MODERATOR = "Moderator"
