"""The ASGI application the load benchmark serves: the app's own (onenight.asgi) with the
floor's ping (bench/urls.py), plus the floor's websocket `/ws/bench/<room>/` behind the same
origin check and session middleware as the game's.

    python -m daphne -p PORT bench.app:application
"""

from __future__ import annotations

import os
from typing import Any

import django

os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
django.setup()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import URLRouter  # noqa: E402
from django.urls import path  # noqa: E402

from bench.floor import EchoConsumer  # noqa: E402
from games.tables.origin import SameOriginValidator  # noqa: E402
from onenight.asgi import application as app  # noqa: E402

floor = SameOriginValidator(
    AuthMiddlewareStack(URLRouter([path("ws/bench/<str:room>/", EchoConsumer.as_asgi())]))
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> Any:
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/bench/"):
        return await floor(scope, receive, send)
    return await app(scope, receive, send)
