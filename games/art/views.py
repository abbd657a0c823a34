"""The about page: what the app is and whose work it uses (issue 38: every third-party asset
credited here and in the README)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .credits import SOFTWARE, icon_authors, icon_credits


@require_safe
def about(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "art/about.html",
        {"icons": icon_credits(), "authors": icon_authors(), "software": SOFTWARE},
    )
