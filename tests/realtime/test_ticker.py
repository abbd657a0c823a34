"""Deadlines: services.table_advance_if_due, advance_due_tables and the clock
(games/tables/clock.py).

A table whose stored deadline has passed moves on exactly once (night -> day with the missing
actions filled in, day -> voting, voting -> reveal with the missing votes as "no vote"), however
many tickers or requests notice it, and calling again with the same stored deadline does nothing.
Each server process runs a ticker, started with the server (daphne's reactor, an ASGI lifespan
startup, or else the first connection), so a deadline fires with no browser open; it keeps
nothing in memory, so a restarted ticker finds the same deadlines in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import types
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from django.db import connections
from django.utils import timezone

from games.families.onenight.engine import CENTRE_POSITIONS
from games.tables import clock, services
from games.tables.models import ChatLine, Move, Table
from tests.factories import (
    TestTable,
    cast_votes,
    create_lobby,
    deal_game,
    play_to,
    send_action,
    table_state,
)
from tests.realtime.helpers import SocketOpener, websocket_app

pytestmark = pytest.mark.django_db(transaction=True)

db = database_sync_to_async
# Ben (seer) acts before the deadline; Ann (lone werewolf, may peek) and Cat (drunk, must swap)
# do not, so the deadline has to fill in one optional and one mandatory action.
CARDS = {
    "Ann": "werewolf",
    "Ben": "seer",
    "Cat": "drunk",
    "left": "troublemaker",
    "middle": "villager",
    "right": "robber",
}
SECOND = timedelta(seconds=1)
DAWN_NOTE = "Dawn:"
VOTE_NOTE = "The day is over"
REVEAL_NOTE = "Every vote is in"


def night_game(**kwargs: Any) -> TestTable:
    """A night with a one-minute limit in which only Ben has acted."""
    table = deal_game(night_minutes=1, vote_minutes=1, **kwargs, **CARDS)
    send_action(table, "Ben", ["Ann"])
    table.refresh()
    return table


def deadline_of(table: TestTable) -> datetime:
    deadline = Table.objects.values_list("deadline", flat=True).get(pk=table.table.pk)
    assert deadline is not None
    return deadline


def set_deadline(table: TestTable, deadline: datetime | None) -> None:
    Table.objects.filter(pk=table.table.pk).update(deadline=deadline)


def notes(table: TestTable, starting: str) -> int:
    """How many of the app's notes of one kind the table's chat holds."""
    return ChatLine.objects.filter(
        table_id=table.table.pk, note=True, text__startswith=starting
    ).count()


def deadline_moves(table: TestTable) -> int:
    return Move.objects.filter(table_id=table.table.pk, kind="deadline", seat=None).count()


def assert_nothing_more_happens(table: TestTable, when: datetime) -> None:
    """Calling again (a restarted ticker, a second process) with `when` changes nothing."""
    before = table_state(table.table.pk)
    assert table.code not in services.advance_due_tables(now=when)
    assert services.table_advance_if_due(table_id=table.table.pk, now=when) is False
    assert table_state(table.table.pk) == before


# --- One table, one deadline ------------------------------------------------------------------


def test_night_deadline_fills_in_missing_actions_and_begins_the_day() -> None:
    table = night_game()
    deadline = deadline_of(table)
    assert table.table.started_at is not None
    assert deadline == table.table.started_at + timedelta(minutes=1)

    # A moment before the deadline nothing happens.
    assert_nothing_more_happens(table, deadline - SECOND)
    assert table.phase() == "night"

    assert services.advance_due_tables(now=deadline) == [table.code]
    stored = table.refresh()
    assert stored.phase == "day"
    assert stored.deadline == deadline + timedelta(minutes=30)  # the table's day length

    state = table.state()
    actions = state.actions
    assert set(actions) == {"Ann", "Ben", "Cat"}
    assert all(a["complete"] for a in actions.values())
    assert (actions["Ben"]["targets"], actions["Ben"].get("by_deadline")) == (["Ann"], None)
    assert (actions["Ann"]["targets"], actions["Ann"]["by_deadline"]) == ([], True)
    # The drunk must swap: the app picked a centre card for him.
    assert actions["Cat"]["by_deadline"] is True
    [position] = actions["Cat"]["targets"]
    assert position in CENTRE_POSITIONS
    night = state.night()
    assert night.final["Cat"].value == CARDS[position]
    assert night.final[position].value == "drunk"
    assert notes(table, DAWN_NOTE) == 1
    assert deadline_moves(table) == 1

    assert_nothing_more_happens(table, deadline)
    assert_nothing_more_happens(table, timezone.now())
    assert notes(table, DAWN_NOTE) == 1
    assert deadline_moves(table) == 1


def test_day_deadline_begins_the_vote() -> None:
    table = play_to("day", CARDS, vote_minutes=1)
    deadline = deadline_of(table)
    assert_nothing_more_happens(table, deadline - SECOND)

    assert services.table_advance_if_due(table_id=table.table.pk, now=deadline) is True
    stored = table.refresh()
    assert stored.phase == "voting"
    assert stored.deadline == deadline + timedelta(minutes=1)
    assert notes(table, VOTE_NOTE) == 1
    assert table.state().votes == {}

    assert_nothing_more_happens(table, deadline)
    assert notes(table, VOTE_NOTE) == 1


def test_day_deadline_without_a_vote_limit_leaves_the_vote_open() -> None:
    table = play_to("day", CARDS)
    deadline = deadline_of(table)
    assert services.advance_due_tables(now=deadline + timedelta(hours=5)) == [table.code]
    stored = table.refresh()
    assert (stored.phase, stored.deadline) == ("voting", None)
    # With no deadline, the vote never ends by itself however late it gets.
    assert_nothing_more_happens(table, deadline + timedelta(days=3))


def test_vote_deadline_counts_missing_votes_as_none_and_reveals() -> None:
    table = play_to("voting", CARDS, vote_minutes=1)
    cast_votes(table, {"Ann": "Ben"})
    deadline = deadline_of(table)
    assert_nothing_more_happens(table, deadline - SECOND)

    assert services.advance_due_tables(now=deadline + SECOND) == [table.code]
    stored = table.refresh()
    assert (stored.phase, stored.stage) == ("reveal", "over")
    assert stored.deadline is None
    assert stored.finished_at is not None
    state = table.state()
    assert state.result is not None
    ids = {name: seat.pk for name, seat in table.seats.items()}
    assert state.votes == {
        str(ids["Ann"]): ids["Ben"],
        str(ids["Ben"]): None,
        str(ids["Cat"]): None,
    }
    assert notes(table, REVEAL_NOTE) == 1

    assert_nothing_more_happens(table, deadline + SECOND)
    assert_nothing_more_happens(table, deadline + timedelta(days=1))
    assert len(table.state().votes) == 3


def test_tables_not_due_are_untouched() -> None:
    now = timezone.now()
    lobby = create_lobby(("Ann", "Ben", "Cat"))
    night = night_game()  # deadline in a minute
    no_limit_night = deal_game(**CARDS)  # no night time limit at all
    day = play_to("day", CARDS)  # deadline in 30 minutes
    voting = play_to("voting", CARDS)  # no vote time limit
    reveal = play_to("reveal", CARDS)
    cancelled = create_lobby(("Dan", "Eve", "Fay"))
    services.table_cancel(table=cancelled.table)
    # A stale deadline left on a finished table must not bring it back to life.
    Table.objects.filter(pk__in=[reveal.table.pk, cancelled.table.pk]).update(
        deadline=now - timedelta(hours=1)
    )
    tables = [lobby, night, no_limit_night, day, voting, reveal, cancelled]
    before = {t.code: table_state(t.table.pk) for t in tables}

    assert services.advance_due_tables(now=now) == []
    for table in tables:
        assert services.table_advance_if_due(table_id=table.table.pk, now=now) is False
        assert table_state(table.table.pk) == before[table.code], table.code


def test_only_the_due_tables_move() -> None:
    due = night_game()
    later = night_game()
    set_deadline(later, deadline_of(due) + timedelta(minutes=5))
    untouched = table_state(later.table.pk)
    assert services.advance_due_tables(now=deadline_of(due)) == [due.code]
    assert due.phase() == "day"
    assert table_state(later.table.pk) == untouched


# --- Racing tickers ---------------------------------------------------------------------------


def race(workers: int, work: Callable[[], Any]) -> list[Any]:
    """Run `work` in `workers` threads released together; returns results, re-raises errors."""
    barrier = threading.Barrier(workers)
    results: list[Any] = [None] * workers
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = work()
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a ticker thread hung"
    if errors:
        raise errors[0]
    return results


def test_two_tickers_racing_move_each_due_table_exactly_once() -> None:
    nights = [night_game() for _ in range(3)]
    day = play_to("day", CARDS, vote_minutes=1)
    voting = play_to("voting", CARDS, vote_minutes=1)
    cast_votes(voting, {"Cat": "Ann"})
    tables = [*nights, day, voting]
    start = timezone.now() + timedelta(minutes=2)  # every night and the vote are due
    set_deadline(day, start - SECOND)

    def round_of(when: datetime, expected: dict[str, str]) -> None:
        moved = race(2, lambda: services.advance_due_tables(now=when))
        codes = sorted(moved[0] + moved[1])
        assert codes == sorted(expected), (moved, expected)
        for table in tables:
            if table.code in expected:
                assert table.phase() == expected[table.code], table.code

    # Round 1: the nights end, the day ends, the vote ends.
    round_of(start, {**{t.code: "day" for t in nights}, day.code: "voting", voting.code: "reveal"})
    # Round 2, 31 minutes on: the new days end and the first vote's limit has passed.
    later = start + timedelta(minutes=31)
    round_of(later, {**{t.code: "voting" for t in nights}, day.code: "reveal"})
    # Round 3: the last votes close.
    last = later + timedelta(minutes=2)
    round_of(last, {t.code: "reveal" for t in nights})
    # Round 4: nothing is left to do.
    round_of(last + timedelta(days=1), {})

    for table in tables:
        state = table.state()
        assert state.phase == "reveal"
        assert len(state.complete_actions()) == 3
        assert len(state.votes) == 3
        assert notes(table, DAWN_NOTE) == 1
        assert notes(table, VOTE_NOTE) == 1
        assert notes(table, REVEAL_NOTE) == 1
    assert voting.state().votes[str(voting.seats["Cat"].pk)] == voting.seats["Ann"].pk


def test_many_callers_on_one_table_move_it_once() -> None:
    table = night_game()
    when = deadline_of(table)
    results = race(4, lambda: services.table_advance_if_due(table_id=table.table.pk, now=when))
    assert sorted(results) == [False, False, False, True]
    assert table.phase() == "day"
    assert len(table.state().complete_actions()) == 3
    assert notes(table, DAWN_NOTE) == 1
    assert deadline_moves(table) == 1


# --- The ticker task --------------------------------------------------------------------------


async def wait_for_phase(table: TestTable, phase: str, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while await db(table.phase)() != phase:
            await asyncio.sleep(0.02)


async def stop(task: asyncio.Task[Any] | None) -> None:
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def make_due(table: TestTable) -> None:
    set_deadline(table, timezone.now() - SECOND)


@pytest.fixture
async def ticker_on(settings: Any) -> AsyncIterator[None]:
    """The ticker enabled, as on a server; no ticker left running after the test."""
    settings.DEADLINE_TICKER = True
    yield
    loop = asyncio.get_running_loop()
    for task in clock._tickers.values():
        if task.get_loop() is loop:
            await stop(task)
        else:
            task.cancel()
    clock._tickers.clear()


async def test_run_ticker_moves_a_due_table_on() -> None:
    table = await db(night_game)()
    await db(make_due)(table)
    task = asyncio.create_task(clock.run_ticker(interval=0.05))
    try:
        await wait_for_phase(table, "day")
        await asyncio.sleep(0.2)  # a few more ticks: the new day is not due
    finally:
        await stop(task)
    assert await db(table.phase)() == "day"
    assert await db(notes)(table, DAWN_NOTE) == 1
    assert await db(deadline_moves)(table) == 1


async def test_several_tickers_at_once_fire_a_passed_deadline_once() -> None:
    """Each server process runs its own ticker: however many notice a passed deadline, the
    table moves on once."""
    table = await db(night_game)()
    await db(make_due)(table)
    tasks = [asyncio.create_task(clock.run_ticker(interval=0.01)) for _ in range(3)]
    try:
        await wait_for_phase(table, "day")
        await asyncio.sleep(0.2)
    finally:
        for task in tasks:
            await stop(task)
    assert await db(notes)(table, DAWN_NOTE) == 1
    assert await db(deadline_moves)(table) == 1


async def test_a_restarted_ticker_finds_the_deadlines_in_the_database() -> None:
    """The ticker keeps nothing in memory: a deadline that passes while no ticker runs (the
    server is down) is fired by the next one, once."""
    table = await db(night_game)()
    first = asyncio.create_task(clock.run_ticker(interval=0.05))
    await asyncio.sleep(0.2)  # it ticks: nothing is due yet
    await stop(first)  # the server goes down
    assert await db(table.phase)() == "night"
    await db(make_due)(table)  # the night's time runs out meanwhile
    second = asyncio.create_task(clock.run_ticker(interval=0.05))
    try:
        await wait_for_phase(table, "day")
    finally:
        await stop(second)
    assert await db(notes)(table, DAWN_NOTE) == 1


async def test_a_failed_tick_does_not_stop_the_ticker(caplog: pytest.LogCaptureFixture) -> None:
    table = await db(night_game)()
    await db(make_due)(table)
    real = services.advance_due_tables
    calls = 0

    def flaky() -> list[str]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("database went away")
        return real()

    with mock.patch.object(services, "advance_due_tables", flaky):
        task = asyncio.create_task(clock.run_ticker(interval=0.05))
        try:
            await wait_for_phase(table, "day")
        finally:
            await stop(task)
    assert calls >= 2
    assert "Deadline tick failed" in caplog.text


async def test_the_asgi_app_starts_one_ticker_per_loop_on_the_first_connection(
    settings: Any, sockets: SocketOpener
) -> None:
    loop_id = id(asyncio.get_running_loop())
    table = await db(night_game)()
    await db(make_due)(table)

    settings.DEADLINE_TICKER = False
    await sockets.open(table.code, None)
    assert loop_id not in clock._tickers

    settings.DEADLINE_TICKER = True
    try:
        first = sockets.communicator(table.code, app=websocket_app())
        await first.connect(timeout=3)
        task = clock._tickers[loop_id]
        second = sockets.communicator(table.code, app=websocket_app())
        await second.connect(timeout=3)
        assert clock._tickers[loop_id] is task  # the second connection started no other
        assert not task.done()
        # With no page asking, the ticker moves the table on by itself.
        await wait_for_phase(table, "day")
    finally:
        await stop(clock._tickers.pop(loop_id, None))


async def test_a_lifespan_startup_starts_the_ticker(ticker_on: None) -> None:
    """A server that speaks the ASGI lifespan protocol starts the ticker when it starts, before
    any page connects, and is answered as the protocol asks."""
    loop_id = id(asyncio.get_running_loop())
    assert loop_id not in clock._tickers
    app = ApplicationCommunicator(websocket_app(), {"type": "lifespan", "asgi": {"version": "3.0"}})
    await app.send_input({"type": "lifespan.startup"})
    assert await app.receive_output(timeout=3) == {"type": "lifespan.startup.complete"}
    task = clock._tickers[loop_id]
    assert not task.done()
    await app.send_input({"type": "lifespan.shutdown"})
    assert await app.receive_output(timeout=3) == {"type": "lifespan.shutdown.complete"}
    await app.wait(timeout=3)


async def test_under_daphne_the_ticker_starts_with_the_reactor(
    ticker_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Daphne does not speak the lifespan protocol: the ticker is started by its reactor as
    soon as it runs, with no page open. Importing the app with no reactor starts nothing."""
    monkeypatch.delitem(sys.modules, "twisted.internet.reactor", raising=False)
    assert clock.start_with_daphne() is False

    started: list[Callable[[], None]] = []
    reactor = types.SimpleNamespace(callWhenRunning=started.append)
    monkeypatch.setitem(sys.modules, "twisted.internet.reactor", reactor)
    assert clock.start_with_daphne() is True
    assert len(started) == 1
    loop_id = id(asyncio.get_running_loop())
    assert loop_id not in clock._tickers
    started[0]()  # the reactor runs
    assert not clock._tickers[loop_id].done()


async def test_the_ticker_can_be_switched_off(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.DEADLINE_TICKER = False
    reactor = types.SimpleNamespace(callWhenRunning=lambda f: pytest.fail("started"))
    monkeypatch.setitem(sys.modules, "twisted.internet.reactor", reactor)
    assert clock.start_with_daphne() is False
    clock.ensure_ticker()
    assert id(asyncio.get_running_loop()) not in clock._tickers


# --- What else the server does when it loads the application ------------------------------------


def test_the_server_leaves_its_startup_objects_out_of_garbage_collection() -> None:
    """onenight/garbage.py: loading the application froze what it made, and full collections
    come ten times more rarely than CPython's default."""
    import gc

    from onenight import asgi, garbage

    assert asgi.application is not None
    assert gc.get_freeze_count() > 10_000
    assert gc.get_threshold()[2] == garbage.FULL_COLLECTION_EVERY == 100
