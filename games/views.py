"""Pages and htmx fragments. Thin: parse the request, call a service, render the seat's view.

A player is known by the seat token kept in their session (one per game); there are no
accounts. Every template gets a `SeatView` (games/selectors), never models with secrets.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import seat_forms, services
from games.forms import CreateGameForm, JoinCodeForm, JoinForm
from games.models import Game, Phase, Seat
from games.prepared import GAME_BY_CODE, GAME_BY_ID, SEAT_BY_TOKEN, SEATS_OF_GAME, of_game
from games.seat_forms import SeatForm
from games.selectors import seat_view, status_view, table_status
from games.services import NotAllowedError, ServiceError, WrongPhaseError

SESSION_SEATS = "seats"
# Seats a browser's session keeps, the most recently taken: far more games than anyone plays at
# once, and a cookie under 2 KB, under half the 4,096 bytes browsers keep (`_remember_seat`).
REMEMBERED_SEATS = 40
# A seat token's shape (models.new_seat_token) and the longest one the column holds.
SEAT_TOKEN = re.compile(r"[A-Za-z0-9_-]+")
SEAT_TOKEN_LENGTH = 32


# --- Session helpers --------------------------------------------------------------------------


def _remember_seat(request: HttpRequest, seat: Seat) -> None:
    """Keep `seat` in this browser's session, as its newest seat.

    The session is a signed cookie, and browsers drop a cookie over 4,096 bytes, which would
    log the player out of every game at once: only the REMEMBERED_SEATS newest seats are kept
    (about 40 bytes each). A player still at an older table takes their seat back with its
    private rejoin link, which every game page shows."""
    seats = request.session.get(SESSION_SEATS, {})
    seats = dict(seats) if isinstance(seats, dict) else {}
    seats.pop(seat.game.code, None)  # re-inserted last: the newest
    seats[seat.game.code] = seat.token
    for code in list(seats)[: max(0, len(seats) - REMEMBERED_SEATS)]:
        del seats[code]
    request.session[SESSION_SEATS] = seats


def _game_code(code: str) -> str | None:
    """`code` as stored (upper case), or None if it cannot be a game code."""
    code = (code or "").upper()
    return code if code.isalnum() and len(code) <= 16 else None


def _find_game(code: str) -> Game | None:
    stored = _game_code(code)
    return None if stored is None else GAME_BY_CODE.one(stored)


def _session_token(request: HttpRequest, code: str) -> str | None:
    """The seat token this browser holds for game `code`, if any."""
    seats = request.session.get(SESSION_SEATS, {})
    token = seats.get(code) if isinstance(seats, dict) else None
    return token if token and isinstance(token, str) else None


def _client_key(request: HttpRequest) -> str:
    """A keyed hash of the client's address: enough to rate-limit, useless to anyone reading
    the database. Behind the proxy daphne puts here the address nginx saw (its X-Real-IP,
    bin/serve), never one the client wrote in X-Forwarded-For."""
    address = request.META.get("REMOTE_ADDR") or "unknown"
    digest = hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def _message_page(request: HttpRequest, title: str, text: str, status: int) -> HttpResponse:
    return render(request, "games/message.html", {"title": title, "text": text}, status=status)


def _no_game(request: HttpRequest) -> HttpResponse:
    return _message_page(
        request,
        "No such game",
        "There is no game with that code. Check the code or the link you were sent.",
        404,
    )


def _not_seated(request: HttpRequest, game: Game) -> HttpResponse:
    if game.phase == Phase.LOBBY:
        return _message_page(
            request,
            "You are not in this game yet",
            "Take a seat first: open the game's invite link and type your name.",
            403,
        )
    return _message_page(
        request,
        "You are not in this game",
        "This game has already started and you do not have a seat in it. If you are a player,"
        " open your private rejoin link.",
        403,
    )


def _status_for(error: ServiceError) -> int:
    if isinstance(error, NotAllowedError):
        return 403
    if isinstance(error, WrongPhaseError):
        return 409
    return 400


def _render_game(
    request: HttpRequest, seat: Seat, *, error: str | None = None, status: int = 200
) -> HttpResponse:
    """The seat's game page, or just its panel for htmx requests."""
    panel_only = bool(getattr(request, "htmx", False)) and not request.htmx.history_restore_request
    view = seat_view(seat, with_chat=not panel_only)  # the chat is outside the panel
    site_root = f"{request.scheme}://{request.get_host()}"
    context = {"view": view, "error": error, "Phase": Phase, "site_root": site_root}
    template = "games/game.html#panel" if panel_only else "games/game.html"
    response = render(request, template, context, status=status)
    # game.js drops a panel older than the one a websocket push has already shown.
    response["X-Game-Phase"] = view.phase
    return response


def _game_and_seat(request: HttpRequest, code: str) -> tuple[Game | None, Seat | None]:
    """The game `code` and this browser's seat at it (None if not seated), caught up.

    A seated player's request (nearly all of them) costs two small reads whose SQL is built
    once per process (games/prepared.py): the seat by its token, then its game.
    """
    stored = _game_code(code)
    if stored is None:
        return None, None
    token = _session_token(request, stored)
    seat = None
    if token is not None:
        found = SEAT_BY_TOKEN.one(token)
        game = GAME_BY_ID.one(found.game_id) if found is not None else None
        if found is not None and game is not None and game.code == stored:
            seat = of_game([found], game)[0]
    game = seat.game if seat is not None else _find_game(stored)
    if game is None:
        return None, None
    return services.game_caught_up(game), seat


# --- Home, create, join -----------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/home.html",
        {"create_form": CreateGameForm(), "join_form": JoinCodeForm()},
    )


@require_POST
def game_new(request: HttpRequest) -> HttpResponse:
    form = CreateGameForm(request.POST)
    if not form.is_valid():
        return render(
            request,
            "games/home.html",
            {"create_form": form, "join_form": JoinCodeForm()},
            status=400,
        )
    try:
        seat = services.game_create(
            host_name=form.cleaned_data["host_name"],
            ruleset=form.cleaned_data["ruleset"],
            day_minutes=form.cleaned_data["day_minutes"],
            night_minutes=form.cleaned_data["night_minutes"],
            vote_minutes=form.cleaned_data["vote_minutes"],
            require_rules_phrase=form.require_phrase(),
            creator_key=_client_key(request),
        )
    except ServiceError as error:
        form.add_error(None, str(error))
        return render(
            request,
            "games/home.html",
            {"create_form": form, "join_form": JoinCodeForm()},
            status=400,
        )
    _remember_seat(request, seat)
    return redirect("game", code=seat.game.code)


@require_POST
def join_by_code(request: HttpRequest) -> HttpResponse:
    form = JoinCodeForm(request.POST)
    status = 400
    if form.is_valid():
        if _find_game(form.cleaned_data["code"]) is not None:
            return redirect("game", code=form.cleaned_data["code"])
        form.add_error("code", "There is no game with that code.")
        status = 404
    return render(
        request,
        "games/home.html",
        {"create_form": CreateGameForm(), "join_form": form},
        status=status,
    )


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    game, seat = _game_and_seat(request, code)
    if game is None:
        return _no_game(request)
    if seat is not None:
        return redirect("game", code=game.code)
    form = JoinForm(request.POST if request.method == "POST" else None)
    status = 200
    if game.phase != Phase.LOBBY:
        return _not_seated(request, game)
    if game.joins_locked:
        return _message_page(request, "This table is locked", services.TABLE_LOCKED, 403)
    if request.method == "POST":
        if form.is_valid():
            try:
                seat = services.seat_join(
                    game=game,
                    name=form.cleaned_data["name"],
                    rules_phrase=form.cleaned_data["rules_phrase"],
                    joiner_key=_client_key(request),
                )
            except ServiceError as error:
                form.add_error(None, str(error))
                status = _status_for(error)
            else:
                _remember_seat(request, seat)
                return redirect("game", code=game.code)
        else:
            status = 400
    players = [seat.name for seat in SEATS_OF_GAME(game.pk)]
    return render(
        request,
        "games/join.html",
        {"game": game, "form": form, "players": players, "phrase": services.RULES_PHRASE},
        status=status,
    )


def _is_seat_token(token: str) -> bool:
    """Whether `token` could be a seat token (models.new_seat_token: URL-safe base64)."""
    return len(token) <= SEAT_TOKEN_LENGTH and SEAT_TOKEN.fullmatch(token) is not None


@require_GET
def rejoin(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """A player's private link: puts their seat in this browser's session. A token that
    cannot be one (say, with a NUL, which PostgreSQL refuses) is not looked up."""
    game = _find_game(code)
    seat = None
    if game is not None and _is_seat_token(token):
        seat = Seat.objects.select_related("game").filter(game=game, token=token).one_or_none()
    if game is None or seat is None:
        return _message_page(
            request, "Link not recognised", "This rejoin link does not match a seat.", 404
        )
    _remember_seat(request, seat)
    return redirect("game", code=game.code)


# --- The game page ----------------------------------------------------------------------------


@require_GET
def game_page(request: HttpRequest, code: str) -> HttpResponse:
    game, seat = _game_and_seat(request, code)
    if game is None:
        return _no_game(request)
    if seat is None:
        if game.phase == Phase.LOBBY:
            return redirect("join", code=game.code)
        return _not_seated(request, game)
    return _render_game(request, seat)


@require_GET
def status(request: HttpRequest, code: str) -> HttpResponse:
    """The live status fragment (polled, or fetched when the websocket says the game changed).

    When the phase is no longer the one the page shows, htmx is told to reload the page.
    """
    game, seat = _game_and_seat(request, code)
    if game is None:
        return _no_game(request)
    if seat is None:
        return _not_seated(request, game)
    if request.GET.get("phase") not in (None, game.phase):
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    view = status_view(table_status(game), seat_id=seat.pk, is_host=seat.is_host)
    return render(request, "games/game.html#status", {"view": view, "Phase": Phase})


def _read_game_again(seat: Seat) -> None:
    """Give `seat` its game as stored now (a service has just changed it)."""
    game = GAME_BY_ID.one(seat.game_id)
    if game is None:  # deleted meanwhile (staff): as refresh_from_db would
        raise Game.DoesNotExist
    of_game([seat], game)


def _seat_or_error(request: HttpRequest, code: str) -> tuple[Seat | None, HttpResponse | None]:
    game, seat = _game_and_seat(request, code)
    if game is None:
        return None, _no_game(request)
    if seat is None:
        return None, _not_seated(request, game)
    return seat, None


def seat_post(handler: SeatForm) -> Callable[..., HttpResponse]:
    """A POST view for the seat in the session: find the seat, run `handler(request.POST,
    seat)` (which calls one service), then answer.

    Plain forms get a redirect to the game page (Post/Redirect/Get). htmx requests get the new
    panel, also when the post moved the game to another phase: the panel carries its phase, and
    game.js brings the header and the chat box around it up to date (as it does for a panel
    pushed over the websocket). A ServiceError re-renders the page with its message and a
    400/403/409 status; nothing was changed.
    """

    @require_POST
    @wraps(handler)
    def view(request: HttpRequest, code: str, **kwargs: object) -> HttpResponse:
        seat, failure = _seat_or_error(request, code)
        if failure is not None:
            return failure
        assert seat is not None
        try:
            handler(request.POST, seat, **kwargs)
        except ServiceError as error:
            _read_game_again(seat)
            return _render_game(request, seat, error=str(error), status=_status_for(error))
        _read_game_again(seat)
        if not getattr(request, "htmx", False):
            return HttpResponseRedirect(reverse("game", args=[seat.game.code]))
        return _render_game(request, seat)

    return view


# The seated player's game forms (games/seat_forms.py, shared with the websocket).
deck = seat_post(seat_forms.deck)
remove_seat = seat_post(seat_forms.remove_seat)
lock = seat_post(seat_forms.lock)
start = seat_post(seat_forms.start)
cancel = seat_post(seat_forms.cancel)
night_action = seat_post(seat_forms.night_action)
end_day = seat_post(seat_forms.end_day)
ready = seat_post(seat_forms.ready)
vote = seat_post(seat_forms.vote)


@require_POST
def play_again(request: HttpRequest, code: str) -> HttpResponse:
    seat, failure = _seat_or_error(request, code)
    if failure:
        return failure
    assert seat is not None
    try:
        new_seat = services.game_play_again(seat=seat)
    except ServiceError as error:
        return _render_game(request, seat, error=str(error), status=_status_for(error))
    _remember_seat(request, new_seat)
    response = redirect("game", code=new_seat.game.code)
    if getattr(request, "htmx", False):
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("game", args=[new_seat.game.code])
    return response
