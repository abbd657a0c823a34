"""A real daphne server, and a look into its database.

Plain Python, no pytest: the browser tests' `live_server` fixture uses it, and other tests can
use `run_live_server()` the same way. The server runs in laptop mode (no DJANGO_SECRET_KEY, so
ALLOWED_HOSTS is "*"), with its data in a fresh temporary directory: by default a fresh SQLite
file and Channels' in-memory layer. When DATABASE_URL and REDIS_URL are set (the suite's run
against PostgreSQL and Redis), the server uses that database and that Redis instead, as a
deployed server does; its tables are told apart by their random codes.

The test process never uses Django's ORM while a browser is open (Playwright's sync API runs an
event loop in the test's thread): `GameDB` reads the server's database with plain SQL.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from games.families.onenight.engine import CENTRE_POSITIONS
from games.families.onenight.play import OneNightState

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO_ROOT / "test-artifacts"
# Variables that would turn the server into production mode.
_UNSET = ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS")
# While this file is in the server's data directory, deals go out in deck order (serve.py).
DEAL_IN_ORDER = "deal-in-order"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _loads(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


class GameDB:
    """Plain-SQL access to the server's database, to learn what the pages must show (and, for
    a test of the clock, to shorten a deadline)."""

    def __init__(self, sqlite_path: Path | None, database_url: str | None = None) -> None:
        self.sqlite_path = sqlite_path
        self.database_url = database_url

    @contextlib.contextmanager
    def _connect(self, *, write: bool = False) -> Iterator[Any]:
        if self.database_url:
            import psycopg
            from psycopg.rows import dict_row

            with psycopg.connect(self.database_url, row_factory=dict_row) as conn:
                yield conn
            return
        mode = "rw" if write else "ro"
        conn = sqlite3.connect(f"file:{self.sqlite_path}?mode={mode}", uri=True, timeout=10)
        conn.row_factory = sqlite3.Row
        try:
            with conn:  # commits a write
                yield conn
        finally:
            conn.close()

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.database_url else sql

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._connect() as conn:
            return [dict(row) for row in conn.execute(self._sql(sql), params)]

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        with self._connect(write=True) as conn:
            conn.execute(self._sql(sql), params)

    def table(self, code: str) -> dict[str, Any]:
        rows = self.query("SELECT * FROM tables_table WHERE code = ?", (code,))
        assert rows, f"no table {code} in the server's database"
        table = rows[0]
        for key in ("state", "options"):
            table[key] = _loads(table[key])
        return table

    def seats(self, code: str) -> dict[str, dict[str, Any]]:
        """The table's seats by player name, in seat order."""
        rows = self.query(
            "SELECT s.* FROM tables_seat s JOIN tables_table t ON t.id = s.table_id"
            " WHERE t.code = ? ORDER BY s.position",
            (code,),
        )
        return {row["name"]: row for row in rows}

    def game(self, code: str) -> OneNightState:
        """The One Night game at the table, read with the family's own reader."""
        state = self.table(code)["state"]
        assert state, f"table {code} has not been dealt"
        return OneNightState(state)

    def start_roles(self, code: str) -> dict[str, str]:
        """The card each player and centre position was dealt."""
        return {place: role.value for place, role in self.game(code).deal.cards.items()}

    def final_roles(self, code: str) -> dict[str, str]:
        """The card each player and centre position holds at dawn (after the night)."""
        return {place: role.value for place, role in self.game(code).night().final.items()}

    def centre(self, code: str) -> dict[str, str]:
        starts = self.start_roles(code)
        return {position: starts[position] for position in CENTRE_POSITIONS}

    def chat_texts(self, code: str, text_like: str) -> list[str]:
        rows = self.query(
            "SELECT c.text FROM tables_chatline c JOIN tables_table t ON t.id = c.table_id"
            " WHERE t.code = ? AND c.text LIKE ? ORDER BY c.id",
            (code, text_like),
        )
        return [row["text"] for row in rows]

    def set_deadline(self, code: str, when: datetime) -> None:
        """Store a new deadline for the table's phase, as if it had been set so (the pages
        learn it with the table's next push)."""
        value: Any = when
        if not self.database_url:  # Django's format on SQLite: UTC, as text
            value = when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
        self.execute("UPDATE tables_table SET deadline = ? WHERE code = ?", (value, code))


@dataclass(frozen=True, slots=True)
class LiveServer:
    url: str  # "http://127.0.0.1:<port>", no trailing slash
    host: str
    port: int
    data_dir: Path
    db_path: Path | None  # the SQLite file, None on PostgreSQL
    database_url: str | None
    log_path: Path
    process: subprocess.Popen[bytes]

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    @property
    def db(self) -> GameDB:
        return GameDB(self.db_path, self.database_url)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    @contextlib.contextmanager
    def deals_in_order(self) -> Iterator[None]:
        """Within the block, the server deals the cards in the order of the host's counters
        (seats first, then left, middle, right) and the voting ring is the seat order."""
        flag = self.data_dir / DEAL_IN_ORDER
        flag.touch()
        try:
            yield
        finally:
            flag.unlink(missing_ok=True)

    @contextlib.contextmanager
    def deals_with_seed(self, seed: int) -> Iterator[None]:
        """Within the block, the server deals with `random.Random(seed)`: the deal (and the
        voting ring after it) that the engine's `deal_cards` makes with the same source."""
        flag = self.data_dir / DEAL_IN_ORDER
        flag.write_text(str(seed))
        try:
            yield
        finally:
            flag.unlink(missing_ok=True)


def server_env(
    data_dir: Path,
    db_path: Path | None,
    extra: Mapping[str, str] | None = None,
    unset: tuple[str, ...] = (),
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _UNSET and k not in unset}
    env.update(
        ONENIGHT_DATA_DIR=str(data_dir),
        DJANGO_SETTINGS_MODULE="onenight.settings",
        PYTHONUNBUFFERED="1",
    )
    if db_path is not None:
        env["ONENIGHT_SQLITE_PATH"] = str(db_path)
    env.update(extra or {})
    return env


def _wait_until_answering(server: LiveServer, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(
                f"daphne exited with code {server.process.returncode}:\n{server.log_text()}"
            )
        try:
            with urllib.request.urlopen(server.url + "/", timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answered HTTP, even if not with a 200
        except (urllib.error.URLError, OSError) as error:
            last_error = error
            time.sleep(0.1)
    raise RuntimeError(
        f"daphne did not answer on {server.url} within {timeout} s ({last_error}):\n"
        f"{server.log_text()}"
    )


@contextlib.contextmanager
def run_live_server(
    *,
    name: str = "daphne",
    extra_env: Mapping[str, str] | None = None,
    unset_env: tuple[str, ...] = (),
    bind: str = "127.0.0.1",
    startup_timeout: float = 20.0,
) -> Iterator[LiveServer]:
    """Migrate the database, serve the app with daphne (tests/browser/serve.py), stop it
    afterwards. Both DATABASE_URL and REDIS_URL set: that database and Redis; otherwise a fresh
    SQLite file and the in-memory layer. `unset_env`: variables of this process the server does
    not inherit (say, the suite's lifted caps). `bind`: the address daphne listens on
    ("0.0.0.0": every interface, as `make run HOST=0.0.0.0`); the browser opens 127.0.0.1.

    daphne's output goes to test-artifacts/<name>.log, kept after the run for diagnosis.
    """
    data_dir = Path(tempfile.mkdtemp(prefix="onenight-live-"))
    database_url = os.environ.get("DATABASE_URL") if os.environ.get("REDIS_URL") else None
    db_path = None if database_url else data_dir / "db.sqlite3"
    env = server_env(data_dir, db_path, extra_env, unset_env)
    if not database_url:
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"{name}.log"
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if migrate.returncode != 0:
        shutil.rmtree(data_dir, ignore_errors=True)
        raise RuntimeError(f"migrate failed:\n{migrate.stdout}\n{migrate.stderr}")

    port = free_port()
    host = "127.0.0.1"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.browser.serve",
                "-b",
                bind,
                "-p",
                str(port),
                "onenight.asgi:application",
            ],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    server = LiveServer(
        url=f"http://{host}:{port}",
        host=host,
        port=port,
        data_dir=data_dir,
        db_path=db_path,
        database_url=database_url,
        log_path=log_path,
        process=process,
    )
    try:
        _wait_until_answering(server, startup_timeout)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        shutil.rmtree(data_dir, ignore_errors=True)
