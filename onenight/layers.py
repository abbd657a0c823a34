"""The embedded channel layer: Channels' in-memory layer, made to scale with the connections.

Channels' `InMemoryChannelLayer` sweeps every channel's queue and every group membership for
expired entries on each `receive` and `group_send`. Every open page has a consumer waiting in
`receive`, so each message delivered costs a pass over all connections: with 800 pages open,
delivering one chat line to eight of them walked some 13,000 entries (docs/benchmarks.md).
Here the sweep runs at most once a second, which keeps what it is for (a message older than
`expiry` is never delivered late by more than that second; memberships still expire) at a cost
that no longer grows with the number of pages. `group_send` also puts the message on each
member's queue directly instead of starting one task per member; `send` and `receive` make a
queue only when a channel has none, and `send` copies a flat message without `deepcopy`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from copy import deepcopy
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

_IMMUTABLE = frozenset({str, int, float, bool, bytes, type(None)})


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

    def _queue(self, channel: str) -> asyncio.Queue[Any]:
        """The channel's queue, made only when it has none (Channels' `setdefault` makes a new
        one on every call and throws it away when the channel already has one)."""
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue

    async def receive(self, channel: str) -> dict[str, Any]:
        """Channels' `receive`, with `_queue`."""
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self._queue(channel)
        try:
            _, message = await queue.get()
        finally:
            if queue.empty():
                self.channels.pop(channel, None)
        return message

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        """Channels' `send`, with `_queue`, and a plain copy of a message whose values are all
        immutable (ours are: strings and numbers), which isolates the receiver as well as a
        deep copy does."""
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self._queue(channel)
        flat = all(type(value) in _IMMUTABLE for value in message.values())
        copy = dict(message) if flat else deepcopy(message)
        try:
            queue.put_nowait((time.time() + self.expiry, copy))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

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
