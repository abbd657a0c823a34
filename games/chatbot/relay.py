"""What the bot owes the chat service now, worked out from the database (issue 29).

`pending` lists the private messages each linked seat should have and has not had, and the
posts each game's channel is owed: the chat lines written on the web, the app's announcements,
the day's countdown with its warnings, and the reveal. `sent` records one as delivered. All of
it is computed from stored state and marked after sending, so a bot that restarts picks up where
it stopped (at worst, a message being sent as it died is sent again), and nothing is lost while
it is down: the deadlines are fired by the app's clock, or by this bot (`catch_up`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.tables import services
from games.tables.models import ChatLine, Stage
from games.tables.reads import seat_info, table_info

from . import letters
from .models import GameChannel, SeatLink

# The day's warnings before voting: posted when this much is left, if the bot is there to see
# it within WARNING_WINDOW (a late warning would be wrong, so a missed one is skipped).
WARNINGS = (timedelta(minutes=5), timedelta(minutes=1))
WARNING_WINDOW = timedelta(seconds=20)
FINAL_LETTERS = ("reveal", "cancelled")
CLOCKED_PHASES = {"day": "The day ends", "voting": "Voting closes"}


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message to send. `to` is a user id (`private`) or a channel id. If `deadline` is
    set, the text holds `{when}`, which the adapter replaces with the deadline in its own way
    (Discord shows a live countdown). `mark` is what `sent` records."""

    private: bool
    to: str
    text: str
    mark: tuple[str, int, str]
    deadline: datetime | None = None


def pending(service: str, now: datetime | None = None) -> list[Outgoing]:
    """Everything owed on `service` now, oldest first per seat and per channel."""
    now = now or timezone.now()
    out: list[Outgoing] = []
    links = SeatLink.objects.filter(account__service=service, done=False).exclude(
        seat__table__stage=Stage.LOBBY
    )
    for link in links.select_related("seat__table", "account"):
        table = link.seat.table
        told = set(link.told)
        for key, text in letters.due(table_info(table), seat_info(link.seat)):
            if key not in told:
                out.append(Outgoing(True, link.account.user_id, text, ("seat", link.pk, key)))
    for game in GameChannel.objects.filter(service=service, done=False).select_related("table"):
        out += _channel_posts(game, service, now)
    return out


def _channel_posts(game: GameChannel, service: str, now: datetime) -> list[Outgoing]:
    table = game.table
    posted = set(game.posted)
    out: list[Outgoing] = []
    lines = ChatLine.objects.filter(table=table, channel="public", pk__gt=game.last_line)
    for line in lines.exclude(via=service).order_by("pk"):
        text = f"» {line.text}" if line.note else f"**{line.author}** (web): {line.text}"
        out.append(Outgoing(False, game.channel_id, text, ("line", game.pk, str(line.pk))))
    last = lines.order_by("-pk").values_list("pk", flat=True).first()
    if last is not None and not out:
        out.append(Outgoing(False, game.channel_id, "", ("line", game.pk, str(last))))
    if table.stage == Stage.PLAYING and table.deadline is not None:
        lead = CLOCKED_PHASES.get(table.phase)
        stamp = table.deadline.isoformat()
        if lead and f"clock:{stamp}" not in posted:
            mark = ("post", game.pk, f"clock:{stamp}")
            out.append(Outgoing(False, game.channel_id, f"{lead} {{when}}.", mark, table.deadline))
        for warning in WARNINGS if lead else ():
            left = table.deadline - now
            key = f"warn:{int(warning.total_seconds())}:{stamp}"
            if warning - WARNING_WINDOW < left <= warning and key not in posted:
                minutes = int(warning.total_seconds() // 60)
                text = (
                    f"{minutes} minute{'s' if minutes != 1 else ''} left: {lead.lower()} {{when}}."
                )
                mark = ("post", game.pk, key)
                out.append(Outgoing(False, game.channel_id, text, mark, table.deadline))
    if table.stage == Stage.OVER:
        reveal = letters.reveal_for_all(table_info(table))
        if reveal:
            out.append(Outgoing(False, game.channel_id, reveal, ("post", game.pk, "end")))
    elif table.stage == Stage.CANCELLED:
        text = f"Game {table.code} was cancelled by its host."
        out.append(Outgoing(False, game.channel_id, text, ("post", game.pk, "end")))
    return out


@transaction.atomic
def sent(item: Outgoing) -> None:
    """Record `item` as delivered (or as given up: a user who refuses private messages)."""
    kind, pk, key = item.mark
    if kind == "seat":
        link = SeatLink.objects.select_for_update().filter(pk=pk).first()
        if link is not None and key not in link.told:
            link.told = [*link.told, key]
            link.done = key in FINAL_LETTERS
            link.save(update_fields=["told", "done"])
        return
    game = GameChannel.objects.select_for_update().filter(pk=pk).first()
    if game is None:
        return
    if kind == "line":
        game.last_line = max(game.last_line, int(key))
        game.save(update_fields=["last_line"])
    elif key not in game.posted:
        game.posted = [*game.posted, key]
        game.done = key == "end"
        game.save(update_fields=["posted", "done"])


def catch_up(now: datetime | None = None) -> list[str]:
    """Fire any passed deadline (the app's clock does too; whoever notices first wins, once)."""
    return services.advance_due_tables(now=now)
