"""Issue 5: two daphne processes sharing PostgreSQL and Redis behave like one server.

Players on different processes chat in real time; the last night actions sent through both
processes at once resolve the night once; the day deadline fires once though both processes run
the ticker; a process killed with SIGKILL mid-day loses nothing and its players carry on through
the other process.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import psycopg
import pytest
import websockets

from tests.servers import Player, next_of
from tests.servers import open_game as open_on

from .conftest import Cluster


def query(cluster: Cluster, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(cluster.database_url) as conn:
        return conn.execute(sql, args).fetchall()


async def open_game(cluster: Cluster, names: list[str], deck: dict[str, int]) -> Any:
    """Created on process A; the others join alternately through B and A."""
    return await open_on(cluster.a, names, deck, join_on=[cluster.b, cluster.a])


def phase(cluster: Cluster, code: str) -> str:
    return query(cluster, "SELECT phase FROM games_game WHERE code = %s", code)[0][0]


def moderator_notes(cluster: Cluster, code: str, start: str) -> int:
    return query(
        cluster,
        "SELECT count(*) FROM games_chatmessage m JOIN games_game g ON g.id = m.game_id"
        " WHERE g.code = %s AND m.seat_id IS NULL AND m.text LIKE %s",
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
        assert (await p.post(server, f"/g/{code}/action", {"no_action": "1"})).status_code == 302
    assert phase(cluster, code) == "day"
    return code, players


async def test_chat_reaches_players_on_the_other_process(cluster: Cluster) -> None:
    code, (ann, ben, cat) = await open_game(cluster, ["Ann", "Ben", "Cat"], QUIET_DECK)
    ws_ann = await ann.socket(cluster.a, code)
    ws_ben = await ben.socket(cluster.b, code)
    await next_of(ws_ann, "hello")
    await next_of(ws_ben, "hello")
    await ws_ann.send(json.dumps({"type": "chat", "text": "hello from A"}))
    got = await next_of(ws_ben, "chat", text="hello from A", timeout=2)
    assert got["name"] == "Ann" and got["mine"] is False
    await ws_ben.send(json.dumps({"type": "chat", "text": "and back from B"}))
    got = await next_of(ws_ann, "chat", text="and back from B", timeout=2)
    assert got["name"] == "Ben"
    # A join on process A reaches the page on process B as a status push.
    await ws_ann.close()
    await ws_ben.close()
    for p in (ann, ben, cat):
        await p.close()


async def test_last_night_actions_through_both_processes_resolve_once(cluster: Cluster) -> None:
    for _ in range(3):  # a few rounds, since a race may or may not happen on a given try
        code, (ann, ben, cat) = await open_game(cluster, ["Ann", "Ben", "Cat"], QUIET_DECK)
        assert (await ann.post(cluster.a, f"/g/{code}/start", {})).status_code == 302
        assert (
            await ann.post(cluster.a, f"/g/{code}/action", {"no_action": "1"})
        ).status_code == 302
        results = await asyncio.gather(
            ben.post(cluster.a, f"/g/{code}/action", {"no_action": "1"}),
            cat.post(cluster.b, f"/g/{code}/action", {"no_action": "1"}),
        )
        assert [r.status_code for r in results] == [302, 302]
        assert phase(cluster, code) == "day"
        actions = query(
            cluster,
            "SELECT count(*) FROM games_nightaction a JOIN games_game g ON g.id = a.game_id"
            " WHERE g.code = %s AND a.complete",
            code,
        )[0][0]
        assert actions == 3
        assert moderator_notes(cluster, code, "Dawn:") == 1
        finals = query(
            cluster,
            "SELECT count(*) FROM games_seat s JOIN games_game g ON g.id = s.game_id"
            " WHERE g.code = %s AND s.final_role <> ''",
            code,
        )[0][0]
        assert finals == 3
        for p in (ann, ben, cat):
            await p.close()


async def test_day_deadline_fires_once_with_two_tickers(cluster: Cluster) -> None:
    code, players = await to_day(cluster)
    ws = await players[1].socket(cluster.b, code)
    await next_of(ws, "hello")
    query(
        cluster,
        "UPDATE games_game SET deadline = now() + interval '1 second' WHERE code = %s RETURNING id",
        code,
    )
    status = await next_of(ws, "status", phase="voting", timeout=10)
    assert status["chat_open"] is False
    assert phase(cluster, code) == "voting"
    await asyncio.sleep(2.5)  # both tickers have had several more chances to fire again
    assert moderator_notes(cluster, code, "The day is over") == 1
    await ws.close()
    for p in players:
        await p.close()


async def test_sigkill_mid_day_loses_nothing(cluster: Cluster) -> None:
    code, (ann, ben, cat) = await to_day(cluster)
    deadline_before = query(cluster, "SELECT deadline FROM games_game WHERE code = %s", code)[0][0]
    ws_ann = await ann.socket(cluster.a, code)
    ws_ben = await ben.socket(cluster.b, code)
    await next_of(ws_ann, "hello")
    await next_of(ws_ben, "hello")
    sent = [f"message {i} before the crash" for i in range(3)]
    for text in sent:
        await ws_ann.send(json.dumps({"type": "chat", "text": text}))
        await next_of(ws_ann, "sent")
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
    assert hello["phase"] == "day"
    deadline_after = query(cluster, "SELECT deadline FROM games_game WHERE code = %s", code)[0][0]
    assert deadline_after == deadline_before
    await ws_ann.send(json.dumps({"type": "chat", "text": "still here after the crash"}))
    await next_of(ws_ben, "chat", text="still here after the crash", timeout=2)
    stored = query(
        cluster,
        "SELECT count(*) FROM games_chatmessage m JOIN games_game g ON g.id = m.game_id"
        " WHERE g.code = %s AND m.seat_id IS NOT NULL",
        code,
    )[0][0]
    assert stored == 4
    await ws_ann.close()
    await ws_ben.close()
    for p in (ann, ben, cat):
        await p.close()
    cluster.a.start()  # leave the cluster whole for any later test
