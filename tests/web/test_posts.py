"""Every form post: the happy path, the wrong phase, the wrong seat and malformed input.

A refused post always answers with a readable message (status 400, 403 or 409), never a 500,
and leaves the database as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Game, NightAction, Phase, Seat, Vote
from tests.factories import (
    OFFICIAL_FIVE,
    THREE,
    Table,
    client_for,
    create_lobby,
    deal_game,
    form_targets,
    game_state,
    new_client,
    play_night,
    play_to,
)
from tests.web.helpers import HTMX, PHASE_MESSAGES, alerts, raw, seat_in_session, url

pytestmark = pytest.mark.django_db


def refused(
    client: Client,
    path: str,
    data: dict[str, object],
    table: Table,
    status: int,
    message: str,
    **extra: str,
) -> None:
    """Post, and check the status, the message and that nothing changed."""
    before = game_state(table.game.pk)
    response = client.post(path, data, **extra)
    assert response.status_code == status, (response.status_code, alerts(response))
    assert any(message in a for a in alerts(response)), alerts(response)
    assert game_state(table.game.pk) == before


# --- lobby: deck, remove, start, cancel ---------------------------------------------------------


def test_host_saves_the_deck_and_goes_back_to_the_suggestion() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    data = {"count_werewolf": "2", "count_seer": "1", "count_villager": "3", "count_tanner": "0"}
    response = host.post(url("deck", table.code), data)
    assert response.status_code == 302 and response["Location"] == url("game", table.code)
    assert Counter(table.refresh().deck) == Counter({"werewolf": 2, "seer": 1, "villager": 3})
    response = host.post(url("deck", table.code), {"suggested": "1", "count_werewolf": "2"})
    assert response.status_code == 302
    assert table.refresh().deck == []


def test_deck_post_with_htmx_returns_the_panel() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ann").post(
        url("deck", table.code), {"count_villager": "3", "count_werewolf": "2"}, **HTMX
    )
    assert response.status_code == 200
    assert raw(response).lstrip().startswith('<section id="panel"')
    assert "3 players need 6 cards" in raw(response)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"count_werewolf": "3"}, "The deck may hold 0 to 2 Werewolf cards."),
        ({"count_seer": "-1"}, "The deck may hold 0 to 1 Seer cards."),
        ({"count_seer": "abc"}, "The number of Seer cards must be a whole number."),
        ({"count_seer": "1.0"}, "must be a whole number"),
        ({"count_seer": "9" * 10_000}, "must be a whole number"),
        ({"count_seer": "١٢"}, "The deck may hold 0 to 1 Seer cards."),
        ({"count_doppelganger": "1"}, "The Doppelganger is not used in the house rules."),
    ],
)
def test_bad_deck_posts_are_400(data: dict[str, str], message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    refused(host, url("deck", table.code), data, table, 400, message)
    refused(host, url("deck", table.code), data, table, 400, message, **HTMX)


def test_deck_post_ignores_unknown_fields() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ann").post(
        url("deck", table.code), {"count_vampire": "3", "count_villager": "1", "x": "<b>"}
    )
    assert response.status_code == 302
    assert table.refresh().deck == ["villager"]


def test_a_deck_of_all_zeros_is_the_suggested_deck() -> None:
    """Doubtful: saving every counter at 0 silently means "use the suggested deck"."""
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    host.post(url("deck", table.code), {"count_villager": "3"})
    response = host.post(url("deck", table.code), {"count_villager": "0"})
    assert response.status_code == 302
    assert table.refresh().deck == []


def test_host_removes_a_player_and_the_player_loses_the_seat() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    cat = client_for(table, "Cat")
    response = client_for(table, "Ann").post(url("remove_seat", table.code, table.seats["Cat"].pk))
    assert response.status_code == 302
    assert list(table.game.seats.values_list("name", flat=True)) == ["Ann", "Ben"]
    # Cat's browser is sent back to the join page.
    response = cat.get(url("game", table.code))
    assert response.status_code == 302 and response["Location"] == url("join", table.code)


@pytest.mark.parametrize(
    ("who", "target", "status", "message"),
    [
        ("Ben", "Cat", 403, "Only the host can do that."),
        ("Ann", "Ann", 400, "The host cannot remove themselves."),
        ("Ann", "stranger", 400, "That player is not at this table."),
        ("Ann", "missing", 400, "That player is not at this table."),
    ],
)
def test_bad_removals(who: str, target: str, status: int, message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    other = create_lobby(["Xia", "Yan"])
    seat_id = {
        "stranger": other.seats["Yan"].pk,
        "missing": 987_654,
    }.get(target) or table.seats[target].pk
    refused(
        client_for(table, who), url("remove_seat", table.code, seat_id), {}, table, status, message
    )
    assert other.game.seats.count() == 2


def test_remove_with_a_huge_seat_id_is_a_clear_refusal() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    refused(
        host,
        f"/g/{table.code}/remove/{'9' * 30}",
        {},
        table,
        400,
        "That player is not at this table.",
    )


def test_remove_with_a_non_numeric_seat_id_is_404() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ann").post(f"/g/{table.code}/remove/abc")
    assert response.status_code == 404


def test_host_starts_the_game() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ann").post(url("start", table.code))
    assert response.status_code == 302
    assert table.phase() == Phase.NIGHT


def test_start_refusals() -> None:
    table = create_lobby(["Ann", "Ben"])
    refused(client_for(table, "Ben"), url("start", table.code), {}, table, 403, "Only the host")
    refused(
        client_for(table, "Ann"), url("start", table.code), {}, table, 400, "needs 3 to 13 players"
    )
    started = play_to(Phase.NIGHT)
    refused(
        client_for(started, "Ann"),
        url("start", started.code),
        {},
        started,
        409,
        "It is night: that can't be done now.",
    )


def test_host_cancels_the_lobby() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ann").post(url("cancel", table.code))
    assert response.status_code == 302
    assert table.phase() == Phase.CANCELLED


def test_cancel_refusals() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    refused(
        client_for(table, "Ben"), url("cancel", table.code), {}, table, 403, "Only the host can"
    )
    done = play_to(Phase.REVEAL)
    refused(client_for(done, "Ann"), url("cancel", done.code), {}, done, 409, "already over")


def test_host_can_stop_a_running_game_and_nobody_else_can() -> None:
    """A host may stop a game that cannot go on (someone left); no cards are shown."""
    table = play_to(Phase.DAY)
    response = client_for(table, "Ben").post(url("cancel", table.code))
    assert response.status_code == 403
    assert table.phase() == Phase.DAY
    response = client_for(table, "Ann").post(url("cancel", table.code))
    assert response.status_code == 302
    assert table.phase() == Phase.CANCELLED
    page = raw(client_for(table, "Ben").get(url("game", table.code)))
    assert "This game was cancelled" in page and 'id="reveal"' not in page


# --- night actions ------------------------------------------------------------------------------


def test_night_action_posts() -> None:
    table = deal_game(**THREE)
    clients = {n: client_for(table, n) for n in table.names}
    response = clients["Ann"].post(url("night_action", table.code), {"targets": "middle"})
    assert response.status_code == 302 and response["Location"] == url("game", table.code)
    # htmx, the phase stays: the new panel.
    response = clients["Ben"].post(
        url("night_action", table.code), {"targets": "left,right"}, **HTMX
    )
    assert response.status_code == 200
    assert raw(response).lstrip().startswith('<section id="panel" data-phase="night"')
    assert "Your action is in." in raw(response)
    # htmx, the last action moves the game on: the panel of the day, which says its phase (game.js
    # updates the header and the chat box from it).
    response = clients["Cat"].post(url("night_action", table.code), {"no_action": "1"}, **HTMX)
    assert response.status_code == 200
    assert raw(response).lstrip().startswith('<section id="panel" data-phase="day"')
    assert response["X-Game-Phase"] == "day"
    assert 'data-chat-open="yes"' in raw(response)
    assert table.phase() == Phase.DAY
    actions = {a.seat.name: a.targets for a in NightAction.objects.select_related("seat")}
    assert actions == {"Ann": ["middle"], "Ben": ["left", "right"], "Cat": []}


def test_troublemaker_posts_two_selects() -> None:
    cards = {
        "Ann": "troublemaker",
        "Ben": "seer",
        "Cat": "robber",
        "left": "werewolf",
        "middle": "villager",
        "right": "drunk",
    }
    table = deal_game(**cards)
    client = client_for(table, "Ann")
    refused(
        client,
        url("night_action", table.code),
        {"targets": [*form_targets(table, "Ben"), ""]},
        table,
        400,
        "A troublemaker swaps the cards of two other players",
    )
    targets = form_targets(table, "Ben", "Cat")
    response = client.post(url("night_action", table.code), {"targets": targets})
    assert response.status_code == 302
    assert NightAction.objects.get().targets == ["Ben", "Cat"]


# Player names in SEATED are posted as the form does (their seat ids); other values as they are.
SEATED = ("Ann", "Ben")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Pick your target, or choose “no action”."),
        ({"targets": ""}, "Pick your target"),
        ({"targets": ","}, "Choose your targets from the list on the page."),
        ({"targets": ("Ben",)}, "you cannot target yourself"),
        ({"targets": "Zed"}, "Choose your targets from the list on the page."),
        ({"targets": "Cat"}, "Choose your targets from the list on the page."),
        ({"targets": "<script>alert(1)</script>"}, "Choose your targets from the list"),
        ({"targets": "Zoë 🐺"}, "Choose your targets from the list"),
        ({"targets": "x" * 50_000}, "Choose your targets from the list"),
        ({"targets": "9" * 50}, "Choose your targets from the list"),
        ({"targets": "-1"}, "Choose your targets from the list"),
        ({"targets": ("Ann", "Cat")}, "A seer looks at one other player or two centre cards."),
        ({"targets": "left,left"}, "pick different targets"),
        ({"targets": ("Ann",), "step": "copy"}, "Only the Doppelganger copies another card."),
    ],
)
def test_bad_night_actions_are_refused(data: dict[str, object], message: str) -> None:
    """Players are posted by seat id: a name, or a number that is no seat of this table, is
    refused before the rules are asked."""
    table = deal_game(**THREE)
    if isinstance(data.get("targets"), tuple):
        data = {**data, "targets": form_targets(table, *data["targets"])}  # type: ignore[misc]
    client = client_for(table, "Ben")
    status = 403 if data.get("step") == "copy" else 400
    refused(client, url("night_action", table.code), data, table, status, message)
    refused(client, url("night_action", table.code), data, table, status, message, **HTMX)


def test_a_seat_id_of_another_table_is_refused() -> None:
    table = deal_game(**THREE)
    other = create_lobby(["Dan", "Eve", "Fay"])
    data = {"targets": form_targets(other, "Dan")}
    message = "Choose your targets from the list on the page."
    refused(client_for(table, "Ben"), url("night_action", table.code), data, table, 400, message)


def test_night_action_messages_are_escaped() -> None:
    table = deal_game(**THREE)
    response = client_for(table, "Ben").post(
        url("night_action", table.code), {"targets": "<script>alert(1)</script>"}
    )
    assert "<script>alert(1)</script>" not in raw(response)
    assert "Choose your targets from the list on the page." in alerts(response)


def test_a_night_action_is_final() -> None:
    table = deal_game(**THREE)
    client = client_for(table, "Ben")
    client.post(url("night_action", table.code), {"targets": form_targets(table, "Cat")})
    refused(
        client,
        url("night_action", table.code),
        {"targets": form_targets(table, "Ann")},
        table,
        400,
        "You already sent your night action; it is final.",
    )


@pytest.mark.parametrize("phase", [Phase.LOBBY, Phase.DAY, Phase.VOTING, Phase.REVEAL])
def test_night_action_out_of_phase_is_409(phase: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == Phase.LOBBY else play_to(phase)
    client = client_for(table, "Ben")
    for data in ({"targets": form_targets(table, "Cat")}, {"no_action": "1"}):
        refused(client, url("night_action", table.code), data, table, 409, PHASE_MESSAGES[phase])


def test_doppelganger_two_steps_on_the_page() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    ann = client_for(table, "Ann")
    body = raw(ann.get(url("game", table.code)))
    assert 'name="step" value="copy"' in body
    copy = {"step": "copy", "targets": form_targets(table, "Cat")}
    response = ann.post(url("night_action", table.code), copy)
    assert response.status_code == 302
    body = raw(ann.get(url("game", table.code)))
    assert "You copied the card of a <strong>Robber</strong>." in body
    assert "A robber swaps cards with one other player" in body
    response = ann.post(url("night_action", table.code), {"targets": form_targets(table, "Dan")})
    assert response.status_code == 302
    assert NightAction.objects.get(seat__name="Ann").targets == ["Cat", "Dan"]


def test_doppelganger_copies_nobody_on_the_page() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    ann = client_for(table, "Ann")
    response = ann.post(url("night_action", table.code), {"step": "copy", "no_action": "1"})
    assert response.status_code == 302
    action = NightAction.objects.get(seat__name="Ann")
    assert action.targets == [] and action.complete


def test_doppelganger_copy_refusals_on_the_page() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    ann = client_for(table, "Ann")
    path = url("night_action", table.code)

    def copy(*names: str) -> dict[str, object]:
        return {"step": "copy", "targets": form_targets(table, *names)}

    refused(ann, path, copy("Ann"), table, 400, "cannot target yourself")
    refused(ann, path, copy("left"), table, 400, "copies one other")
    refused(ann, path, copy("Ben", "Cat"), table, 400, "Choose your targets from the list")
    ann.post(path, copy("Ben"))
    refused(ann, path, copy("Cat"), table, 400, "already chose whom to copy")


def test_doppelganger_copies_the_drunk_on_the_page() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    ann = client_for(table, "Ann")
    copy = {"step": "copy", "targets": form_targets(table, "Eve")}
    response = ann.post(url("night_action", table.code), copy)
    assert response.status_code == 302


# --- day: ready and end of day -------------------------------------------------------------------


def test_ready_posts_and_the_day_ends_when_all_are_ready() -> None:
    table = play_to(Phase.DAY)
    for name in ("Ann", "Ben"):
        assert client_for(table, name).post(url("ready", table.code)).status_code == 302
    cat = client_for(table, "Cat")
    cat.post(url("ready", table.code), {"ready": "yes"})
    assert table.phase() == Phase.VOTING


def test_unready_post() -> None:
    table = play_to(Phase.DAY)
    ben = client_for(table, "Ben")
    ben.post(url("ready", table.code))
    ben.post(url("ready", table.code), {"ready": "no"})
    assert not Seat.objects.get(pk=table.seats["Ben"].pk).ready_to_vote


@pytest.mark.parametrize("phase", [Phase.LOBBY, Phase.NIGHT, Phase.VOTING, Phase.REVEAL])
def test_ready_out_of_phase_is_409(phase: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == Phase.LOBBY else play_to(phase)
    refused(
        client_for(table, "Ben"), url("ready", table.code), {}, table, 409, PHASE_MESSAGES[phase]
    )


def test_host_ends_the_day() -> None:
    table = play_to(Phase.DAY)
    response = client_for(table, "Ann").post(url("end_day", table.code), **HTMX)
    assert response.status_code == 200
    assert raw(response).lstrip().startswith('<section id="panel" data-phase="voting"')
    assert response["X-Game-Phase"] == "voting"
    assert 'data-chat-open="no"' in raw(response)
    assert table.phase() == Phase.VOTING


def test_end_day_refusals() -> None:
    table = play_to(Phase.DAY)
    refused(client_for(table, "Ben"), url("end_day", table.code), {}, table, 403, "Only the host")
    night = play_to(Phase.NIGHT)
    refused(client_for(night, "Ann"), url("end_day", night.code), {}, night, 409, "It is night")


# --- voting -------------------------------------------------------------------------------------


def test_votes_through_the_page_bring_the_reveal() -> None:
    table = play_to(Phase.VOTING)
    for voter, target in (("Ann", "Ben"), ("Ben", "Cat")):
        response = client_for(table, voter).post(
            url("vote", table.code), {"target": str(table.seats[target].pk)}
        )
        assert response.status_code == 302
    response = client_for(table, "Cat").post(
        url("vote", table.code), {"target": table.seats["Ann"].pk}, **HTMX
    )
    assert response.status_code == 200
    assert raw(response).lstrip().startswith('<section id="panel" data-phase="reveal"')
    assert response["X-Game-Phase"] == "reveal"
    assert 'id="reveal"' in raw(response)
    assert table.phase() == Phase.REVEAL
    assert Vote.objects.count() == 3


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (None, "Choose the player you vote for."),
        ("", "Choose the player you vote for."),
        ("abc", "Choose the player you vote for."),
        ("1.5", "Choose the player you vote for."),
        ("-1", "Choose the player you vote for."),
        ("0", "Choose the player you vote for."),
        ("9" * 30, "Choose the player you vote for."),
        ("9" * 10_000, "Choose the player you vote for."),
        ("<script>", "Choose the player you vote for."),
        ("987654", "Vote for one of the players at this table."),
        ("self", "You cannot vote for yourself."),
        ("stranger", "Vote for one of the players at this table."),
    ],
)
def test_bad_votes_are_400(target: str | None, message: str) -> None:
    table = play_to(Phase.VOTING)
    other = play_to(Phase.VOTING)
    value = {"self": table.seats["Ann"].pk, "stranger": other.seats["Ben"].pk}.get(
        target or "", target
    )
    data = {} if value is None else {"target": value}
    client = client_for(table, "Ann")
    refused(client, url("vote", table.code), data, table, 400, message)
    refused(client, url("vote", table.code), data, table, 400, message, **HTMX)


def test_a_vote_is_final_on_the_page() -> None:
    table = play_to(Phase.VOTING)
    client = client_for(table, "Ann")
    client.post(url("vote", table.code), {"target": table.seats["Ben"].pk})
    refused(
        client,
        url("vote", table.code),
        {"target": table.seats["Cat"].pk},
        table,
        400,
        "You already voted; votes are final.",
    )


@pytest.mark.parametrize(
    ("phase", "message"),
    [
        (Phase.LOBBY, "The game has not started yet."),
        (Phase.NIGHT, "It is night: that can't be done now."),
        (Phase.DAY, "It is the day: that can't be done now."),
        (Phase.REVEAL, "This game is over."),
        (Phase.CANCELLED, "This game was cancelled."),
    ],
)
def test_vote_out_of_phase_is_409(phase: str, message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == Phase.LOBBY else play_to(phase)
    refused(
        client_for(table, "Ann"),
        url("vote", table.code),
        {"target": table.seats["Ben"].pk},
        table,
        409,
        message,
    )


# --- play again ---------------------------------------------------------------------------------


def test_play_again_moves_everyone_to_one_new_game() -> None:
    table = play_to(Phase.REVEAL)
    ben = client_for(table, "Ben")
    response = ben.post(url("play_again", table.code))
    assert response.status_code == 302
    new = Game.objects.get(previous_game=table.game)
    assert response["Location"] == url("game", new.code)
    seat = seat_in_session(ben, new.code)
    assert seat is not None and seat.name == "Ben"
    page = ben.get(url("game", table.code))
    assert "A new game with the same players is ready." in raw(page)
    cat = client_for(table, "Cat")
    response = cat.post(url("play_again", table.code), **HTMX)
    assert response.status_code == 204
    assert response["HX-Redirect"] == url("game", new.code)
    assert Game.objects.count() == 2
    host_page = client_for(table, "Ann")
    host_page.post(url("play_again", table.code))
    assert "Choose the cards" in raw(host_page.get(url("game", new.code)))


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.CANCELLED])
def test_play_again_out_of_phase_is_409(phase: str) -> None:
    table = play_to(phase)
    refused(client_for(table, "Ben"), url("play_again", table.code), {}, table, 409, "")
    assert Game.objects.count() == 1


# --- seats of other games and strangers ---------------------------------------------------------

POSTS: list[tuple[str, Callable[[Table], str], dict[str, object]]] = [
    ("deck", lambda t: url("deck", t.code), {"count_villager": "1"}),
    ("remove", lambda t: url("remove_seat", t.code, t.seats["Cat"].pk), {}),
    ("start", lambda t: url("start", t.code), {}),
    ("cancel", lambda t: url("cancel", t.code), {}),
    ("action", lambda t: url("night_action", t.code), {"no_action": "1"}),
    ("end_day", lambda t: url("end_day", t.code), {}),
    ("ready", lambda t: url("ready", t.code), {}),
    ("vote", lambda t: url("vote", t.code), {"target": lambda t: t.seats["Ben"].pk}),
    ("again", lambda t: url("play_again", t.code), {}),
]


@pytest.mark.parametrize(("name", "path", "data"), POSTS, ids=[p[0] for p in POSTS])
@pytest.mark.parametrize("phase", [Phase.LOBBY, Phase.NIGHT, Phase.DAY, Phase.VOTING])
def test_a_player_of_another_game_cannot_post_here(
    name: str, path: Callable[[Table], str], data: dict[str, object], phase: str
) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == Phase.LOBBY else play_to(phase)
    other = create_lobby(["Ann", "Ben", "Cat"]) if phase == Phase.LOBBY else play_to(phase)
    intruder = client_for(other, "Ann")  # a host, even
    data = {k: (v(table) if callable(v) else v) for k, v in data.items()}
    # In the lobby the stranger is told to take a seat; later, that the game started without them.
    said = "Take a seat first" if phase == Phase.LOBBY else "you do not have a seat in it"
    refused(intruder, path(table), data, table, 403, said)
    refused(new_client(), path(table), data, table, 403, said)


@pytest.mark.parametrize(("name", "path", "data"), POSTS, ids=[p[0] for p in POSTS])
def test_posts_to_an_unknown_game_are_404(
    name: str, path: Callable[[Table], str], data: dict[str, object]
) -> None:
    table = play_to(Phase.NIGHT)
    client = client_for(table, "Ann")
    target = path(table).replace(table.code, "ZZZZZZZZ")
    response = client.post(target, data)
    assert response.status_code == 404
    assert any("There is no game with that code." in a for a in alerts(response))


@pytest.mark.parametrize(("name", "path", "data"), POSTS, ids=[p[0] for p in POSTS])
def test_posts_are_post_only(
    name: str, path: Callable[[Table], str], data: dict[str, object]
) -> None:
    table = play_to(Phase.NIGHT)
    assert client_for(table, "Ann").get(path(table)).status_code == 405


def test_a_night_action_by_deadline_then_page() -> None:
    """After a missed night deadline, a late action is refused with the day's message."""
    table = deal_game(night_minutes=1, **THREE)
    Game.objects.filter(pk=table.game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    client = client_for(table, "Ben")
    response = client.post(url("night_action", table.code), {"targets": form_targets(table, "Cat")})
    assert response.status_code == 409
    assert "It is the day" in " ".join(alerts(response))
    assert NightAction.objects.get(seat__name="Ben").by_deadline


def test_play_night_helper_and_page_agree() -> None:
    """The page's night result is the services' one (sanity check of the helpers)."""
    table = deal_game(**THREE)
    play_night(table, {"Cat": ["Ann"]})
    body = raw(client_for(table, "Cat").get(url("game", table.code)))
    assert "You swapped cards with Ann. You are now the Werewolf." in body
    assert services.RULES_PHRASE not in body


def test_play_again_after_removal_from_the_new_lobby_is_a_clear_refusal() -> None:
    table = play_to(Phase.REVEAL)
    ann = client_for(table, "Ann")
    ann.post(url("play_again", table.code))
    new = Game.objects.get(previous_game=table.game)
    ann.post(url("remove_seat", new.code, new.seats.get(name="Cat").pk))
    cat = client_for(table, "Cat")
    cat.raise_request_exception = False
    response = cat.post(url("play_again", table.code))
    assert response.status_code in (400, 403, 409)


def test_copy_nobody_is_possible_from_a_browser() -> None:
    """The copy form's radios are `required`: 'Copy nobody' must skip that check, and a ticked
    radio sent along with it must not turn it into a copy."""
    table = deal_game("official", **OFFICIAL_FIVE)
    body = raw(client_for(table, "Ann").get(url("game", table.code)))
    form = body[body.index('name="step" value="copy"') : body.index("Copy nobody")]
    button = body[body.rindex("<button", 0, body.index("Copy nobody")) : body.index("Copy nobody")]
    assert "required" not in form or "formnovalidate" in button
    # What a browser sends when a radio had to be ticked before 'Copy nobody' could be pressed:
    client_for(table, "Ann").post(
        url("night_action", table.code),
        {"step": "copy", "targets": form_targets(table, "Ben"), "no_action": "1"},
    )
    assert NightAction.objects.get(seat__name="Ann").targets == []
