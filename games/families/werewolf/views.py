"""The multi-night family's own page: the role cards of a ruleset. Thin: read, render."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.families.werewolf.family import Werewolf

from .cards import role_cards


@require_GET
def roles(request: HttpRequest, ruleset: str) -> HttpResponse:
    if ruleset not in Werewolf.rulesets:
        return render(
            request,
            "tables/message.html",
            {"title": _("No such game"), "text": _("There is no Werewolf game by that name.")},
            status=404,
        )
    title, document, cards = role_cards(ruleset)
    others = [(name, label) for name, label in Werewolf.rulesets.items() if name != ruleset]
    context = {
        "title": title,
        "ruleset": ruleset,
        "document": document,
        "cards": cards,
        "others": others,
    }
    return render(request, "werewolf/roles.html", context)
