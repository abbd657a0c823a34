"""The notice loop: every process scans for notices owed and sends those due, with no page
open (issue 41, item 3), as the deadline ticker moves tables on (games/tables/clock.py).

It runs on a thread of its own (its own database connection), never on the worker thread that
serves the pages (games/tables/worker.py): a slow mail server holds up no request. Nothing is
kept in memory: after a restart the next pass finds the same rows.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from . import owed, sender

log = logging.getLogger(__name__)

SENDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="notices")
_loops: dict[int, asyncio.Task[None]] = {}


def one_pass(now: datetime | None = None) -> tuple[int, int]:
    """Store the notices owed now, then send those due: (owed, sent)."""
    close_old_connections()
    try:
        return owed.scan(now), sender.send_due(now)
    finally:
        close_old_connections()


async def run_notices(interval: float) -> None:
    loop = asyncio.get_running_loop()
    while True:
        try:
            made, sent = await loop.run_in_executor(SENDER, one_pass)
            if made or sent:
                log.info("Notices: %d owed, %d sent", made, sent)
        except Exception:  # a failed pass must not stop the next one
            log.exception("Notice pass failed")
        await asyncio.sleep(interval)


def ensure_notices(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """Start the loop's notice task unless it runs already (default: the running loop)."""
    if not settings.NOTICES_LOOP:
        return
    loop = loop or asyncio.get_running_loop()
    task = _loops.get(id(loop))
    if task is None or task.done():
        _loops[id(loop)] = loop.create_task(run_notices(settings.NOTICES_SECONDS))


def start_with_daphne() -> bool:
    """Under daphne, start with the server's reactor (as the deadline ticker does)."""
    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None or not settings.NOTICES_LOOP:
        return False
    reactor.callWhenRunning(
        lambda: ensure_notices(asyncio.get_event_loop_policy().get_event_loop())
    )
    return True


class NoticesMiddleware:
    """ASGI middleware: starts the notice loop with the first scope (any server)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        ensure_notices()
        return await self.app(scope, receive, send)
