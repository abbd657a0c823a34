"""Load benchmark of multi-night Werewolf (issue 27) against the real server: forum tables held
open with idle pages, and fast games played through (docs/benchmarks.md, "The multi-night
games").

    .venv/bin/python bench/werewolf_load.py [--idle 100] [--fast 25] [--players 8]
                                            [--runs embedded,redis] [--out FILE]

Each run starts fresh daphne processes (bench/server.py, as bench/load.py does), then:

1. **Held open** (the forum case): `--idle` forum tables (rules/001 at the forum pace, 48 hours a
   phase) of `--players` players are created, joined and started over `--ramp` seconds. The
   server's RSS before the tables, after them, and after every page has opened its socket and
   gone idle gives the memory per idle table and per connected player. Then every host moves
   its table on ("Move on now", spread over `--ramp` seconds): from the host's POST to each
   page's new panel is the phase-change push.
2. **Played through**: `--fast` games of the three rulesets in turn (forum, Oxford, 1.7.0) at a
   live pace of one minute a step. Every page posts, after a short think, a random form its
   panel shows (the night's choices, a vote, a fist, a seconding, an accusation now and then,
   "I'm done talking"), as a player clicking would; a host whose table has not moved for
   `--stall` seconds presses "Move on now" (rules/003's first night, a split pack). Every page
   opens its socket in the lobby, as a player waiting for the host does. The phase push is
   timed from what ended the step (bench/push_trace.py: the form whose answer carried the new
   step's version, or the deadline when the clock ended it) to each page's panel of the next
   step; the earlier rounds' figure, from the last form the table received, is kept beside it.

Bots read the pages' HTML like a browser and send forms as htmx does (bench/bots.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import re
import shutil
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bots import (  # noqa: E402
    NAMES,
    BotAborted,
    Step,
    htmx_headers,
    new_client,
    open_table_socket,
    run_all,
    timed,
)
from bench.load import machine, median_rss  # noqa: E402
from bench.push_trace import TableTrace, analyse  # noqa: E402
from bench.server import Database, Servers, answers  # noqa: E402
from bench.stats import CpuWindow, Sampler, summarize  # noqa: E402

PANEL = re.compile(r'<section id="panel" data-version="(\d+)"[^>]*? data-phase-label="([^"]*)"')
RULESETS = ("forum", "oxford", "classic")
# What a player does now, in order of urgency; an accusation and a day ability are rarer.
URGENCY = ("night", "decide", "sheriff_vote", "vote", "fist", "second", "accuse", "ready")


class Forms(HTMLParser):
    """The game's forms in a panel: action, hidden fields, selects, checkboxes, buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "/do/" in a.get("action", ""):
            self._form = {"kind": a["action"].rsplit("/", 1)[1], "fixed": {}, "selects": {},
                          "boxes": [], "buttons": []}  # fmt: skip
            self.forms.append(self._form)
        if self._form is None:
            return
        if tag == "input" and a.get("type") == "hidden" and a.get("name") != "csrfmiddlewaretoken":
            self._form["fixed"][a["name"]] = a.get("value", "")
        elif tag == "input" and a.get("type") == "checkbox":
            self._form["boxes"].append((a["name"], a.get("value", "on")))
        elif tag == "select":
            self._select = a.get("name", "")
            self._form["selects"][self._select] = []
        elif tag == "option" and self._select is not None:
            self._form["selects"][self._select].append(a.get("value", ""))
        elif tag == "button" and a.get("name"):
            self._form["buttons"].append((a["name"], a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._form = None


class Table:
    def __init__(self, index: int, ruleset: str) -> None:
        self.index, self.ruleset = index, ruleset
        self.code = ""
        self.created = asyncio.Event()
        self.pages: list[Page] = []
        self.last_post = 0.0  # when the table last received a form
        self.moved = 0.0  # when a page last saw a new version
        self.ended: float | None = None
        self.started: float | None = None
        self.trace = TableTrace()  # its forms and steps (bench/push_trace.py)


class Page:
    """One player's page: session, HTTP client, socket, the newest panel."""

    def __init__(self, step: Step, table: Table, seat: int, url: str) -> None:
        self.step, self.table, self.seat, self.url = step, table, seat, url
        self.http = new_client(url)
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.version, self.label, self.panel = 0, "", ""
        self.changed = asyncio.Event()
        self.hello = asyncio.Event()
        self.sent: set[tuple[str, ...]] = set()
        self.closing = False
        self.expect_push_from: float | None = None  # phase-change timing of part 1

    async def post(self, kind: str, path: str, data: dict[str, Any], expect: int = 200) -> Any:
        headers = htmx_headers(self.http, self.url)
        self.table.last_post = self.step.now()
        sent = self.table.trace.sent(kind, self.seat, self.table.last_post)
        answer = await timed(self.step, kind, self.http.post(path, data=data, headers=headers))
        sent.answered = self.step.now()
        if answer is None:
            sent.status = "failed"
            raise BotAborted(kind)
        if answer.status_code == expect:
            sent.status = "taken"
            if "X-Table-Version" in answer.headers:
                sent.version = int(answer.headers["X-Table-Version"])
                self.show(answer.text, sent.version, "answer")
        elif answer.status_code in (400, 409) and kind.startswith("do "):
            sent.status = "refused"
            self.step.frames["refused (the game moved on)"] += 1  # a race a player meets too
        else:
            sent.status = "failed"
            self.step.error(f"{kind}: HTTP {answer.status_code}", f"{path} {data}")
            raise BotAborted(kind)
        return answer

    def show(self, html: str, version: int, how: str) -> None:
        if version <= self.version:
            return
        match = PANEL.search(html)
        label = match.group(2) if match else self.label
        now = self.step.now()
        if self.label and label != self.label:
            self.table.trace.saw(self.seat, label, version, now, how, self.panel)
            if self.expect_push_from is not None:
                self.step.ms["held-open phase push"].append((now - self.expect_push_from) * 1000)
                self.expect_push_from = None
            elif self.table.last_post:
                self.step.ms["phase push"].append((now - self.table.last_post) * 1000)
        self.version, self.label, self.panel = version, label, html
        self.table.moved = now
        self.changed.set()

    async def lobby(self, gate: asyncio.Semaphore) -> None:
        table = self.table
        async with gate:
            if self.seat == 0:
                await timed(self.step, "home", self.http.get("/"))  # the CSRF cookie
                form = {"host_name": NAMES[0], "game": f"werewolf:{table.ruleset}"}
                try:
                    answer = await self.post("create", "/games/new", form, expect=302)
                    table.code = answer.headers["location"].strip("/").split("/")[1]
                finally:
                    table.created.set()
            else:
                await table.created.wait()
                if not table.code:
                    raise BotAborted("no table")
                await timed(self.step, "join page", self.http.get(f"/g/{table.code}/join"))
                form = {"name": NAMES[self.seat]}
                await self.post("join", f"/g/{table.code}/join", form, expect=302)
            page = await timed(self.step, "table page", self.http.get(f"/g/{table.code}/"))
            if page is None or page.status_code != 200:
                raise BotAborted("table page")
            self.show(page.text, int(page.headers["X-Table-Version"]), "page")

    async def start(self, pace: dict[str, str]) -> None:
        if pace:
            await self.post("options", f"/g/{self.table.code}/options", pace)
        self.table.started = self.step.now()
        await self.post("start", f"/g/{self.table.code}/start", {})

    async def connect(self) -> None:
        code = self.table.code
        self.ws = await open_table_socket(self.step, self.http, self.url, code, self.version)
        self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.hello.wait(), self.step.cfg.phase_timeout)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                kind = frame.get("type")
                self.step.frames[str(kind)] += 1
                if kind in ("hello", "panel"):
                    if frame.get("panel"):
                        self.show(frame["panel"], int(frame["version"]), str(kind))
                    self.hello.set()
                elif kind == "error":
                    self.step.error("socket: error frame", str(frame.get("message")))
        except Exception as error:
            if not self.closing:
                self.step.error(f"socket: {type(error).__name__}", repr(error))

    async def play(self, stall: float) -> None:
        """Random forms from the panel until the end."""
        step, table, rng = self.step, self.table, self.step.rng
        while 'id="reveal"' not in self.panel:
            self.changed.clear()
            if step.now() - table.moved > stall and self.seat == 0:
                table.moved = step.now()
                await self.post("do advance", f"/g/{table.code}/do/advance", {})
                continue
            choice = self._choose()
            if choice is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), 1.0)
                continue
            key, kind, data = choice
            await asyncio.sleep(rng.uniform(*step.cfg.think))
            self.sent.add(key)
            await self.post(f"do {kind}", f"/g/{table.code}/do/{kind}", data)
        if table.ended is None:
            table.ended = step.now()

    def _choose(self) -> tuple[tuple[str, ...], str, dict[str, Any]] | None:
        rng = self.step.rng
        parser = Forms()
        parser.feed(self.panel)
        accusation = re.search(r'id="accusation">\s*<p>([^<]*)', self.panel)
        about = accusation.group(1) if accusation else ""
        forms = sorted(
            (f for f in parser.forms if f["kind"] in URGENCY),
            key=lambda f: URGENCY.index(f["kind"]),
        )
        for form in forms:
            kind = form["kind"]
            key = (self.label, kind, about if kind in ("fist", "second") else "")
            if kind == "decide":
                key += (str(sorted(form["selects"].items())),)
            if key in self.sent or form["fixed"].get("ready") == "no":
                continue
            if kind == "accuse" and (rng.random() > 0.2 or about):
                self.sent.add(key)  # this player keeps quiet today
                continue
            if kind == "second" and rng.random() > 0.6:
                self.sent.add(key)
                continue
            data: dict[str, Any] = dict(form["fixed"])
            for name, values in form["selects"].items():
                real = [v for v in values if v] or values
                if real:
                    data[name] = rng.choice(real)
            for name, value in form["boxes"]:
                if rng.random() < 0.5:
                    data[name] = value
            if form["buttons"]:
                name, value = rng.choice(form["buttons"])
                data[name] = value
            return key, kind, data
        return None

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):  # already gone
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
        await self.http.aclose()


async def seat_tables(
    step: Step,
    servers: Servers,
    count: int,
    rulesets: tuple[str, ...],
    pace: dict[str, str],
    sockets_first: bool = False,
) -> tuple[list[Table], list[Page]]:
    """Create `count` tables (rulesets in turn), seat the players, start them over the ramp.

    With `sockets_first` every page opens its socket in the lobby, as a player waiting for
    the host does, and sees the first night by push; else the pages are loaded again after the
    start and open their sockets afterwards (the held-open part measures the idle table
    first, then its sockets)."""
    players = step.cfg.players
    tables = [Table(i, rulesets[i % len(rulesets)]) for i in range(count)]
    pages: list[Page] = []
    urls = servers.urls
    for table in tables:
        for seat in range(players):
            page = Page(step, table, seat, urls[len(pages) % len(urls)])
            table.pages.append(page)
            pages.append(page)
    gate = asyncio.Semaphore(16)
    timeout = step.cfg.ramp + step.cfg.phase_timeout + 0.1 * len(pages)
    hosts = [t.pages[0] for t in tables]
    await run_all([p.lobby(gate) for p in hosts], timeout, step, "create")
    await run_all([p.lobby(gate) for p in pages if p.seat], timeout, step, "join")
    if sockets_first:
        await open_sockets(step, pages)
    t0 = step.now()

    async def start(host: Page) -> None:
        await asyncio.sleep(max(0.0, step.table_start(t0, host.table.index) - step.now()))
        await host.start(pace)

    await run_all([start(h) for h in hosts], timeout, step, "start")
    for page in [] if sockets_first else pages:  # the page as a player opens it after the start
        answer = await timed(step, "table page", page.http.get(f"/g/{page.table.code}/"))
        if answer is not None and answer.status_code == 200:
            page.show(answer.text, int(answer.headers["X-Table-Version"]), "page")
    started = [t for t in tables if t.started is not None]
    return started, [p for t in started for p in t.pages]


async def open_sockets(step: Step, pages: list[Page]) -> None:
    gate = asyncio.Semaphore(32)

    async def connect(page: Page) -> None:
        async with gate:
            await page.connect()

    await run_all([connect(p) for p in pages], 2 * step.cfg.phase_timeout, step, "connect")


async def held_open(args: argparse.Namespace, servers: Servers, label: str) -> dict[str, Any]:
    step = Step(args, label, args.idle)
    pids = servers.pids
    await asyncio.sleep(1.0)
    rss0 = await median_rss(pids)
    tables, pages = await seat_tables(step, servers, args.idle, ("forum",), {})
    await asyncio.sleep(2.0)
    rss1 = await median_rss(pids)
    await open_sockets(step, pages)
    await asyncio.sleep(3.0)
    rss2 = await median_rss(pids)
    cpu = CpuWindow(pids)
    t0 = step.now() + 0.5

    async def move_on(table: Table) -> None:
        host = table.pages[0]
        await asyncio.sleep(max(0.0, step.table_start(t0, table.index) - step.now()))
        for page in table.pages:
            page.expect_push_from = step.now()
        await host.post("do advance", f"/g/{table.code}/do/advance", {})

    await run_all([move_on(t) for t in tables], args.ramp + args.phase_timeout, step, "advance")
    await asyncio.sleep(3.0)
    missed = sum(1 for p in pages if p.expect_push_from is not None)
    if missed:
        step.error("held open: no new panel after the phase change", f"{missed} pages")
    report = step.report()
    await asyncio.gather(*(p.close() for p in pages), return_exceptions=True)
    sockets = sum(1 for p in pages if p.ws is not None)
    return {
        "tables": args.idle,
        "players": args.players,
        "sockets": sockets,
        "memory": {
            "rss_base_mib": round(rss0 / 2**20, 1),
            "rss_tables_mib": round(rss1 / 2**20, 1),
            "rss_sockets_mib": round(rss2 / 2**20, 1),
            "kib_per_idle_table": round((rss1 - rss0) / 1024 / args.idle, 1),
            "kib_per_connected_player": round((rss2 - rss1) / 1024 / max(1, sockets), 1),
        },
        "phase_change_cpu": cpu.stop(),
        "push_ms": report["latency_ms"].get("held-open phase push", {}),
        "errors": report["errors"],
        "latency_ms": report["latency_ms"],
    }


async def played_through(args: argparse.Namespace, servers: Servers, label: str) -> dict[str, Any]:
    step = Step(args, label, args.fast)
    pids = servers.pids
    pace = {"pace": "live", **{f"minutes_{s}": "1" for s in
            ("night", "day", "election", "vote", "call", "decide")}}  # fmt: skip
    tables, pages = await seat_tables(step, servers, args.fast, RULESETS, pace, sockets_first=True)
    cpu = CpuWindow(pids)
    sampler = Sampler(pids)
    t0 = step.now()
    await run_all([p.play(args.stall) for p in pages], args.game_timeout, step, "game")
    games_cpu = cpu.stop()
    await sampler.stop()
    report = step.report()
    steps = analyse([t.trace for t in tables])
    await asyncio.gather(*(p.close() for p in pages), return_exceptions=True)
    ended = [t for t in tables if t.ended is not None]
    window = max(t.ended for t in ended) - t0 if ended else 0.0  # type: ignore[type-var]
    by_ruleset = {
        r: summarize(t.ended - t.started for t in ended if t.ruleset == r and t.started)  # type: ignore[operator]
        for r in RULESETS
    }
    return {
        "games": args.fast,
        "players": args.players,
        "completed": len(ended),
        "games_per_minute": round(len(ended) / window * 60, 1) if window else 0.0,
        "game_seconds_by_ruleset": by_ruleset,
        "server_cpu": games_cpu,
        "server_cpu_s_per_game": round(games_cpu["cpu_seconds"] / max(1, args.fast), 3),
        "peak_rss_mib": round(sampler.peak / 2**20, 1),
        "push_ms": steps["push_by_trigger_ms"].get("all", {}),
        "push_from_last_form_ms": report["latency_ms"].get("phase push", {}),
        "refused_moves": step.frames.get("refused (the game moved on)", 0),
        "steps": steps,
        "errors": report["errors"],
        "latency_ms": report["latency_ms"],
    }


def _fmt(x: Any) -> str:
    return "—" if x is None else f"{x:,.1f}"


def print_report(result: dict[str, Any]) -> None:
    for run in result["runs"]:
        held, fast = run["held_open"], run["played_through"]
        mem, push = held["memory"], held["push_ms"]
        print(f"\n### {run['name']}: {run['processes']} process(es), {run['database']}")
        print(
            "| held open | tables | sockets | KiB / idle table | KiB / connected player"
            " | phase push p50 / p99 / max ms | CPU s for the phase changes | errors |"
        )
        print("|---|---|---|---|---|---|---|---|")
        print(
            f"| forum | {held['tables']} | {held['sockets']} | {_fmt(mem['kib_per_idle_table'])}"
            f" | {_fmt(mem['kib_per_connected_player'])} | {_fmt(push.get('p50'))} /"
            f" {_fmt(push.get('p99'))} / {_fmt(push.get('max'))}"
            f" | {held['phase_change_cpu']['cpu_seconds']} | {held['errors']['count']} |"
        )
        push = fast["push_ms"]
        print(
            "\n| played through | games | done | games/min | CPU s / game | other CPU %"
            " | peak RSS MiB | phase push p50 / p99 / max ms | moves refused (raced) | errors |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        print(
            f"| forum, oxford, classic | {fast['games']} | {fast['completed']}"
            f" | {fast['games_per_minute']} | {fast['server_cpu_s_per_game']}"
            f" | {fast['server_cpu'].get('other_processes_percent')}"
            f" | {fast['peak_rss_mib']} | {_fmt(push.get('p50'))} / {_fmt(push.get('p99'))} /"
            f" {_fmt(push.get('max'))} | {fast['refused_moves']} | {fast['errors']['count']} |"
        )
        for ruleset, seconds in fast["game_seconds_by_ruleset"].items():
            print(f"- {ruleset}: a game lasted {_fmt(seconds.get('p50'))} s (median)")
        print_steps(fast.get("steps"))
        for name in ("held_open", "played_through"):
            for sample in run[name]["errors"]["samples"][:5]:
                print(f"  error ({name}): {sample}")


def print_steps(steps: dict[str, Any] | None) -> None:
    """The played-through pushes by what ended their step (bench/push_trace.py)."""
    if not steps:
        return
    print("\n| phase push timed from what ended the step | pushes | p50 / p99 / max ms |")
    print("|---|---|---|")
    rows = [*steps["push_by_trigger_ms"].items(), *steps["push_by_delivery_ms"].items()]
    rows += [("(earlier rounds) from the table's last form", steps["push_from_last_form_ms"]),
             ("a step's spread, first page to last", steps["step_spread_ms"])]  # fmt: skip
    for name, s in rows:
        print(f"| {name} | {s['count']} | {_fmt(s['p50'])} / {_fmt(s['p99'])} / {_fmt(s['max'])} |")
    for row in steps["slowest_steps"][:8]:
        print(f"  slow step: {row}")


async def main_async(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="werewolf-bench-"))
    result: dict[str, Any] = {
        "started_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        "machine": machine(args.app_dir),
        "runs": [],
    }
    ok = True
    for name in args.runs:
        redis = name == "redis"
        if redis and not answers(args.redis_url, 6379):
            print("Redis does not answer: the redis run is skipped")
            continue
        pg_url = args.pg_url if redis and answers(args.pg_url, 5432) else None
        database = Database(work / name, args.app_dir, pg_url, args.pg_prefix)
        run: dict[str, Any] = {"name": name, "processes": 2 if redis else 1,
                               "database": database.kind}  # fmt: skip
        try:
            for part, call in (("held_open", held_open), ("played_through", played_through)):
                env = {**database.fresh(f"{name}{part}"),
                       **({"REDIS_URL": args.redis_url} if redis else {})}  # fmt: skip
                (work / name / part).mkdir(parents=True, exist_ok=True)
                servers = Servers(args.app_dir, env, run["processes"], work / name / part)
                servers.start(args.server_cpus)
                try:
                    print(f"-- {name}: {part.replace('_', ' ')} ...", flush=True)
                    run[part] = await call(args, servers, f"{name}-{part}")
                finally:
                    servers.stop()
                    database.release()
                ok = ok and run[part]["errors"]["count"] == 0
        finally:
            database.drop()
        result["runs"].append(run)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    shutil.rmtree(work, ignore_errors=True)
    print_report(result)
    print(f"\nsaved: {args.out}")
    return 0 if ok else 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--idle", type=int, default=100, help="forum tables held open")
    p.add_argument("--fast", type=int, default=25, help="games played through")
    p.add_argument("--players", type=int, default=8)
    p.add_argument("--ramp", type=float, default=10.0)
    p.add_argument("--think", default="0.3,1.5")
    p.add_argument("--stall", type=float, default=5.0, help="seconds before a host moves on")
    p.add_argument("--phase-timeout", type=float, default=60.0)
    p.add_argument("--game-timeout", type=float, default=600.0)
    p.add_argument("--runs", default="embedded,redis")
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/5")
    p.add_argument("--pg-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    p.add_argument("--pg-prefix", default="werewolf_bench")
    p.add_argument("--server-cpus", default="0")
    p.add_argument("--app-dir", default=str(ROOT))
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")
    p.add_argument("--out", default=str(ROOT / "bench" / "results" / f"werewolf-{stamp}.json"))
    p.add_argument("--seed", default="1")
    args = p.parse_args(argv)
    args.think = tuple(float(x) for x in args.think.split(","))
    args.runs = [r for r in args.runs.split(",") if r]
    args.server_cpus = {int(c) for c in args.server_cpus.split(",") if c} or None
    args.app_dir = Path(args.app_dir)
    args.chat_every, args.day_seconds = 5.0, 0.0  # Step's settings that this bench does not use
    return args


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(main_async(parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
