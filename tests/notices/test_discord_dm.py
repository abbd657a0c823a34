"""Notices by Discord direct message (issue 41, item 1): a seat linked to a Discord member (the
bot's `!link`) may choose them on its page; the notice is stored like any other and sent by the
bot process, through discord.py itself against dpytest's fake Discord (as tests/chatbot does).
The servers' own senders never send it; while the bot is down it stays owed and goes out when
the bot comes back; each goes once; a reminder waits for the end of the seat's quiet hours (and
replaces the bot's own fixed reminder); a seat that unticks them gets no more."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import discord
import discord.ext.test as dpytest
import pytest
from asgiref.sync import sync_to_async
from discord.ext.test import backend
from django.urls import reverse

from games.chatbot.discord_bot import WerewolfBot
from games.chatbot.linking import link_code
from games.chatbot.models import ChatAccount, SeatLink
from games.notices import owed, sender
from games.notices.models import Notice, Subscription
from games.tables import services
from tests.factories import fixed_shuffle, new_client

from .forum import START, Forum, open_forum

# Roles, sides and night actions of rules/001: none may appear in a notice.
ROLE_WORDS = (
    *("werewolf", "wolf", "seer", "protect", "lunatic", "village", "pack", "role"),
    *("affiliation", "investigat", "kill", "target", "eliminat"),
)
PARIS = ZoneInfo("Europe/Paris")
FOOTER = "untick them on your seat's page"


def _page_client(forum: Forum, name: str):  # type: ignore[no-untyped-def]
    client = new_client()
    client.get(reverse("rejoin", args=[forum.table.code, forum.seats[name].token]))
    return client


@pytest.mark.django_db
def test_a_linked_seat_chooses_direct_messages_on_its_page() -> None:
    forum = open_forum()
    with fixed_shuffle():
        services.table_start(host=forum.seats["Ann"], now=START)
    code = forum.table.code
    account = ChatAccount.objects.create(service="discord", user_id="4242", name="ann")
    SeatLink.objects.create(seat=forum.seats["Ann"], account=account)

    # A seat that is not linked is not offered them, and cannot ask for them.
    ben = _page_client(forum, "Ben")
    assert 'name="chat_dm"' not in ben.get(reverse("table", args=[code])).text
    fields = {"email": "", "remind": "360", "time_zone": "Europe/Paris", "chat_dm": "on"}
    refused = ben.post(reverse("notices_subscribe", args=[code]), fields)
    assert refused.status_code == 400 and "Link your seat" in refused.text
    assert not Subscription.objects.exists()

    ann = _page_client(forum, "Ann")
    page = ann.get(reverse("table", args=[code])).text
    assert 'name="chat_dm"' in page and "By direct message on Discord" in page
    assert ann.post(reverse("notices_subscribe", args=[code]), fields).status_code == 302
    mine = Subscription.objects.get(seat=forum.seats["Ann"])
    assert mine.chat_dm and mine.email == ""
    assert owed.channels_of(mine) == ["discord"]
    assert (
        "Direct messages come from the bot on Discord."
        in ann.get(reverse("table", args=[code])).text
    )
    # Unticked: no more.
    del fields["chat_dm"]
    assert ann.post(reverse("notices_subscribe", args=[code]), fields).status_code == 302
    assert owed.channels_of(Subscription.objects.get(pk=mine.pk)) == []


@pytest.fixture
async def bot() -> AsyncIterator[WerewolfBot]:
    intents = discord.Intents.default()
    intents.message_content = True
    intents.members = True  # dpytest's fake guild keeps its members in the member cache
    client = WerewolfBot(relay_in_background=False, intents=intents)
    await client._async_setup_hook()  # dpytest runs no gateway: set the loop up as login would
    dpytest.configure(client, members=["Ann"])
    yield client
    await dpytest.empty_queue()


def _direct_messages() -> list[str]:
    """Every message the bot sent since the last call (all are Ann's: she is the only member)."""
    out = []
    while not dpytest.sent_queue.empty():
        message = dpytest.get_message()
        assert isinstance(message.channel, discord.DMChannel)
        out.append(message.content)
    return out


@pytest.mark.django_db(transaction=True)
async def test_the_bot_sends_each_notice_once_even_after_being_down(bot: WerewolfBot) -> None:
    forum = await sync_to_async(open_forum)()
    code = forum.table.code
    member = dpytest.get_config().members[0]
    secret = await sync_to_async(link_code)(forum.seats["Ann"])
    await dpytest.message(f"!link {code} {secret}", channel=await member.create_dm(), member=member)
    assert "You play Ann" in _direct_messages()[-1]

    def choose_and_start() -> tuple[Subscription, datetime]:
        subscription = Subscription(seat=forum.seats["Ann"], chat_dm=True, time_zone="Europe/Paris")
        subscription.remind_minutes = 6 * 60
        owed.baseline(subscription, START)
        subscription.save()
        with fixed_shuffle():
            services.table_start(host=forum.seats["Ann"], now=START)
        table = forum.refresh()
        assert table.deadline is not None
        # Quiet hours from the reminder's hour for three hours (Paris): it waits until then.
        remind = (table.deadline - timedelta(hours=6)).astimezone(PARIS)
        subscription.quiet_from, subscription.quiet_to = remind.hour, (remind.hour + 3) % 24
        subscription.save()
        return subscription, table.deadline

    subscription, deadline = await sync_to_async(choose_and_start)()
    label = forum.table.phase_label
    game = f"Game {code}"

    def notices(texts: list[str]) -> list[str]:
        """The first lines of the notices among the bot's direct messages (the rest are the
        game's own letters to a linked seat, which say nothing of the notices' page)."""
        return [t.split("\n", 1)[0] for t in texts if FOOTER in t]

    # The bot is down: the servers' notice loop stores the notice but does not send it.
    assert await sync_to_async(owed.scan)(START) == 1
    assert await sync_to_async(sender.send_due)(START) == 0
    owed_row = await sync_to_async(Notice.objects.get)(seat=forum.seats["Ann"])
    assert owed_row.channel == "discord" and owed_row.sent_at is None

    # It comes back: the notice goes out once, however many passes follow.
    await bot.relay_once(now=START)
    first = _direct_messages()
    assert notices(first) == [f"**{game}: {label}**"]
    assert await bot.relay_once(now=START) == 0
    await bot.relay_once(now=START + timedelta(minutes=5))
    assert notices(_direct_messages()) == []
    sent_row = await sync_to_async(Notice.objects.get)(pk=owed_row.pk)
    assert sent_row.sent_at == START

    # The reminder is due six hours before the deadline, in the quiet hours: held until they
    # end. The bot's own fixed reminder gives way to the seat's choice.
    for hours in (6, 5, 4):
        await bot.relay_once(now=deadline - timedelta(hours=hours))
        assert _direct_messages() == [], hours
    await bot.relay_once(now=deadline - timedelta(hours=3))
    reminded = _direct_messages()
    assert notices(reminded) == [f"**{game}: {label} ends soon**"]
    await bot.relay_once(now=deadline - timedelta(hours=2))
    assert notices(_direct_messages()) == []

    # Every notice read: the game's public words and this seat's own news only.
    for text in [t for t in first + reminded if FOOTER in t]:
        assert not [w for w in ROLE_WORDS if w in text.lower()], text

    # Ann unticks them: what was owed and not yet sent is dropped, nothing more is owed.
    def untick_at_the_deadline() -> None:
        services.advance_due_tables(now=deadline)
        owed.scan(deadline)
        Subscription.objects.filter(pk=subscription.pk).update(chat_dm=False)

    await sync_to_async(untick_at_the_deadline)()
    await bot.relay_once(now=deadline)
    assert notices(_direct_messages()) == []
    rows = await sync_to_async(list)(Notice.objects.order_by("pk").values_list("kind", "dropped"))
    assert rows[-1] == ("phase", "unsubscribed") and len(rows) == 3


_SEND = backend.FakeHttp.send_message


@pytest.mark.django_db(transaction=True)
async def test_closed_direct_messages_drop_the_notice_and_an_outage_keeps_it(
    bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord failing for now (500) leaves the notice owed for the next pass; a member whose
    direct messages are closed to the bot (403) has it dropped, not tried forever."""
    answer: dict[str, int] = {"status": 200}

    async def send_message(http: backend.FakeHttp, channel_id: int, **kwargs: Any) -> Any:
        # dpytest reads the channel from its caller's locals: discord.py's, then this frame's.
        channel = backend._get_higher_locs(1)["channel"]  # noqa: F841
        if answer["status"] == 403:
            raise discord.Forbidden(backend.FakeRequest(403, "Cannot send to this user"), "no")
        if answer["status"] == 500:
            raise discord.HTTPException(backend.FakeRequest(500, "Server Error"), "down")
        return await _SEND(http, channel_id, **kwargs)

    monkeypatch.setattr(backend.FakeHttp, "send_message", send_message)
    forum = await sync_to_async(open_forum)()
    code = forum.table.code
    member = dpytest.get_config().members[0]
    secret = await sync_to_async(link_code)(forum.seats["Ann"])
    await dpytest.message(f"!link {code} {secret}", channel=await member.create_dm(), member=member)
    _direct_messages()

    def choose_and_start() -> datetime:
        subscription = Subscription(seat=forum.seats["Ann"], chat_dm=True, time_zone="UTC")
        owed.baseline(subscription, START)
        subscription.save()
        with fixed_shuffle():
            services.table_start(host=forum.seats["Ann"], now=START)
        deadline = forum.refresh().deadline
        assert deadline is not None
        return deadline

    deadline = await sync_to_async(choose_and_start)()
    answer["status"] = 500
    await bot.relay_once(now=START)
    assert _direct_messages() == []
    waiting = await sync_to_async(Notice.objects.get)(seat=forum.seats["Ann"])
    assert (waiting.sent_at, waiting.dropped) == (None, "")
    answer["status"] = 200
    await bot.relay_once(now=START)
    assert len([t for t in _direct_messages() if FOOTER in t]) == 1

    answer["status"] = 403
    await bot.relay_once(now=deadline)  # the bot fires the deadline: the next step's notice
    answer["status"] = 200
    await bot.relay_once(now=deadline)
    assert [t for t in _direct_messages() if FOOTER in t] == []
    rows = await sync_to_async(list)(Notice.objects.order_by("pk").values_list("kind", "dropped"))
    assert rows == [("phase", ""), ("phase", "refused")]
