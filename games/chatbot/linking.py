"""The one-time code that ties a web seat to a chat account (issue 29).

The seat's page shows `!link <game id> <code>`; the player sends it to the bot in a private
message and the bot plays that seat from then on. The code is a keyed hash of the seat's secret
token, so it needs no column and tells nothing about the token; it works once, because a seat
has at most one link (models.SeatLink is one to one).
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

from games.tables.models import Seat


def link_code(seat: Seat) -> str:
    """The code seat's page shows (50 bits, lower-case letters and digits)."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(), f"chat-link:{seat.token}".encode(), hashlib.sha256
    )
    return digest.hexdigest()[:12]


def seat_for_code(seats: list[Seat], code: str) -> Seat | None:
    """The seat among `seats` whose link code is `code`, if any."""
    code = (code or "").strip().lower()
    return next((s for s in seats if hmac.compare_digest(link_code(s), code)), None)
