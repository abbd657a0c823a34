"""Real servers for the tests that need them: daphne subprocesses that can be killed and
restarted, and a player that talks to them over HTTP and websockets like a browser page does.

Used by tests/multiprocess (two processes on PostgreSQL + Redis) and tests/faults (one process on
the embedded SQLite, killed and restarted).
"""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "test-artifacts"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO,
        env=env,
        check=True,
        timeout=120,
    )


class Server:
    """One daphne process on a fixed port: `kill()` is SIGKILL, `start()` (re)starts it."""

    def __init__(self, name: str, env: dict[str, str], port: int | None = None) -> None:
        self.name = name
        self.env = env
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        ARTIFACTS.mkdir(exist_ok=True)
        self.log_path = ARTIFACTS / f"{name}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> None:
        log = self.log_path.open("ab")
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "onenight.asgi:application"],
            cwd=REPO,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited; see {self.log_path}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not start; see {self.log_path}")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class Player:
    """A browser stand-in: one cookie jar (one session) that can talk to any of the servers.

    Like the page without htmx: every form is a POST answered with a redirect (302), chat
    included (POST /g/<code>/chat); the websocket only brings what the server pushes."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.http = httpx.AsyncClient(follow_redirects=False, timeout=10)

    async def csrf(self, server: Server) -> str:
        if "csrftoken" not in self.http.cookies:
            await self.http.get(server.url + "/")
        return self.http.cookies["csrftoken"]

    async def get(self, server: Server, path: str) -> httpx.Response:
        return await self.http.get(server.url + path)

    async def post(self, server: Server, path: str, data: dict[str, Any]) -> httpx.Response:
        data = {**data, "csrfmiddlewaretoken": await self.csrf(server)}
        return await self.http.post(server.url + path, data=data)

    async def move(
        self, server: Server, code: str, kind: str, data: dict[str, Any] | None = None
    ) -> httpx.Response:
        """A move of the game (`/g/<code>/do/<kind>`: action, ready, end_day, vote...)."""
        return await self.post(server, f"/g/{code}/do/{kind}", data or {})

    async def chat(self, server: Server, code: str, text: str) -> httpx.Response:
        """A line in the table's public chat; it comes back to every page by the socket."""
        return await self.post(server, f"/g/{code}/chat", {"channel": "public", "text": text})

    async def socket(self, server: Server, code: str, after: int = 0, version: int = 0) -> Any:
        """The page's websocket: `version` and `after` are the table version and the last chat
        line the page shows (0: nothing yet, so the hello brings the panel and the history)."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        return await websockets.connect(
            f"{server.ws}/ws/table/{code}/?version={version}&after={after}",
            additional_headers={"Cookie": cookie, "Origin": server.url},
        )

    async def close(self) -> None:
        await self.http.aclose()


async def next_of(
    ws: Any,
    kind: str,
    timeout: float = 5.0,
    where: Callable[[dict[str, Any]], bool] | None = None,
    **match: Any,
) -> dict[str, Any]:
    """The next frame of type `kind` (with the given field values, and for which `where` holds),
    skipping others."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no {kind} frame matching {match}")
        frame = json.loads(await asyncio.wait_for(ws.recv(), left))
        if (
            frame.get("type") == kind
            and all(frame.get(k) == v for k, v in match.items())
            and (where is None or where(frame))
        ):
            return frame


def shows(phase_label: str) -> Callable[[dict[str, Any]], bool]:
    """A hello or panel push whose panel shows the phase `phase_label` ("Day", "Voting"...)."""
    return lambda frame: f'data-phase-label="{phase_label}"' in frame.get("panel", "")


async def open_game(
    server: Server,
    names: list[str],
    deck: dict[str, int],
    *,
    join_on: list[Server] | None = None,
    **options: Any,
) -> tuple[str, list[Player]]:
    """The first player opens a One Night table (house rules), sets the deck and the options
    (no rules phrase, a 30-minute day, and `options`), and the others join (on the servers of
    `join_on`, in turn). Returns the code and the players."""
    players = [Player(n) for n in names]
    r = await players[0].post(
        server, "/games/new", {"host_name": names[0], "game": "onenight:house"}
    )
    assert r.status_code == 302, r.text
    code = r.headers["location"].split("/")[2]
    settings = {"day_minutes": 30, "rules_phrase": "no", **options}
    counts = {f"count_{role}": n for role, n in deck.items()}
    r = await players[0].post(server, f"/g/{code}/options", {**settings, **counts})
    assert r.status_code == 302, r.text
    servers = join_on or [server]
    for i, player in enumerate(players[1:]):
        r = await player.post(servers[i % len(servers)], f"/g/{code}/join", {"name": player.name})
        assert r.status_code == 302, r.text
    return code, players
