"""Game forms sent over the page's websocket (games/consumers.py, static/js/game.js).

With a live socket, game.js sends a panel form as {"type": "form", "path", "fields"} instead of
an htmx POST. The consumer runs it through the same handler as the POST view
(games/seat_forms.py) and answers in a "status" frame marked "answer": with the seat's new
panel, or the panel with the service's error, exactly as the view's htmx answer; or, for a
night action, "ready" or a vote taken while the game stays in its phase, with the one card of
the panel that the form changed ("part_html", for the element "part"), as it reads in the
whole panel; or, for a form that moved the game on, with the new phase alone ("follows"), the
panel coming in the phase change's push as to every other page of the table. A frame that is
not one of this game's seat forms gets a "form-error" and changes nothing.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import consumers, services
from games.models import Game, NightAction, Phase, Seat, Vote
from tests.factories import (
    OFFICIAL_FIVE,
    THREE,
    Table,
    create_lobby,
    deal_game,
    form_targets,
    play_to,
    start_with_deal,
)
from tests.realtime.helpers import (
    WAIT,
    Frame,
    SocketOpener,
    expect_closed,
    is_status,
    receive_until,
    send_chat,
    visible_text,
)

pytestmark = pytest.mark.django_db(transaction=True)

db = database_sync_to_async
TRIO = ("Ann", "Ben", "Cat")
CSRF = {"csrfmiddlewaretoken": ["sent-along-as-the-page-does"]}
# The page's CSRF cookie: the token a card or panel sent over the socket carries.
PAGE_TOKEN = "the-page-cookie-token"
TOKEN_COOKIE = f"; csrftoken={PAGE_TOKEN}"


async def send_form(
    comm: WebsocketCommunicator, path: str, fields: dict[str, Any] | None = None
) -> Frame:
    """Send a form as game.js does and return the answer (or the form-error)."""
    await comm.send_json_to({"type": "form", "path": path, "fields": {**CSRF, **(fields or {})}})
    frame, _ = await receive_until(
        comm, lambda f: f.get("answer") is True or f["type"] == "form-error"
    )
    return frame


async def send_moving_form(
    comm: WebsocketCommunicator, path: str, fields: dict[str, Any] | None = None
) -> tuple[Frame, Frame]:
    """Send a form that moves the game on: its answer (the new phase, no panel) and the push
    that brings the sender's new panel, whichever of the two comes first."""
    await comm.send_json_to({"type": "form", "path": path, "fields": {**CSRF, **(fields or {})}})
    answer, seen = await receive_until(comm, lambda f: f.get("answer") is True)
    assert answer["type"] == "status" and answer["follows"] is True, answer
    assert "panel_html" not in answer and "part_html" not in answer, answer
    is_push = lambda f: f["type"] == "status" and "panel_html" in f  # noqa: E731
    push = next((f for f in seen if is_push(f)), None)
    if push is None:
        push, _ = await receive_until(comm, is_push)
    assert push["phase"] == answer["phase"] and not push.get("answer"), (answer, push)
    return answer, push


def state(game_id: int) -> dict[str, Any]:
    game = Game.objects.get(pk=game_id)
    return {
        "phase": game.phase,
        "actions": sorted(NightAction.objects.filter(game=game).values_list("seat_id", "targets")),
        "ready": sorted(Seat.objects.filter(game=game, ready_to_vote=True).values_list("pk")),
        "votes": sorted(Vote.objects.filter(game=game).values_list("voter_id", "target_id")),
        "seats": sorted(Seat.objects.filter(game=game).values_list("pk", flat=True)),
    }


async def night_table() -> Table:
    table = await db(create_lobby)(TRIO)
    return await db(start_with_deal)(table, THREE)


def whole_panel(table: Table, name: str, csrf_token: str) -> str:
    """Seat `name`'s whole panel as it stands, rendered as a push renders it."""
    frame = consumers._panel_frame(
        consumers._read_table(table.game.pk), table.seats[name].pk, csrf_token, ""
    )
    assert frame is not None
    return str(frame["panel_html"])


def assert_card_of_panel(answer: Frame, table: Table, name: str, element_id: str) -> None:
    """`answer` carries only the card `element_id`, exactly as the seat's whole panel now
    shows it (same markup, same form token)."""
    assert answer["type"] == "status" and answer["answer"] is True, answer
    assert "panel_html" not in answer and answer["part"] == element_id, answer
    card = answer["part_html"].strip()
    assert card.startswith(f'<div class="card" id="{element_id}">'), card
    assert 'role="alert"' not in card
    assert card in whole_panel(table, name, PAGE_TOKEN)


async def test_a_night_action_over_the_socket_is_stored_and_answered_with_its_card(
    sockets: SocketOpener,
) -> None:
    table = await night_table()
    ben, _ = await sockets.seat(table, "Ben", extra_cookies=TOKEN_COOKIE)
    answer = await send_form(
        ben, f"/g/{table.code}/action", {"targets": form_targets(table, "Ann")}
    )
    assert answer["phase"] == Phase.NIGHT and "Your action is in" in answer["part_html"]
    await db(assert_card_of_panel)(answer, table, "Ben", "night-action")
    stored = await db(lambda: list(NightAction.objects.filter(seat=table.seats["Ben"])))()
    assert [a.targets for a in stored] == [["Ann"]]


async def test_the_last_action_moves_every_page_to_the_day(sockets: SocketOpener) -> None:
    table = await night_table()
    ann, _ = await sockets.seat(table, "Ann")
    ben, _ = await sockets.seat(table, "Ben")
    cat, _ = await sockets.seat(table, "Cat")
    assert (await send_form(ann, f"/g/{table.code}/action", {"no_action": ["1"]}))["answer"]
    path = f"/g/{table.code}/action"
    assert (await send_form(ben, path, {"targets": form_targets(table, "Ann")}))["answer"]
    last, push = await send_moving_form(cat, path, {"targets": form_targets(table, "Ben")})
    # The robber's answer is the day; the push brings the robber's panel, with what it saw.
    assert last["phase"] == Phase.DAY and "What you learned in the night" in push["panel_html"]
    for comm in (ann, ben):
        push, _ = await receive_until(comm, is_status(Phase.DAY))
        assert "panel_html" in push
    assert (await db(state)(table.game.pk))["phase"] == Phase.DAY


async def test_a_refused_form_comes_back_with_the_error_and_changes_nothing(
    sockets: SocketOpener,
) -> None:
    table = await night_table()
    before = await db(state)(table.game.pk)
    ben, _ = await sockets.seat(table, "Ben")
    cases = [
        (f"/g/{table.code}/ready", {}, "It is night"),
        (f"/g/{table.code}/vote", {"target": [str(table.seats["Ann"].pk)]}, "It is night"),
        (f"/g/{table.code}/start", {}, "Only the host"),
        (f"/g/{table.code}/action", {}, "Pick your target"),
        (f"/g/{table.code}/action", {"targets": ["Nobody"]}, ""),
    ]
    for path, fields, message in cases:
        answer = await send_form(ben, path, fields)
        assert answer["type"] == "status" and answer["answer"] is True, answer
        assert 'role="alert"' in answer["panel_html"], (path, fields)
        assert message in visible_text(answer["panel_html"])
        assert answer["phase"] == Phase.NIGHT
    assert await db(state)(table.game.pk) == before


@pytest.mark.parametrize(
    "frame",
    [
        pytest.param(
            {"path": "/g/{other}/action", "fields": {"no_action": ["1"]}}, id="other-game"
        ),
        pytest.param({"path": "/g/{code}/again", "fields": {}}, id="not-a-seat-form"),
        pytest.param({"path": "/games/new", "fields": {"host_name": ["X"]}}, id="create-form"),
        pytest.param({"path": "/admin/", "fields": {}}, id="admin"),
        pytest.param({"path": "/no/such/page", "fields": {}}, id="unknown-path"),
        pytest.param({"path": 12, "fields": {}}, id="path-not-text"),
        pytest.param({"path": "/g/{code}/action" + "x" * 300, "fields": {}}, id="long-path"),
        pytest.param({"path": "/g/{code}/action"}, id="no-fields"),
        pytest.param({"path": "/g/{code}/action", "fields": ["targets"]}, id="fields-a-list"),
        pytest.param({"path": "/g/{code}/action", "fields": {"targets": [1]}}, id="value-number"),
        pytest.param(
            {"path": "/g/{code}/action", "fields": {"targets": {"a": "b"}}}, id="value-object"
        ),
        pytest.param(
            {"path": "/g/{code}/action", "fields": {"targets": ["x" * 1001]}}, id="value-long"
        ),
        pytest.param(
            {"path": "/g/{code}/action", "fields": {"targets": ["Ann"] * 17}}, id="many-values"
        ),
        pytest.param(
            {"path": "/g/{code}/action", "fields": {f"f{i}": ["1"] for i in range(65)}},
            id="many-fields",
        ),
    ],
)
async def test_a_frame_that_is_not_this_games_seat_form_is_refused_and_changes_nothing(
    sockets: SocketOpener, frame: dict[str, Any]
) -> None:
    table = await night_table()
    other = await night_table()
    before = await db(state)(table.game.pk), await db(state)(other.game.pk)
    ann, _ = await sockets.seat(table, "Ann")
    path = frame.get("path")
    if isinstance(path, str):
        frame = {**frame, "path": path.format(code=table.code, other=other.code)}
    await ann.send_json_to({"type": "form", **frame})
    refused, _ = await receive_until(ann, lambda f: f["type"] in ("form-error", "status"))
    assert refused["type"] == "form-error" and refused["message"], refused
    assert (await db(state)(table.game.pk), await db(state)(other.game.pk)) == before
    # The socket carries on.
    await ann.send_json_to({"type": "ping"})
    assert (await ann.receive_json_from(timeout=WAIT))["type"] == "pong"


async def test_the_day_and_the_vote_over_the_socket(sockets: SocketOpener) -> None:
    """Everyone ready moves the game to the vote; the votes bring the reveal."""
    table = await db(play_to)(Phase.DAY, THREE)
    comms = {
        name: (await sockets.seat(table, name, extra_cookies=TOKEN_COOKIE))[0] for name in TRIO
    }
    for name in TRIO[:2]:  # the day goes on: each answer is the seat's "ready" card
        answer = await send_form(comms[name], f"/g/{table.code}/ready")
        assert answer["phase"] == Phase.DAY and "not ready after all" in answer["part_html"]
        await db(assert_card_of_panel)(answer, table, name, "day-ready")
    # Ann changes her mind, and her card says so.
    answer = await send_form(comms["Ann"], f"/g/{table.code}/ready", {"ready": ["no"]})
    assert "ready to vote</button>" in answer["part_html"]
    await db(assert_card_of_panel)(answer, table, "Ann", "day-ready")
    answer = await send_form(comms["Ann"], f"/g/{table.code}/ready")
    await db(assert_card_of_panel)(answer, table, "Ann", "day-ready")
    # The last "ready" moved the game on: its answer is the phase, the push the voting panel.
    answer, push = await send_moving_form(comms["Cat"], f"/g/{table.code}/ready")
    assert answer["phase"] == Phase.VOTING and 'id="voting"' in push["panel_html"]
    assert 'role="alert"' not in push["panel_html"]
    votes = {"Ann": "Ben", "Ben": "Cat"}
    for voter, target in votes.items():
        answer = await send_form(
            comms[voter], f"/g/{table.code}/vote", {"target": [str(table.seats[target].pk)]}
        )
        assert f"You voted for <strong>{target}</strong>" in answer["part_html"]
        await db(assert_card_of_panel)(answer, table, voter, "voting")
    answer, push = await send_moving_form(
        comms["Cat"], f"/g/{table.code}/vote", {"target": [str(table.seats["Ben"].pk)]}
    )
    assert answer["phase"] == Phase.REVEAL and 'id="reveal"' in push["panel_html"]
    assert 'role="alert"' not in push["panel_html"]
    stored = await db(state)(table.game.pk)
    assert stored["phase"] == Phase.REVEAL and len(stored["votes"]) == 3


async def test_the_host_removes_a_player_over_the_socket(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    ann, _ = await sockets.seat(table, "Ann")
    cat, _ = await sockets.seat(table, "Cat")
    answer = await send_form(ann, f"/g/{table.code}/remove/{table.seats['Cat'].pk}")
    assert answer["phase"] == Phase.LOBBY and "Cat" not in visible_text(answer["panel_html"])
    await expect_closed(cat, consumers.CLOSE_NOT_SEATED)
    # Only the host may: Ben's try is refused in his panel.
    ben, _ = await sockets.seat(table, "Ben")
    answer = await send_form(ben, f"/g/{table.code}/remove/{table.seats['Ann'].pk}")
    assert 'role="alert"' in answer["panel_html"]
    assert len((await db(state)(table.game.pk))["seats"]) == 2


async def test_a_form_from_a_removed_seat_closes_its_socket(sockets: SocketOpener) -> None:
    table = await db(create_lobby)(TRIO)
    cat, _ = await sockets.seat(table, "Cat")
    await db(lambda: Seat.objects.filter(pk=table.seats["Cat"].pk).delete())()
    await cat.send_json_to({"type": "form", "path": f"/g/{table.code}/deck", "fields": CSRF})
    await expect_closed(cat, consumers.CLOSE_NOT_SEATED)


async def test_chat_still_works_beside_forms(sockets: SocketOpener) -> None:
    table = await db(play_to)(Phase.DAY, THREE)
    ann, _ = await sockets.seat(table, "Ann")
    assert (await send_chat(ann, "before the form"))["type"] == "sent"
    assert (await send_form(ann, f"/g/{table.code}/ready"))["answer"] is True
    assert (await send_chat(ann, "after the form"))["type"] == "sent"


async def test_a_page_unsure_of_its_form_asks_for_its_panel_when_it_reconnects(
    sockets: SocketOpener,
) -> None:
    """game.js adds panel=1 when its socket dropped with a form unanswered: the hello then
    carries the panel even though the phase has not changed."""
    table = await night_table()
    _, plain = await sockets.seat(table, "Ben", phase=Phase.NIGHT)
    assert "panel_html" not in plain and "html" in plain
    _, hello = await sockets.seat(table, "Ben", phase=Phase.NIGHT, panel=True)
    assert hello["phase"] == Phase.NIGHT and 'id="night-action"' in hello["panel_html"]


@pytest.mark.parametrize("name", TRIO)
async def test_a_day_panel_leaves_the_seats_private_runs_for_the_quoting_check(name: str) -> None:
    """The day panel shows the seat its role message and night report; the consumer keeps
    their word runs, and they are exactly what the quoting check would read itself."""
    table = await db(play_to)(Phase.DAY, THREE, actions={"Ben": ["Ann"]})
    runs: dict[str, frozenset[tuple[str, ...]]] = {}
    read = await db(consumers._read_table)(table.game.pk)
    frame = await db(consumers._panel_frame)(
        read, table.seats[name].pk, "token", "http://testserver", None, runs
    )
    assert frame is not None and frame["phase"] == Phase.DAY
    expected = await db(lambda: services.seat_private_runs(table.seat(name)))()
    assert runs == {Phase.DAY: expected} and expected


async def test_a_socket_gets_at_most_two_forms_under_way(
    sockets: SocketOpener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A third form while two wait is refused at once, without touching the worker thread:
    one socket cannot fill the process's queue with forms."""
    table = await night_table()
    ben, _ = await sockets.seat(table, "Ben")
    release = threading.Event()
    answer_form = consumers._answer_form

    def held(*args: Any, **kwargs: Any) -> Any:
        release.wait(WAIT)
        return answer_form(*args, **kwargs)

    monkeypatch.setattr(consumers, "_answer_form", held)
    frame = {"type": "form", "path": f"/g/{table.code}/ready", "fields": CSRF}
    for _ in range(3):
        await ben.send_json_to(frame)
    refused = await ben.receive_json_from(timeout=WAIT)
    assert refused["type"] == "form-error" and "Wait for the answer" in refused["message"]
    release.set()
    answers = [(await receive_until(ben, lambda f: f.get("answer") is True))[0] for _ in range(2)]
    assert all('role="alert"' in a["panel_html"] for a in answers)  # "ready" in the night


async def test_a_form_after_the_deadline_is_refused_as_a_post_would_be(
    sockets: SocketOpener,
) -> None:
    """The night's time ran out and no ticker has moved the game on yet: the form moves it on
    first (as a page load does), so the late action is refused and the day panel comes back."""
    table = await db(play_to)(Phase.NIGHT, THREE, night_minutes=5)
    ben, _ = await sockets.seat(table, "Ben")
    past = timezone.now() - timedelta(seconds=1)
    await db(lambda: Game.objects.filter(pk=table.game.pk).update(deadline=past))()
    answer = await send_form(ben, f"/g/{table.code}/action", {"targets": ["Ann"]})
    assert answer["phase"] == Phase.DAY and 'role="alert"' in answer["panel_html"]
    action = await db(lambda: NightAction.objects.get(seat=table.seats["Ben"]))()
    assert action.by_deadline and action.targets == []


async def test_a_sync_can_ask_for_the_panel(sockets: SocketOpener) -> None:
    """After a form-error game.js asks for the panel as it stands ({"panel": true})."""
    table = await night_table()
    ben, _ = await sockets.seat(table, "Ben", phase=Phase.NIGHT)
    await ben.send_json_to({"type": "sync", "after": 0, "panel": True})
    hello, _ = await receive_until(ben, lambda f: f["type"] == "hello")
    assert 'id="night-action"' in hello["panel_html"]
    await ben.send_json_to({"type": "sync", "after": 0})
    hello, _ = await receive_until(ben, lambda f: f["type"] == "hello")
    assert "panel_html" not in hello


async def test_the_doppelgangers_copy_is_answered_with_the_whole_panel_then_its_card(
    sockets: SocketOpener,
) -> None:
    """The copy changes what the night card asks (the copied role's action), so its answer is
    the whole panel; the action that follows is answered with its card alone."""
    table = await db(deal_game)("official", **OFFICIAL_FIVE)
    ann, _ = await sockets.seat(table, "Ann", extra_cookies=TOKEN_COOKIE)
    path = f"/g/{table.code}/action"
    copy = await send_form(ann, path, {"step": ["copy"], "targets": form_targets(table, "Ben")})
    assert copy["phase"] == Phase.NIGHT and "part" not in copy
    assert "You copied the card of a" in visible_text(copy["panel_html"])
    assert 'role="alert"' not in copy["panel_html"]
    action = await send_form(ann, path, {"targets": form_targets(table, "Cat")})
    assert "Your action is in" in action["part_html"]
    await db(assert_card_of_panel)(action, table, "Ann", "night-action")


@pytest.mark.parametrize("form_name", ["ready", "vote"])
def test_a_ready_or_a_vote_is_answered_from_what_its_service_changed(form_name: str) -> None:
    """The forms a whole table sends at once read nothing once their transaction has
    committed: the service hands back the game, the seat and the name voted for
    (services.Taken), and the card is drawn from those, the same card as the whole panel's."""
    phase = Phase.DAY if form_name == "ready" else Phase.VOTING
    table = play_to(phase, THREE)
    fields = QueryDict(f"target={table.seats['Cat'].pk}" if form_name == "vote" else "")
    form = consumers.SocketForm(name=form_name, fields=fields, arguments={})
    with CaptureQueriesContext(connection) as captured:
        answer = consumers._answer_form(table.seats["Ann"], form, PAGE_TOKEN, "")
    sql = [q["sql"] for q in captured.captured_queries]
    assert sql and sql[-1] == "COMMIT", sql  # nothing read again after the change
    assert answer is not None
    element_id = "day-ready" if form_name == "ready" else "voting"
    assert_card_of_panel(answer, table, "Ann", element_id)
    if form_name == "vote":
        assert "You voted for <strong>Cat</strong>" in answer["part_html"]
