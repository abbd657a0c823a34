"""One page's websocket: pushes of its seat's view and the chat lines it may read, and the
chat lines the page writes.

Forms are POSTs (games/tables/views.py); the socket carries the pushes and the chat (issue 39:
a line over the socket the page already holds costs no HTTP request). On connect, and when the
page asks ("sync"), it sends a "hello": the table's version, the seat's panel when the page
shows an older version, and the chat lines the page has not seen. When the table changes, the group
event carries only the new version (and, for a move that only counts, the public status box):
this consumer renders its own seat's panel and sends it, or forwards the status, so nothing
secret is ever in a group message.

A chat line the page sends ({"type": "chat", "channel", "text", "ref"}) is written by the seat
the socket was opened for, read again from the session the handshake carried (a seat named in
the frame is never read), through the same service as the chat form's POST
(services.chat_post: every check of the line, the channel, the pace and the game's rules). The
sender is answered "chat-sent" with the stored line, or "chat-refused" with the message the
form would show; both carry the page's `ref`. The line reaches every page that may read it as
a POSTed line does, after commit. What the POST's CSRF token guards, the handshake's origin
check guards here (games/tables/origin.py): another site's page cannot open this socket.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.tables import language, services
from games.tables.middleware import CONTROL_CHARACTER_IN_FORM, has_control_character
from games.tables.models import Seat, Table
from games.tables.push import channel_group, chat_frame, new_socket_key, table_group
from games.tables.reads import table_at
from games.tables.selectors import chat_lines, readable_channels, table_page
from games.tables.services import NotAllowedError, ServiceError, WrongStageError
from games.tables.sessions import TABLE_CODE, seat_of, session_token
from games.tables.sharing import server_port, share_root_of_origin
from games.tables.watching import may_watch

log = logging.getLogger(__name__)

CLOSE_NOT_SEATED = 4403  # the page stops retrying and reloads
# The page's own name for a line it sends, echoed in the answer: a short text or a number.
REF_MAX_LENGTH = 40


def _query(scope: dict[str, Any], name: str) -> str:
    for part in scope.get("query_string", b"").decode("latin-1").split("&"):
        key, _equals, value = part.partition("=")
        if key == name and value.isascii() and value.isdigit():
            return value[:20]
    return ""


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One seat's live connection to one table."""

    table_id: int
    code: str  # the table's code: the key of its seat in the session
    seat_id: int | None  # None: a watcher (games/tables/watching.py)
    shown: int  # the newest version this page shows
    readable: frozenset[str]
    # The key this socket gave its page (push.Answered): a move the page sends with it is
    # answered with the seat's panel, which this socket then need not draw again.
    key: str = ""
    # The chat boxes as this socket last drew them: [name, may write, why not] per channel.
    _channels_drawn: list[list[Any]] | None = None
    # The port this server listens on (the scope's server): the only one sharing.py probes.
    _server_port: int | None = None
    _gone = False  # the page has closed its socket: a line's answer has nowhere to go

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._chats: set[asyncio.Task[None]] = set()  # lines on their way (kept from the GC)

    async def connect(self) -> None:
        code = str(self.scope["url_route"]["kwargs"]["code"])
        found = await database_sync_to_async(self._seat)(code)
        await self.accept()
        if found is None:
            await self.close(code=CLOSE_NOT_SEATED)
            return
        self.table_id, self.seat_id = found
        self.code = code.upper()
        self.shown = int(_query(self.scope, "version") or 0)
        self.language = language.of_socket(self.scope)
        self.readable = frozenset()
        self.key = new_socket_key()
        cookies = self.scope.get("cookies", {})
        self._csrf = str(cookies.get("csrftoken", ""))
        origin = dict(self.scope.get("headers", [])).get(b"origin", b"")
        self._origin = origin.decode("latin-1")
        server = self.scope.get("server") or (None, None)  # (host, port); None on a unix socket
        self._server_port = server_port(server[1] if len(server) > 1 else None)
        await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        await self._hello(int(_query(self.scope, "after") or 0))

    def _seat(self, code: str) -> tuple[int, int | None] | None:
        """The table and this page's seat (None: a watcher); None if it may not follow."""
        if not TABLE_CODE.fullmatch(code):
            return None
        table = Table.objects.filter(code=code.upper()).first()
        if table is None:
            return None
        session = self.scope.get("session") or {}
        seat = seat_of(session, table)
        if seat is None:
            return (table.pk, None) if may_watch(session, table) else None
        self._seen(seat.pk)
        return table.pk, seat.pk

    @staticmethod
    def _seen(seat_id: int | None) -> None:
        if seat_id is not None:
            Seat.objects.filter(pk=seat_id).update(last_seen=timezone.now())

    async def disconnect(self, code: int) -> None:
        self._gone = True
        if hasattr(self, "table_id"):
            await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
            for channel in self.readable:
                group = channel_group(self.table_id, channel)
                await self.channel_layer.group_discard(group, self.channel_name)

    # --- what the page asks -------------------------------------------------------------------

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not hasattr(self, "seat_id"):
            return
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "ping":
            await database_sync_to_async(self._seen)(self.seat_id)
            await self.send_json({"type": "pong"})
        elif kind == "sync":
            after = content.get("after")
            shown = content.get("version")
            if isinstance(shown, int) and not isinstance(shown, bool):
                self.shown = min(self.shown, shown) if shown >= 0 else self.shown
            valid = isinstance(after, int) and not isinstance(after, bool) and after >= 0
            await self._hello(after if valid else 0)
        elif kind == "chat":
            # Written beside the socket's other work, not in its way: Channels hands a consumer
            # its messages one at a time, and while a line waits for the database thread the
            # lines and panels pushed to this page would wait too. The thread takes the calls
            # in the order they come, so a page's lines are stored in the order it sent them.
            task = asyncio.create_task(self._chat(content))
            self._chats.add(task)
            task.add_done_callback(self._chats.discard)
        else:
            with translation.override(self.language):
                message = _("Unknown message.")
            await self.send_json({"type": "error", "message": message})

    async def _chat(self, content: dict[str, Any]) -> None:
        answer = await database_sync_to_async(self._say)(
            content.get("channel", "public"), content.get("text")
        )
        if not self._gone:
            await self.send_json({**answer, "ref": _ref(content.get("ref"))})

    def _say(self, channel: object, text: object) -> dict[str, Any]:
        """A chat line written on this page, as the chat form's POST sends it (views.chat):
        the answer for the sender, in its page's language."""
        with translation.override(self.language):
            # As a form's field (middleware.RefuseControlCharacters, before the chat's view):
            # refused whole, not cleaned, so the two ways of sending a line agree.
            fields = [f for f in (channel, text) if isinstance(f, str)]
            if any(has_control_character(f, in_field=True) for f in fields):
                message = str(CONTROL_CHARACTER_IN_FORM)
                return {"type": "chat-refused", "message": message, "closed": False}
            try:
                line = services.chat_post(
                    seat=self._writer(),
                    text=text,
                    channel=channel if isinstance(channel, str) else "",
                )
            except ServiceError as error:
                # A closed channel hides the form (the page says why), as the POST's answer does.
                closed = isinstance(error, WrongStageError)
                return {"type": "chat-refused", "message": str(error), "closed": closed}
        return {"type": "chat-sent", "line": {**chat_frame(line), "mine": True}}

    def _writer(self) -> Seat:
        """The seat this socket's session holds at the table, with its table caught up with
        its clock: what views.table_and_seat reads for the chat form's POST (one query)."""
        token = session_token(self.scope.get("session") or {}, self.code)
        seat = None
        if self.seat_id is not None and token is not None:
            seat = Seat.objects.select_related("table").filter(pk=self.seat_id, token=token).first()
        if seat is None or seat.table_id != self.table_id:
            raise NotAllowedError(_("You are not seated at this table."))
        seat.table = services.table_caught_up(seat.table)
        return seat

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if not text_data:  # a binary or empty frame: Channels would raise and drop the socket
            await self.receive_json(None)
            return
        await super().receive(text_data=text_data, **kwargs)

    async def decode_json(self, text_data: str) -> Any:
        try:
            return await super().decode_json(text_data)
        except (ValueError, RecursionError):  # not JSON, or nested too deeply to read
            return None

    # --- what the server pushes ---------------------------------------------------------------

    def _render(self, after: int | None, version: int = 0) -> dict[str, Any] | None:
        """`_frame` in the language this socket's page is in."""
        with translation.override(self.language):
            return self._frame(after, version)

    def _frame(self, after: int | None, version: int = 0) -> dict[str, Any] | None:
        """The seat's panel (if newer than what the page shows), its readable channels and, for
        a hello, the chat lines after `after`; a push (`after` None) of the change to `version`
        renders from the table's rows at that version or newer, read once for all the pages of
        the table (reads.table_at). None: the seat is no longer at the table."""
        if after is None:
            rows = table_at(self.table_id, version)
            if rows is None:
                return None
            table, seats = rows
        else:
            found = Table.objects.filter(pk=self.table_id).first()
            if found is None:
                return None
            # A hello (a page connecting, or syncing when its countdown ran out) notices a
            # passed deadline as a page load does: the page is not left on a phase that is over.
            table = services.table_caught_up(found)
            seats = list(table.seats.order_by("position"))  # read once: channels and panel
            for each in seats:
                each.table = table
        seat = next((s for s in seats if s.pk == self.seat_id), None)
        if seat is None and self.seat_id is not None:
            return None
        # A watcher's watch is checked again at every frame: the lobby's link stops at the deal
        # where watchers read what the living may not (games/tables/watching.py, rule 3).
        if self.seat_id is None and not may_watch(self.scope.get("session") or {}, table, seats):
            return None
        frame: dict[str, Any] = {"version": table.version}
        channels = readable_channels(table, seat, seats)
        frame["channels"] = [c.name for c in channels]
        frame["channel_state"] = [
            {
                "name": c.name,
                "title": c.title,
                "write": c.write,
                "closed": c.closed,
                "html": render_to_string(
                    "tables/channel.html",
                    {"channel": c, "page": {"table": table}, "csrf_token": self._csrf},
                )
                if c.name not in self.readable
                else "",
            }
            for c in channels
        ]
        if table.version > self.shown:
            page = table_page(table, seat, with_chat=False, seats=seats)
            # As the page's own (views.render_page).
            shared = share_root_of_origin(self._origin, self._server_port)
            context = {
                **page.panel.context,
                "page": page,
                "csrf_token": self._csrf,
                "site_root": shared.root,
                "site_local_only": shared.local_only,
            }
            frame["panel"] = render_to_string("tables/page.html#panel", context)
        if after is not None:
            lines = chat_lines(table, seat, channels, after)
            frame["history"] = [_line_frame(line) for line in lines]
        else:
            # A channel this page may read from now on (the pack's chat, opened to everyone at
            # the end; the graveyard, at a death) comes with what was said in it so far: its
            # box is added empty, and a page should not need a reload to read it.
            opened = tuple(c for c in channels if c.name not in self.readable)
            if opened:
                frame["history"] = [_line_frame(line) for line in chat_lines(table, seat, opened)]
        return frame

    async def _hello(self, after: int) -> None:
        frame = await database_sync_to_async(self._render)(after)
        if frame is None:
            await self.close(code=CLOSE_NOT_SEATED)
            return
        await self._send_frame({"type": "hello", "socket": self.key, **frame})

    async def _send_frame(self, frame: dict[str, Any]) -> None:
        await self._follow_channels(frozenset(frame.pop("channels")))
        self._channels_drawn = [
            [c["name"], bool(c["write"]), str(c["closed"])] for c in frame["channel_state"]
        ]
        self.shown = max(self.shown, frame["version"])
        await self.send_json(frame)

    async def _follow_channels(self, readable: frozenset[str]) -> None:
        """Join the groups of the private channels this seat may read now, leave the others."""
        for channel in readable - self.readable - {"public"}:
            await self.channel_layer.group_add(
                channel_group(self.table_id, channel), self.channel_name
            )
        for channel in self.readable - readable - {"public"}:
            await self.channel_layer.group_discard(
                channel_group(self.table_id, channel), self.channel_name
            )
        self.readable = readable

    async def table_changed(self, event: dict[str, Any]) -> None:
        """Channels hands a consumer its messages one at a time: a panel is rendered from the
        table as it is when its turn comes, so the changes queued behind it that it already
        shows are dropped here (their version is not newer)."""
        version = int(event.get("version", 0))
        if version <= self.shown:
            return
        if self._answered(event, version):
            # This page's own move, answered with its seat's panel at this version, in this
            # page's language, and its chat boxes unchanged: nothing left to draw. Should the
            # answer not reach the page, the page asks for its panel (static/js/table.js).
            self.shown = version
            return
        status = event.get("status")
        # Nothing missed (the version before this one is shown) and this seat's own view did
        # not change: the public status is all that moved.
        if (
            status is not None
            and event.get("language") == self.language
            and version == self.shown + 1
            and self.seat_id not in event.get("redraw", ())
        ):
            self.shown = version
            await self.send_json({"type": "status", "version": version, "html": status})
            return
        frame = await database_sync_to_async(self._render)(None, version)
        if frame is None:
            await self.close(code=CLOSE_NOT_SEATED)
            return
        await self._send_frame({"type": "panel", **frame})

    def _answered(self, event: dict[str, Any], version: int) -> bool:
        """Whether the change to `version` was this page's own move, whose answer drew the
        seat's panel at that version (push.Answered): the key is this socket's and the mover
        this socket's seat (a key sent by another seat's page spares nothing), the page showed
        the version before it (nothing missed), the answer is in this socket's language, and
        the seat's chat channels are as this socket last drew them."""
        answered = event.get("answered")
        return (
            isinstance(answered, dict)
            and bool(self.key)
            and answered.get("key") == self.key
            and self.seat_id is not None
            and answered.get("seat") == self.seat_id
            and answered.get("language") == self.language
            and version == self.shown + 1
            and self._channels_drawn is not None
            and answered.get("channels") == self._channels_drawn
        )

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler, on the one thread
        # all consumers share for the database; a chat line reads nothing, so it is handed on
        # at once instead of waiting behind the panels being rendered there.
        if message.get("type") == "chat.line":
            await self.chat_line(message)
            return
        await super().dispatch(message)

    async def chat_line(self, event: dict[str, Any]) -> None:
        if event["channel"] not in self.readable:
            return
        mine = self.seat_id is not None and event["seat_id"] == self.seat_id
        await self.send(text_data=event["mine" if mine else "others"])


def _ref(value: object) -> str | int | None:
    """The page's name for its line, if it is one (echoed as it came, never interpreted)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) < 2**53:
        return value
    if isinstance(value, str) and len(value) <= REF_MAX_LENGTH:
        return value
    return None


def _line_frame(line: Any) -> dict[str, Any]:
    return {
        "type": "chat",
        "id": line.id,
        "channel": line.channel,
        "name": line.name,
        "note": line.note,
        "text": line.text,
        "sent_at": line.sent_at.isoformat(),
        "mine": line.is_me,
    }
