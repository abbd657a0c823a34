"""Table mode's pages (issue 28): parse, call the family's pure code or the table services,
render. One Night's narrator needs no server state: its page carries the whole night, so it
keeps going if the network drops once it has loaded."""

from __future__ import annotations

from collections import Counter

from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.families.onenight.engine import Role, RuleError, Ruleset
from games.families.onenight.narrator import CLOSING, OPENING, narration, reveal_sheet
from games.tables import services
from games.tables.clients import client_key
from games.tables.family import family_named
from games.tables.services import ServiceError
from games.tables.views import remember_seat

from .onenight import DAY_MINUTES, SetupError, deck_rows, read_setup


@require_GET
def table_home(request: HttpRequest) -> HttpResponse:
    return render(request, "tablemode/home.html")


@require_GET
def onenight_narrator(request: HttpRequest) -> HttpResponse:
    """The set-up form; once sent (`go`), the night's script and the reveal sheet."""
    fields = request.GET
    ruleset = Ruleset.OFFICIAL if fields.get("ruleset") == "official" else Ruleset.HOUSE
    counts: Counter[Role] = Counter()
    for role in Role:
        raw = fields.get(f"count_{role.value}", "")
        if raw.strip().isdigit():
            counts[role] = int(raw)
    context = {
        "ruleset": ruleset.value,
        "players": fields.get("players", ""),
        "day_minutes": fields.get("day_minutes", DAY_MINUTES),
        "rows": {r.value: deck_rows(r, counts) for r in Ruleset},
        "error": "",
    }
    if not fields.get("go"):
        return render(request, "tablemode/onenight_setup.html", context)
    try:
        setup = read_setup(dict(fields.lists()))
    except SetupError as error:
        context["error"] = str(error)
        return render(request, "tablemode/onenight_setup.html", context, status=400)
    calls = narration(setup.ruleset, setup.deck)
    script = {
        "opening": OPENING,
        "closing": CLOSING,
        "calls": [
            {"key": c.key, "wake": c.wake, "sleep": c.sleep, "seconds": c.seconds} for c in calls
        ],
        "day_seconds": setup.day_minutes * 60,
    }
    roles = sorted(set(setup.deck), key=list(Role).index)
    return render(
        request,
        "tablemode/onenight_narrator.html",
        {"setup": setup, "calls": calls, "script": script, "roles": roles},
    )


@require_POST
def onenight_reveal(request: HttpRequest) -> HttpResponse:
    """The reveal sheet: the final cards and the votes in, the dead and the winners out."""
    fields = request.POST
    ruleset = Ruleset.OFFICIAL if fields.get("ruleset") == "official" else Ruleset.HOUSE
    players = tuple(p for p in fields.getlist("player") if p)[:20]
    final: dict[str, Role] = {}
    votes: dict[str, str | None] = {}
    error = ""
    for index, name in enumerate(players):
        card = fields.get(f"final_{index}", "")
        if card in Role._value2member_map_:
            final[name] = Role(card)
        target = fields.get(f"vote_{index}", "")
        votes[name] = target if target in players and target != name else None
    copied_raw = fields.get("copied", "")
    copied = Role(copied_raw) if copied_raw in Role._value2member_map_ else None
    verdict = None
    try:
        verdict = reveal_sheet(ruleset, players, final, votes, copied)
    except RuleError as error_:
        error = str(error_)
    return render(
        request,
        "tablemode/onenight_verdict.html",
        {"verdict": verdict, "error": error},
        status=200 if verdict else 400,
    )


@require_http_methods(["GET", "POST"])
def moderate(request: HttpRequest) -> HttpResponse:
    """The multi-night moderator's set-up (issue 28): the rules, the moderator, the players by
    name (or just how many: they are then called by seat number). It opens a table whose host's
    seat is the moderator's device and whose players have none."""
    rulesets = family_named("werewolf").rulesets
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
                family="werewolf",
                ruleset=ruleset,
                # Translators: the moderator's name at a table when none is typed in.
                host_name=request.POST.get("moderator", "").strip() or _("Host"),
                creator_key=client_key(request),
                options={"table_mode": True, "deal": "app", "pace": "table"},
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
