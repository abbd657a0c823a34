"""Getting a seat back (issue 35): the host shows a player's seat code, the player types it
or scans its QR code in a new browser (games/tables/seat_codes.py, docs/security.md)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.tables import seat_codes, services
from games.tables.clients import client_key
from games.tables.models import Seat, Table
from games.tables.services import ServiceError
from games.tables.sessions import find_table, remember_seat, seat_of
from games.tables.views import (
    message_page,
    no_table,
    seat_back_page,
    seat_post,
    share_root_for,
    table_and_seat,
)


@seat_post
def seat_code(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The host shows a player's seat code and its QR code, on a page of its own (a plain
    form: the code is not in any panel a push would redraw)."""
    raw = request.POST.get("seat", "")
    seat_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else 0
    shown = services.seat_code_show(host=seat, seat_id=seat_id)
    code = seat_codes.seat_code(shown, shown.table)
    path = reverse("seat_back_link", args=[shown.table.code, code])
    context = {
        "table": shown.table,
        "player": shown.name,
        "code": seat_codes.readable(code),
        "link": share_root_for(request).root + path,
        "minutes": seat_codes.WINDOW_MINUTES,
    }
    return render(request, "tables/seat_code.html", context)


def _take_back(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Put `seat`, found by its seat code, in this browser's session, unless the browser holds
    another seat at the table (a host scanning a player's code keeps the host's seat)."""
    held = seat_of(request.session, seat.table)
    if held is not None and held.pk != seat.pk:
        return message_page(
            request,
            _("You already have a seat here"),
            _(
                "This browser already holds a seat at this game. Scan the code with the phone"
                " of the player whose seat it is."
            ),
            409,
        )
    if held is None:
        try:
            services.seat_taken_back(seat=seat)
        except ServiceError as error:  # the seat was removed from the lobby meanwhile
            return message_page(request, _("Seat code not recognised"), str(error), error.status)
    remember_seat(request, seat)
    return redirect("table", code=seat.table.code)


def _wrong_code_keys(request: HttpRequest, table: Table) -> tuple[str, str]:
    return (f"seat-code-wrong:client:{client_key(request)}", f"seat-code-wrong:table:{table.code}")


def _too_many_wrong_codes(request: HttpRequest, table: Table) -> bool:
    """Whether this client, or anyone at this table, sent settings.WRONG_SEAT_CODES_PER_MINUTE
    wrong seat codes this minute (counted in Django's cache: docs/security.md, "Getting a seat
    back")."""
    limit = settings.WRONG_SEAT_CODES_PER_MINUTE
    counts = cache.get_many(_wrong_code_keys(request, table))
    return any(count >= limit for count in counts.values())


def _count_wrong_code(request: HttpRequest, table: Table) -> None:
    for key in _wrong_code_keys(request, table):
        cache.add(key, 0, timeout=60)  # the minute starts at the first wrong code
        try:
            cache.incr(key)
        except ValueError:  # it lapsed between the two calls
            cache.set(key, 1, timeout=60)


def _too_many_page(request: HttpRequest) -> HttpResponse:
    return message_page(
        request,
        _("Too many wrong seat codes"),
        _(
            "Too many wrong seat codes were typed here in the last minute. Wait a minute, then"
            " type the code the host's screen shows."
        ),
        429,
    )


def _seat_for_code(request: HttpRequest, table: Table, typed: object) -> Seat | HttpResponse | None:
    """The seat `typed` opens; None, counted, if it opens none; the refusal when too many
    wrong codes came in the last minute (then nothing is checked)."""
    if _too_many_wrong_codes(request, table):
        return _too_many_page(request)
    found = seat_codes.seat_with_code(table, typed)
    if found is None:
        _count_wrong_code(request, table)
    return found


@require_http_methods(["GET", "POST"])
def seat_back(request: HttpRequest, code: str) -> HttpResponse:
    """A player types the seat code the host's screen shows (games/tables/seat_codes.py)."""
    table, seat = table_and_seat(request, code)
    if table is None:
        return no_table(request)
    if seat is not None:
        return redirect("table", code=table.code)
    if request.method == "GET":
        return seat_back_page(request, table)
    found = _seat_for_code(request, table, request.POST.get("seat_code", ""))
    if isinstance(found, HttpResponse):
        return found
    if found is None:
        error = _(
            "That code does not open a seat at this game. Ask the host to show it again: a code"
            " works for %(minutes)d minutes."
        ) % {"minutes": seat_codes.WINDOW_MINUTES}
        return seat_back_page(request, table, error=error, status=400)
    return _take_back(request, found)


@require_http_methods(["GET", "POST"])
def seat_back_link(request: HttpRequest, code: str, key: str) -> HttpResponse:
    """The link the host's QR code carries: the seat code in the path. Opening it (a GET, which
    a chat app's link preview makes too) only asks; the button's POST takes the seat and tells
    the table."""
    table = find_table(code)
    if table is None:
        return no_table(request)
    found = _seat_for_code(request, table, key)
    if isinstance(found, HttpResponse):
        return found
    if found is None:
        return message_page(
            request,
            _("Seat code not recognised"),
            _(
                "This seat code does not open a seat: a code works for %(minutes)d minutes after"
                " the host shows it. Ask the host to show it again."
            )
            % {"minutes": seat_codes.WINDOW_MINUTES},
            404,
        )
    if request.method == "GET":
        held = seat_of(request.session, table)
        if held is None:
            context = {"table": table, "player": found.name, "key": key}
            return render(request, "tables/seat_back_confirm.html", context)
        if held.pk == found.pk:
            return redirect("table", code=table.code)
    return _take_back(request, found)
