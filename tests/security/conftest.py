"""Fixtures for the security suite: leak audit, authorization and fuzzing.

Websockets go through onenight.asgi.application (same-origin check, session middleware, URL
router) with the deadline ticker off, as in tests/realtime; every test gets a fresh in-memory
channel layer so no group survives from another event loop.
"""

from __future__ import annotations

# The same three fixtures as the websocket tests: a fresh channel layer per test, no ticker,
# and a socket opener that closes what it opened.
from tests.realtime.conftest import fresh_channel_layer, no_deadline_ticker, sockets

__all__ = ["fresh_channel_layer", "no_deadline_ticker", "sockets"]
