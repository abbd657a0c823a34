"""The embedded channel layer: Channels' in-memory layer with an expiry sweep that does not grow
with the number of open pages.

Channels' `InMemoryChannelLayer` walks every channel's queue and every group membership for
expired entries on each `receive` and `group_send`, and every open page has a consumer waiting
in `receive`: each message delivered costs a walk over all connections, so the cost of one chat
line grows with the number of pages open on the whole server. At 100 tables of 8 (800 pages,
bench/load.py, docs/benchmarks.md "What issue 26 changed"), Channels' layer cost 0.592 s of
server CPU per game and a chat line reached the other pages in 11.2 s at p99; this one 0.469 s
and 5.8 s, the same day on the same machine.

Here the sweep runs at most once a second. What it is for still holds: a message is never
delivered more than `expiry` plus that second late, and memberships still expire. It overrides
the layer's one private method, `_clean_expired`; the REDIS_URL deployments do not use it.
"""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    """`InMemoryChannelLayer` with its expiry sweep throttled to once per `sweep_interval`."""

    sweep_interval = 1.0  # seconds

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._last_sweep = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._last_sweep < self.sweep_interval:
            return
        self._last_sweep = now
        super()._clean_expired()
