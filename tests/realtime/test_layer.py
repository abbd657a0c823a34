"""The embedded channel layer (onenight/layers.py): Channels' in-memory layer with its expiry
sweep throttled. Messages and memberships must behave as in Channels' own layer."""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer, get_channel_layer

from onenight.layers import SweepingInMemoryChannelLayer


@pytest.mark.skipif(bool(os.environ.get("REDIS_URL")), reason="REDIS_URL selects the Redis layer")
def test_the_embedded_settings_use_it() -> None:
    assert isinstance(get_channel_layer(), SweepingInMemoryChannelLayer)


async def test_group_send_reaches_every_member_once() -> None:
    layer = SweepingInMemoryChannelLayer()
    members = [await layer.new_channel() for _ in range(8)]
    for channel in members:
        await layer.group_add("game.ABC", channel)
    outsider = await layer.new_channel()
    await layer.group_send("game.ABC", {"type": "chat.message", "text": "hi"})
    for channel in members:
        message = await asyncio.wait_for(layer.receive(channel), 1)
        assert message == {"type": "chat.message", "text": "hi"}
    assert outsider not in layer.channels
    assert all(channel not in layer.channels for channel in members)  # nothing left over


async def test_a_full_member_misses_the_message_and_the_others_get_it() -> None:
    layer = SweepingInMemoryChannelLayer(capacity=1)
    full, other = await layer.new_channel(), await layer.new_channel()
    for channel in (full, other):
        await layer.group_add("g", channel)
    await layer.send(full, {"type": "first"})
    with pytest.raises(ChannelFull):
        await layer.send(full, {"type": "second"})
    await layer.group_send("g", {"type": "to.all"})  # no error: `full` just misses it
    assert await layer.receive(full) == {"type": "first"}
    assert await layer.receive(other) == {"type": "to.all"}


async def test_each_member_gets_its_own_copy() -> None:
    layer = SweepingInMemoryChannelLayer()
    a, b = await layer.new_channel(), await layer.new_channel()
    for channel in (a, b):
        await layer.group_add("g", channel)
    await layer.group_send("g", {"type": "x", "items": [1]})
    first = await layer.receive(a)
    first["items"].append(2)
    assert (await layer.receive(b))["items"] == [1]


async def test_expired_messages_and_memberships_are_still_swept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = {"now": 1000.0}
    monkeypatch.setattr("channels.layers.time.time", lambda: clock["now"])
    monkeypatch.setattr("onenight.layers.time.monotonic", lambda: clock["now"])
    layer = SweepingInMemoryChannelLayer(expiry=60)
    stale, live = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("g", stale)
    await layer.group_add("g", live)
    await layer.send(stale, {"type": "old"})
    clock["now"] += 61  # the message has expired; the next sweep drops it and the membership
    await layer.group_send("g", {"type": "new"})
    assert stale not in layer.groups["g"] and live in layer.groups["g"]
    assert stale not in layer.channels
    assert await layer.receive(live) == {"type": "new"}


async def test_the_sweep_runs_at_most_once_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = {"now": 50.0}
    monkeypatch.setattr("onenight.layers.time.monotonic", lambda: clock["now"])
    sweeps: list[float] = []
    original = InMemoryChannelLayer._clean_expired

    def counting(self: Any) -> None:
        sweeps.append(clock["now"])
        original(self)

    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", counting)
    layer = SweepingInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.group_add("g", channel)
    for _ in range(100):
        await layer.group_send("g", {"type": "x"})
        await layer.receive(channel)
    assert sweeps == [50.0]
    clock["now"] += 1.0
    await layer.group_send("g", {"type": "x"})
    assert sweeps == [50.0, 51.0]


async def test_a_flat_message_is_copied_for_each_member_too() -> None:
    """Messages of strings and numbers get a plain copy: a receiver changing its message does
    not change another's, nor the sender's."""
    layer = SweepingInMemoryChannelLayer()
    a, b = await layer.new_channel(), await layer.new_channel()
    for channel in (a, b):
        await layer.group_add("g", channel)
    sent = {"type": "chat.message", "id": 7, "text": "hi", "seat_id": None}
    await layer.group_send("g", sent)
    first = await layer.receive(a)
    first["text"] = "changed"
    assert await layer.receive(b) == {
        "type": "chat.message",
        "id": 7,
        "text": "hi",
        "seat_id": None,
    }
    assert sent["text"] == "hi"


async def test_a_channel_keeps_one_queue_while_it_has_messages() -> None:
    layer = SweepingInMemoryChannelLayer()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "one"})
    queue = layer.channels[channel]
    await layer.send(channel, {"type": "two"})
    assert layer.channels[channel] is queue
    assert await layer.receive(channel) == {"type": "one"}
    assert await layer.receive(channel) == {"type": "two"}
    assert channel not in layer.channels  # emptied: forgotten, as in Channels
