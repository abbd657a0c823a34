"""The notices' pages: a seat asks for e-mails (or stops them), the host sets the table's
defaults, a signed link unsubscribes with one click, a signed link serves the calendar feed.
Thin: read the form, check it, store it; bad input gets a clear message and changes nothing.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.tables.models import Seat
from games.tables.views import message_page, no_table, share_root_for, table_and_seat

from . import calendar, links, owed
from .models import Subscription, TableDefaults

REMIND_CHOICES = (0, 60, 3 * 60, 6 * 60, 12 * 60, 24 * 60)  # minutes before a deadline


class BadForm(Exception):
    """A field that cannot be used; the message says which."""


def _hour(value: str | None) -> int | None:
    """A quiet hour from a form: "" none, else 0-23."""
    if value in (None, ""):
        return None
    if not value.isdigit() or not 0 <= int(value) <= 23:
        raise BadForm(_("Quiet hours run from one hour of the day (0 to 23) to another."))
    return int(value)


def _remind(value: str | None) -> int:
    if value is None or not value.isdigit() or int(value) not in REMIND_CHOICES:
        raise BadForm(_("Choose when to be reminded from the list."))
    return int(value)


def _zone(value: str | None) -> str:
    name = (value or "").strip() or "UTC"
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise BadForm(_("That is not a time zone we know (for example Europe/Paris).")) from None
    return name


def _back(code: str) -> HttpResponse:
    return redirect(reverse("table", args=[code]) + "#notices")


@require_POST
def subscribe(request: HttpRequest, code: str) -> HttpResponse:
    """The seat's choice: an address (empty: no e-mails), a reminder, quiet hours, its zone."""
    table, seat = table_and_seat(request, code)
    if table is None or seat is None:
        return no_table(request)
    email = request.POST.get("email", "").strip()
    try:
        if email:
            if not settings.NOTICES_EMAIL:
                raise BadForm(_("This server sends no e-mails."))
            try:
                validate_email(email)
            except ValidationError:
                raise BadForm(_("That e-mail address does not look right.")) from None
        remind = _remind(request.POST.get("remind"))
        quiet = (_hour(request.POST.get("quiet_from")), _hour(request.POST.get("quiet_to")))
        zone = _zone(request.POST.get("time_zone"))
    except BadForm as error:
        return message_page(request, _("Notices not changed"), str(error), 400)
    with transaction.atomic():
        subscription, _created = Subscription.objects.select_for_update().get_or_create(seat=seat)
        subscription.email = email
        subscription.remind_minutes = remind
        subscription.quiet_from, subscription.quiet_to = quiet
        subscription.time_zone = zone
        subscription.language = get_language() or settings.LANGUAGE_CODE
        subscription.site = share_root_for(request).root
        subscription.done = False
        owed.baseline(subscription)
        subscription.save()
    return _back(table.code)


@require_POST
def table_defaults(request: HttpRequest, code: str) -> HttpResponse:
    """The host's defaults for the table's players: the reminder and the quiet hours."""
    table, seat = table_and_seat(request, code)
    if table is None or seat is None:
        return no_table(request)
    if not seat.is_host:
        return message_page(request, _("Notices not changed"), _("Only the host can do that."), 403)
    try:
        remind = _remind(request.POST.get("remind"))
        quiet = (_hour(request.POST.get("quiet_from")), _hour(request.POST.get("quiet_to")))
    except BadForm as error:
        return message_page(request, _("Notices not changed"), str(error), 400)
    TableDefaults.objects.update_or_create(
        table=table,
        defaults={"remind_minutes": remind, "quiet_from": quiet[0], "quiet_to": quiet[1]},
    )
    return _back(table.code)


# One click from an e-mail (GET), or the mail program's own one-click request (RFC 8058: a
# POST with no cookie and no CSRF token, which the signed link stands in for).
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    seat_id = links.seat_of(token, links.UNSUBSCRIBE)
    if seat_id is None:
        text = _("This link is not one of ours, or it was changed on the way.")
        return message_page(request, _("Not unsubscribed"), text, 400)
    Subscription.objects.filter(seat_id=seat_id).update(email="")
    text = _(
        "You will get no more e-mails from this game. Your seat's page can turn them on again."
    )
    return message_page(request, _("Unsubscribed"), text, 200)


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    seat_id = links.seat_of(token, links.CALENDAR)
    seat = Seat.objects.select_related("table").filter(pk=seat_id).first() if seat_id else None
    if seat is None:
        text = _("This calendar link is not one of ours, or its seat has left the game.")
        return message_page(request, _("No such calendar"), text, 404)
    response = HttpResponse(
        calendar.feed(seat, settings.SITE_URL or share_root_for(request).root),
        content_type="text/calendar; charset=utf-8",
    )
    response["Content-Disposition"] = f'inline; filename="{seat.table.code}.ics"'
    response["Cache-Control"] = "private, no-cache"
    return response
