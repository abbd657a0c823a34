"""Authorization: every URL and the websocket, as every kind of visitor, in every phase.

Visitors: anonymous (no session), a player of another game, a seated player who is not the
host, and the host. Phases: lobby, night, day, voting, reveal, cancelled, and an unknown code.
Every refused request must answer with the right status (404 unknown game, 403 not seated or not
the host, 409 wrong phase, 400 bad input), a message a person can read, and leave every row of
every game table (Game, Seat, CentreCard, NightAction, Vote, ChatMessage) as it was. Allowed
requests answer 200/302 and change exactly what they should.

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
from django.urls import reverse

from games import services
from games.consumers import CLOSE_NOT_SEATED
from games.models import CODE_ALPHABET, CODE_LENGTH, ChatMessage, Game, NightAction, Phase, Seat
from games.models import Vote as VoteRow
from tests.factories import THREE, Table, client_for, create_lobby, form_targets, play_to
from tests.realtime.helpers import WAIT, SocketOpener, new_session, receive_until, send_chat
from tests.security.audit import POST_ROUTES, db_snapshot, message_of, snapshot_diff
from tests.web.helpers import PHASE_MESSAGES

pytestmark = pytest.mark.django_db

ARTIFACT = (
    Path(__file__).resolve().parents[2] / "test-artifacts" / "security" / "authorization.json"
)
FIGURES: Counter[str] = Counter()
ROUTES_TRIED: set[str] = set()

PHASES = [Phase.LOBBY, Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL, Phase.CANCELLED]
ACTORS = ["anonymous", "other game", "player", "host"]
NO_GAME = "There is no game with that code."
NO_PAGE = "There is nothing at this address."
NOT_SEATED = "seat"  # "Take a seat first ..." (lobby) / "... you do not have a seat in it."
ONLY_HOST = "Only the host can"
BAD_LINK = "This rejoin link does not match a seat."


@dataclass
class World:
    """One table in every phase, another game, and a browser for every kind of visitor."""

    tables: dict[str, Table]
    other: Table
    clients: dict[tuple[str, str], Client]

    def table(self, phase: str) -> Table:
        return self.tables[phase]


def build_world() -> World:
    tables = {Phase.LOBBY: create_lobby(["Ann", "Ben", "Cat"])}
    for phase in PHASES[1:]:
        tables[phase] = play_to(phase, THREE, actions={"Ben": ["Ann"]})
    other = create_lobby(["Xia", "Yan", "Zoe"])
    stranger = client_for(other, "Xia")
    clients: dict[tuple[str, str], Client] = {}
    for phase, table in tables.items():
        clients[(phase, "anonymous")] = Client()
        clients[(phase, "other game")] = stranger
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


def _seated_post(
    host_only: bool = False,
    lobby_host: Expect = None,
    ok_phases: tuple[str, ...] = (),
    bad_input: Expect = None,
    bad_phases: tuple[str, ...] = (),
    host_message: str = ONLY_HOST,
) -> Callable[[str, str], Expect]:
    """The usual answer of a seat POST: outsiders 403, non-hosts 403 for host actions, the
    allowed phases refused for bad input (400) or allowed (None), other phases 409."""

    def expect(visitor: str, phase: str) -> Expect:
        if visitor in ("anonymous", "other game"):
            return 403, NOT_SEATED
        if host_only and visitor == "player":
            return 403, host_message
        if phase == Phase.LOBBY and lobby_host is not None and visitor == "host":
            return lobby_host
        if phase in bad_phases:
            return bad_input
        if phase in ok_phases:
            return None
        return 409, PHASE_MESSAGES[phase]

    return expect


def _get_page(visitor: str, phase: str) -> Expect:
    if visitor in ("anonymous", "other game"):
        return (302, "") if phase == Phase.LOBBY else (403, NOT_SEATED)
    return 200, ""


def _get_join(visitor: str, phase: str) -> Expect:
    if visitor in ("anonymous", "other game"):
        return (200, "") if phase == Phase.LOBBY else (403, NOT_SEATED)
    return 302, ""


def _post_join(visitor: str, phase: str) -> Expect:
    if visitor in ("anonymous", "other game"):
        return None if phase == Phase.LOBBY else (403, NOT_SEATED)
    return 302, ""  # already seated: sent to the game, no second seat


def _get_status(visitor: str, phase: str) -> Expect:
    return (403, NOT_SEATED) if visitor in ("anonymous", "other game") else (200, "")


def _cancel(visitor: str, phase: str) -> Expect:
    if visitor in ("anonymous", "other game"):
        return 403, NOT_SEATED
    if visitor == "player":
        return 403, "Only the host can cancel the game."
    if phase in (Phase.REVEAL, Phase.CANCELLED):
        return 409, "This game is already over."
    return None


ROUTES: list[Route] = [
    Route("game", "GET", lambda w, p: reverse("game", args=[_code(w, p)]), lambda w: {}, _get_page),
    Route("join", "GET", lambda w, p: reverse("join", args=[_code(w, p)]), lambda w: {}, _get_join),
    Route(
        "join",
        "POST",
        lambda w, p: reverse("join", args=[_code(w, p)]),
        lambda w: {"name": "Zed", "rules_phrase": services.RULES_PHRASE},
        _post_join,
    ),
    Route(
        "rejoin",
        "GET",
        lambda w, p: reverse("rejoin", args=[_code(w, p), secrets.token_urlsafe(18)]),
        lambda w: {},
        lambda v, p: (404, BAD_LINK),
    ),
    Route(
        "status",
        "GET",
        lambda w, p: reverse("status", args=[_code(w, p)]),
        lambda w: {},
        _get_status,
    ),
    Route(
        "deck",
        "POST",
        lambda w, p: reverse("deck", args=[_code(w, p)]),
        lambda w: {"count_werewolf": "9"},
        _seated_post(host_only=True, lobby_host=(400, "Werewolf")),
    ),
    Route(
        "remove_seat",
        "POST",
        # Another game's seat: the host may remove players of their own lobby only.
        lambda w, p: reverse("remove_seat", args=[_code(w, p), w.other.seats["Yan"].pk]),
        lambda w: {},
        _seated_post(host_only=True, lobby_host=(400, "That player is not at this table.")),
    ),
    Route(
        "lock",
        "POST",
        lambda w, p: reverse("lock", args=[_code(w, p)]),
        lambda w: {"locked": "yes"},
        _seated_post(host_only=True, ok_phases=(Phase.LOBBY,)),
    ),
    Route(
        "start",
        "POST",
        lambda w, p: reverse("start", args=[_code(w, p)]),
        lambda w: {},
        _seated_post(host_only=True, ok_phases=(Phase.LOBBY,)),
    ),
    Route(
        "cancel", "POST", lambda w, p: reverse("cancel", args=[_code(w, p)]), lambda w: {}, _cancel
    ),
    Route(
        "night_action",
        "POST",
        lambda w, p: reverse("night_action", args=[_code(w, p)]),
        lambda w: {"targets": "Zed"},
        _seated_post(
            bad_phases=(Phase.NIGHT,), bad_input=(400, "Choose your targets from the list")
        ),
    ),
    Route(
        "end_day",
        "POST",
        lambda w, p: reverse("end_day", args=[_code(w, p)]),
        lambda w: {},
        _seated_post(host_only=True, ok_phases=(Phase.DAY,)),
    ),
    Route(
        "ready",
        "POST",
        lambda w, p: reverse("ready", args=[_code(w, p)]),
        lambda w: {},
        _seated_post(ok_phases=(Phase.DAY,)),
    ),
    Route(
        "vote",
        "POST",
        lambda w, p: reverse("vote", args=[_code(w, p)]),
        # A seat of another game: votes go to players at this table only.
        lambda w: {"target": w.other.seats["Yan"].pk},
        _seated_post(
            bad_phases=(Phase.VOTING,),
            bad_input=(400, "Vote for one of the players at this table."),
        ),
    ),
    Route(
        "play_again",
        "POST",
        lambda w, p: reverse("play_again", args=[_code(w, p)]),
        lambda w: {},
        _seated_post(ok_phases=(Phase.REVEAL,)),
    ),
]


def request(client: Client, method: str, path: str, data: dict[str, Any], **extra: Any) -> Any:
    FIGURES["requests"] += 1
    response = client.get(path, data, **extra) if method == "GET" else client.post(path, data)
    assert response.status_code < 500, (method, path, response.status_code)
    return response


def check_refusal(
    client: Client, method: str, path: str, data: dict[str, Any], status: int, message: str
) -> HttpResponse:
    """The request is answered with `status` and a readable message; nothing changes."""
    before = db_snapshot()
    response = request(client, method, path, data)
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


def test_every_route_as_every_visitor_in_every_phase(world: World) -> None:
    """The whole matrix: 15 routes x 4 visitors x 6 phases (allowed cases are tested below)."""
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
                check_refusal(client, route.method, path, route.data(world), status, message)
                tried += 1
    assert tried >= 300
    FIGURES["matrix_cases"] += tried


@pytest.mark.parametrize("visitor", ACTORS)
def test_every_route_of_an_unknown_game_is_404(world: World, visitor: str) -> None:
    """Guessed game codes: every route answers 404 with a message; nothing changes."""
    rng = secrets.SystemRandom()
    codes = ["".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)) for _ in range(3)]
    codes += ["A" * 17, "ÄÖÜ", "%00", "abc def", world.table(Phase.NIGHT).code + "X"]
    client = world.clients[(Phase.NIGHT, visitor)]
    for code in codes:
        for route in ROUTES:
            path = route.path(world, Phase.NIGHT).replace(world.table(Phase.NIGHT).code, code, 1)
            if code == "%00":  # a control character: no view sees the path (middleware)
                check_refusal(client, route.method, path, {}, 404, NO_PAGE)
            elif route.name == "rejoin":
                check_refusal(client, "GET", path, {}, 404, BAD_LINK)
            else:
                check_refusal(client, route.method, path, route.data(world), 404, NO_GAME)
            FIGURES["guessed_code_requests"] += 1
    response = check_refusal(
        client, "POST", reverse("join_by_code"), {"code": codes[0]}, 404, NO_GAME
    )
    assert response.status_code == 404
    ROUTES_TRIED.add("POST join_by_code")


def test_guessed_and_borrowed_rejoin_tokens_are_refused(world: World) -> None:
    """Random tokens, another game's token, and a token of this game under another code."""
    night = world.table(Phase.NIGHT)
    day = world.table(Phase.DAY)
    client = Client()
    tokens = [secrets.token_urlsafe(18) for _ in range(20)]
    tokens += [world.other.seats["Xia"].token, day.seats["Ann"].token, "", "x" * 200]
    for token in tokens:
        if not token:
            continue
        path = reverse("rejoin", args=[night.code, token])
        check_refusal(client, "GET", path, {}, 404, BAD_LINK)
        FIGURES["guessed_tokens"] += 1
    # None of that put a seat in the session: the game is still closed to this browser.
    check_refusal(client, "GET", reverse("game", args=[night.code]), {}, 403, NOT_SEATED)
    # The right token does (and only for its own game).
    response = request(
        client, "GET", reverse("rejoin", args=[night.code, night.seats["Cat"].token]), {}
    )
    assert response.status_code == 302
    check_refusal(client, "GET", reverse("game", args=[day.code]), {}, 403, NOT_SEATED)


def test_another_seats_remove_url(world: World) -> None:
    lobby = world.table(Phase.LOBBY)
    ben = world.clients[(Phase.LOBBY, "player")]
    host = world.clients[(Phase.LOBBY, "host")]
    cat = lobby.seats["Cat"].pk
    check_refusal(ben, "POST", reverse("remove_seat", args=[lobby.code, cat]), {}, 403, ONLY_HOST)
    check_refusal(
        ben,
        "POST",
        reverse("remove_seat", args=[lobby.code, lobby.seats["Ann"].pk]),
        {},
        403,
        ONLY_HOST,
    )
    check_refusal(
        host,
        "POST",
        reverse("remove_seat", args=[lobby.code, lobby.seats["Ann"].pk]),
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
    # The other game's host cannot reach into this lobby either.
    xia = world.clients[(Phase.LOBBY, "other game")]
    check_refusal(xia, "POST", reverse("remove_seat", args=[lobby.code, cat]), {}, 403, NOT_SEATED)
    assert Seat.objects.filter(pk=cat).exists()


def test_a_seat_cannot_act_or_vote_for_another_seat(world: World) -> None:
    """The seat is the session's; fields naming another seat are ignored."""
    night = play_to(Phase.NIGHT, THREE)
    ben = client_for(night, "Ben")
    ann = night.seats["Ann"]
    forged = {"seat": ann.pk, "seat_id": ann.pk, "name": "Ann", "token": ann.token}
    response = request(
        ben,
        "POST",
        reverse("night_action", args=[night.code]),
        {"targets": form_targets(night, "Cat"), **forged},
    )
    assert response.status_code == 302
    assert list(
        NightAction.objects.filter(game=night.game).values_list("seat__name", "targets")
    ) == [("Ben", ["Cat"])]
    voting = play_to(Phase.VOTING, THREE)
    ben = client_for(voting, "Ben")
    response = request(
        ben,
        "POST",
        reverse("vote", args=[voting.code]),
        {"target": voting.seats["Cat"].pk, "voter": voting.seats["Ann"].pk, **forged},
    )
    assert response.status_code == 302
    votes = VoteRow.objects.filter(game=voting.game).values_list("voter__name", "target__name")
    assert list(votes) == [("Ben", "Cat")]
    # Voting twice, or again for someone else, is refused.
    check_refusal(
        ben,
        "POST",
        reverse("vote", args=[voting.code]),
        {"target": voting.seats["Ann"].pk},
        400,
        "already voted",
    )


def test_allowed_requests_change_exactly_what_they_should(world: World) -> None:
    """The cases the matrix skips: each one's status and its one change."""
    lobby = world.table(Phase.LOBBY)
    anon = world.clients[(Phase.LOBBY, "anonymous")]
    host = world.clients[(Phase.LOBBY, "host")]

    def changes(
        client: Client, method: str, path: str, data: dict[str, Any], status: int
    ) -> list[str]:
        before = db_snapshot()
        response = request(client, method, path, data)
        assert response.status_code == status, (path, response.status_code, message_of(response))
        return snapshot_diff(before, db_snapshot())

    diff = changes(
        anon,
        "POST",
        reverse("join", args=[lobby.code]),
        {"name": "Zed", "rules_phrase": services.RULES_PHRASE},
        302,
    )
    assert [d for d in diff if not d.startswith("chat")] and all(
        d.startswith(("seat", "chat")) for d in diff
    ), diff
    zed = Seat.objects.get(game=lobby.game, name="Zed")
    diff = changes(host, "POST", reverse("remove_seat", args=[lobby.code, zed.pk]), {}, 302)
    assert diff == [f"seat {zed.pk} deleted"] or all(d.startswith(("seat", "chat")) for d in diff)
    assert not Seat.objects.filter(pk=zed.pk).exists()
    diff = changes(
        host,
        "POST",
        reverse("deck", args=[lobby.code]),
        {"count_werewolf": 2, "count_seer": 1, "count_robber": 1, "count_villager": 2},
        302,
    )
    assert diff and all(d.startswith(f"game {lobby.game.pk}.deck") for d in diff), diff
    changes(host, "POST", reverse("start", args=[lobby.code]), {}, 302)
    assert lobby.phase() == Phase.NIGHT
    for name in ("Ann", "Ben", "Cat"):
        client = client_for(lobby, name)
        changes(client, "GET", reverse("game", args=[lobby.code]), {}, 200)

    day = world.table(Phase.DAY)
    diff = changes(
        world.clients[(Phase.DAY, "player")], "POST", reverse("ready", args=[day.code]), {}, 302
    )
    assert diff == [f"seat {day.seats['Ben'].pk}.ready_to_vote: False -> True"], diff
    changes(
        world.clients[(Phase.DAY, "host")], "POST", reverse("end_day", args=[day.code]), {}, 302
    )
    assert day.phase() == Phase.VOTING

    done = world.table(Phase.REVEAL)
    changes(
        world.clients[(Phase.REVEAL, "player")],
        "POST",
        reverse("play_again", args=[done.code]),
        {},
        302,
    )
    assert Game.objects.filter(previous_game=done.game).count() == 1

    voting = world.table(Phase.VOTING)
    changes(
        world.clients[(Phase.VOTING, "host")],
        "POST",
        reverse("cancel", args=[voting.code]),
        {},
        302,
    )
    for route in ("play_again", "start", "cancel", "end_day", "ready"):
        ROUTES_TRIED.add(f"POST {route}")
    ROUTES_TRIED.update({"GET home", "POST game_new"})
    assert request(Client(), "GET", reverse("home"), {}).status_code == 200


def test_wrong_methods_are_refused(world: World) -> None:
    night = world.table(Phase.NIGHT)
    client = world.clients[(Phase.NIGHT, "host")]
    for name in POST_ROUTES:
        before = db_snapshot()
        response = request(client, "GET", reverse(name, args=[night.code]), {})
        assert response.status_code == 405, name
        assert not snapshot_diff(before, db_snapshot())
    for path in (reverse("game", args=[night.code]), reverse("status", args=[night.code])):
        before = db_snapshot()
        response = request(client, "POST", path, {})
        assert response.status_code == 405, path
        assert not snapshot_diff(before, db_snapshot())
    assert request(client, "GET", reverse("game_new"), {}).status_code == 405
    assert request(client, "GET", reverse("join_by_code"), {}).status_code == 405


def test_wrong_method_answers_with_a_message(world: World) -> None:
    night = world.table(Phase.NIGHT)
    response = world.clients[(Phase.NIGHT, "host")].get(reverse("start", args=[night.code]))
    assert response.status_code == 405
    assert response.content.strip(), "empty body"


def test_cross_site_posts_without_the_csrf_token_are_refused(world: World) -> None:
    """A seated host's browser posting from another site (no CSRF token): 403, no change."""
    for phase, name in ((Phase.LOBBY, "start"), (Phase.DAY, "end_day"), (Phase.NIGHT, "cancel")):
        table = world.table(phase)
        client = Client(enforce_csrf_checks=True)
        response = client.get(reverse("rejoin", args=[table.code, table.seats["Ann"].token]))
        assert response.status_code == 302
        before = db_snapshot()
        response = client.post(reverse(name, args=[table.code]), {})
        FIGURES["requests"] += 1
        assert response.status_code == 403
        assert b"CSRF" in response.content
        assert not snapshot_diff(before, db_snapshot())


# --- Admin ----------------------------------------------------------------------------------------


def test_admin_is_for_staff_only(world: World) -> None:
    night = world.table(Phase.NIGHT).game
    pages = [
        reverse("admin:index"),
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[night.pk]),
        reverse("admin:games_game_change", args=[night.pk]) + "?show_secrets=1",
    ]
    user_model = get_user_model()
    player = Client()
    player.force_login(user_model.objects.create_user("player"))
    for client in (Client(), player, world.clients[(Phase.NIGHT, "host")]):
        for page in pages:
            before = db_snapshot()
            response = request(client, "GET", page, {})
            assert response.status_code == 302, page
            assert "/admin/login/" in response["Location"], page
            assert not snapshot_diff(before, db_snapshot())
        before = db_snapshot()
        response = client.post(
            reverse("admin:games_game_changelist"),
            {"action": "cancel_games", "_selected_action": [night.pk]},
        )
        FIGURES["requests"] += 1
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
        assert not snapshot_diff(before, db_snapshot())
    # Staff without permissions on games: refused.
    staff = Client()
    staff.force_login(user_model.objects.create_user("helper", is_staff=True))
    for page in pages[1:3]:
        before = db_snapshot()
        response = request(staff, "GET", page, {})
        assert response.status_code == 403, page
        assert not snapshot_diff(before, db_snapshot())
    ROUTES_TRIED.update({"GET admin", "POST admin action"})


def test_a_refused_admin_look_is_not_recorded(world: World) -> None:
    night = world.table(Phase.NIGHT).game
    staff = Client()
    staff.force_login(get_user_model().objects.create_user("helper", is_staff=True))
    before = db_snapshot()
    response = staff.get(reverse("admin:games_game_change", args=[night.pk]) + "?show_secrets=1")
    assert response.status_code == 403
    assert not snapshot_diff(before, db_snapshot()), snapshot_diff(before, db_snapshot())


# --- Websocket ------------------------------------------------------------------------------------


async def _first_output(comm: Any) -> dict[str, Any]:
    connected, code = await comm.connect(timeout=WAIT)
    if not connected:
        return {"type": "denied", "code": code}
    output = await comm.receive_output(timeout=WAIT)
    return output


@pytest.mark.django_db(transaction=True)
async def test_websocket_refuses_every_visitor_without_a_seat(sockets: SocketOpener) -> None:
    """No session, another game's seat, a token under the wrong code, an unknown game: the
    socket is closed with 4403 before anything is sent. Wrong or missing Origin: denied."""
    table = await database_sync_to_async(play_to)(Phase.DAY, THREE)
    other = await database_sync_to_async(create_lobby)(["Xia", "Yan", "Zoe"])
    before = await database_sync_to_async(db_snapshot)()
    own = {"seats": {table.code: table.seats["Ann"].token}}
    cases: list[tuple[str, str, dict[str, Any] | None]] = [
        ("no session", table.code, None),
        ("empty session", table.code, {}),
        ("other game's seat", table.code, {"seats": {other.code: other.seats["Xia"].token}}),
        ("other game's token", table.code, {"seats": {table.code: other.seats["Xia"].token}}),
        ("this seat, other game's path", other.code, own),
        ("unknown game", "ZZZZZZZZ", own),
        ("guessed token", table.code, {"seats": {table.code: secrets.token_urlsafe(18)}}),
        ("token not a string", table.code, {"seats": {table.code: ["x"]}}),
        ("seats not a dict", table.code, {"seats": ["x"]}),
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
    assert await database_sync_to_async(db_snapshot)() == before
    ROUTES_TRIED.add("WS game socket")


@pytest.mark.django_db(transaction=True)
async def test_a_removed_player_loses_the_socket(sockets: SocketOpener) -> None:
    table = await database_sync_to_async(create_lobby)(["Ann", "Ben", "Cat"])
    ben, _ = await sockets.seat(table, "Ben")

    def remove() -> None:
        services.seat_remove(host=table.seat("Ann"), seat_id=table.seats["Ben"].pk)

    await database_sync_to_async(remove)()
    await ben.send_json_to({"type": "chat", "text": "am I still here"})
    while True:
        output = await ben.receive_output(timeout=WAIT)
        if output["type"] == "websocket.close":
            break
    assert output.get("code") == CLOSE_NOT_SEATED
    count = await database_sync_to_async(ChatMessage.objects.filter(text="am I still here").count)()
    assert count == 0
    FIGURES["websocket_connections"] += 1


@pytest.mark.django_db(transaction=True)
async def test_a_seat_cannot_chat_as_another(sockets: SocketOpener) -> None:
    """Extra fields naming another seat are ignored: the line is the sender's."""
    table = await database_sync_to_async(play_to)(Phase.DAY, THREE)
    ben, _ = await sockets.seat(table, "Ben")
    ann = table.seats["Ann"]
    await ben.send_json_to(
        {"type": "chat", "text": "trust me", "seat_id": ann.pk, "name": "Ann", "author": "Ann"}
    )
    frame, _ = await receive_until(ben, lambda f: f["type"] in ("sent", "error"))
    assert frame == {"type": "sent"}
    assert (await send_chat(ben, "second line"))["type"] == "sent"
    rows = await database_sync_to_async(
        lambda: list(
            ChatMessage.objects.filter(game=table.game, seat__isnull=False).values_list(
                "seat__name", "text"
            )
        )
    )()
    assert rows == [("Ben", "trust me"), ("Ben", "second line")]


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
        assert len(ROUTES_TRIED) >= 15
