"""Helpers for talking to the table's websocket through channels' test communicator.

The app under test is onenight.asgi.application itself (same-origin check, session/auth
middleware, URL router), with settings.DEADLINE_TICKER off (tests/realtime/conftest.py) so no
ticker task starts. A player is authenticated the way a browser is: a session holding
{"seats": {CODE: seat.token}} in its cookie; Host and Origin are those of http://testserver.

The socket pushes (games/tables/consumers.py): "hello" on connect and on {"type": "sync"},
"panel" after each change of the table, "chat" for each line of a channel the seat reads, and
"pong"; it takes the page's chat lines too (test_socket_chat.py). Everything else a player does
is a POST (`post_chat` here; the game's moves through
tests/factories, as the pages' services).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.http import HttpResponse
from django.urls import reverse

from games.tables.origin import SameOriginValidator
from games.tables.routing import websocket_urlpatterns
from tests.factories import TestTable, client_for

Frame = dict[str, Any]
ORIGIN = b"http://testserver"
# Long enough for a slow CI machine; only reached when a test is about to fail anyway.
WAIT = 3.0
# How long "nothing arrives" is watched for.
QUIET = 0.25


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


def seat_session(table: TestTable, name: str) -> dict[str, Any]:
    return {"seats": {table.code: table.seats[name].token}}


class SocketOpener:
    """Opens communicators and remembers them, so a fixture can close them all."""

    def __init__(self) -> None:
        self.opened: list[WebsocketCommunicator] = []

    def communicator(
        self,
        code: str,
        *,
        cookie: str | None = None,
        version: str | int | None = None,
        after: str | int | None = None,
        origin: bytes | None = ORIGIN,
        host: bytes = b"testserver",
        app: Any = None,
    ) -> WebsocketCommunicator:
        path = f"/ws/table/{code}/"
        query = [f"version={version}"] * (version is not None)
        query += [f"after={after}"] * (after is not None)
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
        version: str | int | None = None,
        after: str | int | None = None,
        extra_cookies: str = "",
    ) -> WebsocketCommunicator:
        """Connect with a session holding `session` (None: no cookie at all); must be accepted.
        `version`: the table version the page says it shows (none: it shows nothing yet)."""
        cookie = None
        if session is not None:
            cookie = f"sessionid={new_session(session)}{extra_cookies}"
        comm = self.communicator(code, cookie=cookie, version=version, after=after)
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected, "the consumer accepts every connection before checking the seat"
        return comm

    async def seat(
        self,
        table: TestTable,
        name: str,
        *,
        version: str | int | None = None,
        after: str | int | None = None,
        path_code: str | None = None,
        extra_cookies: str = "",
    ) -> tuple[WebsocketCommunicator, Frame]:
        """Connect as seat `name` of `table`; returns the socket and its "hello" frame."""
        comm = await self.open(
            path_code or table.code,
            seat_session(table, name),
            version=version,
            after=after,
            extra_cookies=extra_cookies,
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
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        # The communicator's own timeout, so a crashed consumer raises its own exception.
        frame = await comm.receive_json_from(timeout=max(0.01, deadline - loop.time()))
        seen.append(frame)
        if wanted(frame):
            return frame, seen


async def receive_n(comm: WebsocketCommunicator, count: int) -> list[Frame]:
    return [await comm.receive_json_from(timeout=WAIT) for _ in range(count)]


async def expect_closed(comm: WebsocketCommunicator, code: int) -> None:
    """The next thing the consumer does is close the socket with `code`."""
    output = await comm.receive_output(timeout=WAIT)
    assert output["type"] == "websocket.close", output
    assert output.get("code") == code, output


def is_panel(version: int | None = None) -> Callable[[Frame], bool]:
    """A panel push (of at least `version`)."""
    return lambda f: f["type"] == "panel" and (version is None or f["version"] >= version)


def is_chat(text: str | None = None, name: str | None = None) -> Callable[[Frame], bool]:
    return lambda f: (
        f["type"] == "chat"
        and (text is None or f["text"] == text)
        and (name is None or f["name"] == name)
    )


def post_chat(table: TestTable, name: str, text: str, channel: str = "public") -> HttpResponse:
    """Seat `name` sends a chat line as the page's chat form does (htmx POST /g/<code>/chat):
    the answer is the emptied form (200), or the form with the refusal (400/403/409)."""
    client = client_for(table, name)
    return client.post(
        reverse("chat", args=[table.code]),
        {"channel": channel, "text": text},
        HTTP_HX_REQUEST="true",
    )


def refusal(response: HttpResponse) -> str:
    """The refusal a chat form answer shows (its error, or why the chat is closed)."""
    return visible_text(response.content.decode())


def visible_text(fragment: str) -> str:
    """The html with entities decoded, so "Ann's" is found whether or not it was escaped."""
    return html.unescape(fragment)
