"""Bots that play One Night through the real pages, forms and websocket, as a browser does.

Every bot has its own cookie jar (so its own session and seat), its own HTTP connection and
its own websocket. What a bot does, in order:

- host: GET / (home), POST /games/new (create), GET the lobby; the others GET /g/<code>/join
  (join page), POST the join form (join POST, with the rules phrase when asked), GET the lobby;
- every bot opens its websocket, saying the page shows the lobby, and waits for the "hello"
  (which carries the status box, as game.js expects);
- the host POSTs "start" (the suggested deck, untouched); every bot waits for the push of each
  phase, which carries its new panel (what game.js swaps in instead of reloading the page), and
  acts on the forms in it: a random legal night action, chat on an open-loop schedule during the
  day then "ready", a vote for a random other player from the radio list; the reveal is the
  last panel pushed. Form POSTs go as htmx sends them and get the panel back.

Chat lines carry a unique id ("msg <id>", then one of a few everyday table lines, most of them
long enough for the server's quoting check to read); every socket of the game, the sender's
included, records when it receives each line (`ChatTracker`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import ssl
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from bench import htmlforms
from bench.stats import summarize

PHASES = ("lobby", "night", "day", "voting", "reveal")
# What bots say in the day, after their line's id: lines of the length people type, so that the
# server checks them against the sender's private messages (7 words or more) as it would.
CHAT_LINES = (
    "I was the seer last night and I looked at the centre cards.",
    "Who wants to go first? Say what you were.",
    "I think the werewolf is on my left, honestly.",
    "That story does not add up at all, sorry.",
    "ok",
    "I did nothing in the night, I was a plain villager.",
)
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")
USER_AGENT = "onenight-bench/1 (bench/load.py)"
# One TLS context for every client: httpx builds one per client otherwise (~35 ms each).
_SSL = ssl.create_default_context()


class BotAborted(Exception):
    """The bot cannot go on with its game (already recorded as an error)."""


@dataclass
class Config:
    players: int = 8
    chat_every: float = 5.0
    day_seconds: float = 20.0
    ramp: float = 10.0
    think: tuple[float, float] = (0.5, 2.0)
    phase_timeout: float = 60.0
    http_timeout: float = 60.0
    ruleset: str = "mixed"  # house, official or mixed (alternating per game)
    seed: int = 1
    max_server_errors: int = 100  # HTTP 5xx answers that end a step (0: no limit)
    # How the game forms go: over the page's websocket, as game.js sends them while the
    # socket is live ("socket"), or as htmx POSTs, as without a live socket ("http").
    forms: str = "socket"

    def table_start(self, t0: float, index: int, games: int) -> float:
        """When table `index` of `games` begins (its creation, its start, or the floor's replay
        of them): the tables are spread evenly over `ramp` seconds from `t0`."""
        return t0 + index * self.ramp / games

    @property
    def day_minutes(self) -> int:
        # Longer than the bots' chat, so the game's own deadline never ends the day early.
        return int(self.day_seconds // 60) + 2


class Recorder:
    """Latencies (ms) per request kind, and errors by kind with a few samples."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.samples: list[str] = []
        self.server_errors = 0  # HTTP 5xx answers
        self.too_many = asyncio.Event()  # set past `max_server_errors`
        self.max_server_errors = 0  # 0: no limit

    def latency(self, kind: str, ms: float) -> None:
        self.latencies[kind].append(ms)

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        if len(self.samples) < 40:
            self.samples.append(f"{kind}: {detail}"[:300])

    def server_error(self) -> None:
        self.server_errors += 1
        if self.max_server_errors and self.server_errors > self.max_server_errors:
            self.too_many.set()

    def summary(self) -> dict[str, dict[str, float | int | None]]:
        return {kind: summarize(values) for kind, values in sorted(self.latencies.items())}

    def error_report(self) -> dict[str, Any]:
        return {
            "count": sum(self.errors.values()),
            "by_kind": dict(self.errors.most_common()),
            "samples": self.samples,
        }


@dataclass
class Send:
    t: float
    sender: int
    recipients: tuple[int, ...]
    status: str = "pending"  # "ok" once the server acknowledged it, or "rejected"
    got: dict[int, int] = field(default_factory=dict)


class ChatTracker:
    """Every chat line sent, who must receive it, and when each recipient did."""

    def __init__(self) -> None:
        self.sends: dict[str, Send] = {}
        self.latencies: list[float] = []
        self.unknown = 0
        self.wrong_mine = 0
        self.lateness: list[float] = []  # how late the client sent, against its schedule (ms)

    def sent(self, uid: str, sender: int, recipients: tuple[int, ...], t: float) -> None:
        self.sends[uid] = Send(t=t, sender=sender, recipients=recipients)

    def delivered(self, uid: str, recipient: int, t: float, mine: object = None) -> None:
        send = self.sends.get(uid)
        if send is None:
            self.unknown += 1
            return
        count = send.got.get(recipient, 0) + 1
        send.got[recipient] = count
        if count == 1:
            self.latencies.append((t - send.t) * 1000)
        if mine is not None and bool(mine) != (recipient == send.sender):
            self.wrong_mine += 1

    def missing(self) -> int:
        """Expected deliveries not received yet (of lines the server accepted)."""
        return sum(
            sum(1 for r in s.recipients if r not in s.got)
            for s in self.sends.values()
            if s.status == "ok"
        )

    def summary(self) -> dict[str, Any]:
        accepted = [s for s in self.sends.values() if s.status == "ok"]
        expected = sum(len(s.recipients) for s in accepted)
        lost = self.missing()
        duplicates = sum(sum(n - 1 for n in s.got.values() if n > 1) for s in self.sends.values())
        return {
            "sent": len(self.sends),
            "accepted": len(accepted),
            "rejected": sum(1 for s in self.sends.values() if s.status == "rejected"),
            "unacknowledged": sum(1 for s in self.sends.values() if s.status == "pending"),
            "expected_deliveries": expected,
            "delivered": sum(len(s.got) for s in self.sends.values()),
            "lost": lost,
            "duplicates": duplicates,
            "unknown": self.unknown,
            "wrong_mine_flag": self.wrong_mine,
            "fanout_ms": summarize(self.latencies),
            "send_lateness_ms": summarize(self.lateness),
        }


@dataclass
class Target:
    """One server process as the bots see it."""

    url: str
    ws_url: str


class Harness:
    """What the bots of one step share: settings, recorders, random numbers, the clock."""

    def __init__(self, cfg: Config, label: str) -> None:
        self.cfg = cfg
        self.label = label  # unique per step, part of every chat id
        self.rng = random.Random(f"{cfg.seed}-{label}")
        self.http = Recorder()
        self.http.max_server_errors = cfg.max_server_errors
        self.chat = ChatTracker()
        self.frames: Counter[str] = Counter()  # websocket frames received, by type
        self.loop = asyncio.get_running_loop()

    def now(self) -> float:
        return self.loop.time()

    def think(self) -> float:
        return self.rng.uniform(*self.cfg.think)


def new_client(target: Target, timeout: float) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        base_url=target.url,
        verify=_SSL,
        trust_env=False,
        timeout=timeout,
        follow_redirects=False,
        limits=httpx.Limits(max_connections=4, max_keepalive_connections=2),
        headers={"User-Agent": USER_AGENT},
    )


async def open_socket(url: str, origin: str, cookie: str | None = None) -> ClientConnection:
    headers = {"Origin": origin}
    if cookie:
        headers["Cookie"] = cookie
    return await websockets.connect(
        url,
        additional_headers=headers,
        compression=None,
        ping_interval=None,
        proxy=None,
        open_timeout=60,
        close_timeout=5,
        max_size=2**22,
    )


class Game:
    """One table: its bots, its code once created, and when it started and finished."""

    def __init__(self, index: int, ruleset: str) -> None:
        self.index = index
        self.ruleset = ruleset
        self.bots: list[Bot] = []
        self.code = ""
        self.created = asyncio.Event()
        self.start_at = 0.0
        self.started: float | None = None
        self.done: list[float] = []
        # phase -> when the POST that moved the game into it was sent (the start POST, the
        # last action, "ready" or vote): the moment the pushes of that phase measure from.
        self.moved_at: dict[str, float] = {}

    @property
    def bot_ids(self) -> tuple[int, ...]:
        return tuple(b.bid for b in self.bots)

    @property
    def completed(self) -> bool:
        return len(self.done) == len(self.bots)


class Bot:
    """One player: a browser stand-in with its own session, connection and websocket."""

    def __init__(self, h: Harness, bid: int, game: Game, seat: int, target: Target) -> None:
        self.h = h
        self.bid = bid
        self.game = game
        self.seat = seat
        self.name = NAMES[seat]
        self.target = target
        self.http = new_client(target, h.cfg.http_timeout)
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.csrf = ""
        self.hello = asyncio.Event()
        self.phase = ""
        self.phase_events = {p: asyncio.Event() for p in PHASES}
        self.panels: dict[str, str] = {}  # phase -> the panel the server pushed for it
        self.panel_at: dict[str, float] = {}  # phase -> when that panel arrived
        self.pending: deque[str] = deque()
        self.chat_tasks: list[asyncio.Task[None]] = []
        self.closing = False
        self.form_answer: asyncio.Future[str | None] | None = None
        self.answer_phase: object = None  # the phase the last form's answer said

    @property
    def is_host(self) -> bool:
        return self.seat == 0

    @property
    def page_path(self) -> str:
        return f"/g/{self.game.code}/"

    # --- HTTP ------------------------------------------------------------------------------

    async def request(
        self,
        kind: str,
        method: str,
        path: str,
        *,
        data: dict[str, Any] | None = None,
        htmx: str | None = None,
        expect: Sequence[int] = (200,),
    ) -> httpx.Response | None:
        headers: dict[str, str] = {}
        if method == "POST":
            headers["Origin"] = self.target.url
        if htmx:
            headers.update(
                {
                    "HX-Request": "true",
                    "HX-Target": htmx,
                    "HX-Current-URL": self.target.url + self.page_path,
                }
            )
        started = self.h.now()
        try:
            response = await self.http.request(method, path, data=data, headers=headers)
        except httpx.HTTPError as error:
            self.h.http.error(f"{kind}: {type(error).__name__}", f"{path}: {error!r}")
            return None
        self.h.http.latency(kind, (self.h.now() - started) * 1000)
        if response.status_code >= 500:
            self.h.http.server_error()
        if response.status_code not in expect:
            self.h.http.error(
                f"{kind}: HTTP {response.status_code}",
                f"{path}: {response.text[:200]!r}",
            )
        return response

    def _remember_csrf(self, html: str) -> None:
        token = htmlforms.csrf_token(html)
        if token:
            self.csrf = token

    async def get_page(self, kind: str, expected_phase: str) -> str:
        response = await self.request(kind, "GET", self.page_path)
        if response is None or response.status_code != 200:
            raise BotAborted(kind)
        html = response.text
        self._remember_csrf(html)
        shown = htmlforms.page_phase(html)
        if shown != expected_phase:
            self.h.http.error(f"{kind}: wrong phase", f"shows {shown}, expected {expected_phase}")
        return html

    async def post_panel(
        self, kind: str, action: str, data: dict[str, Any], *, refused_ok: bool = False
    ) -> str | None:
        """Send a game form as the page does: over the socket (`Config.forms`), or as an htmx
        POST. The answer is the updated panel, that of the next phase when the form moved the
        game on. Returns the panel, "" for an empty answer, None on failure."""
        data = {"csrfmiddlewaretoken": self.csrf, **data}
        if self.h.cfg.forms == "socket":
            return await self._form_over_socket(kind, action, data, refused_ok=refused_ok)
        kind = f"{kind} POST"
        sent_at, before = self.h.now(), self.phase
        response = await self.request(
            kind,
            "POST",
            f"/g/{self.game.code}/{action}",
            data=data,
            htmx="panel",
            expect=(200, 204, 400, 403, 409) if refused_ok else (200, 204),
        )
        if response is None:
            return None
        if response.status_code in (400, 403, 409) and refused_ok:
            # Refused (an error, recorded here): the panel with the form comes back, and a
            # person would try again.
            self.h.http.error(f"{kind}: refused", f"{self.game.code} posted {data!r}"[:300])
            return response.text
        if response.status_code not in (200, 204):
            return None
        if response.status_code == 204:
            self.h.http.error(f"{kind}: empty answer", self.game.code)
            return ""
        shown = htmlforms.page_phase(response.text)
        if shown in PHASES and before in PHASES and PHASES.index(shown) > PHASES.index(before):
            self.game.moved_at.setdefault(shown, sent_at)  # this POST moved the game on
        return response.text

    async def _form_over_socket(
        self, kind: str, action: str, data: dict[str, Any], *, refused_ok: bool
    ) -> str | None:
        """The form as game.js sends it while the socket is live: its path and fields in a
        frame; the answer is a status frame marked "answer" that carries the panel, or only
        the card the form changed while the game stays in its phase."""
        kind = f"{kind} form"
        if self.ws is None:
            self.h.http.error(f"{kind}: no socket", self.game.code)
            return None
        fields = {
            k: [str(x) for x in v] if isinstance(v, list) else [str(v)] for k, v in data.items()
        }
        frame = {"type": "form", "path": f"/g/{self.game.code}/{action}", "fields": fields}
        sent_at, before = self.h.now(), self.phase
        self.form_answer = asyncio.get_running_loop().create_future()
        try:
            await self.ws.send(json.dumps(frame))
            panel = await asyncio.wait_for(self.form_answer, self.h.cfg.http_timeout)
        except (TimeoutError, websockets.ConnectionClosed) as error:
            self.h.http.error(f"{kind}: {type(error).__name__}", self.game.code)
            return None
        finally:
            self.form_answer = None
        self.h.http.latency(kind, (self.h.now() - sent_at) * 1000)
        if panel is None:
            return None
        if 'role="alert"' in panel:  # refused: the panel came back with the error
            self.h.http.error(f"{kind}: refused", f"{self.game.code} sent {data!r}"[:300])
            return panel if refused_ok else None
        shown = htmlforms.page_phase(panel) if panel else self.answer_phase
        if shown in PHASES and before in PHASES and PHASES.index(shown) > PHASES.index(before):
            self.game.moved_at.setdefault(shown, sent_at)  # this form moved the game on
        return panel

    # --- Lobby -----------------------------------------------------------------------------

    async def create_game(self) -> None:
        response = await self.request("home", "GET", "/")
        if response is None or response.status_code != 200:
            raise BotAborted("home")
        form = htmlforms.parse(response.text).form("/games/new")
        if form is None:
            self.h.http.error("home: no create form")
            raise BotAborted("home")
        data = form.defaults()
        data.update(
            host_name=self.name,
            ruleset=self.game.ruleset,
            day_minutes=str(self.h.cfg.day_minutes),
        )
        response = await self.request("create", "POST", "/games/new", data=data, expect=(302,))
        if response is None or response.status_code != 302:
            raise BotAborted("create")
        self.game.code = response.headers["location"].strip("/").split("/")[1]
        await self.get_page("lobby", "lobby")
        self.game.created.set()

    async def join_game(self) -> None:
        await self.game.created.wait()
        if not self.game.code:
            raise BotAborted("no game")
        path = f"/g/{self.game.code}/join"
        response = await self.request("join page", "GET", path)
        if response is None or response.status_code != 200:
            raise BotAborted("join page")
        page = htmlforms.parse(response.text)
        form = page.form("") or page.form(f"/g/{self.game.code}/join")
        if form is None:
            self.h.http.error("join page: no form")
            raise BotAborted("join page")
        data = form.defaults()
        data["name"] = self.name
        if form.named("rules_phrase"):
            data["rules_phrase"] = page.quote
        response = await self.request("join POST", "POST", path, data=data, expect=(302,))
        if response is None or response.status_code != 302:
            raise BotAborted("join POST")
        await self.get_page("lobby", "lobby")

    # --- Websocket -------------------------------------------------------------------------

    def _cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.http.cookies.jar)

    async def connect(self) -> None:
        url = f"{self.target.ws_url}/ws/game/{self.game.code}/?after=0&phase=lobby"
        try:
            self.ws = await open_socket(url, self.target.url, self._cookie_header())
        except Exception as error:
            self.h.http.error(f"websocket connect: {type(error).__name__}", repr(error))
            raise BotAborted("connect") from error
        self.reader = asyncio.create_task(self._read())
        try:
            await asyncio.wait_for(self.hello.wait(), self.h.cfg.phase_timeout)
        except TimeoutError:
            self.h.http.error("websocket: no hello")
            raise BotAborted("hello") from None

    def _saw_phase(self, phase: object) -> None:
        if phase not in PHASES:
            return
        self.phase = str(phase)
        for p in PHASES[: PHASES.index(self.phase) + 1]:
            self.phase_events[p].set()

    async def _read(self) -> None:
        assert self.ws is not None
        h = self.h
        try:
            async for raw in self.ws:
                t = h.now()
                message = json.loads(raw)
                kind = message.get("type")
                h.frames[str(kind)] += 1
                if kind == "chat":
                    text = message.get("text", "")
                    if text.startswith("msg "):
                        uid = text[4:].split(" ", 1)[0]
                        h.chat.delivered(uid, self.bid, t, message.get("mine"))
                elif kind in ("status", "hello"):
                    panel = message.get("panel_html")
                    answer = self.form_answer
                    if message.get("answer") and answer is not None and not answer.done():
                        # The panel, or the one card the form changed (game.js swaps it in),
                        # or nothing when the form moved the game on (the push brings it).
                        self.answer_phase = message.get("phase")
                        answer.set_result(panel or message.get("part_html") or "")
                    if panel and message.get("phase") in PHASES:
                        self.panels[message["phase"]] = panel
                        self.panel_at.setdefault(message["phase"], t)
                        self._remember_csrf(panel)
                    if not message.get("follows"):  # else the push with the panel is due
                        self._saw_phase(message.get("phase"))
                    if kind == "hello":
                        self.hello.set()
                elif kind == "form-error":
                    h.http.error("form refused by the socket", str(message.get("message")))
                    if self.form_answer is not None and not self.form_answer.done():
                        self.form_answer.set_result(None)
                elif kind == "sent":
                    self._ack("ok")
                elif kind == "error":
                    self._ack("rejected")
                    h.http.error("websocket error frame", str(message.get("message")))
        except websockets.ConnectionClosed as closed:
            if not self.closing:
                h.http.error("websocket closed", repr(closed))
        except Exception as error:  # a broken frame must not go unnoticed
            h.http.error(f"websocket reader: {type(error).__name__}", repr(error))

    def _ack(self, status: str) -> None:
        if not self.pending:
            return
        send = self.h.chat.sends.get(self.pending.popleft())
        if send is not None:
            send.status = status

    async def close(self) -> None:
        self.closing = True
        for task in self.chat_tasks:
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
        await self.http.aclose()

    # --- The game --------------------------------------------------------------------------

    async def wait_phase(self, phase: str) -> str:
        """Wait for the push of `phase` and return the panel it carried. Without a push, or a
        push without the panel, load the page instead (an error: game.js would not have to)."""
        try:
            await asyncio.wait_for(self.phase_events[phase].wait(), self.h.cfg.phase_timeout)
            panel = self.panels.get(phase)
            if panel:
                return panel
            self.h.http.error(f"no panel pushed for {phase}", f"game {self.game.code}")
        except TimeoutError:
            self.h.http.error(f"no status push for {phase}", f"game {self.game.code}")
        deadline = self.h.now() + self.h.cfg.phase_timeout
        while self.h.now() < deadline:
            response = await self.request("fallback page", "GET", self.page_path)
            if response is not None and response.status_code == 200:
                shown = htmlforms.page_phase(response.text)
                if shown in PHASES and PHASES.index(shown) >= PHASES.index(phase):
                    self._remember_csrf(response.text)
                    self._saw_phase(shown)
                    return response.text
            await asyncio.sleep(1.0)
        raise BotAborted(f"phase {phase} never came")

    async def play(self) -> None:
        """From the lobby (socket open) to the reveal page."""
        h, game = self.h, self.game
        if self.is_host:
            await asyncio.sleep(max(0.0, game.start_at - h.now()))
            game.started = h.now()
            if await self.post_panel("start", "start", {}) is None:
                raise BotAborted("start")
        html = await self.wait_phase("night")
        await asyncio.sleep(h.think())
        await self.night_action(html)

        await self.wait_phase("day")
        await self.chat_day()
        if await self.post_panel("ready", "ready", {}) is None:
            raise BotAborted("ready")

        html = await self.wait_phase("voting")
        await asyncio.sleep(h.think())
        await self.vote(html)

        html = await self.wait_phase("reveal")
        if 'id="reveal"' not in html:
            h.http.error("reveal panel: no reveal", game.code)
        game.done.append(h.now())

    def record_pushes(self) -> None:
        """How long each phase's panel took to reach this bot, from the POST that moved the
        game into that phase: what a player waits between the last click and the new screen.
        Called once every bot of the step is done (the POST's answer may come after a push)."""
        for phase in PHASES[1:]:
            moved, arrived = self.game.moved_at.get(phase), self.panel_at.get(phase)
            if moved is not None and arrived is not None:
                self.h.http.latency(f"{phase} panel push", max(0.0, arrived - moved) * 1000)

    async def night_action(self, html: str) -> None:
        """A random legal action from the form on the page; the Doppelganger's second step
        (the copied role's action) comes back in the panel and is sent the same way."""
        action = f"/g/{self.game.code}/action"
        rng = self.h.rng
        tried: set[str] = set()
        for _ in range(4):
            if not html or htmlforms.page_phase(html) != "night":
                return  # this action was the last one: the game moved on to the day
            form = htmlforms.parse(html).form(action)
            if form is None:
                if "Your action is in" not in html:
                    self.h.http.error("night panel: no action form", self.game.code)
                return
            data: dict[str, Any] = form.defaults()
            radios = [f.value for f in form.named("targets") if f.type == "radio"]
            selects = [f for f in form.named("targets") if f.tag == "select"]
            can_pass = any(name == "no_action" for name, _ in form.buttons)
            copy = data.get("step") == "copy"
            fresh = [r for r in radios if r not in tried] or radios
            if radios and not (can_pass and not copy and rng.random() < 0.1):
                data["targets"] = rng.choice(fresh)
                tried.add(data["targets"])
            elif len(selects) == 2:
                data["targets"] = rng.sample([o for o in selects[0].options if o], 2)
            else:
                data.pop("targets", None)
                data["no_action"] = "1"
            panel = await self.post_panel("action", "action", data, refused_ok=True)
            if panel is None:
                raise BotAborted("action")
            html = panel
        self.h.http.error("night action: form still there after 4 tries", self.game.code)

    async def vote(self, html: str) -> None:
        page = htmlforms.parse(html)
        form = next(
            (
                f
                for f in page.forms
                if f.action.endswith("/vote") and any(x.type == "radio" for x in f.named("target"))
            ),
            None,
        )
        if form is None:
            self.h.http.error("voting panel: no vote form", self.game.code)
            raise BotAborted("vote")
        data: dict[str, Any] = form.defaults()
        data["target"] = self.h.rng.choice([f.value for f in form.named("target")])
        if await self.post_panel("vote", "vote", data) is None:
            raise BotAborted("vote")

    # --- Chat ------------------------------------------------------------------------------

    def schedule_chat(
        self, start: float, duration: float, send: Callable[[int, float], None]
    ) -> int:
        """Open loop: absolute send times every `chat_every` seconds from a random offset."""
        every = self.h.cfg.chat_every
        t = start + self.h.rng.uniform(0, every)
        count = 0
        while t < start + duration:
            self.h.loop.call_at(t, send, count, t)
            t += every
            count += 1
        return count

    def _send_chat(self, index: int, scheduled: float) -> None:
        self.chat_tasks.append(asyncio.create_task(self._chat(index, scheduled)))

    async def _chat(self, index: int, scheduled: float) -> None:
        h = self.h
        uid = f"{h.label}.{self.bid}.{index}"
        now = h.now()
        h.chat.lateness.append((now - scheduled) * 1000)
        h.chat.sent(uid, self.bid, self.game.bot_ids, now)
        self.pending.append(uid)
        assert self.ws is not None
        try:
            line = f"msg {uid} {CHAT_LINES[index % len(CHAT_LINES)]}"
            await self.ws.send(json.dumps({"type": "chat", "text": line}))
        except websockets.ConnectionClosed as closed:
            h.http.error("chat send: closed", repr(closed))

    async def chat_day(self) -> None:
        h = self.h
        start = h.now()
        self.schedule_chat(start, h.cfg.day_seconds, self._send_chat)
        await asyncio.sleep(h.cfg.day_seconds)
        # Every line is out; wait for the server's answers before "ready", so that no line
        # reaches the server after the day ended (it would be refused, rightly).
        if self.chat_tasks:
            await asyncio.gather(*self.chat_tasks, return_exceptions=True)
        deadline = h.now() + 10
        while self.pending and h.now() < deadline:
            await asyncio.sleep(0.05)
        if self.pending:
            h.http.error("chat: no answer from the server", f"{len(self.pending)} lines")


async def run_bots(
    coros: Sequence[Any], timeout: float, h: Harness, what: str
) -> list[BaseException | None]:
    """Run the bots' coroutines together; errors are recorded, never raised."""
    tasks = [asyncio.create_task(c) for c in coros]
    # The server failing (5xx) past the limit ends the step: a broken server is not loaded on.
    everything = asyncio.gather(*tasks, return_exceptions=True)
    stop = asyncio.create_task(h.http.too_many.wait())
    await asyncio.wait([everything, stop], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    stop.cancel()
    pending = {t for t in tasks if not t.done()}
    for task in pending:
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await everything
    if pending:
        reason = (
            f"more than {h.http.max_server_errors} server errors"
            if h.http.too_many.is_set()
            else f"still busy after {timeout:.0f} s"
        )
        h.http.error(f"{what}: stopped", f"{len(pending)} bots: {reason}")
        await asyncio.gather(*pending, return_exceptions=True)
    results: list[BaseException | None] = []
    for task in tasks:
        if task.cancelled():
            results.append(asyncio.CancelledError())  # stopped: counts as a failed bot
            continue
        error = task.exception()
        if error is not None and not isinstance(error, BotAborted):
            h.http.error(f"{what}: {type(error).__name__}", repr(error))
        results.append(error)
    return results
