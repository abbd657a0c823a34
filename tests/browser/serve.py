"""daphne for the browser tests, with one hook: a deal in deck order when a test asks for it.

`python -m tests.browser.serve <daphne arguments>` runs daphne's own command line. While the
file `deal-in-order` exists in the server's ONENIGHT_DATA_DIR, the table core's source of chance
shuffles nothing (as `tests.factories.fixed_shuffle` does in process): the cards go out in the
order of the host's counters, seats first, then left, middle, right, and the voting ring is the
seat order. If the file holds a number, the deal is instead shuffled by `random.Random(number)`:
a random deal a test can foresee (engine `deal_cards` with the same source). Without the file
every deal is the app's own secure shuffle.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any

# daphne installs Twisted's asyncio reactor when its server module is imported: before Django
# (and the app's clock, which looks for a running reactor) is loaded, as `python -m daphne` does.
from daphne.cli import CommandLineInterface

FLAG = "deal-in-order"


class InOrder(random.Random):
    """A source of chance that shuffles nothing (and picks the first of a choice)."""

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        return None

    def choice(self, seq: Any) -> Any:  # type: ignore[override]
        return seq[0]


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "onenight.settings")
    import django

    django.setup()
    from games.tables.services import host

    secure = host.new_rng
    flag = Path(os.environ["ONENIGHT_DATA_DIR"]) / FLAG

    def new_rng() -> random.Random:
        if not flag.exists():
            return secure()
        seed = flag.read_text().strip()
        return random.Random(int(seed)) if seed else InOrder()

    host.new_rng = new_rng  # the deal is the host's start (games/tables/services/host.py)
    CommandLineInterface().run(sys.argv[1:])


if __name__ == "__main__":
    main()
