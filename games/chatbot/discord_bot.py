"""The Discord side of the bot (issue 29), on discord.py: messages in, replies and relay out.

Thin on purpose: every message goes to `commands.handle` and every delivery comes from
`relay.pending`; this module turns them into Discord calls. discord.py keeps to Discord's rate
limits itself (it waits out each route's bucket and a global 429 before retrying), and the
relay sends one message at a time, joining a channel's waiting chat lines into one post, so a
busy web chat costs a few requests, not one per line. Run one bot process per Discord token:
two would both send what is owed.

A restart loses nothing: what the bot owes is worked out from the database (relay.py), and the
messages sent to it while it was away are read from the game channels' and players' private
histories when it comes back (`catch_up_messages`), after the last one it handled (a player who
never wrote to it privately, from when they sat down).

The bot needs the Message Content intent (Discord's developer portal, "Bot" page), the
permission to send messages in its channels and, to remove a `!target` written in public, to
manage messages there.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

import discord
from asgiref.sync import sync_to_async
from discord import app_commands
from django.utils.translation import gettext as _

from . import commands, discord_rooms, discord_slash, relay, taps
from .splitting import chunks

log = logging.getLogger(__name__)
SERVICE = "discord"
# How far before a member sat down the catch-up reads their private messages, when the bot never
# handled one from them: our clock and Discord's may differ a little.
CLOCK_DRIFT = timedelta(minutes=1)
# Nothing the bot posts may ping anyone: a web player's "@everyone" stays text.
SILENT = discord.AllowedMentions.none()


def when(deadline: datetime) -> str:
    """A deadline as Discord shows it: a live countdown in each reader's client."""
    return f"{discord.utils.format_dt(deadline, 'R')} ({discord.utils.format_dt(deadline, 't')})"


def shown(item: relay.Outgoing) -> str:
    """An item's text as posted. A web player's line is marked as theirs, its markdown escaped
    and every line of it quoted, so that it can never pass for the bot's own words."""
    if item.note:
        return f"» {item.text}"
    if item.author is not None:
        body = "\n> ".join(discord.utils.escape_markdown(line) for line in item.text.split("\n"))
        author = discord.utils.escape_markdown(item.author)
        # Translators: the heading of a line a player wrote on the web, relayed to Discord.
        return _("**%(player)s** (web):") % {"player": author} + f"\n> {body}"

    if item.deadline is not None:
        return item.text.replace("{when}", when(item.deadline))
    return item.text


RETRIES = 5  # a message Discord keeps refusing with 429 is tried this often, then left owed


def _retry_after(error: discord.HTTPException) -> float:
    """How long Discord asked to wait, from the answer's header (a second if it does not say)."""
    headers = getattr(error.response, "headers", None) or {}
    try:
        return float(headers.get("Retry-After", 1.0))
    except (TypeError, ValueError):
        return 1.0


class WerewolfBot(discord.Client):
    """One Night from Discord: commands by private message, the game's chat in a channel."""

    def __init__(
        self,
        *,
        poll_seconds: float = 2.0,
        relay_in_background: bool = True,
        intents: discord.Intents | None = None,
        retry_pause: float | None = None,
        holder: str = "",
    ) -> None:
        if intents is None:
            intents = discord.Intents.default()
            intents.message_content = True  # commands and the game's chat are message text
        super().__init__(intents=intents, allowed_mentions=SILENT)
        self.poll_seconds = poll_seconds
        # Seconds to wait after a 429 (None: as long as Discord says); who holds the bot's lock.
        self.retry_pause = retry_pause
        self.holder = holder
        self.relay_in_background = relay_in_background
        self._relay_task: asyncio.Task[None] | None = None
        self._relay_lock = asyncio.Lock()
        # Slash commands next to the `!` ones (issue 40 item 3).
        self.tree: app_commands.CommandTree[WerewolfBot] = app_commands.CommandTree(self)
        discord_slash.register(self, self.tree)

    async def setup_hook(self) -> None:
        if self.relay_in_background:
            self._relay_task = asyncio.create_task(self._relay_forever())
            try:
                await self.tree.sync()  # Discord learns the slash commands (a test has none)
            except discord.HTTPException as error:
                log.warning("slash commands not registered (%s): the ! commands work", error)

    async def on_ready(self) -> None:
        await self.catch_up_messages()

    # --- Messages in -----------------------------------------------------------------------------

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        private = isinstance(message.channel, discord.DMChannel)
        sender = commands.Sender(SERVICE, str(message.author.id), message.author.display_name)
        channel_id = None if private else str(message.channel.id)
        # A forwarded message is carried whole, like a file: it could be the bot's own private
        # message, shown word for word in the game's chat (rules/000 s5c).
        carried = len(message.attachments) + len(message.message_snapshots)
        try:
            reply = await sync_to_async(commands.handle)(
                sender, message.content, channel_id=channel_id, attachments=carried
            )
            await self._answer(message, reply)
            await sync_to_async(relay.handled)(SERVICE, sender.user_id, channel_id, message.id)
        except Exception:  # one bad message must not stop the bot; the player hears of it
            log.exception("message %s could not be handled", message.id)
            await self._direct(message.author, _("Something went wrong with that; try again."))
            return
        if reply is not None and (reply.public or reply.private):
            await self.relay_once()  # a move may have dealt, dawned or revealed: tell at once

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A tap on one of the bot's buttons or menus (taps.py): the command it stands for."""
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        command = taps.command_of(dict(interaction.data))
        if command is None:
            return
        texts = await self.tapped(interaction.user, command)
        await discord_slash.to_member_alone(interaction, "\n".join(texts) or "…")
        await self.relay_once()

    async def tapped(self, user: discord.User | discord.Member, command: str) -> list[str]:
        """A tap: the command it stands for, as if `user` had typed it to the bot privately;
        the answer's texts."""
        sender = commands.Sender(SERVICE, str(user.id), user.display_name)
        text = commands.PREFIX + command
        reply = await sync_to_async(commands.handle)(sender, text, channel_id=None)
        return [*reply.private, *reply.public] if reply is not None else []

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """An edited message (a link preview is not an edit: it sets no edit time)."""
        message = payload.message
        if message.author.bot or message.edited_at is None:
            return
        private = isinstance(message.channel, discord.DMChannel)
        if private:
            return
        sender = commands.Sender(SERVICE, str(message.author.id), message.author.display_name)
        reply = await sync_to_async(commands.edited)(
            sender, message.content, channel_id=str(message.channel.id)
        )
        await self._answer(message, reply)

    async def _answer(self, message: discord.Message, reply: commands.Reply | None) -> None:
        if reply is None:
            return
        private_texts = list(reply.private)
        if reply.delete:
            try:
                await message.delete()
            except (discord.Forbidden, discord.NotFound, discord.HTTPException) as error:
                private_texts.append(
                    _(
                        # Translators: "Manage Messages" is the name of a Discord permission.
                        "I could not delete your message (I lack the Manage Messages permission"
                        " there): delete it yourself."
                    )
                )
                if isinstance(error, discord.Forbidden):
                    await self._lacks_manage_messages(message.channel)
        for text in reply.public:
            for part in chunks(text):
                await self.post(message.channel, part)
        for text in private_texts:
            await self._direct(message.author, text)

    async def _lacks_manage_messages(self, channel: discord.abc.Messageable) -> None:
        """Said once in a game's channel: what to grant so secrets typed there are removed."""
        channel_id = str(getattr(channel, "id", ""))
        if not await sync_to_async(relay.first_time)(channel_id, "perm:messages"):
            return
        text = _(
            # Translators: "Manage Messages" is the name of a Discord permission.
            "I cannot remove messages in this channel: grant my role the Manage Messages"
            " permission here (channel settings, Permissions), so that a secret command or an"
            " edited message written here is taken down at once."
        )
        try:
            await self.post(channel, text)
        except discord.HTTPException:
            log.warning("could not tell channel %s that Manage Messages is missing", channel_id)

    async def _direct(self, user: discord.User | discord.Member, text: str) -> bool:
        try:
            for part in chunks(text):
                await self.post(user, part)
        except discord.Forbidden:
            log.warning("user %s does not take private messages", user.id)
            return False
        return True

    async def catch_up_messages(self) -> int:
        """Handle what players sent while the bot was away, oldest first; how many. A channel
        or member Discord cannot give now (an error other than gone or forbidden) is skipped
        and logged: what was sent there stays unhandled, so the next start reads it."""
        channels, accounts = await sync_to_async(relay.missed)(SERVICE)
        places: list[tuple[discord.abc.Messageable, discord.abc.Snowflake | datetime]] = []
        for channel_id, after in channels:
            try:
                channel = self.get_channel(int(channel_id)) or await self.fetch_channel(
                    int(channel_id)
                )
            except (discord.NotFound, discord.Forbidden):
                continue
            except discord.HTTPException as error:
                log.warning("catch-up: channel %s unavailable (%s): skipped", channel_id, error)
                continue
            assert isinstance(channel, discord.abc.Messageable)  # one players wrote in
            places.append((channel, discord.Object(id=after)))
        for user_id, after, since in accounts:
            # Never written to privately: from when they sat down (less the clocks' drift).
            start = discord.Object(id=after) if after else since - CLOCK_DRIFT
            try:
                user = self.get_user(int(user_id)) or await self.fetch_user(int(user_id))
                places.append((await user.create_dm(), start))
            except (discord.NotFound, discord.Forbidden):
                continue
            except discord.HTTPException as error:
                log.warning("catch-up: member %s unavailable (%s): skipped", user_id, error)
                continue
        count = 0
        for place, since_then in places:
            try:
                async for message in place.history(after=since_then, oldest_first=True):
                    if message.author.bot:
                        continue
                    await self.on_message(message)
                    count += 1
            except discord.HTTPException as error:
                log.warning("catch-up: reading %s failed (%s): the rest waits", place, error)
        return count

    # --- Messages out ----------------------------------------------------------------------------

    async def relay_once(self, now: datetime | None = None) -> int:
        """Send what the database says is owed (at `now`, by default the clock's); the number
        of messages sent."""
        async with self._relay_lock:
            if self.holder and not await sync_to_async(relay.claim)(SERVICE, self.holder):
                log.error("another bot process holds this token's lock: stopping")
                await self.close()
                return 0
            await sync_to_async(relay.catch_up)(now)
            await discord_rooms.sync(self, SERVICE)
            items = await sync_to_async(relay.pending)(SERVICE, now)
            count = 0
            batch: list[relay.Outgoing] = []
            for item in items:
                if batch and not self._joins(batch[-1], item):
                    count += await self._send_batch(batch, now)
                    batch = []
                batch.append(item)
            if batch:
                count += await self._send_batch(batch, now)
            return count

    @staticmethod
    def _joins(previous: relay.Outgoing, item: relay.Outgoing) -> bool:
        """Chat lines for one channel go out together."""
        return (
            not item.private
            and not previous.private
            and previous.to == item.to
            and previous.mark[0] == item.mark[0]
            and item.mark[0] in ("line", "side")
        )

    async def _send_batch(self, batch: list[relay.Outgoing], now: datetime | None = None) -> int:
        texts = [shown(item) for item in batch if item.text]
        sent = 0
        first = batch[0]
        given_up = ""  # why what was owed is not sent and will not be (a notice records it)
        if texts:
            try:
                target = await self._target(first)
                parts = chunks("\n".join(texts))
                for n, part in enumerate(parts, 1):
                    last = n == len(parts)
                    await self.post(target, part, view=taps.view_for(first) if last else None)
                    sent += 1
            except discord.NotFound:
                log.warning("%s is gone: giving up what was owed to it", first.to)
                given_up = "gone"
            except discord.Forbidden:
                log.warning("may not write to %s (private: %s)", first.to, first.private)
                given_up = "refused"
                if first.private:
                    await self._cannot_reach(first)
            except discord.HTTPException as error:
                log.warning("sending to %s failed (%s): will try again", first.to, error)
                return sent
        for item in batch:
            await sync_to_async(relay.sent)(item, given_up, now)
        return sent

    async def _cannot_reach(self, item: relay.Outgoing) -> None:
        """A player who refuses private messages hears it in the game's channel, once per
        letter, without anything secret: how to get their messages."""
        notice = await sync_to_async(relay.unreachable)(item)
        if notice is None:
            return
        channel_id, text = notice
        try:
            channel = self.get_channel(int(channel_id)) or await self.fetch_channel(int(channel_id))
            assert isinstance(channel, discord.abc.Messageable)  # one the player wrote in
            await self.post(channel, text)
        except discord.HTTPException:
            log.warning("could not tell channel %s about %s", channel_id, item.to)

    async def post(
        self, target: discord.abc.Messageable, text: str, *, view: discord.ui.View | None = None
    ) -> discord.Message:
        """Send one message, waiting out Discord's rate limit as often as it asks (issue 40
        item 5: a 429 must not lose a message); other failures are the caller's."""
        for attempt in range(RETRIES):
            try:
                if view is not None:
                    return await target.send(text, allowed_mentions=SILENT, view=view)
                return await target.send(text, allowed_mentions=SILENT)
            except discord.RateLimited as error:
                if attempt == RETRIES - 1:
                    raise
                wait = error.retry_after
            except discord.HTTPException as error:
                if error.status != 429 or attempt == RETRIES - 1:
                    raise
                wait = _retry_after(error)
            pause = wait if self.retry_pause is None else self.retry_pause
            log.info("rate limited: sending again in %.1f s", pause)
            await asyncio.sleep(pause)
        raise AssertionError("the last attempt raises")  # not reached

    async def _target(self, item: relay.Outgoing) -> discord.abc.Messageable:
        if item.private:
            return self.get_user(int(item.to)) or await self.fetch_user(int(item.to))
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
