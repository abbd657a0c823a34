"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne)."""

from __future__ import annotations

import os

import django
from asgiref.sync import SyncToAsync, ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpRequest
from django.http.response import HttpResponseBase
from django.urls import reverse

from games.worker import WorkerThread
from onenight.garbage import tune_for_server

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "onenight.settings")
# Django must be set up before the consumers (and the models they import) are loaded.
django.setup(set_prefix=False)

# The process's one worker thread (see SharedThread below). It becomes asgiref's single thread
# executor, the one Channels' database_sync_to_async (consumers, the ticker) sends work to, so
# page requests and websocket work share it, and chat can go first in line (games/worker.py).
WORKER = WorkerThread()
SyncToAsync.single_thread_executor = WORKER


class OneHopHandler(ASGIHandler):
    """Django's ASGI handler, but the middleware chain and the view run in ONE hop to the worker
    thread, as under WSGI.

    The stock handler builds the chain in async mode: every sync middleware method and the view
    each cross between the event loop and the worker thread, several crossings per request (a
    quarter of the server's CPU under load, docs/benchmarks.md). Our middleware and views are
    all synchronous, so running the whole chain at once on the worker is the same work, minus
    the crossings.
    """

    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def run_get_response(self, request: HttpRequest) -> HttpResponseBase:
        response = await sync_to_async(self.get_response, thread_sensitive=True)(request)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        return response


django_asgi_app = OneHopHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.origin import SameOriginValidator  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.ticker import TickerMiddleware, start_with_daphne  # noqa: E402
from onenight.templating import compile_templates  # noqa: E402


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
        async with ThreadSensitiveContext(executor=WORKER):
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

# What the first requests after a start would otherwise build on the worker thread, making
# everyone queued behind them wait: the templates, compiled (onenight/templating.py), and the
# URL names' reverse lookup, which every page and panel uses for its links and forms.
compile_templates()
reverse("home")

# Everything is loaded: leave it out of the garbage collector's walks (onenight/garbage.py).
tune_for_server()
