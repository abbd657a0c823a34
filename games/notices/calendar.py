"""A seat's deadlines as a calendar feed (issue 41, item 5): an iCalendar file (RFC 5545) a
calendar app subscribes to by its signed link, built with the icalendar library.

It holds what the seat's page shows in its header and clock, nothing more: the game's code, the
current phase's public name and when it ends. Each step's event keeps its UID, so a calendar
that reads the feed again moves the event when the host gives more time.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from icalendar import Alarm, Calendar, Event

from games.tables.models import Seat, Stage

from .models import Subscription


def feed(seat: Seat, root: str) -> bytes:
    """The calendar of `seat`: its table's current deadline, if it has one, with a reminder
    as the seat chose (or none)."""
    table = seat.table
    subscription = Subscription.objects.filter(seat=seat).first()
    language = subscription.language if subscription else settings.LANGUAGE_CODE
    calendar = Calendar()
    calendar.add("prodid", "-//onenight//notices//EN")
    calendar.add("version", "2.0")
    with translation.override(language):
        calendar.add("x-wr-calname", _("Game %(code)s") % {"code": table.code})
        if table.stage == Stage.PLAYING and table.deadline is not None:
            event = Event()
            event.add("uid", f"{table.code}-{table.round}-{table.phase}@onenight")
            event.add(
                "summary",
                _("Game %(code)s: %(phase)s ends")
                % {"code": table.code, "phase": table.phase_label},
            )
            event.add("dtstart", table.deadline)
            event.add("dtend", table.deadline + timedelta(minutes=15))
            event.add("dtstamp", timezone.now())
            event.add("url", f"{root}{reverse('table', args=[table.code])}")
            if subscription is not None and subscription.remind_minutes:
                alarm = Alarm()
                alarm.add("action", "DISPLAY")
                alarm.add("description", event["summary"])
                alarm.add("trigger", -timedelta(minutes=subscription.remind_minutes))
                event.add_component(alarm)
            calendar.add_component(event)
    return calendar.to_ical()
