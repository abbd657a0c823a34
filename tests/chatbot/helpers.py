"""A chat service in memory for the command layer's tests: users write to the bot privately or
in channels; `deliver` does what a bot's relay pass does (send what is owed, mark it sent) and
keeps every private message and channel post, as the users would see them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from games.chatbot import commands, relay
from games.chatbot.commands import Reply, Sender

SERVICE = "fakechat"


@dataclass
class FakeChat:
    """Users by name (their ids are made up), what each read privately, what each channel
    holds, and which public messages the bot deleted."""

    inbox: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    channels: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    deleted: list[tuple[str, str]] = field(default_factory=list)

    @staticmethod
    def user_id(name: str) -> str:
        return str(1000 + sum(ord(c) * 31**i for i, c in enumerate(name)) % 10**9)

    def sender(self, name: str) -> Sender:
        return Sender(SERVICE, self.user_id(name), name)

    def say(self, name: str, text: str, channel: str | None = None) -> Reply | None:
        """`name` writes `text` to the bot (channel None) or in `channel`."""
        if channel is not None:
            self.channels[channel].append(f"{name}: {text}")
        reply = commands.handle(self.sender(name), text, channel_id=channel)
        if reply is None:
            return None
        if reply.delete and channel is not None:
            self.channels[channel].remove(f"{name}: {text}")
            self.deleted.append((name, text))
        self.inbox[name] += reply.private
        if channel is not None:
            self.channels[channel] += reply.public
        return reply

    def deliver(self, now: datetime | None = None) -> int:
        """One relay pass: what is owed goes out and is marked sent."""
        ids = {self.user_id(n): n for n in self._names()}
        items = relay.pending(SERVICE, now)
        for item in items:
            text = item.text
            if item.note:
                text = f"» {text}"
            elif item.author is not None:
                text = f"**{item.author}** (web): {text}"
            if item.deadline is not None:
                text = text.replace("{when}", item.deadline.isoformat())
            if text:
                if item.private:
                    self.inbox[ids.get(item.to, item.to)].append(text)
                else:
                    self.channels[item.to].append(text)
            relay.sent(item, now=now)
        return len(items)

    def _names(self) -> set[str]:
        from games.chatbot.models import ChatAccount

        return set(ChatAccount.objects.filter(service=SERVICE).values_list("name", flat=True))

    def last(self, name: str) -> str:
        return self.inbox[name][-1] if self.inbox[name] else ""
