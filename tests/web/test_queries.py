"""The table page, its panel and a move's answer cost the same small number of queries at any
table size (selectors.table_page: "a fixed number of queries, whatever the table's size")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import NAMES, THREE, TWELVE, TestTable, client_for, create_lobby, play_to
from tests.web.helpers import HTMX, PHASES, move_url, url

pytestmark = pytest.mark.django_db

# A page: the table, the seat, the seats, the chat, the next table (about five); a POST a few
# more for the lock and what it writes. Far below anything that would grow with the table.
PAGE_QUERIES = 8
POST_QUERIES = 15


def table_in(phase: str, size: int) -> TestTable:
    if phase == "lobby":
        return create_lobby(NAMES[:size])
    return play_to(phase, THREE if size == 3 else TWELVE)


def measured(client: Client, call: Callable[[Client], HttpResponse]) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = call(client)
    assert response.status_code in (200, 204, 302), response.content[:500]
    return len(captured), [q["sql"] for q in captured.captured_queries]


@pytest.mark.parametrize("phase", PHASES)
@pytest.mark.parametrize("page", ["table", "panel", "htmx"])
def test_a_page_costs_the_same_queries_at_any_table_size(phase: str, page: str) -> None:
    counts = []
    for size in (3, 12):
        table = table_in(phase, size)
        assert table.table.seats.count() == size
        client = client_for(table, "Ben")
        path = url("panel" if page == "panel" else "table", table.code)
        extra = {} if page == "table" else HTMX
        client.get(path, **extra)  # warm up: nothing cached between requests matters
        count, sql = measured(client, lambda c, p=path, e=extra: c.get(p, **e))
        assert count <= PAGE_QUERIES, "\n".join(sql)
        counts.append((count, sql))
    (small, _), (large, large_sql) = counts
    assert small == large, "\n".join(large_sql)


@pytest.mark.parametrize(
    ("phase", "kind", "data"),
    [
        ("night", "action", lambda t: {"no_action": "1"}),
        ("day", "ready", lambda t: {"ready": "yes"}),
        ("voting", "vote", lambda t: {"target": t.seats["Cat"].pk}),
    ],
    ids=["action", "ready", "vote"],
)
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_a_move_costs_the_same_queries_at_any_table_size(
    phase: str, kind: str, data: Callable[[TestTable], dict[str, object]], htmx: bool
) -> None:
    counts = []
    for size in (3, 12):
        table = table_in(phase, size)
        client = client_for(table, "Ben")
        client.get(url("table", table.code))
        extra = HTMX if htmx else {}
        fields = data(table)
        count, sql = measured(
            client,
            lambda c, t=table, f=fields, e=extra: c.post(move_url(t.code, kind), f, **e),
        )
        assert count <= POST_QUERIES, "\n".join(sql)
        counts.append((count, sql))
    (small, _), (large, large_sql) = counts
    assert small == large, "\n".join(large_sql)


def test_a_lobby_post_costs_the_same_queries_at_any_table_size() -> None:
    counts = []
    for size in (3, 12):
        table = create_lobby(NAMES[:size])
        host = client_for(table, "Ann")
        host.get(url("table", table.code))
        count, sql = measured(
            host,
            lambda c, t=table: c.post(url("options", t.code), {"day_minutes": "5"}, **HTMX),
        )
        assert count <= POST_QUERIES, "\n".join(sql)
        counts.append(count)
    assert counts[0] == counts[1]
