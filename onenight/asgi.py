"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne)."""

from __future__ import annotations

import os

from asgiref.sync import SyncToAsync, ThreadSensitiveContext
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "onenight.settings")
# Django must be set up before the consumers (and the models they import) are loaded.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.origin import SameOriginValidator  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.ticker import TickerMiddleware, start_with_daphne  # noqa: E402


class SharedThread:
    """Run every HTTP request's synchronous work (views, templates, queries) on the one thread
    that Channels' database_sync_to_async already uses, instead of a new thread per request.

    Django enters a fresh ThreadSensitiveContext for each request, which costs two thread
    starts on the event loop (the loop that also delivers every websocket frame) and a new
    database connection per request. One worker thread per process means one connection per
    process (PostgreSQL never runs out), no contention for the interpreter between threads,
    and the event loop free for I/O; throughput grows with processes (docs/deploy.md,
    docs/benchmarks.md).
    """

    def __init__(self, app: object) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: object, send: object) -> object:
        async with ThreadSensitiveContext(executor=SyncToAsync.single_thread_executor):
            return await self.app(scope, receive, send)  # type: ignore[operator]


application = TickerMiddleware(
    ProtocolTypeRouter(
        {
            "http": SharedThread(django_asgi_app),
            "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        }
    )
)

# Deadlines must fire with no browser open: start the ticker with the server, not the first page.
start_with_daphne()
