"""Where the server's CPU goes, per kind of event, in one process and without the load benchmark
(issue 39, item 1).

    .venv/bin/python bench/profile_events.py            # 200 of each event; --events N

Tables of eight are set up in-process (a temporary SQLite file, Channels' in-memory layer, the
deadline ticker off) and then driven through the app's own ASGI application
(onenight.asgi.application: the one worker thread, the HTTP middleware, the websocket stack),
with channels' test communicators standing in for the browsers: every seat of a table holds an
open socket, so a change is fanned out to eight real consumers. Each event is one request and
everything it causes, until every socket has received what it is sent:

- chat: a player's line (htmx POST /g/<code>/chat), delivered to the table's eight sockets;
  and, at One Night tables, the same over the player's socket (issue 39: a "chat" frame,
  answered "chat-sent"), as table.js sends it while its socket is open;
- move: a One Night night action, a Werewolf night choice, a Werewolf day vote (htmx POST
  /g/<code>/do/<kind>), with the push it causes (the panels it redraws, the status elsewhere);
- phase change: One Night's last night action (night to day) and the host's "end the day";
  Werewolf's host "Move on now" (night to day, day to night); the POST and the eight panels;
- page load: a seat's table page (GET /g/<code>/) and its panel fragment (htmx GET
  /g/<code>/panel), for both families.

Half of the events of each kind run plain, for the CPU per event (`time.process_time`, the
whole process); the other half run under cProfile (in the event loop's thread and in the worker
thread, timed by each thread's CPU clock), for the split. A function's own time counts for its
module's part; the time of a function that belongs to no part (the standard library, builtins,
django.utils) counts for the part of its callers, in proportion. JSON encoding counts as
serialization unless the ORM called it (then it is row decoding). The communicators' own work
is the harness: it is not the server's, and "server ms" leaves it out.

These are in-process figures: no daphne, no sockets on the wire, one event at a time on an
idle machine. They say where a single event's CPU goes, not what a loaded server does
(bench/load.py measures that).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import platform
import pstats
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
# One Night, house rules: eleven cards for eight players (shuffled by the deal).
ONENIGHT_DECK = (
    "werewolf",
    "werewolf",
    "seer",
    "robber",
    "troublemaker",
    "drunk",
    "insomniac",
    "mason",
    "mason",
    "villager",
    "villager",
)
LINES = (
    "I was the seer last night and I looked at the centre cards.",
    "Who wants to go first? Say what you were tonight.",
    "I think the werewolf is sitting on my left, honestly.",
    "That story does not add up at all, sorry about that.",
)
HOST = b"testserver"
ORIGIN = b"http://testserver"
CSRF = "k" * 32  # a CSRF secret as the cookie holds it; the header repeats it
WAIT = 10.0
ONENIGHT_PHASE = "onenight phase change (POST, 8 panels)"

# --- Parts: a module path's part of the server ---------------------------------------------------

PARTS = (
    "request (middleware, session, urls)",
    "ORM (queries, row decoding)",
    "table core (views, services, selectors, consumers)",
    "family code",
    "templates",
    "JSON (frames)",
    "channel layer and consumer base",
    "event loop, asgiref",
    "translation (gettext)",
    "other",
)
HARNESS = "harness (test communicators)"
RULES: tuple[tuple[str, str], ...] = (
    ("/channels/testing/", HARNESS),
    ("/asgiref/testing.py", HARNESS),
    ("/bench/profile_events.py", HARNESS),
    ("/django/db/models/sql/", "ORM: SQL built"),
    ("/django/db/models/expressions.py", "ORM: SQL built"),
    ("/django/db/models/lookups.py", "ORM: SQL built"),
    ("/django/db/models/query_utils.py", "ORM: SQL built"),
    ("/django/db/models/query.py", "ORM: SQL built"),
    ("/django/db/backends/", "ORM: executed"),
    ("sqlite3", "ORM: executed"),
    ("/django/db/transaction.py", "ORM: executed"),
    ("/django/db/utils.py", "ORM: executed"),
    ("/django/db/", "ORM: rows (models, fields)"),
    ("/django/template/", PARTS[4]),
    ("/django/templatetags/", PARTS[4]),
    ("/games/tables/templatetags/", PARTS[4]),
    ("/games/families/", PARTS[3]),
    ("/games/tables/middleware.py", PARTS[0]),
    ("/games/", PARTS[2]),
    ("/onenight/layers.py", PARTS[6]),
    ("/onenight/refusals.py", PARTS[0]),
    ("/onenight/", PARTS[0]),
    ("/channels/", PARTS[6]),
    ("/django/core/handlers/", PARTS[0]),
    ("/django/middleware/", PARTS[0]),
    ("/django/contrib/sessions/", PARTS[0]),
    ("/django/contrib/auth/", PARTS[0]),
    ("/django/contrib/messages/", PARTS[0]),
    ("/django/core/signing.py", PARTS[0]),
    ("/django/http/", PARTS[0]),
    ("/django/urls/", PARTS[0]),
    ("/django/views/", PARTS[0]),
    ("/django_htmx/", PARTS[0]),
    ("/whitenoise/", PARTS[0]),
    ("/asgiref/local.py", ""),  # Django's thread- and task-locals: their callers' part
    ("/django/utils/translation/", PARTS[8]),
    ("/gettext.py", PARTS[8]),
    ("/asgiref/", PARTS[7]),
    ("/asyncio/", PARTS[7]),
    ("/concurrent/", PARTS[7]),
    ("/json/", "json"),
)
Func = tuple[str, int, str]


def part_of_path(func: Func) -> str | None:
    """The part a function belongs to by its file, None: its callers' part."""
    filename, _line, name = func
    where = filename if filename != "~" else name  # builtins: "<method 'execute' of ...>"
    for needle, part in RULES:
        if needle in where:
            return part or None
    return None


def split(stats: pstats.Stats) -> dict[str, float]:
    """Each part's CPU seconds in `stats` (own time, the unowned resolved through callers)."""
    table: dict[Func, Any] = stats.stats  # type: ignore[attr-defined]
    memo: dict[Func, dict[str, float]] = {}

    def shares(func: Func, seen: frozenset[Func]) -> dict[str, float]:
        """How `func`'s own time divides among the parts (fractions summing to 1)."""
        if func in memo:
            return memo[func]
        part = part_of_path(func)
        if part is not None and part != "json":
            result = {part: 1.0}
        else:
            entry = table.get(func)
            callers = entry[4] if entry else {}
            total = sum(c[3] for c in callers.values()) or 0.0  # the callers' cumulative time
            result = defaultdict(float)
            if not callers or total <= 0 or func in seen:
                result[PARTS[-1]] = 1.0
            else:
                for caller, timing in callers.items():
                    weight = timing[3] / total
                    for name, share in shares(caller, seen | {func}).items():
                        result[name] += weight * share
            if part == "json":
                orm = sum(v for k, v in result.items() if k.startswith("ORM"))
                rows = "ORM: rows (models, fields)"
                result = defaultdict(float, {rows: orm, PARTS[5]: 1.0 - orm})
            result = dict(result)
        if not seen:
            memo[func] = result
        return result

    parts: dict[str, float] = defaultdict(float)
    for func, (_cc, _nc, own, _cum, _callers) in table.items():
        for name, share in shares(func, frozenset()).items():
            parts[name] += own * share
    return dict(parts)


# --- The app, driven in-process ------------------------------------------------------------------


def set_up_django(workdir: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "onenight.settings"
    os.environ["ONENIGHT_SQLITE_PATH"] = str(workdir / "profile.sqlite3")
    os.environ["ONENIGHT_TICKER"] = "0"
    for cap in ("GAMES", "JOINS", "JOIN_TABLES", "TABLE_JOINS"):
        os.environ[f"ONENIGHT_{cap}_PER_MINUTE"] = "1000000"
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


@dataclass
class Browser:
    """A seat's browser: its cookies (its session: its seat) and its open socket."""

    name: str
    seat_id: int
    cookie: str
    socket: Any = None
    key: str = ""  # the key its socket's hello gave the page, sent with its forms (as table.js)


@dataclass
class TableAt:
    family: str
    code: str
    table_id: int
    browsers: dict[str, Browser]
    host: str = "Ann"


@dataclass
class Events:
    """Per kind: the plain runs' CPU seconds, and the profiles of the others."""

    cpu: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    # One profiler per kind, switched on for each profiled event: it adds them up.
    profiles: dict[str, cProfile.Profile] = field(default_factory=dict)
    done: dict[str, int] = field(default_factory=lambda: defaultdict(int))


class Driver:
    def __init__(self, events: int) -> None:
        from games.tables.worker import WORKER
        from onenight.asgi import application

        self.app = application
        self.worker = WORKER
        self.wanted = events
        self.events = Events()

    def needs(self, kind: str) -> bool:
        return self.events.done[kind] < self.wanted

    async def in_worker(self, fn: Callable[[], Any]) -> Any:
        """Sync set-up work on the worker thread (its database connection), not profiled."""
        return await asyncio.get_running_loop().run_in_executor(self.worker, fn)

    async def measure(self, kind: str, event: Callable[[], Awaitable[None]]) -> None:
        """One event of `kind`: plain or profiled, alternately."""
        if not self.needs(kind):
            await event()
            return
        profiled = self.events.done[kind] % 2 == 1
        if profiled:
            # Since Python 3.12 one profiler sees every thread (sys.monitoring): the event
            # loop's and the worker's. Timed by the process's CPU clock, as the plain runs.
            profile = self.events.profiles.setdefault(kind, cProfile.Profile(time.process_time))
            profile.enable()
            await event()
            profile.disable()
        else:
            started = time.process_time()
            await event()
            self.events.cpu[kind].append(time.process_time() - started)
        self.events.done[kind] += 1

    # --- HTTP and sockets as a browser sends them -------------------------------------------

    def headers(self, browser: Browser, htmx: bool) -> list[tuple[bytes, bytes]]:
        cookie = f"sessionid={browser.cookie}; csrftoken={CSRF}"
        headers = [(b"host", HOST), (b"cookie", cookie.encode())]
        if htmx:
            headers.append((b"hx-request", b"true"))
        return headers

    async def get(self, browser: Browser, path: str, htmx: bool = False) -> dict[str, Any]:
        from channels.testing import HttpCommunicator

        comm = HttpCommunicator(self.app, "GET", path, headers=self.headers(browser, htmx))
        response = await comm.get_response(timeout=WAIT)
        assert response["status"] == 200, (path, response["status"], response["body"][:300])
        return response

    async def post(
        self, browser: Browser, path: str, fields: dict[str, str | list[str]]
    ) -> dict[str, Any]:
        from urllib.parse import urlencode

        from channels.testing import HttpCommunicator

        headers = [
            *self.headers(browser, True),
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"x-csrftoken", CSRF.encode()),
        ]
        if browser.key:  # as the page sends its forms while its socket is open
            headers.append((b"x-table-socket", browser.key.encode()))
        body = urlencode(fields, doseq=True).encode()
        comm = HttpCommunicator(self.app, "POST", path, body=body, headers=headers)
        response = await comm.get_response(timeout=WAIT)
        assert response["status"] == 200, (path, response["status"], response["body"][:300])
        return response

    async def open_sockets(self, table: TableAt) -> None:
        from channels.testing import WebsocketCommunicator

        for browser in table.browsers.values():
            headers = [
                (b"host", HOST),
                (b"origin", ORIGIN),
                (b"cookie", f"sessionid={browser.cookie}".encode()),
            ]
            path = f"/ws/table/{table.code}/?version=0&after=0"
            browser.socket = WebsocketCommunicator(self.app, path, headers=headers)
            connected, _ = await browser.socket.connect(timeout=WAIT)
            assert connected
            hello = await browser.socket.receive_json_from(timeout=WAIT)
            assert hello["type"] == "hello", hello
            browser.key = str(hello.get("socket", ""))

    async def close_sockets(self, table: TableAt) -> None:
        for browser in table.browsers.values():
            await browser.socket.disconnect(timeout=WAIT)

    @staticmethod
    async def until(table: TableAt, wanted: Callable[[str, dict[str, Any]], bool]) -> None:
        """Every socket of the table reads frames until one it is waiting for."""

        async def one(browser: Browser) -> None:
            while not wanted(browser.name, await browser.socket.receive_json_from(timeout=WAIT)):
                pass

        await asyncio.gather(*(one(b) for b in table.browsers.values()))

    # --- Tables -------------------------------------------------------------------------------

    async def new_table(self, family: str) -> TableAt:
        def create() -> TableAt:
            from importlib import import_module

            from django.conf import settings

            from games.families.onenight.options import RULES_PHRASE
            from games.tables import services
            from games.tables.models import Seat, Table

            ruleset = "house" if family == "onenight" else "forum"
            host = services.table_create(family=family, ruleset=ruleset, host_name=PLAYERS[0])
            for name in PLAYERS[1:]:
                if family == "onenight":
                    services.seat_join(table=host.table, name=name, phrase=RULES_PHRASE)
                else:
                    services.seat_join(table=host.table, name=name)
            if family == "onenight":
                table = Table.objects.get(pk=host.table_id)
                options = {**table.options, "deck": list(ONENIGHT_DECK)}
                Table.objects.filter(pk=table.pk).update(options=options)
            services.table_start(host=Seat.objects.select_related("table").get(pk=host.pk))
            table = Table.objects.get(pk=host.table_id)
            store_class = import_module(settings.SESSION_ENGINE).SessionStore
            browsers = {}
            for seat in table.seats.order_by("position"):
                store = store_class()
                store["seats"] = {table.code: seat.token}
                store.save()
                browsers[seat.name] = Browser(seat.name, seat.pk, str(store.session_key))
            return TableAt(family, table.code, table.pk, browsers)

        table = await self.in_worker(create)
        await self.open_sockets(table)
        return table

    async def table_state(self, table: TableAt) -> tuple[int, dict[str, Any]]:
        def read() -> tuple[int, dict[str, Any]]:
            from games.tables.models import Table

            row = Table.objects.values("version", "state").get(pk=table.table_id)
            return row["version"], row["state"]

        return await self.in_worker(read)

    # --- Events -------------------------------------------------------------------------------

    async def chat(self, table: TableAt, speaker: str, text: str) -> None:
        async def event() -> None:
            await self.post(table.browsers[speaker], f"/g/{table.code}/chat", {"text": text})
            await self.until(table, lambda _n, f: f.get("type") == "chat" and f["text"] == text)

        await self.measure("chat line (POST, 8 sockets)", event)

    async def chat_over_socket(self, table: TableAt, speaker: str, text: str) -> None:
        async def event() -> None:
            socket = table.browsers[speaker].socket
            await socket.send_json_to({"type": "chat", "channel": "public", "text": text, "ref": 1})
            answered: set[str] = set()

            def arrived(name: str, frame: dict[str, Any]) -> bool:
                assert frame.get("type") != "chat-refused", frame
                if frame.get("type") == "chat-sent":
                    answered.add(name)
                elif frame.get("type") == "chat" and frame["text"] == text:
                    answered.add(name + " line")
                return name + " line" in answered and (name != speaker or name in answered)

            await self.until(table, arrived)

        await self.measure("chat line (socket, 8 sockets)", event)

    async def move(
        self,
        kind: str,
        table: TableAt,
        name: str,
        path: str,
        fields: dict[str, str | list[str]],
        *,
        everyone_redraws: bool = False,
    ) -> None:
        """A POST and the push it causes: every socket reads the new version (a panel, or the
        status), or with `everyone_redraws` a panel."""
        version, _state = await self.table_state(table)

        def arrived(_name: str, frame: dict[str, Any]) -> bool:
            if frame.get("type") not in ("panel", "status") or frame["version"] <= version:
                return False
            return frame["type"] == "panel" or not everyone_redraws

        async def event() -> None:
            mover = table.browsers[name]
            await self.post(mover, f"/g/{table.code}/{path}", fields)
            if not mover.key:
                await self.until(table, arrived)
                return
            # The mover's page has its panel in the POST's answer; its socket draws it again
            # only when the answer could not stand for it (its chat channels changed, say).
            others = {k: b for k, b in table.browsers.items() if k != name}
            await self.until(replace(table, browsers=others), arrived)
            await self.behind_the_push(mover)

        await self.measure(kind, event)

    @staticmethod
    async def behind_the_push(browser: Browser) -> None:
        """Until the mover's socket has handled the push (a panel, or nothing): a frame it
        answers at once and without a query (a type it does not know) comes back behind
        whatever the push made it send (a consumer handles its messages one at a time)."""
        await browser.socket.send_json_to({"type": "behind"})
        while (await browser.socket.receive_json_from(timeout=WAIT)).get("type") != "error":
            pass

    async def page_loads(self, table: TableAt, family: str) -> None:
        for name in ("Ben", "Gus"):
            browser = table.browsers[name]

            async def page(b: Browser = browser) -> None:
                await self.get(b, f"/g/{table.code}/")

            async def panel(b: Browser = browser) -> None:
                await self.get(b, f"/g/{table.code}/panel", htmx=True)

            await self.measure(f"{family} page load (GET)", page)
            await self.measure(f"{family} panel fragment (htmx GET)", panel)

    async def day_chat(self, table: TableAt) -> None:
        for i, name in enumerate(PLAYERS):
            if self.needs("chat line (POST, 8 sockets)"):
                await self.chat(table, name, f"msg {table.code}-{i} {LINES[i % len(LINES)]}")
            if table.family == "onenight" and self.needs("chat line (socket, 8 sockets)"):
                text = f"msg {table.code}-{i}s {LINES[i % len(LINES)]}"
                await self.chat_over_socket(table, name, text)

    # --- One Night: seven actions, the eighth ends the night; the day; "end the day" ---------

    async def onenight_table(self) -> None:
        from games.families.onenight.play import OneNightState

        table = await self.new_table("onenight")
        _version, state = await self.table_state(table)
        cards = OneNightState(state).deal.cards
        ids = {n: str(b.seat_id) for n, b in table.browsers.items()}
        for i, name in enumerate(PLAYERS):
            role = str(getattr(cards[name], "value", cards[name]))
            other = ids[PLAYERS[(i + 1) % len(PLAYERS)]]
            third = ids[PLAYERS[(i + 2) % len(PLAYERS)]]
            fields: dict[str, str | list[str]] = {"no_action": "1"}
            if role in ("seer", "robber"):
                fields = {"targets": other}
            elif role == "troublemaker":
                fields = {"targets": [other, third]}
            elif role == "drunk":
                fields = {"targets": "left"}
            last = i == len(PLAYERS) - 1
            kind = ONENIGHT_PHASE if last else "onenight night action (POST, push)"
            await self.move(kind, table, name, "do/action", fields, everyone_redraws=last)
        await self.day_chat(table)
        await self.page_loads(table, "onenight")
        await self.move(
            ONENIGHT_PHASE,
            table,
            table.host,
            "do/end_day",
            {},
            everyone_redraws=True,
        )
        await self.close_sockets(table)

    # --- Werewolf (rules/001 at the forum pace): the night's choices, "Move on now", votes ---

    async def werewolf_table(self) -> None:
        from games.families.werewolf.engine.forms import forms_for
        from games.families.werewolf.stored import game_of

        table = await self.new_table("werewolf")
        for _round in range(2):
            _version, state = await self.table_state(table)
            game = game_of(state)
            if game.state.outcome is not None:
                break
            ids = state["seats"]
            alive = [p for p in PLAYERS if p in game.state.alive]
            roles = game.setup.roles
            victim = next(p for p in alive if roles[p].side != "werewolves")
            for name in alive:
                night = [f for f in forms_for(game.state, name) if f.kind == "night"]
                if not night:
                    continue
                fields: dict[str, str] = {}
                for form in night:
                    if form.key == "save" or not form.targets:
                        continue
                    village = roles[name].side == "village"
                    if form.group_key or (victim in form.targets and village):
                        target = victim if victim in form.targets else form.targets[0]
                    else:
                        target = next((t for t in form.targets if t not in (name, "nobody")), None)
                    if target is not None:
                        fields[form.key] = str(ids[target])
                await self.move(
                    "werewolf night choice (POST, push)", table, name, "do/night", fields
                )
            await self.move(
                "werewolf phase change (POST, 8 panels)",
                table,
                table.host,
                "do/advance",
                {},
                everyone_redraws=True,
            )
            if _round == 0:
                await self.day_chat(table)
                await self.page_loads(table, "werewolf")
            _version, state = await self.table_state(table)
            game = game_of(state)
            if game.state.outcome is not None:
                break
            alive = [p for p in PLAYERS if p in game.state.alive]
            voters = [p for p in alive if any(f.kind == "vote" for f in forms_for(game.state, p))]
            for voter in voters[:-1]:  # the last one left out: the day does not end by votes
                target = next(p for p in alive if p != voter)
                fields = {"target": str(ids[target])}
                await self.move("werewolf day vote (POST, push)", table, voter, "do/vote", fields)
            await self.move(
                "werewolf phase change (POST, 8 panels)",
                table,
                table.host,
                "do/advance",
                {},
                everyone_redraws=True,
            )
        await self.close_sockets(table)


# --- The run --------------------------------------------------------------------------------------


async def run(driver: Driver) -> None:
    onenight_kinds = (
        "chat line (POST, 8 sockets)",
        "chat line (socket, 8 sockets)",
        "onenight night action (POST, push)",
        "onenight phase change (POST, 8 panels)",
        "onenight page load (GET)",
        "onenight panel fragment (htmx GET)",
    )
    werewolf_kinds = (
        "werewolf night choice (POST, push)",
        "werewolf day vote (POST, push)",
        "werewolf phase change (POST, 8 panels)",
        "werewolf page load (GET)",
        "werewolf panel fragment (htmx GET)",
    )
    await driver.onenight_table()  # warm-up: imports, templates compiled, the first connection
    await driver.werewolf_table()
    driver.events = Events()
    while any(driver.needs(k) for k in onenight_kinds):
        await driver.onenight_table()
    while any(driver.needs(k) for k in werewolf_kinds):
        await driver.werewolf_table()


def merged(events: Events, kind: str) -> pstats.Stats:
    return pstats.Stats(events.profiles[kind])


def top_functions(events: Events, count: int) -> str:
    """Each kind's `count` functions of most own time, with the part their module is in."""
    out = []
    for kind in sorted(events.cpu, key=order):
        stats = merged(events, kind)
        table: dict[Func, Any] = stats.stats  # type: ignore[attr-defined]
        total = sum(entry[2] for entry in table.values()) or 1.0
        out.append(f"\n{kind}:")
        for func, entry in sorted(table.items(), key=lambda kv: -kv[1][2])[:count]:
            where = f"{Path(func[0]).name}:{func[1]}({func[2]})" if func[0] != "~" else func[2]
            part = part_of_path(func) or "(callers')"
            out.append(f"  {entry[2] / total * 100:5.1f} %  {where[:90]}  [{part}]")
    return "\n".join(out)


ORM_PARTS = ("ORM: SQL built", "ORM: executed", "ORM: rows (models, fields)")


def report(events: Events) -> str:
    """Two Markdown tables: each kind's CPU per event and its split by part; the ORM's part
    split again (building the SQL, running it, making and saving model instances)."""
    short = dict(
        zip(
            PARTS,
            (
                "request",
                "ORM",
                "table core",
                "family",
                "templates",
                "JSON",
                "channels",
                "loop, asgiref",
                "gettext",
                "other",
            ),
            strict=True,
        )
    )
    head = ["event", "n", "CPU ms", "server ms", *short.values()]
    main = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    orm_head = ["event", "ORM ms", "SQL built", "executed", "rows (models, fields)"]
    orm = ["| " + " | ".join(orm_head) + " |", "|" + "---|" * len(orm_head)]
    for kind in sorted(events.cpu, key=order):
        parts = split(merged(events, kind))
        parts[PARTS[1]] = sum(parts.pop(p, 0.0) for p in ORM_PARTS)
        total = sum(parts.values())
        harness = parts.get(HARNESS, 0.0)
        server = total - harness
        cpu = statistics.mean(events.cpu[kind]) * 1000
        server_ms = cpu * server / total if total else cpu
        cells = [kind, str(events.done[kind]), f"{cpu:.2f}", f"{server_ms:.2f}"]
        cells += [f"{parts.get(part, 0.0) / server * 100:.0f} %" for part in short]
        main.append("| " + " | ".join(cells) + " |")
    for kind in sorted(events.cpu, key=order):
        parts = split(merged(events, kind))
        total = sum(parts.values())
        cpu = statistics.mean(events.cpu[kind]) * 1000
        in_ms = {p: cpu * parts.get(p, 0.0) / total for p in ORM_PARTS}
        cells = [kind, f"{sum(in_ms.values()):.2f}", *(f"{in_ms[p]:.2f}" for p in ORM_PARTS)]
        orm.append("| " + " | ".join(cells) + " |")
    return "\n".join(main) + "\n\nThe ORM's part, in ms per event:\n\n" + "\n".join(orm)


def order(kind: str) -> tuple[int, str]:
    for i, word in enumerate(("chat", "action", "choice", "vote", "phase", "page", "panel")):
        if word in kind:
            return i, kind
    return 99, kind


def machine() -> str:
    cpu = ""
    try:
        found = re.search(r"model name\s*:\s*(.*)", Path("/proc/cpuinfo").read_text())
        cpu = found.group(1).strip() if found else ""
    except OSError:
        pass
    return (
        f"{cpu or platform.processor()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=200, help="events of each kind (even)")
    parser.add_argument("--top", type=int, default=0, help="also list each kind's top functions")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="profile-events-") as workdir:
        set_up_django(Path(workdir))
        driver = Driver(max(2, args.events))
        started = time.perf_counter()
        asyncio.run(run(driver))
        took = time.perf_counter() - started
        from django.db import connections

        driver.worker.submit(connections.close_all).result()
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{machine()}; {when}; {took:.0f} s in all\n")
    print(report(driver.events))
    if args.top:
        print(top_functions(driver.events, args.top))


if __name__ == "__main__":
    main()
