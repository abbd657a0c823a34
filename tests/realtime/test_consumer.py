"""The table page's websocket (games/tables/consumers.py), driven through channels' test
communicator.

Protocol (static/js/table.js): the socket pushes, and takes the page's chat lines
(tests/realtime/test_socket_chat.py). On connect, and when the page sends
{"type": "sync"}, the server sends a "hello" (the table's version, the seat's panel when the page
shows an older version, the chat channels it reads, the chat lines after `after`); after every
change of the table a "panel" rendered for that seat; each chat line of a channel the seat reads
as a "chat" frame; "pong" for {"type": "ping"}; an "error" for anything else. Chat is sent by
POST /g/<code>/chat here (or over the socket) and moves by the pages' POSTs (here through the
same services). Every change reaches the sockets through the channel layer after its
transaction commits.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from games.families.onenight.engine.messages import RoleMessage, night_report, role_message
from games.families.onenight.options import RULES_PHRASE
from games.tables import consumers, services
from games.tables.consumers import TableConsumer
from games.tables.models import ChatLine, Seat, Table
from games.tables.push import table_group
from tests.factories import (
    THREE,
    TestTable,
    client_for,
    create_lobby,
    end_day,
    move,
    play_night,
    play_to,
    start_with_deal,
    table_state,
)
from tests.realtime.helpers import (
    QUIET,
    WAIT,
    Frame,
    SocketOpener,
    expect_closed,
    fresh_websocket_stack,
    is_chat,
    is_panel,
    new_session,
    post_chat,
    receive_n,
    receive_until,
    refusal,
    seat_session,
    visible_text,
)

pytestmark = pytest.mark.django_db(transaction=True)

db = database_sync_to_async
TRIO = ("Ann", "Ben", "Cat")
OTHERS = ("Uma", "Vic", "Wes")
# Ben (the seer) looks at Ann's card: his night report names her card.
SEER_LOOKS_AT_ANN = {"Ben": ["Ann"]}
CLOSED_MESSAGE = "The chat is closed during the night and the vote."
QUOTE_REFUSED = "word for word"
UNKNOWN = {"type": "error", "message": "Unknown message."}


def table_in(phase: str) -> TestTable:
    """Ann (host), Ben and Cat in `phase`, with the THREE deal once started."""
    if phase == "lobby":
        return create_lobby(TRIO)
    return play_to(phase, THREE, actions=SEER_LOOKS_AT_ANN)


def version_of(table: TestTable) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table.table.pk)


def seat_lines(table: TestTable) -> list[tuple[str, str]]:
    """The players' chat lines of a table (the app's notes left out), as (name, text)."""
    lines = ChatLine.objects.filter(table_id=table.table.pk, note=False).order_by("id")
    return [(line.author, line.text) for line in lines]


def line_ids(table: TestTable) -> list[int]:
    return list(
        ChatLine.objects.filter(table_id=table.table.pk).order_by("id").values_list("id", flat=True)
    )


def sent(table: TestTable, name: str, text: str) -> int:
    """`name` posts `text` (accepted); the stored line's id."""
    response = post_chat(table, name, text)
    assert response.status_code == 200, refusal(response)
    return ChatLine.objects.filter(table_id=table.table.pk, note=False).latest("id").pk


def refused(table: TestTable, name: str, text: str) -> tuple[int, str]:
    """`name` posts `text`, which is refused: the status and the message the form shows."""
    response = post_chat(table, name, text)
    assert response.status_code != 200, response.status_code
    return response.status_code, refusal(response)


def private_messages(table: TestTable, name: str) -> tuple[RoleMessage, tuple[str, ...]]:
    """What the moderator told `name` privately: its role message and (after the night) its
    night report."""
    state = table.state()
    report = night_report(state.night(), name) if state.phase != "night" else ()
    return role_message(state.deal, name), report


def secret_texts(table: TestTable, name: str) -> list[str]:
    """Everything only `name` may see: role message, night report and rejoin token."""
    role, report = private_messages(table, name)
    return [role.heading, *role.paragraphs, *report, table.seats[name].token]


def mangle(text: str) -> str:
    """The same words with other capitals, punctuation and spacing."""
    tokens = text.replace("'", "\u2019").split()
    changed = [t.upper() if i % 2 else t.lower() for i, t in enumerate(tokens)]
    return "  ".join(changed).replace(",", " ;").replace(".", "!!").replace(":", " -- ")


def parse_iso(value: str) -> datetime:
    parsed = datetime.fromisoformat(value)
    assert parsed.tzinfo is not None, value
    return parsed


def phase_label(markup: str) -> str:
    match = re.search(
        r'<section id="panel" data-version="\d+"[^>]*? data-phase-label="(\w+)"', markup
    )
    assert match, markup[:300]
    return match.group(1)


def panel_version(markup: str) -> int:
    match = re.search(r'<section id="panel" data-version="(\d+)"', markup)
    assert match, markup[:300]
    return int(match.group(1))


# --- Who may connect --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "session_for",
    [
        pytest.param(lambda table: None, id="no-cookie"),
        pytest.param(lambda table: {}, id="session-without-seats"),
        pytest.param(lambda table: {"seats": "not-a-dict"}, id="seats-not-a-dict"),
        pytest.param(lambda table: {"seats": {table.code: 1}}, id="token-not-a-string"),
        pytest.param(lambda table: {"seats": {table.code: "made-up"}}, id="unknown-token"),
        pytest.param(lambda table: {"seats": {table.code: "../x y"}}, id="token-not-a-token"),
    ],
)
async def test_without_a_seat_the_socket_is_accepted_then_closed_4403(
    sockets: SocketOpener, session_for: Callable[[TestTable], dict[str, Any] | None]
) -> None:
    table = await db(create_lobby)(TRIO)
    comm = await sockets.open(table.code, session_for(table))
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)


async def test_a_forged_session_cookie_is_closed_4403(sockets: SocketOpener) -> None:
    """Sessions are signed cookies: one not signed with the site's key holds no seat."""
    table = await db(create_lobby)(TRIO)
    comm = sockets.communicator(table.code, cookie="sessionid=made-up-session-key")
    connected, _ = await comm.connect(timeout=WAIT)
    assert connected
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)


async def test_a_seat_of_another_table_is_closed_4403(sockets: SocketOpener) -> None:
    mine = await db(create_lobby)(TRIO)
    other = await db(create_lobby)(OTHERS)
    # The other table's seat, presented under this table's code.
    comm = await sockets.open(mine.code, {"seats": {mine.code: other.seats["Uma"].token}})
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)
    # A valid seat of the other table, while connecting to this table.
    comm = await sockets.open(mine.code, seat_session(other, "Uma"))
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)
    # A table code that does not exist at all, and one that is not a code.
    for code in ("NOSUCHGAME", "x" * 40):
        comm = await sockets.open(code, seat_session(mine, "Ann"))
        await expect_closed(comm, consumers.CLOSE_NOT_SEATED)


async def test_a_removed_seat_is_closed_4403(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    await db(services.seat_remove)(host=table.seats["Ann"], seat_id=table.seats["Ben"].pk)
    comm = await sockets.open(table.code, seat_session(table, "Ben"))
    await expect_closed(comm, consumers.CLOSE_NOT_SEATED)


async def test_removed_while_connected_the_socket_is_closed_and_the_others_are_told(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    await db(services.seat_remove)(host=table.seats["Ann"], seat_id=table.seats["Ben"].pk)
    await expect_closed(ben, consumers.CLOSE_NOT_SEATED)
    push, _ = await receive_until(ann, is_panel())
    assert "Ben" not in visible_text(push["panel"])
    assert "Cat" in visible_text(push["panel"])


async def test_a_seat_deleted_behind_the_consumers_back_is_closed_when_it_syncs(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    cat, _ = await sockets.seat(table, "Cat")
    await db(lambda: Seat.objects.filter(pk=table.seats["Cat"].pk).delete())()
    await cat.send_json_to({"type": "sync", "after": 0})
    await expect_closed(cat, consumers.CLOSE_NOT_SEATED)


async def test_a_seat_deleted_behind_the_consumers_back_is_closed_on_the_next_change(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    cat, _ = await sockets.seat(table, "Cat")
    await db(lambda: Seat.objects.filter(pk=table.seats["Cat"].pk).delete())()
    await db(services.table_lock_set)(host=table.seats["Ann"], locked=True)
    await expect_closed(cat, consumers.CLOSE_NOT_SEATED)


async def test_the_sites_own_origin_is_accepted(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    _, hello = await sockets.seat(table, "Ann")  # Host testserver, Origin http://testserver
    assert hello["version"] == await db(version_of)(table)


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
    (games/tables/origin.py), or any web page could open a socket with a player's cookies."""
    table = await db(create_lobby)(TRIO)
    key = new_session(seat_session(table, "Ann"))
    comm = sockets.communicator(table.code, cookie=f"sessionid={key}", origin=origin, host=host)
    connected, _ = await comm.connect(timeout=WAIT)
    assert not connected


async def test_a_host_outside_allowed_hosts_is_refused(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    key = new_session(seat_session(table, "Ann"))
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


async def test_a_browser_without_a_seat_cannot_chat_at_the_table(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    other = await db(create_lobby)(OTHERS)
    ann, _ = await sockets.seat(table, "Ann")

    def outsider_posts() -> int:
        client = client_for(other, "Uma")  # seated at another table only
        response = client.post(reverse("chat", args=[table.code]), {"text": "let me in"})
        return response.status_code

    assert await db(outsider_posts)() == 403
    assert await db(seat_lines)(table) == []
    assert await ann.receive_nothing(QUIET)


# --- Hello ------------------------------------------------------------------------------------


async def test_a_seated_player_gets_hello_with_the_version_the_panel_and_the_history(
    sockets: SocketOpener,
) -> None:
    def setup() -> tuple[TestTable, list[ChatLine]]:
        table = create_lobby(TRIO)
        ids = [sent(table, "Ann", "Hi all"), sent(table, "Ben", "Hello Ann")]
        return table, [ChatLine.objects.get(pk=i) for i in ids]

    table, lines = await db(setup)()
    # The code in the address is case-insensitive (the page may be typed in lower case).
    _, hello = await sockets.seat(table, "Ben", path_code=table.code.lower())
    version = await db(version_of)(table)
    assert hello["version"] == version
    # A page that names no version shows nothing yet: it gets its panel, of that version.
    assert panel_version(hello["panel"]) == version
    assert "Ben <small>(you)</small>" in hello["panel"]
    assert [(c["name"], c["write"], c["closed"]) for c in hello["channel_state"]] == [
        ("public", True, "")
    ]
    assert 'class="chat-form"' in hello["channel_state"][0]["html"]
    assert hello["history"] == [
        {
            "type": "chat",
            "id": lines[0].pk,
            "channel": "public",
            "name": "Ann",
            "note": False,
            "text": "Hi all",
            "sent_at": lines[0].sent_at.isoformat(),
            "mine": False,
        },
        {
            "type": "chat",
            "id": lines[1].pk,
            "channel": "public",
            "name": "Ben",
            "note": False,
            "text": "Hello Ann",
            "sent_at": lines[1].sent_at.isoformat(),
            "mine": True,
        },
    ]


async def test_hello_at_night_has_the_deadline_a_closed_chat_and_the_apps_note(
    sockets: SocketOpener,
) -> None:
    def setup() -> TestTable:
        return start_with_deal(create_lobby(TRIO, night_minutes=5), THREE)

    table = await db(setup)()
    before = timezone.now()
    _, hello = await sockets.seat(table, "Cat")
    assert table.table.deadline is not None
    panel = hello["panel"]
    assert f'data-deadline="{table.table.deadline.isoformat()}"' in panel
    now = re.search(r'data-now="([^"]+)"', panel)
    assert now and abs(parse_iso(now.group(1)) - before) < timedelta(seconds=5)
    assert 'data-phase-label="Night"' in panel
    [channel] = hello["channel_state"]
    assert (channel["write"], channel["closed"]) == (False, CLOSED_MESSAGE)
    # The app's note about the night is public history, marked as the app's: no player's name.
    assert [(h["name"], h["note"], h["mine"]) for h in hello["history"]] == [("", True, False)]


async def test_a_page_that_shows_an_older_version_gets_its_new_panel_in_the_hello(
    sockets: SocketOpener,
) -> None:
    """A page drawn in the lobby whose socket (re)connects at night: the hello carries the
    seat's night panel, with its own role and action form, so the page need not reload."""
    table = await db(create_lobby)(TRIO)
    lobby_version = await db(version_of)(table)
    await db(start_with_deal)(table, THREE)
    version = await db(version_of)(table)
    assert version > lobby_version
    ben_role = (await db(secret_texts)(table, "Ben"))[0]
    cat_role = (await db(secret_texts)(table, "Cat"))[0]
    _, hello = await sockets.seat(table, "Ben", version=lobby_version)
    assert hello["version"] == version
    panel = visible_text(hello["panel"])
    assert ben_role in panel and cat_role not in panel
    assert 'id="night-action"' in hello["panel"]
    assert panel_version(hello["panel"]) == version
    # A page that already shows this version gets no panel (nor one that says it shows a newer
    # one, from a table it knew before a restore).
    for shown in (version, version + 5):
        _, hello = await sockets.seat(table, "Cat", version=shown)
        assert "panel" not in hello and hello["version"] == version
    # A version that is not a number counts as none shown.
    for bogus in ("abc", "-1", "3x", ""):
        _, hello = await sockets.seat(table, "Ann", version=bogus)
        assert panel_version(hello["panel"]) == version, bogus


async def test_a_non_ascii_digit_in_the_query_is_ignored(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    key = new_session(seat_session(table, "Ann"))
    comm = sockets.communicator(table.code, cookie=f"sessionid={key}")
    comm.scope["query_string"] = b"after=\xb2&version=\xb3"  # what raw bytes produce
    connected, _ = await comm.connect(timeout=WAIT)
    assert connected
    hello = await comm.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello" and "panel" in hello


# --- Reconnecting and "sync" --------------------------------------------------------------------


def post_lines(table: TestTable, count: int) -> list[int]:
    """`count` lines, alternately from Ann and Ben (within the rate limit for count <= 10)."""
    return [sent(table, ("Ann", "Ben")[i % 2], f"line {i}") for i in range(count)]


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
    await db(sent)(table, "Ann", "while Cat is here")
    frame, _ = await receive_until(cat, is_chat("while Cat is here"))
    shown.append(frame["id"])
    await cat.disconnect()

    await db(sent)(table, "Ann", "while Cat is away 1")
    await db(sent)(table, "Ben", "while Cat is away 2")

    _, hello = await sockets.seat(table, "Cat", after=shown[-1])
    shown += [h["id"] for h in hello["history"]]
    assert [h["text"] for h in hello["history"]] == ["while Cat is away 1", "while Cat is away 2"]
    assert shown == await db(line_ids)(table)


async def test_a_reconnect_catches_up_with_the_changes_it_missed(sockets: SocketOpener) -> None:
    """A page whose socket dropped in the night and comes back in the day: its hello brings
    the day's panel (the newest version) and the notes it missed, once."""
    table = await db(table_in)("night")
    ben, hello = await sockets.seat(table, "Ben")
    shown_version, shown_line = hello["version"], hello["history"][-1]["id"]
    await ben.disconnect()
    await db(play_night)(table, SEER_LOOKS_AT_ANN)
    _, hello = await sockets.seat(table, "Ben", version=shown_version, after=shown_line)
    version = await db(version_of)(table)
    assert hello["version"] == version > shown_version
    assert panel_version(hello["panel"]) == version
    assert "You looked at Ann's card" in visible_text(hello["panel"])
    assert [h["text"][:5] for h in hello["history"]] == ["Dawn:"]


async def test_a_huge_after_gives_an_empty_history_not_a_crash(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    await db(post_lines)(table, 2)
    comm, hello = await sockets.seat(table, "Cat", after="9" * 30, version="9" * 30)
    assert hello["history"] == [] and "panel" not in hello
    await comm.send_json_to({"type": "sync", "after": 10**30, "version": 10**30})
    hello = await comm.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello" and hello["history"] == []


async def test_sync_resends_hello_with_lines_after_the_given_id(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    cat, _ = await sockets.seat(table, "Cat")
    ids = await db(post_lines)(table, 4)
    received = [f["id"] for f in await receive_n(cat, 4)]
    assert received == ids

    await cat.send_json_to({"type": "sync", "after": ids[1]})
    hello = await cat.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello"
    assert hello["version"] == await db(version_of)(table)
    assert "panel" not in hello  # the page shows the newest version already
    assert [h["id"] for h in hello["history"]] == ids[2:]

    for after in [None, -3, "2", 1.5, [1], True]:
        await cat.send_json_to({"type": "sync", "after": after})
        hello = await cat.receive_json_from(timeout=WAIT)
        assert [h["id"] for h in hello["history"]] == ids, after
    await cat.send_json_to({"type": "sync"})
    hello = await cat.receive_json_from(timeout=WAIT)
    assert [h["id"] for h in hello["history"]] == ids


async def test_a_sync_naming_an_older_version_gets_the_panel(sockets: SocketOpener) -> None:
    """A page unsure of what it shows (a form's answer lost, a panel dropped) says which
    version it shows, and its hello brings the panel as it stands."""
    table = await db(table_in)("night")
    ben, hello = await sockets.seat(table, "Ben")
    version = hello["version"]
    await ben.send_json_to({"type": "sync", "after": 0, "version": version - 1})
    hello = await ben.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello" and 'id="night-action"' in hello["panel"]
    assert panel_version(hello["panel"]) == version
    # Without a version, or with one that is not a number, the page is taken to show what it
    # was last sent.
    for shown in [None, "0", True, -1, 1.5]:
        await ben.send_json_to({"type": "sync", "after": 0, "version": shown})
        hello = await ben.receive_json_from(timeout=WAIT)
        assert hello["type"] == "hello" and "panel" not in hello, shown


async def test_ping_gets_pong_and_marks_the_player_as_connected(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)

    def last_seen() -> datetime | None:
        return Seat.objects.get(pk=table.seats["Ann"].pk).last_seen

    assert await db(last_seen)() is None
    ann, _ = await sockets.seat(table, "Ann")
    opened = await db(last_seen)()
    assert opened is not None  # connecting says the page is open
    await db(lambda: Seat.objects.filter(pk=table.seats["Ann"].pk).update(last_seen=None))()
    await ann.send_json_to({"type": "ping"})
    assert await ann.receive_json_from(timeout=WAIT) == {"type": "pong"}
    seen = await db(last_seen)()
    assert seen is not None and seen.tzinfo is not None


# --- Bad frames, and forms: the socket takes none ---------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        "{not json",
        "[1, 2]",
        '"chat"',
        "null",
        "{}",
        '{"type": "dance"}',
        '{"type": 5}',
        '{"type": ["ping"]}',
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=lambda raw: raw[:20],
)
async def test_bad_or_unknown_messages_get_an_error_and_the_socket_stays_open(
    sockets: SocketOpener, raw: str
) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    await ann.send_to(text_data=raw)
    assert await ann.receive_json_from(timeout=WAIT) == UNKNOWN
    await ann.send_json_to({"type": "ping"})
    assert await ann.receive_json_from(timeout=WAIT) == {"type": "pong"}


async def test_a_binary_frame_gets_an_error_and_the_socket_stays_open(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    await ann.send_to(bytes_data=b'{"type": "ping"}')
    assert await ann.receive_json_from(timeout=WAIT) == UNKNOWN
    await ann.send_json_to({"type": "ping"})
    assert await ann.receive_json_from(timeout=WAIT) == {"type": "pong"}


def filled(value: Any, names: dict[str, str]) -> Any:
    """`value` with "{code}", "{other}" and "{ann}" filled in, in every string it holds."""
    if isinstance(value, str):
        return value.format(**names)
    if isinstance(value, dict):
        return {k: filled(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [filled(v, names) for v in value]
    return value


@pytest.mark.parametrize(
    "frame",
    [
        pytest.param(
            {"type": "form", "path": "/g/{code}/do/action", "fields": {"no_action": ["1"]}},
            id="own-night-action",
        ),
        pytest.param(
            {"type": "form", "path": "/g/{code}/do/action", "fields": {"targets": ["{ann}"]}},
            id="seer-action",
        ),
        pytest.param({"type": "form", "path": "/g/{code}/start", "fields": {}}, id="start"),
        pytest.param({"type": "form", "path": "/g/{code}/cancel", "fields": {}}, id="cancel"),
        pytest.param(
            {"type": "form", "path": "/g/{other}/do/action", "fields": {"no_action": ["1"]}},
            id="other-table",
        ),
        pytest.param(
            {"type": "move", "kind": "action", "seat": "{ann}", "fields": {"no_action": ["1"]}},
            id="as-another-seat",
        ),
        pytest.param({"type": "panel", "version": 10**6, "panel": "<p>forged</p>"}, id="a-push"),
        pytest.param({"type": "table.changed", "version": 10**6}, id="a-group-event"),
        pytest.param(
            {"type": "chat.line", "channel": "public", "seat_id": 1, "mine": "x", "others": "x"},
            id="a-chat-event",
        ),
    ],
)
async def test_the_socket_takes_no_forms_a_form_frame_gets_an_error_and_changes_nothing(
    sockets: SocketOpener, frame: dict[str, Any]
) -> None:
    """Forms are POSTs, checked against the session's seat and the CSRF token (only chat
    lines go over the socket, tests/realtime/test_socket_chat.py); a frame that tries to act
    over it (for its own seat, for another seat, at another table, or by posing as a server
    event) is answered with an error and changes nothing."""
    table = await db(table_in)("night")
    other = await db(table_in)("night")
    ben, _ = await sockets.seat(table, "Ben")
    ann, _ = await sockets.seat(table, "Ann")
    # (Taken once the pages are open: connecting marks a seat as seen.)
    before = await db(table_state)(table.table.pk), await db(table_state)(other.table.pk)
    names = {"code": table.code, "other": other.code, "ann": str(table.seats["Ann"].pk)}
    await ben.send_json_to(filled(frame, names))
    assert await ben.receive_json_from(timeout=WAIT) == UNKNOWN
    assert await ben.receive_nothing(QUIET)
    assert await ann.receive_nothing(QUIET)
    after = await db(table_state)(table.table.pk), await db(table_state)(other.table.pk)
    assert after == before
    # The socket carries on.
    await ben.send_json_to({"type": "ping"})
    assert await ben.receive_json_from(timeout=WAIT) == {"type": "pong"}


# --- Chat: delivery -----------------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["lobby", "day", "reveal"])
async def test_chat_reaches_every_page_of_the_table_and_only_that_table(
    sockets: SocketOpener, phase: str
) -> None:
    table = await db(table_in)(phase)
    other = await db(create_lobby)(OTHERS)
    ann, _ = await sockets.seat(table, "Ann")
    ann_phone, _ = await sockets.seat(table, "Ann")  # a second page of the same seat
    ben, _ = await sockets.seat(table, "Ben")
    cat, _ = await sockets.seat(table, "Cat")
    uma, _ = await sockets.seat(other, "Uma")

    response = await db(post_chat)(table, "Ann", "  Good morning, town!  ")
    assert response.status_code == 200
    assert 'value=""' in response.content.decode()  # the emptied form comes back

    stored = await db(lambda: ChatLine.objects.get(table_id=table.table.pk, note=False))()
    assert stored.text == "Good morning, town!"
    assert (stored.author, stored.channel, stored.seat_id) == (
        "Ann",
        "public",
        table.seats["Ann"].pk,
    )
    expected = {
        "type": "chat",
        "id": stored.pk,
        "channel": "public",
        "seat_id": table.seats["Ann"].pk,
        "name": "Ann",
        "note": False,
        "text": "Good morning, town!",
        "sent_at": stored.sent_at.isoformat(),
    }
    for comm, mine in ((ann, True), (ann_phone, True), (ben, False), (cat, False)):
        frame = await comm.receive_json_from(timeout=WAIT)
        assert frame == {**expected, "mine": mine}
    # Nothing else arrives: no second copy, and nothing at all for the other table's page.
    pages = (ann, ann_phone, ben, cat, uma)
    quiet = await asyncio.gather(*(c.receive_nothing(QUIET) for c in pages))
    assert quiet == [True] * len(pages)


async def test_the_apps_notes_are_pushed_marked_as_notes(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    await db(start_with_deal)(table, THREE)
    note, _ = await receive_until(ann, is_chat())
    assert note["note"] is True and note["name"] == "" and note["mine"] is False
    assert note["text"].startswith("The cards are dealt")
    # A player who types the same words is still a player: never marked as the app's.
    await db(play_night)(table)
    await receive_until(ann, is_chat())  # dawn
    await db(sent)(table, "Ben", "The cards are dealt and night falls.")
    line, _ = await receive_until(ann, is_chat(name="Ben"))
    assert line["note"] is False and line["name"] == "Ben"


@pytest.mark.parametrize("phase", ["night", "voting"])
async def test_chat_is_refused_at_night_and_during_the_vote(
    sockets: SocketOpener, phase: str
) -> None:
    table = await db(table_in)(phase)
    ann, hello = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    assert [(c["write"], c["closed"]) for c in hello["channel_state"]] == [(False, CLOSED_MESSAGE)]
    status, message = await db(refused)(table, "Ann", "psst, I am the seer")
    assert status == 409
    assert CLOSED_MESSAGE in message
    assert "psst, I am the seer" in message  # the form keeps what was typed
    assert await db(seat_lines)(table) == []
    assert await ann.receive_nothing(QUIET)
    assert await ben.receive_nothing(QUIET)


async def test_the_chat_closes_and_opens_with_the_phases(sockets: SocketOpener) -> None:
    """Pushes tell the page when its chat closes (the night, the vote) and opens again."""
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")

    async def chat_state_after(change: Callable[[], Any]) -> tuple[bool, str]:
        await db(change)()
        push, _ = await receive_until(ann, is_panel(await db(version_of)(table)))
        [channel] = push["channel_state"]
        assert channel["html"] == ""  # the page has the channel's box already
        return channel["write"], channel["closed"]

    assert await chat_state_after(lambda: start_with_deal(table, THREE)) == (False, CLOSED_MESSAGE)
    assert await chat_state_after(lambda: play_night(table)) == (True, "")
    assert await chat_state_after(lambda: end_day(table)) == (False, CLOSED_MESSAGE)


async def test_chat_length_limit(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    limit = services.CHAT_MAX_LENGTH
    assert limit == 500
    status, message = await db(refused)(table, "Ann", "x" * (limit + 1))
    assert status == 400 and "Messages are limited to 500 characters." in message
    await db(sent)(table, "Ann", "y" * limit)
    # Surrounding spaces are trimmed before the length is checked.
    await db(sent)(table, "Ann", "  " + "z" * limit + "  ")
    assert await db(seat_lines)(table) == [("Ann", "y" * limit), ("Ann", "z" * limit)]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "Type a message first."),
        ("   ", "Type a message first."),
        ("\n\t  \r\n", "Type a message first."),
        ("\u200b\u2060\u200b", "Type a message first."),
        ("\x07\x08", "control character"),
        ("hi\x00", "control character"),
    ],
)
async def test_empty_and_blank_messages_are_refused(
    sockets: SocketOpener, text: str, why: str
) -> None:
    table = await db(create_lobby)(TRIO)
    ben, _ = await sockets.seat(table, "Ben")
    status, message = await db(refused)(table, "Ann", text)
    assert status == 400 and why in message
    assert await db(seat_lines)(table) == []
    assert await ben.receive_nothing(QUIET)


async def test_a_post_without_text_is_refused(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)

    def post_nothing() -> tuple[int, str]:
        response = client_for(table, "Ann").post(
            reverse("chat", args=[table.code]), {}, HTTP_HX_REQUEST="true"
        )
        return response.status_code, refusal(response)

    status, message = await db(post_nothing)()
    assert status == 400 and "Type a message first." in message
    assert await db(seat_lines)(table) == []


RAW_HTML = '<script>alert("x")</script><b>bold</b> & <img src=x onerror=alert(1)>'


async def test_html_in_chat_travels_as_plain_text(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ben, _ = await sockets.seat(table, "Ben")
    await db(sent)(table, "Ann", RAW_HTML)
    frame, _ = await receive_until(ben, is_chat(name="Ann"))
    assert frame["text"] == RAW_HTML  # the page puts it in with textContent
    assert await db(seat_lines)(table) == [("Ann", RAW_HTML)]
    _, hello = await sockets.seat(table, "Cat")
    assert [h["text"] for h in hello["history"]] == [RAW_HTML]


def test_the_table_page_escapes_html_in_the_chat_history() -> None:
    table = create_lobby(TRIO)
    sent(table, "Ann", RAW_HTML)
    response = client_for(table, "Ben").get(reverse("table", args=[table.code]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt; &amp;" in page
    assert "<script>alert(" not in page
    assert "<b>bold</b>" not in page
    assert "<img src=x" not in page


async def test_the_sixth_message_within_ten_seconds_is_refused(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ben, _ = await sockets.seat(table, "Ben")
    assert (services.CHAT_BURST, services.CHAT_WINDOW) == (5, 10)
    for i in range(1, 6):
        await db(sent)(table, "Ann", f"message {i}")
    status, message = await db(refused)(table, "Ann", "message 6")
    assert status == 400 and "Slow down: at most 5 messages every 10 seconds." in message
    lines = await db(seat_lines)(table)
    assert lines == [("Ann", f"message {i}") for i in range(1, 6)]
    received = [f["text"] for f in await receive_n(ben, 5)]
    assert received == [f"message {i}" for i in range(1, 6)]
    assert await ben.receive_nothing(QUIET)
    # The limit is per seat: Ben may still talk.
    await db(sent)(table, "Ben", "calm down, Ann")
    # Once the window has passed, Ann may talk again (her lines are moved 11 s into the past).
    await db(
        lambda: ChatLine.objects.filter(seat_id=table.seats["Ann"].pk).update(
            sent_at=timezone.now() - timedelta(seconds=11)
        )
    )()
    await db(sent)(table, "Ann", "sorry")


async def test_a_chat_line_reaches_a_page_while_the_database_thread_is_busy(
    sockets: SocketOpener,
) -> None:
    """Delivering a line to a page reads nothing from the database (whose thread serves the
    pages and renders the panels one at a time), so a busy thread does not hold the chat up."""
    table = await db(create_lobby)(TRIO)
    ben, _ = await sockets.seat(table, "Ben")
    busy, release = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        release.wait(10)

    holding = asyncio.create_task(db(hold)())
    try:
        while not busy.is_set():
            await asyncio.sleep(0.01)
        line = {
            "type": "chat",
            "id": 10**6,
            "channel": "public",
            "seat_id": table.seats["Ann"].pk,
            "name": "Ann",
            "note": False,
            "text": "hello",
            "sent_at": timezone.now().isoformat(),
        }
        message = {
            "type": "chat.line",
            "channel": "public",
            "seat_id": line["seat_id"],
            "mine": json.dumps({**line, "mine": True}),
            "others": json.dumps({**line, "mine": False}),
        }
        await get_channel_layer().group_send(table_group(table.table.pk), message)
        frame = await ben.receive_json_from(timeout=WAIT)
        assert frame == {**line, "mine": False}
        assert not holding.done()  # the database thread was busy all along
    finally:
        release.set()
        await holding


async def test_a_line_sent_while_the_page_connects_is_not_lost(
    sockets: SocketOpener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page joins its table's group before it reads its hello: a line posted in between is
    in the hello's history or follows it (the same line, by id: the page shows an id once)."""
    table = await db(create_lobby)(TRIO)
    release = asyncio.Event()
    real_hello = TableConsumer._hello

    async def held(self: TableConsumer, after: int) -> None:
        await release.wait()
        await real_hello(self, after)

    monkeypatch.setattr(TableConsumer, "_hello", held)
    ben = await sockets.open(table.code, seat_session(table, "Ben"))  # accepted; hello held
    line_id = await db(sent)(table, "Ann", "early")
    release.set()
    hello = await ben.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello"
    seen = [h["id"] for h in hello["history"]]
    if line_id not in seen:
        frame = await ben.receive_json_from(timeout=WAIT)
        assert frame["type"] == "chat" and frame["text"] == "early"
        seen.append(frame["id"])
    assert set(seen) == {line_id}


# --- Quoting the moderator's private messages (rules/000 s5c) ---------------------------------


def day_table_with_private_texts() -> tuple[TestTable, dict[str, Any]]:
    table = table_in("day")
    ben_role, ben_report = private_messages(table, "Ben")
    ann_role, ann_report = private_messages(table, "Ann")
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


def assert_quotes_refused(table: TestTable, name: str, variants: dict[str, str]) -> None:
    for label, text in variants.items():
        status, message = refused(table, name, text)
        assert status == 400, label
        assert QUOTE_REFUSED in message, label


async def test_pasting_ones_own_private_messages_is_refused_in_the_day(
    sockets: SocketOpener,
) -> None:
    table, texts = await db(day_table_with_private_texts)()
    ann, _ = await sockets.seat(table, "Ann")
    variants = quote_variants(texts["ben_role"], texts["ben_report"])
    await db(assert_quotes_refused)(table, "Ben", variants)
    variants = quote_variants(texts["ann_role"], texts["ann_report"])
    await db(assert_quotes_refused)(table, "Ann", variants)
    assert await db(seat_lines)(table) == []
    assert await ann.receive_nothing(QUIET)  # no refused line reaches any page


async def test_saying_it_in_ones_own_words_passes(sockets: SocketOpener) -> None:
    table, _ = await db(day_table_with_private_texts)()
    await db(sent)(table, "Ben", "I saw Ann was a werewolf")
    await db(sent)(table, "Ann", "I saw Ben was a werewolf")
    # Short everyday fragments of the private text are fair.
    await db(sent)(table, "Ben", "it is the Werewolf, trust me")
    assert await db(seat_lines)(table) == [
        ("Ben", "I saw Ann was a werewolf"),
        ("Ann", "I saw Ben was a werewolf"),
        ("Ben", "it is the Werewolf, trust me"),
    ]


async def test_after_the_reveal_private_messages_may_be_quoted(sockets: SocketOpener) -> None:
    table = await db(table_in)("reveal")
    _, report = await db(private_messages)(table, "Ben")
    await db(sent)(table, "Ben", report[0])


@pytest.mark.parametrize("invisible", ["\u00ad", "\u2060"], ids=["soft-hyphen", "word-joiner"])
async def test_invisible_characters_do_not_smuggle_a_quote(
    sockets: SocketOpener, invisible: str
) -> None:
    table, texts = await db(day_table_with_private_texts)()
    line = texts["ben_report"][0]
    smuggled = " ".join(w[:1] + invisible + w[1:] if len(w) > 1 else w for w in line.split())
    status, message = await db(refused)(table, "Ben", smuggled)
    assert status == 400 and QUOTE_REFUSED in message


async def test_a_page_opened_before_the_deal_still_refuses_quotes_in_the_day(
    sockets: SocketOpener,
) -> None:
    """Pages do not reload between phases, so a page opened in the lobby is the one that chats
    in the day: the check reads the cards dealt since, and the night report known at dawn."""
    table = await db(table_in)("lobby")
    ben, _ = await sockets.seat(table, "Ben")
    await db(start_with_deal)(table, THREE)
    status, message = await db(refused)(table, "Ben", "anyone awake?")
    assert status == 409 and CLOSED_MESSAGE in message
    await db(play_night)(table, SEER_LOOKS_AT_ANN)
    await receive_until(ben, lambda f: is_panel()(f) and "day-ready" in f["panel"])
    role, report = await db(private_messages)(table, "Ben")
    await db(assert_quotes_refused)(table, "Ben", quote_variants(role, report))
    await db(sent)(table, "Ben", "I looked at somebody, and I am not telling you who yet.")


# --- Panel pushes -------------------------------------------------------------------------------


async def test_a_new_player_joining_pushes_each_seat_its_own_panel(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(("Ann", "Ben"))
    ann, _ = await sockets.seat(table, "Ann", extra_cookies="; csrftoken=" + "c" * 32)
    ben, _ = await sockets.seat(table, "Ben")
    other = await db(create_lobby)(OTHERS)
    uma, _ = await sockets.seat(other, "Uma")
    shown = await db(version_of)(table)
    await db(services.seat_join)(table=table.table, name="Cat", phrase=RULES_PHRASE)
    version = await db(version_of)(table)
    assert version == shown + 1
    ann_push = await ann.receive_json_from(timeout=WAIT)
    ben_push = await ben.receive_json_from(timeout=WAIT)
    for frame in (ann_push, ben_push):
        assert frame["type"] == "panel" and frame["version"] == version
        assert panel_version(frame["panel"]) == version
        assert "Cat" in frame["panel"]
        assert 'data-stage="lobby"' in frame["panel"]
    assert "Ann <small>(host)</small> <small>(you)</small>" in ann_push["panel"]
    assert "Ben <small>(you)</small>" in ben_push["panel"]
    assert "Ben <small>(you)</small>" not in ann_push["panel"]
    assert "Ann <small>(host)</small> <small>(you)</small>" not in ben_push["panel"]
    # Only the host gets the remove buttons, with the CSRF token from its own cookie.
    assert "Remove" in ann_push["panel"]
    assert "c" * 32 in ann_push["panel"]
    assert "Remove" not in ben_push["panel"]
    assert await ann.receive_nothing(QUIET)
    assert await ben.receive_nothing(QUIET)
    assert await uma.receive_nothing(QUIET)  # another table's page hears nothing


async def test_pushes_carry_a_growing_version_and_never_another_seats_secrets(
    sockets: SocketOpener,
) -> None:
    table = await db(create_lobby)(TRIO)
    socks = {name: (await sockets.seat(table, name))[0] for name in TRIO}
    pushes: dict[str, list[Frame]] = {name: [] for name in TRIO}

    statuses: dict[str, list[Frame]] = {name: [] for name in TRIO}

    async def collect() -> None:
        version = await db(version_of)(table)

        def pushed(frame: Frame) -> bool:
            return frame["type"] in ("panel", "status") and frame["version"] >= version

        for name, comm in socks.items():
            _, frames = await receive_until(comm, pushed)
            pushes[name] += [f for f in frames if f["type"] == "panel"]
            statuses[name] += [f for f in frames if f["type"] == "status"]

    await db(start_with_deal)(table, THREE)
    await collect()
    await db(play_night)(table, SEER_LOOKS_AT_ANN)
    await collect()
    await db(move)(await db(table.seat)("Cat"), "ready")
    await collect()
    await db(end_day)(table)
    await collect()

    secrets_of = {name: await db(secret_texts)(table, name) for name in TRIO}
    assert any("Werewolf" in t for t in secrets_of["Ben"])  # Ben's report names Ann's card
    for name in TRIO:
        frames = pushes[name]
        versions = [f["version"] for f in frames]
        assert versions == sorted(set(versions)), versions  # each newer than the last
        labels = [phase_label(f["panel"]) for f in frames]
        assert {"Night", "Day", "Voting"} <= set(labels)
        assert labels == sorted(labels, key=["Night", "Day", "Voting"].index)
        for frame in frames:
            assert panel_version(frame["panel"]) == frame["version"]
            shown = visible_text(frame["panel"])
            assert secrets_of[name][0] in shown  # the seat's own role message
            for other in TRIO:
                if other == name:
                    continue
                # (Sentences every role message shares are no secret of the other's.)
                for secret in set(secrets_of[other]) - set(secrets_of[name]):
                    assert secret not in shown, (name, other, secret)
        # Cat's "ready" redraws Cat's own panel; the others take the public status alone.
        counted = [f["panel"] for f in frames if 'data-phase-label="Day"' in f["panel"]]
        counted += [f["html"] for f in statuses[name]]
        assert any("1 of 3 players are ready to vote." in visible_text(x) for x in counted)
        assert "countdown" not in frames[-1]["panel"]  # no vote time limit


async def test_a_change_during_a_panel_render_is_not_lost(
    sockets: SocketOpener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change that commits while a page's panel is being rendered (from what was read just
    before it) still leads to a later push that shows it."""
    table = await db(create_lobby)(("Ann", "Ben"))
    ben, _ = await sockets.seat(table, "Ben")
    real_render = TableConsumer._render
    renders = 0

    def render_then_join(
        self: TableConsumer, after: int | None, version: int = 0
    ) -> dict[str, Any] | None:
        nonlocal renders
        frame = real_render(self, after, version)
        renders += 1
        if renders == 1:  # Dan sits down just after Cat's push was read from the database
            services.seat_join(table=table.table, name="Dan", phrase=RULES_PHRASE)
        return frame

    monkeypatch.setattr(TableConsumer, "_render", render_then_join)
    await db(services.seat_join)(table=table.table, name="Cat", phrase=RULES_PHRASE)
    first = await ben.receive_json_from(timeout=WAIT)
    assert "Cat" in first["panel"] and "Dan" not in first["panel"]
    latest, _ = await receive_until(ben, lambda f: is_panel()(f) and "Dan" in f["panel"])
    assert latest["version"] > first["version"]
    assert latest["version"] == await db(version_of)(table)


async def test_a_push_of_a_version_the_page_shows_already_is_not_sent(
    sockets: SocketOpener,
) -> None:
    """A page that got a version another way (its hello, its own sync after a late push)
    gets no second panel of it, and never an older one: it would wipe what the player has
    picked in the panel."""
    table = await db(table_in)("night")
    ann, hello = await sockets.seat(table, "Ann")
    layer = get_channel_layer()
    group = table_group(table.table.pk)
    for version in (hello["version"], hello["version"] - 1, 1):
        await layer.group_send(group, {"type": "table.changed", "version": version})
    assert await ann.receive_nothing(QUIET)
    # A newer version is pushed, once (Ben's action only counts: Ann gets the status).
    await db(move)(await db(table.seat)("Ben"), "action", targets=table.seats["Ann"].pk)
    push = await ann.receive_json_from(timeout=WAIT)
    assert push["type"] == "status" and push["version"] == hello["version"] + 1
    assert "1 of 3 players have sent their night action." in push["html"]
    await layer.group_send(group, {"type": "table.changed", "version": push["version"]})
    assert await ann.receive_nothing(QUIET)
    # A status whose version is more than one ahead (the page missed one) is a whole panel.
    skipped = push["version"] + 2
    await layer.group_send(
        group,
        {"type": "table.changed", "version": skipped, "status": "<div id=status>", "redraw": []},
    )
    push = await ann.receive_json_from(timeout=WAIT)
    assert push["type"] == "panel"


async def test_a_pushed_panel_carries_the_pages_token_escaped(sockets: SocketOpener) -> None:
    """The token comes from a cookie, which a page does not fully control: in a panel rendered
    by the consumer it is escaped, as {% csrf_token %} escapes it."""
    table = await db(table_in)("night")
    bad = 'x"><img src=x onerror=alert(1)>'
    ben, _ = await sockets.seat(table, "Ben", extra_cookies=f"; csrftoken={bad}")
    await db(play_night)(table)
    frame, _ = await receive_until(ben, lambda f: is_panel()(f) and "day-ready" in f["panel"])
    assert "<img" not in frame["panel"]
    assert 'value="x&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"' in frame["panel"]


async def test_each_page_gets_its_own_panel_with_its_own_token(sockets: SocketOpener) -> None:
    """Every page renders its own seat's panel after a change, with its own browser's CSRF
    token and its own seat's rejoin link, never another page's."""
    table = await db(table_in)("night")
    tokens = {name: name.lower() * 11 for name in TRIO}  # 33 letters, one token per browser
    socks = {
        name: (await sockets.seat(table, name, extra_cookies=f"; csrftoken={tokens[name]}"))[0]
        for name in TRIO
    }
    await db(play_night)(table, SEER_LOOKS_AT_ANN)
    version = await db(version_of)(table)
    seat_tokens = {n: table.seats[n].token for n in TRIO}
    for name, comm in socks.items():
        frame, _ = await receive_until(comm, is_panel(version))
        html = frame["panel"]
        assert f'name="csrfmiddlewaretoken" value="{tokens[name]}"' in html, name
        assert not any(t in html for n, t in tokens.items() if n != name), name
        assert f"/rejoin/{seat_tokens[name]}" in html, name
        assert not any(f"/rejoin/{seat_tokens[n]}" in html for n in TRIO if n != name), name


def normalised(html: str) -> str:
    """A panel with what differs between two renders of the same version left out: the CSRF
    token (masked afresh for each request) and the server's clock."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "csrf", html)
    html = re.sub(r'data-now="[^"]*"', "now", html)
    html = re.sub(r'data-seconds="\d+">\d+ s<', "seconds", html)
    return html.strip()


@pytest.mark.parametrize("phase", ["lobby", "night", "day", "voting", "reveal", "cancelled"])
async def test_a_pushed_panel_is_the_seats_panel_as_the_page_fetches_it(
    sockets: SocketOpener, phase: str
) -> None:
    """What the socket pushes is exactly the panel fragment the page's own GET returns."""
    table = await db(table_in)(phase)
    for name in TRIO:
        cookie = "; csrftoken=" + "t" * 32
        _, hello = await sockets.seat(table, name, version=0, extra_cookies=cookie)

        def fetched(name: str = name) -> str:
            client = client_for(table, name)
            response = client.get(reverse("panel", args=[table.code]), HTTP_HX_REQUEST="true")
            assert response.status_code == 200
            return response.content.decode()

        assert normalised(hello["panel"]) == normalised(await db(fetched)()), name


# --- The mover's own page (issue 39, lever 4) -------------------------------------------------


def posted_action(table: TestTable, name: str, targets: list[str], socket_key: str) -> int:
    """`name`'s night action as the page holding the socket `socket_key` sends it (htmx, the
    key in its header: static/js/table.js); the version its answer's panel shows."""
    fields = {"targets": [str(table.seats[t].pk) for t in targets]} if targets else {}
    response = client_for(table, name).post(
        reverse("move", args=[table.code, "action"]),
        fields or {"no_action": "1"},
        HTTP_HX_REQUEST="true",
        HTTP_X_TABLE_SOCKET=socket_key,
    )
    assert response.status_code == 200, response.content[:300]
    return panel_version(response.content.decode())


async def test_the_movers_page_is_not_drawn_twice_and_its_other_tab_is_drawn(
    sockets: SocketOpener,
) -> None:
    """Ben's page sends his look: its answer is his panel at the new version, so its socket
    sends nothing more; his second tab (a socket of its own) gets the panel; Ann's page the
    status. A page that asks (its answer lost) gets the panel from its socket."""
    table = await db(table_in)("night")
    tab, hello = await sockets.seat(table, "Ben")
    other, _ = await sockets.seat(table, "Ben")
    ann, _ = await sockets.seat(table, "Ann")
    assert isinstance(hello["socket"], str) and hello["socket"]
    version = await db(posted_action)(table, "Ben", ["Ann"], hello["socket"])
    assert version == hello["version"] + 1
    frame, _ = await receive_until(other, is_panel(version))
    assert "Your action is in." in visible_text(frame["panel"])
    frame, _ = await receive_until(ann, lambda f: f["type"] in ("status", "panel"))
    assert frame["type"] == "status" and frame["version"] == version
    assert await tab.receive_nothing(timeout=QUIET)
    await tab.send_json_to({"type": "sync", "after": 0, "version": version - 1})
    hello = await tab.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello" and panel_version(hello["panel"]) == version


async def test_a_key_from_another_socket_or_a_changed_chat_gets_the_panel(
    sockets: SocketOpener,
) -> None:
    """Cat's move naming Ben's socket's key is not his to spare: Cat's socket draws it, Ben's
    gets the status. And the night's last action, sent with its own socket's key, opens the
    day's chat: that socket draws the panel and the chat boxes as before."""
    table = await db(table_in)("night")
    ben, ben_hello = await sockets.seat(table, "Ben")
    cat, _ = await sockets.seat(table, "Cat")
    ann, ann_hello = await sockets.seat(table, "Ann")
    version = await db(posted_action)(table, "Cat", [], ben_hello["socket"])
    await receive_until(cat, is_panel(version))
    frame, _ = await receive_until(ben, lambda f: f["type"] in ("status", "panel"))
    assert frame["version"] == version
    await db(posted_action)(table, "Ben", ["Ann"], ben_hello["socket"])
    version = await db(posted_action)(table, "Ann", [], ann_hello["socket"])
    frame, _ = await receive_until(ann, is_panel(version))
    assert any(c["name"] == "public" and c["write"] for c in frame["channel_state"])
