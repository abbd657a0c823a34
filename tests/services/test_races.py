"""Races: requests arriving at the same moment in different threads (one connection each).

Each test starts its threads at a barrier so the calls really overlap. The services hold the
database's write lock for the whole transaction (SQLite: IMMEDIATE transactions; PostgreSQL:
SELECT ... FOR UPDATE), so one call wins and the others see its result.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import ChatMessage, Game, NightAction, Phase, Seat, Vote
from tests.factories import NAMES, THREE, create_lobby, deal_game, play_to

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 3


def run_together(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in parallel threads released together; each result or raised exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except BaseException as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a racing call never finished"
    return results


def errors(results: list[Any]) -> list[BaseException]:
    return [r for r in results if isinstance(r, BaseException)]


def notes(game: Game, start: str) -> int:
    return ChatMessage.objects.filter(game=game, seat=None, text__startswith=start).count()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_last_two_night_actions_at_once_resolve_the_night_once(round_: int) -> None:
    table = deal_game(**THREE)
    services.night_action_submit(seat=table.seat("Ann"), targets=[])
    ben, cat = table.seat("Ben"), table.seat("Cat")
    with mock.patch.object(services, "_resolve_night", wraps=services._resolve_night) as spy:
        results = run_together(
            lambda: services.night_action_submit(seat=ben, targets=["left", "middle"]),
            lambda: services.night_action_submit(seat=cat, targets=["Ann"]),
        )
    assert errors(results) == []
    assert spy.call_count == 1
    game = table.refresh()
    assert game.phase == Phase.DAY
    actions = {a.seat_id: a.targets for a in NightAction.objects.filter(game=game)}
    assert actions == {table.seats["Ann"].pk: [], ben.pk: ["left", "middle"], cat.pk: ["Ann"]}
    final = dict(Seat.objects.filter(game=game).values_list("name", "final_role"))
    assert final == {"Ann": "robber", "Ben": "seer", "Cat": "werewolf"}
    assert notes(game, "Dawn") == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_whole_table_acting_at_once_resolves_once(round_: int) -> None:
    table = deal_game(**THREE)
    seats = [table.seat(n) for n in table.names]
    targets = {"Ann": [], "Ben": ["Cat"], "Cat": []}
    with mock.patch.object(services, "_resolve_night", wraps=services._resolve_night) as spy:
        results = run_together(
            *[
                (lambda s=s: services.night_action_submit(seat=s, targets=targets[s.name]))
                for s in seats
            ]
        )
    assert errors(results) == []
    assert spy.call_count == 1
    assert table.phase() == Phase.DAY
    assert NightAction.objects.filter(game=table.game, complete=True).count() == 3


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_last_two_votes_at_once_reveal_once_with_both_counted(round_: int) -> None:
    table = play_to(Phase.VOTING)
    services.vote_cast(seat=table.seat("Ann"), target_id=table.seats["Ben"].pk)
    ben, cat = table.seat("Ben"), table.seat("Cat")
    with mock.patch.object(services, "_reveal", wraps=services._reveal) as spy:
        results = run_together(
            lambda: services.vote_cast(seat=ben, target_id=table.seats["Cat"].pk),
            lambda: services.vote_cast(seat=cat, target_id=table.seats["Ben"].pk),
        )
    assert errors(results) == []
    assert spy.call_count == 1
    game = table.refresh()
    assert game.phase == Phase.REVEAL
    assert Vote.objects.filter(game=game).count() == 3
    assert game.result is not None
    assert game.result["counts"] == {"Ben": 2, "Cat": 1}
    assert game.result["dead"] == ["Ben"]
    assert notes(game, "Every vote is in") == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_same_seat_voting_twice_at_once_counts_once(round_: int) -> None:
    table = play_to(Phase.VOTING)
    ann = table.seat("Ann")
    results = run_together(
        lambda: services.vote_cast(seat=ann, target_id=table.seats["Ben"].pk),
        lambda: services.vote_cast(seat=ann, target_id=table.seats["Cat"].pk),
    )
    failures = errors(results)
    assert len(failures) == 1
    assert isinstance(failures[0], services.ServiceError)
    assert "already voted" in str(failures[0])
    assert Vote.objects.filter(game=table.game).count() == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_deadline_checks_at_once_move_the_day_once(round_: int) -> None:
    table = play_to(Phase.DAY, vote_minutes=5)
    game = table.refresh()
    assert game.deadline is not None
    due = game.deadline + timedelta(seconds=1)
    results = run_together(
        lambda: services.game_advance_if_due(game_id=game.pk, now=due),
        lambda: services.game_advance_if_due(game_id=game.pk, now=due),
    )
    assert sorted(results) == [False, True]
    game = table.refresh()
    assert game.phase == Phase.VOTING
    assert game.deadline == due + timedelta(minutes=5)
    assert notes(game, "The day is over") == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_deadline_checks_at_once_end_the_night_once(round_: int) -> None:
    start = timezone.now()
    table = deal_game(
        night_minutes=1,
        now=start,
        **{"Ann": "werewolf", "Ben": "seer", "Cat": "drunk"}
        | {"left": "villager", "middle": "robber", "right": "tanner"},
    )
    due = start + timedelta(minutes=1)
    results = run_together(
        *[lambda: services.game_advance_if_due(game_id=table.game.pk, now=due)] * 3,
        lambda: services.advance_due_games(now=due),
    )
    assert errors(results) == []
    moved = [r for r in results[:3] if r is True] + [r for r in results[3:] if r]
    assert len(moved) == 1
    assert table.phase() == Phase.DAY
    actions = NightAction.objects.filter(game=table.game)
    assert actions.count() == 3 and all(a.by_deadline and a.complete for a in actions)
    assert notes(table.game, "Dawn") == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_deadline_checks_at_once_reveal_once(round_: int) -> None:
    table = play_to(Phase.VOTING, vote_minutes=1)
    services.vote_cast(seat=table.seat("Ann"), target_id=table.seats["Ben"].pk)
    due = timezone.now() + timedelta(minutes=2)
    results = run_together(
        lambda: services.game_advance_if_due(game_id=table.game.pk, now=due),
        lambda: services.game_advance_if_due(game_id=table.game.pk, now=due),
    )
    assert sorted(results) == [False, True]
    assert table.phase() == Phase.REVEAL
    assert Vote.objects.filter(game=table.game).count() == 3
    assert Vote.objects.filter(game=table.game, target=None).count() == 2


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_vote_racing_the_vote_deadline_is_either_counted_or_refused(round_: int) -> None:
    table = play_to(Phase.VOTING, vote_minutes=1)
    due = timezone.now() + timedelta(minutes=2)
    ann = table.seat("Ann")
    results = run_together(
        lambda: services.game_advance_if_due(game_id=table.game.pk, now=due),
        lambda: services.vote_cast(seat=ann, target_id=table.seats["Ben"].pk),
    )
    assert results[0] is True
    assert table.phase() == Phase.REVEAL
    votes = Vote.objects.filter(game=table.game)
    assert votes.count() == 3
    ann_vote = votes.get(voter_id=ann.pk)
    if isinstance(results[1], BaseException):
        assert isinstance(results[1], services.WrongPhaseError)
        assert ann_vote.target_id is None and ann_vote.by_deadline
    else:
        assert ann_vote.target_id == table.seats["Ben"].pk and not ann_vote.by_deadline


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_everyone_ready_at_once_starts_the_vote_once(round_: int) -> None:
    table = play_to(Phase.DAY)
    seats = [table.seat(n) for n in table.names]
    results = run_together(
        *[(lambda s=s: services.seat_ready_set(seat=s, ready=True)) for s in seats]
    )
    assert errors(results) == []
    assert table.phase() == Phase.VOTING
    assert notes(table.game, "The day is over") == 1


def test_host_ending_the_day_while_everyone_gets_ready() -> None:
    table = play_to(Phase.DAY)
    services.seat_ready_set(seat=table.seat("Ann"), ready=True)
    services.seat_ready_set(seat=table.seat("Ben"), ready=True)
    results = run_together(
        lambda: services.day_end(host=table.seat("Ann")),
        lambda: services.seat_ready_set(seat=table.seat("Cat"), ready=True),
    )
    failures = errors(results)
    assert len(failures) <= 1
    assert all(isinstance(f, services.WrongPhaseError) for f in failures)
    assert table.phase() == Phase.VOTING
    assert notes(table.game, "The day is over") == 1


def test_play_again_pressed_by_everyone_at_once_makes_one_game() -> None:
    table = play_to(Phase.REVEAL)
    seats = [table.seat(n) for n in table.names]
    results = run_together(*[(lambda s=s: services.game_play_again(seat=s)) for s in seats])
    assert errors(results) == []
    assert len({r.game_id for r in results}) == 1
    assert [r.name for r in results] == table.names
    assert Game.objects.filter(previous_game=table.game).count() == 1
    assert Seat.objects.filter(game_id=results[0].game_id).count() == 3


def test_two_players_taking_the_same_name_at_once() -> None:
    table = create_lobby(["Ann"])
    results = run_together(
        lambda: services.seat_join(game=table.game, name="Bob", rules_phrase=services.RULES_PHRASE),
        lambda: services.seat_join(game=table.game, name="BOB", rules_phrase=services.RULES_PHRASE),
    )
    failures = errors(results)
    assert len(failures) == 1 and isinstance(failures[0], services.ServiceError)
    assert table.game.seats.count() == 2


def test_two_players_racing_for_the_last_seat() -> None:
    table = create_lobby(NAMES[:11])
    results = run_together(
        lambda: services.seat_join(game=table.game, name="Yan", rules_phrase=services.RULES_PHRASE),
        lambda: services.seat_join(game=table.game, name="Zoe", rules_phrase=services.RULES_PHRASE),
    )
    failures = errors(results)
    assert len(failures) == 1 and "The table is full" in str(failures[0])
    assert table.game.seats.count() == 12
    assert sorted(Seat.objects.values_list("position", flat=True)) == list(range(12))


def test_start_racing_a_join() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    results = run_together(
        lambda: services.game_start(host=table.seat("Ann")),
        lambda: services.seat_join(game=table.game, name="Dan", rules_phrase=services.RULES_PHRASE),
    )
    assert not isinstance(results[0], BaseException)
    game = table.refresh()
    assert game.phase == Phase.NIGHT
    seats = list(game.seats.all())
    # Whoever joined before the deal got a card; nobody sits at the table without one.
    assert all(s.start_role for s in seats)
    assert len(game.deck) == len(seats) + 3
    if isinstance(results[1], BaseException):
        assert isinstance(results[1], services.WrongPhaseError)
