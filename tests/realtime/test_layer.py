"""The channel layer: Channels' in-memory layer by default, Redis pub/sub when REDIS_URL is set
(onenight/settings.py), and what travels through it reaches the table's pages."""

from __future__ import annotations

import asyncio
import os
import runpy
from collections.abc import Mapping
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.tables.push import table_group
from onenight import settings as settings_module
from onenight.layers import SweepingInMemoryChannelLayer
from tests.factories import create_lobby
from tests.realtime.helpers import QUIET, WAIT, SocketOpener, is_chat, post_chat, receive_until

db = database_sync_to_async
REDIS_URL = os.environ.get("REDIS_URL", "")
PUBSUB = "channels_redis.pubsub.RedisPubSubChannelLayer"


def settings_with(monkeypatch: pytest.MonkeyPatch, env: Mapping[str, str | None]) -> dict[str, Any]:
    """The settings module's values as it computes them in this environment (run afresh, in a
    namespace of its own: the running settings are left alone)."""
    for name, value in env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    monkeypatch.setenv("DJANGO_SECRET_KEY", "only-for-reading-the-settings")
    return runpy.run_path(settings_module.__file__)


def test_without_redis_the_settings_choose_the_sweeping_in_memory_layer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    layers = settings_with(monkeypatch, {"REDIS_URL": None})["CHANNEL_LAYERS"]
    assert layers == {"default": {"BACKEND": "onenight.layers.SweepingInMemoryChannelLayer"}}


@pytest.mark.parametrize(
    ("url", "prefix"),
    [
        ("redis://10.0.0.5:6380/4", "onenight-4"),
        ("redis://:secret@redis.example:6379/12", "onenight-12"),
        ("redis://redis.example:6379", "onenight-0"),
        ("rediss://redis.example/", "onenight-0"),
    ],
)
def test_redis_url_selects_the_redis_pubsub_layer_on_that_server(
    monkeypatch: pytest.MonkeyPatch, url: str, prefix: str
) -> None:
    """Several server processes share groups through Redis. Pub/sub ignores Redis's database
    number, so the layer's prefix carries it: apps on other numbers of one server never hear
    each other's pushes."""
    layers = settings_with(monkeypatch, {"REDIS_URL": url})["CHANNEL_LAYERS"]
    assert layers == {"default": {"BACKEND": PUBSUB, "CONFIG": {"hosts": [url], "prefix": prefix}}}


def test_the_running_settings_use_the_layer_the_environment_asks_for() -> None:
    layer = get_channel_layer()
    if REDIS_URL:
        from channels_redis.pubsub import RedisPubSubChannelLayer

        assert isinstance(layer, RedisPubSubChannelLayer)
    else:
        assert isinstance(layer, InMemoryChannelLayer)


async def test_the_sweeping_layer_still_expires_messages_and_memberships() -> None:
    """Throttled to once a second, the sweep still drops a message nobody received in time
    and a membership older than the group expiry."""
    layer = SweepingInMemoryChannelLayer(expiry=0.05, group_expiry=1)
    await layer.group_add("table-1", "specific.a!1")
    await layer.send("specific.b!1", {"type": "stale"})
    await asyncio.sleep(0.1)
    layer._last_sweep = float("-inf")  # the second has passed
    layer.groups["table-1"]["specific.a!1"] -= 5  # joined long ago
    await layer.group_send("table-1", {"type": "x"})  # sweeps first
    assert "specific.b!1" not in layer.channels
    assert "specific.a!1" not in layer.groups.get("table-1", {})


@pytest.mark.django_db(transaction=True)
async def test_a_group_message_reaches_the_tables_pages(sockets: SocketOpener) -> None:
    """Through the configured layer: a change and a chat line made in another thread (as a
    page's POST is) reach every page of the table, and a group message sent by hand too."""
    table = await db(create_lobby)(("Ann", "Ben", "Cat"))
    ann, hello = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    response = await db(post_chat)(table, "Cat", "through the layer")
    assert response.status_code == 200
    for comm in (ann, ben):
        frame, _ = await receive_until(comm, is_chat("through the layer"))
        assert frame["name"] == "Cat"
    await get_channel_layer().group_send(
        table_group(table.table.pk), {"type": "table.changed", "version": hello["version"] + 1}
    )
    for comm in (ann, ben):
        push = await comm.receive_json_from(timeout=WAIT)
        assert push["type"] == "panel" and push["version"] == hello["version"]
    assert await ann.receive_nothing(QUIET)


@pytest.mark.skipif(not REDIS_URL.startswith("redis"), reason="needs REDIS_URL")
async def test_layers_of_other_redis_databases_do_not_hear_each_others_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two apps on one Redis server, on database numbers n and n + 1: a group message of one
    never reaches the other's pages. (The second app's layer uses the prefix its settings
    compute, on this test's own database number: pub/sub does not look at it anyway.)"""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    mine = get_channel_layer()
    assert isinstance(mine, RedisPubSubChannelLayer)
    number = int(REDIS_URL.rstrip("/").rpartition("/")[2] or 0)
    other_url = REDIS_URL.rstrip("/").rpartition("/")[0] + f"/{number + 1}"
    config = settings_with(monkeypatch, {"REDIS_URL": other_url})["CHANNEL_LAYERS"]["default"]
    other = RedisPubSubChannelLayer(hosts=[REDIS_URL], prefix=config["CONFIG"]["prefix"])
    try:
        here, there = await mine.new_channel(), await other.new_channel()
        await mine.group_add("table-1", here)
        await other.group_add("table-1", there)
        await other.group_send("table-1", {"type": "table.changed", "version": 2})
        assert (await asyncio.wait_for(other.receive(there), WAIT))["version"] == 2
        await mine.group_send("table-1", {"type": "table.changed", "version": 3})
        heard = await asyncio.wait_for(mine.receive(here), WAIT)
        assert heard["version"] == 3  # not the other app's 2
    finally:
        await other.flush()
