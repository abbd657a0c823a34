"""Issue 7, faults: the server is killed (SIGKILL) during the night, the day and the vote, then
restarted on the embedded defaults. Every table carries on from where it was: no action, vote or
chat line is lost, and deadlines are kept, even one that passed while the server was down with
no browser open to notice it.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.servers import Player, Server, migrate, next_of, open_game, shows

# Five players and only roles without a night action (and no hunter, whose shot would make the
# deaths depend on the deal): every action is "no action".
QUIET_DECK = {"villager": 3, "tanner": 1, "minion": 1, "mason": 2, "insomniac": 1}
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DJANGO_SECRET_KEY", "DATABASE_URL", "REDIS_URL", "DJANGO_ALLOWED_HOSTS")
    }
    env.update(
        ONENIGHT_DATA_DIR=str(tmp_path),
        ONENIGHT_SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        PYTHONUNBUFFERED="1",
    )
    migrate(env)
    srv = Server("faults", env)
    srv.start()
    yield srv
    srv.stop()


def db(server: Server) -> sqlite3.Connection:
    return sqlite3.connect(server.env["ONENIGHT_SQLITE_PATH"], timeout=10)


def one(server: Server, sql: str, *args: Any) -> Any:
    with db(server) as conn:
        return conn.execute(sql, args).fetchone()[0]


def table_value(server: Server, code: str, column: str) -> Any:
    return one(server, f"SELECT {column} FROM tables_table WHERE code = ?", code)


def state(server: Server, code: str) -> dict[str, Any]:
    """The game's state as One Night stores it in the table (JSON)."""
    return json.loads(table_value(server, code, "state"))


def actions_in(server: Server, code: str) -> int:
    return sum(1 for a in state(server, code)["actions"].values() if a["complete"])


def notes(server: Server, code: str, start: str) -> int:
    return one(
        server,
        "SELECT count(*) FROM tables_chatline c JOIN tables_table t ON t.id = c.table_id"
        " WHERE t.code = ? AND c.note AND c.text LIKE ?",
        code,
        start + "%",
    )


def crash_and_restart(server: Server) -> None:
    server.kill()
    server.start()


async def started(server: Server) -> tuple[str, list[Player]]:
    code, players = await open_game(server, NAMES, QUIET_DECK)
    assert (await players[0].post(server, f"/g/{code}/start", {})).status_code == 302
    return code, players


async def act(server: Server, players: list[Player], code: str) -> None:
    for p in players:
        assert (await p.move(server, code, "action", {"no_action": "1"})).status_code == 302


async def vote(server: Server, code: str, voters: list[Player], target: str) -> None:
    target_id = one(
        server,
        "SELECT s.id FROM tables_seat s JOIN tables_table t ON t.id = s.table_id"
        " WHERE t.code = ? AND s.name = ?",
        code,
        target,
    )
    for p in voters:
        r = await p.move(server, code, "vote", {"target": target_id})
        assert r.status_code == 302, r.text


async def test_killed_during_the_night(server: Server) -> None:
    code, players = await started(server)
    await act(server, players[:3], code)
    crash_and_restart(server)
    assert table_value(server, code, "phase") == "night"
    assert actions_in(server, code) == 3
    # The players who had sent theirs see it as sent; the others can still send.
    page = await players[0].get(server, f"/g/{code}/")
    assert "Your action is in" in page.text
    page = await players[3].get(server, f"/g/{code}/")
    assert 'name="no_action"' in page.text and "Your action is in" not in page.text
    await act(server, players[3:], code)
    assert table_value(server, code, "phase") == "day"
    assert actions_in(server, code) == 5
    for p in players:
        await p.close()


async def test_killed_during_the_day(server: Server) -> None:
    code, players = await started(server)
    await act(server, players, code)
    deadline = table_value(server, code, "deadline")
    version = table_value(server, code, "version")
    ws = await players[0].socket(server, code)
    await next_of(ws, "hello")
    lines = [f"line {i} before the crash" for i in range(4)]
    for text in lines:
        assert (await players[0].chat(server, code, text)).status_code == 302
        await next_of(ws, "chat", text=text)  # stored and pushed before the crash
    crash_and_restart(server)

    assert table_value(server, code, "deadline") == deadline
    assert table_value(server, code, "version") == version
    ws = await players[1].socket(server, code)
    hello = await next_of(ws, "hello")
    assert [m["text"] for m in hello["history"] if m["name"] == "Ann"] == lines
    assert hello["version"] == version and shows("Day")(hello)
    assert [c["write"] for c in hello["channel_state"]] == [True]
    shown = re.search(r'data-deadline="([^"]+)"', hello["panel"])
    assert shown and shown.group(1).startswith(deadline.replace(" ", "T")[:19])
    await ws.close()
    for p in players:
        await p.close()


async def test_deadline_that_passed_while_down_fires_with_no_browser_open(
    server: Server,
) -> None:
    code, players = await started(server)
    await act(server, players, code)
    for p in players:
        await p.close()
    server.kill()
    passed = (datetime.now(UTC) - timedelta(seconds=5)).strftime("%Y-%m-%d %H:%M:%S.%f")
    with db(server) as conn:
        conn.execute("UPDATE tables_table SET deadline = ? WHERE code = ?", (passed, code))
    server.start()  # no page, no socket: only the server's own ticker can notice
    end = time.monotonic() + 10
    while table_value(server, code, "phase") != "voting" and time.monotonic() < end:
        await asyncio.sleep(0.2)
    assert table_value(server, code, "phase") == "voting"
    assert notes(server, code, "The day is over") == 1


async def test_killed_during_the_vote(server: Server) -> None:
    code, players = await started(server)
    await act(server, players, code)
    assert (await players[0].move(server, code, "end_day")).status_code == 302
    await vote(server, code, players[1:4], "Ann")
    crash_and_restart(server)
    assert table_value(server, code, "phase") == "voting"
    assert len(state(server, code)["votes"]) == 3
    page = await players[1].get(server, f"/g/{code}/")
    assert "You voted for" in page.text
    await vote(server, code, [players[0]], "Ben")
    await vote(server, code, [players[4]], "Ann")
    assert table_value(server, code, "phase") == "reveal"
    result = state(server, code)["result"]
    assert result["counts"] == {"Ann": 4, "Ben": 1}
    assert result["dead"] == ["Ann"]
    for p in players:
        await p.close()
