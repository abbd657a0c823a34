"""Warming up: each family builds what its first moves would otherwise build while a table waits.

A server process has one worker thread (worker.py): a slow first use holds up every table of
the process. One Night's fake-quote patterns took 0.8 to 4.6 s of CPU on a table's first chat
line of a day, and under the load benchmark (fresh servers, 25 games) every other table's forms
and pushes waited behind it: the night push p50 went from about 0.1 s to 0.85 s
(docs/benchmarks.md, "The quote patterns at start"). So the families warm up on a thread of
their own as the server starts, before any day needs them.
"""

from __future__ import annotations

import logging
import sys
import threading

from django.conf import settings
from django.utils import translation

from .family import families

log = logging.getLogger(__name__)


def warm_families() -> None:
    """Every family's `warm`, in every language the site offers (a reader's texts are built in
    their language). A failure is logged: the first use then builds what it needs, as before."""
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for family in families():
                try:
                    family.warm()
                except Exception:  # warming is an optimisation; the game works without it
                    log.exception("Warming %s (%s) failed", family.name, code)


def start_with_daphne() -> bool:
    """Under daphne (its reactor installed), warm the families on a daemon thread; importing the
    application elsewhere (tests, management commands) starts nothing."""
    if sys.modules.get("twisted.internet.reactor") is None or not settings.WARM_AT_START:
        return False
    threading.Thread(target=warm_families, name="warming", daemon=True).start()
    return True
