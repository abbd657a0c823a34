"""The address links are shared at (issue 35): a page opened at a loopback address hands out
ONENIGHT_SITE_URL, else this machine's network address when the server answers there, else
its own address with a note saying how to start the server for phones (games/tables/
sharing.py). `make run` prints the same (manage.py invite_address)."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.tables import services, sharing
from games.tables.sharing import is_loopback, network_address, share_root, share_root_of_origin

LAN = network_address()
needs_lan = pytest.mark.skipif(LAN is None, reason="this machine has no network address")


@contextmanager
def listening(bind: str) -> Iterator[int]:
    """A TCP socket listening on `bind` (a stand-in for daphne); yields its port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind((bind, 0))
        server.listen()
        yield int(server.getsockname()[1])


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1.2.3", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("app.localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", True),
        ("192.168.1.5", False),
        ("10.0.0.2", False),
        ("werewolf.example.org", False),
        ("fe80::1", False),
    ],
)
def test_what_counts_as_this_machines_own_address(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_a_page_opened_at_a_network_address_or_a_name_shares_that_address(settings) -> None:
    settings.SITE_URL = "https://werewolf.example.org"
    assert share_root("http", "192.168.1.5:8000", 8000).root == "http://192.168.1.5:8000"
    assert share_root("https", "games.example.net", 443).root == "https://games.example.net"
    assert not share_root("http", "192.168.1.5:8000", 8000).local_only


def test_the_site_url_wins_at_a_loopback_address(settings) -> None:
    settings.SITE_URL = "https://werewolf.example.org"
    shared = share_root("http", "127.0.0.1:8000", 8000)
    assert shared.root == "https://werewolf.example.org" and not shared.local_only


@needs_lan
def test_a_server_listening_on_every_interface_is_shared_at_the_network_address(
    settings,
) -> None:
    settings.SITE_URL = ""
    with listening("0.0.0.0") as port:
        for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
            shared = share_root("http", host, port)
            assert shared.root == f"http://{LAN}:{port}" and not shared.local_only
        assert share_root_of_origin(f"http://127.0.0.1:{port}", port).root == f"http://{LAN}:{port}"


def test_a_server_listening_on_loopback_only_is_shared_as_it_is_with_a_note(settings) -> None:
    settings.SITE_URL = ""
    with listening("127.0.0.1") as port:
        shared = share_root("http", f"127.0.0.1:{port}", port)
    assert shared.root == f"http://127.0.0.1:{port}" and shared.local_only


@pytest.mark.django_db
def test_the_lobby_says_how_to_let_phones_in(settings) -> None:
    """The invite (and its QR code) of a lobby opened at 127.0.0.1 while the server listens
    there only: the page's own address, and a note naming the command that fixes it."""
    settings.SITE_URL = ""
    host = services.table_create(family="werewolf", ruleset="classic", host_name="Ann")
    client = Client()
    client.get(reverse("rejoin", args=[host.table.code, host.token]))
    with listening("127.0.0.1") as port:
        page = client.get(reverse("table", args=[host.table.code]), HTTP_HOST=f"127.0.0.1:{port}")
    text = page.content.decode()
    assert f'value="http://127.0.0.1:{port}/g/{host.table.code}/join"' in text
    assert 'id="invite-local-only"' in text
    assert "make run HOST=0.0.0.0" in text
    # Opened at a network address, the invite is that address, with no note.
    page = client.get(reverse("table", args=[host.table.code]), HTTP_HOST="192.168.1.5:8000")
    text = page.content.decode()
    assert f'value="http://192.168.1.5:8000/g/{host.table.code}/join"' in text
    assert 'id="invite-local-only"' not in text


@needs_lan
@pytest.mark.django_db
def test_the_lobby_opened_at_loopback_invites_at_the_network_address(settings) -> None:
    settings.SITE_URL = ""
    host = services.table_create(family="onenight", ruleset="house", host_name="Ann")
    client = Client()
    client.get(reverse("rejoin", args=[host.table.code, host.token]))
    with listening("0.0.0.0") as port:
        page = client.get(
            reverse("table", args=[host.table.code]),
            HTTP_HOST=f"127.0.0.1:{port}",
            SERVER_PORT=str(port),
        )
    text = page.content.decode()
    invite = f"http://{LAN}:{port}/g/{host.table.code}/join"
    assert f'value="{invite}"' in text
    assert 'id="invite-local-only"' not in text
    rejoin = re.search(r'value="(http://[^"]+/rejoin/[^"]+)"', text)
    assert rejoin is not None and rejoin.group(1).startswith(f"http://{LAN}:{port}/")


def _printed(*args: str) -> str:
    out = StringIO()
    call_command("invite_address", *args, stdout=out)
    return out.getvalue()


def test_make_run_prints_the_address_to_share(settings) -> None:
    settings.SITE_URL = ""
    alone = _printed("127.0.0.1", "8000")
    assert "http://127.0.0.1:8000" in alone and "make run HOST=0.0.0.0" in alone
    assert "http://192.168.1.5:8000" in _printed("192.168.1.5", "8000")
    everywhere = _printed("0.0.0.0", "8000")
    assert "http://127.0.0.1:8000" in everywhere
    if LAN is not None:
        assert f"http://{LAN}:8000" in everywhere
    settings.SITE_URL = "https://werewolf.example.org"
    assert "https://werewolf.example.org" in _printed("0.0.0.0", "8000")


@pytest.mark.django_db
def test_only_the_port_the_server_listens_on_is_probed_never_the_host_headers(
    settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client writes the Host header: `Host: 127.0.0.1:22` must not make the server connect
    to port 22 of its own network address (nor fill the answers' cache with every port). The
    probe asks the port the request says the server listens on (SERVER_PORT) and nothing else."""
    settings.SITE_URL = ""
    probed: list[tuple[str, int]] = []

    def listening_at(address: str, port: int) -> bool:
        probed.append((address, port))
        return False

    monkeypatch.setattr(sharing, "network_address", lambda: "192.0.2.50")
    monkeypatch.setattr(sharing, "listening_at", listening_at)
    host = services.table_create(family="onenight", ruleset="house", host_name="Ann")
    client = Client()
    client.get(reverse("rejoin", args=[host.table.code, host.token]))
    for port in (22, 6379, 65535):
        page = client.get(
            reverse("table", args=[host.table.code]),
            HTTP_HOST=f"127.0.0.1:{port}",
            SERVER_PORT="8000",
        )
        assert page.status_code == 200
    assert probed and set(probed) == {("192.0.2.50", 8000)}
    probed.clear()
    assert share_root_of_origin("http://127.0.0.1:22", 8000).local_only
    assert share_root_of_origin("http://127.0.0.1:22", None).local_only
    assert probed == [("192.0.2.50", 8000)]
