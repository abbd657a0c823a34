"""The game page and the status fragment cost the same number of queries at any table size."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Phase
from tests.factories import NAMES, THREE, TWELVE, Table, client_for, create_lobby, play_to
from tests.web.helpers import HTMX, url

pytestmark = pytest.mark.django_db

PHASES = [Phase.LOBBY, Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL, Phase.CANCELLED]


def table_in(phase: str, size: int) -> Table:
    if phase == Phase.LOBBY:
        return create_lobby(NAMES[:size])
    return play_to(phase, THREE if size == 3 else TWELVE)


def queries(table: Table, path: str, **extra: str) -> tuple[int, list[str]]:
    client = client_for(table, "Ben")
    client.get(path, **extra)  # warm up: nothing cached between requests matters
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, **extra)
    assert response.status_code == 200
    return len(captured), [q["sql"] for q in captured.captured_queries]


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("page", ["game", "status", "panel"])
def test_query_count_does_not_grow_with_the_table(phase: str, page: str) -> None:
    small = table_in(phase, 3)
    large = table_in(phase, 12)
    assert small.game.seats.count() == 3 and large.game.seats.count() == 12
    extra = HTMX if page == "panel" else {}
    name = "status" if page == "status" else "game"
    small_count, _ = queries(small, url(name, small.code), **extra)
    large_count, large_sql = queries(large, url(name, large.code), **extra)
    assert small_count == large_count, "\n".join(large_sql)
    assert large_count <= 12, "\n".join(large_sql)


def test_a_seated_request_reads_its_seat_then_its_game_without_sorting() -> None:
    """A seat lookup reads one row by a unique key: no ORDER BY, and so no join to the games
    table that the seats' default ordering would bring (docs/benchmarks.md, change 13); then
    its game by id, never by its code."""
    table = play_to(Phase.DAY, THREE)
    client = client_for(table, "Ben")
    client.get(url("game", table.code))
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url("ready", table.code), **HTMX)
    assert response.status_code == 200
    sql = [q["sql"] for q in captured.captured_queries]
    assert not [q for q in sql if 'ORDER BY "games_game"' in q], "\n".join(sql)
    first, second = [q for q in sql if q.startswith("SELECT")][:2]
    assert 'FROM "games_seat"' in first and '"games_seat"."token" =' in first, first
    assert "JOIN" not in first and "ORDER BY" not in first, first
    assert 'FROM "games_game"' in second and '"games_game"."id" =' in second, second
    assert not [q for q in sql if '"games_game"."code" =' in q], "\n".join(sql)
