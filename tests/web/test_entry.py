"""Getting into a game: home, create, join by code, the join page and the rejoin link."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.families.onenight.options import RULES_PHRASE
from games.tables.models import Seat, Table
from tests.factories import NAMES, client_for, create_lobby, new_client, play_to
from tests.web.helpers import alerts, raw, seat_in_session, text, url

pytestmark = pytest.mark.django_db

CREATE = {"host_name": "Ann", "game": "onenight:house"}


# --- home ---------------------------------------------------------------------------------------


def test_home_offers_create_and_join(client: Client) -> None:
    response = client.get(url("home"))
    assert response.status_code == 200
    body = raw(response)
    assert f'action="{url("table_new")}"' in body
    assert f'action="{url("join_by_code")}"' in body
    assert 'name="host_name"' in body and 'name="code"' in body
    assert 'value="onenight:house"' in body and 'value="onenight:official"' in body


def test_home_is_get_only(client: Client) -> None:
    response = client.post(url("home"))
    assert response.status_code == 405
    assert "Use the buttons on the page" in text(response)


# --- create -------------------------------------------------------------------------------------


def test_create_makes_a_table_and_seats_the_host(client: Client) -> None:
    response = client.post(url("table_new"), CREATE)
    assert response.status_code == 302
    table = Table.objects.get()
    assert response["Location"] == url("table", table.code)
    assert (table.family, table.ruleset) == ("onenight", "house")
    assert table.options["day_minutes"] == 30
    assert table.options["rules_phrase"] is True
    seat = seat_in_session(client, table.code)
    assert seat is not None and seat.is_host and seat.name == "Ann"
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "Save the cards" in text(page)


@pytest.mark.parametrize(
    ("game", "phrase", "expected"),
    [
        ("onenight:house", None, True),
        ("onenight:official", None, False),
        ("onenight:house", "no", False),
        ("onenight:official", "yes", True),
    ],
)
def test_the_rules_phrase_follows_the_rules_and_the_hosts_choice(
    client: Client, game: str, phrase: str | None, expected: bool
) -> None:
    response = client.post(url("table_new"), {**CREATE, "game": game})
    assert response.status_code == 302
    table = Table.objects.get()
    if phrase is not None:
        assert client.post(url("options", table.code), {"rules_phrase": phrase}).status_code == 302
    table.refresh_from_db()
    assert (f"{table.family}:{table.ruleset}", table.options["rules_phrase"]) == (game, expected)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"host_name": ""}, "This field is required."),
        ({"host_name": "   "}, "This field is required."),
        ({"host_name": "x" * 25}, "at most 24 characters"),
        ({"host_name": "x" * 100_000}, "at most 24 characters"),
        ({"host_name": "left"}, "has a meaning in this game"),
        ({"host_name": "Moderator"}, "pick another name"),
        ({"host_name": "Ann\x07"}, "It holds a control character"),
        ({"game": "onenight:vampire"}, "Select a valid choice"),
        ({"game": "poker:house"}, "Select a valid choice"),
        ({"game": ""}, "This field is required."),
    ],
)
def test_create_refuses_bad_input_with_a_message(
    client: Client, changes: dict[str, str], message: str
) -> None:
    response = client.post(url("table_new"), {**CREATE, **changes})
    assert response.status_code == 400
    assert any(message in a for a in alerts(response)), alerts(response)
    assert Table.objects.count() == 0
    assert client.session.get("seats") is None


def test_create_with_an_empty_post(client: Client) -> None:
    response = client.post(url("table_new"), {})
    assert response.status_code == 400
    assert "This field is required." in text(response)
    assert Table.objects.count() == 0


def test_create_is_post_only(client: Client) -> None:
    response = client.get(url("table_new"))
    assert response.status_code == 405
    assert "Use the buttons on the page" in text(response)


def test_create_escapes_html_in_the_name(client: Client) -> None:
    response = client.post(url("table_new"), {**CREATE, "host_name": "<script>x</script>"})
    assert response.status_code == 302
    page = client.get(response["Location"])
    body = raw(page)
    assert "<script>x</script>" not in body
    assert "&lt;script&gt;x&lt;/script&gt;" in body


def test_create_is_capped_per_client(client: Client, settings: Any) -> None:
    settings.GAMES_PER_MINUTE = 2
    for _ in range(2):
        assert client.post(url("table_new"), CREATE).status_code == 302
    response = client.post(url("table_new"), CREATE)
    assert response.status_code == 400
    assert any("You have created 2 games in the last minute" in a for a in alerts(response))
    assert Table.objects.count() == 2
    # The cap follows the address, not the browser session.
    other = new_client()
    assert other.post(url("table_new"), CREATE).status_code == 400
    response = other.post(url("table_new"), CREATE, REMOTE_ADDR="10.1.2.3")
    assert response.status_code == 302
    assert Table.objects.count() == 3
    assert Table.objects.exclude(creator_key="").values("creator_key").distinct().count() == 2


# --- join by code -------------------------------------------------------------------------------


def test_join_by_code_redirects_to_the_table(client: Client) -> None:
    table = create_lobby(["Ann"])
    code = table.code
    for typed in (code, code.lower(), f" {code[:4]}-{code[4:]} ", f"{code[:4]} {code[4:]}"):
        response = client.post(url("join_by_code"), {"code": typed})
        assert response.status_code == 302, typed
        assert response["Location"] == url("table", code)


@pytest.mark.parametrize("code", ["ZZZZZZZZ", "<b>x</b>", "é" * 10, "x" * 16, "A/B"])
def test_join_by_unknown_code_is_404_with_a_message(client: Client, code: str) -> None:
    create_lobby(["Ann"])
    response = client.post(url("join_by_code"), {"code": code})
    assert response.status_code == 404
    assert "There is no game with that code." in alerts(response)
    assert "<b>x</b>" not in raw(response)


def test_join_by_code_with_no_or_huge_code(client: Client) -> None:
    response = client.post(url("join_by_code"), {})
    assert response.status_code == 400
    assert "This field is required." in alerts(response)
    response = client.post(url("join_by_code"), {"code": "A" * 10_000})
    assert response.status_code == 400
    assert any("at most 16 characters" in a for a in alerts(response))


# --- the join page ------------------------------------------------------------------------------


def test_visiting_a_lobby_without_a_seat_leads_to_the_join_page(client: Client) -> None:
    table = create_lobby(["Ann", "Ben"])
    response = client.get(url("table", table.code))
    assert response.status_code == 302
    assert response["Location"] == url("join", table.code)
    page = client.get(url("join", table.code))
    assert page.status_code == 200
    body = text(page)
    assert "The Ocean Chose Me" not in body  # issue 30: asked for, not given away
    assert url("onenight_rules", "house") in raw(page)
    assert "At the table: Ann, Ben." in body
    assert "One Night — House rules" in body
    assert 'name="phrase"' in raw(page)


def test_join_page_of_an_official_game_asks_no_phrase(client: Client) -> None:
    table = create_lobby(["Ann"], ruleset="official")
    page = client.get(url("join", table.code))
    assert 'name="phrase"' not in raw(page)
    response = client.post(url("join", table.code), {"name": "Ben"})
    assert response.status_code == 302


def test_join_takes_a_seat(client: Client) -> None:
    table = create_lobby(["Ann"])
    version = table.refresh().version
    response = client.post(
        url("join", table.code), {"name": " Ben ", "phrase": "the ocean chose me."}
    )
    assert response.status_code == 302
    assert response["Location"] == url("table", table.code)
    seat = seat_in_session(client, table.code)
    assert seat is not None and seat.name == "Ben" and not seat.is_host
    assert table.refresh().version > version  # the other pages hear of the new seat
    # Seated players are sent to the table's page rather than joining twice.
    again = client.post(url("join", table.code), {"name": "Ben2", "phrase": "x"})
    assert again.status_code == 302 and again["Location"] == url("table", table.code)
    assert client.get(url("join", table.code)).status_code == 302
    assert table.table.seats.count() == 2
    page = client.get(url("table", table.code))
    assert page.status_code == 200 and "Waiting for the host" in text(page)


@pytest.mark.parametrize("phrase", ["", "the ocean", "x" * 100])
def test_join_requires_the_phrase(client: Client, phrase: str) -> None:
    table = create_lobby(["Ann"])
    response = client.post(url("join", table.code), {"name": "Ben", "phrase": phrase})
    assert response.status_code == 400
    assert any("Type the phrase the rules ask for" in a for a in alerts(response)), alerts(response)
    assert table.table.seats.count() == 1
    assert seat_in_session(client, table.code) is None
    assert 'value="Ben"' in raw(response)  # what was typed is kept


def test_join_refuses_an_overlong_phrase(client: Client) -> None:
    table = create_lobby(["Ann"])
    response = client.post(url("join", table.code), {"name": "Ben", "phrase": "x" * 101})
    assert response.status_code == 400
    assert table.table.seats.count() == 1


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ann", "Someone called ann is already at the table"),
        ("", "This field is required."),
        ("middle", "has a meaning in this game"),
        ("MIDDLE", "has a meaning in this game"),
        ("moderator", "pick another name"),
        ("x" * 25, "at most 24 characters"),
        ("a\x00b", "It holds a control character"),
    ],
)
def test_join_refuses_bad_or_taken_names(client: Client, name: str, message: str) -> None:
    table = create_lobby(["Ann"])
    response = client.post(url("join", table.code), {"name": name, "phrase": RULES_PHRASE})
    assert response.status_code == 400
    assert any(message in a for a in alerts(response)), alerts(response)
    assert table.table.seats.count() == 1


def test_join_with_an_empty_post_says_what_is_missing_and_changes_nothing(client: Client) -> None:
    table = create_lobby(["Ann"])
    response = client.post(url("join", table.code), {})
    assert response.status_code == 400
    assert "This field is required." in alerts(response)
    assert table.table.seats.count() == 1


def test_join_a_full_table(client: Client) -> None:
    table = create_lobby(NAMES[:12])
    response = client.post(url("join", table.code), {"name": "Zed", "phrase": RULES_PHRASE})
    assert response.status_code == 400
    assert any("The table is full" in a for a in alerts(response))
    assert table.table.seats.count() == 12


def test_join_a_locked_table_is_403_and_the_seated_keep_their_seats(client: Client) -> None:
    table = create_lobby(["Ann", "Ben"])
    host = client_for(table, "Ann")
    assert host.post(url("lock", table.code), {"locked": "yes"}).status_code == 302
    for response in (
        client.get(url("join", table.code)),
        client.post(url("join", table.code), {"name": "Zed", "phrase": RULES_PHRASE}),
    ):
        assert response.status_code == 403
        assert any("The host has locked this table" in a for a in alerts(response))
    assert table.table.seats.count() == 2
    ben = client_for(table, "Ben")  # the rejoin link still works
    assert ben.get(url("table", table.code)).status_code == 200
    assert "The host has locked the table." in text(ben.get(url("table", table.code)))
    host.post(url("lock", table.code), {"locked": "no"})
    response = client.post(url("join", table.code), {"name": "Zed", "phrase": RULES_PHRASE})
    assert response.status_code == 302


@pytest.mark.parametrize("phase", ["night", "reveal", "cancelled"])
def test_join_a_started_game_is_403(client: Client, phase: str) -> None:
    table = play_to(phase)
    for response in (
        client.get(url("join", table.code)),
        client.post(url("join", table.code), {"name": "Zed", "phrase": "x"}),
        client.get(url("table", table.code)),
    ):
        assert response.status_code == 403
        assert "You are not in this game" in text(response)
    assert table.table.seats.count() == 3


def test_join_unknown_table(client: Client) -> None:
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
    assert evil not in raw(host.get(url("table", table.code)))


# --- rejoin -------------------------------------------------------------------------------------


def test_rejoin_puts_the_seat_in_the_session(client: Client) -> None:
    table = play_to("day")
    ben = table.seats["Ben"]
    response = client.get(url("rejoin", table.code, ben.token))
    assert response.status_code == 302
    assert response["Location"] == url("table", table.code)
    seat = seat_in_session(client, table.code)
    assert seat is not None and seat.pk == ben.pk
    page = client.get(url("table", table.code))
    assert page.status_code == 200 and "You are the Seer." in text(page)


def test_rejoin_with_a_lower_case_code(client: Client) -> None:
    table = play_to("night")
    response = client.get(url("rejoin", table.code.lower(), table.seats["Cat"].token))
    assert response.status_code == 302
    assert client.get(url("table", table.code)).status_code == 200


def test_rejoin_moves_the_browser_to_another_seat(client: Client) -> None:
    table = play_to("night")
    client.get(url("rejoin", table.code, table.seats["Ben"].token))
    client.get(url("rejoin", table.code, table.seats["Cat"].token))
    seat = seat_in_session(client, table.code)
    assert seat is not None and seat.name == "Cat"
    assert "You are the Robber." in text(client.get(url("table", table.code)))


def test_one_browser_can_hold_seats_at_two_tables(client: Client) -> None:
    first = play_to("night")
    second = play_to("night")
    client.get(url("rejoin", first.code, first.seats["Ben"].token))
    client.get(url("rejoin", second.code, second.seats["Cat"].token))
    assert "You are the Seer." in text(client.get(url("table", first.code)))
    assert "You are the Robber." in text(client.get(url("table", second.code)))


@pytest.mark.parametrize("token", ["nope", "x" * 5000, "%3Cscript%3E"])
def test_rejoin_with_a_bad_token_is_404(client: Client, token: str) -> None:
    table = play_to("night")
    response = client.get(f"/g/{table.code}/rejoin/{token}")
    assert response.status_code == 404
    assert "Link not recognised" in text(response)
    assert "<script>" not in raw(response)
    assert client.session.get("seats") is None


def test_rejoin_with_another_tables_token_is_404(client: Client) -> None:
    table = play_to("night")
    other = play_to("night")
    response = client.get(url("rejoin", table.code, other.seats["Ben"].token))
    assert response.status_code == 404
    response = client.get(url("rejoin", "ZZZZZZZZ", table.seats["Ben"].token))
    assert response.status_code == 404
    assert client.session.get("seats") is None
    assert Seat.objects.count() == 6


def test_the_rejoin_link_on_the_page_is_the_seats_own() -> None:
    table = play_to("night")
    page = text(client_for(table, "Ben").get(url("table", table.code)))
    link = f"http://testserver{url('rejoin', table.code, table.seats['Ben'].token)}"
    assert link in page
    fresh = new_client()
    assert fresh.get(link.removeprefix("http://testserver")).status_code == 302
    assert "You are the Seer." in text(fresh.get(url("table", table.code)))
