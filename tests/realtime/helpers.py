"""Helpers for talking to the game consumer through channels' test communicator.

The app under test is onenight.asgi.application itself (same-origin check, session/auth
middleware, URL router), with settings.DEADLINE_TICKER off (tests/realtime/conftest.py) so no
ticker task starts. A player is authenticated the way a browser is: a database session holding
{"seats": {CODE: seat.token}} and its cookie; Host and Origin are those of http://testserver.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import html
import weakref
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games.origin import SameOriginValidator
from games.routing import websocket_urlpatterns
from tests.factories import Table

Frame = dict[str, Any]
ORIGIN = b"http://testserver"
# Long enough for a slow CI machine; only reached when a test is about to fail anyway.
WAIT = 3.0
# How long "nothing arrives" is watched for.
QUIET = 0.25
# Frames a helper read past (send_chat, waiting for its reply) that the test has not seen yet.
_unread: weakref.WeakKeyDictionary[WebsocketCommunicator, collections.deque[Frame]] = (
    weakref.WeakKeyDictionary()
)


def websocket_app() -> Any:
    """The project's ASGI application (HTTP and websockets), as daphne serves it."""
    from onenight.asgi import application

    return application


def fresh_websocket_stack() -> Any:
    """The websocket stack of onenight/asgi.py, built now: the origin check reads
    ALLOWED_HOSTS when it is built, so a test that overrides the setting needs a new one."""
    return SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))


def new_session(data: Mapping[str, Any]) -> str:
    """A saved session holding `data`, in the configured session engine; returns the value of
    the sessionid cookie (for signed-cookie sessions, the signed data itself)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    for key, value in data.items():
        store[key] = value
    store.save()
    assert store.session_key
    return store.session_key


class SocketOpener:
    """Opens communicators and remembers them, so a fixture can close them all."""

    def __init__(self) -> None:
        self.opened: list[WebsocketCommunicator] = []

    def communicator(
        self,
        code: str,
        *,
        cookie: str | None = None,
        after: str | int | None = None,
        phase: str | None = None,
        origin: bytes | None = ORIGIN,
        host: bytes = b"testserver",
        app: Any = None,
        panel: bool = False,
    ) -> WebsocketCommunicator:
        path = f"/ws/game/{code}/"
        query = [f"after={after}"] * (after is not None) + [f"phase={phase}"] * (phase is not None)
        query += ["panel=1"] * panel
        if query:
            path += "?" + "&".join(query)
        headers: list[tuple[bytes, bytes]] = [(b"host", host)]
        if cookie is not None:
            headers.append((b"cookie", cookie.encode()))
        if origin is not None:
            headers.append((b"origin", origin))
        comm = WebsocketCommunicator(app or websocket_app(), path, headers=headers)
        self.opened.append(comm)
        return comm

    async def open(
        self,
        code: str,
        session: Mapping[str, Any] | None,
        *,
        after: str | int | None = None,
        phase: str | None = None,
        extra_cookies: str = "",
        panel: bool = False,
    ) -> WebsocketCommunicator:
        """Connect with a session holding `session` (None: no cookie at all); must be accepted.
        `phase`: the phase the page says it shows; `panel`: ask for the panel in the hello."""
        cookie = None
        if session is not None:
            key = await database_sync_to_async(new_session)(session)
            cookie = f"sessionid={key}{extra_cookies}"
        comm = self.communicator(code, cookie=cookie, after=after, phase=phase, panel=panel)
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected, "the consumer accepts every connection before checking the seat"
        return comm

    async def seat(
        self,
        table: Table,
        name: str,
        *,
        after: str | int | None = None,
        phase: str | None = None,
        path_code: str | None = None,
        extra_cookies: str = "",
        panel: bool = False,
    ) -> tuple[WebsocketCommunicator, Frame]:
        """Connect as seat `name` of `table`; returns the socket and its "hello" frame."""
        comm = await self.open(
            path_code or table.code,
            {"seats": {table.code: table.seats[name].token}},
            after=after,
            phase=phase,
            extra_cookies=extra_cookies,
            panel=panel,
        )
        hello = await comm.receive_json_from(timeout=WAIT)
        assert hello["type"] == "hello", hello
        return comm, hello

    async def close_all(self) -> None:
        for comm in self.opened:
            # Already closed or crashed: the test has checked what it needed to.
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await comm.disconnect(timeout=1)


async def receive_until(
    comm: WebsocketCommunicator, wanted: Callable[[Frame], bool], timeout: float = WAIT
) -> tuple[Frame, list[Frame]]:
    """Read frames until one matches `wanted`; returns it and every frame read (it included)."""
    seen: list[Frame] = []
    unread = _unread.get(comm)
    while unread:
        frame = unread.popleft()
        seen.append(frame)
        if wanted(frame):
            return frame, seen
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        # The communicator's own timeout, so a crashed consumer raises its own exception.
        frame = await comm.receive_json_from(timeout=max(0.01, deadline - loop.time()))
        seen.append(frame)
        if wanted(frame):
            return frame, seen


async def receive_n(comm: WebsocketCommunicator, count: int) -> list[Frame]:
    return [(await receive_until(comm, lambda _: True))[0] for _ in range(count)]


async def expect_closed(comm: WebsocketCommunicator, code: int) -> None:
    """The next thing the consumer does is close the socket with `code`."""
    output = await comm.receive_output(timeout=WAIT)
    assert output["type"] == "websocket.close", output
    assert output.get("code") == code, output


async def send_chat(comm: WebsocketCommunicator, text: object) -> Frame:
    """Send a chat message and return the sender's own reply ("sent" or "error").

    The sender also gets its line back as a "chat" frame, before or after "sent" (the page's
    frames and the game's events are handled side by side): frames read before the reply stay
    unread for `receive_until`, where a test that wants the line finds it.
    """
    await comm.send_json_to({"type": "chat", "text": text})
    frame, seen = await receive_until(comm, lambda f: f["type"] in ("sent", "error"))
    _unread.setdefault(comm, collections.deque()).extend(seen[:-1])
    return frame


def is_status(phase: str | None = None) -> Callable[[Frame], bool]:
    return lambda f: f["type"] == "status" and (phase is None or f["phase"] == phase)


def is_chat_from(name: str) -> Callable[[Frame], bool]:
    return lambda f: f["type"] == "chat" and f["name"] == name


def visible_text(fragment: str) -> str:
    """The html with entities decoded, so "Ann's" is found whether or not it was escaped."""
    return html.unescape(fragment)
