"""What the bot owes the chat service now, worked out from the database (issue 29).

`pending` lists the private messages each linked seat should have and has not had, and the
posts each game's channel is owed: the chat lines written on the web, the app's announcements,
each step's countdown (in its family's words) with its warnings, and the reveal. `sent` records
one as delivered. All of it is computed from stored state and marked after sending, so a bot
that restarts picks up where it stopped (at worst, a message being sent as it died is sent
again), and nothing is lost while it is down: the deadlines are fired by the app's clock, or by
this bot (`catch_up`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.notices import owed as notices_owed
from games.notices import sender as notices_sender
from games.notices.models import Subscription
from games.tables import services
from games.tables.family import Tap, family_named
from games.tables.models import ChatLine, Stage
from games.tables.reads import seat_info, table_info

from . import letters
from .models import BotLock, ChatAccount, GameChannel, SeatLink, SideChannel

# The day's warnings before voting: posted when this much is left, if the bot is there to see
# it within WARNING_WINDOW (a late warning would be wrong, so a missed one is skipped).
WARNINGS = (timedelta(minutes=5), timedelta(minutes=1))
WARNING_WINDOW = timedelta(seconds=20)
FINAL_LETTERS = ("reveal", "cancelled")
# After the end, the game's chat still goes both ways for a while (the web's stays open after
# the reveal); then the channel is an ordinary channel again.
AFTER_GAME = timedelta(hours=2)
# A long step's reminder to those who have not acted (the forum's 48-hour pace).
REMINDER = timedelta(hours=6)
REMINDER_WINDOW = timedelta(hours=1)


def _warning_text(sentence: str, minutes: int) -> str:
    """The warning that the deadline the family's `sentence` gives is `minutes` away."""
    left = ngettext("%(count)d minute left.", "%(count)d minutes left.", minutes) % {
        "count": minutes
    }
    return f"{left} {sentence}"


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
    # A player's chat line from the web: `author` wrote `text`, which the adapter must show as
    # theirs and escape (it is not the bot's own words); a `note` is the app's announcement.
    author: str | None = None
    note: bool = False
    # The taps that answer a letter (games.tables.family.Letter.menus).
    menus: tuple[tuple[Tap, ...], ...] = ()


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
        reminder = _reminder(link, now)
        if reminder is not None and reminder.mark[2] not in told:
            out.append(reminder)
        for letter in letters.due_letters(table_info(table), seat_info(link.seat)):
            if letter.key not in told:
                mark = ("seat", link.pk, letter.key)
                when = table.deadline if "{when}" in letter.text else None
                user = link.account.user_id
                out.append(Outgoing(True, user, letter.text, mark, when, menus=letter.menus))
    # The notices a seat chose to have by direct message (games/notices, issue 41 item 1).
    for notice, user, text in notices_sender.chat_notices_due(service, now):
        out.append(Outgoing(True, user, text, ("notice", notice.pk, "")))
    channels = GameChannel.objects.filter(service=service, done=False).exclude(
        table__finished_at__lt=now - AFTER_GAME
    )
    for game in channels.select_related("table"):
        out += _channel_posts(game, service, now)
    sides = SideChannel.objects.filter(service=service).exclude(channel_id="")
    for side in sides.exclude(table__finished_at__lt=now - AFTER_GAME).select_related("table"):
        out += _side_lines(side, service)
    return out


def _side_lines(side: SideChannel, service: str) -> list[Outgoing]:
    """The lines of a game's side channel (the pack, the graveyard) written on the web, and the
    app's notes there, for its channel on the chat service."""
    out = []
    lines = ChatLine.objects.filter(table=side.table, channel=side.name, pk__gt=side.last_line)
    for line in lines.exclude(via=service).order_by("pk"):
        mark = ("side", side.pk, str(line.pk))
        author = None if line.note else line.author
        out.append(Outgoing(False, side.channel_id, line.text, mark, author=author, note=line.note))
    return out


def _reminder(link: SeatLink, now: datetime) -> Outgoing | None:
    """A long step's reminder to a seat that has not acted (issue 40 item 2: the 48-hour pace),
    by private message: whom the game waits for is nobody else's to know (a werewolf whose
    choice split the pack is not done). Sent REMINDER before the deadline, within
    REMINDER_WINDOW (a step shorter than that has none)."""
    table = link.seat.table
    if table.stage != Stage.PLAYING or table.deadline is None:
        return None
    left = table.deadline - now
    if not REMINDER - REMINDER_WINDOW < left <= REMINDER:
        return None
    info = table_info(table)
    if not family_named(table.family).panel(info, seat_info(link.seat), now).attention:
        return None
    if Subscription.objects.filter(seat_id=link.seat_id, chat_dm=True).exists():
        return None  # the seat chose its notices by DM: its own reminder time and quiet hours
    # Translators: {when} is the deadline as the chat service shows it: keep it as it is.
    text = _("Game %(code)s: you have not acted yet in this step, which ends {when}.") % {
        "code": table.code
    }
    mark = ("seat", link.pk, f"remind:{table.deadline.isoformat()}")
    return Outgoing(True, link.account.user_id, text, mark, table.deadline)


def _channel_posts(game: GameChannel, service: str, now: datetime) -> list[Outgoing]:
    table = game.table
    posted = set(game.posted)
    out: list[Outgoing] = []
    lines = ChatLine.objects.filter(table=table, channel="public", pk__gt=game.last_line)
    for line in lines.exclude(via=service).order_by("pk"):
        mark = ("line", game.pk, str(line.pk))
        author = None if line.note else line.author
        out.append(Outgoing(False, game.channel_id, line.text, mark, author=author, note=line.note))
    last = lines.order_by("-pk").values_list("pk", flat=True).first()
    if last is not None and not out:
        out.append(Outgoing(False, game.channel_id, "", ("line", game.pk, str(last))))
    if table.stage == Stage.PLAYING and table.deadline is not None:
        out += _countdown(game, posted, now)
    if "end" in posted:
        return out
    if table.stage == Stage.OVER:
        reveal = letters.reveal_for_all(table_info(table))
        if reveal:
            out.append(Outgoing(False, game.channel_id, reveal, ("post", game.pk, "end")))
    elif table.stage == Stage.CANCELLED:
        text = _("Game %(code)s was cancelled by its host.") % {"code": table.code}
        out.append(Outgoing(False, game.channel_id, text, ("post", game.pk, "end")))
    return out


def _countdown(game: GameChannel, posted: set[str], now: datetime) -> list[Outgoing]:
    """The deadline's post in the game's channel, and its warnings when they are due, in the
    family's words ("The sheriff election ends {when}."); nothing where the family says the
    channel is not told (One Night's night)."""
    table = game.table
    assert table.deadline is not None
    stamp = table.deadline.isoformat()
    left = table.deadline - now
    keys = [f"clock:{stamp}"] + [
        f"warn:{int(warning.total_seconds())}:{stamp}"
        for warning in WARNINGS
        if warning - WARNING_WINDOW < left <= warning
    ]
    if all(key in posted for key in keys):
        return []  # the usual pass: nothing owed, and the family's state is not read
    sentence = family_named(table.family).clock_sentence(table_info(table))
    if sentence is None:
        return []
    out = []
    for key in keys:
        if key in posted:
            continue
        text = sentence
        if key.startswith("warn:"):
            text = _warning_text(sentence, int(key.split(":")[1]) // 60)
        out.append(Outgoing(False, game.channel_id, text, ("post", game.pk, key), table.deadline))
    return out


@transaction.atomic
def sent(item: Outgoing, given_up: str = "", now: datetime | None = None) -> None:
    """Record `item` as delivered (or as given up, saying why: a user who refuses private
    messages)."""
    kind, pk, key = item.mark
    if kind == "notice":
        notices_sender.chat_sent(pk, now or timezone.now(), given_up)
        return
    if kind == "seat":
        link = SeatLink.objects.select_for_update().filter(pk=pk).first()
        if link is not None and key not in link.told:
            link.told = [*link.told, key]
            link.done = key in FINAL_LETTERS
            link.save(update_fields=["told", "done"])
        return
    if kind == "side":
        SideChannel.objects.filter(pk=pk, last_line__lt=int(key)).update(last_line=int(key))
        return
    game = GameChannel.objects.select_for_update().filter(pk=pk).first()
    if game is None:
        return
    if kind == "line":
        game.last_line = max(game.last_line, int(key))
        game.save(update_fields=["last_line"])
    elif key not in game.posted:
        game.posted = [*game.posted, key]
        game.save(update_fields=["posted"])


def catch_up(now: datetime | None = None) -> list[str]:
    """Fire any passed deadline (the app's clock does too; whoever notices first wins, once),
    then store the notices owed now (the servers' notice loops do too; each is stored once):
    a notice by direct message is owed even while no web server runs."""
    moved = services.advance_due_tables(now=now)
    notices_owed.scan(now)
    return moved


# --- Messages the bot handled, so a restart reads the ones it missed -----------------------------


def handled(service: str, user_id: str, channel_id: str | None, message_id: int) -> None:
    """Record that the bot handled message `message_id` (ids grow with time on Discord)."""
    if channel_id is None:
        ChatAccount.objects.filter(
            service=service, user_id=user_id, last_private__lt=message_id
        ).update(last_private=message_id)
    else:
        GameChannel.objects.filter(
            service=service, channel_id=channel_id, last_message__lt=message_id
        ).update(last_message=message_id)
        SideChannel.objects.filter(
            service=service, channel_id=channel_id, last_message__lt=message_id
        ).update(last_message=message_id)


def missed(service: str) -> tuple[list[tuple[str, int]], list[tuple[str, int, datetime]]]:
    """Where a restarted bot must read what came while it was away: the game channels of games
    not over, each with the last message handled there, and the private messages of every
    account playing such a game, each with the last one handled from it (0: none yet) and when
    its earliest seat still playing was linked. An account that never wrote to the bot
    privately (it joined in a channel) is read from that time: a `!target` it sent while the
    bot was down is its first private message. A game's side channels (the pack, the
    graveyard) are read like its channel, once a message there was handled."""
    channels = GameChannel.objects.filter(service=service, done=False, last_message__gt=0)
    accounts = (
        ChatAccount.objects.filter(service=service, links__done=False)
        .annotate(since=Min("links__linked_at"))
        .values_list("user_id", "last_private", "since")
    )
    sides = SideChannel.objects.filter(
        service=service, last_message__gt=0, table__stage=Stage.PLAYING
    ).exclude(channel_id="")
    places = [*channels.values_list("channel_id", "last_message")]
    places += sides.values_list("channel_id", "last_message")
    return places, list(accounts)


def unreachable(item: Outgoing) -> tuple[str, str] | None:
    """For a player whose private messages are closed to the bot: a notice for the game's
    channel (once, with their role letter), saying how to get their messages; nothing secret."""
    kind, pk, key = item.mark
    if kind != "seat" or key != "role":
        return None
    link = SeatLink.objects.filter(pk=pk).select_related("seat__table").first()
    if link is None:
        return None
    table = link.seat.table
    game = GameChannel.objects.filter(table=table).first()
    if game is None:
        return None
    return game.channel_id, (
        _(
            "I cannot send private messages to %(player)s: allow direct messages from this"
            " server's members (Privacy Settings), then send me `!role %(code)s`."
        )
        % {"player": link.seat.name, "code": table.code}
    )


@transaction.atomic
def first_time(channel_id: str, key: str) -> bool:
    """Whether a one-time notice `key` in game channel `channel_id` is yet to be posted; marks
    it posted (a bot's notice about missing permissions is said once, not every pass)."""
    game = GameChannel.objects.select_for_update().filter(channel_id=channel_id, done=False).first()
    if game is None or key in game.posted:
        return False
    game.posted = [*game.posted, key]
    game.save(update_fields=["posted"])
    return True


# --- One bot process per chat service (issue 40 item 5) ------------------------------------------

LEASE = timedelta(seconds=90)  # a bot that has not renewed its lock for this long is gone


@transaction.atomic
def claim(service: str, holder: str, now: datetime | None = None) -> bool:
    """Take or renew the service's bot lock for `holder`; False while another process holds
    it (it renewed within LEASE): two bots on one token would both send what is owed."""
    now = now or timezone.now()
    lock = BotLock.objects.select_for_update().filter(service=service).first()
    if lock is None:
        BotLock.objects.create(service=service, holder=holder, seen=now)
        return True
    if lock.holder != holder and lock.seen > now - LEASE:
        return False
    lock.holder, lock.seen = holder, now
    lock.save(update_fields=["holder", "seen"])
    return True


def release(service: str, holder: str) -> None:
    """Give the lock up (a bot that stops cleanly)."""
    BotLock.objects.filter(service=service, holder=holder).delete()
