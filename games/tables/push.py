"""After a change commits, tell the table's open pages; nothing secret goes into a group.

- "table.changed" carries only the table's new version: each page's consumer then renders its
  own seat's view (games/tables/consumers.py), so what leaves the server is built per seat.
- "chat.line" carries a line, ready to send, to the pages of the channel's group. The public
  channel's lines are public by nature; a private channel's group (a werewolves' night chat) is
  joined only by the pages of seats that may read it, and each consumer checks again before it
  sends a line.

Sent with `transaction.on_commit`, as Zulip's send_event_on_commit does: a page is never told
of a change that was rolled back, nor before it can read it.
"""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from games.tables import language
from games.tables.models import ChatLine, Seat, Table


def table_group(table_id: int) -> str:
    """Every open page of the table."""
    return f"table-{table_id}"


def channel_group(table_id: int, channel: str) -> str:
    """The pages of the table whose seat may read `channel` (the public one: every page)."""
    return table_group(table_id) if channel == "public" else f"table-{table_id}-chat-{channel}"


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def table_changed_on_commit(
    table: Table, only: frozenset[int] | None = None, seats: list[Seat] | None = None
) -> None:
    """Every page of the table redraws its own seat's view; or, with `only`, the pages of
    those seats do and the others take the public status (rendered once here from the table
    and `seats` as the change left them, public by construction: the family's progress line
    and the clock)."""
    version = table.version
    group = table_group(table.pk)

    def send() -> None:
        message: dict[str, Any] = {"type": "table.changed", "version": version}
        if only is not None:
            from games.tables.selectors import status_html

            with language.shared():
                message["status"] = status_html(table, seats)
            message["language"] = settings.LANGUAGE_CODE
            message["redraw"] = sorted(only)
        _send(group, message)

    transaction.on_commit(send)


def chat_frame(line: ChatLine) -> dict[str, Any]:
    """A chat line as a page receives it (`mine` is set per page)."""
    return {
        "type": "chat",
        "id": line.pk,
        "channel": line.channel,
        "seat_id": line.seat_id,
        "name": line.author,
        "note": line.note,
        "text": line.text,
        "sent_at": line.sent_at.isoformat(),
    }


def chat_line_on_commit(table: Table, line: ChatLine) -> None:
    """The line goes out as the two texts a page may get, the writer's own pages' ("mine") and
    everyone else's, serialized once here rather than once per page: a line reaches every page
    of the table, and the message is a flat dict of strings, cheap for the layer to copy."""
    group = channel_group(table.pk, line.channel)
    frame = chat_frame(line)
    message = {
        "type": "chat.line",
        "channel": line.channel,
        "seat_id": line.seat_id,
        "mine": json.dumps({**frame, "mine": True}),
        "others": json.dumps({**frame, "mine": False}),
    }
    transaction.on_commit(lambda: _send(group, message))
