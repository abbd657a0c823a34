"""The process's one worker thread, where all synchronous work runs, with chat first in line.

Every page request, websocket read and render runs on one thread per process (onenight/asgi.py
explains why). A chat line must be stored before it can be delivered, so under load it waited
behind whatever was queued there: a table's eight "ready" POSTs, the panels of a phase change.
Work submitted while `urgent()` is in effect goes ahead of the queue instead (it still waits
for the call already running). Only short, latency-bound work should be urgent: today, storing
a chat line.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import Any

_URGENT: ContextVar[bool] = ContextVar("onenight_urgent_work", default=False)


@contextlib.contextmanager
def urgent() -> Iterator[None]:
    """Work handed to the worker inside this block goes ahead of the queue."""
    token = _URGENT.set(True)
    try:
        yield
    finally:
        _URGENT.reset(token)


class _UrgentFirstQueue:
    """The work queue of a ThreadPoolExecutor (the methods it uses), in two FIFO lanes: the
    urgent lane is served first. The lane is chosen when the work is submitted, from the
    submitter's context."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._urgent: deque[Any] = deque()
        self._normal: deque[Any] = deque()

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        with self._ready:
            # None is the executor's "stop" sentinel: it never jumps the queue.
            lane = self._urgent if item is not None and _URGENT.get() else self._normal
            lane.append(item)
            self._ready.notify()

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        with self._ready:
            if not self._ready.wait_for(
                lambda: self._urgent or self._normal, timeout if block else 0
            ):
                raise queue.Empty
            return (self._urgent or self._normal).popleft()

    def get_nowait(self) -> Any:
        return self.get(block=False)


class WorkerThread(ThreadPoolExecutor):
    """A one-thread executor whose queue serves `urgent()` work first."""

    def __init__(self, name: str = "onenight-worker") -> None:
        super().__init__(max_workers=1, thread_name_prefix=name)
        self._work_queue = _UrgentFirstQueue()  # type: ignore[assignment]
