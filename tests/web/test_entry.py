"""Getting into a game: home, create, join by code, the join page and the rejoin link."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games import services
from games.models import Game, Phase, Seat
from tests.factories import NAMES, client_for, create_lobby, new_client, play_to
from tests.web.helpers import alerts, raw, seat_in_session, text, url

pytestmark = pytest.mark.django_db

CREATE = {
    "host_name": "Ann",
    "ruleset": "house",
    "day_minutes": "30",
    "night_minutes": "",
    "vote_minutes": "",
    "rules_phrase": "default",
}


# --- home ---------------------------------------------------------------------------------------


def test_home_offers_create_and_join(client: Client) -> None:
    response = client.get(url("home"))
    assert response.status_code == 200
    body = raw(response)
    assert f'action="{url("game_new")}"' in body
    assert f'action="{url("join_by_code")}"' in body
    assert 'name="host_name"' in body and 'name="code"' in body


def test_home_is_get_only(client: Client) -> None:
    assert client.post(url("home")).status_code == 405


# --- create -------------------------------------------------------------------------------------


def test_create_makes_a_game_and_seats_the_host(client: Client) -> None:
    response = client.post(url("game_new"), {**CREATE, "night_minutes": "3", "vote_minutes": "2"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert response["Location"] == url("game", game.code)
    assert (game.day_seconds, game.night_seconds, game.vote_seconds) == (1800, 180, 120)
    assert game.require_rules_phrase is True
    seat = seat_in_session(client, game.code)
    assert seat is not None and seat.is_host and seat.name == "Ann"
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "Choose the cards" in text(page)


@pytest.mark.parametrize(
    ("ruleset", "phrase", "expected"),
    [
        ("house", "default", True),
        ("official", "default", False),
        ("house", "no", False),
        ("official", "yes", True),
    ],
)
def test_create_rules_phrase_choice(
    client: Client, ruleset: str, phrase: str, expected: bool
) -> None:
    response = client.post(url("game_new"), {**CREATE, "ruleset": ruleset, "rules_phrase": phrase})
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.ruleset, game.require_rules_phrase) == (ruleset, expected)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"host_name": ""}, "This field is required."),
        ({"host_name": "   "}, "This field is required."),
        ({"host_name": "x" * 25}, "at most 24 characters"),
        ({"host_name": "x" * 100_000}, "at most 24 characters"),
        ({"host_name": "left"}, "names a centre card"),
        ({"host_name": "Ann\x07"}, "It holds a control character"),
        ({"ruleset": "vampire"}, "Select a valid choice"),
        ({"ruleset": ""}, "This field is required."),
        ({"day_minutes": "0"}, "greater than or equal to 1"),
        ({"day_minutes": "1441"}, "less than or equal to 1440"),
        ({"day_minutes": "abc"}, "Enter a whole number."),
        ({"day_minutes": "9" * 5000}, "Enter a whole number."),
        ({"night_minutes": "-3"}, "greater than or equal to 1"),
        ({"vote_minutes": "2.5"}, "Enter a whole number."),
        ({"rules_phrase": "maybe"}, "Select a valid choice"),
    ],
)
def test_create_refuses_bad_input_with_a_message(
    client: Client, changes: dict[str, str], message: str
) -> None:
    response = client.post(url("game_new"), {**CREATE, **changes})
    assert response.status_code == 400
    assert any(message in a for a in alerts(response)), alerts(response)
    assert Game.objects.count() == 0
    assert client.session.get("seats") is None


def test_create_with_an_empty_post(client: Client) -> None:
    response = client.post(url("game_new"), {})
    assert response.status_code == 400
    assert "This field is required." in text(response)
    assert Game.objects.count() == 0


def test_create_is_post_only(client: Client) -> None:
    assert client.get(url("game_new")).status_code == 405


def test_create_escapes_html_in_the_name(client: Client) -> None:
    response = client.post(url("game_new"), {**CREATE, "host_name": "<script>x</script>"})
    assert response.status_code == 302
    page = client.get(response["Location"])
    body = raw(page)
    assert "<script>x</script>" not in body
    assert "&lt;script&gt;x&lt;/script&gt;" in body


# --- join by code -------------------------------------------------------------------------------


def test_join_by_code_redirects_to_the_game(client: Client) -> None:
    table = create_lobby(["Ann"])
    code = table.code
    for typed in (code, code.lower(), f" {code[:4]}-{code[4:]} ", f"{code[:4]} {code[4:]}"):
        response = client.post(url("join_by_code"), {"code": typed})
        assert response.status_code == 302, typed
        assert response["Location"] == url("game", code)


@pytest.mark.parametrize("code", ["ZZZZZZZZ", "<b>x</b>", "é" * 10, "x" * 16, "A/B"])
def test_join_by_unknown_code_is_404_with_a_message(client: Client, code: str) -> None:
    create_lobby(["Ann"])
    response = client.post(url("join_by_code"), {"code": code})
    assert response.status_code == 404
    assert "There is no game with that code." in alerts(response)


def test_join_by_code_with_no_or_huge_code(client: Client) -> None:
    response = client.post(url("join_by_code"), {})
    assert response.status_code in (400, 404)
    assert "This field is required." in alerts(response)
    response = client.post(url("join_by_code"), {"code": "A" * 10_000})
    assert response.status_code in (400, 404)
    assert any("at most 16 characters" in a for a in alerts(response))


# --- the join page ------------------------------------------------------------------------------


def test_visiting_a_lobby_without_a_seat_leads_to_the_join_page(client: Client) -> None:
    table = create_lobby(["Ann", "Ben"])
    response = client.get(url("game", table.code))
    assert response.status_code == 302
    assert response["Location"] == url("join", table.code)
    page = client.get(url("join", table.code))
    assert page.status_code == 200
    body = text(page)
    assert "The Ocean Chose Me" in body
    assert "At the table: Ann, Ben." in body
    assert 'name="rules_phrase"' in raw(page)


def test_join_page_of_an_official_game_asks_no_phrase(client: Client) -> None:
    table = create_lobby(["Ann"], ruleset="official")
    page = client.get(url("join", table.code))
    assert 'name="rules_phrase"' not in raw(page)
    response = client.post(url("join", table.code), {"name": "Ben"})
    assert response.status_code == 302


def test_join_takes_a_seat(client: Client) -> None:
    table = create_lobby(["Ann"])
    response = client.post(
        url("join", table.code), {"name": " Ben ", "rules_phrase": "the ocean chose me."}
    )
    assert response.status_code == 302
    assert response["Location"] == url("game", table.code)
    seat = seat_in_session(client, table.code)
    assert seat is not None and seat.name == "Ben" and not seat.is_host
    # Seated players are sent to the game page rather than joining twice.
    again = client.post(url("join", table.code), {"name": "Ben2", "rules_phrase": "x"})
    assert again.status_code == 302
    assert table.game.seats.count() == 2
    page = client.get(url("game", table.code))
    assert page.status_code == 200 and "Waiting for the host" in text(page)


@pytest.mark.parametrize("phrase", ["", "the ocean", "x" * 100])
def test_join_requires_the_phrase(client: Client, phrase: str) -> None:
    table = create_lobby(["Ann"])
    response = client.post(url("join", table.code), {"name": "Ben", "rules_phrase": phrase})
    assert response.status_code == 400
    assert any("The Ocean Chose Me" in a for a in alerts(response)), alerts(response)
    assert table.game.seats.count() == 1
    assert seat_in_session(client, table.code) is None


def test_join_refuses_an_overlong_phrase(client: Client) -> None:
    table = create_lobby(["Ann"])
    response = client.post(url("join", table.code), {"name": "Ben", "rules_phrase": "x" * 101})
    assert response.status_code == 400
    assert table.game.seats.count() == 1


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ann", "Someone called ann is already at the table"),
        ("", "This field is required."),
        ("middle", "names a centre card"),
        ("x" * 25, "at most 24 characters"),
        ("a\x00b", "It holds a control character"),
    ],
)
def test_join_refuses_bad_or_taken_names(client: Client, name: str, message: str) -> None:
    table = create_lobby(["Ann"])
    response = client.post(
        url("join", table.code), {"name": name, "rules_phrase": services.RULES_PHRASE}
    )
    assert response.status_code == 400
    assert any(message in a for a in alerts(response)), alerts(response)
    assert table.game.seats.count() == 1


def test_join_with_an_empty_post_says_what_is_missing(client: Client) -> None:
    table = create_lobby(["Ann"])
    response = client.post(url("join", table.code), {})
    assert response.status_code == 400
    assert "This field is required." in alerts(response)


def test_join_with_an_empty_post_changes_nothing(client: Client) -> None:
    table = create_lobby(["Ann"])
    response = client.post(url("join", table.code), {})
    assert response.status_code == 400
    assert table.game.seats.count() == 1


def test_join_a_full_table(client: Client) -> None:
    table = create_lobby(NAMES[:12])
    response = client.post(
        url("join", table.code), {"name": "Zed", "rules_phrase": services.RULES_PHRASE}
    )
    assert response.status_code == 400
    assert any("The table is full" in a for a in alerts(response))
    assert table.game.seats.count() == 12


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.REVEAL, Phase.CANCELLED])
def test_join_a_started_game_is_403(client: Client, phase: str) -> None:
    table = play_to(phase)
    for response in (
        client.get(url("join", table.code)),
        client.post(url("join", table.code), {"name": "Zed", "rules_phrase": "x"}),
        client.get(url("game", table.code)),
    ):
        assert response.status_code == 403
        assert "You are not in this game" in text(response)
    assert table.game.seats.count() == 3


def test_join_unknown_game(client: Client) -> None:
    for code in ("ZZZZZZZZ", "nope-nope", "x" * 300):
        response = client.get(url("join", code))
        assert response.status_code == 404
        assert "There is no game with that code." in text(response)


def test_join_escapes_html_names(client: Client) -> None:
    table = create_lobby(["Ann"], ruleset="official")
    evil = "<img src=x onerror=1>"
    response = client.post(url("join", table.code), {"name": evil})
    assert response.status_code == 302
    visitor = new_client()
    page = visitor.get(url("join", table.code))
    assert evil not in raw(page)
    assert "&lt;img src=x onerror=1&gt;" in raw(page)
    host = client_for(table, "Ann")
    assert evil not in raw(host.get(url("game", table.code)))


# --- rejoin -------------------------------------------------------------------------------------


def test_rejoin_puts_the_seat_in_the_session(client: Client) -> None:
    table = play_to(Phase.DAY)
    ben = table.seats["Ben"]
    response = client.get(url("rejoin", table.code, ben.token))
    assert response.status_code == 302
    assert response["Location"] == url("game", table.code)
    seat = seat_in_session(client, table.code)
    assert seat is not None and seat.pk == ben.pk
    page = client.get(url("game", table.code))
    assert page.status_code == 200 and "You are the Seer." in text(page)


def test_rejoin_with_a_lower_case_code(client: Client) -> None:
    table = play_to(Phase.NIGHT)
    response = client.get(url("rejoin", table.code.lower(), table.seats["Cat"].token))
    assert response.status_code == 302
    assert client.get(url("game", table.code)).status_code == 200


def test_rejoin_moves_the_browser_to_another_seat(client: Client) -> None:
    table = play_to(Phase.NIGHT)
    client.get(url("rejoin", table.code, table.seats["Ben"].token))
    client.get(url("rejoin", table.code, table.seats["Cat"].token))
    seat = seat_in_session(client, table.code)
    assert seat is not None and seat.name == "Cat"


def test_one_browser_can_hold_seats_in_two_games(client: Client) -> None:
    first = play_to(Phase.NIGHT)
    second = play_to(Phase.NIGHT)
    client.get(url("rejoin", first.code, first.seats["Ben"].token))
    client.get(url("rejoin", second.code, second.seats["Cat"].token))
    assert "You are the Seer." in text(client.get(url("game", first.code)))
    assert "You are the Robber." in text(client.get(url("game", second.code)))


@pytest.mark.parametrize("token", ["nope", "x" * 5000, "%3Cscript%3E"])
def test_rejoin_with_a_bad_token_is_404(client: Client, token: str) -> None:
    table = play_to(Phase.NIGHT)
    response = client.get(url("rejoin", table.code, token))
    assert response.status_code == 404
    assert "Link not recognised" in text(response)
    assert client.session.get("seats") is None


def test_rejoin_with_another_games_token_is_404(client: Client) -> None:
    table = play_to(Phase.NIGHT)
    other = play_to(Phase.NIGHT)
    response = client.get(url("rejoin", table.code, other.seats["Ben"].token))
    assert response.status_code == 404
    response = client.get(url("rejoin", "ZZZZZZZZ", table.seats["Ben"].token))
    assert response.status_code == 404
    assert client.session.get("seats") is None
    assert Seat.objects.count() == 6


def test_create_is_capped_per_client(client: Client, settings: Any) -> None:
    settings.GAMES_PER_MINUTE = 2
    for _ in range(2):
        assert client.post(url("game_new"), CREATE).status_code == 302
    response = client.post(url("game_new"), CREATE)
    assert response.status_code == 400
    assert any("You have created 2 games in the last minute" in a for a in alerts(response))
    assert Game.objects.count() == 2
    # The cap follows the address, not the browser session.
    other = new_client()
    assert other.post(url("game_new"), CREATE).status_code == 400
    response = other.post(url("game_new"), CREATE, REMOTE_ADDR="10.1.2.3")
    assert response.status_code == 302
    assert Game.objects.count() == 3
    assert Game.objects.exclude(creator_key="").values("creator_key").distinct().count() == 2
