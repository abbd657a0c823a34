"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne)."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "onenight.settings")
# Django must be set up before the consumers (and the models they import) are loaded.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

from games.notices import loop as notices  # noqa: E402
from games.tables.clock import TickerMiddleware, start_with_daphne  # noqa: E402
from games.tables.origin import SameOriginValidator  # noqa: E402
from games.tables.routing import websocket_urlpatterns  # noqa: E402
from games.tables.warming import start_with_daphne as warm_with_daphne  # noqa: E402
from games.tables.worker import OneWorkerThread  # noqa: E402
from onenight.garbage import tune_for_server  # noqa: E402
from onenight.refusals import NoSuchSocket, SecurityHeaders  # noqa: E402

application = TickerMiddleware(
    OneWorkerThread(
        ProtocolTypeRouter(
            {
                # Every response carries the security headers, those Django answers before
                # its middleware runs too (onenight/refusals.py).
                "http": SecurityHeaders(django_asgi_app),
                "websocket": SameOriginValidator(
                    AuthMiddlewareStack(
                        URLRouter(
                            # A socket to any other address is refused, not a 500.
                            [*websocket_urlpatterns, re_path(r"", NoSuchSocket.as_asgi())]
                        )
                    )
                ),
            }
        )
    )
)
# Notices owed to players with no page open are sent by every process (games/notices/loop.py).
application = notices.NoticesMiddleware(application)

# Deadlines must fire with no browser open: start the ticker with the server, not the first page.
start_with_daphne()
# Notices too: a player waiting for an e-mail has no page open (games/notices/loop.py).
notices.start_with_daphne()
# What the games build on first use (One Night's fake-quote patterns), on a thread of its own,
# so no table waits for it (games/tables/warming.py).
warm_with_daphne()

# Everything is loaded: leave it out of the garbage collector's walks (onenight/garbage.py).
tune_for_server()
