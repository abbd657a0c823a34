"""One thread per server process runs all of Django's synchronous work: views, the consumers'
database calls and the deadline ticker.

Django's ASGI handler gives each request a thread of its own (a fresh `ThreadSensitiveContext`,
so a fresh one-thread executor). A thread per request means a thread started and joined per
request, and a database connection opened and closed per request: a connection cannot outlive
its thread, so persistent connections must stay off under ASGI (Django's documentation says
so). Under bench/load.py, 25 tables of 8 players on one process, this cost 0.71 CPU seconds per
game (threads 10%, connections 25% of the samples), the chat's fan-out p99 was 170 ms and, with
CONN_MAX_AGE left on, the process grew past 1.2 GiB at 100 tables (docs/benchmarks.md).

Here every HTTP and websocket scope enters a `ThreadSensitiveContext` given one shared
one-thread executor: asgiref's public way to choose the thread for thread-sensitive code (the
executor is ours; asgiref neither shuts it down nor shares it). Django's own context inside it
then changes nothing. One thread keeps one connection, opened once; the work is serialized, as
it is anyway under the GIL and, with SQLite, under its single writer.

What it costs: a request that blocks (a slow query, a lock wait) holds up the others of the same
process. Nothing in the app waits on anything but the database; more processes (docs/deploy.md)
are how it grows.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext

# The thread; made once per process, at import.
WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="django-worker")


def in_worker() -> ThreadSensitiveContext:
    """`async with in_worker():` sends thread-sensitive calls of the block to the worker."""
    return ThreadSensitiveContext(executor=WORKER)


class OneWorkerThread:
    """ASGI middleware: HTTP requests and websocket connections run their sync code on WORKER."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        async with in_worker():
            return await self.app(scope, receive, send)
