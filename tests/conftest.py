"""Settings shared by the whole suite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from asgiref.sync import SyncToAsync
from django.db import connections

from games.tables.reads import forget_reads
from games.tables.worker import WORKER

# Servers the tests start as subprocesses (browser, multi-process, benchmark smoke) inherit this:
# a test run creates many games from 127.0.0.1, far beyond the per-client cap real users get.
os.environ.setdefault("ONENIGHT_GAMES_PER_MINUTE", "100000")
os.environ.setdefault("ONENIGHT_JOINS_PER_MINUTE", "100000")
os.environ.setdefault("ONENIGHT_JOIN_TABLES_PER_MINUTE", "100000")
os.environ.setdefault("ONENIGHT_TABLE_JOINS_PER_MINUTE", "100000")
os.environ.setdefault("ONENIGHT_WRONG_SEAT_CODES_PER_MINUTE", "100000")


@pytest.fixture(autouse=True)
def _many_games_per_minute(settings: pytest.FixtureRequest) -> None:
    """In-process tests get the same high caps; a test of a cap sets its own value."""
    settings.GAMES_PER_MINUTE = 100000
    settings.JOINS_PER_MINUTE = 100000
    settings.JOIN_TABLES_PER_MINUTE = 100000
    settings.TABLE_JOINS_PER_MINUTE = 100000
    settings.WRONG_SEAT_CODES_PER_MINUTE = 100000


@pytest.fixture(autouse=True)
def _no_kept_table_reads() -> Iterator[None]:
    """The pushes' kept reads (games/tables/reads.py `table_at`) are keyed by table id, and a
    rolled-back test's ids are given out again: each test starts with none."""
    forget_reads()
    yield
    forget_reads()


@pytest.fixture(scope="session", autouse=True)
def _worker_thread_lets_go_of_the_database(django_db_setup: None) -> Iterator[None]:
    """Pages, consumers and the ticker run their database work on one long-lived worker thread
    (games/tables/worker.py), which keeps its connection open between calls; so may asgiref's
    own thread for sync code called from outside a scope. Close them before the test database
    is dropped (PostgreSQL refuses to drop a database someone is connected to)."""
    yield
    for executor in (WORKER, SyncToAsync.single_thread_executor):
        executor.submit(connections.close_all).result(timeout=10)
