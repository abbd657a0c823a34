"""Signed links a seat's notices carry: unsubscribe (one click, no login) and the calendar
feed. Each is the seat's id signed with the site's secret key, a salt per purpose, so one link
cannot stand for the other and none can be made for another seat."""

from __future__ import annotations

from django.core import signing
from django.urls import reverse

UNSUBSCRIBE = "games.notices.unsubscribe"
CALENDAR = "games.notices.calendar"


def token(seat_id: int, purpose: str) -> str:
    return signing.Signer(salt=purpose).sign(str(seat_id))


def seat_of(value: str, purpose: str) -> int | None:
    """The seat id a link was signed for, or None if it was not signed by us for `purpose`."""
    try:
        return int(signing.Signer(salt=purpose).unsign(value))
    except (signing.BadSignature, ValueError):
        return None


def unsubscribe_path(seat_id: int) -> str:
    return reverse("notices_unsubscribe", args=[token(seat_id, UNSUBSCRIBE)])


def calendar_path(seat_id: int) -> str:
    return reverse("notices_calendar", args=[token(seat_id, CALENDAR)])
