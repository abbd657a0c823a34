"""Issue 5: two daphne processes sharing PostgreSQL and Redis behave like one server.

Players on different processes chat in real time and see each other's changes pushed; the last
night actions sent through both processes at once resolve the night once; the day deadline
fires once though both processes run the ticker; a process killed with SIGKILL mid-day loses
nothing and its players carry on through the other process.
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest
import websockets

from tests.servers import Player, next_of, shows
from tests.servers import open_game as open_on

from .conftest import Cluster


def query(cluster: Cluster, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(cluster.database_url) as conn:
        return conn.execute(sql, args).fetchall()


async def open_game(cluster: Cluster, names: list[str], deck: dict[str, int]) -> Any:
    """Created on process A; the others join alternately through B and A."""
    return await open_on(cluster.a, names, deck, join_on=[cluster.b, cluster.a])


def table_value(cluster: Cluster, code: str, column: str) -> Any:
    return query(cluster, f"SELECT {column} FROM tables_table WHERE code = %s", code)[0][0]


def phase(cluster: Cluster, code: str) -> str:
    return table_value(cluster, code, "phase")


def app_notes(cluster: Cluster, code: str, start: str) -> int:
    return query(
        cluster,
        "SELECT count(*) FROM tables_chatline c JOIN tables_table t ON t.id = c.table_id"
        " WHERE t.code = %s AND c.note AND c.text LIKE %s",
        code,
        start + "%",
    )[0][0]


# Three players, only roles without a night action: everyone's action is "no action".
QUIET_DECK = {"villager": 3, "tanner": 1, "hunter": 1, "insomniac": 1}


async def to_day(cluster: Cluster) -> tuple[str, list[Player]]:
    code, players = await open_game(cluster, ["Ann", "Ben", "Cat"], QUIET_DECK)
    assert (await players[0].post(cluster.a, f"/g/{code}/start", {})).status_code == 302
    for i, p in enumerate(players):
        server = cluster.a if i % 2 == 0 else cluster.b
        assert (await p.move(server, code, "action", {"no_action": "1"})).status_code == 302
    assert phase(cluster, code) == "day"
    return code, players


async def test_chat_and_changes_reach_players_on_the_other_process(cluster: Cluster) -> None:
    code, (ann, ben, cat) = await open_game(cluster, ["Ann", "Ben", "Cat"], QUIET_DECK)
    ws_ann = await ann.socket(cluster.a, code)
    ws_ben = await ben.socket(cluster.b, code)
    await next_of(ws_ann, "hello")
    hello = await next_of(ws_ben, "hello")
    assert (await ann.chat(cluster.a, code, "hello from A")).status_code == 302
    got = await next_of(ws_ben, "chat", text="hello from A", timeout=2)
    assert got["name"] == "Ann" and got["mine"] is False
    assert (await ben.chat(cluster.b, code, "and back from B")).status_code == 302
    got = await next_of(ws_ann, "chat", text="and back from B", timeout=2)
    assert got["name"] == "Ben"
    # The host's change on process A reaches the page on process B as its own panel.
    assert (await ann.post(cluster.a, f"/g/{code}/lock", {"locked": "yes"})).status_code == 302
    push = await next_of(ws_ben, "panel", timeout=2)
    assert push["version"] == hello["version"] + 1 == table_value(cluster, code, "version")
    assert "The host has locked the table." in push["panel"]
    await ws_ann.close()
    await ws_ben.close()
    for p in (ann, ben, cat):
        await p.close()


async def test_last_night_actions_through_both_processes_resolve_once(cluster: Cluster) -> None:
    for _ in range(3):  # a few rounds, since a race may or may not happen on a given try
        code, (ann, ben, cat) = await open_game(cluster, ["Ann", "Ben", "Cat"], QUIET_DECK)
        assert (await ann.post(cluster.a, f"/g/{code}/start", {})).status_code == 302
        assert (await ann.move(cluster.a, code, "action", {"no_action": "1"})).status_code == 302
        results = await asyncio.gather(
            ben.move(cluster.a, code, "action", {"no_action": "1"}),
            cat.move(cluster.b, code, "action", {"no_action": "1"}),
        )
        assert [r.status_code for r in results] == [302, 302]
        assert phase(cluster, code) == "day"
        state = table_value(cluster, code, "state")
        assert [a["complete"] for a in state["actions"].values()] == [True] * 3
        assert app_notes(cluster, code, "Dawn:") == 1
        moves = query(
            cluster,
            "SELECT m.kind, count(*) FROM tables_move m JOIN tables_table t ON t.id = m.table_id"
            " WHERE t.code = %s GROUP BY m.kind ORDER BY m.kind",
            code,
        )
        assert moves == [("action", 3), ("start", 1)]
        for p in (ann, ben, cat):
            await p.close()


async def test_day_deadline_fires_once_with_two_tickers(cluster: Cluster) -> None:
    code, players = await to_day(cluster)
    ws = await players[1].socket(cluster.b, code)
    await next_of(ws, "hello")
    query(
        cluster,
        "UPDATE tables_table SET deadline = now() + interval '1 second' WHERE code = %s"
        " RETURNING id",
        code,
    )
    push = await next_of(ws, "panel", where=shows("Voting"), timeout=10)
    assert [c["write"] for c in push["channel_state"]] == [False]
    assert phase(cluster, code) == "voting"
    await asyncio.sleep(2.5)  # both tickers have had several more chances to fire again
    assert app_notes(cluster, code, "The day is over") == 1
    await ws.close()
    for p in players:
        await p.close()


async def test_sigkill_mid_day_loses_nothing(cluster: Cluster) -> None:
    code, (ann, ben, cat) = await to_day(cluster)
    deadline_before = table_value(cluster, code, "deadline")
    ws_ann = await ann.socket(cluster.a, code)
    ws_ben = await ben.socket(cluster.b, code)
    await next_of(ws_ann, "hello")
    await next_of(ws_ben, "hello")
    sent = [f"message {i} before the crash" for i in range(3)]
    for text in sent:
        assert (await ann.chat(cluster.a, code, text)).status_code == 302
        await next_of(ws_ann, "chat", text=text)
    for text in sent:
        await next_of(ws_ben, "chat", text=text, timeout=2)

    cluster.a.kill()
    with pytest.raises(websockets.ConnectionClosed):  # frames already buffered may come first
        async with asyncio.timeout(5):
            while True:
                await ws_ann.recv()

    # Ann's page reconnects, this time through process B, and resyncs the whole history.
    ws_ann = await ann.socket(cluster.b, code)
    hello = await next_of(ws_ann, "hello")
    texts = [m["text"] for m in hello["history"] if m["name"] == "Ann"]
    assert texts == sent
    ids = [m["id"] for m in hello["history"]]
    assert ids == sorted(set(ids))
    assert shows("Day")(hello)
    assert table_value(cluster, code, "deadline") == deadline_before
    assert (await ann.chat(cluster.b, code, "still here after the crash")).status_code == 302
    await next_of(ws_ben, "chat", text="still here after the crash", timeout=2)
    stored = query(
        cluster,
        "SELECT count(*) FROM tables_chatline c JOIN tables_table t ON t.id = c.table_id"
        " WHERE t.code = %s AND NOT c.note",
        code,
    )[0][0]
    assert stored == 4
    await ws_ann.close()
    await ws_ben.close()
    for p in (ann, ben, cat):
        await p.close()
    cluster.a.start()  # leave the cluster whole for any later test
