"""Settings shared by the whole suite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from asgiref.sync import SyncToAsync
from django.conf import settings
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
# Every server a test starts has a data folder of its own; they all share this process's
# derived cache (One Night's fake-quote patterns), so each does not build it again as it starts
# (games/tables/warming.py: about 8 s of CPU each).
os.environ.setdefault("ONENIGHT_DERIVED_CACHE", str(settings.CACHES["derived"]["LOCATION"]))


# `make test` runs the suite twice: on the embedded defaults, then against PostgreSQL + Redis
# (DATABASE_URL, REDIS_URL). The second run is `-m backends`: only the tests whose outcome could
# differ there. A test is marked here when it can reach the database or the channel layer:
# - it has pytest-django's database (the `django_db` marker, or one of the fixtures below that
#   open it). Every other test is refused the database by pytest-django itself, so an ORM call
#   sneaking into an unmarked test fails loudly rather than going unchecked on PostgreSQL;
# - it runs against a server process, whose database and channel layer follow DATABASE_URL and
#   REDIS_URL (every test in tests/browser, marked there; the multi-process `cluster`);
# - it is in tests/realtime or tests/security, whose autouse `fresh_channel_layer` is there
#   because their tests send through the channel layer;
# - its module says so with `pytest.mark.backends` (a server or script it starts on its own).
# The rest (the pure engines and scenario runners, the bot's and the templates' unit tests, the
# settings read with an environment of their own, the restart test on its own SQLite file) give
# the same result on any backend, and run once.
BACKEND_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "cluster",
        "fresh_channel_layer",
    }
)


# `make test` runs the suite in two processes (pytest-xdist, `--dist loadgroup`). The tests that
# start server processes or a browser (SERVERS: folders and files, from tests/) share one group,
# run one after the other in one process: one Chromium and one live server for all the browser
# tests, and never two servers of fixed names and shared databases (the multi-process cluster's)
# at once. The translation tests (tests/i18n) share another: makemessages writes its scratch
# files beside the project's templates, and two runs of it at once delete each other's. The rest
# are spread over both processes, each with its own test database (pytest-django names it after
# the worker).
SERVERS = (
    "browser/",
    "multiprocess/",
    "faults/test_restart.py",
    "notices/test_live_server.py",
    "security/test_client_address.py",
    "bench/test_smoke.py",
)
TESTS = os.path.dirname(os.path.abspath(__file__))


# tryfirst: pytest-xdist reads the groups in its own hook of this name, registered before this
# file; without it the groups would be set after xdist had looked.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or fixtures & BACKEND_FIXTURES:
            item.add_marker(pytest.mark.backends)
        where = os.path.relpath(str(item.path), TESTS).replace(os.sep, "/")
        if where.startswith(SERVERS):
            item.add_marker(pytest.mark.xdist_group("servers"))
        elif where.startswith("i18n/"):
            item.add_marker(pytest.mark.xdist_group("makemessages"))


# Two test processes on one Redis (the second run of `make test`): each gets its own prefix for
# the channel layer's groups, since both number their tables from 1 in their own databases and
# would otherwise hear each other's pushes. A server a test starts keeps the settings' prefix:
# those tests run in one process (SERVERS).
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER and "prefix" in settings.CHANNEL_LAYERS["default"].get("CONFIG", {}):
    settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] += f"-{_WORKER}"


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
