"""The database queries of each event a table serves, pinned (issue 39, item 1): a chat line,
a move, a phase-change push and a page load, for One Night and for multi-night Werewolf, at a
table of eight. A change that adds a query fails here, not in a load benchmark.

The counts are exact. Where one of them holds a query that is there for no good reason, the
comment beside it says which and why (left for the optimisation step, which is measured
first); the fan-out tests check that a push costs the same per seat.

A push is counted as the server pays for it: the group message sent after commit
(games/tables/push.py), then each open page's consumer handling it (games/tables/consumers.py
`table_changed`: a status forwarded, or the seat's frame rendered). The consumers here are the
real class with their socket and channel layer replaced by recorders; the group message is the
one the service sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import Client
from django.urls import reverse

from games.tables import consumers, language, push, reads, services
from games.tables.consumers import TableConsumer
from games.tables.models import Seat, Table
from games.tables.selectors import readable_channels
from tests.factories import (
    TestTable,
    deal_game,
    default_action,
    fixed_shuffle,
    new_client,
    send_action,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")

# One Night, house rules, eight players (Ann hosts): a deal in which most seats act at night.
EIGHT = {
    "Ann": "werewolf",
    "Ben": "seer",
    "Cat": "robber",
    "Dan": "troublemaker",
    "Eve": "drunk",
    "Fay": "insomniac",
    "Gus": "villager",
    "Hal": "mason",
    "left": "werewolf",
    "middle": "villager",
    "right": "mason",
}

# --- What every event costs, pinned -----------------------------------------------------------
#
# A page (GET /g/<code>/): the seat with its table (one join), the seats (which also tell, on a
# player's page, whether the host has gone quiet: views.table_view), the chat lines of each
# channel the seat reads (one query per channel, selectors.chat_lines: Gus, a werewolf, reads
# the pack's channel too); and the seat's notices box, its choice and the table's defaults
# joined in one read (games/notices/templatetags/notices.py; "since you last looked" reads
# nothing unless the player has been away a while). Before issue 39's lever 6: 5 and 6 (the
# host asked after on its own).
PAGE = {"onenight": 4, "werewolf": 5}
# The panel fragment (GET /g/<code>/panel, htmx): the seat with its table, the seats.
PANEL = 2
# A socket's hello (the page opening its socket): the table, the seats, the chat lines of each
# readable channel.
HELLO = {"onenight": 3, "werewolf": 4}
# A chat line (htmx POST /g/<code>/chat): the seat with its table; SAVEPOINT; the table locked
# and the seats read (services.at_table); the seat's recent lines counted (the pace); the
# line stored; RELEASE. The answer is the emptied form: nothing more is read.
CHAT = 7
# The same line over the page's socket (consumers.TableConsumer._say, issue 39): the seat with
# its table (the seat the socket's session holds, read again); then as the POST: SAVEPOINT, the
# table locked and the seats, the pace, the line stored, RELEASE. No session, CSRF or form.
CHAT_SOCKET = 7
# A move that does not end its phase (htmx POST /g/<code>/do/<kind>): the seat with its table;
# SAVEPOINT; the table locked, the seats; the table saved (state, version); the move stored;
# RELEASE. The answer's panel is drawn from the seats the service read under the lock, as the
# move left them (services.seat_moved; it read them again before issue 39's lever 6: 8).
MOVE = 7
# One Night's last night action, which ends the night: MOVE and the day's note (one insert).
ONENIGHT_NIGHT_ENDS = MOVE + 1
# Werewolf's "Move on now" at night (the host ends the night): MOVE, the night's victim marked
# dead, two notes (the death, "Day 1 begins").
WEREWOLF_NIGHT_ENDS = MOVE + 1 + 2
# A Werewolf day vote after a death: MOVE. The family's Change.dead lists everyone dead so far
# (werewolf/steps.py `change`); services.common.apply_change writes `alive=False` only for
# those the seats it read under the lock show alive, so a move that kills nobody new writes
# nothing (it re-wrote them all on every move after the first death, one UPDATE a move).
WEREWOLF_VOTE = MOVE
# A socket's frame for a change (consumers.TableConsumer._frame): the table, its seats, read
# once per version for all the table's pages (reads.table_at): the first page to render a
# version reads them, the others of the same process render from that read, no query.
PUSH_SEAT = 2
# The host's frame costs the same: selectors.table_page asks the family whether the players
# have screens (the seat-code offer, the moderated lobby) with the seats it has already read.
PUSH_HOST = PUSH_SEAT
PUSH_SAME_VERSION = 0
# The socket of the page whose move it was, answered with its seat's panel at the version
# (push.Answered, issue 39 lever 4): nothing to draw, no query (2 and a render before).
PUSH_ANSWERED = 0
# A chat line reaches a socket without any query (consumers.TableConsumer.chat_line).
CHAT_LINE_PUSH = 0


@pytest.fixture(autouse=True)
def consumers_on_this_thread() -> Iterator[None]:
    """The consumers' database work runs here, inside the test's transaction: Channels'
    database_sync_to_async would close this thread's connection first (it is in an atomic
    block, which Django counts as a connection to reset), so it is swapped for asgiref's plain
    sync_to_async, which runs the same function on this same thread."""
    with mock.patch.object(
        consumers, "database_sync_to_async", lambda f: sync_to_async(f, thread_sensitive=True)
    ):
        yield


# --- Tables of eight --------------------------------------------------------------------------


@dataclass
class Game:
    """A table of eight, a browser per seat and an open socket per seat."""

    family: str
    table: Table
    seats: dict[str, Seat]
    clients: dict[str, Client]
    sockets: dict[str, TableConsumer]

    @property
    def code(self) -> str:
        return self.table.code

    def seat_id(self, name: str) -> str:
        return str(self.seats[name].pk)

    def post(self, name: str, kind: str, data: dict[str, Any], *, from_page: bool = False) -> None:
        """The seat's move, htmx-POSTed; `from_page`: by the page that holds the seat's open
        socket, naming it (the key of its hello, as static/js/table.js sends it)."""
        headers = dict(HTMX)
        if from_page:
            headers["HTTP_X_TABLE_SOCKET"] = self.sockets[name].key
        response = self.clients[name].post(reverse("move", args=[self.code, kind]), data, **headers)
        assert response.status_code == 200, response.content[:500]


class Recorder:
    """What a consumer would send on its socket and do on the channel layer."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def base_send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    async def group_add(self, group: str, channel: str) -> None:
        return None

    async def group_discard(self, group: str, channel: str) -> None:
        return None


def open_socket(table: Table, seat: Seat) -> TableConsumer:
    """A seat's consumer as connected: its hello sent (so it follows its channels and shows
    the current version)."""
    consumer = TableConsumer()
    recorder = Recorder()
    consumer.scope = {"session": {"seats": {table.code: seat.token}}, "headers": []}
    consumer.base_send = recorder.base_send
    consumer.channel_layer = recorder
    consumer.channel_name = f"test.{seat.pk}"
    consumer.table_id, consumer.seat_id, consumer.shown = table.pk, seat.pk, 0
    consumer.code = table.code
    consumer.key = push.new_socket_key()
    consumer.language, consumer.readable = language.of_socket(consumer.scope), frozenset()
    consumer._csrf, consumer._origin = "x" * 32, "http://testserver"
    async_to_sync(consumer._hello)(0)
    return consumer


def sent_frames(consumer: TableConsumer) -> list[dict[str, Any]]:
    recorder = consumer.channel_layer
    assert isinstance(recorder, Recorder)
    return [json.loads(m["text"]) for m in recorder.sent if m.get("text")]


def with_browsers_and_sockets(family: str, table: Table) -> Game:
    seats = {s.name: s for s in table.seats.order_by("position")}
    clients = {}
    for name, seat in seats.items():
        client = new_client()
        response = client.get(reverse("rejoin", args=[table.code, seat.token]))
        assert response.status_code == 302
        clients[name] = client
    sockets = {name: open_socket(table, seat) for name, seat in seats.items()}
    return Game(family, table, seats, clients, sockets)


@pytest.fixture
def onenight() -> Game:
    """One Night (house), eight players, night: nobody has acted yet."""
    dealt = deal_game("house", **EIGHT)
    return with_browsers_and_sockets("onenight", dealt.table)


def onenight_table(game: Game) -> TestTable:
    return TestTable(table=Table.objects.get(pk=game.table.pk), seats=dict(game.seats))


@pytest.fixture
def werewolf() -> Game:
    """Multi-night Werewolf (rules/001, the forum game), eight players, night 1. Dealt in seat
    order from the recommended line-up: Ann the lunatic, Ben the protector, Cat the seer, Dan,
    Eve and Fay villagers, Gus and Hal the werewolves."""
    host = services.table_create(family="werewolf", ruleset="forum", host_name=NAMES[0])
    for name in NAMES[1:]:
        services.seat_join(table=host.table, name=name)
    with fixed_shuffle():
        services.table_start(host=Seat.objects.select_related("table").get(pk=host.pk))
    return with_browsers_and_sockets("werewolf", Table.objects.get(pk=host.table_id))


@pytest.fixture(params=["onenight", "werewolf"])
def game(request: pytest.FixtureRequest) -> Game:
    return request.getfixturevalue(request.param)


@pytest.fixture
def group_messages() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """The group messages the services send after commit, recorded instead of sent."""
    recorded: list[tuple[str, dict[str, Any]]] = []
    with mock.patch.object(push, "_send", lambda group, message: recorded.append((group, message))):
        yield recorded


@pytest.fixture
def committed(
    django_assert_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> Callable[[int], AbstractContextManager[None]]:
    """Exactly `n` queries for a request and what its commit sends (the group message built
    in the on-commit callback: the public status, for a move that redraws some seats only)."""

    @contextmanager
    def counting(n: int) -> Iterator[None]:
        with (
            django_assert_num_queries(n),
            django_capture_on_commit_callbacks(execute=True),
        ):
            yield

    return counting


def fan_out(game: Game, message: dict[str, Any]) -> None:
    """Every open page of the table handles the group message, one after another, as
    Channels hands it to each consumer."""
    handler: Callable[[dict[str, Any]], Any]
    for consumer in game.sockets.values():
        changed = message["type"] == "table.changed"
        handler = consumer.table_changed if changed else consumer.chat_line
        async_to_sync(handler)(message)


# --- Page loads -------------------------------------------------------------------------------


def test_a_page_load_costs_pinned_queries(game: Game, django_assert_num_queries: Any) -> None:
    client = game.clients["Gus"]  # Werewolf: a werewolf, who reads the pack's channel too
    with django_assert_num_queries(PAGE[game.family]):
        response = client.get(reverse("table", args=[game.code]))
    assert response.status_code == 200
    with django_assert_num_queries(PANEL):
        response = client.get(reverse("panel", args=[game.code]), **HTMX)
    assert response.status_code == 200
    with django_assert_num_queries(HELLO[game.family]):
        open_socket(game.table, game.seats["Gus"])


# --- Chat -------------------------------------------------------------------------------------


def to_the_day(game: Game) -> None:
    """Night to day, where the chat is open: One Night by every night action, Werewolf by the
    host's "Move on now"."""
    if game.family == "onenight":
        send_night = onenight_table(game)
        for name in NAMES:
            send_action(send_night, name, default_action(send_night, name))
    else:
        game.post("Ann", "advance", {})


def fanned_out_once(
    game: Game,
    group_messages: list[tuple[str, dict[str, Any]]],
    django_assert_num_queries: Any,
    text: str,
) -> None:
    """The line's group message, fanned out to every socket in CHAT_LINE_PUSH queries in all."""
    (_group, message), *_ = (m for m in group_messages if m[1]["type"] == "chat.line")
    with django_assert_num_queries(CHAT_LINE_PUSH):
        fan_out(game, message)
    assert all(any(f.get("text") == text for f in sent_frames(s)) for s in game.sockets.values())


def test_a_chat_line_costs_pinned_queries_and_none_per_socket(
    game: Game,
    django_assert_num_queries: Any,
    committed: Callable[[int], AbstractContextManager[None]],
    group_messages: list[tuple[str, dict[str, Any]]],
) -> None:
    to_the_day(game)
    client = game.clients["Cat"]
    with committed(CHAT):
        response = client.post(
            reverse("chat", args=[game.code]),
            {"channel": "public", "text": "Who has slept well tonight?"},
            **HTMX,
        )
    assert response.status_code == 200, response.content[:500]
    fanned_out_once(game, group_messages, django_assert_num_queries, "Who has slept well tonight?")


def test_a_chat_line_over_the_socket_costs_pinned_queries_and_none_per_socket(
    game: Game,
    django_assert_num_queries: Any,
    committed: Callable[[int], AbstractContextManager[None]],
    group_messages: list[tuple[str, dict[str, Any]]],
) -> None:
    to_the_day(game)
    cat = game.sockets["Cat"]
    frame = {"type": "chat", "channel": "public", "text": "Who has slept well?", "ref": 1}
    with committed(CHAT_SOCKET):
        async_to_sync(cat._chat)(frame)  # what receive_json starts for a "chat" frame
    answer = sent_frames(cat)[-1]
    assert answer["type"] == "chat-sent", answer
    fanned_out_once(game, group_messages, django_assert_num_queries, "Who has slept well?")


# --- Moves and the pushes they cause ----------------------------------------------------------


def test_a_one_night_action_costs_pinned_queries(
    onenight: Game,
    django_assert_num_queries: Any,
    committed: Callable[[int], AbstractContextManager[None]],
    group_messages: list[tuple[str, dict[str, Any]]],
) -> None:
    """The seer looks at Ann's card: a move that does not end the night, sent by the page
    holding Ben's socket. Its answer is Ben's panel at the new version: his socket draws
    nothing (issue 39, lever 4), the seven others forward the status the message carries."""
    ben = onenight.sockets["Ben"]
    before = len(sent_frames(ben))
    with committed(MOVE):
        onenight.post("Ben", "action", {"targets": [onenight.seat_id("Ann")]}, from_page=True)
    ((_group, message),) = group_messages
    assert message["type"] == "table.changed"
    assert message["redraw"] == [onenight.seats["Ben"].pk] and "status" in message
    with django_assert_num_queries(PUSH_ANSWERED):
        fan_out(onenight, message)
    assert len(sent_frames(ben)) == before and ben.shown == message["version"]
    assert [f["type"] for f in sent_frames(onenight.sockets["Cat"])][-1] == "status"


def test_a_one_night_action_from_another_page_of_the_seat_is_drawn_by_the_socket(
    onenight: Game,
    django_assert_num_queries: Any,
    committed: Callable[[int], AbstractContextManager[None]],
    group_messages: list[tuple[str, dict[str, Any]]],
) -> None:
    """The same move sent by a page that is not the socket's (a second tab of the seat, a page
    whose socket is closed or whose forms go without htmx): the socket draws Ben's panel."""
    with committed(MOVE):
        onenight.post("Ben", "action", {"targets": [onenight.seat_id("Ann")]})
    ((_group, message),) = group_messages
    assert "answered" not in message
    with django_assert_num_queries(PUSH_SEAT):
        fan_out(onenight, message)
    assert [f["type"] for f in sent_frames(onenight.sockets["Ben"])][-1] == "panel"


def test_a_one_night_phase_change_costs_pinned_queries_per_seat(
    onenight: Game,
    django_assert_num_queries: Any,
    committed: Callable[[int], AbstractContextManager[None]],
    group_messages: list[tuple[str, dict[str, Any]]],
) -> None:
    """The last night action ends the night: every page draws its seat's day."""
    table = onenight_table(onenight)
    for name in NAMES[:-1]:
        send_action(table, name, default_action(table, name))
    for consumer in onenight.sockets.values():
        consumer.shown = Table.objects.get(pk=onenight.table.pk).version
    group_messages.clear()
    with committed(ONENIGHT_NIGHT_ENDS):
        onenight.post("Hal", "action", {"no_action": "1"})
    assert Table.objects.get(pk=onenight.table.pk).phase == "day"
    changed = [m for _g, m in group_messages if m["type"] == "table.changed"]
    assert len(changed) == 1 and "redraw" not in changed[0]
    assert_push_per_seat(onenight, changed[0], django_assert_num_queries)


def test_a_werewolf_night_choice_costs_pinned_queries(
    werewolf: Game,
    django_assert_num_queries: Any,
    committed: Callable[[int], AbstractContextManager[None]],
    group_messages: list[tuple[str, dict[str, Any]]],
) -> None:
    """A werewolf names its victim: a quiet move. Only the pack's pages redraw (the live
    count); every other page takes the public status the group message carries, no query."""
    gus = werewolf.sockets["Gus"]
    before = len(sent_frames(gus))
    with committed(MOVE):
        werewolf.post("Gus", "night", {"kill": [werewolf.seat_id("Dan")]}, from_page=True)
    ((_group, message),) = group_messages
    pack = {werewolf.seats["Gus"].pk, werewolf.seats["Hal"].pk}
    assert set(message["redraw"]) == pack and "status" in message
    # Hal's socket renders (the first of the version: the table and its seats); Gus's draws
    # nothing, his page's answer has his panel (issue 39, lever 4); six forward the status.
    with django_assert_num_queries(PUSH_SEAT):
        fan_out(werewolf, message)
    assert len(sent_frames(gus)) == before
    assert [f["type"] for f in sent_frames(werewolf.sockets["Hal"])][-1] == "panel"
    assert [f["type"] for f in sent_frames(werewolf.sockets["Dan"])][-1] == "status"


def test_a_werewolf_phase_change_and_vote_cost_pinned_queries(
    werewolf: Game,
    django_assert_num_queries: Any,
    committed: Callable[[int], AbstractContextManager[None]],
    group_messages: list[tuple[str, dict[str, Any]]],
) -> None:
    """The pack agrees on Dan, the protector and the seer choose; the host moves the night on
    ("Move on now"): Dan dies, every page draws its seat's day. Then a day vote."""
    werewolf.post("Gus", "night", {"kill": [werewolf.seat_id("Dan")]})
    werewolf.post("Hal", "night", {"kill": [werewolf.seat_id("Dan")]})
    werewolf.post("Ben", "night", {"protect": [werewolf.seat_id("Ann")]})
    werewolf.post("Cat", "night", {"see": [werewolf.seat_id("Gus")]})
    for consumer in werewolf.sockets.values():
        consumer.shown = Table.objects.get(pk=werewolf.table.pk).version
    group_messages.clear()
    with committed(WEREWOLF_NIGHT_ENDS):
        werewolf.post("Ann", "advance", {})
    assert Table.objects.get(pk=werewolf.table.pk).phase == "day"
    changed = [m for _g, m in group_messages if m["type"] == "table.changed"]
    assert len(changed) == 1 and "redraw" not in changed[0]
    assert_push_per_seat(werewolf, changed[0], django_assert_num_queries)

    group_messages.clear()
    with committed(WEREWOLF_VOTE):
        werewolf.post("Eve", "vote", {"target": werewolf.seat_id("Gus")})
    changed = [m for _g, m in group_messages if m["type"] == "table.changed"]
    assert len(changed) == 1


def assert_push_per_seat(game: Game, message: dict[str, Any], assert_num: Any) -> None:
    """Each page renders its own seat's frame: PUSH_SEAT queries for the first page to render
    the version (the host's included), none for the others; the whole fan-out reads the table
    and its seats once."""
    fresh = {name: open_socket(game.table, seat) for name, seat in game.seats.items()}
    for consumer in fresh.values():
        consumer.shown -= 1  # as if the page showed the version before this change
    for consumer in fresh.values():
        reads.forget_reads()  # as if it were the first page to render this version
        with assert_num(PUSH_SEAT):
            async_to_sync(consumer.table_changed)(message)
        assert sent_frames(consumer)[-1]["type"] == "panel"
    reads.forget_reads()
    seats = len(game.sockets)
    # A channel a page may read from now on comes with its lines: one query each (the night's
    # victim's graveyard; games/tables/consumers.py).
    table = Table.objects.get(pk=game.table.pk)
    everyone = list(table.seats.order_by("position"))
    opened = sum(
        1
        for name, consumer in game.sockets.items()
        for channel in readable_channels(table, game.seats[name], everyone)
        if channel.name not in consumer.readable
    )
    with assert_num(PUSH_SEAT + (seats - 1) * PUSH_SAME_VERSION + opened):
        fan_out(game, message)
    assert all(sent_frames(s)[-1]["type"] == "panel" for s in game.sockets.values())
