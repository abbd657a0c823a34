"""The stack's floor, measured in the same run on the same server as the games.

- The game forms a bot sends from the start of its game to the reveal (the host's start, the
  action, "ready" and the vote), on the same timeline: as an "echo" frame on the bot's relay
  socket, answered straight back (when the bots send their forms over the socket, as game.js
  does), or as GET /bench/ping from the bot's own HTTP client (onenight/baseline.py: no database,
  no template) when they POST them. With socket forms, a light probe GETs /bench/ping meanwhile,
  the floor of any other HTTP request. (Each phase's new panel comes over the websocket.)
- Websockets: K rooms of P sockets on /ws/bench/<room>/ (a consumer that relays every frame to
  the room through the channel layer), each socket sending on the bots' chat schedule.
- The lobby (`replay_lobby`): every page a bot loads and every form it posts there, as
  GET /bench/ping on the lobby's schedule and under its limit of players joining at once, the
  floor of the lobby's pages under the lobby's own bursts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Sequence
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from bench.bots import (
    CHAT_LINES,
    ChatTracker,
    Harness,
    Recorder,
    Target,
    new_client,
    open_socket,
)

# HTTP requests a bot sends from the start of its game to the reveal: action, ready, vote (and
# the host's start).
REQUESTS_PER_PLAYER = 3
# HTTP requests a bot sends in the lobby, one after the other: the host's home page, create
# form and lobby page; another player's join page, join form and lobby page (bench/bots.py).
LOBBY_REQUESTS_PER_PLAYER = 3
LOBBY_FLOOR = "ping, lobby replay"


async def timed_ping(
    h: Harness, client: httpx.AsyncClient, recorder: Recorder, kind: str, label: str
) -> None:
    """GET /bench/ping (the minimal view): its latency recorded as `kind`, a failure as an
    error named after `label`."""
    started = h.now()
    try:
        response = await client.get("/bench/ping")
    except httpx.HTTPError as error:
        recorder.error(f"{label}: {type(error).__name__}", repr(error))
        return
    recorder.latency(kind, (h.now() - started) * 1000)
    if response.status_code != 200:
        recorder.error(f"{label}: HTTP {response.status_code}")


class EchoSocket:
    """One socket of a baseline room."""

    def __init__(self, sid: int, room: str, members: tuple[int, ...], target: Target) -> None:
        self.sid = sid
        self.room = room
        self.members = members
        self.target = target
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.closing = False
        self.echoes: dict[str, asyncio.Future[float]] = {}

    async def connect(self, errors: Recorder, chat: ChatTracker, now: Any) -> None:
        try:
            self.ws = await open_socket(
                f"{self.target.ws_url}/ws/bench/{self.room}/", self.target.url
            )
        except Exception as error:
            errors.error(f"baseline connect: {type(error).__name__}", repr(error))
            return
        self.reader = asyncio.create_task(self._read(errors, chat, now))

    async def _read(self, errors: Recorder, chat: ChatTracker, now: Any) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                t = now()
                message = json.loads(raw)
                if "echo" in message:
                    waiter = self.echoes.pop(message["echo"], None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result(t)
                    continue
                chat.delivered(message["id"], self.sid, t)
        except websockets.ConnectionClosed as closed:
            if not self.closing:
                errors.error("baseline socket closed", repr(closed))
        except Exception as error:
            errors.error(f"baseline reader: {type(error).__name__}", repr(error))

    async def send(self, uid: str, chat: ChatTracker, t: float, errors: Recorder) -> None:
        if self.ws is None:
            return
        chat.sent(uid, self.sid, self.members, t)
        chat.sends[uid].status = "ok"  # the relay has no acknowledgement
        try:
            text = f"msg {uid} {CHAT_LINES[len(uid) % len(CHAT_LINES)]}"
            await self.ws.send(json.dumps({"id": uid, "text": text}))
        except websockets.ConnectionClosed as closed:
            errors.error("baseline send: closed", repr(closed))

    async def echo(self, uid: str, errors: Recorder, now: Any, timeout: float) -> None:
        """A form's floor: one frame to the server and straight back; latency as "echo"."""
        if self.ws is None:
            return
        waiter = asyncio.get_running_loop().create_future()
        self.echoes[uid] = waiter
        started = now()
        try:
            await self.ws.send(json.dumps({"echo": uid}))
            arrived = await asyncio.wait_for(waiter, timeout)
        except (TimeoutError, websockets.ConnectionClosed) as error:
            errors.error(f"echo: {type(error).__name__}", uid)
            return
        errors.latency("echo", (arrived - started) * 1000)

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()


class Baseline:
    """K rooms of P relay sockets plus open-loop pings from the bots' own HTTP clients."""

    def __init__(self, h: Harness, games: int, targets: list[Target]) -> None:
        self.h = h
        self.chat = ChatTracker()
        self.http = Recorder()
        self.sockets: list[EchoSocket] = []
        players = h.cfg.players
        for g in range(games):
            room = f"{h.label}r{g}"
            members = tuple(range(g * players, (g + 1) * players))
            for sid in members:
                target = targets[sid % len(targets)]
                self.sockets.append(EchoSocket(sid, room, members, target))
        self.tasks: list[asyncio.Task[None]] = []

    async def connect(self, concurrency: int = 32) -> None:
        gate = asyncio.Semaphore(concurrency)

        async def one(sock: EchoSocket) -> None:
            async with gate:
                await sock.connect(self.http, self.chat, self.h.now)

        await asyncio.gather(*(one(s) for s in self.sockets))

    def _spawn(self, coro: Any) -> None:
        self.tasks.append(asyncio.create_task(coro))

    async def _ping(self, client: httpx.AsyncClient) -> None:
        await timed_ping(self.h, client, self.http, "ping", "ping")

    async def run(self, clients: list[httpx.AsyncClient]) -> None:
        """Play the games' timeline with the floor: every form a bot would send is an echo on
        its relay socket, or a ping from its client, at the same moment (bursts after each
        phase change included), and the relay sockets chat on the bots' schedule.
        `clients[i]` is player i's client."""
        h, cfg = self.h, self.h.cfg
        start = h.now() + 0.5
        games = max(1, len(self.sockets) // cfg.players)
        players = []
        for sock in self.sockets:
            g, seat = divmod(sock.sid, cfg.players)
            night = cfg.table_start(start, g, games) + 0.1
            day = night + cfg.think[1] + 0.3
            t = day + h.rng.uniform(0, cfg.chat_every)
            index = 0
            while t < day + cfg.day_seconds:
                uid = f"{h.label}.b{sock.sid}.{index}"
                h.loop.call_at(t, self._send_at, sock, uid, t)
                t += cfg.chat_every
                index += 1
            players.append(self._player(clients[sock.sid], sock, seat == 0, night, day))
        await asyncio.gather(*players)
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _player(
        self,
        client: httpx.AsyncClient,
        sock: EchoSocket,
        host: bool,
        night: float,
        day: float,
    ) -> None:
        """One bot's forms, in order (see REQUESTS_PER_PLAYER), as echoes or pings."""
        h, cfg = self.h, self.h.cfg
        count = 0

        async def at(t: float) -> None:
            await asyncio.sleep(max(0.0, t - h.now()))

        async def form() -> None:
            nonlocal count
            count += 1
            if cfg.forms == "socket":
                await sock.echo(f"e{sock.sid}.{count}", self.http, h.now, cfg.http_timeout)
            else:
                await self._ping(client)

        if host:
            await at(night - 0.1)
            await form()  # start
        await at(night)
        await asyncio.sleep(h.think())
        await form()  # action
        voting = day + cfg.day_seconds
        await at(voting)
        await form()  # ready
        await at(voting + 0.3)
        await asyncio.sleep(h.think())
        await form()  # vote

    def _send_at(self, sock: EchoSocket, uid: str, scheduled: float) -> None:
        now = self.h.now()
        self.chat.lateness.append((now - scheduled) * 1000)
        self._spawn(sock.send(uid, self.chat, now, self.http))

    async def wait_delivered(self, grace: float) -> None:
        deadline = self.h.now() + grace
        while self.chat.missing() and self.h.now() < deadline:
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self.sockets), return_exceptions=True)


async def replay_lobby(
    h: Harness,
    player_targets: Sequence[Target],
    start_times: Sequence[float | None],
    concurrency: int,
    recorder: Recorder,
) -> None:
    """The lobby's floor, played as the lobby was (bench/load.py, step 1): game g's host sends
    its requests from `start_times[g]` on (None: the game broke in the lobby, skipped), the
    game's other players theirs once the host is done, each after a random pause of up to a
    second, at most `concurrency` players at once. Every request is a GET /bench/ping, recorded
    as LOBBY_FLOOR, from a new client for each player (`player_targets[i]` is player i's
    server), so that its first request opens a connection as the bot's first page did.

    The pages of the lobby are compared with this, not with pings sent at a steady rate,
    because the lobby's own bursts make even the minimal view wait in line. The pauses come
    from a random stream of their own, so the games' timings that follow stay as they were."""
    gate = asyncio.Semaphore(concurrency)
    players = h.cfg.players
    rng = random.Random(f"{h.cfg.seed}-{h.label}-lobby-floor")

    async def requests(i: int) -> None:
        async with gate, new_client(player_targets[i], h.cfg.http_timeout) as client:
            for _ in range(LOBBY_REQUESTS_PER_PLAYER):
                await timed_ping(h, client, recorder, LOBBY_FLOOR, "lobby ping")

    async def joiner(i: int, pause: float) -> None:
        await asyncio.sleep(pause)
        await requests(i)

    async def table(g: int, start: float) -> None:
        await asyncio.sleep(max(0.0, start - h.now()))
        await requests(g * players)
        pauses = [rng.uniform(0.0, 1.0) for _ in range(1, players)]
        await asyncio.gather(
            *(joiner(g * players + s, pause) for s, pause in enumerate(pauses, start=1))
        )

    await asyncio.gather(
        *(table(g, start) for g, start in enumerate(start_times) if start is not None)
    )
