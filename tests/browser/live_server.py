"""A real daphne server on its own SQLite file, and a read-only look into that file.

Plain Python, no pytest: the browser tests' `live_server` fixture uses it, and other tests (the
websocket tests) can use `run_live_server()` the same way. The server runs in laptop mode (no
DJANGO_SECRET_KEY, so ALLOWED_HOSTS is "*"), with its data in a fresh temporary directory.
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
from pathlib import Path
from typing import Any

ASGI_APP = "onenight.asgi:application"
REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO_ROOT / "test-artifacts"
# Variables that would turn the server into production mode or point it at another database.
_UNSET = ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class GameDB:
    """Read-only access to the server's SQLite file, to learn what the pages must show."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
        conn.row_factory = sqlite3.Row
        try:
            yield conn
        finally:
            conn.close()

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self._connect() as conn:
            return [dict(row) for row in conn.execute(sql, params)]

    def game(self, code: str) -> dict[str, Any]:
        rows = self.query("SELECT * FROM games_game WHERE code = ?", (code,))
        assert rows, f"no game {code} in {self.path}"
        game = rows[0]
        for key in ("result", "deck", "vote_ring"):
            if isinstance(game.get(key), str):
                game[key] = json.loads(game[key])
        return game

    def seats(self, code: str) -> dict[str, dict[str, Any]]:
        """The game's seats by player name, in seat order."""
        rows = self.query(
            "SELECT s.* FROM games_seat s JOIN games_game g ON g.id = s.game_id"
            " WHERE g.code = ? ORDER BY s.position",
            (code,),
        )
        return {row["name"]: row for row in rows}

    def centre(self, code: str) -> dict[str, dict[str, Any]]:
        """The centre cards by position ("left", "middle", "right")."""
        rows = self.query(
            "SELECT c.* FROM games_centrecard c JOIN games_game g ON g.id = c.game_id"
            " WHERE g.code = ?",
            (code,),
        )
        return {row["position"]: row for row in rows}


@dataclass(frozen=True, slots=True)
class LiveServer:
    url: str  # "http://127.0.0.1:<port>", no trailing slash
    host: str
    port: int
    data_dir: Path
    db_path: Path
    log_path: Path
    process: subprocess.Popen[bytes]

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    @property
    def db(self) -> GameDB:
        return GameDB(self.db_path)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def server_env(data_dir: Path, db_path: Path, extra: Mapping[str, str] | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _UNSET}
    env.update(
        ONENIGHT_DATA_DIR=str(data_dir),
        ONENIGHT_SQLITE_PATH=str(db_path),
        DJANGO_SETTINGS_MODULE="onenight.settings",
        PYTHONUNBUFFERED="1",
    )
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
    startup_timeout: float = 20.0,
) -> Iterator[LiveServer]:
    """Migrate a fresh SQLite file, serve the app with daphne, stop it afterwards.

    daphne's output goes to test-artifacts/<name>.log, kept after the run for diagnosis.
    """
    data_dir = Path(tempfile.mkdtemp(prefix="onenight-live-"))
    db_path = data_dir / "db.sqlite3"
    env = server_env(data_dir, db_path, extra_env)
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
                "daphne",
                "-b",
                host,
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
