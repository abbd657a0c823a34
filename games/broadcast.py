"""Telling open pages that a game changed, after the change is committed.

Group messages carry no secrets: only the game code, what kind of change it was and public
counts. Each consumer then renders its own viewer's fragment from the database (games/selectors).
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)


def game_group(code: str) -> str:
    """The channel-layer group of every open page of one game."""
    return f"game.{code}"


def _send(code: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(game_group(code), message)
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
