"""Load benchmark: K full games of P bots at once against the real server, with the stack's
floor (a minimal view, a minimal relay socket) measured in the same run (docs/benchmarks.md).

    .venv/bin/python bench/load.py [--games 25,50,100,200] [--runs embedded,redis] [--out FILE]
        [--chat-via socket|post]    # chat over the page's socket (the default) or by POST
    .venv/bin/python bench/load.py --report RESULT.json     # the Markdown tables again

Each step (one K) starts fresh daphne processes on `bench.app:application` (the app plus the
floor's routes) on a copy of a migrated database, pinned to the server CPUs, then: 1. the
lobby (tables created and joined over --ramp seconds); 2. every page's socket opened, the
server's RSS before and after is the memory per socket; 3. the floor: every page chats on the
bots' schedule through the relay consumer, each line also a GET /bench/ping; 4. the games
(bench/bots.py). Results are printed and saved as JSON; exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import importlib.metadata
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bots import Bot, Echo, Game, Step, new_client, run_all  # noqa: E402
from bench.server import Database, Servers, answers  # noqa: E402
from bench.stats import CpuWindow, Sampler, own_cpu_seconds, rss_bytes, summarize  # noqa: E402

LOBBY_CONCURRENCY = 16  # players joining at once, at most
CHAT_BURST, CHAT_WINDOW = 5, 10.0  # the chat's limit per seat (games/tables/services.py)
PAGES = ("home", "create", "join page", "join", "table page")


async def median_rss(pids: list[int]) -> int:
    values = []
    for _ in range(5):
        values.append(rss_bytes(pids))
        await asyncio.sleep(0.2)
    return int(statistics.median(values))


async def settle(step: Step, grace: float = 5.0) -> None:
    """Give late chat deliveries `grace` seconds to arrive."""
    deadline = step.now() + grace
    while step.missing() and step.now() < deadline:
        await asyncio.sleep(0.1)


async def run_step(args: argparse.Namespace, servers: Servers, k: int, label: str) -> dict:
    step = Step(args, label, k)
    pids, urls = servers.pids, servers.urls
    sampler = Sampler(pids)
    client_cpu0, wall0 = own_cpu_seconds(), step.now()
    for url in urls:  # what the first requests would load (templates, URL resolvers)
        async with new_client(url) as client:
            for path in ["/bench/ping"] * 10 + ["/"] * 3:
                await client.get(path)
    rulesets = ["house", "official"] if args.ruleset == "mixed" else [args.ruleset]
    tables = [Game(g, rulesets[g % len(rulesets)]) for g in range(k)]
    bots: list[Bot] = []
    for game in tables:
        for seat in range(args.players):
            game.bots.append(Bot(step, len(bots), game, seat, urls[len(bots) % len(urls)]))
            bots.append(game.bots[-1])

    # 1. The lobby.
    t0 = step.now() + 0.2
    for game in tables:
        game.start_at = step.table_start(t0, game.index)
    cpu = CpuWindow(pids)
    gate = asyncio.Semaphore(LOBBY_CONCURRENCY)
    timeout = args.ramp + 2 * args.phase_timeout + 0.1 * len(bots)
    ok = await run_all([b.lobby(gate) for b in bots], timeout, step, "lobby")
    broken = {b.game.index for b, good in zip(bots, ok, strict=True) if not good}
    lobby = {"duration_s": round(step.now() - t0, 2), "server_cpu": cpu.stop()}

    # 2. Memory: every page's socket open and idle.
    playing = [b for b in bots if b.game.index not in broken]
    await asyncio.sleep(1.0)
    rss_before = await median_rss(pids)
    gate = asyncio.Semaphore(32)

    async def connect(page: Bot | Echo) -> None:
        async with gate:
            await page.connect()

    ok = await run_all([connect(b) for b in playing], 2 * args.phase_timeout, step, "connect")
    broken |= {b.game.index for b, good in zip(playing, ok, strict=True) if not good}
    sockets = sum(1 for b in playing if b.ws is not None)
    await asyncio.sleep(2.0)
    rss_after = await median_rss(pids)

    # 3. The floor: the day's chat of every table through the relay, and a ping per line.
    floor = Step(args, label + "f", k)
    echoes = [Echo(floor, b, f"{label}-{b.game.index}") for b in bots]
    await asyncio.gather(*(connect(e) for e in echoes))
    cpu = CpuWindow(pids)
    t0 = floor.now() + 0.5
    schedules = [floor.open_loop(floor.table_start(t0, e.bot.game.index), e.send) for e in echoes]
    await asyncio.sleep(t0 + args.ramp + args.day_seconds - floor.now())
    await asyncio.gather(*(task for tasks in schedules for task in tasks))
    await settle(floor)
    floor_report = {**floor.report(), "server_cpu": cpu.stop()}
    await asyncio.gather(*(e.close() for e in echoes))
    await asyncio.sleep(1.0)

    # 4. The games.
    playing = [b for b in bots if b.game.index not in broken]
    t0 = step.now() + 0.5
    for game in tables:
        game.start_at = step.table_start(t0, game.index)
    cpu = CpuWindow(pids)
    timeout = args.ramp + args.day_seconds + 6 * args.phase_timeout + 30
    await run_all([b.play() for b in playing], timeout, step, "game")
    games_end = step.now()
    for bot in playing:
        bot.record_pushes()
    await settle(step)
    games_cpu = cpu.stop()
    await asyncio.gather(*(b.close() for b in bots), return_exceptions=True)
    await sampler.stop()
    client_cpu, client_wall = own_cpu_seconds() - client_cpu0, step.now() - wall0

    done = [g for g in tables if g.completed and g.started is not None]
    starts = [g.started for g in tables if g.started is not None]
    window = max(max(g.done) for g in done) - min(starts) if done else 0.0
    report = step.report()
    chat, relay = report["chat"], floor_report["chat"]
    return {
        "games": k,
        "players": args.players,
        "sockets": sockets,
        "ok": (
            report["errors"]["count"] + floor_report["errors"]["count"] == 0
            and chat["lost"] + chat["duplicates"] + chat["refused_or_failed"] == 0
            and relay["lost"] + relay["duplicates"] == 0
            and len(done) == k
        ),
        "lobby": lobby,
        "memory": {
            "rss_before_sockets_mib": round(rss_before / 2**20, 1),
            "rss_after_sockets_mib": round(rss_after / 2**20, 1),
            "kib_per_socket": round((rss_after - rss_before) / 1024 / max(1, sockets), 1),
            "peak_rss_mib": round(sampler.peak / 2**20, 1),
        },
        "floor": floor_report,
        "games_phase": {
            "started": len(starts),
            "completed": len(done),
            "duration_s": round(games_end - t0, 2),
            "games_per_minute": round(len(done) / window * 60, 1) if window else 0.0,
            "game_seconds": summarize(max(g.done) - (g.started or 0) for g in done),
            "server_cpu": games_cpu,
            "server_cpu_s_per_game": round(games_cpu["cpu_seconds"] / k, 3),
            "frames": dict(step.frames.most_common()),
        },
        **report,
        "client": {
            "cpu_percent": round(100 * client_cpu / client_wall, 1),
            "loop_lag_ms": summarize(sampler.lags),
        },
        "server_log": servers.log_tail(),
    }


async def run_ramp(args: argparse.Namespace, name: str, work: Path, runs: list[dict]) -> None:
    redis = name == "redis"
    pg_url = args.pg_url if redis and answers(args.pg_url, 5432) else None
    database = Database(work / name, args.app_dir, pg_url, args.pg_prefix)
    run = {
        "name": name,
        "processes": 2 if redis else 1,
        "database": database.kind,
        "channel_layer": "redis-pubsub" if redis else "in-memory",
        "chat_via": args.chat_via,
        "steps": [],
    }
    runs.append(run)
    print(f"\n== {name}: {run['processes']} daphne, {database.kind}, {run['channel_layer']}")
    try:
        for k in args.games:
            label = f"{name}{k}"
            env = {**database.fresh(label), **({"REDIS_URL": args.redis_url} if redis else {})}
            servers = Servers(args.app_dir, env, run["processes"], work / name / label)
            servers.start(args.server_cpus)
            try:
                print(f"-- K={k} ({k * args.players} players) ...", flush=True)
                step = await run_step(args, servers, k, label)
            finally:
                servers.stop()
                database.release()
            run["steps"].append(step)
            fan = step["chat"]["fanout_ms"]
            print(
                f"   fan-out p50/p99 {fmt(fan['p50'])}/{fmt(fan['p99'])} ms, lost"
                f" {step['chat']['lost']}, errors {step['errors']['count']}, games done"
                f" {step['games_phase']['completed']}/{k}" + ("" if step["ok"] else ", FAILED")
            )
            args.save()
    finally:
        database.drop()


# --- Reporting ---------------------------------------------------------------------------------


def fmt(value: Any, digits: int = 1) -> str:
    if value is None or isinstance(value, str):
        return value or "-"
    return f"{value:,.{digits}f}" if isinstance(value, float) else f"{value:,}"


def tables(result: dict[str, Any]) -> str:
    """Per run: one row per K, then the latency of every request and push per K."""
    out = []
    for run in result["runs"]:
        steps = run["steps"]
        over = [s["games"] for s in steps if (s["chat"]["fanout_ms"]["p99"] or 0) > 100]
        out += [
            f"\n### {run['name']}: {run['processes']} daphne process(es), {run['database']},"
            f" {run['channel_layer']} channel layer, chat by {run.get('chat_via', 'post')}\n",
            f"First K where the chat fan-out p99 passes 100 ms: {over[0] if over else 'none'}.\n",
            "| K | sockets | chat fan-out p50 / p99 / max ms | lost | dup | errors | games done"
            " | games/min | phase push p99 ms | slowest form p99 ms | floor ping / relay p99 ms"
            " | server CPU % | CPU s / game | other CPU % | peak RSS MiB | KiB / socket"
            " | client lag p99 ms |",
            "|" + "---|" * 17,
        ]
        for s in steps:
            fan, g, fl, ms = s["chat"]["fanout_ms"], s["games_phase"], s["floor"], s["latency_ms"]
            forms = {k: v["p99"] or 0 for k, v in ms.items() if k not in PAGES and "push" not in k}
            slow = max(forms, key=forms.__getitem__, default="-")
            cells = [
                s["games"],
                s["sockets"],
                f"{fmt(fan['p50'])} / {fmt(fan['p99'])} / {fmt(fan['max'])}",
                s["chat"]["lost"],
                s["chat"]["duplicates"],
                s["errors"]["count"] + fl["errors"]["count"],
                f"{g['completed']}/{s['games']}",
                g["games_per_minute"],
                ms.get("phase push", {}).get("p99"),
                f"{fmt(forms.get(slow))} ({slow})",
                f"{fmt(fl['latency_ms'].get('ping', {}).get('p99'))} /"
                f" {fmt(fl['chat']['fanout_ms']['p99'])}",
                g["server_cpu"]["cpu_percent"],
                fmt(g["server_cpu_s_per_game"], 3),
                g["server_cpu"]["other_processes_percent"],
                s["memory"]["peak_rss_mib"],
                s["memory"]["kib_per_socket"],
                s["client"]["loop_lag_ms"]["p99"],
            ]
            out.append("| " + " | ".join(map(fmt, cells)) + " |")
        out += [
            "",
            "| p50 / p99 ms | " + " | ".join(f"K={s['games']}" for s in steps) + " |",
            "|---|" + "---|" * len(steps),
        ]
        rows = {kind: [s["latency_ms"].get(kind) for s in steps] for kind in steps[0]["latency_ms"]}
        rows["chat fan-out"] = [s["chat"]["fanout_ms"] for s in steps]
        rows["floor: ping"] = [s["floor"]["latency_ms"].get("ping") for s in steps]
        rows["floor: relay fan-out"] = [s["floor"]["chat"]["fanout_ms"] for s in steps]
        for kind, cells in rows.items():
            row = [f"{fmt(c['p50'])} / {fmt(c['p99'])}" if c else "-" for c in cells]
            out.append(f"| {kind} | " + " | ".join(row) + " |")
    return "\n".join(out)


def machine(app_dir: Path) -> dict[str, Any]:
    cpus = [x for x in Path("/proc/cpuinfo").read_text().splitlines() if x.startswith("model")]
    marker = app_dir / "COMMIT"  # written beside a `git archive` snapshot (--app-dir)
    git = ["git", "-C", str(app_dir), "describe", "--always", "--dirty=+uncommitted"]
    versions = {}
    for package in ("django", "channels", "daphne", "channels-redis", "httpx", "websockets"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            versions[package] = importlib.metadata.version(package)
    return {
        "nproc": os.cpu_count(),
        "cpu_model": cpus[-1].split(":", 1)[1].strip() if cpus else "",
        "python": platform.python_version(),
        "versions": versions,
        "app_dir": str(app_dir),
        "app_commit": marker.read_text().strip()
        if marker.exists()
        else subprocess.run(git, capture_output=True, text=True).stdout.strip(),
    }


# --- Command line ------------------------------------------------------------------------------


def numbers(text: str, kind: type = int) -> list[Any]:
    return [kind(x) for x in text.split(",") if x.strip()]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add = parser.add_argument
    add("--games", type=numbers, default=[25, 50, 100, 200], help="the ramp of K (comma list)")
    add("--players", type=int, default=8, help="players per table (3 to 12)")
    add("--chat-every", type=float, default=5.0, help="seconds between a bot's chat lines")
    add("--day-seconds", type=float, default=20.0, help="how long bots chat before 'ready'")
    add("--ramp", type=float, default=10.0, help="seconds over which tables are made, started")
    add("--think", type=lambda x: numbers(x, float), default=[0.5, 2.0], help="min,max seconds")
    add("--ruleset", choices=("house", "official", "mixed"), default="mixed")
    add(
        "--chat-via",
        choices=("socket", "post"),
        default="socket",
        help="how bots send chat: over the page's socket (as table.js does), or the form's POST",
    )
    add("--runs", type=lambda x: x.split(","), default=["embedded", "redis"])
    add("--redis-url", default="redis://127.0.0.1:6379/5")
    add("--pg-url", default="postgres://postgres@127.0.0.1:5432/postgres", help="admin URL")
    add("--pg-prefix", default="onenight_bench", help="names of the databases made and dropped")
    add("--server-cpus", type=numbers, default=[0], help="CPUs for daphne")
    add("--load-cpus", type=numbers, default=[1], help="CPUs for this process")
    add("--no-pin", action="store_true", help="do not pin processes to CPUs")
    add("--phase-timeout", type=float, default=60.0, help="how long a page waits for a panel")
    add("--seed", type=int, default=1)
    add("--app-dir", type=Path, default=ROOT, help="serve this tree (e.g. a `git archive`)")
    add("--keep", action="store_true", help="keep the work dir (server logs, databases)")
    add("--out", type=Path, help="the JSON (default bench/results/<time>.json)")
    add("--report", type=Path, metavar="RESULT", help="print the tables of a saved result")
    args = parser.parse_args(argv)
    if not 3 <= args.players <= 12:
        parser.error("--players must be 3 to 12")
    if (
        args.day_seconds > args.chat_every * CHAT_BURST
        and args.chat_every * CHAT_BURST <= CHAT_WINDOW
    ):
        parser.error(f"the chat refuses more than {CHAT_BURST} lines in {CHAT_WINDOW:.0f} s")
    args.app_dir = args.app_dir.resolve()
    if not (args.report or (args.app_dir / "bench" / "app.py").exists()):
        parser.error(f"{args.app_dir} has no bench/app.py to serve")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.report:
        print(tables(json.loads(args.report.read_text(encoding="utf-8"))))
        return 0
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")  # noqa: DTZ005 - a local file name
    out = args.out or ROOT / "bench" / "results" / f"{stamp}.json"
    available = os.sched_getaffinity(0)
    server_cpus, load_cpus = set(args.server_cpus) & available, set(args.load_cpus) & available
    args.server_cpus = None
    if not args.no_pin and server_cpus and load_cpus:
        os.sched_setaffinity(0, load_cpus)
        args.server_cpus = server_cpus
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket or two per page
    with contextlib.suppress(ValueError, OSError):
        wanted = 65536 if hard == resource.RLIM_INFINITY else hard
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    result: dict[str, Any] = {
        "started_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": machine(args.app_dir),
        "config": {k: v for k, v in vars(args).items() if k not in ("out", "report")},
        "runs": [],
    }

    def save() -> None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")

    args.save = save
    work = Path(tempfile.mkdtemp(prefix="onenight-load-"))
    try:
        for name in args.runs:
            if name == "redis" and not answers(args.redis_url, 6379):
                print(f"\nRedis does not answer at {args.redis_url}: no Redis run")
                continue
            asyncio.run(run_ramp(args, name, work, result["runs"]))
    finally:
        save()
        print(f"\nwork dir kept: {work}" if args.keep else "")
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(tables(result))
    print(f"\nsaved: {out}")
    return 0 if all(s["ok"] for run in result["runs"] for s in run["steps"]) else 1


if __name__ == "__main__":
    raise SystemExit(main())
