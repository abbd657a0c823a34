"""The game page's websocket (games/consumers.py), driven through channels' test communicator.

Protocol (static/js/game.js): the server sends "hello", "chat", "status", "error", "sent" and
"pong"; the client sends {"type": "chat", "text"}, {"type": "sync", "after"} and
{"type": "ping"}. Every change is made through games/services, as the pages do, and reaches the
sockets through the in-memory channel layer after the service's transaction commits.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db.utils import OperationalError
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe

from games import consumers, engine, selectors, services, worker
from games.broadcast import game_group
from games.engine.messages import RoleMessage, night_report, role_message
from games.models import ChatMessage, Game, NightAction, Phase, Seat
from games.selectors import TableStatus
from tests.factories import (
    Table,
    cast_votes,
    client_for,
    create_lobby,
    default_action,
    play_night,
    play_to,
    send_action,
    start_with_deal,
)
from tests.realtime.helpers import (
    QUIET,
    WAIT,
    Frame,
    SocketOpener,
    expect_closed,
    fresh_websocket_stack,
    is_chat_from,
    is_status,
    new_session,
    receive_n,
    receive_until,
    send_chat,
    visible_text,
)

pytestmark = pytest.mark.django_db(transaction=True)

db = database_sync_to_async
TRIO = ("Ann", "Ben", "Cat")
OTHERS = ("Uma", "Vic", "Wes")
THREE = {
    "Ann": "werewolf",
    "Ben": "seer",
    "Cat": "robber",
    "left": "troublemaker",
    "middle": "villager",
    "right": "drunk",
}
# Ben (the seer) looks at Ann's card: his night report names her card.
SEER_LOOKS_AT_ANN = {"Ben": ["Ann"]}
CLOSED_MESSAGE = "The chat is closed during the night and the vote."
QUOTE_REFUSED = "word for word"


def table_in(phase: str) -> Table:
    """Ann (host), Ben and Cat in `phase`, with the THREE deal once started."""
    if phase == Phase.LOBBY:
        return create_lobby(TRIO)
    return play_to(phase, THREE, actions=SEER_LOOKS_AT_ANN)


def seat_lines(game_id: int) -> list[tuple[str, str]]:
    """The players' chat lines of a game (moderator notes left out), as (name, text)."""
    return [
        (m.seat.name, m.text)
        for m in ChatMessage.objects.filter(game_id=game_id, seat__isnull=False)
        .select_related("seat")
        .order_by("id")
    ]


def private_messages(table: Table, name: str) -> tuple[RoleMessage, tuple[str, ...]]:
    """What the moderator told `name` privately: its role message and night report."""
    game = Game.objects.get(pk=table.game.pk)
    seats = list(game.seats.order_by("position"))
    centre = list(game.centre_cards.all())
    deal = services.deal_of(game, seats, centre)
    names = {s.pk: s.name for s in seats}
    actions = {names[a.seat_id]: a.targets for a in NightAction.objects.filter(game=game)}
    night = engine.resolve_night(deal, actions)
    return role_message(deal, name), night_report(night, name)


def mangle(text: str) -> str:
    """The same words with other capitals, punctuation and spacing."""
    tokens = text.replace("'", "\u2019").split()
    changed = [t.upper() if i % 2 else t.lower() for i, t in enumerate(tokens)]
    return "  ".join(changed).replace(",", " ;").replace(".", "!!").replace(":", " -- ")


def parse_iso(value: str) -> datetime:
    parsed = datetime.fromisoformat(value)
    assert parsed.tzinfo is not None, value
    return parsed


# --- Who may connect --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "session_for",
    [
        pytest.param(lambda table: None, id="no-cookie"),
        pytest.param(lambda table: {}, id="session-without-seats"),
        pytest.param(lambda table: {"seats": "not-a-dict"}, id="seats-not-a-dict"),
        pytest.param(lambda table: {"seats": {table.code: 1}}, id="token-not-a-string"),
        pytest.param(lambda table: {"seats": {table.code: "made-up"}}, id="unknown-token"),
    ],
)
async def test_without_a_seat_the_socket_is_accepted_then_closed_4403(
    sockets: SocketOpener, session_for: Callable[[Table], dict[str, Any] | None]
) -> None:
    table = await db(create_lobby)(TRIO)
    comm = await sockets.open(table.code, session_for(table))
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)


async def test_garbage_session_cookie_is_closed_4403(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    comm = sockets.communicator(table.code, cookie="sessionid=made-up-session-key")
    connected, _ = await comm.connect(timeout=WAIT)
    assert connected
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)


async def test_a_seat_of_another_game_is_closed_4403(sockets: SocketOpener) -> None:
    mine = await db(create_lobby)(TRIO)
    other = await db(create_lobby)(OTHERS)
    # The other game's seat, presented under this game's code.
    comm = await sockets.open(mine.code, {"seats": {mine.code: other.seats["Uma"].token}})
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)
    # A valid seat of the other game, while connecting to this game.
    comm = await sockets.open(mine.code, {"seats": {other.code: other.seats["Uma"].token}})
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)
    # A game code that does not exist at all.
    comm = await sockets.open("NOSUCHGAME", {"seats": {mine.code: mine.seats["Ann"].token}})
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)


async def test_a_removed_seat_is_closed_4403(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    await db(services.seat_remove)(host=table.seats["Ann"], seat_id=table.seats["Ben"].pk)
    comm = await sockets.open(table.code, {"seats": {table.code: table.seats["Ben"].token}})
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)


async def test_removed_while_connected_the_socket_is_closed_and_the_others_are_told(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    await db(services.seat_remove)(host=table.seats["Ann"], seat_id=table.seats["Ben"].pk)
    await expect_closed(ben, consumers.CLOSE_NOT_SEATED)
    status, _ = await receive_until(ann, is_status(Phase.LOBBY))
    assert "Ben" not in visible_text(status["html"])
    assert "Cat" in visible_text(status["html"])


async def test_a_seat_deleted_behind_the_consumers_back_is_closed_when_it_chats(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    cat, _ = await sockets.seat(table, "Cat")
    await db(lambda: Seat.objects.filter(pk=table.seats["Cat"].pk).delete())()
    await cat.send_json_to({"type": "chat", "text": "still here?"})
    await expect_closed(cat, consumers.CLOSE_NOT_SEATED)
    assert await db(seat_lines)(table.game.pk) == []


async def test_the_sites_own_origin_is_accepted(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    _, hello = await sockets.seat(table, "Ann")  # Host testserver, Origin http://testserver
    assert hello["phase"] == Phase.LOBBY


@pytest.mark.parametrize(
    ("origin", "host"),
    [
        pytest.param(b"http://evil.example", b"testserver", id="foreign-origin"),
        pytest.param(None, b"testserver", id="no-origin"),
        pytest.param(b"null", b"testserver", id="null-origin"),
        pytest.param(b"http://testserver:8000", b"testserver", id="other-port"),
        pytest.param(b"http://testserver.evil.example", b"testserver", id="lookalike"),
    ],
)
async def test_a_socket_from_another_origin_is_refused_even_in_laptop_mode(
    sockets: SocketOpener, origin: bytes | None, host: bytes
) -> None:
    """ALLOWED_HOSTS is "*" on a laptop; the origin must still be the host itself
    (games/origin.py), or any web page could open a socket with a player's cookies."""
    table = await db(create_lobby)(TRIO)
    key = await db(new_session)({"seats": {table.code: table.seats["Ann"].token}})
    comm = sockets.communicator(table.code, cookie=f"sessionid={key}", origin=origin, host=host)
    connected, _ = await comm.connect(timeout=WAIT)
    assert not connected


async def test_a_host_outside_allowed_hosts_is_refused(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    key = await db(new_session)({"seats": {table.code: table.seats["Ann"].token}})
    with override_settings(ALLOWED_HOSTS=["onenight.example"]):
        app = fresh_websocket_stack()
        evil = sockets.communicator(
            table.code,
            cookie=f"sessionid={key}",
            origin=b"http://evil.example",
            host=b"evil.example",
            app=app,
        )
        connected, _ = await evil.connect(timeout=WAIT)
        assert not connected
        good = sockets.communicator(
            table.code,
            cookie=f"sessionid={key}",
            origin=b"https://onenight.example",
            host=b"onenight.example",
            app=app,
        )
        connected, _ = await good.connect(timeout=WAIT)
        assert connected
        assert (await good.receive_json_from(timeout=WAIT))["type"] == "hello"


# --- Hello ------------------------------------------------------------------------------------


async def test_a_seated_player_gets_hello_with_the_phase_and_the_history(
    sockets: SocketOpener,
) -> None:
    def setup() -> tuple[Table, list[ChatMessage]]:
        table = create_lobby(TRIO)
        lines = [
            services.chat_post(seat=table.seat("Ann"), text="Hi all"),
            services.chat_post(seat=table.seat("Ben"), text="Hello Ann"),
        ]
        return table, lines

    table, lines = await db(setup)()
    before = timezone.now()
    # The code in the address is case-insensitive (the page may be typed in lower case).
    _, hello = await sockets.seat(table, "Ben", path_code=table.code.lower())
    assert hello["phase"] == Phase.LOBBY
    assert hello["chat_open"] is True
    assert hello["deadline"] is None
    assert abs(parse_iso(hello["now"]) - before) < timedelta(seconds=5)
    assert hello["history"] == [
        {
            "id": lines[0].pk,
            "seat_id": table.seats["Ann"].pk,
            "name": "Ann",
            "note": False,
            "text": "Hi all",
            "sent_at": lines[0].sent_at.isoformat(),
            "mine": False,
        },
        {
            "id": lines[1].pk,
            "seat_id": table.seats["Ben"].pk,
            "name": "Ben",
            "note": False,
            "text": "Hello Ann",
            "sent_at": lines[1].sent_at.isoformat(),
            "mine": True,
        },
    ]


async def test_hello_at_night_has_the_deadline_and_a_closed_chat(sockets: SocketOpener) -> None:
    def setup() -> Table:
        return start_with_deal(create_lobby(TRIO, night_minutes=5), THREE)

    table = await db(setup)()
    _, hello = await sockets.seat(table, "Cat")
    assert hello["phase"] == Phase.NIGHT
    assert hello["chat_open"] is False
    assert table.game.deadline is not None
    assert parse_iso(hello["deadline"]) == table.game.deadline
    # The moderator's note about the night is public history.
    assert [(h["name"], h["note"], h["mine"]) for h in hello["history"]] == [
        ("Moderator", True, False)
    ]


# --- Chat delivery and refusal ----------------------------------------------------------------


@pytest.mark.parametrize("phase", [Phase.LOBBY, Phase.DAY, Phase.REVEAL])
async def test_chat_reaches_every_seat_of_the_game_and_only_that_game(
    sockets: SocketOpener, phase: str
) -> None:
    table = await db(table_in)(phase)
    other = await db(create_lobby)(OTHERS)
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    cat, _ = await sockets.seat(table, "Cat")
    uma, _ = await sockets.seat(other, "Uma")

    assert await send_chat(ann, "  Good morning, town!  ") == {"type": "sent"}

    stored = await db(
        lambda: ChatMessage.objects.filter(game=table.game, seat__isnull=False).get()
    )()
    assert stored.text == "Good morning, town!"
    assert stored.phase == phase
    expected = {
        "type": "chat",
        "id": stored.pk,
        "name": "Ann",
        "note": False,
        "text": "Good morning, town!",
        "sent_at": stored.sent_at.isoformat(),
    }
    for comm, mine in ((ann, True), (ben, False), (cat, False)):
        frame, skipped = await receive_until(comm, is_chat_from("Ann"))
        assert frame == {**expected, "mine": mine}
        assert all(f["type"] != "chat" for f in skipped[:-1])
    # Nothing else arrives: no second copy, and nothing at all for the other game's page.
    quiet = await asyncio.gather(*(c.receive_nothing(QUIET) for c in (ann, ben, cat, uma)))
    assert quiet == [True, True, True, True]


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.VOTING])
async def test_chat_is_refused_at_night_and_during_the_vote(
    sockets: SocketOpener, phase: str
) -> None:
    table = await db(table_in)(phase)
    ann, hello = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    assert hello["chat_open"] is False
    assert await send_chat(ann, "psst, I am the seer") == {
        "type": "error",
        "message": CLOSED_MESSAGE,
    }
    assert await db(seat_lines)(table.game.pk) == []
    assert await ann.receive_nothing(QUIET)
    assert await ben.receive_nothing(QUIET)


async def test_chat_length_limit(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    limit = services.CHAT_MAX_LENGTH
    assert limit == 500
    assert await send_chat(ann, "x" * (limit + 1)) == {
        "type": "error",
        "message": "Messages are limited to 500 characters.",
    }
    assert await send_chat(ann, "y" * limit) == {"type": "sent"}
    # Surrounding spaces are trimmed before the length is checked.
    assert await send_chat(ann, "  " + "z" * limit + "  ") == {"type": "sent"}
    assert await db(seat_lines)(table.game.pk) == [("Ann", "y" * limit), ("Ann", "z" * limit)]


@pytest.mark.parametrize("text", ["", "   ", "\n\t  \r\n", "\u200b\u200b", "\x00\x07"])
async def test_empty_and_blank_messages_are_refused(sockets: SocketOpener, text: str) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    assert await send_chat(ann, text) == {"type": "error", "message": "Type a message first."}
    assert await db(seat_lines)(table.game.pk) == []
    assert await ben.receive_nothing(QUIET)


@pytest.mark.parametrize("text", [42, 1.5, None, True, ["hi"], {"text": "hi"}])
async def test_non_string_text_is_refused(sockets: SocketOpener, text: object) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    assert await send_chat(ann, text) == {
        "type": "error",
        "message": "A chat message must be text.",
    }
    # A chat message without any "text" at all.
    await ann.send_json_to({"type": "chat"})
    assert await ann.receive_json_from(timeout=WAIT) == {
        "type": "error",
        "message": "A chat message must be text.",
    }
    assert await db(seat_lines)(table.game.pk) == []


RAW_HTML = '<script>alert("x")</script><b>bold</b> & <img src=x onerror=alert(1)>'


async def test_html_in_chat_travels_as_plain_text(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    assert await send_chat(ann, RAW_HTML) == {"type": "sent"}
    frame, _ = await receive_until(ben, is_chat_from("Ann"))
    assert frame["text"] == RAW_HTML  # the page puts it in with textContent
    assert await db(seat_lines)(table.game.pk) == [("Ann", RAW_HTML)]
    _, hello = await sockets.seat(table, "Cat")
    assert [h["text"] for h in hello["history"]] == [RAW_HTML]


def test_the_game_page_escapes_html_in_the_chat_history() -> None:
    table = create_lobby(TRIO)
    services.chat_post(seat=table.seat("Ann"), text=RAW_HTML)
    response = client_for(table, "Ben").get(reverse("game", args=[table.code]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt; &amp;" in page
    assert "<script>alert(" not in page
    assert "<b>bold</b>" not in page
    assert "<img src=x" not in page


async def test_the_sixth_message_within_ten_seconds_is_refused(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    assert (services.CHAT_BURST, services.CHAT_WINDOW) == (5, 10)
    for i in range(1, 6):
        assert await send_chat(ann, f"message {i}") == {"type": "sent"}
    assert await send_chat(ann, "message 6") == {
        "type": "error",
        "message": "Slow down: at most 5 messages every 10 seconds.",
    }
    lines = await db(seat_lines)(table.game.pk)
    assert lines == [("Ann", f"message {i}") for i in range(1, 6)]
    received = [f["text"] for f in await receive_n(ben, 5)]
    assert received == [f"message {i}" for i in range(1, 6)]
    assert await ben.receive_nothing(QUIET)
    # The limit is per seat: Ben may still talk.
    assert await send_chat(ben, "calm down, Ann") == {"type": "sent"}
    # Once the window has passed, Ann may talk again (her lines are moved 11 s into the past).
    await db(
        lambda: ChatMessage.objects.filter(seat_id=table.seats["Ann"].pk).update(
            sent_at=timezone.now() - timedelta(seconds=11)
        )
    )()
    assert await send_chat(ann, "sorry") == {"type": "sent"}


# --- Quoting the moderator's private messages (rules/000 s5c) ---------------------------------


async def day_table_with_private_texts() -> tuple[Table, dict[str, Any]]:
    table = await db(table_in)(Phase.DAY)
    ben_role, ben_report = await db(private_messages)(table, "Ben")
    ann_role, ann_report = await db(private_messages)(table, "Ann")
    assert ben_role.heading == "You are the Seer."
    assert ben_report == ("You looked at Ann's card: it is the Werewolf.",)
    return table, {
        "ben_role": ben_role,
        "ben_report": ben_report,
        "ann_role": ann_role,
        "ann_report": ann_report,
    }


def quote_variants(role: RoleMessage, report: tuple[str, ...]) -> dict[str, str]:
    paragraph = role.paragraphs[0]
    line = report[0]
    return {
        "role paragraph": paragraph,
        "role paragraph, other case/punctuation/spacing": mangle(paragraph),
        "role paragraph over several lines": paragraph.replace(" ", "\n", 3),
        "night report": line,
        "night report, other case/punctuation/spacing": mangle(line),
        "night report inside a longer message": f"Honestly, {line.lower()} That is all I know.",
        "last role paragraph": role.paragraphs[-1],
    }


async def test_pasting_ones_own_private_messages_is_refused_in_the_day(
    sockets: SocketOpener,
) -> None:
    table, texts = await day_table_with_private_texts()
    ben, _ = await sockets.seat(table, "Ben")
    ann, _ = await sockets.seat(table, "Ann")
    for label, text in quote_variants(texts["ben_role"], texts["ben_report"]).items():
        reply = await send_chat(ben, text)
        assert reply["type"] == "error", label
        assert QUOTE_REFUSED in reply["message"], label
    for label, text in quote_variants(texts["ann_role"], texts["ann_report"]).items():
        reply = await send_chat(ann, text)
        assert reply["type"] == "error", label
        assert QUOTE_REFUSED in reply["message"], label
    assert await db(seat_lines)(table.game.pk) == []


async def test_saying_it_in_ones_own_words_passes(sockets: SocketOpener) -> None:
    table, _ = await day_table_with_private_texts()
    ben, _ = await sockets.seat(table, "Ben")
    ann, _ = await sockets.seat(table, "Ann")
    assert await send_chat(ben, "I saw Ann was a werewolf") == {"type": "sent"}
    assert await send_chat(ann, "I saw Ben was a werewolf") == {"type": "sent"}
    # Short everyday fragments of the private text are fair.
    assert await send_chat(ben, "it is the Werewolf, trust me") == {"type": "sent"}
    assert await db(seat_lines)(table.game.pk) == [
        ("Ben", "I saw Ann was a werewolf"),
        ("Ann", "I saw Ben was a werewolf"),
        ("Ben", "it is the Werewolf, trust me"),
    ]


async def test_after_the_reveal_private_messages_may_be_quoted(sockets: SocketOpener) -> None:
    table = await db(table_in)(Phase.REVEAL)
    _, report = await db(private_messages)(table, "Ben")
    ben, _ = await sockets.seat(table, "Ben")
    assert await send_chat(ben, report[0]) == {"type": "sent"}


@pytest.mark.parametrize("invisible", ["\u00ad", "\u2060"], ids=["soft-hyphen", "word-joiner"])
async def test_invisible_characters_do_not_smuggle_a_quote(
    sockets: SocketOpener, invisible: str
) -> None:
    table, texts = await day_table_with_private_texts()
    ben, _ = await sockets.seat(table, "Ben")
    line = texts["ben_report"][0]
    smuggled = " ".join(w[:1] + invisible + w[1:] if len(w) > 1 else w for w in line.split())
    reply = await send_chat(ben, smuggled)
    assert reply["type"] == "error"
    assert QUOTE_REFUSED in reply["message"]


async def test_a_quote_sent_as_the_night_ends_is_still_refused(sockets: SocketOpener) -> None:
    """The socket opened during the night; the first line after dawn quotes the night report.

    The consumer caches the seat's private texts per phase and the service reads that cache
    under the game lock for the phase it finds there, so the night report is known at once.
    """
    table = await db(table_in)(Phase.NIGHT)
    ben, _ = await sockets.seat(table, "Ben")
    night_reply = await send_chat(ben, "anyone awake?")
    assert night_reply["type"] == "error"
    await db(play_night)(table, SEER_LOOKS_AT_ANN)
    assert await db(table.phase)() == Phase.DAY
    reply = await send_chat(ben, "You looked at Ann's card: it is the Werewolf.")
    assert reply["type"] == "error"
    assert QUOTE_REFUSED in reply["message"]
    assert await db(seat_lines)(table.game.pk) == []


# --- History, resync and other messages -------------------------------------------------------


def post_lines(table: Table, count: int) -> list[int]:
    """`count` lines, alternately from Ann and Ben (within the rate limit for count <= 10)."""
    ids = []
    for i in range(count):
        name = ("Ann", "Ben")[i % 2]
        ids.append(services.chat_post(seat=table.seat(name), text=f"line {i}").pk)
    return ids


async def test_reconnecting_with_after_returns_only_newer_lines_in_order(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    ids = await db(post_lines)(table, 6)

    _, hello = await sockets.seat(table, "Cat", after=ids[2])
    assert [h["id"] for h in hello["history"]] == ids[3:]
    assert [h["text"] for h in hello["history"]] == ["line 3", "line 4", "line 5"]

    for after, expected in [
        (0, ids),
        (ids[-1], []),
        (ids[0], ids[1:]),
        ("", ids),
        ("abc", ids),
        ("-1", ids),
        ("3x", ids),
    ]:
        _, hello = await sockets.seat(table, "Cat", after=after)
        assert [h["id"] for h in hello["history"]] == expected, after


async def test_a_reconnect_neither_loses_nor_repeats_lines(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    await db(post_lines)(table, 2)
    cat, hello = await sockets.seat(table, "Cat")
    shown = [h["id"] for h in hello["history"]]
    ann, _ = await sockets.seat(table, "Ann")
    assert await send_chat(ann, "while Cat is here") == {"type": "sent"}
    frame, _ = await receive_until(cat, is_chat_from("Ann"))
    shown.append(frame["id"])
    await cat.disconnect()

    assert await send_chat(ann, "while Cat is away 1") == {"type": "sent"}
    ben, _ = await sockets.seat(table, "Ben")
    assert await send_chat(ben, "while Cat is away 2") == {"type": "sent"}

    _, hello = await sockets.seat(table, "Cat", after=shown[-1])
    shown += [h["id"] for h in hello["history"]]
    assert [h["text"] for h in hello["history"]] == ["while Cat is away 1", "while Cat is away 2"]
    all_ids = await db(
        lambda: list(
            ChatMessage.objects.filter(game=table.game).order_by("id").values_list("id", flat=True)
        )
    )()
    assert shown == all_ids


async def test_a_huge_after_gives_an_empty_history_not_a_crash(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    await db(post_lines)(table, 2)
    _, hello = await sockets.seat(table, "Cat", after="9" * 30)
    assert hello["history"] == []


async def test_sync_resends_hello_with_lines_after_the_given_id(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    cat, _ = await sockets.seat(table, "Cat")
    ids = await db(post_lines)(table, 4)
    received = [f["id"] for f in await receive_n(cat, 4)]
    assert received == ids

    await cat.send_json_to({"type": "sync", "after": ids[1]})
    hello = await cat.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello"
    assert hello["phase"] == Phase.LOBBY
    assert hello["chat_open"] is True
    assert [h["id"] for h in hello["history"]] == ids[2:]

    for after in [None, -3, "2", 1.5, [1]]:
        await cat.send_json_to({"type": "sync", "after": after})
        hello = await cat.receive_json_from(timeout=WAIT)
        assert [h["id"] for h in hello["history"]] == ids, after
    await cat.send_json_to({"type": "sync"})
    hello = await cat.receive_json_from(timeout=WAIT)
    assert [h["id"] for h in hello["history"]] == ids


async def test_ping_gets_pong(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    await ann.send_json_to({"type": "ping"})
    assert await ann.receive_json_from(timeout=WAIT) == {"type": "pong"}


@pytest.mark.parametrize(
    "raw",
    ["{not json", "[1, 2]", '"chat"', "null", "{}", '{"type": "dance"}', '{"type": 5}'],
)
async def test_bad_or_unknown_messages_get_an_error_and_the_socket_stays_open(
    sockets: SocketOpener, raw: str
) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    await ann.send_to(text_data=raw)
    assert await ann.receive_json_from(timeout=WAIT) == {
        "type": "error",
        "message": "Unknown message.",
    }
    assert await send_chat(ann, "still connected") == {"type": "sent"}


async def test_a_binary_frame_gets_an_error_and_the_socket_stays_open(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    await ann.send_to(bytes_data=b'{"type": "ping"}')
    await ann.send_json_to({"type": "ping"})
    frame, _ = await receive_until(ann, lambda f: f["type"] == "pong", timeout=1.0)
    assert frame == {"type": "pong"}


async def test_a_non_ascii_digit_in_after_is_ignored(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    key = await db(new_session)({"seats": {table.code: table.seats["Ann"].token}})
    comm = sockets.communicator(table.code, cookie=f"sessionid={key}")
    comm.scope["query_string"] = b"after=\xb2"  # what a client sending raw bytes produces
    connected, _ = await comm.connect(timeout=WAIT)
    assert connected
    hello = await comm.receive_json_from(timeout=1.0)
    assert hello["type"] == "hello"


# --- Status pushes ----------------------------------------------------------------------------


async def test_a_new_player_joining_pushes_each_seat_its_own_status(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(("Ann", "Ben"))
    ann, _ = await sockets.seat(table, "Ann", extra_cookies="; csrftoken=" + "c" * 32)
    ben, _ = await sockets.seat(table, "Ben")
    other = await db(create_lobby)(OTHERS)
    uma, _ = await sockets.seat(other, "Uma")
    await db(services.seat_join)(game=table.game, name="Cat", rules_phrase=services.RULES_PHRASE)
    ann_status, _ = await receive_until(ann, is_status())
    ben_status, _ = await receive_until(ben, is_status())
    game = await db(table.refresh)()
    for frame in (ann_status, ben_status):
        assert frame["phase"] == Phase.LOBBY
        assert frame["chat_open"] is True
        assert frame["deadline"] is None
        parse_iso(frame["now"])
        assert "Cat" in frame["html"]
        assert 'id="status"' in frame["html"]
    assert game.phase == Phase.LOBBY
    assert "Ann <small>(host)</small> <small>(you)</small>" in ann_status["html"]
    assert "Ben <small>(you)</small>" in ben_status["html"]
    assert "Ben <small>(you)</small>" not in ann_status["html"]
    assert "Ann <small>(host)</small> <small>(you)</small>" not in ben_status["html"]
    # Only the host gets the remove buttons, with the CSRF token from its own cookie.
    assert "Remove" in ann_status["html"]
    assert "c" * 32 in ann_status["html"]
    assert "Remove" not in ben_status["html"]
    assert await ann.receive_nothing(QUIET)
    assert await ben.receive_nothing(QUIET)
    assert await uma.receive_nothing(QUIET)  # another game's page hears nothing


def secret_texts(table: Table, name: str) -> list[str]:
    """Everything only `name` may see: role message, night report and rejoin token."""
    role, report = private_messages(table, name)
    return [role.heading, *role.paragraphs, *report, table.seats[name].token]


async def test_status_pushes_carry_the_new_phase_and_never_another_seats_secrets(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    socks = {name: (await sockets.seat(table, name))[0] for name in TRIO}
    statuses: dict[str, list[Frame]] = {name: [] for name in TRIO}

    async def collect(phase: str) -> None:
        for name, comm in socks.items():
            _, frames = await receive_until(comm, is_status(phase))
            statuses[name] += [f for f in frames if f["type"] == "status"]

    await db(start_with_deal)(table, THREE)
    await collect(Phase.NIGHT)
    await db(play_night)(table, SEER_LOOKS_AT_ANN)
    await collect(Phase.DAY)
    await db(services.seat_ready_set)(seat=table.seats["Cat"], ready=True)
    await collect(Phase.DAY)
    await db(services.day_end)(host=table.seats["Ann"])
    await collect(Phase.VOTING)

    game = await db(table.refresh)()
    secrets_of = {name: await db(secret_texts)(table, name) for name in TRIO}
    assert any("Werewolf" in t for t in secrets_of["Ben"])  # Ben's report names Ann's card
    for name in TRIO:
        frames = statuses[name]
        phases = [f["phase"] for f in frames]
        assert {Phase.NIGHT, Phase.DAY, Phase.VOTING} <= set(phases)
        assert phases == sorted(phases, key=[Phase.NIGHT, Phase.DAY, Phase.VOTING].index)
        shown_phase = Phase.LOBBY
        for frame in frames:
            # The first frame of a phase carries the seat's whole new panel (the page swaps it
            # in instead of reloading); later ones only the status box.
            new_phase = frame["phase"] != shown_phase
            assert ("panel_html" in frame) is new_phase and ("html" in frame) is not new_phase
            markup = frame["panel_html"] if new_phase else frame["html"]
            shown_phase = frame["phase"]
            shown = visible_text(markup)
            assert f'data-phase="{frame["phase"]}"' in markup
            assert frame["chat_open"] is (frame["phase"] == Phase.DAY)
            if new_phase:
                own_role = secrets_of[name][0]
                assert own_role in shown, (name, frame["phase"])  # the seat's own role message
                assert 'id="status"' in markup
            for other in TRIO:
                if other == name:
                    continue
                # (Sentences every role message shares are no secret of the other's.)
                for secret in set(secrets_of[other]) - set(secrets_of[name]):
                    assert secret not in shown, (name, other, secret)
        day_frames = [f for f in frames if f["phase"] == Phase.DAY]
        assert "1 of 3 players are ready to vote." in visible_text(day_frames[-1]["html"])
        assert frames[-1]["deadline"] is None  # no vote time limit
        assert game.phase == Phase.VOTING


async def test_a_change_during_a_status_render_is_not_lost(sockets: SocketOpener) -> None:
    """Changes are coalesced into one render; one that commits while a render is already
    reading the database must still lead to a later status that shows it."""
    table = await db(create_lobby)(("Ann", "Ben"))
    ben, _ = await sockets.seat(table, "Ben")
    real_status = consumers._read_status
    calls = 0

    def status_then_join(*args: Any) -> consumers.PublicStatus | None:
        nonlocal calls
        calls += 1
        message = real_status(*args)
        if calls == 1:
            # Dan sits down just after Ben's status was read from the database.
            services.seat_join(game=table.game, name="Dan", rules_phrase=services.RULES_PHRASE)
            time.sleep(0.2)  # the consumer hears of it while this render is still running
        return message

    with mock.patch.object(consumers, "_read_status", status_then_join):
        await db(services.seat_join)(
            game=table.game, name="Cat", rules_phrase=services.RULES_PHRASE
        )
        first, _ = await receive_until(ben, is_status())
        assert "Cat" in first["html"] and "Dan" not in first["html"]
        latest, _ = await receive_until(ben, lambda f: is_status()(f) and "Dan" in f["html"])
    assert "Dan" in latest["html"]


async def test_a_page_that_shows_an_old_phase_gets_its_new_panel_in_the_hello(
    sockets: SocketOpener,
) -> None:
    """A page drawn in the lobby whose socket (re)connects at night: the hello carries the
    seat's night panel, with its own role and action form, so the page need not reload."""
    table = await db(table_in)(Phase.NIGHT)
    ben_role = (await db(secret_texts)(table, "Ben"))[0]
    cat_role = (await db(secret_texts)(table, "Cat"))[0]
    _, hello = await sockets.seat(table, "Ben", phase=Phase.LOBBY)
    assert hello["phase"] == Phase.NIGHT and "html" not in hello
    panel = visible_text(hello["panel_html"])
    assert ben_role in panel and cat_role not in panel
    assert 'data-phase="night"' in hello["panel_html"]
    # A page that already shows the night gets only its status box.
    _, hello = await sockets.seat(table, "Cat", phase=Phase.NIGHT)
    assert "panel_html" not in hello and 'id="status"' in hello["html"]
    # A page that names no phase (or a bogus one) is taken to show the current phase.
    _, hello = await sockets.seat(table, "Ann", phase="bogus")
    assert "panel_html" not in hello and hello["phase"] == Phase.NIGHT


async def test_the_pages_of_a_game_share_one_read_per_change(sockets: SocketOpener) -> None:
    """A change is read once for all the game's pages this process serves (and, outside the
    lobby, its status box rendered once); a phase change is read, and every seat's panel
    rendered, in one go for all the pages, ahead of other work on the worker thread, each page
    getting its own panel with its own token."""
    table = await db(table_in)(Phase.NIGHT)
    tokens = {name: name.lower() * 11 for name in TRIO}  # 33 letters, one token per browser
    socks = {
        name: (
            await sockets.seat(
                table, name, phase=Phase.NIGHT, extra_cookies=f"; csrftoken={tokens[name]}"
            )
        )[0]
        for name in TRIO
    }
    reads: list[str] = []
    real_status, real_table = consumers._read_status, consumers._read_table
    real_change = consumers._read_phase_change

    def counted_status(game_id: int) -> consumers.PublicStatus | None:
        reads.append("status")
        return real_status(game_id)

    def counted_table(game_id: int) -> Any:
        reads.append("table")
        return real_table(game_id)

    def counted_change(game_id: int, site_root: str) -> consumers.PhaseChange | None:
        # Submitted in the worker's "next up" lane: ahead of forms and pages in its queue.
        assert worker._LANE.get() == worker.NEXT_UP
        reads.append("phase change")
        return real_change(game_id, site_root)

    with (
        mock.patch.object(consumers, "_read_status", counted_status),
        mock.patch.object(consumers, "_read_table", counted_table),
        mock.patch.object(consumers, "_read_phase_change", counted_change),
    ):
        await db(services.night_action_submit)(seat=table.seats["Ann"], targets=["left"])
        for comm in socks.values():
            frame, _ = await receive_until(comm, is_status(Phase.NIGHT))
            assert "1 of 3 players have sent" in visible_text(frame["html"])
        assert reads == ["status"]
        reads.clear()
        await db(services.night_action_submit)(seat=table.seats["Ben"], targets=["Ann"])
        await db(services.night_action_submit)(seat=table.seats["Cat"], targets=[])
        panels = {}
        for name, comm in socks.items():
            frame, _ = await receive_until(comm, is_status(Phase.DAY))
            panels[name] = frame["panel_html"]
        # The status read of the night's last count may come first; the day's read is one.
        assert reads.count("phase change") == 1 and "table" not in reads, reads
    for name, html in panels.items():
        assert f'name="csrfmiddlewaretoken" value="{tokens[name]}"' in html, name
        assert consumers._CSRF_STAND_IN not in html
        others = [t for n, t in tokens.items() if n != name]
        assert not any(t in html for t in others), name
        # Each page has its own seat's panel (its rejoin link names that seat alone).
        seat_tokens = {n: table.seats[n].token for n in TRIO}
        assert f"/rejoin/{seat_tokens[name]}" in html, name
        assert not any(f"/rejoin/{seat_tokens[n]}" in html for n in TRIO if n != name), name


def chat_event(table: Table, text: str) -> dict[str, Any]:
    """A chat line as the services broadcast it after commit, from Ann."""
    return {
        "type": "chat.message",
        "id": 1,
        "seat_id": table.seats["Ann"].pk,
        "name": "Ann",
        "text": text,
        "sent_at": timezone.now().isoformat(),
    }


async def test_a_chat_line_reaches_a_page_while_the_database_thread_is_busy(
    sockets: SocketOpener,
) -> None:
    """Delivering a line to a page needs nothing from the database thread (which serves page
    requests and renders one at a time), so a busy thread does not hold the chat up."""
    table = await db(create_lobby)(TRIO)
    ben, _ = await sockets.seat(table, "Ben")
    busy = asyncio.create_task(database_sync_to_async(time.sleep)(1.0))
    await asyncio.sleep(0.1)  # the database thread is asleep now
    started = time.monotonic()
    await get_channel_layer().group_send(game_group(table.code), chat_event(table, "hello"))
    frame = await ben.receive_json_from(timeout=0.5)
    assert frame["type"] == "chat" and frame["text"] == "hello"
    assert time.monotonic() - started < 0.5
    assert not busy.done()
    await busy


async def test_a_page_gets_other_lines_while_its_own_line_is_being_stored(
    sockets: SocketOpener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's frames and the game's events are handled side by side: while Ben's own line
    waits to be stored, lines from the others still reach his page, and his line is then
    stored and acknowledged as usual."""
    table = await db(create_lobby)(TRIO)
    ben, _ = await sockets.seat(table, "Ben")
    release = threading.Event()
    post = consumers.GameConsumer._post

    def held(self: consumers.GameConsumer, text: object) -> None:
        release.wait(WAIT)
        post(self, text)

    monkeypatch.setattr(consumers.GameConsumer, "_post", held)
    await ben.send_json_to({"type": "chat", "text": "my own line"})
    await asyncio.sleep(0.1)  # Ben's line is held on the database thread now
    await get_channel_layer().group_send(game_group(table.code), chat_event(table, "meanwhile"))
    frame = await ben.receive_json_from(timeout=WAIT)
    assert frame["type"] == "chat" and frame["text"] == "meanwhile"
    release.set()
    # The acknowledgement and the line itself, in either order.
    frames = await receive_n(ben, 2)
    assert {"type": "sent"} in frames
    own = next(f for f in frames if f["type"] == "chat")
    assert own["name"] == "Ben" and own["text"] == "my own line" and own["mine"]


async def test_a_failing_event_closes_the_socket_so_the_page_reconnects(
    sockets: SocketOpener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event this page cannot handle must not leave it open and deaf to the game: the
    socket closes (1011) and the page reconnects and catches up with a hello."""
    table = await db(create_lobby)(TRIO)
    ben, _ = await sockets.seat(table, "Ben")

    async def broken(self: consumers.GameConsumer, event: dict[str, Any]) -> None:
        raise RuntimeError("cannot render this")

    monkeypatch.setattr(consumers.GameConsumer, "chat_message", broken)
    await get_channel_layer().group_send(game_group(table.code), chat_event(table, "hi"))
    await expect_closed(ben, consumers.CLOSE_INTERNAL_ERROR)


async def test_events_that_come_while_the_page_connects_follow_its_hello(
    sockets: SocketOpener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page joins its game's group before it gets its hello: a line sent in between waits,
    and comes after the hello, as it did in Channels' own loop."""
    table = await db(create_lobby)(TRIO)
    release = asyncio.Event()
    send_hello = consumers.GameConsumer._send_hello

    async def held(self: consumers.GameConsumer, *args: Any, **kwargs: Any) -> Any:
        await release.wait()
        return await send_hello(self, *args, **kwargs)

    monkeypatch.setattr(consumers.GameConsumer, "_send_hello", held)
    session = {"seats": {table.code: table.seats["Ben"].token}}
    ben = await sockets.open(table.code, session)  # accepted; the hello is held
    await asyncio.sleep(0.1)
    await get_channel_layer().group_send(game_group(table.code), chat_event(table, "early"))
    await asyncio.sleep(0.1)
    release.set()
    first, second = await receive_n(ben, 2)
    assert first["type"] == "hello"
    assert second["type"] == "chat" and second["text"] == "early"


async def test_a_pushed_panel_carries_the_pages_token_escaped(sockets: SocketOpener) -> None:
    """The token comes from a cookie, which a page does not fully control: in a panel rendered
    for the whole table it is escaped, as {% csrf_token %} escapes it."""
    table = await db(table_in)(Phase.NIGHT)
    bad = 'x"><img src=x onerror=alert(1)>'
    ben, _ = await sockets.seat(table, "Ben", phase=Phase.NIGHT, extra_cookies=f"; csrftoken={bad}")
    await db(play_night)(table, {})
    frame, _ = await receive_until(ben, is_status(Phase.DAY))
    assert "<img" not in frame["panel_html"]
    assert 'value="x&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"' in frame["panel_html"]


async def test_a_socket_opened_in_the_lobby_still_refuses_quotes_in_the_day(
    sockets: SocketOpener,
) -> None:
    """Pages no longer reload between phases, so a socket opened before the deal is the one
    that chats in the day: the quoting check must use the cards dealt since."""
    table = await db(table_in)(Phase.LOBBY)
    ben, _ = await sockets.seat(table, "Ben", phase=Phase.LOBBY)
    await db(start_with_deal)(table, THREE)
    await db(play_night)(table, SEER_LOOKS_AT_ANN)
    await receive_until(ben, is_status(Phase.DAY))
    ben_role, ben_report = await db(private_messages)(table, "Ben")
    for label, text in quote_variants(ben_role, ben_report).items():
        reply = await send_chat(ben, text)
        assert reply["type"] == "error", label
        assert QUOTE_REFUSED in reply["message"], label
    reply = await send_chat(ben, "I looked at somebody, and I am not telling you who yet.")
    assert reply["type"] == "sent"


async def test_a_shared_read_survives_its_first_caller_going_away() -> None:
    """The first page to ask for a change's read goes away (its wait is cancelled) while the
    read runs: the read carries on, the other pages get it, and it is read only once."""
    release = threading.Event()
    calls = 0

    def read(game_id: int) -> int:
        nonlocal calls
        calls += 1
        release.wait(5)
        return game_id * 10

    first = asyncio.create_task(consumers._shared_read("test", 7, "change-x", read))
    second = asyncio.create_task(consumers._shared_read("test", 7, "change-x", read))
    await asyncio.sleep(0.05)
    first.cancel()
    release.set()
    assert await second == 70
    with pytest.raises(asyncio.CancelledError):
        await first
    assert await consumers._shared_read("test", 7, "change-x", read) == 70  # kept
    assert calls == 1


async def test_a_failed_shared_read_is_not_kept() -> None:
    def broken(game_id: int) -> int:
        raise OperationalError("database is locked")

    with pytest.raises(OperationalError):
        await consumers._shared_read("test", 8, "change-y", broken)
    assert await consumers._shared_read("test", 8, "change-y", lambda game_id: game_id) == 8


async def test_a_push_that_fails_once_is_tried_again(sockets: SocketOpener) -> None:
    table = await db(table_in)(Phase.NIGHT)
    ben, _ = await sockets.seat(table, "Ben", phase=Phase.NIGHT)
    real = consumers._read_status
    calls = 0

    def flaky(game_id: int) -> consumers.PublicStatus | None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OperationalError("database is locked")
        return real(game_id)

    with mock.patch.object(consumers, "_read_status", flaky):
        await db(services.night_action_submit)(seat=table.seats["Ann"], targets=["left"])
        frame, _ = await receive_until(ben, is_status(Phase.NIGHT))
    assert "1 of 3 players have sent" in visible_text(frame["html"])
    assert calls == 2


def test_a_flooding_socket_loses_its_place_at_the_head_of_the_queue() -> None:
    consumer = consumers.GameConsumer()
    consumer._urgent_posts = deque()
    firsts = [consumer._may_jump_the_queue() for _ in range(services.CHAT_BURST + 2)]
    assert firsts == [True] * services.CHAT_BURST + [False, False]


@pytest.mark.django_db(transaction=True)
def test_the_reveal_card_is_rendered_once_for_the_table_and_reads_the_same_in_every_panel() -> None:
    """After the last vote every seat's panel shows the same reveal card: it is rendered once
    for the whole table, and each panel reads exactly as the seat's panel rendered alone."""
    table = play_to(Phase.REVEAL, THREE)
    rendered: list[str] = []
    real_render = consumers.render_to_string

    def counted(name: str, context: Any = None, *args: Any, **kwargs: Any) -> str:
        rendered.append(name)
        return real_render(name, context, *args, **kwargs)

    with mock.patch.object(consumers, "render_to_string", counted):
        change = consumers._read_phase_change(table.game.pk, "http://testserver")
    assert change is not None and set(change.panels) == {s.pk for s in table.seats.values()}
    assert rendered.count("games/game.html#reveal_card") == 1
    assert rendered.count("games/game.html#panel") == len(TRIO)
    read = consumers._read_table(table.game.pk)
    for name in TRIO:
        seat_id = table.seats[name].pk
        shared = change.panel_for(seat_id, "token-of-" + name, {})
        alone = consumers._panel_frame(read, seat_id, "token-of-" + name, "http://testserver")
        assert shared is not None and alone is not None
        assert 'id="reveal"' in shared["panel_html"]
        assert shared["panel_html"] == alone["panel_html"], name


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.DAY, Phase.VOTING])
def test_a_phase_change_renders_the_status_box_once_and_every_panel_reads_as_alone(
    phase: str,
) -> None:
    """Outside the lobby the status box (clock and count) is the same for every seat: a phase
    change renders it once, from the same read as the panels, and puts that one box in every
    seat's panel; each panel reads exactly as the seat's panel rendered alone at the same
    moment (its box built from the seat's own view, counts included)."""
    table = play_to(phase, THREE)
    real_public_status = consumers._public_status

    def marked(status_of_table: TableStatus) -> consumers.PublicStatus:
        status = real_public_status(status_of_table)
        assert status.html is not None
        return consumers.PublicStatus(
            status.table, mark_safe(status.html + "<!-- the table's box -->")
        )

    with mock.patch.object(consumers, "_public_status", marked):
        change = consumers._read_phase_change(table.game.pk, "http://testserver")
    assert change is not None
    for name in TRIO:
        shared = change.panel_for(table.seats[name].pk, "token-of-" + name, {})
        assert shared is not None
        assert shared["panel_html"].count("<!-- the table's box -->") == 1, name

    moment = timezone.now()
    with mock.patch("django.utils.timezone.now", return_value=moment):
        change = consumers._read_phase_change(table.game.pk, "http://testserver")
        read = consumers._read_table(table.game.pk)
        alone = {
            name: consumers._panel_frame(
                read, table.seats[name].pk, "token-of-" + name, "http://testserver"
            )
            for name in TRIO
        }
    assert change is not None
    for name in TRIO:
        shared = change.panel_for(table.seats[name].pk, "token-of-" + name, {})
        assert shared is not None and alone[name] is not None
        assert 'id="status"' in shared["panel_html"]
        assert shared["panel_html"] == alone[name]["panel_html"], name


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("phase", [Phase.LOBBY, Phase.NIGHT, Phase.DAY, Phase.VOTING])
def test_the_status_of_a_table_read_is_the_status_read_alone(phase: str) -> None:
    """A phase change takes the table's status (who sits there, how many actions, "ready"s or
    votes are in) from the read of its panels: the same status as a read of its own."""
    table = play_to(phase, THREE)
    if phase == Phase.NIGHT:
        send_action(table, "Ann", default_action(table, "Ann"))
    elif phase == Phase.DAY:
        services.seat_ready_set(seat=table.seat("Ben"), ready=True)
    elif phase == Phase.VOTING:
        cast_votes(table, {"Cat": "Ann"})
    game = Game.objects.get(pk=table.game.pk)
    alone = selectors.table_status(game)
    assert selectors.table_status(game, selectors.read_table(game)) == alone
    assert len(alone.seats) == 3
    in_so_far = {
        Phase.NIGHT: alone.actions_in,
        Phase.DAY: alone.ready_count,
        Phase.VOTING: alone.votes_in,
    }
    assert in_so_far.get(phase, 1) == 1


async def test_a_push_whose_panel_the_page_got_meanwhile_goes_out_without_it(
    sockets: SocketOpener,
) -> None:
    """While a phase push is being read, the page may get that phase's panel another way (its
    own "sync" after a late push, or a form's answer): the push then goes out without its
    panel, which would wipe what the player has picked in the first."""
    table = await database_sync_to_async(play_to)(Phase.NIGHT, THREE)
    ann, hello = await sockets.seat(table, "Ann", phase=Phase.NIGHT)
    assert hello["phase"] == Phase.NIGHT
    real_state_frame = consumers.GameConsumer._state_frame
    read_with_panel: list[bool] = []

    async def overtaken(self: consumers.GameConsumer, *args: Any, **kwargs: Any) -> Frame | None:
        frame = await real_state_frame(self, *args, **kwargs)
        read_with_panel.append(frame is not None and "panel_html" in frame)
        self._shown(Phase.DAY)  # meanwhile the page's own sync got the day's panel
        return frame

    with mock.patch.object(consumers.GameConsumer, "_state_frame", overtaken):
        await database_sync_to_async(play_night)(table)
        push, _ = await receive_until(ann, is_status(Phase.DAY))
    assert read_with_panel == [True]  # the push was read with its panel...
    assert "panel_html" not in push, push  # ...and went out without it
