"""A small run of the load benchmark (bench/load.py): 2 games of 4 bots, a 6-second day.

It starts the real server (daphne on a fresh SQLite database) and plays both games through the
pages, forms and websockets, with the baseline measured first. The numbers are not checked
here, only that everything the benchmark reports is there and that nothing failed: no error,
no chat line lost or delivered twice, both games at the reveal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGES = {"home", "create", "join page", "join POST", "lobby"}
PUSHES = {"night panel push", "day panel push", "voting panel push", "reveal panel push"}
FORMS = ("start", "action", "ready", "vote")
# The game forms go over the page's socket, as game.js sends them, or as htmx POSTs.
KIND_OF_FORM = {"socket": "form", "http": "POST"}

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL") or os.environ.get("REDIS_URL")),
    reason="the benchmark ignores DATABASE_URL and REDIS_URL: the first pass already ran it",
)


@pytest.fixture(scope="module", params=sorted(KIND_OF_FORM))
def result(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("bench") / "smoke.json"
    command = [
        sys.executable,
        "bench/load.py",
        "--games",
        "2",
        "--players",
        "4",
        "--day-seconds",
        "6",
        "--chat-every",
        "2",
        "--ramp",
        "1",
        "--think",
        "0.2,0.6",
        "--idle",
        "1",
        "--no-redis",
        "--forms",
        request.param,
        "--out",
        str(out),
    ]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=150)
    assert out.exists(), f"no JSON written\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    data = json.loads(out.read_text(encoding="utf-8"))
    data["_exit"] = done.returncode
    data["_forms"] = request.param
    data["_output"] = done.stdout[-3000:] + done.stderr[-3000:]
    return data


def step_of(result: dict) -> dict:
    [run] = result["runs"]
    [step] = run["steps"]
    return step


def test_the_report_has_every_section(result: dict) -> None:
    assert {"machine", "config", "runs", "started_at", "command"} <= result.keys()
    [run] = result["runs"]
    assert run["name"] == "embedded" and run["processes"] == 1
    assert "first_k_fanout_p99_over_100ms" in run
    step = step_of(result)
    assert {
        "games",
        "players",
        "connections",
        "lobby",
        "memory",
        "baseline",
        "games_phase",
        "client",
        "targets",
    } <= step.keys()
    assert step["games"] == 2 and step["players"] == 4 and step["connections"] == 8
    games = step["games_phase"]
    forms = {f"{form} {KIND_OF_FORM[result['_forms']]}" for form in FORMS}
    assert games["http"].keys() == PAGES | PUSHES | forms
    for summary in games["http"].values():
        assert {"count", "p50", "p99", "max", "ratio_p99_to_baseline"} <= summary.keys()
    # The lobby's pages are held against the lobby replayed as pings; forms and pushes over
    # the socket against the socket's floor (an echo); other HTTP requests against the
    # minimal view's (a ping) under the games' replay.
    over_socket = forms | PUSHES if result["_forms"] == "socket" else set()
    for kind, summary in games["http"].items():
        expected = (
            "ping, lobby replay" if kind in PAGES else "echo" if kind in over_socket else "ping"
        )
        assert summary["baseline"] == expected, kind
    # Every lobby request replayed: three for each of the 8 players.
    assert step["lobby"]["floor"]["count"] == 2 * 4 * 3
    assert step["lobby"]["floor_errors"]["count"] == 0
    assert step["lobby"]["floor_server_cpu"]["cpu_seconds"] > 0
    assert step["baseline"]["http"]["ping"]["count"] > 0
    if result["_forms"] == "socket":
        # Every form of the two games replayed: the host's start, then 3 forms per player.
        assert step["baseline"]["http"]["echo"]["count"] == 2 * (1 + 4 * 3)
    assert step["baseline"]["ws"]["fanout_ms"]["count"] > 0
    assert {"p50", "p99", "max"} <= games["chat"]["fanout_ms"].keys()
    assert games["server_ms"]["resolve_night"]["count"] == 2
    assert games["server_ms"]["tally_votes"]["count"] == 2
    assert games["server_cpu"]["cpu_seconds"] > 0
    assert step["memory"]["peak_rss_mib"] > 0
    assert "per_connection_kib" in step["memory"]
    assert games["games_per_minute"] > 0


def test_no_errors_and_both_games_complete(result: dict) -> None:
    step = step_of(result)
    games = step["games_phase"]
    assert games["errors"]["count"] == 0, games["errors"]
    assert step["baseline"]["errors"]["count"] == 0, step["baseline"]["errors"]
    assert games["started"] == 2 and games["completed"] == 2
    assert step["targets"]["errors"] == 0
    assert result["_exit"] == 0, result["_output"]


def test_every_chat_line_reaches_every_socket_once(result: dict) -> None:
    step = step_of(result)
    for chat in (step["games_phase"]["chat"], step["baseline"]["ws"]):
        assert chat["sent"] > 0
        assert chat["lost"] == 0 and chat["duplicates"] == 0, chat
        assert chat["delivered"] == chat["expected_deliveries"], chat
    chat = step["games_phase"]["chat"]
    assert chat["accepted"] == chat["sent"] and chat["rejected"] == 0
    assert chat["wrong_mine_flag"] == 0
