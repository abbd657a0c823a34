"""The table's chat: a line checked (its characters, its length, the seat's pace, the channel
the game opens to the seat now, the game's own rules) and delivered after commit."""

from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _

from games.tables import push
from games.tables.models import ChatLine, Seat
from games.tables.reads import seat_info
from games.tables.services.common import (
    ServiceError,
    WrongStageError,
    at_table,
    current_time,
    family_of,
)

CHAT_MAX_LENGTH = 500
# Per seat: at most CHAT_BURST lines in any CHAT_WINDOW seconds, counted from the stored lines,
# so the limit holds across reconnects and server processes.
CHAT_BURST = 5
CHAT_WINDOW = 10


def clean_chat_text(text: object) -> str:
    """The line as it will be stored: control and invisible format characters dropped (they
    only serve to disguise a line), trimmed; newlines and tabs stay."""
    if not isinstance(text, str):
        raise ServiceError(_("A chat message must be text."))
    text = "".join(
        c
        for c in unicodedata.normalize("NFC", text)
        if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co")
    ).strip()
    if not text:
        raise ServiceError(_("Type a message first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(
            _("Messages are limited to %(most)d characters.") % {"most": CHAT_MAX_LENGTH}
        )
    return text


@transaction.atomic
def chat_post(
    *,
    seat: Seat,
    text: object,
    channel: str = "public",
    via: str = "",
    now: datetime | None = None,
) -> ChatLine:
    """Store a chat line and deliver it after commit to every page that may read its channel.

    Refused (nothing stored) when the game closes the channel to this seat now, when the seat
    sends too fast, and when the game's rules refuse the line (rules/000 s5c: no quoting).
    `via` names the chat service the line was written on, if not a page (games/chatbot)."""
    clean = clean_chat_text(text)
    held = at_table(seat.table_id, seat.pk)
    table, current = held.table, held.seat
    assert current is not None
    game = family_of(table)
    info = held.info
    me = seat_info(current)
    access = next((c for c in game.channels(info, me) if c.name == channel), None)
    if access is None or not access.write:
        raise WrongStageError(
            access.closed if access and access.closed else _("You cannot write there now.")
        )
    when = current_time(now)
    recent = ChatLine.objects.filter(
        seat=current, sent_at__gt=when - timedelta(seconds=CHAT_WINDOW)
    ).count()
    if recent >= CHAT_BURST:
        raise ServiceError(
            _("Slow down: at most %(lines)d messages every %(seconds)d seconds.")
            % {"lines": CHAT_BURST, "seconds": CHAT_WINDOW}
        )

    problem = game.chat_problem(info, me, channel, clean)
    if problem:
        raise ServiceError(problem)
    line = ChatLine.objects.create(
        table=table, channel=channel, seat=current, author=current.name, text=clean, via=via
    )
    push.chat_line_on_commit(table, line)
    return line
