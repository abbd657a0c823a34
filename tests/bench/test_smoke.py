"""A small run of the load benchmark (bench/load.py): 2 tables of 4 bots, a 6-second day.

It starts the real server (daphne on `bench.app:application`, a fresh database) and plays both
games through the pages, htmx POSTs and websockets, the floor measured first. The numbers are
not checked, only that nothing failed: no error, no chat line lost or shown twice, both games
at the reveal, and every kind of request and push measured.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

from bench.server import answers

# The benchmark starts its own servers on DATABASE_URL and REDIS_URL: a backends test even without
# pytest-django's database (tests/conftest.py).
pytestmark = pytest.mark.backends

REPO = Path(__file__).resolve().parents[2]
SMALL = shlex.split("--games 2 --players 4 --day-seconds 6 --chat-every 2 --ramp 1 --think 0.2,0.6")
MEASURED = {
    *("home", "create", "join page", "join", "table page"),
    *("start", "action", "chat", "ready", "vote"),
    *("night push", "day push", "voting push", "reveal push", "phase push"),
}


def run_bench(tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "result.json"
    command = [sys.executable, "bench/load.py", *SMALL, *args, "--out", str(out)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=240)
    output = f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert out.exists(), output
    result = json.loads(out.read_text(encoding="utf-8"))
    [run] = result["runs"]
    [step] = run["steps"]
    assert step["errors"]["count"] == 0, step["errors"]
    assert step["floor"]["errors"]["count"] == 0, step["floor"]["errors"]
    assert step["games_phase"]["started"] == step["games_phase"]["completed"] == 2
    assert step["sockets"] == 8
    for chat in (step["chat"], step["floor"]["chat"]):
        assert chat["sent"] > 0 and chat["fanout_ms"]["count"] == 3 * chat["sent"], chat
        assert chat["lost"] == chat["duplicates"] == chat["refused_or_failed"] == 0, chat
        assert chat["unknown"] == chat["wrong_mine_flag"] == 0, chat
    assert step["latency_ms"].keys() >= MEASURED
    assert step["floor"]["latency_ms"]["ping"]["count"] == step["floor"]["chat"]["sent"]
    assert step["ok"] and done.returncode == 0, output
    return run


@pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL") or os.environ.get("REDIS_URL")),
    reason="the embedded run ignores DATABASE_URL and REDIS_URL: the first pass already ran it",
)
@pytest.mark.parametrize("chat_via", ["socket", "post"])
def test_embedded_run_has_no_error_no_lost_line_and_every_game_finished(
    tmp_path: Path, chat_via: str
) -> None:
    """The bots chat over their pages' sockets (as table.js does) or by the chat form's POST."""
    run = run_bench(tmp_path, "--runs", "embedded", "--chat-via", chat_via)
    assert (run["processes"], run["database"], run["channel_layer"]) == (1, "sqlite", "in-memory")
    assert run["chat_via"] == chat_via


def test_redis_run_on_two_processes_and_postgresql(tmp_path: Path) -> None:
    pg, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not (pg.startswith("postgres") and answers(pg, 5432) and redis and answers(redis, 6379)):
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL answering (make test does)")
    admin = urlunparse(urlparse(pg)._replace(path="/postgres"))
    run = run_bench(tmp_path, "--runs", "redis", "--redis-url", redis, "--pg-url", admin)
    assert (run["processes"], run["database"], run["channel_layer"]) == (
        2,
        "postgresql",
        "redis-pubsub",
    )


@pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL") or os.environ.get("REDIS_URL")),
    reason="the embedded run ignores DATABASE_URL and REDIS_URL: the first pass already ran it",
)
def test_the_multi_night_benchmark_holds_tables_open_and_plays_each_ruleset_through(
    tmp_path: Path,
) -> None:
    """bench/werewolf_load.py, small: 3 forum tables held open and moved on, 3 games (one of
    each ruleset) played to their end by random forms; nothing failed, everything measured."""
    out = tmp_path / "werewolf.json"
    command = [sys.executable, "bench/werewolf_load.py", "--idle", "3", "--fast", "3",
               "--players", "6", "--ramp", "1", "--think", "0.1,0.4", "--stall", "2",
               "--game-timeout", "150", "--runs", "embedded", "--out", str(out)]  # fmt: skip
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=240)
    output = f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert done.returncode == 0 and out.exists(), output
    [run] = json.loads(out.read_text(encoding="utf-8"))["runs"]
    held, fast = run["held_open"], run["played_through"]
    assert held["sockets"] == 18 and held["push_ms"]["count"] == 18, held
    assert held["memory"]["kib_per_connected_player"] is not None
    assert fast["completed"] == 3 and fast["errors"]["count"] == 0, fast
    assert fast["push_ms"]["count"] > 0
