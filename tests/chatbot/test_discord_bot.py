"""The Discord bot through discord.py itself, offline, with dpytest's fake Discord (issue 29): a
whole One Night game played by fake members: role messages by DM, `!target` for every role with
an action, a `!target` written in the channel deleted and refused, the day's chat and countdown
in the game's channel, `!vote` by DM, and the reveal posted."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator

import discord
import discord.ext.test as dpytest
import pytest
from asgiref.sync import sync_to_async
from discord.ext.test import backend

from games.chatbot import relay
from games.chatbot.discord_bot import WerewolfBot, chunks
from games.tables.models import ChatLine, Table
from tests.factories import fixed_shuffle

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]
# Official rules: the Doppelganger copies the robber; the werewolf is alone among the players.
DECK = [
    "doppelganger",
    "werewolf",
    "seer",
    "troublemaker",
    "insomniac",
    "villager",
    "drunk",
    "minion",
]


class Discord:
    """What the fake members see: their DMs and the channel, as the bot sent them."""

    def __init__(self) -> None:
        config = dpytest.get_config()
        self.channel = config.channels[0]
        self.members = {}
        for name, member in zip(NAMES, config.members, strict=True):
            self.members[name] = backend.update_member(member, nick=name)
        self.dms: dict[str, list[str]] = defaultdict(list)
        self.posts: list[str] = []
        self.dm_names: dict[int, str] = {}

    async def open_dms(self) -> None:
        """dpytest's DM channels do not know their recipient: remember whose each one is."""
        for name, member in self.members.items():
            self.dm_names[(await member.create_dm()).id] = name

    def collect(self) -> None:
        while not dpytest.sent_queue.empty():
            message = dpytest.get_message()
            if isinstance(message.channel, discord.DMChannel):
                self.dms[self.dm_names[message.channel.id]].append(message.content)
            else:
                self.posts.append(message.content)

    async def say(self, name: str, text: str, *, private: bool = False) -> discord.Message:
        member = self.members[name]
        channel = await member.create_dm() if private else self.channel
        message = await dpytest.message(text, channel=channel, member=member)
        self.collect()
        return message

    async def open_game(self, names: tuple[str, ...]) -> str:
        """The first of `names` opens an official game in the channel; the others join it.
        Returns its code."""
        await self.open_dms()
        await self.say(names[0], "!new official")
        code = await sync_to_async(lambda: Table.objects.get().code)()
        for name in names[1:]:
            await self.say(name, f"!join {code}")
        return code

    def inbox(self, name: str) -> str:
        return "\n".join(self.dms[name])


@pytest.fixture
async def bot() -> AsyncIterator[WerewolfBot]:
    intents = discord.Intents.default()
    intents.message_content = True
    intents.members = True  # dpytest's fake guild keeps its members in the member cache
    client = WerewolfBot(relay_in_background=False, intents=intents)
    await client._async_setup_hook()  # dpytest runs no gateway: set the loop up as login would
    dpytest.configure(client, members=NAMES)
    yield client
    await dpytest.empty_queue()


async def test_a_whole_game_on_discord(bot: WerewolfBot) -> None:
    discord_ = Discord()
    await discord_.open_dms()
    await discord_.say("Ann", "!new official")
    code = await sync_to_async(lambda: Table.objects.get().code)()
    assert any(f"**{code}**" in post for post in discord_.posts)
    for name in NAMES[1:]:
        await discord_.say(name, f"!join {code}")
    table = await sync_to_async(Table.objects.get)(code=code)
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(
        options={**table.options, "deck": DECK}
    )
    with fixed_shuffle():
        await discord_.say("Ann", f"!start {code}")
    discord_.collect()
    # Role messages and the night's instructions, by DM.
    assert "Doppelganger" in discord_.inbox("Ann") and f"!target {code}" in discord_.inbox("Ann")
    assert "You are the Werewolf" in discord_.inbox("Ben") or "Werewolf" in discord_.inbox("Ben")
    assert "You are the Seer" in discord_.inbox("Cat")
    # A !target in the channel is deleted and refused.
    message = await discord_.say("Cat", f"!target {code} Ben")
    history = [m.id async for m in discord_.channel.history(limit=100)]
    assert message.id not in history
    assert "private message" in discord_.dms["Cat"][-1]
    # The night, by DM: every role with an action.
    await discord_.say("Ann", f"!target {code} Dan", private=True)  # copies the troublemaker...
    assert "Troublemaker" in discord_.inbox("Ann")
    await discord_.say("Ann", f"!target {code} Ben, Cat", private=True)  # ...and swaps
    await discord_.say("Ben", f"!target {code} left", private=True)  # the lone wolf peeks
    await discord_.say("Cat", f"!target {code} Ben", private=True)  # the seer
    await discord_.say("Dan", f"!target {code} Eve, Ann", private=True)  # the troublemaker
    await discord_.say("Eve", f"!target {code}", private=True)  # the insomniac wakes last
    table = await sync_to_async(Table.objects.get)(code=code)
    assert table.phase == "day"
    assert "You looked at Ben's card: it is the Seer." in discord_.inbox("Cat")  # swapped first
    assert "You woke at the end of the night" in discord_.inbox("Eve")
    # The day: the countdown and the chat in the channel.
    assert any(post.startswith("The day ends <t:") for post in discord_.posts)
    await discord_.say("Cat", "I saw something interesting about Ben")
    line = await sync_to_async(ChatLine.objects.get)(table=table, author="Cat")
    assert line.via == "discord"
    for name in NAMES:
        await discord_.say(name, f"!ready {code}")
    assert any("Vote in secret" in m for m in discord_.dms["Ben"])
    # The votes, by DM; the reveal in the channel.
    for name in NAMES:
        await discord_.say(name, f"!vote {code} {'Ben' if name != 'Ben' else 'Cat'}", private=True)
    table = await sync_to_async(Table.objects.get)(code=code)
    assert table.stage == "over"
    reveal = "\n".join(p for p in discord_.posts if "the reveal" in p or p.startswith("- "))
    assert f"**Game {code}: the reveal**" in reveal and "Died: Ben." in reveal
    assert await bot.relay_once() == 0  # everything told once


async def test_a_web_line_reaches_the_channel_and_a_restart_sends_what_was_owed(
    bot: WerewolfBot,
) -> None:
    discord_ = Discord()
    code = await discord_.open_game(("Ann", "Ben", "Cat"))
    table = await sync_to_async(Table.objects.get)(code=code)
    # The bot is down while the host deals on the web: nothing is lost, it is sent on return.
    from games.tables import services

    host = await sync_to_async(lambda: table.seats.get(is_host=True))()
    await sync_to_async(services.table_start)(host=host)
    assert "Game" not in discord_.inbox("Ben")
    assert await bot.relay_once() >= 6  # role and night letters for three players
    discord_.collect()
    assert f"!target {code}" in discord_.inbox("Ben")


def test_long_messages_are_cut_at_line_ends() -> None:
    text = "\n".join(f"line {i} " + "x" * 90 for i in range(60))
    parts = chunks(text)
    assert all(len(p) <= 1900 for p in parts) and "\n".join(parts) == text
    assert chunks("y" * 4000) == ["y" * 1900, "y" * 1900, "y" * 200]


async def test_messages_sent_while_the_bot_was_down_are_handled_when_it_returns(
    bot: WerewolfBot,
) -> None:
    discord_ = Discord()
    code = await discord_.open_game(("Ann", "Ben", "Cat"))
    await discord_.say("Ann", f"!start {code}")
    await discord_.say("Ann", f"!role {code}", private=True)  # handled: the bot knows her DMs
    # The bot is down: Discord keeps the messages, nobody hands them to the bot.
    state = backend.get_state()
    state.stop_dispatch()
    dm = await discord_.members["Ann"].create_dm()
    target = backend.make_message(f"!target {code}", discord_.members["Ann"], dm)
    talk = backend.make_message("is it day yet?", discord_.members["Ben"], discord_.channel)
    state.start_dispatch()
    table = await sync_to_async(Table.objects.get)(code=code)
    assert "Ann" not in (table.state.get("actions") or {})
    assert await bot.catch_up_messages() >= 2
    table = await sync_to_async(Table.objects.get)(code=code)
    assert "Ann" in table.state["actions"]  # her !target counted
    # Both are marked handled: the next restart starts after them (dpytest's fake history
    # cannot be asked for what follows the last message, as Discord can).
    channels, accounts = await sync_to_async(relay.missed)("discord")
    assert (str(discord_.channel.id), talk.id) in channels
    assert (str(discord_.members["Ann"].id), target.id) in accounts
    discord_.collect()
    assert "closed during the night" in discord_.dms["Ben"][-1]  # and Ben's night talk removed


def test_a_web_line_cannot_pass_for_the_bot_or_ping_anyone() -> None:
    from games.chatbot.discord_bot import SILENT, shown
    from games.chatbot.relay import Outgoing

    line = Outgoing(False, "1", "hi @everyone\n» Dawn: Ben died", ("line", 1, "1"), author="Eve_*")
    text = shown(line)
    assert text.startswith("**Eve\\_\\***") and "\n> » Dawn: Ben died" in text
    assert not SILENT.everyone and not SILENT.users and not SILENT.roles
