"""The server under load: daphne processes serving `bench.app:application` on a fresh database.

Embedded: one process, SQLite (a copy of a migrated file) and the in-memory channel layer.
Redis: two processes on a PostgreSQL database made from a migrated template (SQLite when
PostgreSQL does not answer), sharing the Redis pub/sub channel layer.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse, urlunparse

# Variables of the caller that would change what the server runs on.
SCRUBBED = ("DATABASE_URL", "REDIS_URL", "DJANGO_SECRET_KEY", "ONENIGHT_SQLITE_PATH")
# The caps on creating and joining tables per client (onenight/settings.py), lifted: every bot
# comes from 127.0.0.1.
NO_CAPS = {
    f"ONENIGHT_{name}_PER_MINUTE": "1000000"
    for name in ("GAMES", "JOINS", "JOIN_TABLES", "TABLE_JOINS")
}

ACCESS = re.compile(r'\] "(GET|POST|HEAD|WS[A-Z]+) ')


def answers(url: str, default_port: int) -> bool:
    """Something accepts TCP connections at the URL's host and port."""
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


class Database:
    """Where the servers of one step keep their tables: a fresh copy of a template per step."""

    def __init__(self, work: Path, app_dir: Path, pg_url: str | None, prefix: str) -> None:
        self.work, self.app_dir, self.pg_url = work, app_dir, pg_url
        self.kind = "postgresql" if pg_url else "sqlite"
        self.name = f"{prefix}_{secrets.token_hex(4)}"
        self.current = ""
        template = work / "template"
        template.mkdir(parents=True)
        env = self.env(template)
        if pg_url:
            self._admin(f'CREATE DATABASE "{self.name}_tmpl"')
            env["DATABASE_URL"] = self._url(f"{self.name}_tmpl")
        else:
            env["ONENIGHT_SQLITE_PATH"] = str(template / "bench.sqlite3")
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=app_dir,
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            self.drop()
            raise RuntimeError(f"manage.py migrate failed:\n{done.stdout}\n{done.stderr}")

    def env(self, data_dir: Path) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
        env.update(NO_CAPS)
        env.update(ONENIGHT_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1")
        env.update(DJANGO_SETTINGS_MODULE="bench.settings", BENCH_LAYER_PREFIX=self.name)
        return env

    def _url(self, name: str) -> str:
        assert self.pg_url
        return urlunparse(urlparse(self.pg_url)._replace(path=f"/{name}"))

    def _admin(self, statement: str) -> None:
        import psycopg  # only the PostgreSQL runs need it

        assert self.pg_url
        with psycopg.connect(self.pg_url, autocommit=True) as conn:
            conn.execute(statement)

    def fresh(self, step: str) -> dict[str, str]:
        """The environment of a step's servers: a new copy of the template (and its secret key)."""
        data_dir = self.work / step
        shutil.copytree(self.work / "template", data_dir)
        env = self.env(data_dir)
        if self.pg_url:
            self.current = f"{self.name}_{step}"
            self._admin(f'CREATE DATABASE "{self.current}" TEMPLATE "{self.name}_tmpl"')
            env["DATABASE_URL"] = self._url(self.current)
        else:
            env["ONENIGHT_SQLITE_PATH"] = str(data_dir / "bench.sqlite3")
        return env

    def release(self) -> None:
        if self.current:
            self._admin(f'DROP DATABASE IF EXISTS "{self.current}" WITH (FORCE)')
            self.current = ""

    def drop(self) -> None:
        self.release()
        if self.pg_url:
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}_tmpl" WITH (FORCE)')


class Servers:
    """The daphne processes of one step, each on its own port, pinned to `cpus`."""

    def __init__(self, app_dir: Path, env: dict[str, str], count: int, log_dir: Path) -> None:
        self.app_dir, self.env, self.log_dir = app_dir, env, log_dir
        self.ports = [free_port() for _ in range(count)]
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    def start(self, cpus: set[int] | None) -> None:
        for i, port in enumerate(self.ports):
            command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            with (self.log_dir / f"daphne-{i}.log").open("ab") as log:
                process = subprocess.Popen(
                    [*command, "bench.app:application"],
                    cwd=self.app_dir,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            self.processes.append(process)
            if cpus:  # threads started later (daphne's, Django's) inherit it
                os.sched_setaffinity(process.pid, cpus)
        for process, url in zip(self.processes, self.urls, strict=True):
            deadline = time.monotonic() + 30
            while process.poll() is None and time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(url + "/bench/ping", timeout=1):
                        break
                except OSError:
                    time.sleep(0.1)
            else:
                self.stop()
                raise RuntimeError(f"daphne did not start; see {self.log_dir}")

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)

    def log_tail(self, lines: int = 20) -> list[str]:
        """What the servers logged besides their access lines (errors, tracebacks)."""
        tail: list[str] = []
        for path in sorted(self.log_dir.glob("daphne-*.log")):
            text = path.read_text(encoding="utf-8", errors="replace").splitlines()
            tail += [f"{path.name}: {line}" for line in text if not ACCESS.search(line)][-lines:]
        return tail
