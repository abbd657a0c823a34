"""Pages and htmx fragments. Thin: parse the request, call a service, render the seat's view.

A player is known by the seat token kept in their session (one per table); there are no
accounts. Every game form is a POST: with htmx the answer is the seat's new panel, without it
a redirect to the page (Post/Redirect/Get). The websocket only pushes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
)
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from games.tables import seat_codes, services
from games.tables.clients import client_key
from games.tables.family import family_named
from games.tables.forms import CreateTableForm, JoinCodeForm, JoinForm, game_title
from games.tables.models import Seat, Stage, Table
from games.tables.push import SOCKET_KEY, SOCKET_KEY_HEADER
from games.tables.reads import table_info
from games.tables.selectors import table_page
from games.tables.services import ServiceError
from games.tables.sessions import (
    SEAT_TOKEN,
    SESSION_SEATS,
    TABLE_CODE,
    find_table,
    remember_seat,
    session_token,
)
from games.tables.sharing import ShareRoot, server_port, share_root
from games.tables.watching import (
    key_holds,
    may_watch,
    remember_watching,
    watch_link_open,
    which_key,
)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware (settings.MIDDLEWARE) hands it to a view: with
    `htmx`, true when htmx sent it (django-htmx's documented way to type it)."""

    htmx: HtmxDetails


# --- Answers ----------------------------------------------------------------------------------


def message_page(request: HttpRequest, title: str, text: str, status: int) -> HttpResponse:
    return render(request, "tables/message.html", {"title": title, "text": text}, status=status)


def no_table(request: HttpRequest) -> HttpResponse:
    return message_page(
        request,
        _("No such game"),
        _("There is no game with that code. Check the code or the link you were sent."),
        404,
    )


def _not_seated(request: HttpRequest, table: Table) -> HttpResponse:
    """The answer to a browser without a seat (and not watching): in the lobby, take a seat;
    later, the page that says how to get a seat back or watch."""
    if table.stage == Stage.LOBBY:
        return message_page(
            request,
            _("You are not in this game yet"),
            _("Take a seat first: open the game's invite link and type your name."),
            403,
        )
    return seat_back_page(request, table, status=403)


def seat_back_page(
    request: HttpRequest, table: Table, *, error: str | None = None, status: int = 200
) -> HttpResponse:
    """How a player gets their seat back (the host shows its code; typed here) and whether the
    host may hand out a watch link now (the watcher rules, games/tables/watching.py)."""
    context = {
        "table": table,
        "error": error,
        "ended": table.ended,
        "screens": services.players_have_screens(table),
        "watching_open": watch_link_open(table),
        "minutes": seat_codes.WINDOW_MINUTES,
    }
    return render(request, "tables/not_seated.html", context, status=status)


def share_root_for(request: HttpRequest) -> ShareRoot:
    """`share_root` for the address this request was sent to."""
    scheme = request.scheme
    assert scheme is not None  # Django's request always has one ("http" when nothing says)
    return share_root(scheme, request.get_host(), server_port(request.META.get("SERVER_PORT")))


def render_page(
    request: HtmxHttpRequest,
    seat: Seat | None,
    *,
    table: Table | None = None,
    error: str | None = None,
    status: int = 200,
    seats: list[Seat] | None = None,
) -> HttpResponse:
    """The seat's page (seat None: a watcher's page of `table`), or just its panel for htmx
    requests (the chat is outside the panel); `seats` if already read (in seat order)."""
    panel_only = bool(request.htmx) and not request.htmx.history_restore_request
    table = seat.table if seat is not None else table
    assert table is not None, "a watcher's page needs its table"
    page = table_page(table, seat, with_chat=not panel_only, seats=seats)
    # Links other devices open (invite, watch, rejoin): never this machine's loopback address.
    shared = share_root_for(request)
    context = {
        **page.panel.context,
        "page": page,
        "error": error,
        "site_root": shared.root,
        "site_local_only": shared.local_only,
    }
    template = "tables/page.html#panel" if panel_only else "tables/page.html"
    response = render(request, template, context, status=status)
    response["X-Table-Version"] = str(page.version)
    return response


def table_and_seat(request: HttpRequest, code: str) -> tuple[Table | None, Seat | None]:
    """The table `code`, caught up with its clock, and this browser's seat at it: one read
    for a seated player (the seat with its table), two for anyone else."""
    if not TABLE_CODE.fullmatch(code or ""):
        return None, None
    code = code.upper()
    token = session_token(request.session, code)
    seat = None
    if token is not None:
        seat = Seat.objects.select_related("table").filter(table__code=code, token=token).first()
    table = seat.table if seat is not None else Table.objects.filter(code=code).first()
    if table is None:
        return None, None
    if table.deadline is not None and table.deadline <= timezone.now():
        table = services.table_caught_up(table)
        if seat is not None:
            seat.table = table
    return table, seat


# --- Home, create, join -------------------------------------------------------------------------


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and crawlers ask for /favicon.ico whatever the page says: the app's icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tables/home.html", {"create_form": CreateTableForm(), "join_form": JoinCodeForm()}
    )


@require_POST
def table_new(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST)
    if form.is_valid():
        family, ruleset = form.family_and_ruleset()
        try:
            seat = services.table_create(
                family=family,
                ruleset=ruleset,
                host_name=form.cleaned_data["host_name"],
                creator_key=client_key(request),
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            remember_seat(request, seat)
            return redirect("table", code=seat.table.code)
    context = {"create_form": form, "join_form": JoinCodeForm()}
    return render(request, "tables/home.html", context, status=400)


@require_POST
def join_by_code(request: HttpRequest) -> HttpResponse:
    form = JoinCodeForm(request.POST)
    status = 400
    if form.is_valid():
        if find_table(form.cleaned_data["code"]) is not None:
            return redirect("table", code=form.cleaned_data["code"])
        form.add_error("code", _("There is no game with that code."))
        status = 404
    context = {"create_form": CreateTableForm(), "join_form": form}
    return render(request, "tables/home.html", context, status=status)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    table, seat = table_and_seat(request, code)
    if table is None:
        return no_table(request)
    if seat is not None:
        return redirect("table", code=table.code)
    if table.stage != Stage.LOBBY:
        return _not_seated(request, table)
    if table.joins_locked:
        return message_page(request, _("This table is locked"), str(services.TABLE_LOCKED), 403)
    form = JoinForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                seat = services.seat_join(
                    table=table,
                    name=form.cleaned_data["name"],
                    phrase=form.cleaned_data["phrase"],
                    joiner_key=client_key(request),
                )
            except ServiceError as error:
                form.add_error(None, str(error))
                status = error.status
            else:
                remember_seat(request, seat)
                return redirect("table", code=table.code)
    family = family_named(table.family)
    context = {
        "table": table,
        "form": form,
        "players": list(table.seats.order_by("position").values_list("name", flat=True)),
        "phrase": family.join_phrase(table_info(table)),
        "rules_path": family.rules_path(table.ruleset),
        "game_title": game_title(family.title, family.rulesets.get(table.ruleset, table.ruleset)),
    }
    return render(request, "tables/join.html", context, status=status)


@require_GET
def rejoin(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """A player's private link: puts their seat in this browser's session."""
    table = find_table(code)
    seat = None
    if table is not None and SEAT_TOKEN.fullmatch(token):
        seat = Seat.objects.filter(table=table, token=token).first()
    if table is None or seat is None:
        return message_page(
            request, _("Link not recognised"), _("This rejoin link does not match a seat."), 404
        )
    seat.table = table
    remember_seat(request, seat)
    return redirect("table", code=table.code)


# --- The table page ---------------------------------------------------------------------------


@require_GET
def table_view(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table, seat = table_and_seat(request, code)
    if table is None:
        return no_table(request)
    if seat is None:
        if may_watch(request.session, table):
            return render_page(request, None, table=table)
        if table.stage == Stage.LOBBY:
            return redirect("join", code=table.code)
        return _not_seated(request, table)
    # A host whose page has been closed a while hands the role to this player (whoever notices),
    # judged from the seats the page reads anyway.
    seats: list[Seat] | None = list(table.seats.order_by("position"))
    gone = not seat.is_host and services.host_seems_gone(table, seats=seats)
    if gone and services.host_pass_if_gone(seat=seat):
        seat.refresh_from_db()
        seats = None  # read again: the host has moved
    return render_page(request, seat, seats=seats)


@require_GET
def watch(request: HttpRequest, code: str, key: str) -> HttpResponse:
    """A watch link: this browser follows the table without a seat (games/tables/watching.py).
    A player at the table who opens it stays that player; the lobby's link opens a dealt game
    only where watchers read nothing the players may not."""
    table = find_table(code)
    which = which_key(table.code, key) if table is not None else None
    if table is None or which is None:
        return message_page(
            request,
            _("Not a watch link"),
            _("This watch link is not right. Ask the game's host for it again."),
            404,
        )
    if session_token(request.session, table.code) is not None:
        return redirect("table", code=table.code)
    if not key_holds(table, which):
        return message_page(
            request,
            _("This watch link has expired"),
            _(
                "This link was for the game's lobby. Now that the cards are dealt, spectators"
                " here read what the living players may not, so it opens nothing more; the host"
                " can hand out the game's own watch link once their seat may read the same."
            ),
            410,
        )
    remember_watching(request.session, table.code, which)
    return redirect("table", code=table.code)


@require_GET
def panel(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """The seat's panel (what a page fetches when its socket is down): 204 when the page
    already shows this version (`?version=`)."""
    table, seat = table_and_seat(request, code)
    if table is None:
        return no_table(request)
    watcher = seat is None and may_watch(request.session, table)
    if seat is None and not watcher:
        return _not_seated(request, table)
    shown = request.GET.get("version", "")
    if shown.isascii() and shown.isdigit() and int(shown) >= table.version:
        return HttpResponse(status=204)
    return render_page(request, seat, table=table)


def seat_post(handler: Callable[..., object]) -> Callable[..., HttpResponse]:
    """A POST view for the seat in the session: run `handler(request, seat, **kwargs)` (one
    service call), then answer with the panel (htmx) or a redirect. A ServiceError answers
    with the panel and its message, status 400/403/409; nothing was changed."""

    @require_POST
    @wraps(handler)
    def view(request: HtmxHttpRequest, code: str, **kwargs: object) -> HttpResponse:
        table, seat = table_and_seat(request, code)
        if table is None:
            return no_table(request)
        if seat is None:
            return _not_seated(request, table)
        try:
            changed = handler(request, seat, **kwargs)
        except ServiceError as error:
            seat.table.refresh_from_db()
            return render_page(request, seat, error=str(error), status=error.status)
        if isinstance(changed, HttpResponse):
            return changed  # the handler sends the browser elsewhere (the seat is gone)
        seats = None
        if isinstance(changed, services.Moved):
            # The table and seats as the move stored them: the answer is that version's panel.
            seat.table, seats = changed.table, changed.seats
        elif isinstance(changed, Table):
            seat.table = changed  # the table as the service stored it
        else:
            seat.table.refresh_from_db()
        if not request.htmx:
            return HttpResponseRedirect(reverse("table", args=[seat.table.code]))
        return render_page(request, seat, seats=seats)

    return view


def _fields(request: HttpRequest) -> dict[str, list[str]]:
    return {k: v for k, v in request.POST.lists() if k != "csrfmiddlewaretoken"}


@seat_post
def options(request: HttpRequest, seat: Seat) -> None:
    services.options_set(host=seat, fields=_fields(request))


@seat_post
def remove_seat(request: HttpRequest, seat: Seat, seat_id: int) -> None:
    services.seat_remove(host=seat, seat_id=seat_id)


@seat_post
def hand_over(request: HttpRequest, seat: Seat) -> None:
    raw = request.POST.get("seat", "")
    seat_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else 0
    services.host_hand_over(host=seat, seat_id=seat_id)


@seat_post
def leave(request: HtmxHttpRequest, seat: Seat) -> HttpResponse:
    """A player leaves the lobby (a leaving host passes the role on); their browser forgets
    the seat and goes home."""
    services.seat_leave(seat=seat)
    seats = request.session.get(SESSION_SEATS, {})
    if isinstance(seats, dict) and seat.table.code in seats:
        request.session[SESSION_SEATS] = {k: v for k, v in seats.items() if k != seat.table.code}
    return _go(request, reverse("home"))


@seat_post
def lock(request: HttpRequest, seat: Seat) -> None:
    services.table_lock_set(host=seat, locked=request.POST.get("locked") != "no")


@seat_post
def start(request: HttpRequest, seat: Seat) -> Table:
    return services.table_start(host=seat, fields=_fields(request))


@seat_post
def cancel(request: HttpRequest, seat: Seat) -> None:
    services.table_cancel(table=seat.table, by=seat)


@seat_post
def clock(request: HttpRequest, seat: Seat) -> None:
    raw = request.POST.get("minutes", "")
    minutes = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 7 else 0
    services.clock_set(host=seat, action=request.POST.get("action", ""), minutes=minutes)


@seat_post
def move(request: HtmxHttpRequest, seat: Seat, kind: str) -> services.Moved:
    answering = socket_key(request) if request.htmx else None
    return services.seat_moved(seat=seat, kind=kind, fields=_fields(request), answering=answering)


def socket_key(request: HttpRequest) -> str | None:
    """The key the page's socket gave it (static/js/table.js sends it with a form): its socket
    need not draw the panel this request answers with (push.Answered). Only a key as the
    consumer makes them is taken."""
    key = request.headers.get(SOCKET_KEY_HEADER, "")
    return key if SOCKET_KEY.fullmatch(key) else None


@require_POST
def chat(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """A chat line. The line reaches every page (this one too) by the socket; the answer is
    the emptied form, or the form with what was typed and why it was refused."""
    table, seat = table_and_seat(request, code)
    if table is None:
        return no_table(request)
    if seat is None:
        return _not_seated(request, table)
    channel = request.POST.get("channel", "public")
    text = request.POST.get("text", "")
    context = {"code": table.code, "channel": channel, "text": "", "error": None, "writable": True}
    try:
        services.chat_post(seat=seat, text=text, channel=channel)
    except ServiceError as error:
        if not request.htmx:
            return render_page(request, seat, error=str(error), status=error.status)
        closed = isinstance(error, services.WrongStageError)
        context.update(text=text, error=None if closed else str(error), closed=str(error))
        context["writable"] = not closed
        return render(request, "tables/chat_form.html", context, status=error.status)
    if not request.htmx:
        return HttpResponseRedirect(reverse("table", args=[table.code]))
    return render(request, "tables/chat_form.html", context)


@require_POST
def play_again(request: HtmxHttpRequest, code: str) -> HttpResponse:
    table, seat = table_and_seat(request, code)
    if table is None:
        return no_table(request)
    if seat is None:
        return _not_seated(request, table)
    try:
        new_seat = services.play_again(seat=seat)
    except ServiceError as error:
        return render_page(request, seat, error=str(error), status=error.status)
    remember_seat(request, new_seat)
    return _go(request, reverse("table", args=[new_seat.table.code]))


def _go(request: HtmxHttpRequest, target: str) -> HttpResponse:
    """Send the browser to `target`: htmx follows HX-Redirect, a plain form the redirect."""
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = target
        return response
    return HttpResponseRedirect(target)
