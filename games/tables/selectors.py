"""What one seat (or a spectator) may see of a table now. Every page, fragment and push for a
seat is rendered from `table_page`; the game's part comes from its family's `panel`, which
holds only what that seat may know. Selectors read; they never change anything."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.tables.family import Channel, Panel, family_named
from games.tables.models import ChatLine, Seat, Stage, Table
from games.tables.reads import seat_info, table_info
from games.tables.seat_codes import givable_seats
from games.tables.watching import shows_watch_link, watch_key, watch_path

# Lines of each channel a page (or a reconnecting socket) receives: a 30-minute day of a lively
# table.
CHAT_HISTORY = 120


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as everyone sees them: public facts only."""

    id: int
    name: str
    is_host: bool
    is_me: bool
    alive: bool


@dataclass(frozen=True, slots=True)
class ChatLineView:
    id: int
    channel: str
    name: str
    text: str
    sent_at: datetime
    note: bool
    is_me: bool


@dataclass(frozen=True, slots=True)
class ChannelView:
    """A chat channel as this seat has it: whether it may write, and the newest lines."""

    name: str
    title: str
    write: bool
    closed: str
    lines: tuple[ChatLineView, ...]


@dataclass(frozen=True, slots=True)
class TableStatus:
    """The public status box: the clock and the family's progress line, the same for every
    seat."""

    table: Table
    progress: str
    clock_label: str
    now: datetime

    @property
    def seconds_left(self) -> int | None:
        deadline = self.table.deadline
        if deadline is None:
            return None
        return max(0, int((deadline - self.now).total_seconds()))

    @property
    def shown(self) -> bool:
        return bool(self.progress) or self.seconds_left is not None or self.paused

    @property
    def paused(self) -> bool:
        return self.table.paused_seconds is not None


def table_status(
    table: Table, seats: list[Seat] | None = None, now: datetime | None = None
) -> TableStatus:
    progress, clock = "", ""
    if table.stage != Stage.LOBBY:
        info = table_info(table, seats)
        progress, clock = family_named(table.family).public_status(info)
    return TableStatus(table, progress, clock, now or timezone.now())


def status_html(table: Table, seats: list[Seat] | None = None) -> str:
    """The status box as every page of the table shows it now."""
    return render_to_string("tables/page.html#status", {"status": table_status(table, seats)})


@dataclass(frozen=True, slots=True)
class TablePage:
    """Everything seat `me` (None: a spectator) may know about its table at this moment."""

    table: Table
    me: Seat | None
    players: tuple[PlayerRow, ...]
    family_title: str
    ruleset_label: str
    panel: Panel
    phase_label: str  # in the reader's language
    start_problem: str | None
    seat_limits: tuple[int, int]
    channels: tuple[ChannelView, ...]
    now: datetime
    next_table_code: str | None = None
    # The table's watch link, on the host's page while the watcher rules let it be shown
    # (games/tables/watching.py); None on every other page.
    watch_path: str | None = None
    # Whether the host's page offers to show a player's seat code (games/tables/seat_codes.py).
    gives_seats_back: bool = False
    # The seats whose code the host may be shown now (seat_codes.givable_seats), and whether
    # some other player's seat is left out (it reads what the host's own seat may not).
    seat_back_ids: frozenset[int] = frozenset()
    seat_back_withheld: bool = False
    # Whether each player plays on a screen of their own (reads.players_have_screens): not at
    # a game moderated at a table, whose page then leaves out what only phones need (the
    # invite, the lock, a seat's removal or hand-over, the turn's sound, the rejoin link).
    players_have_screens: bool = True

    @property
    def playing(self) -> tuple[PlayerRow, ...]:
        """The seats that play: all of them, or, at a game moderated at a table, all but the
        moderator's (the host's)."""
        if self.players_have_screens:
            return self.players
        return tuple(p for p in self.players if not p.is_host)

    @property
    def is_host(self) -> bool:
        return self.me is not None and self.me.is_host

    @property
    def rules_path(self) -> str:
        """The ruleset's rules page and role cards (its family's)."""
        return family_named(self.table.family).rules_path(self.table.ruleset)

    @property
    def next_watch_path(self) -> str | None:
        """The watch link of the table "play again" opened after this one (its lobby's key): a
        watcher's page follows the players there (issue 35)."""
        code = self.next_table_code
        return reverse("watch", args=[code, watch_key(code)]) if code else None

    @property
    def status(self) -> TableStatus:
        return TableStatus(self.table, self.panel.progress, self.panel.clock_label, self.now)

    @property
    def seconds_left(self) -> int | None:
        return self.status.seconds_left

    @property
    def version(self) -> int:
        return self.table.version


def _line(line: ChatLine, me: Seat | None) -> ChatLineView:
    return ChatLineView(
        id=line.pk,
        channel=line.channel,
        name=line.author,
        text=line.text,
        sent_at=line.sent_at,
        note=line.note,
        is_me=me is not None and line.seat_id == me.pk,
    )


# Marked here, translated where it is shown: a plain string, so that it may be compared.
WATCHERS_READ = gettext_noop("You are watching: only the players write here.")


def _readable(channels: tuple[Channel, ...], me: Seat | None) -> tuple[Channel, ...]:
    """The channels `me` may read; a watcher (None) writes in none of them, whatever a family
    says."""
    readable = tuple(c for c in channels if c.read)
    if me is None:
        closed = _(WATCHERS_READ)
        readable = tuple(replace(c, write=False, closed=closed) for c in readable)
    return readable


def readable_channels(
    table: Table, me: Seat | None, seats: list[Seat] | None = None
) -> tuple[Channel, ...]:
    """The chat channels `me` may read now, as its table's family says."""
    info = table_info(table, seats)
    viewer = seat_info(me) if me is not None else None
    return _readable(family_named(table.family).channels(info, viewer), me)


def chat_lines(
    table: Table, me: Seat | None, channels: tuple[Channel, ...], after: int = 0
) -> list[ChatLineView]:
    """The newest CHAT_HISTORY lines of each readable channel after line `after`, oldest
    first. A query per channel (a seat reads one to three), each a limited read of the
    channel's newest lines by its index: one query ranking every channel's lines with a window
    function was tried (issue 39, lever 6) and bought no CPU here, while it reads a long forum
    chat whole before ranking it."""
    lines: list[ChatLine] = []
    for channel in channels:
        newest = ChatLine.objects.filter(table=table, channel=channel.name, id__gt=after).order_by(
            "-id"
        )
        lines.extend(newest[:CHAT_HISTORY])
    lines.sort(key=lambda line: line.pk)
    return [_line(line, me) for line in lines]


def _phase_label(table: Table, panel: Panel) -> str:
    """The phase's name in the reader's language: the family's, or the core's own stages'."""
    if panel.phase_label:
        return panel.phase_label
    if table.stage == Stage.LOBBY:
        return _("Lobby")
    if table.stage == Stage.CANCELLED:
        return _("Cancelled")
    return table.phase_label


def table_page(
    table: Table,
    me: Seat | None,
    *,
    now: datetime | None = None,
    with_chat: bool = True,
    seats: list[Seat] | None = None,
) -> TablePage:
    """Build what `me` may see. A fixed number of queries, whatever the table's size; `seats`
    if already read (in seat order)."""
    now = now or timezone.now()
    if seats is None:
        seats = list(table.seats.order_by("position"))
    if me is not None:
        me = next((s for s in seats if s.pk == me.pk), None)
    family = family_named(table.family)
    info = table_info(table, seats)
    viewer = seat_info(me) if me is not None else None
    in_lobby = table.stage == Stage.LOBBY
    panel = family.lobby(info, viewer) if in_lobby else family.panel(info, viewer, now)
    channels = _readable(family.channels(info, viewer), me)
    lines = chat_lines(table, me, channels) if with_chat else []
    views = tuple(
        ChannelView(
            name=c.name,
            title=c.title,
            write=c.write,
            closed=c.closed,
            lines=tuple(line for line in lines if line.channel == c.name),
        )
        for c in channels
    )
    screens = family.players_have_screens(info)  # the seats already read: no query
    gives_back = me is not None and me.is_host and not table.ended and len(seats) > 1 and screens
    back_ids = givable_seats(table, seats) if gives_back else frozenset()
    next_code = None
    if table.stage == Stage.OVER:
        next_code = Table.objects.filter(previous=table).values_list("code", flat=True).first()
    return TablePage(
        table=table,
        me=me,
        players=tuple(
            PlayerRow(s.pk, s.name, s.is_host, me is not None and s.pk == me.pk, s.alive)
            for s in seats
        ),
        family_title=_(str(family.title)),
        ruleset_label=_(str(family.rulesets.get(table.ruleset, table.ruleset))),
        panel=panel,
        phase_label=_phase_label(table, panel),
        start_problem=family.start_problem(info) if in_lobby else None,
        seat_limits=family.seat_limits(table.ruleset),
        channels=views,
        now=now,
        next_table_code=next_code,
        watch_path=watch_path(table) if shows_watch_link(table, me, seats) else None,
        gives_seats_back=gives_back,
        seat_back_ids=back_ids,
        seat_back_withheld=gives_back and len(back_ids) < len(seats) - 1,
        players_have_screens=screens,
    )
