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
