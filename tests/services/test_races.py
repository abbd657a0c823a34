"""Races: requests arriving at the same moment in different threads (one connection each).

Each test starts its threads at a barrier so the calls really overlap. The services hold the
table's lock for the whole transaction (SQLite: IMMEDIATE transactions; PostgreSQL: SELECT ...
FOR UPDATE), so one call wins and the others see its result: a clear error, and nothing lost.
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

from games.families.onenight import play
from games.families.onenight.options import RULES_PHRASE
from games.tables import services
from games.tables.models import ChatLine, Move, Seat, Table
from tests.factories import (
    NAMES,
    THREE,
    TestTable,
    create_lobby,
    deal_game,
    form_targets,
    move,
    night_action,
    play_to,
    vote,
)

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


def notes(table: TestTable, start: str) -> int:
    return ChatLine.objects.filter(table=table.table, note=True, text__startswith=start).count()


def versions_are_distinct(table: TestTable) -> None:
    """Every stored move carries its own table version: no two changes were merged."""
    versions = list(Move.objects.filter(table=table.table).values_list("version", flat=True))
    assert len(versions) == len(set(versions))
    assert max(versions) == table.refresh().version


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_last_two_night_actions_at_once_resolve_the_night_once(round_: int) -> None:
    table = deal_game(**THREE)
    night_action(table, "Ann", [])
    ben, cat = table.seat("Ben"), table.seat("Cat")
    cat_targets = form_targets(table, "Ann")
    with mock.patch.object(play, "_dawn", wraps=play._dawn) as spy:
        results = run_together(
            lambda: move(ben, "action", targets=["left,middle"]),
            lambda: move(cat, "action", targets=cat_targets),
        )
    assert errors(results) == []
    assert spy.call_count == 1
    assert table.phase() == "day"
    actions = {n: a["targets"] for n, a in table.state().actions.items()}
    assert actions == {"Ann": [], "Ben": ["left", "middle"], "Cat": ["Ann"]}
    final = {p: r.value for p, r in table.state().night().final.items()}
    assert (final["Ann"], final["Ben"], final["Cat"]) == ("robber", "seer", "werewolf")
    assert notes(table, "Dawn") == 1
    versions_are_distinct(table)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_whole_table_acting_at_once_resolves_once(round_: int) -> None:
    table = deal_game(**THREE)
    seats = [table.seat(n) for n in table.names]
    posted = {"Ann": {"no_action": "1"}, "Ben": {"targets": form_targets(table, "Cat")}}
    posted["Cat"] = {"no_action": "1"}
    with mock.patch.object(play, "_dawn", wraps=play._dawn) as spy:
        results = run_together(
            *[(lambda s=s: move(s, "action", **posted[s.name])) for s in seats]  # type: ignore[misc]
        )
    assert errors(results) == []
    assert spy.call_count == 1
    assert table.phase() == "day"
    assert all(a["complete"] for a in table.state().actions.values())
    assert len(table.state().actions) == 3
    versions_are_distinct(table)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_last_two_votes_at_once_reveal_once_with_both_counted(round_: int) -> None:
    table = play_to("voting")
    vote(table, "Ann", "Ben")
    ben, cat = table.seat("Ben"), table.seat("Cat")
    with mock.patch.object(play, "_reveal", wraps=play._reveal) as spy:
        results = run_together(
            lambda: move(ben, "vote", target=table.seats["Cat"].pk),
            lambda: move(cat, "vote", target=table.seats["Ben"].pk),
        )
    assert errors(results) == []
    assert spy.call_count == 1
    assert table.phase() == "reveal"
    assert len(table.state().votes) == 3
    result = table.state().result
    assert result is not None
    assert result["counts"] == {"Ben": 2, "Cat": 1}
    assert result["dead"] == ["Ben"]
    assert notes(table, "Every vote is in") == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_same_seat_voting_twice_at_once_counts_once(round_: int) -> None:
    table = play_to("voting")
    ann = table.seat("Ann")
    results = run_together(
        lambda: move(ann, "vote", target=table.seats["Ben"].pk),
        lambda: move(ann, "vote", target=table.seats["Cat"].pk),
    )
    failures = errors(results)
    assert len(failures) == 1
    assert isinstance(failures[0], services.ServiceError)
    assert str(failures[0]) == "You already voted; votes are final."
    winner = table.seats["Ben"].pk if failures[0] is results[1] else table.seats["Cat"].pk
    assert table.state().votes == {str(ann.pk): winner}
    assert Move.objects.filter(table=table.table, kind="vote").count() == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_the_same_night_action_sent_twice_at_once_counts_once(round_: int) -> None:
    table = deal_game(**THREE)
    ben = table.seat("Ben")
    results = run_together(
        lambda: move(ben, "action", targets=form_targets(table, "Cat")),
        lambda: move(ben, "action", targets=["left,right"]),
    )
    failures = errors(results)
    assert len(failures) == 1
    assert str(failures[0]) == "You already sent your night action; it is final."
    expected = ["left", "right"] if failures[0] is results[0] else ["Cat"]
    assert table.state().actions["Ben"]["targets"] == expected


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_deadline_checks_at_once_move_the_day_once(round_: int) -> None:
    table = play_to("day", vote_minutes=5)
    deadline = table.refresh().deadline
    assert deadline is not None
    due = deadline + timedelta(seconds=1)
    results = run_together(
        lambda: services.table_advance_if_due(table_id=table.table.pk, now=due),
        lambda: services.table_advance_if_due(table_id=table.table.pk, now=due),
    )
    assert sorted(results) == [False, True]
    stored = table.refresh()
    assert stored.phase == "voting"
    assert stored.deadline == due + timedelta(minutes=5)
    assert notes(table, "The day is over") == 1


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
        *[lambda: services.table_advance_if_due(table_id=table.table.pk, now=due)] * 3,
        lambda: services.advance_due_tables(now=due),
    )
    assert errors(results) == []
    moved = [r for r in results[:3] if r is True] + [r for r in results[3:] if r]
    assert len(moved) == 1
    assert table.phase() == "day"
    actions = table.state().actions
    assert len(actions) == 3 and all(a["by_deadline"] and a["complete"] for a in actions.values())
    assert notes(table, "Dawn") == 1
    assert Move.objects.filter(table=table.table, kind="deadline").count() == 1


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_deadline_checks_at_once_reveal_once(round_: int) -> None:
    table = play_to("voting", vote_minutes=1)
    vote(table, "Ann", "Ben")
    due = timezone.now() + timedelta(minutes=2)
    results = run_together(
        lambda: services.table_advance_if_due(table_id=table.table.pk, now=due),
        lambda: services.table_advance_if_due(table_id=table.table.pk, now=due),
    )
    assert sorted(results) == [False, True]
    assert table.phase() == "reveal"
    votes = table.state().votes
    assert len(votes) == 3
    assert list(votes.values()).count(None) == 2


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_vote_racing_the_vote_deadline_is_either_counted_or_refused(round_: int) -> None:
    table = play_to("voting", vote_minutes=1)
    due = timezone.now() + timedelta(minutes=2)
    ann = table.seat("Ann")
    results = run_together(
        lambda: services.table_advance_if_due(table_id=table.table.pk, now=due),
        lambda: move(ann, "vote", target=table.seats["Ben"].pk),
    )
    assert results[0] is True
    assert table.phase() == "reveal"
    votes = table.state().votes
    assert len(votes) == 3
    if isinstance(results[1], BaseException):
        assert isinstance(results[1], services.WrongStageError)
        assert str(results[1]) == "This game is over."
        assert votes[str(ann.pk)] is None
    else:
        assert votes[str(ann.pk)] == table.seats["Ben"].pk


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_everyone_ready_at_once_starts_the_vote_once(round_: int) -> None:
    table = play_to("day")
    seats = [table.seat(n) for n in table.names]
    results = run_together(*[(lambda s=s: move(s, "ready", ready="yes")) for s in seats])
    assert errors(results) == []
    assert table.phase() == "voting"
    assert notes(table, "The day is over") == 1


def test_host_ending_the_day_while_everyone_gets_ready() -> None:
    table = play_to("day")
    move(table.seat("Ann"), "ready", ready="yes")
    move(table.seat("Ben"), "ready", ready="yes")
    ann, cat = table.seat("Ann"), table.seat("Cat")
    results = run_together(
        lambda: move(ann, "end_day"),
        lambda: move(cat, "ready", ready="yes"),
    )
    failures = errors(results)
    assert len(failures) <= 1
    assert all(isinstance(f, services.WrongStageError) for f in failures)
    assert all("Voting is under way" in str(f) for f in failures)
    assert table.phase() == "voting"
    assert notes(table, "The day is over") == 1


def test_a_move_racing_the_hosts_cancel_is_either_in_or_refused() -> None:
    table = deal_game(**THREE)
    ben = table.seat("Ben")
    results = run_together(
        lambda: services.table_cancel(table=table.table, by=table.seat("Ann")),
        lambda: move(ben, "action", targets=form_targets(table, "Cat")),
    )
    assert results[0] is None
    assert table.phase() == "cancelled"
    if isinstance(results[1], BaseException):
        assert isinstance(results[1], services.WrongStageError)
        assert str(results[1]) == "This game was cancelled."
        assert "Ben" not in table.state().actions
    else:
        assert table.state().actions["Ben"]["targets"] == ["Cat"]


def test_play_again_pressed_by_everyone_at_once_makes_one_table() -> None:
    table = play_to("reveal")
    seats = [table.seat(n) for n in table.names]
    results = run_together(*[(lambda s=s: services.play_again(seat=s)) for s in seats])
    assert errors(results) == []
    assert len({r.table_id for r in results}) == 1
    assert [r.name for r in results] == table.names
    assert [r.previous_seat_id for r in results] == [s.pk for s in seats]
    assert Table.objects.filter(previous=table.table).count() == 1
    assert Seat.objects.filter(table_id=results[0].table_id).count() == 3


def test_two_players_taking_the_same_name_at_once() -> None:
    table = create_lobby(["Ann"])
    results = run_together(
        lambda: services.seat_join(table=table.table, name="Bob", phrase=RULES_PHRASE),
        lambda: services.seat_join(table=table.table, name="BOB", phrase=RULES_PHRASE),
    )
    failures = errors(results)
    assert len(failures) == 1 and isinstance(failures[0], services.ServiceError)
    assert "pick another name" in str(failures[0])
    assert table.table.seats.count() == 2


def test_two_players_racing_for_the_last_seat() -> None:
    table = create_lobby(NAMES[:11])
    results = run_together(
        lambda: services.seat_join(table=table.table, name="Yan", phrase=RULES_PHRASE),
        lambda: services.seat_join(table=table.table, name="Zoe", phrase=RULES_PHRASE),
    )
    failures = errors(results)
    assert len(failures) == 1 and "The table is full" in str(failures[0])
    assert table.table.seats.count() == 12
    assert sorted(Seat.objects.values_list("position", flat=True)) == list(range(12))


def test_start_racing_a_join() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    results = run_together(
        lambda: services.table_start(host=table.seat("Ann")),
        lambda: services.seat_join(table=table.table, name="Dan", phrase=RULES_PHRASE),
    )
    assert not isinstance(results[0], BaseException)
    stored = table.refresh()
    assert stored.phase == "night"
    seated = sorted(stored.seats.values_list("pk", flat=True))
    state = table.state()
    # Whoever joined before the deal got a card; nobody sits at the table without one.
    assert sorted(i for i, _ in state.players) == seated
    assert len(state.raw["cards"]) == len(seated) + 3
    if isinstance(results[1], BaseException):
        assert isinstance(results[1], services.WrongStageError)


def test_removal_racing_the_removed_players_chat_loses_nothing_else() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    cat = table.seat("Cat")
    results = run_together(
        lambda: services.seat_remove(host=table.seat("Ann"), seat_id=cat.pk),
        lambda: services.chat_post(seat=cat, text="hello"),
    )
    assert results[0] is None
    assert not Seat.objects.filter(pk=cat.pk).exists()
    lines = list(ChatLine.objects.filter(table=table.table, note=False))
    if isinstance(results[1], BaseException):
        assert isinstance(results[1], services.NotAllowedError)
        assert lines == []
    else:
        assert [(line.author, line.text) for line in lines] == [("Cat", "hello")]
