"""Authorization: every URL and the websocket, as every kind of visitor, in every phase.

Visitors: anonymous (no session), a player of another table, a seated player who is not the
host, and the host. Phases: lobby, night, day, voting, reveal, cancelled, and an unknown code.
Every refused request must answer with the right status (404 unknown table, 403 not seated or
not the host, 409 wrong phase, 400 bad input), a message a person can read, and leave every row
of every table-core table (Table, Seat, Move, ChatLine, SeatTaken) as it was. Allowed requests
answer 200/302 and change exactly what they should.

Figures (routes, requests, websocket connections tried) are written to
test-artifacts/security/authorization.json and printed by the last test.
"""

from __future__ import annotations

import json
import secrets
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client

from games.families.onenight.options import RULES_PHRASE
from games.tables import services
from games.tables.consumers import CLOSE_NOT_SEATED
from games.tables.models import CODE_ALPHABET, CODE_LENGTH, ChatLine, Move, Seat, Table
from games.tables.watching import GAME, watch_key
from tests.factories import (
    THREE,
    TestTable,
    client_for,
    create_lobby,
    new_client,
    play_to,
)
from tests.security.audit import (
    CANCELLED,
    DAY,
    LOBBY,
    LOBBY_ONLY,
    MOVE_OUT_OF_PHASE,
    NIGHT,
    PHASES,
    POST_ROUTES,
    REVEAL,
    VOTING,
    WAIT,
    SocketOpener,
    db_snapshot,
    expect_closed,
    forum_deal,
    forum_lobby,
    forum_night,
    message_of,
    new_session,
    post_path,
    receive_until,
    snapshot_diff,
    url,
)

# One test process runs the whole module (make test runs two): its last test checks the routes
# tried by all the others.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("authorization")]

ARTIFACT = (
    Path(__file__).resolve().parents[2] / "test-artifacts" / "security" / "authorization.json"
)
FIGURES: Counter[str] = Counter()
ROUTES_TRIED: set[str] = set()

PLAYING = (NIGHT, DAY, VOTING)
ACTORS = ["anonymous", "other table", "player", "host"]
NO_GAME = "There is no game with that code."
NO_PAGE = "There is nothing at this address."
NOT_SEATED = "seat"  # "Take a seat first ..." (lobby) / "... this browser holds no seat in it."
ONLY_HOST = "Only the host can do that."
BAD_LINK = "This rejoin link does not match a seat."
ALREADY_OVER = "This game is already over."
BAD_SEAT_CODE = "does not open a seat"


@dataclass
class World:
    """One table in every phase, another table, and a browser for every kind of visitor."""

    tables: dict[str, TestTable]
    other: TestTable
    clients: dict[tuple[str, str], Client]

    def table(self, phase: str) -> TestTable:
        return self.tables[phase]


def build_world() -> World:
    tables = {LOBBY: create_lobby(["Ann", "Ben", "Cat"])}
    for phase in PHASES[1:]:
        tables[phase] = play_to(phase, THREE, actions={"Ben": ["Ann"]})
    other = create_lobby(["Xia", "Yan", "Zoe"])
    stranger = client_for(other, "Xia")
    clients: dict[tuple[str, str], Client] = {}
    for phase, table in tables.items():
        clients[(phase, "anonymous")] = new_client()
        clients[(phase, "other table")] = stranger
        clients[(phase, "player")] = client_for(table, "Ben")
        clients[(phase, "host")] = client_for(table, "Ann")
    return World(tables=tables, other=other, clients=clients)


@pytest.fixture
def world() -> World:
    return build_world()


# --- The expectation of every (route, visitor, phase) -----------------------------------------

Expect = tuple[int, str] | None  # (status, message) for a refusal; None: allowed (tested apart)


@dataclass(frozen=True)
class Route:
    name: str
    method: str
    path: Callable[[World, str], str]
    data: Callable[[World], dict[str, Any]]
    expect: Callable[[str, str], Expect]  # (visitor, phase) -> expectation


def _code(world: World, phase: str) -> str:
    return world.table(phase).code


def _outsider(visitor: str) -> bool:
    return visitor in ("anonymous", "other table")


def _host_lobby_form(lobby_host: Expect) -> Callable[[str, str], Expect]:
    """A host's lobby form (options, remove, lock, start): outsiders 403, the other seats 403
    in any phase, the host in the lobby `lobby_host` (None: allowed), and later 409."""

    def expect(visitor: str, phase: str) -> Expect:
        if _outsider(visitor):
            return 403, NOT_SEATED
        if visitor == "player":
            return 403, ONLY_HOST
        if phase == LOBBY:
            return lobby_host
        return 409, LOBBY_ONLY[phase]

    return expect


def _move(
    ok: Expect = None,
    ok_phase: str = "",
    host_only: bool = False,
    playing: Expect = None,
) -> Callable[[str, str], Expect]:
    """A game move (/do/<kind>): outsiders 403; before or after the game 409 whoever asks;
    `playing`: the answer in any phase of play (an unknown move); `host_only`: 403 for
    the other seats while the game runs; in `ok_phase` the answer `ok` (None: allowed);
    other phases 409 with the phase's message."""

    def expect(visitor: str, phase: str) -> Expect:
        if _outsider(visitor):
            return 403, NOT_SEATED
        if phase not in PLAYING:
            return 409, MOVE_OUT_OF_PHASE[phase]
        if playing is not None:
            return playing
        if host_only and visitor == "player":
            return 403, ONLY_HOST
        if phase == ok_phase:
            return ok
        return 409, MOVE_OUT_OF_PHASE[phase]

    return expect


def _get_page(visitor: str, phase: str) -> Expect:
    if _outsider(visitor):
        return (302, "") if phase == LOBBY else (403, NOT_SEATED)
    return 200, ""


def _get_join(visitor: str, phase: str) -> Expect:
    if _outsider(visitor):
        return (200, "") if phase == LOBBY else (403, NOT_SEATED)
    return 302, ""


def _post_join(visitor: str, phase: str) -> Expect:
    if _outsider(visitor):
        return None if phase == LOBBY else (403, NOT_SEATED)
    return 302, ""  # already seated: sent to the table, no second seat


def _seated_get(visitor: str, phase: str) -> Expect:
    return (403, NOT_SEATED) if _outsider(visitor) else (200, "")


def _cancel(visitor: str, phase: str) -> Expect:
    if _outsider(visitor):
        return 403, NOT_SEATED
    if visitor == "player":
        return 403, ONLY_HOST
    if phase in (REVEAL, CANCELLED):
        return 409, ALREADY_OVER
    return None


def _hand_over(visitor: str, phase: str) -> Expect:
    if _outsider(visitor):
        return 403, NOT_SEATED
    if visitor == "player":
        return 403, ONLY_HOST
    if phase in (REVEAL, CANCELLED):
        return 409, "This game is over."
    return 400, "Choose another player at this table."


def _leave(visitor: str, phase: str) -> Expect:
    if _outsider(visitor):
        return 403, NOT_SEATED
    if phase == LOBBY:
        return None
    return 409, LOBBY_ONLY[phase]


def _chat(visitor: str, phase: str) -> Expect:
    if _outsider(visitor):
        return 403, NOT_SEATED
    if phase in (NIGHT, VOTING):
        return 409, "The chat is closed during the night and the vote."
    if phase == CANCELLED:
        return 409, "This game was cancelled; its chat is closed."
    return None


def _private_chat(visitor: str, phase: str) -> Expect:
    return (403, NOT_SEATED) if _outsider(visitor) else (409, "You cannot write there now.")


def _play_again(visitor: str, phase: str) -> Expect:
    if _outsider(visitor):
        return 403, NOT_SEATED
    if phase == REVEAL:
        return None
    if phase in PLAYING:
        return 409, LOBBY_ONLY[phase]
    return 409, MOVE_OUT_OF_PHASE[phase]


def _back_get(visitor: str, phase: str) -> Expect:
    """The page to type a seat code on: for a browser with no seat; a seated one goes to the
    table."""
    return (200, "") if _outsider(visitor) else (302, "")


def _back_post(visitor: str, phase: str) -> Expect:
    return (400, BAD_SEAT_CODE) if _outsider(visitor) else (302, "")


def _do(kind: str) -> Callable[[World, str], str]:
    return lambda w, p: url("move", _code(w, p), kind)


ROUTES: list[Route] = [
    Route("table", "GET", lambda w, p: url("table", _code(w, p)), lambda w: {}, _get_page),
    Route("join", "GET", lambda w, p: url("join", _code(w, p)), lambda w: {}, _get_join),
    Route(
        "join",
        "POST",
        lambda w, p: url("join", _code(w, p)),
        lambda w: {"name": "Zed", "phrase": RULES_PHRASE},
        _post_join,
    ),
    Route(
        "rejoin",
        "GET",
        lambda w, p: url("rejoin", _code(w, p), secrets.token_urlsafe(18)),
        lambda w: {},
        lambda v, p: (404, BAD_LINK),
    ),
    Route("panel", "GET", lambda w, p: url("panel", _code(w, p)), lambda w: {}, _seated_get),
    Route(
        "options",
        "POST",
        lambda w, p: url("options", _code(w, p)),
        lambda w: {"count_werewolf": "9"},
        _host_lobby_form((400, "Werewolf")),
    ),
    Route(
        "remove_seat",
        "POST",
        # Another table's seat: the host may remove players of their own lobby only.
        lambda w, p: url("remove_seat", _code(w, p), w.other.seats["Yan"].pk),
        lambda w: {},
        _host_lobby_form((400, "That player is not at this table.")),
    ),
    Route(
        "lock",
        "POST",
        lambda w, p: url("lock", _code(w, p)),
        lambda w: {"locked": "yes"},
        _host_lobby_form(None),
    ),
    Route(
        "start",
        "POST",
        lambda w, p: url("start", _code(w, p)),
        lambda w: {},
        _host_lobby_form(None),
    ),
    Route("cancel", "POST", lambda w, p: url("cancel", _code(w, p)), lambda w: {}, _cancel),
    Route(
        "hand_over",
        "POST",
        # Another table's seat: the host hands the role to a player of their own table only.
        lambda w, p: url("hand_over", _code(w, p)),
        lambda w: {"seat": w.other.seats["Yan"].pk},
        _hand_over,
    ),
    Route("leave", "POST", lambda w, p: url("leave", _code(w, p)), lambda w: {}, _leave),
    Route(
        "move/action",
        "POST",
        _do("action"),
        lambda w: {"targets": "Zed"},
        _move(ok=(400, "Choose your targets from the list"), ok_phase=NIGHT),
    ),
    Route(
        "move/copy",
        "POST",
        _do("copy"),
        lambda w: {"targets": str(w.table(NIGHT).seats["Cat"].pk)},
        # Nobody at these tables holds the Doppelganger.
        _move(ok=(403, "Only the Doppelganger copies another card."), ok_phase=NIGHT),
    ),
    Route(
        "move/end_day", "POST", _do("end_day"), lambda w: {}, _move(ok_phase=DAY, host_only=True)
    ),
    Route("move/ready", "POST", _do("ready"), lambda w: {}, _move(ok_phase=DAY)),
    Route(
        "move/vote",
        "POST",
        _do("vote"),
        # A seat of another table: votes go to players at this table only.
        lambda w: {"target": w.other.seats["Yan"].pk},
        _move(ok=(400, "Vote for one of the players at this table."), ok_phase=VOTING),
    ),
    Route(
        "move/<unknown>",
        "POST",
        _do("fly"),
        lambda w: {},
        _move(playing=(409, "That can't be done in this game.")),
    ),
    Route(
        "chat",
        "POST",
        lambda w, p: url("chat", _code(w, p)),
        lambda w: {"channel": "public", "text": "hello"},
        _chat,
    ),
    Route(
        "chat/<private channel>",
        "POST",
        lambda w, p: url("chat", _code(w, p)),
        lambda w: {"channel": "wolves", "text": "hello"},
        _private_chat,
    ),
    Route(
        "play_again", "POST", lambda w, p: url("play_again", _code(w, p)), lambda w: {}, _play_again
    ),
    Route(
        "seat_code",
        "POST",
        # Another table's seat: the host shows the codes of their own table's seats only.
        lambda w, p: url("seat_code", _code(w, p)),
        lambda w: {"seat": w.other.seats["Yan"].pk},
        _hand_over,
    ),
    Route("seat_back", "GET", lambda w, p: url("seat_back", _code(w, p)), lambda w: {}, _back_get),
    Route(
        "seat_back",
        "POST",
        lambda w, p: url("seat_back", _code(w, p)),
        lambda w: {"seat_code": "ZZZZ ZZZZ"},
        _back_post,
    ),
    Route(
        "seat_back_link",
        "GET",
        lambda w, p: url("seat_back_link", _code(w, p), "ZZZZZZZZ"),
        lambda w: {},
        lambda v, p: (404, BAD_SEAT_CODE),
    ),
]


def request(client: Client, method: str, path: str, data: dict[str, Any], **extra: Any) -> Any:
    FIGURES["requests"] += 1
    if method == "GET":
        response = client.get(path, data, **extra)
    else:
        response = client.post(path, data, **extra)
    assert response.status_code < 500, (method, path, response.status_code)
    return response


def check_refusal(
    client: Client,
    method: str,
    path: str,
    data: dict[str, Any],
    status: int,
    message: str,
    **extra: Any,
) -> HttpResponse:
    """The request is answered with `status` and a readable message; nothing changes."""
    before = db_snapshot()
    response = request(client, method, path, data, **extra)
    after = db_snapshot()
    assert response.status_code == status, (
        method,
        path,
        response.status_code,
        message_of(response),
    )
    if status >= 400:
        shown = message_of(response)
        assert shown, f"{method} {path} -> {status} with no message"
        assert message in shown, (method, path, shown)
    assert not snapshot_diff(before, after), (method, path, snapshot_diff(before, after))
    FIGURES["refusals_checked"] += 1
    return response


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_every_route_as_every_visitor_in_every_phase(world: World, htmx: bool) -> None:
    """The whole matrix: 23 routes x 4 visitors x 6 phases (allowed cases are tested below),
    as a plain form and as htmx sends it."""
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    tried = 0
    for route in ROUTES:
        ROUTES_TRIED.add(f"{route.method} {route.name}")
        for phase in PHASES:
            for visitor in ACTORS:
                expected = route.expect(visitor, phase)
                if expected is None:
                    continue
                status, message = expected
                path = route.path(world, phase)
                client = world.clients[(phase, visitor)]
                data = route.data(world)
                check_refusal(client, route.method, path, data, status, message, **extra)
                tried += 1
    assert tried >= 400
    FIGURES["matrix_cases"] += tried


@pytest.mark.parametrize("visitor", ACTORS)
def test_every_route_of_an_unknown_table_is_404(world: World, visitor: str) -> None:
    """Guessed table codes: every route answers 404 with a message; nothing changes."""
    rng = secrets.SystemRandom()
    codes = ["".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)) for _ in range(3)]
    codes += ["A" * 17, "ÄÖÜ", "%00", "abc def", world.table(NIGHT).code + "X"]
    client = world.clients[(NIGHT, visitor)]
    for code in codes:
        for route in ROUTES:
            path = route.path(world, NIGHT).replace(world.table(NIGHT).code, code, 1)
            if code == "%00":  # a control character: no view sees the path (middleware)
                check_refusal(client, route.method, path, {}, 404, NO_PAGE)
            elif route.name == "rejoin":
                check_refusal(client, "GET", path, {}, 404, BAD_LINK)
            else:
                check_refusal(client, route.method, path, route.data(world), 404, NO_GAME)
            FIGURES["guessed_code_requests"] += 1
    check_refusal(client, "POST", url("join_by_code"), {"code": codes[0]}, 404, NO_GAME)
    ROUTES_TRIED.add("POST join_by_code")


def test_guessed_and_borrowed_rejoin_tokens_are_refused(world: World) -> None:
    """Random tokens, another table's token, and a token of this table under another code."""
    night = world.table(NIGHT)
    day = world.table(DAY)
    client = new_client()
    tokens = [secrets.token_urlsafe(18) for _ in range(20)]
    tokens += [world.other.seats["Xia"].token, day.seats["Ann"].token, "x" * 200, "a.b", "*"]
    for token in tokens:
        path = url("rejoin", night.code, token)
        check_refusal(client, "GET", path, {}, 404, BAD_LINK)
        FIGURES["guessed_tokens"] += 1
    # None of that put a seat in the session: the table is still closed to this browser.
    check_refusal(client, "GET", url("table", night.code), {}, 403, NOT_SEATED)
    # The right token does (and only for its own table).
    response = request(client, "GET", url("rejoin", night.code, night.seats["Cat"].token), {})
    assert response.status_code == 302
    check_refusal(client, "GET", url("table", day.code), {}, 403, NOT_SEATED)


def test_another_seats_remove_url(world: World) -> None:
    lobby = world.table(LOBBY)
    ben = world.clients[(LOBBY, "player")]
    host = world.clients[(LOBBY, "host")]
    cat = lobby.seats["Cat"].pk
    check_refusal(ben, "POST", url("remove_seat", lobby.code, cat), {}, 403, ONLY_HOST)
    ann = lobby.seats["Ann"].pk
    check_refusal(ben, "POST", url("remove_seat", lobby.code, ann), {}, 403, ONLY_HOST)
    check_refusal(
        host,
        "POST",
        url("remove_seat", lobby.code, ann),
        {},
        400,
        "The host cannot remove themselves.",
    )
    for seat_id in (0, 987_654_321, 9 * 10**18, int("9" * 30)):
        check_refusal(
            host,
            "POST",
            f"/g/{lobby.code}/remove/{seat_id}",
            {},
            400,
            "That player is not at this table.",
        )
    # The other table's host cannot reach into this lobby either.
    xia = world.clients[(LOBBY, "other table")]
    check_refusal(xia, "POST", url("remove_seat", lobby.code, cat), {}, 403, NOT_SEATED)
    assert Seat.objects.filter(pk=cat).exists()


def test_a_seat_cannot_act_vote_or_chat_for_another_seat() -> None:
    """The seat is the session's; fields naming another seat are ignored."""
    night = play_to(NIGHT, THREE)
    ben = client_for(night, "Ben")
    ann = night.seats["Ann"]
    forged = {"seat": ann.pk, "seat_id": ann.pk, "name": "Ann", "token": ann.token}
    response = request(
        ben,
        "POST",
        url("move", night.code, "action"),
        {"targets": [str(night.seats["Cat"].pk)], **forged},
    )
    assert response.status_code == 302
    actions = night.state().actions
    assert {n: a["targets"] for n, a in actions.items()} == {"Ben": ["Cat"]}
    assert list(Move.objects.filter(table=night.table).values_list("seat__name", "kind"))[-1] == (
        "Ben",
        "action",
    )
    voting = play_to(VOTING, THREE)
    ben = client_for(voting, "Ben")
    response = request(
        ben,
        "POST",
        url("move", voting.code, "vote"),
        {"target": voting.seats["Cat"].pk, "voter": voting.seats["Ann"].pk, **forged},
    )
    assert response.status_code == 302
    votes = voting.state().votes
    assert votes == {str(voting.seats["Ben"].pk): voting.seats["Cat"].pk}
    # Voting twice, or again for someone else, is refused.
    check_refusal(
        ben,
        "POST",
        url("move", voting.code, "vote"),
        {"target": voting.seats["Ann"].pk},
        400,
        "already voted",
    )
    day = play_to(DAY, THREE)
    ben = client_for(day, "Ben")
    response = request(
        ben,
        "POST",
        url("chat", day.code),
        {"channel": "public", "text": "trust me", **forged, "author": "Ann", "note": "1"},
    )
    assert response.status_code == 302
    line = ChatLine.objects.filter(table=day.table, note=False).get()
    assert (line.seat_id, line.author, line.text) == (day.seats["Ben"].pk, "Ben", "trust me")


def test_allowed_requests_change_exactly_what_they_should(world: World) -> None:
    """The cases the matrix skips: each one's status and its one change."""
    lobby = world.table(LOBBY)
    anon = world.clients[(LOBBY, "anonymous")]
    host = world.clients[(LOBBY, "host")]
    lobby_row = f"table {lobby.table.pk}."

    def changes(
        client: Client, method: str, path: str, data: dict[str, Any], status: int
    ) -> list[str]:
        before = db_snapshot()
        response = request(client, method, path, data)
        assert response.status_code == status, (path, response.status_code, message_of(response))
        return snapshot_diff(before, db_snapshot())

    diff = changes(
        anon, "POST", url("join", lobby.code), {"name": "Zed", "phrase": RULES_PHRASE}, 302
    )
    assert sorted(d.split(" ")[0] for d in diff) == ["seat", "seat_taken", "table"], diff
    assert next(d for d in diff if d.startswith("table")).startswith(lobby_row + "version")
    zed = Seat.objects.get(table=lobby.table, name="Zed")
    diff = changes(host, "POST", url("remove_seat", lobby.code, zed.pk), {}, 302)
    assert sorted(diff)[0] == f"seat {zed.pk} deleted" and len(diff) == 2, diff
    assert not Seat.objects.filter(pk=zed.pk).exists()
    deck = {"count_werewolf": 2, "count_seer": 1, "count_robber": 1, "count_villager": 2}
    diff = changes(host, "POST", url("options", lobby.code), deck, 302)
    assert sorted(d.split(":")[0] for d in diff) == [lobby_row + "options", lobby_row + "version"]
    diff = changes(host, "POST", url("lock", lobby.code), {"locked": "yes"}, 302)
    assert sorted(d.split(":")[0] for d in diff) == [
        lobby_row + "joins_locked",
        lobby_row + "version",
    ]
    changes(host, "POST", url("lock", lobby.code), {"locked": "no"}, 302)
    changes(host, "POST", url("start", lobby.code), {}, 302)
    assert lobby.phase() == NIGHT
    for name in ("Ann", "Ben", "Cat"):
        client = client_for(lobby, name)
        assert changes(client, "GET", url("table", lobby.code), {}, 200) == []
        assert changes(client, "GET", url("panel", lobby.code), {}, 200) == []

    day = world.table(DAY)
    ready_before = day.state().raw
    diff = changes(world.clients[(DAY, "player")], "POST", url("move", day.code, "ready"), {}, 302)
    day_row = f"table {day.table.pk}."
    assert sorted(d.split(":")[0].split(" created")[0] for d in diff) == [
        f"move {Move.objects.latest('pk').pk}",
        day_row + "state",
        day_row + "version",
    ], diff
    assert day.state().raw == {**ready_before, "ready": [day.seats["Ben"].pk]}
    assert Move.objects.latest("pk").seat_id == day.seats["Ben"].pk
    changes(world.clients[(DAY, "host")], "POST", url("move", day.code, "end_day"), {}, 302)
    assert day.phase() == VOTING

    done = world.table(REVEAL)
    changes(world.clients[(REVEAL, "player")], "POST", url("play_again", done.code), {}, 302)
    assert Table.objects.filter(previous=done.table).count() == 1
    diff = changes(
        world.clients[(REVEAL, "player")],
        "POST",
        url("chat", done.code),
        {"channel": "public", "text": "good game"},
        302,
    )
    assert len(diff) == 1 and diff[0].startswith("chat "), diff

    voting = world.table(VOTING)
    changes(world.clients[(VOTING, "host")], "POST", url("cancel", voting.code), {}, 302)
    assert voting.phase() == CANCELLED
    ROUTES_TRIED.update({"GET home", "POST table_new"})
    assert request(new_client(), "GET", url("home"), {}).status_code == 200


def test_wrong_methods_are_refused(world: World) -> None:
    night = world.table(NIGHT)
    client = world.clients[(NIGHT, "host")]
    paths = [post_path(night.code, route) for route in POST_ROUTES]
    paths.append(url("remove_seat", night.code, night.seats["Cat"].pk))
    for path in paths:
        before = db_snapshot()
        response = request(client, "GET", path, {})
        assert response.status_code == 405, path
        assert message_of(response), path
        assert not snapshot_diff(before, db_snapshot())
    for path in (
        url("table", night.code),
        url("panel", night.code),
        url("rejoin", night.code, night.seats["Ann"].token),
    ):
        before = db_snapshot()
        response = request(client, "POST", path, {})
        assert response.status_code == 405, path
        assert not snapshot_diff(before, db_snapshot())
    assert request(client, "GET", url("table_new"), {}).status_code == 405
    assert request(client, "GET", url("join_by_code"), {}).status_code == 405
    for method in (client.put, client.delete, client.patch):
        assert method(url("join", night.code)).status_code == 405


def test_wrong_method_answers_with_a_message(world: World) -> None:
    night = world.table(NIGHT)
    response = world.clients[(NIGHT, "host")].get(url("start", night.code))
    assert response.status_code == 405
    assert "Use the buttons on the page" in response.content.decode()


def test_cross_site_posts_without_the_csrf_token_are_refused(world: World) -> None:
    """A seated host's browser posting from another site (no CSRF token): 403, no change."""
    for phase, path in (
        (LOBBY, lambda c: url("start", c)),
        (DAY, lambda c: url("move", c, "end_day")),
        (NIGHT, lambda c: url("cancel", c)),
        (DAY, lambda c: url("chat", c)),
    ):
        table = world.table(phase)
        client = Client(enforce_csrf_checks=True)
        response = client.get(url("rejoin", table.code, table.seats["Ann"].token))
        assert response.status_code == 302
        before = db_snapshot()
        response = client.post(path(table.code), {"channel": "public", "text": "hi"})
        FIGURES["requests"] += 1
        assert response.status_code == 403
        assert b"CSRF" in response.content
        assert not snapshot_diff(before, db_snapshot())


# --- Admin ----------------------------------------------------------------------------------------


def test_admin_is_for_staff_only(world: World) -> None:
    night = world.table(NIGHT).table
    pages = [
        url("admin:index"),
        url("admin:tables_table_changelist"),
        url("admin:tables_table_change", night.pk),
        url("admin:tables_table_change", night.pk) + "?show_secrets=1",
    ]
    user_model = get_user_model()
    player = new_client()
    player.force_login(user_model.objects.create_user("player"))
    for client in (new_client(), player, world.clients[(NIGHT, "host")]):
        for page in pages:
            before = db_snapshot()
            response = request(client, "GET", page, {})
            assert response.status_code == 302, page
            assert "/admin/login/" in response["Location"], page
            assert not snapshot_diff(before, db_snapshot())
        for action in ("cancel_tables", "move_on"):
            before = db_snapshot()
            response = client.post(
                url("admin:tables_table_changelist"),
                {"action": action, "_selected_action": [night.pk]},
            )
            FIGURES["requests"] += 1
            assert response.status_code == 302 and "/admin/login/" in response["Location"]
            assert not snapshot_diff(before, db_snapshot())
    # Staff without permissions on tables: refused.
    staff = new_client()
    staff.force_login(user_model.objects.create_user("helper", is_staff=True))
    for page in pages[1:]:
        before = db_snapshot()
        response = request(staff, "GET", page, {})
        assert response.status_code == 403, page
        assert not snapshot_diff(before, db_snapshot())
    ROUTES_TRIED.update({"GET admin", "POST admin action"})


def test_a_refused_admin_look_is_not_recorded(world: World) -> None:
    night = world.table(NIGHT).table
    staff = new_client()
    staff.force_login(get_user_model().objects.create_user("helper", is_staff=True))
    before = db_snapshot()
    response = staff.get(url("admin:tables_table_change", night.pk) + "?show_secrets=1")
    assert response.status_code == 403
    assert not snapshot_diff(before, db_snapshot()), snapshot_diff(before, db_snapshot())


# --- Websocket ------------------------------------------------------------------------------------


async def _first_output(comm: Any) -> dict[str, Any]:
    connected, code = await comm.connect(timeout=WAIT)
    if not connected:
        return {"type": "denied", "code": code}
    return await comm.receive_output(timeout=WAIT)


@pytest.mark.django_db(transaction=True)
async def test_websocket_refuses_every_visitor_without_a_seat(sockets: SocketOpener) -> None:
    """No session, another table's seat, a token under the wrong code, an unknown table: the
    socket is closed with 4403 before anything is sent. Wrong or missing Origin: denied."""
    table = await database_sync_to_async(play_to)(DAY, THREE)
    other = await database_sync_to_async(create_lobby)(["Xia", "Yan", "Zoe"])
    before = await database_sync_to_async(db_snapshot)()
    own = {"seats": {table.code: table.seats["Ann"].token}}
    cases: list[tuple[str, str, dict[str, Any] | None]] = [
        ("no session", table.code, None),
        ("empty session", table.code, {}),
        ("other table's seat", table.code, {"seats": {other.code: other.seats["Xia"].token}}),
        ("other table's token", table.code, {"seats": {table.code: other.seats["Xia"].token}}),
        ("this seat, other table's path", other.code, own),
        ("unknown table", "ZZZZZZZZ", own),
        ("guessed token", table.code, {"seats": {table.code: secrets.token_urlsafe(18)}}),
        ("token not a string", table.code, {"seats": {table.code: ["x"]}}),
        ("seats not a dict", table.code, {"seats": ["x"]}),
        ("code too long", "A" * 40, {"seats": {"A" * 40: table.seats["Ann"].token}}),
    ]
    for label, code, session in cases:
        cookie = None
        if session is not None:
            key = await database_sync_to_async(new_session)(session)
            cookie = f"sessionid={key}"
        comm = sockets.communicator(code, cookie=cookie)
        output = await _first_output(comm)
        assert output["type"] == "websocket.close", (label, output)
        assert output.get("code") == CLOSE_NOT_SEATED, (label, output)
        FIGURES["websocket_connections"] += 1
    key = await database_sync_to_async(new_session)(own)
    for label, origin, host in [
        ("other site", b"http://evil.example", b"testserver"),
        ("no origin", None, b"testserver"),
        ("null origin", b"null", b"testserver"),
        ("other port", b"http://testserver:8000", b"testserver"),
        ("https origin, other host", b"https://testserver.evil.example", b"testserver"),
        ("host spoof", b"http://evil.example", b"evil.example:1"),
    ]:
        comm = sockets.communicator(table.code, cookie=f"sessionid={key}", origin=origin, host=host)
        connected, _ = await comm.connect(timeout=WAIT)
        assert not connected, label
        FIGURES["websocket_connections"] += 1
    # The seat itself is let in (the control case).
    comm = sockets.communicator(table.code, cookie=f"sessionid={key}")
    output = await _first_output(comm)
    assert output["type"] == "websocket.send" and json.loads(output["text"])["type"] == "hello"
    FIGURES["websocket_connections"] += 1
    assert not snapshot_diff(before, await database_sync_to_async(db_snapshot)())
    ROUTES_TRIED.add("WS table socket")


@pytest.mark.django_db(transaction=True)
async def test_a_removed_player_loses_the_socket_and_the_chat(sockets: SocketOpener) -> None:
    table = await database_sync_to_async(create_lobby)(["Ann", "Ben", "Cat"])
    ben, _ = await sockets.seat(table, "Ben")
    ben_browser = await database_sync_to_async(client_for)(table, "Ben")

    def remove() -> None:
        services.seat_remove(host=table.seat("Ann"), seat_id=table.seats["Ben"].pk)

    await database_sync_to_async(remove)()
    await expect_closed(ben, CLOSE_NOT_SEATED)
    response = await database_sync_to_async(ben_browser.post)(
        url("chat", table.code), {"channel": "public", "text": "am I still here"}
    )
    assert response.status_code == 403  # the seat is gone: not seated
    count = await database_sync_to_async(ChatLine.objects.filter(text="am I still here").count)()
    assert count == 0
    # A socket opened afterwards with the old session seats nobody.
    comm = await sockets.open(table.code, {"seats": {table.code: table.seats["Ben"].token}})
    await expect_closed(comm, CLOSE_NOT_SEATED)
    FIGURES["websocket_connections"] += 2


@pytest.mark.django_db(transaction=True)
async def test_the_socket_takes_no_forms_and_its_chat_lines_are_its_own_seats(
    sockets: SocketOpener,
) -> None:
    """A form sent over the socket (as an old page did) is answered with an error and changes
    nothing: the seat's forms are POSTs. A chat line is taken (issue 39), as the seat the
    socket's session holds, whatever seat or name the frame claims."""
    table = await database_sync_to_async(play_to)(DAY, THREE)
    ben, _ = await sockets.seat(table, "Ben")
    before = await database_sync_to_async(db_snapshot)()
    for frame in (
        {"type": "form", "path": f"/g/{table.code}/do/ready", "fields": {"ready": ["yes"]}},
        {"type": "form", "path": f"/g/{table.code}/do/end_day", "fields": {}},
    ):
        await ben.send_json_to(frame)
        reply, _ = await receive_until(ben, lambda f: f["type"] == "error")
        assert reply == {"type": "error", "message": "Unknown message."}
    assert not snapshot_diff(before, await database_sync_to_async(db_snapshot)())
    forged = {"type": "chat", "text": "trust me", "seat_id": table.seats["Ann"].pk, "name": "Ann"}
    await ben.send_json_to(forged)
    reply, _ = await receive_until(ben, lambda f: f["type"] == "chat-sent")
    assert (reply["line"]["name"], reply["line"]["seat_id"]) == ("Ben", table.seats["Ben"].pk)
    changes = snapshot_diff(before, await database_sync_to_async(db_snapshot)())
    assert len(changes) == 1 and changes[0].startswith("chat ") and "'author': 'Ben'" in changes[0]


def _forum_table() -> TestTable:
    """A forum game (rules/001) dealt in order: Ann protector, Ben seer, Cat, Dan and Eve
    villagers, Fay and Gus werewolves (the pack)."""
    table = forum_lobby()
    forum_deal(table)
    return table


@pytest.mark.django_db(transaction=True)
async def test_a_private_chat_channel_is_never_delivered_to_a_seat_that_may_not_read_it(
    sockets: SocketOpener,
) -> None:
    """The werewolves' night chat (rules/001: "a private group message") reaches only the
    pack: its group is joined only by their pages, each page's consumer checks again before it
    sends a line, and nobody else may write in it (games/tables/push.py,
    consumers.TableConsumer.chat_line, the family's channels)."""
    table = await database_sync_to_async(_forum_table)()
    _, fay_hello = await sockets.seat(table, "Fay")
    gus, _ = await sockets.seat(table, "Gus")
    ben, ben_hello = await sockets.seat(table, "Ben")
    assert "pack" in [c["name"] for c in fay_hello["channel_state"]]
    assert "pack" not in [c["name"] for c in ben_hello["channel_state"]]
    line = await database_sync_to_async(services.chat_post)(
        seat=table.seats["Fay"], text="Ben is the seer, I am sure", channel="pack"
    )
    got, _ = await receive_until(gus, lambda f: f["type"] == "chat" and f["id"] == line.pk)
    assert got["channel"] == "pack"
    await ben.send_json_to({"type": "ping"})
    _, frames = await receive_until(ben, lambda f: f["type"] == "pong")
    assert not [f for f in frames if f.get("type") == "chat"], frames
    assert "seer, I am sure" not in json.dumps(frames)
    with pytest.raises(services.ServiceError):
        await database_sync_to_async(services.chat_post)(
            seat=table.seats["Ben"], text="let me in", channel="pack"
        )
    with pytest.raises(services.ServiceError):  # rules/001: the thread is silent at night
        await database_sync_to_async(services.chat_post)(
            seat=table.seats["Ben"], text="hello?", channel="public"
        )


@pytest.mark.django_db(transaction=True)
async def test_a_watcher_follows_the_public_game_and_the_graveyard_and_nothing_else(
    sockets: SocketOpener,
) -> None:
    """A watcher (the watch link, games/tables/watching.py) gets the public panel and the
    graveyard's lines; never the pack's chat, a role, a night result; and may not write or act."""
    table = await database_sync_to_async(_forum_table)()
    watcher = await sockets.open(table.code, {"watching": {table.code: GAME}})
    hello = await watcher.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello"
    assert [c["name"] for c in hello["channel_state"]] == ["public", "graveyard"]
    assert not any(c["write"] for c in hello["channel_state"])
    secret = await database_sync_to_async(services.chat_post)(
        seat=table.seats["Fay"], text="Cat tonight, agreed?", channel="pack"
    )
    await database_sync_to_async(forum_night)(table)
    panel, frames = await receive_until(watcher, lambda f: f["type"] == "panel")
    for text in (json.dumps(frames), panel["panel"]):
        assert "Cat tonight" not in text and f'"id": {secret.pk}' not in text
        for leak in ("You are the", "What you learned", "(werewolf)", "The pack tonight"):
            assert leak not in text, leak
    assert "pack" not in [c["name"] for c in panel["channel_state"]]
    line = await database_sync_to_async(services.chat_post)(
        seat=table.seats["Cat"], text="they got me", channel="graveyard"
    )
    got, _ = await receive_until(watcher, lambda f: f["type"] == "chat" and f["id"] == line.pk)
    assert got["channel"] == "graveyard" and got["mine"] is False
    # Over HTTP the watcher reads and never writes or acts.
    key = await database_sync_to_async(new_session)({"watching": {table.code: GAME}})
    before = await database_sync_to_async(db_snapshot)()

    def posts() -> list[int]:
        client = Client()
        client.cookies["sessionid"] = key
        page = client.get(url("table", table.code))
        assert page.status_code == 200 and "You are <strong>watching" in page.content.decode()
        return [
            client.post(url("chat", table.code), {"channel": c, "text": "boo"}).status_code
            for c in ("public", "graveyard")
        ] + [client.post(url("move", table.code, "vote"), {"target": "1"}).status_code]

    assert await database_sync_to_async(posts)() == [403, 403, 403]
    assert not snapshot_diff(before, await database_sync_to_async(db_snapshot)())
    ROUTES_TRIED.add("WS table socket (watcher)")


@pytest.mark.django_db
def test_a_watch_link_needs_its_key_and_a_player_who_opens_it_stays_a_player() -> None:
    table = _forum_table()
    good = url("watch", table.code, watch_key(table.code, GAME))
    stranger = Client()
    for wrong in (url("watch", table.code, "0" * 24), url("watch", "ZZZZZZZZ", "0" * 24)):
        response = stranger.get(wrong)
        assert response.status_code == 404
        assert "Not a watch link" in response.content.decode()
    assert stranger.get(url("table", table.code)).status_code == 403
    other = _forum_table()  # another table's key does not open this one
    assert stranger.get(url("watch", table.code, watch_key(other.code, GAME))).status_code == 404
    assert stranger.get(good).status_code == 302
    assert "You are <strong>watching" in stranger.get(url("table", table.code)).content.decode()
    ben = client_for(table, "Ben")
    assert ben.get(good).status_code == 302
    page = ben.get(url("table", table.code)).content.decode()
    assert "You are <strong>Ben</strong>" in page and "watching" not in page
    ROUTES_TRIED.add("GET watch")


# --- Figures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def write_figures() -> Iterator[None]:
    yield
    if FIGURES:
        ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
        figures = {**FIGURES, "routes": sorted(ROUTES_TRIED), "route_count": len(ROUTES_TRIED)}
        ARTIFACT.write_text(json.dumps(figures, indent=2) + "\n")


def test_authorization_figures() -> None:
    """Runs last: prints the figures (see test-artifacts/security/authorization.json)."""
    print(
        "\nAuthorization figures:",
        json.dumps({**FIGURES, "routes": sorted(ROUTES_TRIED)}, indent=2),
    )
    if FIGURES["matrix_cases"]:
        assert len(ROUTES_TRIED) >= 19
