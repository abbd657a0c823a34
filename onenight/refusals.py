"""What the server answers around Django's middleware: the security headers on every HTTP
response, and a socket to an address nobody serves refused instead of failing.

Django's own middleware (settings.MIDDLEWARE, the clickjacking and CSP middleware first of
all) puts the security headers on every response its handler builds from a request. A few
responses are built before that chain runs: Django's ASGI handler answers a request it cannot
even read (a body over DATA_UPLOAD_MAX_MEMORY_SIZE, undecodable headers) with a bare 400 or
413, and an exception in the outermost middleware bypasses the others. `SecurityHeaders`
wraps the HTTP application and adds, to any response that lacks them, the very headers the
settings give every page (docs/security.md, issue 36 item 3). It never overwrites a header a
response already has.

What the ASGI server (daphne) writes itself, without asking the application, cannot carry
them: its websocket handshake refusals and its 400 for a request line it cannot read are a
status line with no header and no body, which a browser has nothing to render or frame from
(docs/security.md, "Every response carries these headers").
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.utils.csp import build_policy

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def security_headers() -> list[tuple[bytes, bytes]]:
    """The headers every response carries, from the settings that Django's middleware reads:
    the Content-Security-Policy, X-Frame-Options, nosniff, the referrer and opener policies."""
    headers: list[tuple[str, str]] = []
    if settings.SECURE_CSP:
        headers.append(("Content-Security-Policy", build_policy(settings.SECURE_CSP)))
    headers.append(("X-Frame-Options", getattr(settings, "X_FRAME_OPTIONS", "DENY").upper()))
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append(("X-Content-Type-Options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        headers.append(("Referrer-Policy", settings.SECURE_REFERRER_POLICY))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers.append(("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    return [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]


class SecurityHeaders:
    """ASGI middleware for HTTP: every `http.response.start` leaves with the security headers,
    those the response has already kept as they are."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers: list[tuple[bytes, bytes]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.headers is None:
            self.headers = security_headers()
        wanted = self.headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {bytes(name).lower() for name, _value in message.get("headers", ())}
                missing = [(n, v) for n, v in wanted if n not in present]
                if missing:
                    message = {**message, "headers": [*message.get("headers", ()), *missing]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class NoSuchSocket(WebsocketConsumer):
    """A websocket to an address no route serves: refused (daphne answers the handshake with
    a 403), where Channels' router would raise and daphne answer 500."""

    def connect(self) -> None:
        self.close()
