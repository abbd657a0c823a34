"""Websocket origin check: only pages served by this site may open a game socket.

Channels' AllowedHostsOriginValidator compares the Origin header with ALLOWED_HOSTS, which on a
laptop is "*" (friends join by the machine's address) and so would let any web page open a
socket with a visitor's cookies. This validator also requires the Origin to be the same host
(and port) the socket was opened on, as the browser's Host header says.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier


class SameOriginValidator:
    """Deny a websocket whose Origin is missing, or not the host it connects to."""

    def __init__(self, application: Any) -> None:
        self.application = AllowedHostsOriginValidator(application)
        self.denier = WebsocketDenier()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            headers = dict(scope.get("headers", []))
            origin = headers.get(b"origin", b"").decode("latin-1")
            host = headers.get(b"host", b"").decode("latin-1").lower()
            parsed = urlparse(origin)
            if not origin or not host or (parsed.netloc or "").lower() != host:
                return await self.denier(scope, receive, send)
        return await self.application(scope, receive, send)
