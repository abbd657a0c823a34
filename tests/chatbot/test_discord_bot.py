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


_LOGS_FROM = backend.FakeHttp.logs_from


async def _logs_after(
    http: backend.FakeHttp,
    channel_id: int,
    limit: int,
    before: int | None = None,
    after: int | None = None,
    around: int | None = None,
) -> list[dict[str, object]]:
    """A channel's history as Discord answers it when asked for what follows a message: only
    the messages after `after` (which need not be a message's id: a time's), the `limit` oldest
    of them, newest first. dpytest's own answer starts at the message whose id is `after`."""
    if after is None:
        return await _LOGS_FROM(http, channel_id, limit, before=before, around=around)
    every = await _LOGS_FROM(http, channel_id, 10**9)
    return [m for m in every if int(m["id"]) > after][:limit][::-1]


@pytest.fixture
async def bot(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[WerewolfBot]:
    monkeypatch.setattr(backend.FakeHttp, "logs_from", _logs_after)
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
    target = backend.make_message(f"!target {code} nobody", discord_.members["Ann"], dm)
    talk = backend.make_message("is it day yet?", discord_.members["Ben"], discord_.channel)
    state.start_dispatch()
    table = await sync_to_async(Table.objects.get)(code=code)
    assert "Ann" not in (table.state.get("actions") or {})
    assert await bot.catch_up_messages() >= 2
    table = await sync_to_async(Table.objects.get)(code=code)
    assert "Ann" in table.state["actions"]  # her !target counted
    # Both are marked handled: the next restart starts after them.
    channels, accounts = await sync_to_async(relay.missed)("discord")
    assert (str(discord_.channel.id), talk.id) in channels
    assert (str(discord_.members["Ann"].id), target.id) in [(u, a) for u, a, _ in accounts]
    discord_.collect()
    assert "closed during the night" in discord_.dms["Ben"][-1]  # and Ben's night talk removed


def test_a_web_line_cannot_pass_for_the_bot_or_ping_anyone() -> None:
    from games.chatbot.discord_bot import SILENT, shown
    from games.chatbot.relay import Outgoing

    line = Outgoing(False, "1", "hi @everyone\n» Dawn: Ben died", ("line", 1, "1"), author="Eve_*")
    text = shown(line)
    assert text.startswith("**Eve\\_\\***") and "\n> » Dawn: Ben died" in text
    assert not SILENT.everyone and not SILENT.users and not SILENT.roles


async def _start_seer_game(discord_: Discord) -> str:
    """Ann opens an official game in the channel and Ben and Cat join it there; Ann deals
    the seer to herself, the robber to Ben, the werewolf to Cat. Nobody has written to the bot
    privately."""
    code = await discord_.open_game(("Ann", "Ben", "Cat"))
    table = await sync_to_async(Table.objects.get)(code=code)
    deck = ["seer", "robber", "werewolf", "villager", "villager", "drunk"]
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(
        options={**table.options, "deck": deck}
    )
    with fixed_shuffle():
        await discord_.say("Ann", f"!start {code}")
    return code


def _written_while_down(discord_: Discord, name: str, text: str) -> discord.Message:
    """`name` sends `text` to the bot privately while it is down: Discord keeps it, nobody
    hands it to the bot."""
    state = backend.get_state()
    state.stop_dispatch()
    try:
        member = discord_.members[name]
        dm = member.dm_channel
        assert dm is not None
        return backend.make_message(text, member, dm)
    finally:
        state.start_dispatch()


async def test_a_night_action_sent_while_down_by_a_member_who_never_wrote_privately_counts(
    bot: WerewolfBot,
) -> None:
    """Issue 40, defect 1: Ben joined in the channel and never wrote to the bot privately; his
    `!target`, sent by DM while the bot was down, is read when it comes back and answered."""
    discord_ = Discord()
    code = await _start_seer_game(discord_)
    assert f"!target {code}" in discord_.inbox("Ben")  # his night letter came by DM
    _written_while_down(discord_, "Ben", f"!target {code} Cat")
    read = await bot.catch_up_messages()
    table = await sync_to_async(Table.objects.get)(code=code)
    assert table.state["actions"]["Ben"]["targets"] == ["Cat"]
    assert read == 1  # the players' messages: the bot's own are not handled
    discord_.collect()
    assert "Your action is in." in discord_.dms["Ben"][-1]
    # Handled once: the next restart starts after it.
    assert await bot.catch_up_messages() == 0


async def test_one_failed_lookup_does_not_stop_the_catch_up(
    bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40, defect 1: Discord failing to give one member (a 500, not a 404 or 403) leaves
    that member's messages for the next start; everyone else's are read now."""
    discord_ = Discord()
    code = await _start_seer_game(discord_)
    await discord_.say("Ann", f"!role {code}", private=True)
    await discord_.say("Ben", f"!role {code}", private=True)
    _written_while_down(discord_, "Ann", f"!target {code} Ben")
    _written_while_down(discord_, "Ben", f"!target {code} Cat")
    ann = discord_.members["Ann"].id
    lookup, fetch = bot.get_user, bot.fetch_user

    def get_user(user_id: int) -> discord.User | None:
        return None if user_id == ann else lookup(user_id)

    async def fetch_user(user_id: int) -> discord.User:
        if user_id == ann:
            raise discord.HTTPException(backend.FakeRequest(500, "Server Error"), "try later")
        return await fetch(user_id)

    monkeypatch.setattr(bot, "get_user", get_user)
    monkeypatch.setattr(bot, "fetch_user", fetch_user)
    assert await bot.catch_up_messages() == 1
    table = await sync_to_async(Table.objects.get)(code=code)
    assert "Ann" not in table.state["actions"] and "Ben" in table.state["actions"]
    monkeypatch.setattr(bot, "get_user", lookup)  # Discord answers again at the next start
    assert await bot.catch_up_messages() == 1
    table = await sync_to_async(Table.objects.get)(code=code)
    assert table.state["actions"]["Ann"]["targets"] == ["Ben"]


async def test_a_vampire_night_on_discord_and_the_marks_come_by_dm(bot: WerewolfBot) -> None:
    """Issue 42: the Count's two names (the pick, then the Mark of Fear) and Cupid's two lovers
    by DM; each seat's mark after the night comes in its own DM, never in the channel."""
    discord_ = Discord()
    code = await discord_.open_game(tuple(NAMES))
    table = await sync_to_async(Table.objects.get)(code=code)
    deck = ["the_count", "vampire", "cupid", "diseased", "seer", "villager", "werewolf", "robber"]
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(
        options={**table.options, "deck": deck}
    )
    with fixed_shuffle():
        await discord_.say("Ann", f"!start {code}")
    discord_.collect()
    assert f"`!target {code} <pick> <fear>`" in discord_.inbox("Ann")
    await discord_.say("Ann", f"!target {code} Cat", private=True)
    assert "nothing was sent" in discord_.dms["Ann"][-1]
    for name, words in (
        ("Ann", "Cat Dan"),
        ("Ben", "Cat"),
        ("Cat", "Cat, Eve"),
        ("Dan", "Eve"),
        ("Eve", "Ann"),
    ):
        await discord_.say(name, f"!target {code} {words}", private=True)
    table = await sync_to_async(Table.objects.get)(code=code)
    assert table.phase == "day"
    await bot.relay_once()
    discord_.collect()
    assert "At the end of dusk your mark was the Mark of Fear." in discord_.inbox("Dan")
    for name in NAMES:
        assert "At the end of dusk your mark was the" in discord_.inbox(name), name
    assert not any("Mark of" in post or "your mark" in post for post in discord_.posts)
