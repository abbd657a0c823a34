"""Fixtures for the security suite: leak audit, authorization and fuzzing.

Websockets go through onenight.asgi.application (same-origin check, session middleware, URL
router) with the deadline ticker off, as in tests/realtime; every test gets a fresh in-memory
channel layer so no group survives from another event loop.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from channels.layers import channel_layers

from tests.realtime.helpers import SocketOpener


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def no_deadline_ticker(settings: Any) -> None:
    """No ticker task: deadlines pass only when a test makes them pass."""
    settings.DEADLINE_TICKER = False


@pytest.fixture
async def sockets() -> AsyncIterator[SocketOpener]:
    opener = SocketOpener()
    yield opener
    await opener.close_all()
