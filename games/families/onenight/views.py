"""One Night's own page outside a table: the rules of a ruleset and its role cards."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from .cards import role_cards, rules_sections, title_of
from .engine import Ruleset


@require_GET
def rules(request: HttpRequest, ruleset: str) -> HttpResponse:
    try:
        chosen = Ruleset(ruleset)
    except ValueError:
        return render(
            request,
            "tables/message.html",
            {
                "title": _("No such game"),
                "text": _("There are house rules and official rules only."),
            },
            status=404,
        )
    other = Ruleset.OFFICIAL if chosen is Ruleset.HOUSE else Ruleset.HOUSE
    context = {
        "ruleset": chosen,
        "title": title_of(chosen),
        "sections": rules_sections(chosen),
        "cards": role_cards(chosen),
        "other": (other.value, title_of(other)),
    }
    return render(request, "onenight/rules.html", context)
