""" "Since you last looked" (issue 41, item 6): what a player coming back to their seat's page
after a while finds first: the app's notes in the channels the seat reads now, who has died,
and what the game asks of the seat now. Built from the seat's page as it is drawn (the channels
it reads, its family panel), so it shows nothing the page would not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from games.tables.models import ChatLine, Seat

from .models import Look

# A page opened again within this is not "coming back": nothing is shown.
AWAY = timedelta(hours=3)
MOST_NOTES = 30


@dataclass(frozen=True, slots=True)
class Since:
    looked_at: datetime
    notes: tuple[str, ...]
    died: tuple[str, ...]
    asked: bool
    phase_label: str


def since_last_looked(page: Any, now: datetime | None = None) -> Since | None:
    """What changed for `page`'s seat since its page was last opened, if it was a while ago
    (None otherwise, or for a watcher); and records this look."""
    me: Seat | None = page.me
    if me is None:
        return None
    when = now or page.now
    seats = list(page.table.seats.order_by("position"))
    dead = sorted(s.pk for s in seats if not s.alive)
    with transaction.atomic():
        look = Look.objects.select_for_update().filter(seat=me).first()
        if look is None:
            Look.objects.create(seat=me, looked_at=when, dead=dead)
            return None
        before, dead_before = look.looked_at, set(look.dead)
        look.looked_at, look.dead = when, dead
        look.save(update_fields=["looked_at", "dead"])
    if when - before < AWAY or page.table.stage == "lobby":
        return None
    channels = [c.name for c in page.channels]
    lines = ChatLine.objects.filter(
        table=page.table, note=True, channel__in=channels, sent_at__gt=before
    ).order_by("-id")[:MOST_NOTES]
    return Since(
        looked_at=before,
        notes=tuple(line.text for line in reversed(lines)),
        died=tuple(s.name for s in seats if not s.alive and s.pk not in dead_before),
        asked=bool(page.panel.attention) and page.table.stage == "playing",
        phase_label=page.phase_label,
    )
