"""The Discord side of the bot (issue 29), on discord.py: messages in, replies and relay out.

Thin on purpose: every message goes to `commands.handle` and every delivery comes from
`relay.pending`; this module turns them into Discord calls. discord.py keeps to Discord's rate
limits itself (it waits out each route's bucket and a global 429 before retrying), and the
relay sends one message at a time, joining a channel's waiting chat lines into one post, so a
busy web chat costs a few requests, not one per line.

The bot needs the Message Content intent (Discord's developer portal, "Bot" page), the
permission to send messages in its channels and, to remove a `!target` written in public, to
manage messages there.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

import discord
from asgiref.sync import sync_to_async

from . import commands, relay

log = logging.getLogger(__name__)
SERVICE = "discord"
LIMIT = 1900  # Discord refuses messages past 2,000 characters


def chunks(text: str, limit: int = LIMIT) -> list[str]:
    """`text` cut at line ends into messages Discord accepts."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current:
        out.append(current)
    return out


def when(deadline: datetime) -> str:
    """A deadline as Discord shows it: a live countdown in each reader's client."""
    return f"{discord.utils.format_dt(deadline, 'R')} ({discord.utils.format_dt(deadline, 't')})"


class WerewolfBot(discord.Client):
    """One Night from Discord: commands by private message, the game's chat in a channel."""

    def __init__(
        self,
        *,
        poll_seconds: float = 2.0,
        relay_in_background: bool = True,
        intents: discord.Intents | None = None,
    ) -> None:
        if intents is None:
            intents = discord.Intents.default()
            intents.message_content = True  # commands and the game's chat are message text
        super().__init__(intents=intents)
        self.poll_seconds = poll_seconds
        self.relay_in_background = relay_in_background
        self._relay_task: asyncio.Task[None] | None = None
        self._relay_lock = asyncio.Lock()

    async def setup_hook(self) -> None:
        if self.relay_in_background:
            self._relay_task = asyncio.create_task(self._relay_forever())

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        private = isinstance(message.channel, discord.DMChannel)
        sender = commands.Sender(SERVICE, str(message.author.id), message.author.display_name)
        channel_id = None if private else str(message.channel.id)
        reply = await sync_to_async(commands.handle)(sender, message.content, channel_id=channel_id)
        if reply is None:
            return
        private_texts = list(reply.private)
        if reply.delete:
            try:
                await message.delete()
            except (discord.Forbidden, discord.NotFound, discord.HTTPException):
                private_texts.append(
                    "I could not delete your message (I lack the Manage Messages permission"
                    " there): delete it yourself."
                )
        for text in reply.public:
            for part in chunks(text):
                await message.channel.send(part)
        for text in private_texts:
            await self._direct(message.author, text)
        if reply.public or reply.private:
            await self.relay_once()  # a move may have dealt, dawned or revealed: tell at once

    async def _direct(self, user: discord.abc.User, text: str) -> bool:
        try:
            for part in chunks(text):
                await user.send(part)
        except discord.Forbidden:
            log.warning("user %s does not take private messages", user.id)
            return False
        return True

    async def relay_once(self) -> int:
        """Send what the database says is owed; the number of messages sent."""
        async with self._relay_lock:
            await sync_to_async(relay.catch_up)()
            items = await sync_to_async(relay.pending)(SERVICE)
            count = 0
            batch: list[relay.Outgoing] = []
            for item in items:
                if batch and not self._joins(batch[-1], item):
                    count += await self._send_batch(batch)
                    batch = []
                batch.append(item)
            if batch:
                count += await self._send_batch(batch)
            return count

    @staticmethod
    def _joins(previous: relay.Outgoing, item: relay.Outgoing) -> bool:
        """Chat lines for one channel go out together."""
        return (
            not item.private
            and not previous.private
            and previous.to == item.to
            and previous.mark[0] == item.mark[0] == "line"
        )

    async def _send_batch(self, batch: list[relay.Outgoing]) -> int:
        texts = []
        for item in batch:
            text = item.text.replace("{when}", when(item.deadline)) if item.deadline else item.text
            if text:
                texts.append(text)
        sent = 0
        if texts:
            first = batch[0]
            try:
                target = await self._target(first)
                for part in chunks("\n".join(texts)):
                    await target.send(part)
                    sent += 1
            except discord.Forbidden:
                log.warning(
                    "cannot write to %s %s", "user" if first.private else "channel", first.to
                )
            except (discord.NotFound, discord.HTTPException) as error:
                log.warning("sending to %s failed (%s): will try again", first.to, error)
                return sent
        for item in batch:
            await sync_to_async(relay.sent)(item)
        return sent

    async def _target(self, item: relay.Outgoing) -> discord.abc.Messageable:
        if item.private:
            user = self.get_user(int(item.to)) or await self.fetch_user(int(item.to))
            return user
        channel = self.get_channel(int(item.to)) or await self.fetch_channel(int(item.to))
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _relay_forever(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.relay_once()
            except Exception:  # the loop must outlive one bad pass (logged, tried again)
                log.exception("relay pass failed")
            await asyncio.sleep(self.poll_seconds)
