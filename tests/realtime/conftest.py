"""Fixtures for the websocket, channel layer and deadline-ticker tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from channels.layers import channel_layers

from tests.realtime.helpers import SocketOpener


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """A new channel layer per test: no groups, queues or Redis connections left from another
    test's event loop."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def no_deadline_ticker(settings: Any) -> None:
    """onenight.asgi.application starts no ticker task; the ticker tests start their own."""
    settings.DEADLINE_TICKER = False


@pytest.fixture
async def sockets() -> AsyncIterator[SocketOpener]:
    """Opens websockets to the consumer and closes every one of them after the test."""
    opener = SocketOpener()
    yield opener
    await opener.close_all()
