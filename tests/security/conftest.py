"""Fixtures for the security suite: leak audit, authorization and fuzzing.

Websockets go through onenight.asgi.application (same-origin check, session middleware, URL
router) with the deadline ticker off; every test gets a fresh channel layer so no group
survives from another event loop.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from channels.layers import channel_layers

from games.tables import push
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


@pytest.fixture
def group_messages(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every message the table core sends to a channel-layer group, as it sends it."""
    sent: list[tuple[str, dict[str, Any]]] = []
    real = push._send

    def record(group: str, message: dict[str, Any]) -> None:
        sent.append((group, json.loads(json.dumps(message))))
        real(group, message)

    monkeypatch.setattr(push, "_send", record)
    return sent
