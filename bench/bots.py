"""Bots that play One Night through the real pages, as a browser running table.js does.

Each bot has its own cookie jar (its session, so its seat), HTTP client and websocket. Every
form is an htmx POST (HX-Request, X-CSRFToken from the csrftoken cookie) answered with the
seat's panel; the socket `ws/table/<code>/?version=V&after=0` only pushes: "hello", "panel"
frames (version and html: the seat's new panel) and chat lines. In order:

- the host GETs / and posts /games/new; the others GET /g/<code>/join and post it (with the
  rules phrase read in the rules page); everyone GETs the table page and opens the socket;
- the host starts (saving the suggested deck first if the lobby says the deck is wrong); each
  bot waits for its night panel, posts a random legal action read from it (/do/copy then
  /do/action for the Doppelganger), chats during the day on an open-loop schedule (over its
  socket, as table.js does while the socket is open: a "chat" frame answered "chat-sent"; or,
  with --chat-via post, the chat form's POST /g/<code>/chat), posts /do/ready, then a vote for
  a random other seat; the reveal ends it.

Chat lines say "msg <id> ..." and then an everyday sentence (seven words or more, so that the
server's quoting check reads it); every page of the table records when each line arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import html as htmllib
import itertools
import json
import random
import re
import ssl
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from bench.stats import summarize

PHASES = ("lobby", "night", "day", "voting", "reveal")
CHAT_LINES = (
    "I was the seer last night and I looked at the centre cards.",
    "Who wants to go first? Say what you were.",
    "I think the werewolf is on my left, honestly.",
    "That story does not add up at all, sorry.",
    "ok",
    "I did nothing in the night, I was a plain villager.",
)
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
PANEL = re.compile(r'<section id="panel" data-version="(\d+)"[^>]*? data-phase-label="([^"]*)"')
RADIO = re.compile(r'<input type="radio" name="(targets?)" value="([^"]+)"')
OPTION = re.compile(r'<option value="([^"]+)">')
NIGHT_CARD = re.compile(r'id="night-action".*?</div>', re.S)
PHRASE = re.compile(r"type this phrase when you join a game: “([^”]*)”")
RULES_LINK = re.compile(r'href="(/one-night/[a-z]+/rules)"')
# One TLS context for every client: httpx builds one per client otherwise (~35 ms each).
SSL = ssl.create_default_context()


class BotAborted(Exception):
    """The bot cannot go on (already recorded as an error)."""


@dataclass
class Line:
    t: float
    sender: int
    pages: tuple[int, ...]
    status: str = "pending"  # "ok" once the server took it, or "refused"
    got: Counter[int] = field(default_factory=Counter)


class Step:
    """What the pages of one step (one K) share: the settings (bench/load.py's arguments),
    random numbers, the clock, the latencies (ms) and errors by kind, and every chat line sent
    with the pages that must show it and when each did."""

    def __init__(self, cfg: Any, label: str, games: int) -> None:
        self.cfg, self.label, self.games = cfg, label, games  # label: unique, in every chat id
        self.rng = random.Random(f"{cfg.seed}-{label}")
        self.loop = asyncio.get_running_loop()
        self.ms: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.samples: list[str] = []
        self.frames: Counter[str] = Counter()  # websocket frames received, by type
        self.lines: dict[str, Line] = {}
        self.fanout: list[float] = []  # a line's send to its arrival on every other page
        self.unknown = self.wrong_mine = 0

    def now(self) -> float:
        return self.loop.time()

    def table_start(self, t0: float, index: int) -> float:
        """When table `index` is created, started, or its floor room chats: over the ramp."""
        return t0 + index * self.cfg.ramp / self.games

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        if len(self.samples) < 30:
            self.samples.append(f"{kind}: {detail}"[:300])

    def open_loop(self, start: float, send: Callable[[int], Any]) -> list[asyncio.Task[Any]]:
        """Call `send(i)` every --chat-every seconds through the day from a random offset, at
        absolute times (never waiting for the server); the tasks fill the returned list."""
        tasks: list[asyncio.Task[Any]] = []
        every = self.cfg.chat_every
        t = start + self.rng.uniform(0, every)
        for i in range(int((start + self.cfg.day_seconds - t) // every) + 1):
            self.loop.call_at(t + i * every, lambda i=i: tasks.append(asyncio.create_task(send(i))))
        return tasks

    def delivered(self, uid: str, page: int, mine: object = None) -> None:
        line = self.lines.get(uid)
        if line is None:
            self.unknown += 1
            return
        line.got[page] += 1
        if line.got[page] == 1 and page != line.sender:
            self.fanout.append((self.now() - line.t) * 1000)
        if mine is not None and bool(mine) != (page == line.sender):
            self.wrong_mine += 1

    def missing(self) -> int:
        """Deliveries still due (of the lines the server took)."""
        ok = (line for line in self.lines.values() if line.status == "ok")
        return sum(1 for line in ok for page in line.pages if not line.got[page])

    def report(self) -> dict[str, Any]:
        lines = self.lines.values()
        return {
            "latency_ms": {kind: summarize(values) for kind, values in sorted(self.ms.items())},
            "errors": {
                "count": self.errors.total(),
                "by_kind": dict(self.errors),
                "samples": self.samples,
            },
            "chat": {
                "sent": len(lines),
                "refused_or_failed": sum(1 for x in lines if x.status == "refused"),
                "lost": self.missing(),
                "duplicates": sum(n - 1 for x in lines for n in x.got.values() if n > 1),
                "unknown": self.unknown,
                "wrong_mine_flag": self.wrong_mine,
                "fanout_ms": summarize(self.fanout),
            },
        }


def new_client(url: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=url,
        verify=SSL,
        trust_env=False,
        timeout=60,
        limits=httpx.Limits(max_connections=4, max_keepalive_connections=2),
        headers={"User-Agent": "onenight-bench/2 (bench/load.py)"},
    )


async def open_socket(url: str, origin: str, cookie: str = "") -> ClientConnection:
    headers = {"Origin": origin, **({"Cookie": cookie} if cookie else {})}
    return await websockets.connect(
        url.replace("http://", "ws://", 1),
        additional_headers=headers,
        compression=None,
        ping_interval=None,
        proxy=None,
        open_timeout=60,
        max_size=2**22,
    )


def htmx_headers(http: httpx.AsyncClient, origin: str) -> dict[str, str]:
    """A form POST's headers as htmx sends them (templates/base.html, static/js/table.js)."""
    return {
        "Origin": origin,
        "HX-Request": "true",
        "X-CSRFToken": http.cookies.get("csrftoken") or "",
    }


async def open_table_socket(
    step: Step, http: httpx.AsyncClient, url: str, code: str, version: int
) -> ClientConnection:
    """A table page's socket as static/js/table.js opens it, with the page's cookies; a
    failure is recorded and aborts the bot."""
    cookies = "; ".join(f"{c.name}={c.value}" for c in http.cookies.jar)
    try:
        return await open_socket(f"{url}/ws/table/{code}/?version={version}&after=0", url, cookies)
    except Exception as error:
        step.error(f"socket connect: {type(error).__name__}", repr(error))
        raise BotAborted("connect") from error


async def timed(step: Step, kind: str, call: Any) -> httpx.Response | None:
    """Await an HTTP call, its latency recorded as `kind`; a failure is an error."""
    started = step.now()
    try:
        response = await call
    except httpx.HTTPError as error:
        step.error(f"{kind}: {type(error).__name__}", repr(error))
        return None
    step.ms[kind].append((step.now() - started) * 1000)
    return response


class Game:
    """One table: its bots, its code once created, when it started and each page saw the end."""

    def __init__(self, index: int, ruleset: str) -> None:
        self.index, self.ruleset = index, ruleset
        self.bots: list[Bot] = []
        self.code = ""
        self.created = asyncio.Event()
        self.start_at = 0.0
        self.started: float | None = None
        self.done: list[float] = []
        self.last_move: dict[str, float] = {}  # phase -> when its last move was sent

    @property
    def completed(self) -> bool:
        return len(self.done) == len(self.bots)


class Bot:
    """One player: a browser page with its own session, connection and socket."""

    def __init__(self, step: Step, bid: int, game: Game, seat: int, url: str) -> None:
        self.step, self.bid, self.game, self.seat, self.url = step, bid, game, seat, url
        self.name = NAMES[seat]
        self.http = new_client(url)
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.hello = asyncio.Event()
        self.version, self.panel, self.phase = 0, "", ""
        self.seen: dict[str, float] = {}  # phase -> when this page first showed it
        self.events = {p: asyncio.Event() for p in PHASES}
        self.chats: list[asyncio.Task[Any]] = []
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}  # chat ref -> its answer
        self.closing = False

    @property
    def host(self) -> bool:
        return self.seat == 0

    async def request(
        self,
        kind: str,
        method: str,
        path: str,
        data: dict[str, Any] | None = None,
        expect: int = 200,
    ) -> httpx.Response:
        headers = htmx_headers(self.http, self.url) if method == "POST" else {}
        call = self.http.request(method, path, data=data, headers=headers)
        response = await timed(self.step, kind, call)
        if response is None:
            raise BotAborted(kind)
        if response.status_code != expect:
            self.step.error(f"{kind}: HTTP {response.status_code}", f"{path} {data}")
            raise BotAborted(kind)
        return response

    def show(self, html: str, version: int, t: float, answer: bool = False) -> None:
        """A panel reached the page (pushed, or a form's answer): keep it if it is newer, or,
        for a form's answer, as new (as table.js does: a move only its sender may see, such as
        the Doppelganger's copy, answers with its new form at the same version)."""
        if version < self.version or (version == self.version and not answer):
            return
        match = PANEL.search(html)
        phase = match.group(2).lower() if match else ""
        if phase not in PHASES:
            self.step.error("panel: unknown phase", f"{self.game.code} {phase!r}")
            return
        self.version, self.panel, self.phase = version, html, phase
        for p in PHASES[: PHASES.index(phase) + 1]:
            self.seen.setdefault(p, t)
            self.events[p].set()

    # --- Lobby ---------------------------------------------------------------------------------

    async def lobby(self, gate: asyncio.Semaphore) -> None:
        """Create or join the table, then load its page."""
        game = self.game
        if self.host:
            try:
                await asyncio.sleep(max(0.0, game.start_at - self.step.now()))
                async with gate:
                    await self.request("home", "GET", "/")
                    form = {"host_name": self.name, "game": f"onenight:{game.ruleset}"}
                    answer = await self.request("create", "POST", "/games/new", form, expect=302)
                    game.code = answer.headers["location"].strip("/").split("/")[1]
            finally:
                game.created.set()
        else:
            await game.created.wait()
            if not game.code:
                raise BotAborted("no table")
            await asyncio.sleep(self.step.rng.uniform(0, 1))
            async with gate:
                page = await self.request("join page", "GET", f"/g/{game.code}/join")
                phrase = ""
                rules = RULES_LINK.search(page.text)
                if 'name="phrase"' in page.text and rules:
                    # The page asks for the phrase; a player reads it in the rules (s5e).
                    text = (await self.request("rules page", "GET", rules[1])).text
                    found = PHRASE.search(htmllib.unescape(text))
                    phrase = found[1] if found else ""
                form = {"name": self.name, "phrase": phrase}
                await self.request("join", "POST", f"/g/{game.code}/join", form, expect=302)
        async with gate:
            page = await self.request("table page", "GET", f"/g/{game.code}/")
        self.show(page.text, int(page.headers["X-Table-Version"]), self.step.now())

    # --- The socket ----------------------------------------------------------------------------

    async def connect(self) -> None:
        code = self.game.code
        self.ws = await open_table_socket(self.step, self.http, self.url, code, self.version)
        self.reader = asyncio.create_task(self._read())
        try:
            await asyncio.wait_for(self.hello.wait(), self.step.cfg.phase_timeout)
        except TimeoutError:
            self.step.error("socket: no hello", code)
            raise BotAborted("hello") from None

    async def _read(self) -> None:
        assert self.ws is not None
        step = self.step
        try:
            async for raw in self.ws:
                t = step.now()
                frame = json.loads(raw)
                kind = frame.get("type")
                step.frames[str(kind)] += 1
                if kind == "chat" and frame.get("text", "").startswith("msg "):
                    uid = frame["text"][4:].split(" ", 1)[0]
                    step.delivered(uid, self.bid, frame.get("mine"))
                elif kind in ("hello", "panel"):
                    if frame.get("panel"):
                        self.show(frame["panel"], int(frame["version"]), t)
                    self.hello.set()
                elif kind in ("chat-sent", "chat-refused"):
                    answer = self.answers.pop(str(frame.get("ref")), None)
                    if answer is not None and not answer.done():
                        answer.set_result(frame)
                elif kind == "error":
                    step.error("socket: error frame", str(frame.get("message")))
        except websockets.ConnectionClosed as closed:
            if not self.closing:
                step.error("socket closed", repr(closed))
        except Exception as error:  # a broken frame must not go unnoticed
            step.error(f"socket reader: {type(error).__name__}", repr(error))

    async def close(self) -> None:
        self.closing = True
        for task in self.chats:
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
        await self.http.aclose()

    # --- The game ------------------------------------------------------------------------------

    async def post(self, kind: str, path: str, data: dict[str, str], phase: str = "") -> None:
        """A form of the table, answered with the seat's panel. A move (`phase` is the phase it
        is made in) is remembered: the last one sent is when the phase's change began."""
        sent = self.step.now()
        answer = await self.request(kind, "POST", f"/g/{self.game.code}/{path}", data)
        if phase:
            self.game.last_move[phase] = max(self.game.last_move.get(phase, 0.0), sent)
        self.show(answer.text, int(answer.headers["X-Table-Version"]), self.step.now(), True)

    async def wait(self, phase: str) -> None:
        try:
            await asyncio.wait_for(self.events[phase].wait(), self.step.cfg.phase_timeout)
        except TimeoutError:
            self.step.error(f"no {phase} panel", self.game.code)
            raise BotAborted(phase) from None

    async def play(self) -> None:
        """From the lobby, socket open, to the reveal."""
        step, game = self.step, self.game
        if self.host:
            await asyncio.sleep(max(0.0, game.start_at - step.now()))
            if "disabled>Deal" in self.panel:  # the deck does not fit: take the suggested one
                await self.post("options", "options", {"suggested": "1"})
            game.started = step.now()
            await self.post("start", "start", {}, phase="lobby")
        await self.wait("night")
        await asyncio.sleep(step.rng.uniform(*step.cfg.think))
        await self.night()
        await self.wait("day")
        self.chats = step.open_loop(step.now(), self.chat)
        await asyncio.sleep(step.cfg.day_seconds)
        await asyncio.gather(*self.chats, return_exceptions=True)  # every line in before "ready"
        await self.post("ready", "do/ready", {"ready": "yes"}, phase="day")
        await self.wait("voting")
        await asyncio.sleep(step.rng.uniform(*step.cfg.think))
        targets = [value for name, value in RADIO.findall(self.panel) if name == "target"]
        if not targets:
            step.error("voting panel: no vote form", game.code)
            raise BotAborted("vote")
        await self.post("vote", "do/vote", {"target": step.rng.choice(targets)}, phase="voting")
        await self.wait("reveal")
        if 'id="reveal"' not in self.panel:
            step.error("reveal panel: no reveal", game.code)
        game.done.append(self.seen["reveal"])

    async def night(self) -> None:
        """A random legal action from the panel's form; the Doppelganger's copy brings the
        copied role's form back in the panel, sent the same way."""
        rng = self.step.rng
        for _ in range(3):
            html = self.panel
            if self.phase != "night" or "Your action is in" in html:
                return  # sent, or it was the night's last action: the day has come
            # Only the night-action card's fields: the host's tools hold selects of players too.
            card = NIGHT_CARD.search(html)
            form = card[0] if card else ""
            targets = [value for name, value in RADIO.findall(form) if name == "targets"]
            options = sorted(set(OPTION.findall(form)))
            kind, data = "action", {"no_action": "1"}
            if "/do/copy" in form:
                kind, data = "copy", {"targets": rng.choice(targets)}
            elif targets and ('name="no_action"' not in form or rng.random() > 0.1):
                data = {"targets": rng.choice(targets)}
            elif len(options) >= 2:  # two players whose cards are swapped
                data = {"targets": rng.sample(options, 2)}  # type: ignore[dict-item]
            await self.post(kind, f"do/{kind}", data, phase="night")
        self.step.error("night panel: the action form is still there", self.game.code)

    async def chat(self, i: int) -> None:
        step, game = self.step, self.game
        uid = f"{step.label}.{self.bid}.{i}"
        line = step.lines[uid] = Line(step.now(), self.bid, tuple(b.bid for b in game.bots))
        text = f"msg {uid} {CHAT_LINES[i % len(CHAT_LINES)]}"
        if step.cfg.chat_via == "socket":
            line.status = await self.chat_over_socket(uid, text)
            return
        try:
            await self.request(
                "chat", "POST", f"/g/{game.code}/chat", {"channel": "public", "text": text}
            )
            line.status = "ok"
        except BotAborted:
            line.status = "refused"

    async def chat_over_socket(self, uid: str, text: str) -> str:
        """The chat form as table.js sends it while the socket is open; the answer's latency
        is recorded as "chat", as the POST's is."""
        step = self.step
        if self.ws is None:
            step.error("chat: no socket", uid)
            return "refused"
        answer = self.answers[uid] = step.loop.create_future()
        started = step.now()
        try:
            await self.ws.send(
                json.dumps({"type": "chat", "channel": "public", "text": text, "ref": uid})
            )
            frame = await asyncio.wait_for(answer, step.cfg.phase_timeout)
        except (TimeoutError, websockets.ConnectionClosed) as error:
            self.answers.pop(uid, None)
            step.error(f"chat: {type(error).__name__}", uid)
            return "refused"
        step.ms["chat"].append((step.now() - started) * 1000)
        if frame["type"] != "chat-sent":
            step.error("chat: refused", str(frame.get("message")))
            return "refused"
        return "ok"

    def record_pushes(self) -> None:
        """From the last move of each phase to this page's panel of the next."""
        for before, phase in itertools.pairwise(PHASES):
            moved, shown = self.game.last_move.get(before), self.seen.get(phase)
            if moved is not None and shown is not None:
                for kind in (f"{phase} push", "phase push"):
                    self.step.ms[kind].append(max(0.0, shown - moved) * 1000)


class Echo:
    """One page of the floor: a socket in its table's room on the floor's relay consumer and
    the bot's HTTP client, chatting on the bots' schedule: each line a frame relayed to the
    room, and at the same moment a GET /bench/ping (the least a chat POST could cost)."""

    def __init__(self, floor: Step, bot: Bot, room: str) -> None:
        self.floor, self.bot, self.room = floor, bot, room
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        url = self.bot.url
        try:
            self.ws = await open_socket(f"{url}/ws/bench/{self.room}/", url)
        except Exception as error:
            self.floor.error(f"echo connect: {type(error).__name__}", repr(error))
            return
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                self.floor.delivered(json.loads(raw)["id"], self.bot.bid)

    async def send(self, i: int) -> None:
        floor, bot = self.floor, self.bot
        uid = f"{floor.label}.{bot.bid}.{i}"
        floor.lines[uid] = Line(floor.now(), bot.bid, tuple(b.bid for b in bot.game.bots), "ok")
        ping = asyncio.create_task(timed(floor, "ping", self.bot.http.get("/bench/ping")))
        if self.ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.ws.send(json.dumps({"id": uid}))
        answer = await ping
        if answer is not None and answer.status_code != 200:
            floor.error(f"ping: HTTP {answer.status_code}")

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()


async def run_all(coros: Sequence[Any], timeout: float, step: Step, what: str) -> list[bool]:
    """Run the bots' coroutines together: which succeeded. Errors are recorded, never raised."""
    tasks = [asyncio.create_task(c) for c in coros]
    _, pending = await asyncio.wait(tasks, timeout=timeout) if tasks else (set(), set())
    for task in pending:
        task.cancel()
    if pending:
        step.error(f"{what}: still busy after {timeout:.0f} s", f"{len(pending)} bots")
        await asyncio.gather(*pending, return_exceptions=True)
    ok = []
    for task in tasks:
        error = None if task.cancelled() else task.exception()
        if error is not None and not isinstance(error, BotAborted):
            step.error(f"{what}: {type(error).__name__}", repr(error))
        ok.append(not task.cancelled() and error is None)
    return ok
