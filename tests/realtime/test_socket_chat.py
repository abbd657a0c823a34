"""Chat lines written over the page's socket (issue 39: no HTTP request per line).

The page sends {"type": "chat", "channel", "text", "ref"}; the consumer writes it as the seat
its handshake's session holds, through the chat form's own service (games/tables/consumers.py
`_say`), and answers the sender "chat-sent" (with the stored line) or "chat-refused" (with the
message the form would show). The line reaches the pages that may read its channel after
commit, as a POSTed line does; a refused one changes nothing and reaches nobody.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.families.onenight.engine.messages import night_report
from games.tables.middleware import CONTROL_CHARACTER_IN_FORM
from games.tables.models import ChatLine
from games.tables.watching import SESSION_WATCHING
from tests.factories import THREE, TestTable, create_lobby, play_to, table_state
from tests.realtime.helpers import (
    QUIET,
    WAIT,
    Frame,
    SocketOpener,
    is_chat,
    post_chat,
    receive_until,
)
from tests.security.audit import forum_deal, forum_lobby, forum_night

pytestmark = pytest.mark.django_db(transaction=True)

db = database_sync_to_async
TRIO = ("Ann", "Ben", "Cat")
OTHERS = ("Uma", "Vic", "Wes")
CLOSED_AT_NIGHT = "The chat is closed during the night and the vote."


def stored_lines(table: TestTable) -> list[tuple[str, str, str, int | None]]:
    """The players' lines of a table (the app's notes left out): author, channel, text, seat."""
    lines = ChatLine.objects.filter(table_id=table.table.pk, note=False).order_by("id")
    return [(x.author, x.channel, x.text, x.seat_id) for x in lines]


async def say(
    comm: WebsocketCommunicator, text: Any, channel: Any = "public", **extra: Any
) -> Frame:
    """Send a chat line over the socket; the sender's answer (frames before it are skipped:
    the line's own broadcast may come first)."""
    answer, _ = await say_and_read(comm, text, channel, **extra)
    return answer


async def say_and_read(
    comm: WebsocketCommunicator, text: Any, channel: Any = "public", **extra: Any
) -> tuple[Frame, list[Frame]]:
    """`say`, with the frames the page got before the answer."""
    ref = extra.pop("ref", "r1")
    await comm.send_json_to({"type": "chat", "channel": channel, "text": text, "ref": ref, **extra})
    answer, seen = await receive_until(comm, lambda f: f["type"] in ("chat-sent", "chat-refused"))
    assert answer["ref"] == ref
    return answer, seen[:-1]


async def quiet(*pages: WebsocketCommunicator) -> bool:
    return all(await asyncio.gather(*(p.receive_nothing(QUIET) for p in pages)))


# --- Delivery ---------------------------------------------------------------------------------


async def test_a_line_over_the_socket_reaches_every_page_of_the_table_and_no_other(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    other = await db(create_lobby)(OTHERS)
    ann, _ = await sockets.seat(table, "Ann")
    ann_phone, _ = await sockets.seat(table, "Ann")  # a second page of the same seat
    ben, _ = await sockets.seat(table, "Ben")
    uma, _ = await sockets.seat(other, "Uma")

    answer, before = await say_and_read(ann, "  Good evening, all!  ", ref=7)
    assert answer["type"] == "chat-sent" and answer["ref"] == 7
    [(author, channel, text, seat_id)] = await db(stored_lines)(table)
    assert (author, channel, text, seat_id) == (
        "Ann",
        "public",
        "Good evening, all!",
        table.seats["Ann"].pk,
    )
    line = answer["line"]
    assert line["text"] == "Good evening, all!" and line["mine"] is True and line["name"] == "Ann"
    # The broadcast, as for a POSTed line: once on every page, "mine" on the writer's own.
    # (The writer's page may get it before or after the answer.)
    if not before:
        before = (await receive_until(ann, is_chat("Good evening, all!")))[1]
    assert before == [{**line, "mine": True}]
    for comm, mine in ((ann_phone, True), (ben, False)):
        frame, seen = await receive_until(comm, is_chat("Good evening, all!"))
        assert frame == {**line, "mine": mine}
        assert [f for f in seen if f["type"] == "chat"] == [frame]
    assert await quiet(ann, ann_phone, ben, uma)


async def test_a_line_over_the_socket_and_a_posted_one_are_alike(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ben, _ = await sockets.seat(table, "Ben")
    cat, _ = await sockets.seat(table, "Cat")
    await say(ben, "over the socket")
    assert (await db(post_chat)(table, "Ben", "by the form")).status_code == 200
    by_socket, _ = await receive_until(cat, is_chat("over the socket"))
    by_form, _ = await receive_until(cat, is_chat("by the form"))
    assert set(by_socket) == set(by_form)
    assert [by_socket["name"], by_socket["seat_id"]] == [by_form["name"], by_form["seat_id"]]


async def test_the_packs_line_reaches_the_pack_only_and_the_graveyards_the_dead(
    sockets: SocketOpener,
) -> None:
    """rules/001: the werewolves talk among themselves at night; the dead in the graveyard."""
    table = await db(forum_lobby)()
    await db(forum_deal)(table)
    pages = {name: (await sockets.seat(table, name))[0] for name in ("Ann", "Ben", "Fay", "Gus")}
    answer, before = await say_and_read(pages["Fay"], "Cat tonight?", channel="pack")
    assert answer["type"] == "chat-sent"
    assert await reached(pages["Fay"], "Cat tonight?", before) == "pack"
    assert await reached(pages["Gus"], "Cat tonight?") == "pack"
    assert await quiet(pages["Ann"], pages["Ben"])
    # A villager's page may not write there (nor read it): refused, and nobody hears it.
    refused = await say(pages["Ben"], "let me in", channel="pack")
    assert refused["type"] == "chat-refused" and refused["message"]

    await db(forum_night)(table)  # the pack kills Cat
    cat, _ = await sockets.seat(table, "Cat")
    dead_in_village = await say(cat, "it was Fay!")
    assert dead_in_village == {
        "type": "chat-refused",
        "ref": "r1",
        "message": "The dead do not speak in the village: use the graveyard.",
        "closed": True,
    }
    answer, before = await say_and_read(cat, "cold down here", channel="graveyard")
    assert answer["type"] == "chat-sent"
    assert await reached(cat, "cold down here", before) == "graveyard"
    texts = [f.get("text") for p in pages.values() for f in await drain(p)]
    assert "cold down here" not in texts and "it was Fay!" not in texts
    assert [(a, c, t) for a, c, t, _ in await db(stored_lines)(table)] == [
        ("Fay", "pack", "Cat tonight?"),
        ("Cat", "graveyard", "cold down here"),
    ]


async def reached(comm: WebsocketCommunicator, text: str, before: Sequence[Frame] = ()) -> str:
    """The channel of the line `text` as it reached the page (among the frames `before` the
    sender's answer, or the next ones)."""
    found = [f for f in before if is_chat(text)(f)]
    if not found:
        found = [(await receive_until(comm, is_chat(text)))[0]]
    [frame] = found
    return str(frame["channel"])


async def drain(comm: WebsocketCommunicator) -> list[Frame]:
    """Every frame the page has been sent so far (waiting QUIET for the last ones)."""
    frames = []
    while not await comm.receive_nothing(QUIET):
        frames.append(await comm.receive_json_from(timeout=WAIT))
    return frames


# --- Refusals change nothing --------------------------------------------------------------------


def day_with_bens_report() -> tuple[TestTable, str]:
    table = play_to("day", THREE, actions={"Ben": ["Ann"]})
    return table, night_report(table.state().night(), "Ben")[0]


@pytest.mark.parametrize(
    ("frame", "message", "closed"),
    [
        ({"text": "x" * 501}, "Messages are limited to 500 characters.", False),
        ({"text": "   "}, "Type a message first.", False),
        ({"text": "\u200b\u2060"}, "Type a message first.", False),
        ({"text": 12}, "A chat message must be text.", False),
        ({"text": None}, "A chat message must be text.", False),
        ({"text": "hi", "channel": "pack"}, "You cannot write there now.", True),
        ({"text": "hi", "channel": ["public"]}, "You cannot write there now.", True),
        ({"text": "hi\x00there"}, str(CONTROL_CHARACTER_IN_FORM), False),
        ({"text": "hi", "channel": "public\x1b"}, str(CONTROL_CHARACTER_IN_FORM), False),
    ],
    ids=[
        *("too-long", "blank", "invisible-only", "a-number", "no-text", "no-such-channel"),
        *("a-list", "a-control-character", "a-control-character-in-the-channel"),
    ],
)
async def test_a_refused_line_is_answered_with_why_and_changes_nothing(
    sockets: SocketOpener, frame: dict[str, Any], message: str, closed: bool
) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    before = await db(table_state)(table.table.pk)
    answer = await say(ann, frame["text"], channel=frame.get("channel", "public"))
    assert answer == {"type": "chat-refused", "ref": "r1", "message": message, "closed": closed}
    assert await db(table_state)(table.table.pk) == before
    assert await quiet(ann, ben)


async def test_the_nights_closed_chat_refuses_the_socket_too(sockets: SocketOpener) -> None:
    table = await db(play_to)("night", THREE)
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    before = await db(table_state)(table.table.pk)
    answer = await say(ann, "psst, I am the seer")
    assert answer == {
        "type": "chat-refused",
        "ref": "r1",
        "message": CLOSED_AT_NIGHT,
        "closed": True,
    }
    assert await db(table_state)(table.table.pk) == before
    assert await quiet(ann, ben)


async def test_quoting_the_moderator_word_for_word_is_refused_over_the_socket(
    sockets: SocketOpener,
) -> None:
    """rules/000 s5c: no quoting one's private messages, whichever way the line comes."""
    table, report = await db(day_with_bens_report)()
    ben, _ = await sockets.seat(table, "Ben")
    ann, _ = await sockets.seat(table, "Ann")
    answer = await say(ben, f"Honestly, {report.lower()}")
    assert answer["type"] == "chat-refused" and "word for word" in answer["message"]
    assert answer["closed"] is False
    assert await db(stored_lines)(table) == []
    assert await quiet(ann, ben)
    assert (await say(ben, "I saw Ann was a werewolf", ref="r2"))["type"] == "chat-sent"


async def test_the_pace_counts_the_socket_and_the_form_together(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    for i in range(3):
        assert (await say(ann, f"line {i}", ref=i))["type"] == "chat-sent"
    for i in range(3, 5):
        assert (await db(post_chat)(table, "Ann", f"line {i}")).status_code == 200
    answer = await say(ann, "line 5", ref=5)
    assert answer["type"] == "chat-refused"
    assert answer["message"] == "Slow down: at most 5 messages every 10 seconds."
    assert [t for _, _, t, _ in await db(stored_lines)(table)] == [f"line {i}" for i in range(5)]


async def test_a_watcher_cannot_write(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    watcher = await sockets.open(table.code, {SESSION_WATCHING: {table.code: "lobby"}})
    assert (await watcher.receive_json_from(timeout=WAIT))["type"] == "hello"
    answer = await say(watcher, "hello from the gallery")
    assert answer["type"] == "chat-refused"
    assert answer["message"] == "You are not seated at this table."
    assert await db(stored_lines)(table) == []
    assert await quiet(ann, watcher)


async def test_a_seat_removed_while_its_page_is_open_cannot_write(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    cat, _ = await sockets.seat(table, "Cat")
    cat_seat = table.seats["Cat"]
    # Behind the consumer's back (no push): the seat is gone when the line comes.
    await db(lambda: cat_seat.delete())()
    answer = await say(cat, "still here?")
    assert answer["type"] == "chat-refused"
    assert answer["message"] == "You are not seated at this table."
    assert await db(stored_lines)(table) == []


# --- The seat is the session's ------------------------------------------------------------------


@pytest.mark.parametrize(
    "forged",
    [
        {"seat": "{ben}"},
        {"seat_id": "{ben}"},
        {"name": "Ben", "author": "Ben"},
        {"token": "{ben_token}", "code": "{other}"},
        {"table": "{other}", "mine": False, "note": True, "id": 1},
    ],
    ids=["seat", "seat_id", "name", "token-and-code", "table-and-flags"],
)
async def test_a_seat_or_table_named_in_the_frame_is_ignored(
    sockets: SocketOpener, forged: dict[str, str]
) -> None:
    table = await db(create_lobby)(TRIO)
    other = await db(create_lobby)(OTHERS)
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    uma, _ = await sockets.seat(other, "Uma")
    names = {
        "ben": table.seats["Ben"].pk,
        "ben_token": table.seats["Ben"].token,
        "other": other.code,
    }
    extra = {
        k: names[v[1:-1]] if isinstance(v, str) and v[:1] == "{" else v for k, v in forged.items()
    }
    answer = await say(ann, "who am I?", **extra)
    assert answer["type"] == "chat-sent"
    assert await db(stored_lines)(table) == [("Ann", "public", "who am I?", table.seats["Ann"].pk)]
    frame, _ = await receive_until(ben, is_chat("who am I?"))
    assert (frame["name"], frame["mine"], frame["note"]) == ("Ann", False, False)
    assert await db(stored_lines)(other) == []
    assert await quiet(uma)


async def test_a_ref_that_is_not_a_short_text_or_number_comes_back_as_none(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    await ann.send_json_to({"type": "chat", "text": "hi", "ref": {"x": 1}})
    answer, _ = await receive_until(ann, lambda f: f["type"] == "chat-sent")
    assert answer["ref"] is None
    await ann.send_json_to({"type": "chat", "text": "hi again", "ref": "x" * 41})
    answer, _ = await receive_until(ann, lambda f: f["type"] == "chat-sent")
    assert answer["ref"] is None
    # Without a channel, the public one (as the form's default).
    assert [c for _, c, _, _ in await db(stored_lines)(table)] == ["public", "public"]
