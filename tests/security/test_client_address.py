"""The per-address caps behind the shipped proxy: the client cannot choose its own address.

Issue 25, hole 3: nginx forwards the client's X-Forwarded-For with the real address appended,
and daphne's --proxy-headers took the list's first address, which the client wrote: a new
forged address per request slipped past the cap on games created per minute. The proxy now
sets X-Real-IP to the address it sees (deploy/nginx.conf) and bin/serve has daphne read that
header alone.

The same holds for the cap on seats taken per address (issue 25, hole 6), which reads the same
address.

The server here is started by bin/serve itself (one process, on the embedded SQLite, with the
production settings it checks), and each request carries the headers nginx would send: the
client's forged X-Forwarded-For with the real address appended, and X-Real-IP.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.servers import ARTIFACTS, REPO, free_port

NGINX_CONF = REPO / "deploy" / "nginx.conf"
REAL_ADDRESS = "203.0.113.7"  # documentation range: only ever a header value here
GAMES_PER_MINUTE = 5
JOINS_PER_MINUTE = 6


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """bin/serve with one daphne process; yields its base URL."""
    data = tmp_path_factory.mktemp("serve")
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL") and not k.startswith("DJANGO_")
    }
    env.update(
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_STATIC_ROOT=str(data / "static"),
        ONENIGHT_DATA_DIR=str(data),
        ONENIGHT_GAMES_PER_MINUTE=str(GAMES_PER_MINUTE),
        ONENIGHT_JOINS_PER_MINUTE=str(JOINS_PER_MINUTE),
        ONENIGHT_TICKER="0",
        PYTHON=sys.executable,
    )
    ARTIFACTS.mkdir(exist_ok=True)
    log = (ARTIFACTS / "bin-serve.log").open("wb")
    process = subprocess.Popen(
        ["bin/serve", "1", str(port)],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: bin/serve, its loop and daphne
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                pytest.fail(f"bin/serve exited; see {log.name}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"bin/serve did not start; see {log.name}")
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        log.close()


def through_nginx(base: str, forged: str, real: str) -> dict[str, str]:
    """The headers nginx (deploy/nginx.conf) adds to a request from `real` that came with
    X-Forwarded-For: `forged`."""
    return {
        "X-Forwarded-For": f"{forged}, {real}",  # $proxy_add_x_forwarded_for
        "X-Real-IP": real,  # $remote_addr
        "X-Forwarded-Proto": "https",
        "Origin": base.replace("http://", "https://"),
        "Referer": base.replace("http://", "https://") + "/",
    }


def create_game(
    base: str, forged: str, real: str = REAL_ADDRESS, game: str = "onenight:house"
) -> httpx.Response:
    headers = through_nginx(base, forged, real)
    with httpx.Client(timeout=10) as client:
        home = client.get(base + "/", headers=headers)
        assert home.status_code == 200, home.text[:300]
        token = home.cookies["csrftoken"]
        form = {"host_name": "Ann", "game": game, "csrfmiddlewaretoken": token}
        return client.post(
            base + "/games/new",
            data=form,
            headers={**headers, "Cookie": f"csrftoken={token}"},
        )


def join_game(base: str, path: str, name: str, forged: str, real: str) -> httpx.Response:
    """A newcomer's browser opens the invite link and takes a seat."""
    headers = through_nginx(base, forged, real)
    with httpx.Client(timeout=10) as client:
        page = client.get(base + path, headers=headers)
        assert page.status_code == 200, page.text[:300]
        token = page.cookies["csrftoken"]
        return client.post(
            base + path,
            data={"name": name, "csrfmiddlewaretoken": token},
            headers={**headers, "Cookie": f"csrftoken={token}"},
        )


def test_a_forged_forwarded_for_does_not_lift_the_game_cap(served: str) -> None:
    """Every request claims another first address; the cap counts the real one all the same."""
    for i in range(GAMES_PER_MINUTE):
        response = create_game(served, forged=f"198.51.100.{i + 1}")
        assert response.status_code == 302, response.text[:300]
    refused = create_game(served, forged="198.51.100.99")
    assert refused.status_code == 400
    assert f"You have created {GAMES_PER_MINUTE} games in the last minute" in refused.text
    # Another client (another real address) is not held back by the first one's games.
    other = create_game(served, forged="198.51.100.1", real="203.0.113.8")
    assert other.status_code == 302, other.text[:300]


def test_a_forged_forwarded_for_does_not_lift_the_join_cap(served: str) -> None:
    """Seats taken through the invite link from one real address, each claiming another
    first address: the cap on seats per address counts the real one."""
    created = create_game(
        served, forged="198.51.100.50", real="203.0.113.30", game="onenight:official"
    )
    assert created.status_code == 302, created.text[:300]
    invite = created.headers["Location"].rstrip("/") + "/join"
    joiner = "203.0.113.31"
    for i in range(JOINS_PER_MINUTE):
        response = join_game(served, invite, f"Guest {i}", f"198.51.100.{60 + i}", joiner)
        assert response.status_code == 302, response.text[:300]
    refused = join_game(served, invite, "Guest more", "198.51.100.99", joiner)
    assert refused.status_code == 400
    assert f"{JOINS_PER_MINUTE} seats were taken from your address in the last minute" in (
        refused.text
    )
    # A friend at another address still sits down.
    friend = join_game(served, invite, "Ben", "198.51.100.60", "203.0.113.32")
    assert friend.status_code == 302, friend.text[:300]


def test_the_shipped_proxy_sets_the_address_the_server_reads() -> None:
    """nginx overwrites X-Real-IP with the address it sees, in both of its locations, and
    bin/serve has daphne read that header, not X-Forwarded-For."""
    conf = NGINX_CONF.read_text()
    locations = re.findall(r"location [^{]+\{(.*?)\n    \}", conf, flags=re.S)
    assert len(locations) == 2
    for body in locations:
        assert re.search(r"proxy_set_header X-Real-IP \$remote_addr;", body), body
    serve = (REPO / "bin" / "serve").read_text()
    assert "--proxy-headers-host X-Real-IP" in serve
    assert Path(REPO / "bin" / "serve").stat().st_mode & 0o111
