"""The embedded channel layer: Channels' in-memory layer, made to scale with the connections.

Channels' `InMemoryChannelLayer` sweeps every channel's queue and every group membership for
expired entries on each `receive` and `group_send`. Every open page has a consumer waiting in
`receive`, so each message delivered costs a pass over all connections: with 800 pages open,
delivering one chat line to eight of them walked some 13,000 entries (docs/benchmarks.md).
Here the sweep runs at most once a second, which keeps what it is for (a message older than
`expiry` is never delivered late by more than that second; memberships still expire) at a cost
that no longer grows with the number of pages. `group_send` also puts the message on each
member's queue directly instead of starting one task per member.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from channels.exceptions import ChannelFull
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

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        # `send` never waits: it puts the message on the member's queue or raises ChannelFull.
        # So the members are served in turn, without a task each.
        for channel in list(self.groups.get(group, {})):
            # As in Channels: a full channel misses this message, the others do not.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)
