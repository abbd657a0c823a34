"""Telling open pages that a game changed, after the change is committed.

Group messages carry no secrets: only the game code, what kind of change it was and public
counts. Each consumer then renders its own viewer's fragment from the database (games/selectors).

Sending never makes the database thread wait for the channel layer: inside the server, messages
go into an outbox on the event loop that a single task sends in order (so chat lines leave in
the order they were stored). Outside the server (management commands, plain tests) they are
sent directly.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

Outbox = asyncio.Queue[tuple[str, dict[str, Any]]]
# One outbox per event loop: (the loop, its queue, the task sending from it).
_outboxes: dict[int, tuple[asyncio.AbstractEventLoop, Outbox, asyncio.Task[None]]] = {}


def game_group(code: str) -> str:
    """The channel-layer group of every open page of one game."""
    return f"game.{code}"


async def _drain(queue: Outbox) -> None:
    layer = get_channel_layer()
    while True:
        group, message = await queue.get()
        try:
            if layer is not None:
                await layer.group_send(group, message)
        except Exception:  # a lost nudge must never stop the ones after it
            log.exception("Could not notify %s", group)


def _enqueue(group: str, message: dict[str, Any]) -> None:
    """On the event loop: put the message in this loop's outbox (started on first use)."""
    loop = asyncio.get_running_loop()
    entry = _outboxes.get(id(loop))
    if entry is None or entry[0] is not loop or entry[2].done():
        queue: Outbox = asyncio.Queue()
        entry = (loop, queue, loop.create_task(_drain(queue)))
        _outboxes[id(loop)] = entry
    entry[1].put_nowait((group, message))


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this sync code was called from, when it runs inside the ASGI server."""
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    return None if loop.is_closed() or not loop.is_running() else loop


def _send(code: str, message: dict[str, Any]) -> None:
    group = game_group(code)
    loop = _server_loop()
    if loop is not None:
        loop.call_soon_threadsafe(_enqueue, group, message)
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost nudge must never undo or break a committed change
        log.exception("Could not notify game %s", code)


def announce_on_commit(code: str, event: str, **public: Any) -> None:
    """After the current transaction commits, tell every page of game `code` about `event`.

    `public` must hold only facts every seat may know (counts, names of who joined). Each
    message carries a fresh `change` id, so the pages of one game served by one process can
    share a single read of the table for it (games/consumers.py).
    """
    message = {"type": "game.changed", "event": event, "change": secrets.token_hex(8), **public}
    transaction.on_commit(lambda: _send(code, message))


def send_chat_on_commit(code: str, message: dict[str, Any]) -> None:
    """After commit, deliver a chat line (public by nature) to every page of the game."""
    transaction.on_commit(lambda: _send(code, {"type": "chat.message", **message}))
