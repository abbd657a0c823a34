"""Hand-written SQL for the few statements that run on every chat line, the counts every
action, "ready" and vote makes, and storing a table's rows after the deal and the night.

Everywhere else the ORM is the right tool. Here it is not: on this project's server, building
a query through the ORM costs some twenty times what SQLite then takes to run it (a seat read
with its game: about 570 µs through a queryset, 26 µs as the same SQL; docs/benchmarks.md),
and a busy table stores a chat line every second or so for each of its players. These
functions run the same statements the ORM would, on both databases the project supports
(SQLite and PostgreSQL, placeholders and value adaptation through Django's own connection), and
return plain values: callers that need model instances use the ORM.

Table and column names come from the models, so a renamed field cannot leave stale SQL behind.
Must run inside the caller's transaction (games/services.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, models

from games.models import ChatMessage, Game, Seat


def _table(model: type) -> str:
    return connection.ops.quote_name(model._meta.db_table)  # type: ignore[attr-defined]


def _col(model: type, field: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(field).column)  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class ChatAuthor:
    """What storing a chat line needs to know about its seat and game, read under the lock."""

    seat_name: str
    start_role: str
    game_phase: str
    game_code: str


def chat_author(*, seat_id: int, game_id: int, lock_game: bool) -> ChatAuthor | None:
    """The seat `seat_id` if it still sits at game `game_id`, with the game's phase; None if not.

    With `lock_game` (PostgreSQL), the game row is locked first and the seat read after the
    lock is taken, so a removal that committed while this waited is seen (services explains
    why). Without it (SQLite's IMMEDIATE transactions already hold the database's write lock),
    or on a database with no row locks (SQLite in its default mode, where the ORM leaves the
    lock out too), one query reads both.
    """
    seat, game = _table(Seat), _table(Game)
    with connection.cursor() as cursor:
        if lock_game and connection.features.has_select_for_update:
            cursor.execute(
                f"SELECT {_col(Game, 'phase')}, {_col(Game, 'code')} FROM {game} "
                f"WHERE {_col(Game, 'id')} = %s FOR UPDATE",
                [game_id],
            )
            game_row = cursor.fetchone()
            if game_row is None:
                return None
            cursor.execute(
                f"SELECT {_col(Seat, 'name')}, {_col(Seat, 'start_role')} FROM {seat} "
                f"WHERE {_col(Seat, 'id')} = %s AND {_col(Seat, 'game')} = %s",
                [seat_id, game_id],
            )
            seat_row = cursor.fetchone()
            if seat_row is None:
                return None
            return ChatAuthor(seat_row[0], seat_row[1], game_row[0], game_row[1])
        cursor.execute(
            f"SELECT s.{_col(Seat, 'name')}, s.{_col(Seat, 'start_role')}, "
            f"g.{_col(Game, 'phase')}, g.{_col(Game, 'code')} "
            f"FROM {seat} s INNER JOIN {game} g ON g.{_col(Game, 'id')} = s.{_col(Seat, 'game')} "
            f"WHERE s.{_col(Seat, 'id')} = %s AND s.{_col(Seat, 'game')} = %s",
            [seat_id, game_id],
        )
        row = cursor.fetchone()
    return None if row is None else ChatAuthor(*row)


def chat_lines_since(*, seat_id: int, since: datetime) -> int:
    """How many chat lines seat `seat_id` stored after `since` (the rate limit's count)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*) FROM {_table(ChatMessage)} "
            f"WHERE {_col(ChatMessage, 'seat')} = %s AND {_col(ChatMessage, 'sent_at')} > %s",
            [seat_id, connection.ops.adapt_datetimefield_value(since)],
        )
        return int(cursor.fetchone()[0])


def chat_line_insert(
    *, game_id: int, seat_id: int, author: str, text: str, phase: str, sent_at: datetime
) -> ChatMessage:
    """Store a player's chat line; returns it as a saved ChatMessage."""
    columns = ", ".join(
        _col(ChatMessage, f) for f in ("game", "seat", "author", "text", "phase", "sent_at")
    )
    values = [game_id, seat_id, author, text, phase]
    values.append(connection.ops.adapt_datetimefield_value(sent_at))
    sql = f"INSERT INTO {_table(ChatMessage)} ({columns}) VALUES (%s, %s, %s, %s, %s, %s)"
    with connection.cursor() as cursor:
        if connection.features.can_return_columns_from_insert:
            cursor.execute(f"{sql} RETURNING {_col(ChatMessage, 'id')}", values)
            pk = cursor.fetchone()[0]
        else:
            cursor.execute(sql, values)
            pk = cursor.lastrowid
    line = ChatMessage(
        pk=pk, game_id=game_id, seat_id=seat_id, author=author, text=text, phase=phase
    )
    line.sent_at = sent_at
    line._state.adding = False
    line._state.db = connection.alias
    return line


def update_rows(rows: Sequence[models.Model], fields: Iterable[str]) -> None:
    """Store `fields` of each of `rows` (all of one model): one UPDATE by primary key, run
    once per row with the values each field prepares for the database."""
    if not rows:
        return
    meta = type(rows[0])._meta
    columns = [meta.get_field(name) for name in fields]
    assignments = ", ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in columns)
    sql = (
        f"UPDATE {connection.ops.quote_name(meta.db_table)} SET {assignments} "
        f"WHERE {connection.ops.quote_name(meta.pk.column)} = %s"
    )
    params = [
        [f.get_db_prep_save(getattr(row, f.attname), connection) for f in columns] + [row.pk]
        for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def count_rows(model: type[models.Model], **equal: object) -> int:
    """How many rows of `model` have each named field equal to the given value (values as the
    ORM would filter by them: a foreign key by its id)."""
    meta = model._meta
    fields = [meta.get_field(name) for name in equal]
    where = " AND ".join(f"{connection.ops.quote_name(f.column)} = %s" for f in fields)
    params = [
        f.get_db_prep_value(value, connection, prepared=False)
        for f, value in zip(fields, equal.values(), strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*) FROM {connection.ops.quote_name(meta.db_table)} WHERE {where}",
            params,
        )
        return int(cursor.fetchone()[0])
