"""The server-side CPU cost of single requests and reads, in-process, on an idle database.

    .venv/bin/pytest bench/request_costs.py -s -p no:cacheprovider

Not part of the test suite (pytest collects tests/ only). Each figure is the best of 15 rounds
of 20 calls (process CPU time per call): on a shared VM the speed of the same work moves by up
to 2x from minute to minute, and the best round is the figure that moves least. Requests go
through Django's test client and the whole middleware chain, not through daphne.

Outside the server a committed change is announced through a new event loop and thread
(games/broadcast.py); inside it, through the server's loop at almost no cost. The rows for
forms over the socket and for phase changes ("8 seats") leave that announcement out, so they
count what the server pays; the older rows keep it, to stay comparable with earlier rounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.conf import settings
from django.http import QueryDict
from django.urls import clear_url_caches, path, reverse

from games import broadcast, services
from games.consumers import (
    SocketForm,
    _answer_form,
    _panel_frame,
    _read_phase_change,
    _read_status,
    _read_table,
)
from games.models import ChatMessage, Phase, Seat, Vote
from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)
HTMX = {"HTTP_HX_REQUEST": "true"}
# The home page's create form as the load benchmark's host fills it.
CREATE_FORM = {
    "host_name": "Ada",
    "ruleset": "house",
    "day_minutes": "5",
    "rules_phrase": "default",
}


def best_ms(fn: Callable[[], object], calls: int = 20, rounds: int = 15) -> float:
    fn()
    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - started) / calls)
    return best * 1000


def test_request_costs(monkeypatch: pytest.MonkeyPatch) -> None:
    table = factories.create_lobby(factories.NAMES[:8])
    client = factories.client_for(table, table.names[1])
    page = reverse("game", args=[table.code])
    services.game_start(host=table.seat(table.host.name))
    table.refresh()
    table.seats = {name: table.seat(name) for name in table.seats}
    costs = {
        "night page GET": best_ms(lambda: client.get(page)),
        "night panel GET (htmx)": best_ms(lambda: client.get(page, **HTMX)),
    }
    factories.play_night(table)
    seat = table.seat(table.names[1])
    runs_cache: dict[str, frozenset[tuple[str, ...]]] = {}

    def chat() -> None:
        ChatMessage.objects.filter(seat=seat).delete()  # stay under the rate limit
        services.chat_post(seat=seat, text="hello there my friends", runs_cache=runs_cache)

    def ready() -> None:
        Seat.objects.filter(pk=seat.pk).update(ready_to_vote=False)
        assert client.post(reverse("ready", args=[table.code]), **HTMX).status_code == 200

    costs["chat line stored (+ a delete)"] = best_ms(chat)
    costs["day page GET"] = best_ms(lambda: client.get(page))
    costs["ready POST, htmx (+ an update)"] = best_ms(ready)
    costs["panel push: table read + render"] = best_ms(
        lambda: _panel_frame(_read_table(table.game.pk), seat.pk, "token", "http://testserver")
    )
    costs["status push: shared read"] = best_ms(lambda: _read_status(table.game.pk))
    print()
    for label, ms in costs.items():
        print(f"{label:34s} {ms:7.3f} ms")
    costs = socket_form_costs(monkeypatch)
    for label, ms in costs.items():
        print(f"{label:34s} {ms:7.3f} ms")
    for label, ms in lobby_costs(monkeypatch).items():
        print(f"{label:34s} {ms:7.3f} ms")


def eight_seat_deal() -> dict[str, str]:
    """The first eight players of the house's twelve-player deal, with three centre cards."""
    roles = list(factories.TWELVE.values())
    names = [n for n in factories.TWELVE if n not in ("left", "middle", "right")][:8]
    deal = dict(zip(names, roles[:8], strict=True))
    return {**deal, "left": roles[8], "middle": roles[9], "right": roles[10]}


def socket_form_costs(monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """Forms over the socket and phase changes at an eight-player table, as the server pays
    for them (no announcement thread)."""
    monkeypatch.setattr(broadcast, "_send", lambda code, message: None)
    table = factories.play_to(Phase.DAY, eight_seat_deal())
    seat = table.seat(table.names[1])
    game_id = table.game.pk
    root = "http://testserver"

    def answer(name: str, fields: str = "") -> None:
        form = SocketForm(name=name, fields=QueryDict(fields), arguments={})
        assert _answer_form(seat, form, "token", root, {}) is not None

    def ready() -> None:
        Seat.objects.filter(pk=seat.pk).update(ready_to_vote=False)
        answer("ready")

    costs = {
        "ready form, socket (+ an update)": best_ms(ready),
        "day, 8 seats: read + panels": best_ms(lambda: _read_phase_change(game_id, root)),
    }
    services.day_end(host=table.seat(table.host.name))
    target = table.seat(table.names[2]).pk

    def vote() -> None:
        Vote.objects.filter(voter=seat).delete()
        answer("vote", f"target={target}")

    costs["vote form, socket (+ a delete)"] = best_ms(vote)
    costs["voting, 8 seats: read + panels"] = best_ms(lambda: _read_phase_change(game_id, root))
    factories.cast_votes(
        table, {v: t for v, t in factories.ring_votes(table).items() if v != seat.name}
    )
    answer("vote", f"target={target}")  # the last vote: the reveal
    costs["reveal, 8 seats: read + panels"] = best_ms(lambda: _read_phase_change(game_id, root))
    return costs


def lobby_costs(monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """The lobby's requests as the load benchmark's bots send them (a host creates, seven
    players join), against the minimal view the benchmark holds them against."""
    monkeypatch.setattr(broadcast, "_send", lambda code, message: None)
    from onenight import urls
    from onenight.baseline import ping

    monkeypatch.setattr(settings, "GAMES_PER_MINUTE", 10**6)  # as the benchmark's server
    monkeypatch.setattr(settings, "JOINS_PER_MINUTE", 10**6)
    monkeypatch.setattr(urls, "urlpatterns", [*urls.urlpatterns, path("bench/ping", ping)])
    clear_url_caches()
    table = factories.create_lobby(factories.NAMES[:3])
    host = factories.client_for(table, table.host.name)
    lobby = reverse("game", args=[table.code])
    join = reverse("join", args=[table.code])
    visitor = factories.new_client()
    joining = {"name": "Zed", "rules_phrase": services.RULES_PHRASE}

    def create_post() -> None:
        assert factories.new_client().post(reverse("game_new"), CREATE_FORM).status_code == 302

    def join_post() -> None:
        Seat.objects.filter(game=table.game, name="Zed").delete()
        assert factories.new_client().post(join, joining).status_code == 302

    return {
        "ping GET (the minimal view)": best_ms(lambda: visitor.get("/bench/ping")),
        "home GET": best_ms(lambda: visitor.get("/")),
        "create POST": best_ms(create_post),
        "join page GET": best_ms(lambda: visitor.get(join)),
        "join POST (+ a delete)": best_ms(join_post),
        "lobby page GET": best_ms(lambda: host.get(lobby)),
    }
