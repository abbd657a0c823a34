"""Querysets whose SQL the ORM builds once per process, for the reads every request makes.

Building a query is most of what a small ORM read costs on this project's server: the SELECT
of a table's eight seats takes about 480 µs through a queryset, of which SQLite's own work is
about 50 µs (docs/benchmarks.md). A `PreparedRead` asks the ORM for the queryset's SQL the first
time it runs, then runs that same SQL through `Manager.raw()` with each call's values: the same
statement, the same model instances and field conversions, without building the query again.

Only for plain single-model reads (no select_related, annotations or locks) whose parameters
are exactly the call's arguments, in order. That is checked once, with the distinct sample
values the read is declared with; a read that fails the check keeps using its queryset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import models

from games.models import CentreCard, Game, NightAction, Seat, Vote


class PreparedRead[M: models.Model]:
    """`build(*args)` as a list of model instances, its SQL built by the ORM once."""

    def __init__(self, build: Callable[..., models.QuerySet[M]], *samples: Any) -> None:
        """`samples`: one distinct example value per argument, used to check that the SQL's
        parameters are the arguments in order (ints or strings the database takes as they
        are)."""
        if len(set(map(repr, samples))) != len(samples):
            raise ValueError("PreparedRead needs distinct sample values")
        self._build = build
        self._samples = samples
        self._sql: str | None = None
        self._manager: models.Manager[M] | None = None
        self._prepared = False

    def _prepare(self) -> None:
        queryset = self._build(*self._samples)
        sql, params = queryset.query.sql_with_params()
        if list(params) == list(self._samples) and not queryset.query.select_related:
            self._sql = sql
            self._manager = queryset.model._default_manager
        self._prepared = True

    def __call__(self, *args: Any) -> list[M]:
        if not self._prepared:
            self._prepare()
        if self._sql is None or self._manager is None:
            return list(self._build(*args))
        return list(self._manager.raw(self._sql, args))

    def one(self, *args: Any) -> M | None:
        """The one row the read finds (its filter matches at most one), or None."""
        rows = self(*args)
        return rows[0] if rows else None

    def sql(self) -> str | None:
        """The SQL it runs (None: it falls back to its queryset). For tests."""
        if not self._prepared:
            self._prepare()
        return self._sql


def of_game[R: models.Model](rows: list[R], game: Game) -> list[R]:
    """`rows` (seats, cards, actions or votes of `game`), each with `.game` set to `game`, as a
    related manager's read would have them: reaching a row's game costs no query."""
    for row in rows:
        row._meta.get_field("game").set_cached_value(row, game)
    return rows


# The reads of every seated request, page push and service call. Chained filters keep each
# query's parameters in the order of the arguments (keyword filters are sorted by name).
GAME_BY_ID = PreparedRead(lambda pk: Game.objects.filter(pk=pk).order_by()[:1], 1)
SEAT_BY_TOKEN = PreparedRead(
    lambda token: Seat.objects.filter(token=token).order_by()[:1], "sample-token"
)
SEAT_AT_GAME = PreparedRead(
    lambda pk, game_id: Seat.objects.filter(pk=pk).filter(game_id=game_id).order_by()[:1], 1, 2
)
SEATS_OF_GAME = PreparedRead(
    lambda game_id: Seat.objects.filter(game_id=game_id).order_by("position"), 1
)
CENTRE_OF_GAME = PreparedRead(
    lambda game_id: CentreCard.objects.filter(game_id=game_id).order_by("id"), 1
)
ACTIONS_OF_GAME = PreparedRead(
    lambda game_id: NightAction.objects.filter(game_id=game_id).order_by("id"), 1
)
ACTION_OF_SEAT = PreparedRead(
    lambda seat_id: NightAction.objects.filter(seat_id=seat_id).order_by()[:1], 1
)
VOTES_OF_GAME = PreparedRead(lambda game_id: Vote.objects.filter(game_id=game_id).order_by("id"), 1)
