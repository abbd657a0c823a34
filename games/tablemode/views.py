"""Table mode's pages (issue 28): parse, call the family through its interface or the table
services, render. A narrator (One Night's) is the family's own pages (`Family.narrator`),
drawn here at table mode's addresses; it needs no server state: its page carries the whole
night, so it keeps going if the network drops once it has loaded."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.tables import services
from games.tables.clients import client_key
from games.tables.family import (
    Narrator,
    Page,
    family_named,
    moderated_options_of,
    narrator_of,
)
from games.tables.services import ServiceError
from games.tables.sessions import remember_seat


@require_GET
def table_home(request: HttpRequest) -> HttpResponse:
    return render(request, "tablemode/home.html")


@require_GET
def narrator(request: HttpRequest, family: str) -> HttpResponse:
    """The family's narrator: its set-up form; once sent, the night's script and the reveal
    sheet."""
    return _narrator_page(request, family, lambda offered: offered.setup(_fields(request.GET)))


@require_POST
def narrator_reveal(request: HttpRequest, family: str) -> HttpResponse:
    """The reveal sheet's answer: the final cards and the votes in, the dead and the winners
    out."""
    return _narrator_page(request, family, lambda offered: offered.verdict(_fields(request.POST)))


def _fields(data: QueryDict) -> dict[str, list[str]]:
    return dict(data.lists())


def _narrator_page(
    request: HttpRequest, family: str, draw: Callable[[Narrator], Page]
) -> HttpResponse:
    offered = narrator_of(family_named(family))
    if offered is None:
        raise Http404
    page = draw(offered)
    urls = {
        "setup_url": reverse("narrator", kwargs={"family": family}),
        "reveal_url": reverse("narrator_reveal", kwargs={"family": family}),
    }
    return render(request, page.template, {**page.context, **urls}, status=page.status)


@require_http_methods(["GET", "POST"])
def moderate(request: HttpRequest, family: str) -> HttpResponse:
    """The multi-night moderator's set-up (issue 28): the rules, the moderator, the players by
    name (or just how many: they are then called by seat number). It opens a table whose host's
    seat is the moderator's device and whose players have none (the family's
    `moderated_options`)."""
    game = family_named(family)
    options = moderated_options_of(game)
    if options is None:
        raise Http404
    rulesets = game.rulesets
    context: dict[str, object] = {"rulesets": rulesets, "error": "", "fields": request.POST}
    if request.method == "GET":
        return render(request, "tablemode/moderate_setup.html", context)
    ruleset = request.POST.get("ruleset", "")
    names = _player_names(request.POST.get("players", ""))
    try:
        if ruleset not in rulesets:
            raise ServiceError(_("Choose the forum, Oxford or 1.7.0 game."))
        with transaction.atomic():
            host = services.table_create(
                family=game.name,
                ruleset=ruleset,
                # Translators: the moderator's name at a table when none is typed in.
                host_name=request.POST.get("moderator", "").strip() or _("Host"),
                creator_key=client_key(request),
                options=dict(options),
            )
            for name in names:
                services.seat_add(host=host, name=name)
            services.table_lock_set(host=host, locked=True)  # nobody joins: no devices
    except ServiceError as error:
        context["error"] = str(error)
        return render(request, "tablemode/moderate_setup.html", context, status=400)
    remember_seat(request, host)
    return redirect("table", code=host.table.code)


def _player_names(raw: str) -> list[str]:
    """The names typed one per line (or separated by commas); a lone number N stands for N
    players called by their seat numbers."""
    text = raw.strip()
    if text.isdigit():
        # Translators: a player's name at a table when only how many play is typed in.
        return [_("Seat %(number)d") % {"number": n} for n in range(1, min(int(text), 40) + 1)]
    return [name.strip() for name in text.replace(",", "\n").splitlines() if name.strip()]
