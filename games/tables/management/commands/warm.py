"""`python manage.py warm`: build and keep what the games would build on first use (One Night's
fake-quote patterns, in the "derived" cache), once, before the server processes start.

bin/serve runs it, so that several processes started together read the patterns instead of each
building them (games/tables/warming.py; each process still warms itself, from the cache then).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from games.tables.warming import warm_families


class Command(BaseCommand):
    help = "Build and keep what the games would otherwise build on first use."

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        warm_families()
        self.stdout.write(f"Warmed in {time.perf_counter() - started:.1f} s.")
