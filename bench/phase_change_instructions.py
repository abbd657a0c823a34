"""Instructions for one phase change of an eight-seat table, counted with callgrind.

    for n in 0 40; do
        PHASE_CHANGES=$n valgrind --tool=callgrind --callgrind-out-file=/tmp/cg-$n \\
            .venv/bin/pytest bench/phase_change_instructions.py -q -p no:cacheprovider
    done   # then (total at 40 - total at 0) / 40, from the "Collected" lines

Not part of the test suite (pytest collects tests/ only). The VM's speed swings by up to 2x
within the hour, so small changes are compared by instructions, which it does not move
(docs/benchmarks.md, seventh round). Each run takes about two minutes. Run one at a time per
tree: two runs in the same tree share its test database and fail.
"""

from __future__ import annotations

import os

import pytest

from bench.request_costs import eight_seat_deal
from games import broadcast, services
from games.consumers import _read_phase_change
from games.models import Phase
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)
WARM_UP = 3


def test_voting_phase_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The read and the eight panels of the day's end, PHASE_CHANGES times after a warm-up
    (templates compiled, prepared reads made), without the announcement thread."""
    monkeypatch.setattr(broadcast, "_send", lambda code, message: None)
    table = factories.play_to(Phase.DAY, eight_seat_deal())
    services.day_end(host=table.seat(table.host.name))
    game_id = table.game.pk
    for _ in range(WARM_UP + int(os.environ.get("PHASE_CHANGES", "0"))):
        assert _read_phase_change(game_id, "http://testserver") is not None
