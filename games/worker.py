"""The process's one worker thread, where all synchronous work runs, with chat first in line.

Every page request, websocket read and render runs on one thread per process (onenight/asgi.py
explains why). A chat line must be stored before it can be delivered, so under load it waited
behind whatever was queued there: a table's eight "ready" POSTs, the panels of a phase change.
Work is served in three lanes, each first come, first served, and a lane only when the ones
before it are empty (the call already running is never interrupted):

1. `urgent()`: storing a chat line, short and waited for by a whole table;
2. `next_up()`: a phase change's read and panels, one call per table and phase, that every
   player of the table waits for (games/consumers.py);
3. everything else: pages, forms, status reads.

Only short, latency-bound work with a bounded rate belongs in the first two lanes.
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

URGENT, NEXT_UP, NORMAL = range(3)  # the lanes, in the order they are served
_LANE: ContextVar[int] = ContextVar("onenight_worker_lane", default=NORMAL)


@contextlib.contextmanager
def _in_lane(lane: int) -> Iterator[None]:
    token = _LANE.set(lane)
    try:
        yield
    finally:
        _LANE.reset(token)


def urgent() -> contextlib.AbstractContextManager[None]:
    """Work handed to the worker inside this block goes ahead of all other work."""
    return _in_lane(URGENT)


def next_up() -> contextlib.AbstractContextManager[None]:
    """Work handed to the worker inside this block goes after urgent work, ahead of the rest."""
    return _in_lane(NEXT_UP)


class _LanedQueue:
    """The work queue of a ThreadPoolExecutor (the methods it uses), in FIFO lanes served in
    order. The lane is chosen when the work is submitted, from the submitter's context."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._lanes: tuple[deque[Any], ...] = (deque(), deque(), deque())

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        with self._ready:
            # None is the executor's "stop" sentinel: it never jumps the queue.
            lane = NORMAL if item is None else _LANE.get()
            self._lanes[lane].append(item)
            self._ready.notify()

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        with self._ready:
            if not self._ready.wait_for(lambda: any(self._lanes), timeout if block else 0):
                raise queue.Empty
            return next(lane for lane in self._lanes if lane).popleft()

    def get_nowait(self) -> Any:
        return self.get(block=False)


class WorkerThread(ThreadPoolExecutor):
    """A one-thread executor whose queue serves `urgent()`, then `next_up()` work first."""

    def __init__(self, name: str = "onenight-worker") -> None:
        super().__init__(max_workers=1, thread_name_prefix=name)
        self._work_queue = _LanedQueue()  # type: ignore[assignment]
