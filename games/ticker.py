"""The deadline ticker: moves games on when a stored deadline passes, with no browser open.

Each server process runs one, started with the first connection it serves. It only asks the
database which games are due and calls the race-safe service, so any number of processes can
tick at once and each game still moves exactly once. Nothing is kept in memory: after a restart
the next tick finds the same deadlines in the database.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from games import services

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
# One ticker task per event loop (normally one per process); kept referenced so it lives.
_tickers: dict[int, asyncio.Task[None]] = {}


async def run_ticker(interval: float = TICK_SECONDS) -> None:
    """Forever: every `interval` seconds, advance every game whose deadline has passed."""
    while True:
        try:
            moved = await database_sync_to_async(services.advance_due_games)()
            if moved:
                log.info("Deadline passed; moved on: %s", ", ".join(moved))
        except Exception:  # a failed tick must not stop the next one
            log.exception("Deadline tick failed")
        await asyncio.sleep(interval)


class TickerMiddleware:
    """ASGI middleware that starts the ticker once per event loop, on the first scope."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        loop = asyncio.get_running_loop()
        if settings.DEADLINE_TICKER and id(loop) not in _tickers:
            _tickers[id(loop)] = loop.create_task(run_ticker())
        return await self.app(scope, receive, send)
