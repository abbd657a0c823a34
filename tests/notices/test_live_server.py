"""The notice loop in a real server: daphne serving the app, nobody's page open, a forum game
whose deadline passes; the server's own loop (games/notices/loop.py) fires the deadline and
sends each seat's e-mail to a real SMTP server (aiosmtpd), once each, while it keeps running.
Then the server is stopped and another started on the same database: what was sent is not sent
again, and the next notices come from the new server."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.browser.live_server import REPO_ROOT, LiveServer, run_live_server, server_env

from .conftest import Inbox, free_port

# A server of its own on DATABASE_URL: a backends test (tests/conftest.py).
pytestmark = pytest.mark.backends

SETUP = """
import django
django.setup()
from datetime import timedelta
from django.utils import timezone
from games.notices import owed
from games.notices.models import Subscription
from games.tables import services
from games.tables.models import Table
host = services.table_create(family="werewolf", ruleset="forum", host_name="Ann")
for name in ("Ben", "Cat", "Dan", "Eve", "Fay", "Gus"):
    services.seat_join(table=host.table, name=name)
services.table_start(host=host)
for seat in host.table.seats.all():
    mine = Subscription(seat=seat, email=seat.name.lower() + "@players.example")
    owed.baseline(mine)
    mine.save()
Table.objects.filter(pk=host.table_id).update(deadline=timezone.now() - timedelta(seconds=1))
print(Table.objects.get(pk=host.table_id).code)
"""
PASSED = """
import django, sys
django.setup()
from datetime import timedelta
from django.utils import timezone
from games.tables.models import Table
Table.objects.filter(code=sys.argv[1]).update(deadline=timezone.now() - timedelta(seconds=1))
"""


def run(server: LiveServer, db: Path, script: str, *args: str) -> str:
    """`script` run by Django against the server's database (the same SQLite file)."""
    env = server_env(server.data_dir, db)
    if server.database_url:
        env["DATABASE_URL"] = server.database_url
    else:
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def wait_for(inbox: Inbox, count: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(inbox.messages) < count:
        time.sleep(0.2)
    assert len(inbox.messages) >= count, [m["Subject"] for m in inbox.messages]


@pytest.mark.skipif(os.environ.get("DATABASE_URL") is not None, reason="one SQLite file, reused")
def test_a_running_server_sends_the_notices_once_across_a_restart(tmp_path: Path) -> None:
    inbox = Inbox()
    db = tmp_path / "db.sqlite3"  # both servers': the second is the first restarted
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    env = {
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "ONENIGHT_SITE_URL": "https://moderator.example.org",
        "ONENIGHT_NOTICES_SECONDS": "0.3",
        "ONENIGHT_SQLITE_PATH": str(db),
    }
    try:
        with run_live_server(name="daphne-notices", extra_env=env) as first:
            code = run(first, db, SETUP)
            wait_for(inbox, 7)
            time.sleep(2)  # a few more passes of the loop: nothing is sent twice
            assert Counter(m["Subject"] for m in inbox.messages) == {f"Game {code}: Day 1": 7}
        with run_live_server(name="daphne-notices-again", extra_env=env) as second:
            time.sleep(2)
            assert len(inbox.messages) == 7  # the new server sends nothing already sent
            run(second, db, PASSED, code)
            wait_for(inbox, 14)
            time.sleep(2)
        subjects = Counter(m["Subject"] for m in inbox.messages)
        assert subjects == {f"Game {code}: Day 1": 7, f"Game {code}: Night 2": 7}
        assert sorted(m["To"] for m in inbox.messages)[::2] == sorted(
            f"{n}@players.example" for n in ("ann", "ben", "cat", "dan", "eve", "fay", "gus")
        )
    finally:
        controller.stop()
