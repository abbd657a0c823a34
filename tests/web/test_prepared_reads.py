"""The reads whose SQL is built once (games/prepared.py) return what their querysets return."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError

from games import prepared, selectors, services
from games.models import CentreCard, ChatMessage, Game, NightAction, Phase, Seat, Vote
from games.prepared import PreparedRead
from tests.factories import TWELVE, play_to

pytestmark = pytest.mark.django_db

READS = {
    "GAME_BY_ID": prepared.GAME_BY_ID,
    "GAME_BY_CODE": prepared.GAME_BY_CODE,
    "SEAT_BY_TOKEN": prepared.SEAT_BY_TOKEN,
    "SEAT_AT_GAME": prepared.SEAT_AT_GAME,
    "SEATS_OF_GAME": prepared.SEATS_OF_GAME,
    "CENTRE_OF_GAME": prepared.CENTRE_OF_GAME,
    "ACTIONS_OF_GAME": prepared.ACTIONS_OF_GAME,
    "VOTES_OF_GAME": prepared.VOTES_OF_GAME,
    "RECENT_CHAT": selectors.RECENT_CHAT,
}


@pytest.mark.parametrize("name", READS)
def test_every_declared_read_runs_its_prepared_sql(name: str) -> None:
    assert READS[name].sql() is not None, f"{name} falls back to its queryset"


def test_the_locking_read_locks_where_the_database_can() -> None:
    """Compiled inside a transaction, as every service runs it: FOR UPDATE on PostgreSQL,
    a plain SELECT on SQLite (whose transactions take the database's write lock)."""
    with transaction.atomic():
        sql = prepared.LOCKED_GAME_BY_ID.sql()
    assert sql is not None
    assert sql.endswith("FOR UPDATE") == connection.features.has_select_for_update
    table = play_to(Phase.LOBBY, TWELVE)
    with transaction.atomic():
        assert services._locked_game(table.game.pk) == table.game
        with pytest.raises(Game.DoesNotExist):
            services._locked_game(table.game.pk + 1000)


@pytest.mark.django_db(transaction=True)
def test_the_locking_read_refuses_to_run_outside_a_transaction_where_it_would_lock() -> None:
    """On every call, not only when it is compiled: a lock taken in autocommit would be let go
    at once. Where the database does not lock rows (SQLite) it runs as a plain read."""
    table = play_to(Phase.LOBBY, TWELVE)
    with transaction.atomic():
        prepared.LOCKED_GAME_BY_ID.one(table.game.pk)  # compiled here, inside a transaction
    if connection.features.has_select_for_update:
        with pytest.raises(TransactionManagementError):
            prepared.LOCKED_GAME_BY_ID.one(table.game.pk)
    else:
        assert prepared.LOCKED_GAME_BY_ID.one(table.game.pk) == table.game


def fields(row: object) -> dict[str, object]:
    return {f.attname: getattr(row, f.attname) for f in type(row)._meta.concrete_fields}


def test_prepared_reads_return_the_rows_their_querysets_return() -> None:
    """Every field, converted as the ORM converts it (JSON, dates, booleans), in the same
    order: a whole table at the reveal has rows of every kind."""
    table = play_to(Phase.REVEAL, TWELVE)
    game = Game.objects.get(pk=table.game.pk)
    seat = game.seats.order_by("position")[3]
    for n in range(selectors.CHAT_HISTORY + 5):  # more than a page shows
        ChatMessage.objects.create(game=game, seat=seat, author=seat.name, text=f"line {n}")
    chat = ChatMessage.objects.filter(game=game).order_by("id")
    middle = chat[len(chat) // 2].pk
    pairs = [
        (prepared.GAME_BY_ID(game.pk), [game]),
        (prepared.SEAT_BY_TOKEN(seat.token), [seat]),
        (prepared.SEAT_AT_GAME(seat.pk, game.pk), [seat]),
        (prepared.SEAT_AT_GAME(seat.pk, game.pk + 1000), []),
        (prepared.SEATS_OF_GAME(game.pk), list(game.seats.order_by("position"))),
        (prepared.CENTRE_OF_GAME(game.pk), list(CentreCard.objects.filter(game=game))),
        (prepared.ACTIONS_OF_GAME(game.pk), list(NightAction.objects.filter(game=game))),
        (prepared.VOTES_OF_GAME(game.pk), list(Vote.objects.filter(game=game))),
        (prepared.GAME_BY_CODE(game.code), [game]),
        (prepared.GAME_BY_CODE("NOSUCH"), []),
        (selectors.RECENT_CHAT(game.pk, 0), list(chat.order_by("-id")[: selectors.CHAT_HISTORY])),
        (selectors.RECENT_CHAT(game.pk, middle), list(chat.filter(id__gt=middle)[::-1])),
    ]
    for got, expected in pairs:
        assert [fields(r) for r in got] == [fields(r) for r in expected]
    assert len(pairs[4][0]) == 12 and len(pairs[7][0]) == 12
    assert isinstance(pairs[5][0][0].pk, int) and isinstance(pairs[6][0][0].targets, list)
    assert pairs[0][0][0].result == game.result and pairs[0][0][0].deadline == game.deadline


def test_a_read_whose_parameters_are_not_its_arguments_falls_back_to_its_queryset() -> None:
    """Keyword filters are sorted by name, so these parameters come out as (game, pk): the
    check at first use sees it and the read keeps building its queryset, still correct."""
    swapped = PreparedRead(lambda pk, game_id: Seat.objects.filter(pk=pk, game_id=game_id), 1, 2)
    assert swapped.sql() is None
    table = play_to(Phase.LOBBY, TWELVE)
    seat = table.game.seats.first()
    assert swapped.one(seat.pk, table.game.pk) == seat
    assert swapped(seat.pk, table.game.pk + 1000) == []


def test_samples_must_be_distinct() -> None:
    with pytest.raises(ValueError):
        PreparedRead(lambda a, b: Seat.objects.filter(pk=a).filter(game_id=b), 1, 1)


@pytest.mark.django_db(transaction=True)
def test_each_thread_runs_a_read_on_its_own_connection() -> None:
    """Connections belong to threads: a read compiled on one is compiled again on another,
    and both give the same rows."""
    from concurrent.futures import ThreadPoolExecutor

    table = play_to(Phase.DAY, TWELVE)
    here = [s.pk for s in prepared.SEATS_OF_GAME(table.game.pk)]

    def elsewhere() -> tuple[list[int], bool]:
        try:
            rows = [s.pk for s in prepared.SEATS_OF_GAME(table.game.pk)]
            return rows, prepared.SEATS_OF_GAME.sql() is not None
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        rows, prepared_there = pool.submit(elsewhere).result()
    assert rows == here and len(here) == 12 and prepared_there
