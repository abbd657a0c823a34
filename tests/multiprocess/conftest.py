"""Two daphne processes sharing one PostgreSQL database and one Redis channel layer.

They always run on PostgreSQL and Redis: TEST_DATABASE_URL and TEST_REDIS_URL (what the Makefile
exports; else DATABASE_URL and REDIS_URL, else the defaults below), and are skipped unless both
answer. Each test session gets a fresh database named after the given one ("<name>_mp", made
through a connection to the given database, so nothing else on the server is used), dropped at
the end.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlparse, urlunparse

import pytest

from tests.servers import Server, migrate

DEFAULT_PG = "postgres://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/3"


def _answers(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port or default_port), timeout=1):
            return True
    except OSError:
        return False


def _setting(*names: str, default: str) -> str:
    return next((os.environ[n] for n in names if os.environ.get(n)), default)


@dataclass
class Cluster:
    a: Server
    b: Server
    database_url: str


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    pg = _setting("TEST_DATABASE_URL", "DATABASE_URL", default=DEFAULT_PG)
    redis = _setting("TEST_REDIS_URL", "REDIS_URL", default=DEFAULT_REDIS)
    if not pg.startswith("postgres") or not _answers(pg, 5432) or not _answers(redis, 6379):
        pytest.skip("PostgreSQL and Redis are not both answering")
    import psycopg

    name = f"{urlparse(pg).path.strip('/')}_mp"
    db_url = urlunparse(urlparse(pg)._replace(path=f"/{name}"))

    def drop() -> None:
        with psycopg.connect(pg, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    drop()  # left over from a run that was killed
    with psycopg.connect(pg, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    data_dir = tmp_path_factory.mktemp("mp")
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "REDIS_URL": redis,
        "ONENIGHT_DATA_DIR": str(data_dir),  # both processes read the same generated key
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DJANGO_SECRET_KEY", None)
    migrate(env)
    a = Server("multiprocess-a", env)
    b = Server("multiprocess-b", env)
    a.start()
    b.start()
    try:
        yield Cluster(a=a, b=b, database_url=db_url)
    finally:
        a.stop()
        b.stop()
        drop()
