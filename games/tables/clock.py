"""The deadline ticker: moves tables on when a stored deadline passes, with no browser open.

Each server process runs one, started when the server starts: under daphne through Twisted's
reactor (daphne does not speak the ASGI lifespan protocol), under a lifespan-capable server on
"lifespan.startup", and in any case with the first connection as a fallback. It only asks the
database which tables are due and calls the race-safe service, so any number of processes can
tick at once and each table still moves exactly once. Nothing is kept in memory: after a restart
the next tick finds the same deadlines in the database.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from games.tables import services
from games.tables.worker import in_worker

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
# One ticker task per event loop (normally one per process); kept referenced so it lives.
_tickers: dict[int, asyncio.Task[None]] = {}


async def run_ticker(interval: float = TICK_SECONDS) -> None:
    """Forever: every `interval` seconds, advance every table whose deadline has passed."""
    while True:
        try:
            async with in_worker():  # the thread that runs the rest of the process's sync work
                moved = await database_sync_to_async(services.advance_due_tables)()
            if moved:
                log.info("Deadline passed; moved on: %s", ", ".join(moved))
        except Exception:  # a failed tick must not stop the next one
            log.exception("Deadline tick failed")
        await asyncio.sleep(interval)


def ensure_ticker(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Start the loop's ticker unless it runs already (default: the running loop)."""
    if not settings.DEADLINE_TICKER:
        return
    loop = loop or asyncio.get_running_loop()
    task = _tickers.get(id(loop))
    if task is None or task.done():
        _tickers[id(loop)] = loop.create_task(run_ticker())


def start_with_daphne() -> bool:
    """Under daphne, start the ticker as soon as the server's reactor runs.

    Only acts when a Twisted reactor is already installed (daphne installs its asyncio reactor
    before it loads the application); importing the application elsewhere starts nothing.
    """
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None or not settings.DEADLINE_TICKER:
        return False

    def start() -> None:
        # Startup triggers fire just before the reactor's asyncio loop starts running; daphne
        # has made that loop the current one by then, so the task is queued on it.
        ensure_ticker(asyncio.get_event_loop_policy().get_event_loop())

    reactor.callWhenRunning(start)
    return True


class TickerMiddleware:
    """ASGI middleware: starts the ticker on lifespan startup, or on the first scope."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        ensure_ticker()
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        return await self.app(scope, receive, send)

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
