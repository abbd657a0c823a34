"""Starting the real server for the load benchmark: daphne on a fresh database, pinned to a CPU.

One `ServerSet` is one or more daphne processes on the same database and channel layer. The
embedded setup is SQLite (a copy of a migrated template file) with the in-memory layer; the
scaled setup is Redis pub/sub plus a PostgreSQL database made from a migrated template.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

ROOT = Path(__file__).resolve().parent.parent
# Where the app under test lives (manage.py, onenight/, games/): this checkout unless
# `bench/load.py --app-dir` points at another one (a snapshot of another commit, say).
APP_DIR = ROOT
# The ASGI application daphne serves (`bench/load.py --asgi` tries another entry point).
ASGI_APP = "onenight.asgi:application"
REDIS_URL = "redis://127.0.0.1:6379/5"
PG_URL = "postgres://postgres@127.0.0.1:5432/postgres"
# Variables of the caller that would change what the server runs on.
_SCRUBBED = ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "ONENIGHT_SQLITE_PATH")


def answers(url: str, default_port: int) -> bool:
    """True when something accepts TCP connections at the URL's host and port."""
    parsed = urlparse(url)
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=1
        ):
            return True
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def base_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "onenight.settings",
            "ONENIGHT_DATA_DIR": str(data_dir),
            "ONENIGHT_BENCH_BASELINE": "1",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


def migrate(env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=APP_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py migrate failed:\n{done.stdout}\n{done.stderr}")


@dataclass
class Database:
    """Where the servers of one step keep their games: a fresh copy for every step."""

    kind: str  # "sqlite" or "postgresql"
    work: Path
    pg_url: str = PG_URL
    template: str = ""
    current: str = ""
    _token: str = field(default_factory=lambda: secrets.token_hex(4))

    def prepare(self) -> None:
        """Migrate a template once (the generated secret key is made here too)."""
        template_dir = self.work / "template"
        template_dir.mkdir(parents=True, exist_ok=True)
        env = base_env(template_dir)
        if self.kind == "sqlite":
            env["ONENIGHT_SQLITE_PATH"] = str(template_dir / "bench.sqlite3")
        else:
            self.template = f"onenight_bench_{self._token}_tmpl"
            self._admin(f'CREATE DATABASE "{self.template}"')
            env["DATABASE_URL"] = self._url(self.template)
        migrate(env)

    def _url(self, name: str) -> str:
        return urlunparse(urlparse(self.pg_url)._replace(path=f"/{name}"))

    def _admin(self, statement: str) -> None:
        """Run one statement outside a transaction (CREATE/DROP DATABASE need that)."""
        import psycopg  # only the PostgreSQL runs need it

        with psycopg.connect(self.pg_url, autocommit=True) as conn:
            conn.execute(statement)

    def fresh(self, step: str) -> tuple[Path, dict[str, str]]:
        """A new data dir (with the template's key) and the variables selecting the database."""
        data_dir = self.work / step / "data"
        shutil.copytree(self.work / "template", data_dir)
        extra: dict[str, str] = {}
        if self.kind == "sqlite":
            extra["ONENIGHT_SQLITE_PATH"] = str(data_dir / "bench.sqlite3")
        else:
            self.current = f"onenight_bench_{self._token}_{step}"
            self._admin(f'CREATE DATABASE "{self.current}" TEMPLATE "{self.template}"')
            extra["DATABASE_URL"] = self._url(self.current)
        return data_dir, extra

    def release(self) -> None:
        if self.kind == "postgresql" and self.current:
            self._admin(f'DROP DATABASE IF EXISTS "{self.current}" WITH (FORCE)')
            self.current = ""

    def drop(self) -> None:
        self.release()
        if self.kind == "postgresql" and self.template:
            self._admin(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)')
            self.template = ""


@dataclass
class Server:
    """One daphne process serving onenight.asgi on 127.0.0.1:`port`."""

    name: str
    port: int
    env: dict[str, str]
    log_path: Path
    timing_log: Path
    cpus: set[int] | None = None
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> None:
        env = {**self.env, "ONENIGHT_TIMING_LOG": str(self.timing_log)}
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    ASGI_APP,
                ],
                cwd=APP_DIR,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        if self.cpus:
            # Threads started later (daphne's, Django's sync thread) inherit the affinity.
            os.sched_setaffinity(self.process.pid, self.cpus)

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(self.url + "/bench/ping", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not start; see {self.log_path}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


@dataclass
class ServerSet:
    """The server processes of one step, started on a fresh database."""

    servers: list[Server]

    @property
    def pids(self) -> list[int]:
        return [s.pid for s in self.servers]

    def start(self) -> None:
        for server in self.servers:
            server.start()
        try:
            for server in self.servers:
                server.wait_ready()
        except Exception:
            self.stop()
            raise

    def stop(self) -> None:
        for server in self.servers:
            server.stop()

    def timings(self, codes: set[str] | None = None) -> dict[str, list[float]]:
        """Server-side milliseconds per kind ("resolve_night", "tally_votes") from the logs."""
        found: dict[str, list[float]] = {"resolve_night": [], "tally_votes": []}
        for server in self.servers:
            if not server.timing_log.exists():
                continue
            for line in server.timing_log.read_text(encoding="utf-8").splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[0] in found and (codes is None or parts[1] in codes):
                    found[parts[0]].append(float(parts[2]))
        return found


def make_servers(
    *,
    step: str,
    database: Database,
    count: int,
    redis_url: str | None,
    cpus: set[int] | None,
) -> ServerSet:
    """`count` daphne processes of a step on a fresh copy of `database`."""
    data_dir, extra = database.fresh(step)
    env = {**base_env(data_dir), **extra}
    if redis_url:
        env["REDIS_URL"] = redis_url
    step_dir = data_dir.parent
    servers = [
        Server(
            name=f"daphne-{i}",
            port=free_port(),
            env=env,
            log_path=step_dir / f"daphne-{i}.log",
            timing_log=step_dir / f"timing-{i}.log",
            cpus=cpus,
        )
        for i in range(count)
    ]
    return ServerSet(servers)


def usable_cpus() -> Sequence[int]:
    return sorted(os.sched_getaffinity(0))
