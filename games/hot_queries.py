"""Hand-written SQL for the statements that run on every chat line (the rate count and the
insert), the counts every action, "ready" and vote makes, storing a vote, and storing a
table's rows after the deal, the night and a "ready".

Everywhere else the ORM is the right tool. Here it is not: on this project's server, building
a query through the ORM costs some twenty times what SQLite then takes to run it (a seat read
with its game: about 570 µs through a queryset, 26 µs as the same SQL; docs/benchmarks.md),
and a busy table stores a chat line every second or so for each of its players. These
functions run the same statements the ORM would, on both databases the project supports
(SQLite and PostgreSQL, placeholders and value adaptation through Django's own connection), and
return plain values (the insert: the stored line). Reads of whole rows are prepared reads
(games/prepared.py) instead.

Table and column names come from the models, so a renamed field cannot leave stale SQL behind.
Must run inside the caller's transaction (games/services.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from django.db import connection, models

from games.models import ChatMessage, Vote


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _table(model: type[models.Model]) -> str:
    return _quote(model._meta.db_table)


def _col(model: type[models.Model], field: str) -> str:
    return _quote(model._meta.get_field(field).column)


def _insert(model: type[models.Model], fields: Sequence[str]) -> str:
    """An INSERT of one row of `model`, with a placeholder for each named field's value."""
    columns = ", ".join(_col(model, f) for f in fields)
    return f"INSERT INTO {_table(model)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})"


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
    sql = _insert(ChatMessage, ("game", "seat", "author", "text", "phase", "sent_at"))
    values = [game_id, seat_id, author, text, phase]
    values.append(connection.ops.adapt_datetimefield_value(sent_at))
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


def vote_insert(*, game_id: int, voter_id: int, target_id: int, cast_at: datetime) -> None:
    """Store a player's vote (IntegrityError if the voter has one already)."""
    sql = _insert(Vote, ("game", "voter", "target", "by_deadline", "cast_at"))
    values = [game_id, voter_id, target_id, False]
    values.append(connection.ops.adapt_datetimefield_value(cast_at))
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


def update_rows(rows: Sequence[models.Model], fields: Iterable[str]) -> None:
    """Store `fields` of each of `rows` (all of one model): one UPDATE by primary key, run
    once per row with the values each field prepares for the database."""
    if not rows:
        return
    model = type(rows[0])
    columns = [model._meta.get_field(name) for name in fields]
    assignments = ", ".join(f"{_quote(f.column)} = %s" for f in columns)
    sql = f"UPDATE {_table(model)} SET {assignments} WHERE {_quote(model._meta.pk.column)} = %s"
    params = [
        [f.get_db_prep_save(getattr(row, f.attname), connection) for f in columns] + [row.pk]
        for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def _where(model: type[models.Model], equal: dict[str, object]) -> tuple[str, list[object]]:
    """A WHERE clause (and its parameters) for each named field equal to the given value
    (values as the ORM would filter by them: a foreign key by its id)."""
    fields = [model._meta.get_field(name) for name in equal]
    where = " AND ".join(f"{_quote(f.column)} = %s" for f in fields)
    params = [
        f.get_db_prep_value(value, connection, prepared=False)
        for f, value in zip(fields, equal.values(), strict=True)
    ]
    return where, params


def count_rows(model: type[models.Model], **equal: object) -> int:
    """How many rows of `model` have each named field equal to the given value."""
    where, params = _where(model, equal)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {_table(model)} WHERE {where}", params)
        return int(cursor.fetchone()[0])


def count_rows_and_flagged(
    model: type[models.Model], flag: str, **equal: object
) -> tuple[int, int]:
    """How many rows of `model` have each named field equal to the given value, and how many
    of those have the boolean field `flag` set: two counts in one statement."""
    where, params = _where(model, equal)
    flagged = f"CASE WHEN {_col(model, flag)} THEN 1 ELSE 0 END"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*), COALESCE(SUM({flagged}), 0) FROM {_table(model)} WHERE {where}",
            params,
        )
        total, count = cursor.fetchone()
        return int(total), int(count)
