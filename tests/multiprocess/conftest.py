"""Two daphne processes sharing one PostgreSQL database and one Redis channel layer.

Skipped unless PostgreSQL answers on DATABASE_URL (or 127.0.0.1:5432) and Redis on REDIS_URL
(or 127.0.0.1:6379). Each test session gets a fresh database, dropped at the end.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "multiprocess"
DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/3"


def _answers(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port or default_port), timeout=1):
            return True
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    """One daphne process; `kill()` sends SIGKILL, `start()` (re)starts it on the same port."""

    name: str
    port: int
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    log_path: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log_path = ARTIFACTS / f"{self.name}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "onenight.asgi:application",
            ],
            cwd=REPO,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
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


@dataclass
class Cluster:
    a: Server
    b: Server
    database_url: str


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    pg = os.environ.get("DATABASE_URL") or DEFAULT_PG
    redis = os.environ.get("REDIS_URL") or DEFAULT_REDIS
    if not pg.startswith("postgres") or not _answers(pg, 5432) or not _answers(redis, 6379):
        pytest.skip("PostgreSQL and Redis are not both answering")
    import psycopg

    name = f"onenight_mp_{secrets.token_hex(4)}"
    admin_url = urlunparse(urlparse(pg)._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    db_url = urlunparse(urlparse(pg)._replace(path=f"/{name}"))
    data_dir = tmp_path_factory.mktemp("mp")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "REDIS_URL": redis,
        "ONENIGHT_DATA_DIR": str(data_dir),  # both processes read the same generated key
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DJANGO_SECRET_KEY", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=REPO,
        env=env,
        check=True,
    )
    a = Server("server-a", _free_port(), env)
    b = Server("server-b", _free_port(), env)
    a.start()
    b.start()
    try:
        yield Cluster(a=a, b=b, database_url=db_url)
    finally:
        a.stop()
        b.stop()
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
