"""After a change commits, tell the table's open pages; nothing secret goes into a group.

- "table.changed" carries only the table's new version: each page's consumer then renders its
  own seat's view (games/tables/consumers.py), so what leaves the server is built per seat.
- A move's "table.changed" may name the page that sent it ("answered": the key its socket gave
  it, the language and the chat channels the seat's view holds at the new version): that page
  has the seat's panel at this version in its request's answer, so its socket need not draw
  it again (lever 4 of docs/benchmarks.md); every other page of the seat is drawn as before.
- "chat.line" carries a line, ready to send, to the pages of the channel's group. The public
  channel's lines are public by nature; a private channel's group (a werewolves' night chat) is
  joined only by the pages of seats that may read it, and each consumer checks again before it
  sends a line.

Sent with `transaction.on_commit`, as Zulip's send_event_on_commit does: a page is never told
of a change that was rolled back, nor before it can read it.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import translation

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


# A page's socket gives it a key (its hello's "socket"), which the page sends with its forms
# in this header: a key for one socket, unguessable, so a page is never spared a redraw for
# another page's answer (a second tab of the same seat has a socket and a key of its own).
SOCKET_KEY_HEADER = "X-Table-Socket"
SOCKET_KEY = re.compile(r"[A-Za-z0-9_-]{16}")


def new_socket_key() -> str:
    """A new socket's key (12 random bytes, 16 characters)."""
    return secrets.token_urlsafe(12)


@dataclass(frozen=True, slots=True)
class Answered:
    """The page whose request made a change and is answered with its seat's panel at the new
    version: `key` is the one its socket gave it (consumers.TableConsumer), `seat` the seat as
    the change left it."""

    key: str
    seat: Seat


def channel_state(channels: Any) -> list[list[Any]]:
    """What a page's chat boxes show of each readable channel: its name, whether the seat may
    write, why not (the same for the push's check and for the socket's frames)."""
    return [[c.name, bool(c.write), str(c.closed)] for c in channels]


def table_changed_on_commit(
    table: Table,
    only: frozenset[int] | None = None,
    seats: list[Seat] | None = None,
    answered: Answered | None = None,
) -> None:
    """Every page of the table redraws its own seat's view; or, with `only`, the pages of
    those seats do and the others take the public status (rendered once here from the table
    and `seats` as the change left them, public by construction: the family's progress line
    and the clock). With `answered` (and `seats`), the message names that page and what its
    seat's chat boxes hold now, for its socket to see that the answer left nothing to draw."""
    version = table.version
    group = table_group(table.pk)
    answering = translation.get_language()  # the request's: its answer's language

    def send() -> None:
        message: dict[str, Any] = {"type": "table.changed", "version": version}
        if only is not None:
            from games.tables.selectors import status_html

            with language.shared():
                message["status"] = status_html(table, seats)
            message["language"] = settings.LANGUAGE_CODE
            message["redraw"] = sorted(only)
        if answered is not None and seats is not None:
            from games.tables.selectors import readable_channels

            with translation.override(answering):
                channels = readable_channels(table, answered.seat, seats)
                message["answered"] = {
                    "key": answered.key,
                    "seat": answered.seat.pk,
                    "language": answering,
                    "channels": channel_state(channels),
                }
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
