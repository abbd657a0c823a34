"""Instructions for the lobby of one eight-player game, counted with callgrind.

    for n in 0 20; do
        LOBBIES=$n valgrind --tool=callgrind --callgrind-out-file=/tmp/cg-lobby-$n \\
            .venv/bin/pytest bench/lobby_instructions.py -q -p no:cacheprovider
    done   # then (total at 20 - total at 0) / 20, from the "Collected" lines

Each lobby is what the load benchmark's bots send (bench/bots.py): the host loads the home
page, creates the game and loads its lobby; seven players each load the join page, join and
load the lobby. Twenty-four requests through Django's test client and the whole middleware
chain (not through daphne), templates rendered as the server renders them. Not part of the
test suite; run one at a time per tree (phase_change_instructions.py says why).
"""

from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.urls import reverse

from bench.request_costs import CREATE_FORM
from games import broadcast, services
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)
WARM_UP = 2
PLAYERS = 8


def one_lobby() -> None:
    host = factories.new_client()
    assert host.get("/").status_code == 200
    created = host.post(reverse("game_new"), CREATE_FORM)
    assert created.status_code == 302
    code = created.headers["location"].strip("/").split("/")[1]
    lobby = reverse("game", args=[code])
    assert host.get(lobby).status_code == 200
    join = reverse("join", args=[code])
    for index in range(1, PLAYERS):
        player = factories.new_client()
        assert player.get(join).status_code == 200
        joining = {"name": f"Player {index}", "rules_phrase": services.RULES_PHRASE}
        assert player.post(join, joining).status_code == 302
        assert player.get(lobby).status_code == 200


def test_lobbies(monkeypatch: pytest.MonkeyPatch) -> None:
    """LOBBIES lobbies after a warm-up, without the announcement thread."""
    monkeypatch.setattr(broadcast, "_send", lambda code, message: None)
    monkeypatch.setattr(settings, "GAMES_PER_MINUTE", 10**6)  # as the benchmark's server
    monkeypatch.setattr(settings, "JOINS_PER_MINUTE", 10**6)
    for _ in range(WARM_UP + int(os.environ.get("LOBBIES", "0"))):
        one_lobby()
