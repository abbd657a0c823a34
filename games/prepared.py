"""Querysets whose SQL the ORM builds once per process, for the reads every request makes.

Building a query is most of what a small ORM read costs on this project's server: the SELECT
of a table's eight seats takes about 480 µs through a queryset, of which SQLite's own work is
about 50 µs (docs/benchmarks.md). A `PreparedRead` has the ORM compile its queryset the first
time it runs on a database connection, and keeps what Django's own ModelIterable takes from
that compilation: the SQL, the selected fields and their converters. Each later call runs that
SQL with the call's values and builds the model instances as the ORM does (`Model.from_db`, the
same field and backend conversions), without building the query again.

Only for plain single-model reads (no select_related or annotations) whose parameters are
exactly the call's arguments, in order. That is checked once, with the distinct sample values
the read is declared with; a read that fails the check keeps using its queryset.

A locking read (`select_for_update`) is compiled on each connection as that database locks
(FOR UPDATE on PostgreSQL, nothing on SQLite). As its queryset would, it refuses to run
outside a transaction where the database locks rows, on every call: a lock taken in
autocommit would be let go at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.transaction import TransactionManagementError

from games.models import CentreCard, Game, NightAction, Seat, Vote

# Where a connection keeps the plans of the reads run on it, by id of the PreparedRead (the
# reads are module constants: their ids stay theirs).
_PLANS = "onenight_prepared_plans"


@dataclass(frozen=True, slots=True)
class _Plan:
    """One compilation of a read on one connection (connections are per thread)."""

    sql: str
    locks: bool  # FOR UPDATE: only inside a transaction
    model: type[models.Model]
    fields: slice  # where the model's columns are in a row
    init_list: list[str]  # their attribute names, for Model.from_db
    converters: list[tuple[int, tuple[list[Callable[..., Any]], Any]]]


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
        self._alias: str | None = None  # the database the read goes to, once known

    def _plan(self) -> tuple[BaseDatabaseWrapper, _Plan | None]:
        """This thread's connection, and the read's plan on it (None: use the queryset). The
        plans live on the connection itself (its converters are bound to it), so a thread's
        connection and its plans go away together."""
        if self._alias is not None:
            connection = connections[self._alias]
            plans = connection.__dict__.setdefault(_PLANS, {})
            if id(self) in plans:
                return connection, plans[id(self)]
        queryset = self._build(*self._samples)
        self._alias = queryset.db
        connection = connections[queryset.db]
        plan = None
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()  # also fills compiler.select and klass_info
        if list(params) == list(self._samples) and not queryset.query.select_related:
            select = compiler.select
            positions = compiler.klass_info["select_fields"]
            fields = slice(positions[0], positions[-1] + 1)
            plan = _Plan(
                sql=sql,
                locks=bool(queryset.query.select_for_update)
                and connection.features.has_select_for_update,
                model=compiler.klass_info["model"],
                fields=fields,
                init_list=[column[0].target.attname for column in select[fields]],
                converters=list(
                    compiler.get_converters([s[0] for s in select[: compiler.col_count]]).items()
                ),
            )
        connection.__dict__.setdefault(_PLANS, {})[id(self)] = plan
        return connection, plan

    def __call__(self, *args: Any) -> list[M]:
        connection, plan = self._plan()
        if plan is None:
            return list(self._build(*args))
        if plan.locks and connection.get_autocommit():
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, args)
            rows = cursor.fetchall()
        objects: list[M] = []
        for fetched in rows:
            row = list(fetched)
            for position, (converters, expression) in plan.converters:
                value = row[position]
                for convert in converters:
                    value = convert(value, expression, connection)
                row[position] = value
            objects.append(plan.model.from_db(connection.alias, plan.init_list, row[plan.fields]))
        return objects

    def one(self, *args: Any) -> M | None:
        """The one row the read finds (its filter matches at most one), or None."""
        rows = self(*args)
        return rows[0] if rows else None

    def sql(self) -> str | None:
        """The SQL it runs on this thread's connection (None: it uses its queryset). Tests."""
        _, plan = self._plan()
        return None if plan is None else plan.sql


def of_game[R: models.Model](rows: list[R], game: Game) -> list[R]:
    """`rows` (seats, cards, actions or votes of `game`), each with `.game` set to `game`, as a
    related manager's read would have them: reaching a row's game costs no query."""
    for row in rows:
        row._meta.get_field("game").set_cached_value(row, game)
    return rows


# The reads of every seated request, page push and service call. Chained filters keep each
# query's parameters in the order of the arguments (keyword filters are sorted by name).
GAME_BY_ID = PreparedRead(lambda pk: Game.objects.filter(pk=pk).order_by()[:1], 1)
GAME_BY_CODE = PreparedRead(lambda code: Game.objects.filter(code=code).order_by()[:1], "SAMPLE")
LOCKED_GAME_BY_ID = PreparedRead(
    lambda pk: Game.objects.select_for_update().filter(pk=pk).order_by()[:1], 1
)
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
