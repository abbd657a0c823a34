"""Fixtures for the security suite: leak audit, authorization and fuzzing.

Websockets go through onenight.asgi.application (same-origin check, session middleware, URL
router) with the deadline ticker off; every test gets a fresh channel layer so no group
survives from another event loop.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from channels.layers import channel_layers

from tests.security.audit import SocketOpener


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """A new channel layer per test: no groups or queues left from another event loop."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def no_deadline_ticker(settings: Any) -> None:
    """onenight.asgi.application starts no ticker task: deadlines pass when a test says so."""
    settings.DEADLINE_TICKER = False


@pytest.fixture
async def sockets() -> AsyncIterator[SocketOpener]:
    """Opens websockets to the consumer and closes every one of them after the test."""
    opener = SocketOpener()
    yield opener
    await opener.close_all()
