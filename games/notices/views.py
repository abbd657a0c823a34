"""The notices' pages: a seat asks for e-mails (or stops them), the host sets the table's
defaults, a signed link unsubscribes with one click, a signed link serves the calendar feed.
Thin: read the form, check it, store it; bad input gets a clear message and changes nothing.
"""

from __future__ import annotations

import ipaddress
import json
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.tables.models import Seat
from games.tables.views import message_page, no_table, share_root_for, table_and_seat

from . import calendar, links, owed, push
from .models import PushDevice, Subscription, TableDefaults

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
    """The seat's choice: an address (empty: no e-mails), direct messages from the chat bot
    (a linked seat only), a reminder, quiet hours, its zone."""
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
        chat_dm = request.POST.get("chat_dm") == "on"
        if chat_dm and owed.chat_service(seat.pk) is None:
            raise BadForm(_("Link your seat to the chat bot first: its page shows how."))
    except BadForm as error:
        return message_page(request, _("Notices not changed"), str(error), 400)
    with transaction.atomic():
        subscription, _created = Subscription.objects.select_for_update().get_or_create(seat=seat)
        subscription.email = email
        subscription.chat_dm = chat_dm
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


def _endpoint_problem(endpoint: str) -> str | None:
    """Why the server will not post to `endpoint`, or None. A push endpoint is an address the
    server itself posts to: only HTTPS, and never this machine or its private network (unless
    settings.PUSH_LOCAL_ENDPOINTS, for the tests' own push service)."""
    parts = urlsplit(endpoint)
    if settings.PUSH_LOCAL_ENDPOINTS and parts.scheme in ("http", "https") and parts.hostname:
        return None
    if parts.scheme != "https" or not parts.hostname:
        return _("A push service's address starts with https://.")
    host = parts.hostname
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
            return _("That is not a push service's address.")
        return None
    if not address.is_global:
        return _("That is not a push service's address.")
    return None


@require_POST
def push_device(request: HttpRequest, code: str) -> HttpResponse:
    """The page's script hands over the browser's push subscription (JSON, as the browser's
    PushSubscription.toJSON() gives it), or `{"endpoint": ..., "remove": true}` to stop."""
    table, seat = table_and_seat(request, code)
    if table is None or seat is None:
        return JsonResponse({"error": _("You are not seated at this table.")}, status=403)
    if not push.offered():
        return JsonResponse({"error": _("This server sends no push notifications.")}, status=400)
    try:
        data = json.loads(request.body or b"{}")
        endpoint = str(data["endpoint"])
        remove = bool(data.get("remove"))
        keys = {} if remove else data["keys"]
        p256dh, auth = ("", "") if remove else (str(keys["p256dh"]), str(keys["auth"]))
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"error": _("That is not a push subscription.")}, status=400)
    if remove:
        PushDevice.objects.filter(seat=seat, endpoint=endpoint).delete()
        return JsonResponse({"push": False})
    problem = _endpoint_problem(endpoint)
    if problem is None and not (0 < len(endpoint) <= 1000 and 0 < len(p256dh) <= 200):
        problem = _("That is not a push subscription.")
    if problem is None and not 0 < len(auth) <= 100:
        problem = _("That is not a push subscription.")
    if problem is not None:
        return JsonResponse({"error": problem}, status=400)
    with transaction.atomic():
        subscription = Subscription.objects.select_for_update().filter(seat=seat).first()
        if subscription is None:
            subscription = Subscription(
                seat=seat,
                language=get_language() or settings.LANGUAGE_CODE,
                site=share_root_for(request).root,
            )
            owed.baseline(subscription)
            subscription.save()
        PushDevice.objects.update_or_create(
            endpoint=endpoint, defaults={"seat": seat, "p256dh": p256dh, "auth": auth}
        )
    return JsonResponse({"push": True})


SERVICE_WORKER = Path(__file__).resolve().parent / "static" / "notices" / "sw.js"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, allowed to control the whole site (its scope is "/"), and never
    cached: a new version reaches every browser at its next visit."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the app installs to a phone's home screen and opens full screen."""
    # The PNGs phones need (bin/app-icons draws them from favicon.svg): Android's 192 and 512
    # pixel icons, and a maskable one it may cut to its own shape; the SVG for any other size.
    icons: list[dict[str, str]] = [
        {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("app/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("app/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("app/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    response = JsonResponse(
        {
            "name": _("One Night"),
            "short_name": _("One Night"),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#1d1b2f",
            "theme_color": "#1d1b2f",
            "icons": icons,
        },
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "no-cache"
    return response
