"""What the bot keeps: who is who on the chat service, which seat each account plays, what each
seat has been told, and which channel carries a game's chat. Everything the bot sends is
marked here once sent, so a restart of the bot resumes where it stopped (issue 29)."""

from __future__ import annotations

from django.db import models

from games.tables.models import Seat, Table


class ChatAccount(models.Model):
    """A user of a chat service ("discord"), by the service's own id for them."""

    service = models.CharField(max_length=16)
    user_id = models.CharField(max_length=32)
    name = models.CharField(max_length=64, blank=True, default="")
    # The last private message from this user the bot handled: after a restart it reads the
    # ones it missed (relay.missed).
    last_private = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["service", "user_id"], name="chat_account_unique")
        ]

    def __str__(self) -> str:
        return f"{self.name or self.user_id} ({self.service})"


class SeatLink(models.Model):
    """A seat played from a chat account: the bot sends that seat's private messages to the
    account and takes its commands as the seat's moves. `told` holds the keys of the private
    messages already sent (the keys of the letters its game offers, games/chatbot/letters.py), so
    none is sent twice."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="chat_link")
    account = models.ForeignKey(ChatAccount, on_delete=models.CASCADE, related_name="links")
    told = models.JSONField(default=list, blank=True)
    done = models.BooleanField(default=False)  # the last letter (the reveal) is sent
    linked_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.account} plays {self.seat}"


class GameChannel(models.Model):
    """The chat-service channel that carries a table's public chat and announcements.
    `last_line` is the last chat line relayed there; `posted` the keys of the bot's own posts
    (the countdown, its warnings, the reveal)."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="chat_channel")
    service = models.CharField(max_length=16)
    channel_id = models.CharField(max_length=32, db_index=True)
    last_line = models.PositiveBigIntegerField(default=0)
    posted = models.JSONField(default=list, blank=True)
    done = models.BooleanField(default=False)  # the game's end is posted
    last_message = models.PositiveBigIntegerField(default=0)  # the last one the bot handled

    def __str__(self) -> str:
        return f"{self.table.code} in {self.service} channel {self.channel_id}"


class SideChannel(models.Model):
    """One of a game's other chat channels (the family's `channels` besides the public one: the
    werewolves' pack, the graveyard) as a channel of the chat service, opened by the bot with
    permissions that mirror, member by member, who may read and write it now (issue 40 item 2).
    `access` holds what was last applied: each account's "write", "read" or "" and the
    watchers' under "*"; `last_line` the last chat line relayed there."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="side_channels")
    name = models.CharField(max_length=32)
    service = models.CharField(max_length=16)
    channel_id = models.CharField(max_length=32, blank=True, default="", db_index=True)
    access = models.JSONField(default=dict, blank=True)
    last_line = models.PositiveBigIntegerField(default=0)
    last_message = models.PositiveBigIntegerField(default=0)  # the last one the bot handled

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "name"], name="side_channel_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table.code}'s {self.name} in {self.service} channel {self.channel_id}"


class BotLock(models.Model):
    """The one bot process allowed per chat service (issue 40 item 5): `holder` names it and
    `seen` is renewed on each relay pass; another process is refused while it is fresh."""

    service = models.CharField(max_length=16, unique=True)
    holder = models.CharField(max_length=64)
    seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.service} bot {self.holder}"
