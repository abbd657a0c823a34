"""The address to put in links other devices open: the invite (and its QR code), the watch and
rejoin links (issue 35).

A page opened at a loopback address (http://127.0.0.1:8000, as the README says after
`make run`) would otherwise hand out that address, which on a phone is the phone itself. Then:

1. `ONENIGHT_SITE_URL`, when set (settings.SITE_URL): the address the operator says the app has.
2. Otherwise this machine's address on its network, when the server answers there. The app
   does not trust a setting for that: it asks (a TCP connection to that address and the port
   the server itself listens on, from the server itself). Never the port in the request's Host
   header or Origin, which the client writes: it would make the server connect to any port of
   its own network address (a port scanner of this machine) and fill the answers' cache.
   daphne bound to 0.0.0.0 (`make run HOST=0.0.0.0`) answers;
   bound to 127.0.0.1 (plain `make run`) it does not, and the page says how to start it so
   that phones can join.

A page opened at any other address (a name, a LAN address) hands out the address it was opened
at: whoever typed it reached the server with it.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

# A documentation address (RFC 5737): a UDP socket "connected" to it picks the address this
# machine would reach the network from, and sends nothing.
_PROBE_ROUTE = ("192.0.2.1", 9)
_LISTENING_TIMEOUT = 0.5  # seconds: a connection to this machine itself answers at once
# Whether the server answers at (address, port): a running server's binding does not change,
# so each answer is kept for the process's life (a new network address is asked anew).
_listening: dict[tuple[str, int], bool] = {}
_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class ShareRoot:
    """`root`: scheme://host[:port] for links others open. `local_only`: it is this machine's
    own loopback address and no other reaches the server (the page says how to fix that)."""

    root: str
    local_only: bool = False


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 with or without brackets) is this machine's
    own: 127.0.0.0/8, ::1, "localhost" (or a name under it), or the unspecified 0.0.0.0 / ::."""
    host = host.strip("[]").lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def network_address() -> str | None:
    """This machine's address on its network (the one its default route leaves from), or None
    when it has none that is not loopback."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE_ROUTE)
            address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    if address and not is_loopback(address):
        return address
    try:
        candidates = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return None
    return next((a for a in candidates if not is_loopback(a)), None)


def listening_at(address: str, port: int) -> bool:
    """Whether a server answers TCP connections at `address`:`port` (asked once per process)."""
    key = (address, port)
    with _lock:
        known = _listening.get(key)
    if known is not None:
        return known
    try:
        with socket.create_connection(key, timeout=_LISTENING_TIMEOUT):
            answers = True
    except OSError:
        answers = False
    with _lock:
        _listening[key] = answers
    return answers


def _with_port(scheme: str, host: str, port: int | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{shown}" if port in (None, default) else f"{scheme}://{shown}:{port}"


def server_port(value: object) -> int | None:
    """The port the server listens on, as the request says it (Django's SERVER_PORT, the
    websocket scope's server), or None when it says none that is a port."""
    text = str(value or "")
    if not text.isascii() or not text.isdigit() or len(text) > 5:
        return None
    port = int(text)
    return port if 0 < port < 65536 else None


def share_root(scheme: str, host: str, listening_port: int | None) -> ShareRoot:
    """The root for shared links of a page opened at `scheme`://`host` (Host header form,
    e.g. "127.0.0.1:8000") from a server listening on `listening_port` (None: unknown). Only
    that port is probed, and shared, at the network address; the Host header's port, written
    by the client, never is."""
    opened = f"{scheme}://{host}"
    try:
        parts = urlsplit(f"//{host}")
        name = parts.hostname or ""
        _ = parts.port  # a Host whose port is not one (ValueError) is shared as it is
    except ValueError:
        return ShareRoot(opened)
    if not is_loopback(name):
        return ShareRoot(opened)
    if settings.SITE_URL:
        return ShareRoot(settings.SITE_URL)
    lan = network_address()
    if listening_port is not None and lan is not None and listening_at(lan, listening_port):
        return ShareRoot(_with_port(scheme, lan, listening_port))
    return ShareRoot(opened, local_only=True)


def share_root_of_origin(origin: str, listening_port: int | None) -> ShareRoot:
    """`share_root` for a websocket's Origin header ("http://127.0.0.1:8000")."""
    parts = urlsplit(origin)
    if not parts.scheme or not parts.netloc:
        return ShareRoot(origin)
    return share_root(parts.scheme, parts.netloc, listening_port)
