"""Deadlines: games/services.game_advance_if_due, advance_due_games and games/ticker.

A game whose stored deadline has passed moves on exactly once (night -> day with the missing
actions filled in, day -> voting, voting -> reveal with the missing votes as "no vote"), however
many tickers or requests notice it, and calling again with the same stored deadline does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.utils import timezone

from games import services, ticker
from games.engine import CENTRE_POSITIONS
from games.models import ChatMessage, Game, NightAction, Phase, Seat, Vote
from tests.factories import (
    Table,
    cast_votes,
    create_lobby,
    deal_game,
    game_state,
    play_to,
    send_action,
)
from tests.realtime.helpers import SocketOpener

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


def night_game(**kwargs: Any) -> Table:
    """A night with a one-minute limit in which only Ben has acted."""
    table = deal_game(night_minutes=1, vote_minutes=1, **kwargs, **CARDS)
    send_action(table, "Ben", ["Ann"])
    table.refresh()
    return table


def deadline_of(table: Table) -> datetime:
    deadline = Game.objects.values_list("deadline", flat=True).get(pk=table.game.pk)
    assert deadline is not None
    return deadline


def notes(game_id: int, starting: str) -> int:
    """How many moderator notes of one kind the game's chat holds."""
    return ChatMessage.objects.filter(
        game_id=game_id, seat__isnull=True, text__startswith=starting
    ).count()


def assert_nothing_more_happens(table: Table, when: datetime) -> None:
    """Calling again (a restarted ticker, a second process) with `when` changes nothing."""
    before = game_state(table.game.pk)
    assert table.code not in services.advance_due_games(now=when)
    assert services.game_advance_if_due(game_id=table.game.pk, now=when) is False
    assert game_state(table.game.pk) == before


# --- One game, one deadline -------------------------------------------------------------------


def test_night_deadline_fills_in_missing_actions_and_begins_the_day() -> None:
    table = night_game()
    deadline = deadline_of(table)
    assert deadline == table.game.started_at + timedelta(minutes=1)

    # A moment before the deadline nothing happens.
    assert_nothing_more_happens(table, deadline - SECOND)
    assert table.phase() == Phase.NIGHT

    assert services.advance_due_games(now=deadline) == [table.code]
    game = table.refresh()
    assert game.phase == Phase.DAY
    assert game.day_started_at == deadline
    assert game.deadline == deadline + timedelta(seconds=game.day_seconds)

    actions = {a.seat.name: a for a in NightAction.objects.filter(game=game).select_related("seat")}
    assert set(actions) == {"Ann", "Ben", "Cat"}
    assert all(a.complete for a in actions.values())
    assert (actions["Ben"].targets, actions["Ben"].by_deadline) == (["Ann"], False)
    assert (actions["Ann"].targets, actions["Ann"].by_deadline) == ([], True)
    # The drunk must swap: the moderator picked a centre card for him.
    assert actions["Cat"].by_deadline is True
    assert len(actions["Cat"].targets) == 1
    assert actions["Cat"].targets[0] in CENTRE_POSITIONS
    cat = table.seat("Cat")
    swapped = game.centre_cards.get(position=actions["Cat"].targets[0])
    assert cat.final_role == swapped.start_role
    assert swapped.final_role == "drunk"
    assert all(s.final_role for s in Seat.objects.filter(game=game))
    assert notes(game.pk, DAWN_NOTE) == 1

    assert_nothing_more_happens(table, deadline)
    assert_nothing_more_happens(table, timezone.now())
    assert NightAction.objects.filter(game=game).count() == 3
    assert notes(game.pk, DAWN_NOTE) == 1


def test_day_deadline_begins_the_vote() -> None:
    table = play_to(Phase.DAY, CARDS, vote_minutes=1)
    deadline = deadline_of(table)
    assert_nothing_more_happens(table, deadline - SECOND)

    assert services.game_advance_if_due(game_id=table.game.pk, now=deadline) is True
    game = table.refresh()
    assert game.phase == Phase.VOTING
    assert game.deadline == deadline + timedelta(minutes=1)
    assert notes(game.pk, VOTE_NOTE) == 1
    assert Vote.objects.filter(game=game).count() == 0

    assert_nothing_more_happens(table, deadline)
    assert notes(game.pk, VOTE_NOTE) == 1


def test_day_deadline_without_a_vote_limit_leaves_the_vote_open() -> None:
    table = play_to(Phase.DAY, CARDS)
    deadline = deadline_of(table)
    assert services.advance_due_games(now=deadline + timedelta(hours=5)) == [table.code]
    game = table.refresh()
    assert (game.phase, game.deadline) == (Phase.VOTING, None)
    # With no deadline, the vote never ends by itself however late it gets.
    assert_nothing_more_happens(table, deadline + timedelta(days=3))


def test_vote_deadline_counts_missing_votes_as_none_and_reveals() -> None:
    table = play_to(Phase.VOTING, CARDS, vote_minutes=1)
    cast_votes(table, {"Ann": "Ben"})
    deadline = deadline_of(table)
    assert_nothing_more_happens(table, deadline - SECOND)

    assert services.advance_due_games(now=deadline + SECOND) == [table.code]
    game = table.refresh()
    assert game.phase == Phase.REVEAL
    assert game.deadline is None
    assert game.finished_at == deadline + SECOND
    assert game.result is not None
    votes = {v.voter.name: v for v in Vote.objects.filter(game=game).select_related("voter")}
    assert set(votes) == {"Ann", "Ben", "Cat"}
    assert (votes["Ann"].target_id, votes["Ann"].by_deadline) == (table.seats["Ben"].pk, False)
    for name in ("Ben", "Cat"):
        assert (votes[name].target_id, votes[name].by_deadline) == (None, True)
    assert notes(game.pk, REVEAL_NOTE) == 1

    assert_nothing_more_happens(table, deadline + SECOND)
    assert_nothing_more_happens(table, deadline + timedelta(days=1))
    assert Vote.objects.filter(game=game).count() == 3


def test_games_not_due_are_untouched() -> None:
    now = timezone.now()
    lobby = create_lobby(("Ann", "Ben", "Cat"))
    night = night_game()  # deadline in a minute
    no_limit_night = deal_game(**CARDS)  # no night time limit at all
    day = play_to(Phase.DAY, CARDS)  # deadline in 30 minutes
    voting = play_to(Phase.VOTING, CARDS)  # no vote time limit
    reveal = play_to(Phase.REVEAL, CARDS)
    cancelled = create_lobby(("Dan", "Eve", "Fay"))
    services.game_cancel(game=cancelled.game)
    # A stale deadline left on a finished game must not bring it back to life.
    Game.objects.filter(pk__in=[reveal.game.pk, cancelled.game.pk]).update(
        deadline=now - timedelta(hours=1)
    )
    tables = [lobby, night, no_limit_night, day, voting, reveal, cancelled]
    before = {t.code: game_state(t.game.pk) for t in tables}

    assert services.advance_due_games(now=now) == []
    for table in tables:
        assert services.game_advance_if_due(game_id=table.game.pk, now=now) is False
        assert game_state(table.game.pk) == before[table.code], table.code


def test_only_the_due_games_move() -> None:
    due = night_game()
    later = night_game()
    Game.objects.filter(pk=later.game.pk).update(deadline=deadline_of(due) + timedelta(minutes=5))
    untouched = game_state(later.game.pk)
    assert services.advance_due_games(now=deadline_of(due)) == [due.code]
    assert due.phase() == Phase.DAY
    assert game_state(later.game.pk) == untouched


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


def test_two_tickers_racing_move_each_due_game_exactly_once() -> None:
    nights = [night_game() for _ in range(3)]
    day = play_to(Phase.DAY, CARDS, vote_minutes=1)
    voting = play_to(Phase.VOTING, CARDS, vote_minutes=1)
    cast_votes(voting, {"Cat": "Ann"})
    tables = [*nights, day, voting]
    start = timezone.now() + timedelta(minutes=2)  # every night and the vote are due
    Game.objects.filter(pk=day.game.pk).update(deadline=start - SECOND)

    def round_of(when: datetime, expected: dict[str, str]) -> None:
        moved = race(2, lambda: services.advance_due_games(now=when))
        codes = sorted(moved[0] + moved[1])
        assert codes == sorted(expected), (moved, expected)
        for table in tables:
            if table.code in expected:
                assert table.phase() == expected[table.code], table.code

    # Round 1: the nights end, the day ends, the vote ends.
    round_of(
        start,
        {**{t.code: Phase.DAY for t in nights}, day.code: Phase.VOTING, voting.code: Phase.REVEAL},
    )
    # Round 2, 31 minutes on: the new days end and the first vote's limit has passed.
    later = start + timedelta(minutes=31)
    round_of(later, {**{t.code: Phase.VOTING for t in nights}, day.code: Phase.REVEAL})
    # Round 3: the last votes close.
    last = later + timedelta(minutes=2)
    round_of(last, {t.code: Phase.REVEAL for t in nights})
    # Round 4: nothing is left to do.
    round_of(last + timedelta(days=1), {})

    for table in tables:
        game = table.refresh()
        assert game.phase == Phase.REVEAL
        assert NightAction.objects.filter(game=game).count() == 3
        assert Vote.objects.filter(game=game).count() == 3
        assert notes(game.pk, DAWN_NOTE) == 1
        assert notes(game.pk, VOTE_NOTE) == 1
        assert notes(game.pk, REVEAL_NOTE) == 1
    assert Vote.objects.get(voter=voting.seats["Cat"]).target_id == voting.seats["Ann"].pk


def test_many_callers_on_one_game_move_it_once() -> None:
    table = night_game()
    when = deadline_of(table)
    results = race(4, lambda: services.game_advance_if_due(game_id=table.game.pk, now=when))
    assert sorted(results) == [False, False, False, True]
    assert table.phase() == Phase.DAY
    assert NightAction.objects.filter(game=table.game).count() == 3
    assert notes(table.game.pk, DAWN_NOTE) == 1


# --- The ticker task --------------------------------------------------------------------------


async def wait_for_phase(table: Table, phase: str, timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while await db(table.phase)() != phase:
            await asyncio.sleep(0.02)


async def stop(task: asyncio.Task[Any]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def make_due(table: Table) -> None:
    Game.objects.filter(pk=table.game.pk).update(deadline=timezone.now() - SECOND)


async def test_run_ticker_moves_a_due_game_on() -> None:
    table = await db(night_game)()
    await db(make_due)(table)
    task = asyncio.create_task(ticker.run_ticker(interval=0.05))
    try:
        await wait_for_phase(table, Phase.DAY)
        await asyncio.sleep(0.2)  # a few more ticks: the new day is not due
    finally:
        await stop(task)
    assert await db(table.phase)() == Phase.DAY
    assert await db(lambda: NightAction.objects.filter(game=table.game).count())() == 3
    assert await db(notes)(table.game.pk, DAWN_NOTE) == 1


async def test_a_failed_tick_does_not_stop_the_ticker(caplog: pytest.LogCaptureFixture) -> None:
    table = await db(night_game)()
    await db(make_due)(table)
    real = services.advance_due_games
    calls = 0

    def flaky() -> list[str]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("database went away")
        return real()

    with mock.patch.object(services, "advance_due_games", flaky):
        task = asyncio.create_task(ticker.run_ticker(interval=0.05))
        try:
            await wait_for_phase(table, Phase.DAY)
        finally:
            await stop(task)
    assert calls >= 2
    assert "Deadline tick failed" in caplog.text


async def test_the_asgi_app_starts_one_ticker_per_loop_only_when_enabled(
    settings: Any, sockets: SocketOpener
) -> None:
    from tests.realtime.helpers import websocket_app

    loop_id = id(asyncio.get_running_loop())
    table = await db(night_game)()
    await db(make_due)(table)

    settings.DEADLINE_TICKER = False
    await sockets.open(table.code, None)
    assert loop_id not in ticker._tickers

    settings.DEADLINE_TICKER = True
    try:
        first = sockets.communicator(table.code, app=websocket_app())
        await first.connect(timeout=3)
        task = ticker._tickers[loop_id]
        second = sockets.communicator(table.code, app=websocket_app())
        await second.connect(timeout=3)
        assert ticker._tickers[loop_id] is task  # the second connection started no other
        assert not task.done()
        # With no page asking, the ticker moves the game on by itself.
        await wait_for_phase(table, Phase.DAY)
    finally:
        task = ticker._tickers.pop(loop_id, None)
        if task is not None:
            await stop(task)
