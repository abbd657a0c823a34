"""Load benchmark: K concurrent full games of P bots against the real server, with the stack's
floor (a minimal view and a minimal broadcast websocket) measured in the same run.

    .venv/bin/python bench/load.py [--games 25,50,100,200] [--players 8] [--chat-every 5]
                                   [--day-seconds 20] [--redis | --no-redis] [--out FILE]

For each K a fresh daphne (`python -m daphne ... onenight.asgi:application`, embedded defaults:
SQLite and the in-memory channel layer) is started on a migrated copy of an empty database,
pinned to CPU 0; this process (asyncio, httpx, websockets) runs on CPU 1. One step:

1. lobby: the games are created and joined through the real pages, spread over --ramp seconds;
   then the same requests again as GET /bench/ping on the same schedule, the lobby's floor;
2. memory: every bot opens its websocket (the lobby page does); the server's RSS before and
   after, idle, divided by K*P is the memory per connected player;
3. baseline: K rooms of P sockets on the relay consumer with the bots' chat schedule, and
   GET /bench/ping from every bot's client as often as a bot sends requests in its game;
4. games: the hosts start (spread over --ramp), every bot plays to the reveal (bench/bots.py);
   a light probe pings /bench/ping meanwhile.

Then the same ramp runs against 2 daphne processes sharing the Redis pub/sub channel layer (and a
fresh PostgreSQL database when PostgreSQL answers), when Redis answers on 127.0.0.1:6379.
Results are printed and saved as JSON (bench/results/<timestamp>.json by default); the exit
status is 1 when any request, frame or delivery failed. Linux only (/proc, CPU affinity).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import importlib.metadata
import json
import math
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench import profiling  # noqa: E402
from bench import server as server_module  # noqa: E402
from bench.baseline import LOBBY_FLOOR, Baseline, replay_lobby, timed_ping  # noqa: E402
from bench.bots import (  # noqa: E402
    Bot,
    Config,
    Game,
    Harness,
    Recorder,
    Target,
    new_client,
    run_bots,
)
from bench.server import (  # noqa: E402
    PG_URL,
    REDIS_URL,
    Database,
    ServerSet,
    answers,
    make_servers,
    usable_cpus,
)
from bench.stats import (  # noqa: E402
    MIB,
    CpuWindow,
    LoopLag,
    MemorySampler,
    own_cpu_seconds,
    ratio,
    summarize,
    total_rss,
)

# The targets (docs/benchmarks.md).
TARGET_FANOUT_P99_MS = 50.0
FANOUT_LIMIT_MS = 100.0  # "the first K where p99 fan-out passes 100 ms"
TARGET_PAGE_RATIO = 3.0
TARGET_SERVER_MS = 20.0
TARGET_KIB_PER_CONNECTION = 100.0
PROBE_PER_SECOND = 5.0
# The requests of the lobby (bench/bots.py: create_game, join_game), compared with the lobby's
# replay as pings.
LOBBY_KINDS = frozenset({"home", "create", "join page", "join POST", "lobby"})
# The chat's rate limit (games/services.py CHAT_BURST, CHAT_WINDOW): lines per seat per window.
CHAT_BURST = 5
CHAT_WINDOW = 10.0


# --- One step: K games -----------------------------------------------------------------------


async def _median_rss(pids: list[int], samples: int = 5, every: float = 0.2) -> int:
    values = []
    for _ in range(samples):
        values.append(total_rss(pids))
        await asyncio.sleep(every)
    return int(statistics.median(values))


async def _warm_up(targets: list[Target]) -> None:
    """Import and compile what the first requests would (templates, URL resolvers)."""
    for target in targets:
        async with httpx.AsyncClient(base_url=target.url, trust_env=False) as client:
            for _ in range(10):
                await client.get("/bench/ping")
            for _ in range(3):
                await client.get("/")


async def _probe(
    h: Harness, targets: list[Target], recorder: Recorder, kind: str = "ping during games"
) -> None:
    """Open-loop GET /bench/ping at PROBE_PER_SECOND while the games (or the floor) run."""
    clients = [new_client(t, h.cfg.http_timeout) for t in targets]
    tasks: list[asyncio.Task[None]] = []

    async def one(client: httpx.AsyncClient) -> None:
        await timed_ping(h, client, recorder, kind, "probe")

    try:
        i = 0
        while True:
            tasks.append(asyncio.create_task(one(clients[i % len(clients)])))
            i += 1
            await asyncio.sleep(1 / PROBE_PER_SECOND)
    finally:
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in clients:
            await client.aclose()


def _log_tail(servers: ServerSet, lines: int = 30) -> dict[str, Any]:
    """What the server logged besides its access log: the last lines and the most frequent."""
    tails: dict[str, Any] = {}
    access = re.compile(r'\] "(GET|POST|HEAD|WSCONNECT|WSDISCONNECT|WSREJECT|WSCONNECTING) ')
    for server in servers.servers:
        if not server.log_path.exists():
            continue
        text = server.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        other = [line for line in text if not access.search(line)]
        frequent = Counter(line for line in other if "Error" in line or "error" in line)
        tails[server.name] = {
            "last_lines": other[-lines:],
            "most_frequent_errors": frequent.most_common(5),
        }
    return tails


def _kib(value: float) -> float:
    return round(value / 1024, 1)


def _mib(value: float) -> float:
    return round(value / MIB, 1)


async def run_step(
    *,
    games: int,
    cfg: Config,
    servers: ServerSet,
    label: str,
    idle: float,
    profile_dir: Path | None,
    lobby_concurrency: int = 16,
) -> dict[str, Any]:
    h = Harness(cfg, label)
    targets = [Target(s.url, s.ws_url) for s in servers.servers]
    pids = servers.pids
    players = cfg.players
    memory = MemorySampler(pids)
    memory.start()
    lag = LoopLag()
    lag.start()
    client_cpu0, wall0 = own_cpu_seconds(), h.now()
    rss_start = total_rss(pids)
    await _warm_up(targets)

    rulesets = {"house": ["house"], "official": ["official"], "mixed": ["house", "official"]}
    tables: list[Game] = []
    bots: list[Bot] = []
    for g in range(games):
        choices = rulesets[cfg.ruleset]
        game = Game(g, choices[g % len(choices)])
        for seat in range(players):
            bid = g * players + seat
            bot = Bot(h, bid, game, seat, targets[bid % len(targets)])
            game.bots.append(bot)
            bots.append(bot)
        tables.append(game)

    # 1. Lobby: create and join, spread over the ramp.
    lobby_cpu = CpuWindow(pids).start()
    lobby_profiler = None
    if profile_dir is not None:
        lobby_duration = int(cfg.ramp + 4 * cfg.phase_timeout + 0.1 * len(bots)) + 1
        lobby_profiler = profiling.start(
            pids[0], profile_dir / f"{label}-lobby.txt", lobby_duration
        )
    t0 = h.now() + 0.2
    for game in tables:
        game.start_at = cfg.table_start(t0, game.index, games)

    # At most `lobby_concurrency` players joining at once: a storm of hundreds of concurrent
    # requests would leave the server's heap high (freed memory is reused by the sockets next,
    # which hides their cost) and is not what the memory measurement is about.
    lobby_gate = asyncio.Semaphore(lobby_concurrency)

    async def lobby(bot: Bot) -> None:
        game = bot.game
        if bot.is_host:
            try:
                await asyncio.sleep(max(0.0, game.start_at - h.now()))
                async with lobby_gate:
                    await bot.create_game()
            finally:
                game.created.set()
        else:
            await game.created.wait()
            await asyncio.sleep(h.rng.uniform(0.0, 1.0))
            async with lobby_gate:
                await bot.join_game()

    lobby_timeout = cfg.ramp + 4 * cfg.phase_timeout + 0.1 * len(bots)  # ~4 requests a bot
    lobby_results = await run_bots([lobby(b) for b in bots], lobby_timeout, h, "lobby")
    broken = {bots[i].game.index for i, r in enumerate(lobby_results) if r is not None}
    lobby_report: dict[str, Any] = {
        "duration_s": round(h.now() - t0, 2),
        "server_cpu": lobby_cpu.stop(),
    }
    if lobby_profiler is not None:
        lobby_report["profile"] = profiling.finish(lobby_profiler, now=True)

    # 1b. The lobby's floor: the same requests as pings, on the same schedule and limit.
    lobby_floor = Recorder()
    t0 = h.now() + 0.5
    lobby_floor_cpu = CpuWindow(pids).start()
    await replay_lobby(
        h,
        [b.target for b in bots],
        [
            None if game.index in broken else cfg.table_start(t0, game.index, games)
            for game in tables
        ],
        lobby_concurrency,
        lobby_floor,
    )
    lobby_report["floor_server_cpu"] = lobby_floor_cpu.stop()
    lobby_report["floor"] = lobby_floor.summary().get(LOBBY_FLOOR)
    lobby_report["floor_errors"] = lobby_floor.error_report()

    # 2. Memory per connected player: every bot's socket open and idle.
    playing = [b for b in bots if b.game.index not in broken]
    await asyncio.sleep(1.0)
    rss_before = await _median_rss(pids)
    gate = asyncio.Semaphore(32)

    async def connect(bot: Bot) -> None:
        async with gate:
            await bot.connect()

    connect_results = await run_bots(
        [connect(b) for b in playing], 2 * cfg.phase_timeout, h, "connect"
    )
    broken |= {playing[i].game.index for i, r in enumerate(connect_results) if r is not None}
    connected = sum(1 for b in playing if b.ws is not None)
    await asyncio.sleep(idle)
    rss_after = await _median_rss(pids)

    # 3. Baseline: relay rooms with the same chat schedule, and the pings.
    base = Baseline(h, games, targets)
    base_rss0 = await _median_rss(pids, samples=3)
    await base.connect()
    await asyncio.sleep(idle)
    base_rss1 = await _median_rss(pids, samples=3)
    base_cpu = CpuWindow(pids).start()
    # With forms over the socket the replay sends no HTTP request: a light probe measures the
    # floor of an HTTP request under the floor's load (the lobby's pages have their own, 1b).
    base_probe = None
    if cfg.forms == "socket":
        base_probe = asyncio.create_task(_probe(h, targets, base.http, kind="ping"))
    await base.run([b.http for b in bots])
    if base_probe is not None:
        base_probe.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await base_probe
    await base.wait_delivered(5.0)
    base_report = {
        "http": base.http.summary(),
        "ws": base.chat.summary(),
        "server_cpu": base_cpu.stop(),
        "errors": base.http.error_report(),
        "per_connection_kib": _kib((base_rss1 - base_rss0) / max(1, len(base.sockets))),
    }
    await base.close()
    await asyncio.sleep(1.0)

    # 4. The games.
    playing = [b for b in bots if b.game.index not in broken]
    games_cpu = CpuWindow(pids).start()
    t0 = h.now() + 0.5
    for game in tables:
        game.start_at = cfg.table_start(t0, game.index, games)
    probe_recorder = Recorder()
    probe = asyncio.create_task(_probe(h, targets, probe_recorder))
    profiler = None
    if profile_dir is not None:
        duration = int(cfg.ramp + cfg.day_seconds + 2 * sum(cfg.think) + 5)
        profiler = profiling.start(pids[0], profile_dir / f"{label}.txt", duration)
    timeout = cfg.ramp + cfg.day_seconds + 6 * cfg.phase_timeout + 30
    await run_bots([b.play() for b in playing], timeout, h, "game")
    games_end = h.now()
    for bot in playing:
        bot.record_pushes()
    deadline = h.now() + 5.0  # late deliveries still count until then
    while h.chat.missing() and h.now() < deadline:
        await asyncio.sleep(0.1)
    probe.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await probe
    games_cpu_report = games_cpu.stop()
    profile_report = profiling.finish(profiler) if profiler is not None else None

    await asyncio.gather(*(b.close() for b in bots), return_exceptions=True)
    client_cpu = own_cpu_seconds() - client_cpu0
    client_wall = h.now() - wall0
    lag_report = await lag.stop()
    await memory.stop()
    memory.sample()

    # Results.
    completed = [g for g in tables if g.completed and g.started is not None]
    starts = [g.started for g in tables if g.started is not None]
    window = (max(max(g.done) for g in completed) - min(starts)) if completed else 0.0
    durations = [max(g.done) - g.started for g in completed if g.started is not None]
    codes = {g.code for g in tables if g.code}
    timings = servers.timings(codes)
    floors = {
        "ping": base_report["http"].get("ping", {}).get("p99"),
        "echo": base_report["http"].get("echo", {}).get("p99"),
        LOBBY_FLOOR: (lobby_report["floor"] or {}).get("p99"),
    }
    pages = h.http.summary()
    for kind, summary in pages.items():
        summary["baseline"] = floor_of(kind, floors)
        summary["ratio_p99_to_baseline"] = ratio(summary["p99"], floors[summary["baseline"]])
    chat = h.chat.summary()
    errors = h.http.error_report()
    probe_summary = probe_recorder.summary().get("ping during games", summarize([]))
    step = {
        "games": games,
        "players": players,
        "connections": connected,
        "lobby": lobby_report,
        "memory": {
            "rss_start_mib": _mib(rss_start),
            "rss_before_sockets_mib": _mib(rss_before),
            "rss_after_sockets_mib": _mib(rss_after),
            "per_connection_kib": _kib((rss_after - rss_before) / max(1, connected)),
            "baseline_per_connection_kib": base_report.pop("per_connection_kib"),
            "peak_rss_mib": _mib(memory.peak),
            "peak_per_connection_kib": _kib((memory.peak - rss_start) / max(1, connected)),
        },
        "baseline": base_report,
        "games_phase": {
            "started": len(starts),
            "completed": len(completed),
            "duration_s": round(games_end - t0, 2),
            "games_per_minute": round(len(completed) / window * 60, 1) if window > 0 else 0.0,
            "game_seconds": summarize(durations),
            "http": pages,
            "ping_during_games": probe_summary,
            "chat": chat,
            "frames_received": dict(h.frames.most_common()),
            "server_ms": {kind: summarize(values) for kind, values in timings.items()},
            "server_cpu": games_cpu_report,
            "errors": errors,
            "probe_errors": probe_recorder.error_report(),
        },
        "client": {
            "cpu_percent": round(100 * client_cpu / client_wall, 1) if client_wall else None,
            "loop_lag_ms": lag_report,
        },
    }
    if profile_report is not None:
        step["profile"] = profile_report
    step["targets"] = evaluate(step)
    step["games_phase"]["server_errors_5xx"] = h.http.server_errors
    step["games_phase"]["stopped_on_server_errors"] = h.http.too_many.is_set()
    if step["targets"]["errors"] or step["targets"]["lost_or_duplicated"]:
        step["server_log_tail"] = _log_tail(servers)
    return step


def floor_of(kind: str, floors: Mapping[str, float | None]) -> str:
    """Which floor request kind `kind` is compared with: the lobby's pages with the lobby's
    replay; what came over the socket (forms sent on it, panels pushed) with the echo, when
    the forms went on it; the other HTTP requests with the minimal view under the games'
    replay."""
    if kind in LOBBY_KINDS and floors.get(LOBBY_FLOOR) is not None:
        return LOBBY_FLOOR
    if kind.endswith((" form", " panel push")) and floors.get("echo") is not None:
        return "echo"
    return "ping"


def _worst_page(step: dict[str, Any]) -> tuple[str | None, float | None]:
    worst: tuple[str | None, float | None] = (None, None)
    for kind, summary in step["games_phase"]["http"].items():
        value = summary.get("ratio_p99_to_baseline")
        if value is not None and (worst[1] is None or value > worst[1]):
            worst = (kind, value)
    return worst


def evaluate(step: dict[str, Any]) -> dict[str, Any]:
    """Which of the issue's targets this step meets."""
    games = step["games_phase"]
    chat = games["chat"]
    base_ws = step["baseline"]["ws"]
    fanout = chat["fanout_ms"]["p99"]
    kind, worst = _worst_page(step)
    night = games["server_ms"]["resolve_night"]["p99"]
    tally = games["server_ms"]["tally_votes"]["p99"]
    errors = (
        games["errors"]["count"]
        + step["baseline"]["errors"]["count"]
        + games["probe_errors"]["count"]
        + step["lobby"].get("floor_errors", {}).get("count", 0)
    )
    lost = chat["lost"] + chat["duplicates"] + base_ws["lost"] + base_ws["duplicates"]
    per_conn = step["memory"]["per_connection_kib"]
    return {
        "fanout_p99_ms": fanout,
        "fanout_p99_under_50ms": fanout is not None and fanout < TARGET_FANOUT_P99_MS,
        "lost_or_duplicated": lost,
        "errors": errors,
        "all_games_completed": games["completed"] == step["games"],
        "worst_page": kind,
        "worst_page_ratio": worst,
        "pages_within_3x_baseline": worst is not None and worst <= TARGET_PAGE_RATIO,
        "night_p99_ms": night,
        "tally_p99_ms": tally,
        "server_side_under_20ms": (
            night is not None
            and tally is not None
            and night < TARGET_SERVER_MS
            and tally < TARGET_SERVER_MS
        ),
        "kib_per_connection": per_conn,
        "memory_under_100kib": per_conn < TARGET_KIB_PER_CONNECTION,
    }


# --- Runs: the embedded server, then Redis with two processes ---------------------------------


async def run_ramp(
    *,
    name: str,
    ramp: list[int],
    cfg: Config,
    database: Database,
    processes: int,
    redis_url: str | None,
    server_cpus: set[int] | None,
    idle: float,
    profile_dir: Path | None,
    lobby_concurrency: int,
    runs: list[dict[str, Any]],
    save: Callable[[], None],
) -> None:
    steps: list[dict[str, Any]] = []
    run: dict[str, Any] = {
        "name": name,
        "processes": processes,
        "database": database.kind,
        "channel_layer": "redis-pubsub" if redis_url else "in-memory",
        "steps": steps,
        "first_k_fanout_p99_over_100ms": None,
    }
    runs.append(run)
    print(
        f"\n== {name}: {processes} daphne process(es), {database.kind}, "
        f"{'Redis pub/sub' if redis_url else 'in-memory'} channel layer",
        flush=True,
    )
    database.prepare()
    try:
        for games in ramp:
            label = f"{name}{games}"
            servers = make_servers(
                step=label,
                database=database,
                count=processes,
                redis_url=redis_url,
                cpus=server_cpus,
            )
            servers.start()
            try:
                print(f"-- K={games} ({games * cfg.players} players) ...", flush=True)
                step = await run_step(
                    games=games,
                    cfg=cfg,
                    servers=servers,
                    label=label,
                    idle=idle,
                    profile_dir=profile_dir,
                    lobby_concurrency=lobby_concurrency,
                )
            finally:
                servers.stop()
                database.release()
            print(step_line(step), flush=True)
            steps.append(step)
            run["first_k_fanout_p99_over_100ms"] = next(
                (
                    s["games"]
                    for s in steps
                    if (s["games_phase"]["chat"]["fanout_ms"]["p99"] or 0) > FANOUT_LIMIT_MS
                ),
                None,
            )
            save()
    finally:
        database.drop()


# --- Reporting -------------------------------------------------------------------------------


def _f(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def step_line(step: dict[str, Any]) -> str:
    g, t = step["games_phase"], step["targets"]
    chat = g["chat"]
    return (
        f"   K={step['games']}: fan-out p50/p99/max {_f(chat['fanout_ms']['p50'])}/"
        f"{_f(chat['fanout_ms']['p99'])}/{_f(chat['fanout_ms']['max'])} ms, lost {chat['lost']},"
        f" dup {chat['duplicates']}, errors {t['errors']}, completed {g['completed']}/"
        f"{step['games']}, worst page {t['worst_page']} x{_f(t['worst_page_ratio'], 2)},"
        f" server CPU {_f(g['server_cpu']['cpu_percent'])} %,"
        f" {_f(step['memory']['per_connection_kib'])} KiB/conn"
    )


def table(result: dict[str, Any]) -> str:
    lines = []
    for run in result["runs"]:
        lines.append("")
        lines.append(
            f"{run['name']}: {run['processes']} process(es), {run['database']},"
            f" {run['channel_layer']} layer; first K with fan-out p99 > 100 ms:"
            f" {run['first_k_fanout_p99_over_100ms'] or 'none'}"
        )
        head = (
            f"{'K':>4} {'conns':>5} {'fan p50':>8} {'fan p99':>8} {'fan max':>8} {'lost':>5}"
            f" {'dup':>4} {'err':>4} {'done':>6} {'g/min':>6} {'ping p99':>8}"
            f" {'relay p99':>9} {'worst page x':>20} {'night p99':>9} {'tally p99':>9}"
            f" {'CPU %':>6} {'peak MiB':>8} {'KiB/conn':>8} {'lag p99':>7}"
        )
        lines.append(head)
        for s in run["steps"]:
            g, t, b = s["games_phase"], s["targets"], s["baseline"]
            chat = g["chat"]
            worst = f"{t['worst_page']} {_f(t['worst_page_ratio'], 1)}"
            lines.append(
                f"{s['games']:>4} {s['connections']:>5} {_f(chat['fanout_ms']['p50']):>8}"
                f" {_f(chat['fanout_ms']['p99']):>8} {_f(chat['fanout_ms']['max']):>8}"
                f" {chat['lost']:>5} {chat['duplicates']:>4} {t['errors']:>4}"
                f" {g['completed']:>3}/{s['games']:<3}{_f(g['games_per_minute']):>5}"
                f" {_f(b['http'].get('ping', {}).get('p99')):>8}"
                f" {_f(b['ws']['fanout_ms']['p99']):>9} {worst:>20}"
                f" {_f(t['night_p99_ms']):>9} {_f(t['tally_p99_ms']):>9}"
                f" {_f(g['server_cpu']['cpu_percent']):>6} {_f(s['memory']['peak_rss_mib']):>8}"
                f" {_f(s['memory']['per_connection_kib']):>8}"
                f" {_f(s['client']['loop_lag_ms']['p99']):>7}"
            )
        kinds = sorted({k for s in run["steps"] for k in s["games_phase"]["http"]})
        lines.append(
            "  request p50 / p99 ms (p99 ÷ the floor's p99: echo for what came over the socket,"
            " ping for HTTP), per K:"
        )
        lines.append(
            f"  {'kind':<16}" + "".join(f"{'K=' + str(s['games']):>24}" for s in run["steps"])
        )
        for kind in kinds:
            cells = []
            for s in run["steps"]:
                x = s["games_phase"]["http"].get(kind)
                cells.append(
                    "-"
                    if x is None
                    else f"{_f(x['p50'])} / {_f(x['p99'])} (x{_f(x['ratio_p99_to_baseline'])})"
                )
            lines.append(f"  {kind:<16}" + "".join(f"{c:>24}" for c in cells))
        for label, path in (
            ("ping (baseline)", ("baseline", "http", "ping")),
            ("echo (baseline)", ("baseline", "http", "echo")),
        ):
            cells = []
            for s in run["steps"]:
                x = s[path[0]][path[1]].get(path[2])
                cells.append("-" if x is None else f"{_f(x['p50'])} / {_f(x['p99'])}")
            lines.append(f"  {label:<16}" + "".join(f"{c:>24}" for c in cells))
        cells = [
            f"{_f(s['games_phase']['ping_during_games']['p50'])} /"
            f" {_f(s['games_phase']['ping_during_games']['p99'])}"
            for s in run["steps"]
        ]
        lines.append(f"  {'ping (in games)':<16}" + "".join(f"{c:>24}" for c in cells))
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    cpu = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = 0
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) * 1024
    versions = {}
    for package in (
        "django",
        "channels",
        "daphne",
        "channels-redis",
        "twisted",
        "httpx",
        "websockets",
        "psycopg",
    ):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            versions[package] = importlib.metadata.version(package)
    app = server_module.APP_DIR
    marker = app / "COMMIT"  # written beside a `git archive` snapshot used with --app-dir
    if marker.exists():
        commit = marker.read_text(encoding="utf-8").strip()
    else:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=app, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=app,
            capture_output=True,
            text=True,
        ).stdout.strip()
        if dirty:
            commit += " (with uncommitted changes)"
    return {
        "nproc": os.cpu_count(),
        "cpu_model": cpu,
        "memory_gib": round(mem / 1024**3, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "versions": versions,
        "app_dir": str(app),
        "app_commit": commit,
    }


# --- Command line ----------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", default="25,50,100,200", help="the ramp of K (comma list)")
    parser.add_argument("--players", type=int, default=8, help="players per game (3 to 12)")
    parser.add_argument("--chat-every", type=float, default=5.0, help="seconds between lines")
    parser.add_argument(
        "--day-seconds", type=float, default=20.0, help="how long bots chat before 'ready'"
    )
    parser.add_argument(
        "--ramp", type=float, default=10.0, help="seconds over which games are created/started"
    )
    parser.add_argument(
        "--think", default="0.5,2", help="min,max seconds a bot waits before its action and vote"
    )
    parser.add_argument(
        "--forms",
        choices=("socket", "http"),
        default="socket",
        help="game forms over the page's websocket (as game.js sends them) or as htmx POSTs",
    )
    parser.add_argument(
        "--ruleset",
        choices=("house", "official", "mixed"),
        default="mixed",
        help="mixed alternates house and official games (official has the Doppelganger)",
    )
    parser.add_argument(
        "--runs",
        default="embedded,redis",
        help="which runs: embedded (1 process, SQLite) and/or redis (2 processes)",
    )
    redis = parser.add_mutually_exclusive_group()
    redis.add_argument("--redis", action="store_true", help="require the Redis run")
    redis.add_argument("--no-redis", action="store_true", help="skip the Redis run")
    parser.add_argument("--redis-url", default=REDIS_URL)
    parser.add_argument(
        "--pg-url",
        default=os.environ.get("BENCH_PG_URL", PG_URL),
        help="PostgreSQL server for the Redis run (a database is made and dropped)",
    )
    parser.add_argument(
        "--no-postgres",
        action="store_true",
        help="the Redis run uses SQLite even when PostgreSQL answers",
    )
    parser.add_argument("--server-cpus", default="0", help="CPUs for daphne (comma list)")
    parser.add_argument("--load-cpus", default="1", help="CPUs for this load process")
    parser.add_argument("--no-pin", action="store_true", help="do not pin processes to CPUs")
    parser.add_argument(
        "--idle", type=float, default=2.0, help="seconds sockets stay idle before memory is read"
    )
    parser.add_argument("--phase-timeout", type=float, default=60.0)
    parser.add_argument(
        "--max-server-errors",
        type=int,
        default=100,
        help="HTTP 5xx answers after which a step stops (0: never)",
    )
    parser.add_argument(
        "--lobby-concurrency", type=int, default=16, help="players joining at once, at most"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="py-spy the (first) server during each lobby and games phase",
    )
    parser.add_argument("--keep", action="store_true", help="keep the work dir (server logs)")
    parser.add_argument(
        "--asgi",
        default="onenight.asgi:application",
        help="the ASGI application daphne serves (to compare another entry point)",
    )
    parser.add_argument(
        "--app-dir",
        type=Path,
        default=ROOT,
        help="run the server from this checkout (e.g. `git archive` of a commit); default: here",
    )
    parser.add_argument("--out", type=Path, help="JSON file (default bench/results/<time>.json)")
    args = parser.parse_args(argv)
    if not 3 <= args.players <= 12:
        parser.error("--players must be 3 to 12 (the house rules' table)")
    lines = math.ceil(args.day_seconds / args.chat_every)
    if lines > CHAT_BURST and args.chat_every * CHAT_BURST < CHAT_WINDOW + 0.5:
        parser.error(
            f"--chat-every {args.chat_every} would send more than {CHAT_BURST} lines in"
            f" {CHAT_WINDOW} s, which the chat refuses (games/services.py)"
        )
    return args


def _cpus(text: str) -> set[int]:
    return {int(x) for x in text.split(",") if x.strip()}


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


async def main_async(args: argparse.Namespace, out: Path) -> dict[str, Any]:
    server_module.APP_DIR = args.app_dir.resolve()
    server_module.ASGI_APP = args.asgi
    low, high = (float(x) for x in args.think.split(","))
    cfg = Config(
        players=args.players,
        chat_every=args.chat_every,
        day_seconds=args.day_seconds,
        ramp=args.ramp,
        think=(low, high),
        phase_timeout=args.phase_timeout,
        ruleset=args.ruleset,
        seed=args.seed,
        max_server_errors=args.max_server_errors,
        forms=args.forms,
    )
    ramp = [int(x) for x in args.games.split(",") if x.strip()]
    available = set(usable_cpus())
    server_cpus: set[int] | None = None
    pinning = "none"
    if not args.no_pin and len(available) >= 2:
        server_cpus = _cpus(args.server_cpus) & available or None
        load_cpus = _cpus(args.load_cpus) & available
        if server_cpus and load_cpus:
            os.sched_setaffinity(0, load_cpus)
            pinning = f"server CPUs {sorted(server_cpus)}, load CPUs {sorted(load_cpus)}"
    _raise_file_limit()
    profile_dir = None
    work = Path(tempfile.mkdtemp(prefix="onenight-load-"))
    if args.profile:
        if profiling.available():
            profile_dir = work / "profiles"
            profile_dir.mkdir()
        else:
            print("py-spy is not installed: --profile ignored", file=sys.stderr)
    result: dict[str, Any] = {
        "started_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(),
        "config": {
            "games": ramp,
            "players": cfg.players,
            "chat_every_s": cfg.chat_every,
            "day_seconds": cfg.day_seconds,
            "ramp_s": cfg.ramp,
            "think_s": list(cfg.think),
            "ruleset": cfg.ruleset,
            "forms": cfg.forms,
            "pinning": pinning,
            "asgi": args.asgi,
            "lobby_concurrency": args.lobby_concurrency,
            "max_server_errors": args.max_server_errors,
            "seed": cfg.seed,
        },
        "runs": [],
    }

    def save() -> None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")

    runs = {r.strip() for r in args.runs.split(",")}
    result["config"]["runs"] = sorted(runs)
    try:
        if "embedded" in runs:
            await run_ramp(
                name="embedded",
                ramp=ramp,
                cfg=cfg,
                database=Database("sqlite", work / "embedded"),
                processes=1,
                redis_url=None,
                server_cpus=server_cpus,
                idle=args.idle,
                profile_dir=profile_dir,
                lobby_concurrency=args.lobby_concurrency,
                runs=result["runs"],
                save=save,
            )
        redis_up = answers(args.redis_url, 6379)
        if args.redis and not redis_up:
            raise SystemExit(f"--redis: nothing answers at {args.redis_url}")
        if redis_up and not args.no_redis and "redis" in runs:
            pg = not args.no_postgres and answers(args.pg_url, 5432)
            await run_ramp(
                name="redis",
                ramp=ramp,
                cfg=cfg,
                database=Database(
                    "postgresql" if pg else "sqlite", work / "redis", pg_url=args.pg_url
                ),
                processes=2,
                redis_url=args.redis_url,
                server_cpus=server_cpus,
                idle=args.idle,
                profile_dir=profile_dir,
                lobby_concurrency=args.lobby_concurrency,
                runs=result["runs"],
                save=save,
            )
        elif not args.no_redis and "redis" in runs:
            print(f"\nRedis does not answer at {args.redis_url}: no Redis run", flush=True)
    finally:
        if profile_dir is not None:
            result["profiles_dir"] = str(profile_dir)
        if args.keep or profile_dir is not None:
            result["work_dir"] = str(work)
            print(f"\nwork dir kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return result


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    out = args.out or ROOT / "bench" / "results" / (
        dt.datetime.now().strftime("%Y%m%d-%H%M%S") + ".json"  # noqa: DTZ005 - a local name
    )
    result = asyncio.run(main_async(args, out))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))
    print(f"\nsaved: {out}")
    failed = any(
        s["targets"]["errors"] or s["targets"]["lost_or_duplicated"]
        for run in result["runs"]
        for s in run["steps"]
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
