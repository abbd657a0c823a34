"""The bot on a real server (issue 40 item 5), offline with dpytest: Discord's rate limits (a
429 loses no message), missing permissions said in the channel with what to grant, a second
bot process on the same token refused, and long messages split cleanly."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest
from asgiref.sync import sync_to_async
from discord.ext.test import backend

from games.chatbot import relay
from games.chatbot.discord_bot import WerewolfBot
from games.chatbot.splitting import LIMIT, chunks
from games.tables.models import Table

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann", "Ben", "Cat"]
_SEND = backend.FakeHttp.send_message


class RateLimits:
    """Discord answering 429 ("too many requests") to the next `count` messages sent."""

    count = 0
    refused = 0


@pytest.fixture
async def limits(monkeypatch: pytest.MonkeyPatch) -> RateLimits:
    found = RateLimits()

    async def send_message(http: backend.FakeHttp, channel_id: int, **kwargs: Any) -> Any:
        # dpytest reads the channel from its caller's locals: discord.py's, then this frame's.
        channel = backend._get_higher_locs(1)["channel"]  # noqa: F841
        if found.count:
            found.count -= 1
            found.refused += 1
            response = backend.FakeRequest(429, "Too Many Requests")
            raise discord.HTTPException(response, {"message": "slow down", "retry_after": 0})
        return await _SEND(http, channel_id, **kwargs)

    monkeypatch.setattr(backend.FakeHttp, "send_message", send_message)
    return found


@pytest.fixture
async def bot() -> AsyncIterator[WerewolfBot]:
    intents = discord.Intents.default()
    intents.message_content = True
    intents.members = True
    client = WerewolfBot(relay_in_background=False, intents=intents, retry_pause=0)
    await client._async_setup_hook()
    dpytest.configure(client, members=NAMES)
    yield client
    await dpytest.empty_queue()


def _contents() -> list[str]:
    found = []
    while not dpytest.sent_queue.empty():
        found.append(dpytest.get_message().content)
    return found


async def test_a_429_loses_no_reply_and_no_letter(bot: WerewolfBot, limits: RateLimits) -> None:
    config = dpytest.get_config()
    channel, members = config.channels[0], config.members
    await dpytest.message("!new forum", channel=channel, member=members[0])
    code = await sync_to_async(lambda: Table.objects.get().code)()
    _contents()
    limits.count = 1  # Discord refuses the bot's next message once
    await dpytest.message(f"!join {code}", channel=channel, member=members[1])
    said = _contents()
    assert limits.refused == 1
    assert sum("sat down in game" in text for text in said) == 1, said
    assert not any("Something went wrong" in text for text in said)


def test_long_lines_are_cut_between_words() -> None:
    words = " ".join(f"word{i}" for i in range(800))
    parts = chunks(words)
    assert all(len(p) <= LIMIT for p in parts)
    assert " ".join(parts) == words  # no word cut in two
    assert all(not p.startswith(" ") and not p.endswith(" ") for p in parts)


def test_a_second_bot_process_is_refused() -> None:
    assert relay.claim("discord", "first")
    assert not relay.claim("discord", "second")  # the first one is alive
    assert relay.claim("discord", "first")  # renewing is fine
    relay.release("discord", "first")
    assert relay.claim("discord", "second")


async def test_missing_manage_messages_is_said_once_in_the_channel(
    bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = dpytest.get_config()
    channel, members = config.channels[0], config.members
    await dpytest.message("!new forum", channel=channel, member=members[0])
    code = await sync_to_async(lambda: Table.objects.get().code)()

    async def refuse(self: discord.Message, **kwargs: object) -> None:
        raise discord.Forbidden(backend.FakeRequest(403, "Missing Permissions"), "no")

    monkeypatch.setattr(discord.Message, "delete", refuse)
    _contents()
    await dpytest.message(f"!night {code} Ann", channel=channel, member=members[0])
    await dpytest.message(f"!vote {code} Ann", channel=channel, member=members[0])
    said = _contents()
    grant = [text for text in said if "grant my role the Manage Messages" in text]
    assert len(grant) == 1
    assert sum("delete it yourself" in text for text in said) == 2


def test_the_command_refuses_to_start_a_second_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    monkeypatch.setenv("DISCORD_TOKEN", "x")
    assert relay.claim("discord", "the first process")
    with pytest.raises(CommandError, match="Another bot process already runs"):
        call_command("run_discord_bot")


async def test_a_bot_that_lost_its_lock_stops_sending(
    bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed = []

    async def close() -> None:  # dpytest has no gateway to close
        closed.append(True)

    monkeypatch.setattr(bot, "close", close)
    await sync_to_async(relay.claim)("discord", "another process")
    bot.holder = "this process"
    assert await bot.relay_once() == 0
    assert closed == [True]


def test_a_long_web_line_stays_quoted_in_every_part() -> None:
    """A web player's line longer than one message: each part is still marked as theirs, so
    the tail can never pass for the bot's own words."""
    from games.chatbot.discord_bot import shown

    line = relay.Outgoing(False, "1", "blah " * 900, ("line", 1, "1"), author="Eve")
    parts = chunks(shown(line))
    assert len(parts) > 1
    assert all(p.startswith(("**Eve** (web):", "> ")) for p in parts), [p[:20] for p in parts]


def test_a_menu_longer_than_discord_takes_is_split_over_rows() -> None:
    from games.chatbot import taps
    from games.tables.family import Tap

    many = tuple(Tap(f"P{i}", f"vote ABCD P{i}") for i in range(30))
    view = taps.view_for(relay.Outgoing(True, "1", "x", ("seat", 1, "ask"), menus=(many,)))
    assert view is not None
    offered = [o.value for item in view.children for o in getattr(item, "options", [])]
    assert offered == [t.command for t in many]


async def test_a_letter_discord_keeps_refusing_stays_owed(
    bot: WerewolfBot, limits: RateLimits
) -> None:
    """Past the retries a 429 leaves the letter owed: the next pass sends it, once."""
    from games.tables import services

    config = dpytest.get_config()
    channel, members = config.channels[0], config.members
    await dpytest.message("!new official", channel=channel, member=members[0])
    code = await sync_to_async(lambda: Table.objects.get().code)()
    for member in members[1:]:
        await dpytest.message(f"!join {code}", channel=channel, member=member)
    host = await sync_to_async(lambda: Table.objects.get().seats.get(is_host=True))()
    await sync_to_async(services.table_start)(host=host)  # dealt on the web: letters owed
    _contents()
    limits.count = 10**6
    assert await bot.relay_once() == 0
    owed = await sync_to_async(relay.pending)("discord")
    assert owed
    limits.count = 0
    assert await bot.relay_once() == len(owed)
    assert await bot.relay_once() == 0
