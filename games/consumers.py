"""The game page's websocket: chat, live status and the clock, for one seated player.

Thin: it finds the seat from the session, calls services for every change and renders the
seat's own status fragment (games/selectors) when the game changes. Group messages carry no
secrets (games/broadcast); everything seat-specific is built here, per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.http import QueryDict
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.html import conditional_escape

from games import seat_forms, services
from games.broadcast import game_group
from games.middleware import CONTROL_CHARACTER_IN_FORM, has_control_character
from games.models import Game, Phase, Seat
from games.prepared import GAME_BY_ID
from games.selectors import (
    FORM_CARDS,
    RECENT_CHAT,
    SeatView,
    StatusView,
    TableRead,
    TableStatus,
    card_view,
    read_table,
    seat_view,
    status_view,
    table_status,
)
from games.worker import next_up, urgent

log = logging.getLogger(__name__)

CLOSE_NOT_SEATED = 4403
CLOSE_INTERNAL_ERROR = 1011  # the page reconnects and catches up
# Several changes in quick succession become one update per page. A new phase goes out at once
# (every player is waiting for it); other changes to the table (who sits at it, the deck) after
# a short pause that gathers a burst; counts of actions, "ready"s and votes sent can wait a
# little longer, so that a table voting at once costs each page a frame or two.
STATUS_COALESCE_SECONDS = 0.05
PROGRESS_COALESCE_SECONDS = 0.25
# A push that failed (say, the database was briefly unreachable) is tried again a few times.
STATUS_RETRIES = 3
STATUS_RETRY_SECONDS = 1.0
# Phases in the order a game goes through them, as Phase declares them (game.js has the list).
PHASE_ORDER = tuple(Phase.values)
PROGRESS_EVENTS = frozenset({"night-progress", "ready", "vote-progress"})


def _seat_from_session(session: Any, code: str) -> Seat | None:
    """The seat this session holds at game `code`. A code that cannot be one (say, with a NUL,
    which PostgreSQL refuses) is not looked up."""
    if not (code.isascii() and code.isalnum() and len(code) <= 16):
        return None
    seats = session.get("seats", {}) if session is not None else {}
    token = seats.get(code) if isinstance(seats, dict) else None
    if not isinstance(token, str):
        return None
    return Seat.objects.select_related("game").filter(game__code=code, token=token).one_or_none()


def _chat_history(game_id: int, after: int) -> list[dict[str, Any]]:
    lines = RECENT_CHAT(game_id, after)
    return [
        {
            "id": m.pk,
            "seat_id": m.seat_id,
            "name": m.author_name,
            "note": m.is_note,
            "text": m.text,
            "sent_at": m.sent_at.isoformat(),
        }
        for m in reversed(list(lines))
    ]


def _current_game(game_id: int) -> Game | None:
    """The game as stored, moved on first if its deadline has passed (as a page load does)."""
    game = GAME_BY_ID.one(game_id)
    return None if game is None else services.game_caught_up(game)


# --- Reads and renders (sync: they run on the database thread) --------------------------------


@dataclass(frozen=True, slots=True)
class PublicStatus:
    """A table's public status after a change, and, outside the lobby, its status box: there
    it reads the same for every seat (a clock and a count), so it is rendered once."""

    table: TableStatus
    html: str | None


def _read_status(game_id: int) -> PublicStatus | None:
    game = _current_game(game_id)
    return None if game is None else _public_status(table_status(game))


def _public_status(table: TableStatus) -> PublicStatus:
    html = None
    if table.game.phase != Phase.LOBBY:  # the lobby's box names "you" and has the host's buttons
        view = status_view(table, seat_id=0, is_host=False)
        html = render_to_string("games/game.html#status", {"view": view, "Phase": Phase})
    return PublicStatus(table, html)


def _read_table(game_id: int) -> TableRead | None:
    game = _current_game(game_id)
    return None if game is None else read_table(game)


def _frame(view: StatusView | SeatView, **markup: str) -> dict[str, Any]:
    """A "status" frame: the phase, the clock and the chat's state, with `markup` (the status
    box as "html", or the whole panel as "panel_html")."""
    return _game_frame(view.game, view.phase, view.now, **markup)


def _game_frame(game: Game, phase: str, now: datetime, **fields: Any) -> dict[str, Any]:
    return {
        "type": "status",
        "phase": phase,
        "now": now.isoformat(),
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "chat_open": phase in services.CHAT_PHASES,
        **fields,
    }


def _status_frame(
    status: PublicStatus, seat_id: int, is_host: bool, csrf_token: str
) -> dict[str, Any]:
    """The seat's status box, for a page that shows the table's phase."""
    view = status_view(status.table, seat_id=seat_id, is_host=is_host)
    html = status.html
    if html is None:
        html = render_to_string(
            "games/game.html#status", {"view": view, "Phase": Phase, "csrf_token": csrf_token}
        )
    return _frame(view, html=html)


def _panel_frame(
    table: TableRead,
    seat_id: int,
    csrf_token: str,
    site_root: str,
    error: str | None = None,
    runs_cache: dict[str, frozenset[tuple[str, ...]]] | None = None,
    shared_parts: dict[str, str] | None = None,
) -> dict[str, Any] | None:
    """The seat's whole panel (role message, forms, report...), for a page that shows another
    phase, or that sent a form: the page swaps it in instead of reloading. `seat_view` builds
    it for this seat only; None if the seat is not at the table.

    A day panel shows the seat all its private texts: their word runs go into `runs_cache`,
    where the quoting check of the seat's chat lines finds them (services.chat_post).

    `shared_parts`: the parts of the panel that read the same for every seat, rendered once
    for all the panels of one table read, by their name in the template's context: the status
    box outside the lobby ("status_html", `PublicStatus.html`) and the reveal card
    ("reveal_html", rendered by the first panel that shows it: `selectors.Reveal` is the
    table's, told from nobody's point of view)."""
    me = next((s for s in table.seats if s.pk == seat_id), None)
    if me is None:
        return None
    view = seat_view(me, table=table, with_chat=False)
    if runs_cache is not None and view.phase == Phase.DAY and view.role is not None:
        runs_cache.setdefault(Phase.DAY, services.private_word_runs(view.role, view.night_report))
    shows_reveal = view.phase == Phase.REVEAL and view.reveal is not None
    if shared_parts is not None and shows_reveal and "reveal_html" not in shared_parts:
        card = render_to_string("games/game.html#reveal_card", {"view": view})
        shared_parts["reveal_html"] = card
    context = {"view": view, "Phase": Phase, "csrf_token": csrf_token, "site_root": site_root}
    html = render_to_string(
        "games/game.html#panel", {**context, **(shared_parts or {}), "error": error}
    )
    return _frame(view, panel_html=html)


# A phase change's panels are rendered for every seat of the table at once, before any page has
# asked: with this stand-in where the page's own CSRF token goes (each page puts its token in
# when it takes its panel). Random per process, so no name or chat line can contain it.
_CSRF_STAND_IN = secrets.token_hex(16)


@dataclass(frozen=True, slots=True)
class PhaseChange:
    """A table after it moved to a new phase: its public status, and each seat's new panel
    frame (with `_CSRF_STAND_IN` for the token) with the word runs its day panel shows."""

    status: PublicStatus
    panels: dict[int, tuple[dict[str, Any], frozenset[tuple[str, ...]] | None]]

    def panel_for(
        self, seat_id: int, csrf_token: str, runs_cache: dict[str, frozenset[tuple[str, ...]]]
    ) -> dict[str, Any] | None:
        """Seat `seat_id`'s frame with its page's token; None if it is not at the table."""
        entry = self.panels.get(seat_id)
        if entry is None:
            return None
        frame, runs = entry
        if runs is not None:
            runs_cache.setdefault(Phase.DAY, runs)
        # Escaped as {% csrf_token %} would: the token comes from a cookie, which the page does
        # not control alone (a sibling subdomain can set it).
        token = conditional_escape(csrf_token)
        return {**frame, "panel_html": frame["panel_html"].replace(_CSRF_STAND_IN, token)}


def _read_phase_change(game_id: int, site_root: str) -> PhaseChange | None:
    """Everything the pages of a game need after a phase change, in one turn on the worker
    thread: the status, the table and every seat's panel. Done as three turns per page (the
    status, the table, then the page's own panel), each waited for in the worker's queue, a
    phase change reached the last page of a busy server seconds late (docs/benchmarks.md).
    What reads the same for every seat, the status box and the reveal card, is rendered once.
    The status (who sits at the table, the count of actions or votes) is taken from the same
    read as the panels."""
    game = _current_game(game_id)
    if game is None:
        return None
    table = read_table(game)
    status = _public_status(table_status(game, table))
    panels: dict[int, tuple[dict[str, Any], frozenset[tuple[str, ...]] | None]] = {}
    shared_parts = {} if status.html is None else {"status_html": status.html}
    for seat in table.seats:
        runs: dict[str, frozenset[tuple[str, ...]]] = {}
        frame = _panel_frame(table, seat.pk, _CSRF_STAND_IN, site_root, None, runs, shared_parts)
        if frame is not None:
            panels[seat.pk] = (frame, runs.get(Phase.DAY))
    return PhaseChange(status, panels)


# --- Forms sent over the socket ------------------------------------------------------------

# A form frame is what the page's htmx form would have posted: a path and its fields.
FORMS_PENDING_PER_SOCKET = 2
FORM_MAX_FIELDS = 64
FORM_MAX_VALUES = 16  # per field name
FORM_MAX_LENGTH = 1000  # characters in a name or a value


@dataclass(frozen=True, slots=True)
class SocketForm:
    """A game form sent over the socket, checked for shape (its content is the service's)."""

    name: str  # the URL name, a key of seat_forms.BY_URL_NAME
    fields: QueryDict
    arguments: dict[str, Any]  # the URL's other arguments (remove_seat's seat id)


def parse_socket_form(content: dict[str, Any], code: str) -> SocketForm | str:
    """The form in a `{"type": "form", "path": ..., "fields": {name: [values]}}` frame, or
    why it is refused. Only the seat forms of this page's own game are taken."""
    path, fields = content.get("path"), content.get("fields")
    if not isinstance(path, str) or len(path) > 200 or not isinstance(fields, dict):
        return "That form could not be read."
    try:
        match = resolve(path.split("?", 1)[0])
    except Resolver404:
        return "That form could not be read."
    if (
        match.url_name not in seat_forms.BY_URL_NAME
        or str(match.kwargs.get("code")).upper() != code
    ):
        return "That form does not belong to this game's page."
    if len(fields) > FORM_MAX_FIELDS:
        return "That form could not be read."
    data = QueryDict(mutable=True)
    for name, values in fields.items():
        values = [values] if isinstance(values, str) else values
        if (
            not isinstance(name, str)
            or len(name) > FORM_MAX_LENGTH
            or not isinstance(values, list)
            or len(values) > FORM_MAX_VALUES
            or not all(isinstance(v, str) and len(v) <= FORM_MAX_LENGTH for v in values)
        ):
            return "That form could not be read."
        if has_control_character(name) or any(
            has_control_character(v, in_field=True) for v in values
        ):
            return CONTROL_CHARACTER_IN_FORM  # as its POST would be (games/middleware)
        data.setlist(name, values)
    data._mutable = False
    arguments = {k: v for k, v in match.kwargs.items() if k != "code"}
    return SocketForm(name=str(match.url_name), fields=data, arguments=arguments)


def _answer_form(
    seat: Seat,
    form: SocketForm,
    csrf_token: str,
    site_root: str,
    runs_cache: dict[str, frozenset[tuple[str, ...]]] | None = None,
) -> dict[str, Any] | None:
    """Run a form for `seat` through the same handler as its POST view, then answer as the
    view's htmx answer would: the seat's panel in its new state, or in the old one with the
    error. A form taken while the game stays in its phase changes one card of the panel (the
    night action, "ready", the vote): the answer then carries only that card (`_card_answer`).
    A form that moved the game on is answered with no panel at all (`_moved_on_answer`).
    None: the seat is no longer at its table."""
    # A passed deadline moves the game on first, as a POST's page load does (views), so a
    # form sent after it is refused as the POST would be.
    game = _current_game(seat.game_id)
    if game is None:
        return None
    error = None
    taken = None
    try:
        taken = seat_forms.BY_URL_NAME[form.name](form.fields, seat, **form.arguments)
    except services.ServiceError as refused:
        error = str(refused)
    if error is None:
        # The game as the service left it, or as it is now for a form that does not say.
        after = taken.game if taken is not None else GAME_BY_ID.one(seat.game_id)
        if after is None:
            return None
        if after.phase != game.phase:
            return _moved_on_answer(after)
        if form.name in FORM_CARDS:
            answer = _card_answer(seat, after, form.name, csrf_token, taken)
            if answer is not None:
                return answer
    table = _read_table(seat.game_id)
    if table is None:
        return None
    frame = _panel_frame(table, seat.pk, csrf_token, site_root, error, runs_cache)
    return None if frame is None else {**frame, "answer": True}


def _moved_on_answer(game: Game) -> dict[str, Any]:
    """The answer to a form that was taken and moved `game` on (the last night action,
    "ready" or vote, the host's start or end of the day): the new phase, with no panel and
    "follows" set. The phase change's push, on its way to every page of the table, brings
    this page its new panel too, rendered with the other seats' in one turn of the worker
    thread (`_read_phase_change`); rendering it here as well put a table read and a panel
    on the worker just before that push (docs/benchmarks.md). The page keeps the form busy
    until the push comes, and asks for its panel should it not come (static/js/game.js)."""
    return _game_frame(game, game.phase, timezone.now(), answer=True, follows=True)


def _card_answer(
    seat: Seat,
    game: Game,
    form_name: str,
    csrf_token: str,
    taken: services.Taken | None = None,
) -> dict[str, Any] | None:
    """The answer to a form that `seat` sent and that was taken, `game` (as read after it)
    still in the form's phase: the one card it changed ("part_html", swapped by the page for
    the element with the id "part"). None when the card needs the whole view. `taken`: what
    the form's service handed back, which spares the card its reads."""
    view = card_view(game, seat, form_name, taken)
    if view is None:
        return None
    card, element_id = FORM_CARDS[form_name]
    context = {"view": view, "Phase": Phase, "csrf_token": csrf_token}
    html = render_to_string(f"games/game.html#{card}", context)
    return {**_frame(view, part_html=html), "part": element_id, "answer": True}


def _seated(status: PublicStatus, seat_id: int) -> bool:
    return any(pk == seat_id for pk, _, _ in status.table.seats)


# --- Reads shared by the pages of a game -------------------------------------------------------

# Every page of a game hears of each change at the same moment. The first to ask reads the
# table (on the database thread) and the others await that same read, on the event loop: a move
# in an 8-player game costs one read, and outside the lobby one render of the status box, not
# eight. Keyed by (what, game id, change id); entries live a few seconds, long enough for every
# page of the game to take its copy.
_SHARED_TTL = 5.0  # seconds after a read completes
_shared: dict[tuple[str, int, str], tuple[float, asyncio.Task[Any]]] = {}
_last_sweep = [0.0]


def _forget_expired(now: float) -> None:
    """Drop the reads whose time to live has passed, at most once a second: they hold a
    table's rows and, after a phase change, every seat's panel, so none is kept longer than
    it is needed."""
    if now - _last_sweep[0] < 1.0:
        return
    _last_sweep[0] = now
    expired = [k for k, (t, job) in _shared.items() if job.done() and now - t >= _SHARED_TTL]
    for old in expired:
        del _shared[old]


def _read_done(key: tuple[str, int, str], task: asyncio.Task[Any]) -> None:
    """A shared read finished: start its time to live, or forget it if it failed (the next
    page to ask tries again). Its error is marked as seen: the pages awaiting it got it."""
    if _shared.get(key, (0.0, None))[1] is not task:
        return  # replaced meanwhile
    if task.cancelled() or task.exception() is not None:
        del _shared[key]
    else:
        _shared[key] = (time.monotonic(), task)


async def _shared_read[T](what: str, game_id: int, change: str, read: Callable[[int], T]) -> T:
    """`read(game_id)` once per change and process, on the database thread; a change id of ""
    (a page catching up by itself) is never shared.

    The read runs as a task of its own: a page that goes away while waiting for it (its wait is
    cancelled) cancels neither the read nor the other pages' waits."""
    if not change:
        return await database_sync_to_async(read)(game_id)
    now = time.monotonic()
    key = (what, game_id, change)
    hit = _shared.get(key)
    if hit is not None and (not hit[1].done() or now - hit[0] < _SHARED_TTL):
        if hit[1].done():  # most pages of a game come after the read: take its result
            return hit[1].result()
        return await asyncio.shield(hit[1])
    _forget_expired(now)
    task: asyncio.Task[T] = asyncio.ensure_future(database_sync_to_async(read)(game_id))
    _shared[key] = (now, task)
    task.add_done_callback(lambda done: _read_done(key, done))
    return await asyncio.shield(task)


class GameConsumer(AsyncJsonWebsocketConsumer):
    """One player's live connection to one game."""

    seat_id: int
    seat_name: str
    code: str
    group: str

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Channels' `AsyncConsumer.__call__`, with a leaner loop.

        Channels waits on the socket and the channel layer together with `asyncio.wait` and
        starts a new task for every message it takes from either: three or four turns of the
        event loop and a task per chat line delivered, for every page (docs/benchmarks.md).
        Here the page's frames are read in this task and the group's events in one long-lived
        task (`_group_events`). Each source is still handled in order; a chat line or a push no
        longer waits while this page's own line is being stored.

        As in Channels, a receive on the layer is under way from the start to the end (the
        Redis pub/sub layer forgets a channel only when such a receive is cancelled), events
        that come before `connect` has run wait for it (nothing goes out before the hello), and
        none is handled once the page has gone.
        """
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = await self.channel_layer.new_channel()
        self.base_send = send
        self._closed = False  # the socket was closed from this end
        self._events_open = False  # connect has run and kept the socket open
        self._events_failed = False
        self._early_events: deque[dict[str, Any]] = deque()
        events = asyncio.create_task(self._group_events())
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    await self._stop(events)  # no event is handled for a page that has gone
                await self.dispatch(message)
                if message["type"] == "websocket.connect" and not self._closed:
                    await self._open_events()
        except StopConsumer:
            pass
        finally:
            await self._stop(events)

    async def _open_events(self) -> None:
        """Connect has run: handle the events that came meanwhile, in order, then let
        `_group_events` handle the rest. An event that comes while these are handled queues
        behind them (the first stays in the queue until it is handled)."""
        self._events_open = True
        while self._early_events and not self._closed:
            await self._handle_event(self._early_events[0])
            self._early_events.popleft()
        self._early_events.clear()

    async def _group_events(self) -> None:
        """Take this page's group events (chat lines, changes) from the layer, in order."""
        while True:
            message = await self.channel_layer.receive(self.channel_name)
            if self._closed or self._events_failed:
                continue  # drained, never handled: the page is going or will reconnect
            if not self._events_open or self._early_events:
                self._early_events.append(message)
                continue
            await self._handle_event(message)

    async def _handle_event(self, message: dict[str, Any]) -> None:
        """Handle one event. One that fails closes the socket, as a failure in Channels' loop
        would: the page reconnects and catches up, rather than stay open and deaf."""
        try:
            await self.dispatch(message)
        except Exception:
            log.exception(
                "Event %s for seat %s failed", message.get("type"), getattr(self, "seat_id", None)
            )
            self._events_failed = True
            with contextlib.suppress(Exception):
                await self.close(code=CLOSE_INTERNAL_ERROR)

    @staticmethod
    async def _stop(events: asyncio.Task[None]) -> None:
        events.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await events

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        self._closed = True
        await super().close(code=code, reason=reason)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Run the handler of `message` (a frame from the page or a group event).

        Channels' own dispatch first hops to the database thread to close stale connections,
        for every message: each chat line a page receives waited its turn behind page requests
        and renders on that one thread (docs/benchmarks.md). Every handler here reaches the
        database only through `database_sync_to_async`, which does that same check around each
        call (channels/db.py), so the hop is skipped.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.code = str(self.scope["url_route"]["kwargs"]["code"]).upper()
        seat = await database_sync_to_async(_seat_from_session)(
            self.scope.get("session"), self.code
        )
        await self.accept()
        if seat is None:
            # Accept, then close with a code the page understands, so it stops retrying.
            await self.close(code=CLOSE_NOT_SEATED)
            return
        self._seat = seat
        self.seat_id = seat.pk
        self.seat_name = seat.name
        self.game_id = seat.game_id
        self.is_host = seat.is_host
        self._change = ""
        self.group = game_group(self.code)
        self._runs_cache: dict[str, frozenset[tuple[str, ...]]] = {}
        self._status_task: asyncio.Task[None] | None = None
        self._status_dirty = False
        self._status_urgent = asyncio.Event()  # a change that should not wait 250 ms
        self._status_now = False  # a new phase: no wait at all
        self._urgent_posts: deque[float] = deque()  # when this socket's recent lines went first
        self._form_lock = asyncio.Lock()  # one form at a time, in the order they came
        self._form_tasks: set[asyncio.Task[None]] = set()
        self._csrf = str(self.scope.get("cookies", {}).get("csrftoken", ""))
        # The Origin passed SameOriginValidator: it is this site as the browser sees it, the
        # root of the invite and rejoin links in a pushed panel.
        headers = dict(self.scope.get("headers", []))
        self._site_root = headers.get(b"origin", b"").decode("latin-1")
        # The phase the page shows (it says so when it connects): a push for another phase
        # carries the seat's new panel, so the page need not reload.
        phase = self._query_param("phase")
        self._page_phase = phase if phase in Phase.values else None
        await self.channel_layer.group_add(self.group, self.channel_name)
        after = self._query_param("after")
        panel = self._query_param("panel") == "1"
        hello = await self._send_hello(int(after) if after.isdigit() else 0, panel=panel)
        if hello is None:
            await self.close(code=CLOSE_NOT_SEATED)

    def _query_param(self, name: str) -> str:
        query = self.scope.get("query_string", b"").decode("latin-1")
        for part in query.split("&"):
            key, _, value = part.partition("=")
            if key == name and value.isascii() and value.isalnum():
                return value[:32]
        return ""

    async def _state_frame(
        self, change: str, page_phase: str | None, *, panel: bool = False, new_phase: bool = False
    ) -> dict[str, Any] | None:
        """What this page needs after `change` ("": catching up by itself): its status box
        while the game is in the phase the page shows (None: whatever phase it is in), its new
        panel when the game has moved on or when `panel` asks for it. None: the seat is no
        longer at the table. `new_phase`: the change was a phase change, so every page will
        want its panel; they are read and rendered for the whole table in one go."""
        batch = None
        if new_phase and change:
            read = partial(_read_phase_change, site_root=self._site_root)
            with next_up():  # the whole table waits for it: ahead of forms and pages
                batch = await _shared_read(f"phase {self._site_root}", self.game_id, change, read)
            status = None if batch is None else batch.status
        else:
            status = await _shared_read("status", self.game_id, change, _read_status)
        if status is None or not _seated(status, self.seat_id):
            return None
        if not panel and status.table.game.phase == (page_phase or status.table.game.phase):
            if status.html is not None:  # the same box for every seat: nothing to render
                return _status_frame(status, self.seat_id, self.is_host, self._csrf)
            return await database_sync_to_async(_status_frame)(
                status, self.seat_id, self.is_host, self._csrf
            )
        if batch is not None:
            return batch.panel_for(self.seat_id, self._csrf, self._runs_cache)
        table = await _shared_read("table", self.game_id, change, _read_table)
        if table is None:
            return None
        return await database_sync_to_async(_panel_frame)(
            table, self.seat_id, self._csrf, self._site_root, None, self._runs_cache
        )

    async def _send_hello(self, after: int, *, panel: bool = False) -> dict[str, Any] | None:
        """Everything a (re)connecting page needs to catch up: phase, clock, its status box
        (so it need not fetch it), its new panel when the game has moved on since the page was
        drawn or when `panel` asks for it (a form was under way when the socket dropped), and
        the chat it has not seen. None: the seat is gone."""
        frame = await self._state_frame("", self._page_phase, panel=panel)
        if frame is None:
            return None
        after = min(after, 2**62)  # ids fit in 63 bits; larger means "after all"
        history = await database_sync_to_async(_chat_history)(self.game_id, after)
        hello = {
            **frame,
            "type": "hello",
            "history": [{**m, "mine": m["seat_id"] == self.seat_id} for m in history],
        }
        self._shown(hello["phase"])
        await self.send_json(hello)
        return hello

    def _shown(self, phase: str) -> None:
        """The page now shows `phase`, unless it already shows a later one (a frame built from
        an older read can go out after a newer one; the page ignores it, and so do we)."""
        if self._page_phase is None or PHASE_ORDER.index(phase) >= PHASE_ORDER.index(
            self._page_phase
        ):
            self._page_phase = phase

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        task = getattr(self, "_status_task", None)
        if task is not None:
            task.cancel()
        for form in list(getattr(self, "_form_tasks", ())):
            form.cancel()  # its service call, if under way, still finishes or fails whole

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not hasattr(self, "seat_id"):
            return
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "chat":
            await self._chat(content.get("text"))
        elif kind == "sync":
            after = content.get("after")
            valid = isinstance(after, int) and not isinstance(after, bool) and after >= 0
            panel = content.get("panel") is True  # the page is unsure what its panel shows
            if await self._send_hello(after if valid else 0, panel=panel) is None:
                await self.close(code=CLOSE_NOT_SEATED)
        elif kind == "form":
            await self._start_form(content)
        elif kind == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.send_json({"type": "error", "message": "Unknown message."})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not text_data:
            await self.send_json({"type": "error", "message": "Send text frames (JSON)."})
            return
        await super().receive(text_data=text_data)

    async def decode_json(self, text_data: str) -> Any:
        try:
            return await super().decode_json(text_data)
        except (ValueError, RecursionError):  # not JSON, or nested too deeply to read
            return None

    async def _start_form(self, content: dict[str, Any]) -> None:
        """Answer a form in a task of its own, so the socket keeps delivering chat and pushes
        while the form waits for the worker thread; a page's forms still run in the order it
        sent them. A page has one or two forms under way at most (a person clicks once, and
        perhaps again): more are refused at once, so that one socket cannot fill the worker
        thread's queue with forms."""
        if len(self._form_tasks) >= FORMS_PENDING_PER_SOCKET:
            message = "Wait for the answer to your last choice, then try again."
            await self.send_json({"type": "form-error", "message": message})
            return
        task = asyncio.create_task(self._form(content))
        self._form_tasks.add(task)
        task.add_done_callback(self._form_tasks.discard)

    async def _form(self, content: dict[str, Any]) -> None:
        async with self._form_lock:
            form = parse_socket_form(content, self.code)
            if isinstance(form, str):
                await self.send_json({"type": "form-error", "message": form})
                return
            try:
                answer = await database_sync_to_async(_answer_form)(
                    self._seat, form, self._csrf, self._site_root, self._runs_cache
                )
            except Exception:
                log.exception("Form %s of seat %s failed", form.name, self.seat_id)
                message = "Something went wrong; reload the page to see where the game is."
                await self.send_json({"type": "form-error", "message": message})
                return
            if answer is None:
                await self.close(code=CLOSE_NOT_SEATED)
                return
            if not answer.get("follows"):  # else the page shows its phase until the push
                self._shown(answer["phase"])
            await self.send_json(answer)

    def _post(self, text: object) -> None:
        # The seat as read at connect: chat_post checks, in its transaction, that it is still
        # at the table (NotAllowedError if not).
        services.chat_post(seat=self._seat, text=text, runs_cache=self._runs_cache)

    def _may_jump_the_queue(self) -> bool:
        """Chat goes ahead of other work on the worker thread, but no more lines per socket
        than the chat's own limit allows: a client flooding its socket gets no precedence over
        everyone else's pages (its lines are refused by chat_post all the same)."""
        now = time.monotonic()
        recent = self._urgent_posts
        while recent and now - recent[0] > services.CHAT_WINDOW:
            recent.popleft()
        if len(recent) >= services.CHAT_BURST:
            return False
        recent.append(now)
        return True

    async def _chat(self, text: object) -> None:
        try:
            if self._may_jump_the_queue():
                with urgent():  # ahead of page requests and renders on the worker thread
                    await database_sync_to_async(self._post)(text)
            else:
                await database_sync_to_async(self._post)(text)
        except services.NotAllowedError:
            await self.close(code=CLOSE_NOT_SEATED)  # removed from the table meanwhile
        except services.ServiceError as error:
            await self.send_json({"type": "error", "message": str(error)})
        else:
            await self.send_json({"type": "sent"})

    # --- Group events (public; each rendered for this seat) ----------------------------------

    async def chat_message(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {
                "type": "chat",
                "id": event["id"],
                "name": event["name"],
                "note": event.get("note") is True,
                "text": event["text"],
                "sent_at": event["sent_at"],
                "mine": event["seat_id"] == self.seat_id,
            }
        )

    async def game_changed(self, event: dict[str, Any]) -> None:
        # A change that arrives while a render is under way marks the status dirty, so one more
        # render follows: no change is ever lost, and a burst costs at most two renders.
        self._status_dirty = True
        self._change = str(event.get("change", ""))
        kind = event.get("event")
        if kind == "phase":
            self._status_now = True
        if kind not in PROGRESS_EVENTS:
            self._status_urgent.set()
        if self._status_task is None or self._status_task.done():
            self._status_task = asyncio.create_task(self._send_status())

    async def _send_status(self) -> None:
        failures = 0
        while self._status_dirty:
            # Progress waits up to PROGRESS_COALESCE_SECONDS, cut short by any other change.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._status_urgent.wait(), PROGRESS_COALESCE_SECONDS)
            if self._status_urgent.is_set() and not self._status_now:
                await asyncio.sleep(STATUS_COALESCE_SECONDS)
            self._status_urgent.clear()
            new_phase, self._status_now = self._status_now, False
            self._status_dirty = False
            try:
                message = await self._state_frame(
                    self._change, self._page_phase, new_phase=new_phase
                )
            except Exception:
                log.exception("Could not render the status of seat %s", self.seat_id)
                failures += 1
                if failures > STATUS_RETRIES:
                    return  # the page's own poll and its next change catch it up
                self._status_dirty = True  # try again: the update must not be lost
                await asyncio.sleep(STATUS_RETRY_SECONDS)
                continue
            if message is None:
                await self.close(code=CLOSE_NOT_SEATED)
                return
            if "panel_html" in message and self._page_phase == message["phase"]:
                # The page got a panel of this phase while this one was being read (its own
                # "sync" after a late push, or a form's answer): a second would wipe what the
                # player has picked in the first since.
                message = {k: v for k, v in message.items() if k != "panel_html"}
            self._shown(message["phase"])
            await self.send_json(message)
