""" "Since you last looked" (issue 41, item 6): what a player coming back to their seat's page
after a while finds first: the app's notes in the channels the seat reads now (the phases
begun, the deaths announced), who is out of the game, and what the game asks of the seat now.
Built from the seat's page as it is drawn (the channels it reads, its family panel), so it
shows nothing the page would not.

"Last looked" is when one of the seat's pages last said it was open (`Seat.last_seen`, which
an open page's socket keeps fresh), so a page opened again a moment later goes straight to the
game, and the box costs no query unless the player has been away.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from games.tables.models import ChatLine, Seat

# A page opened again within this is not "coming back": nothing is shown.
AWAY = timedelta(hours=3)
MOST_NOTES = 30


@dataclass(frozen=True, slots=True)
class Since:
    looked_at: datetime
    notes: tuple[str, ...]
    out: tuple[str, ...]
    asked: bool
    phase_label: str


def since_last_looked(page: Any) -> Since | None:
    """What happened at `page`'s table since its seat's page was last open, if that was a
    while ago; None otherwise (a watcher, a page open a moment ago, a lobby)."""
    me: Seat | None = page.me
    if me is None or me.last_seen is None or page.table.stage == "lobby":
        return None
    before = me.last_seen
    if page.now - before < AWAY:
        return None
    channels = [c.name for c in page.channels]
    lines = ChatLine.objects.filter(
        table_id=page.table.pk, note=True, channel__in=channels, sent_at__gt=before
    ).order_by("-id")[:MOST_NOTES]
    return Since(
        looked_at=before,
        notes=tuple(line.text for line in reversed(lines)),
        out=tuple(p.name for p in page.players if not p.alive),
        asked=bool(page.panel.attention) and page.table.stage == "playing",
        phase_label=page.phase_label,
    )
