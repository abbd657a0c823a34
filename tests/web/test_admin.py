"""The admin: finding games, hidden roles until asked (and recorded), and the two actions."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Game, Phase
from tests.factories import THREE, TWELVE, Table, create_lobby, deal_game, new_client, play_to

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:games_game_changelist")
ROLE_TITLES = ["Werewolf", "Seer", "Robber", "Troublemaker", "Villager", "Drunk"]


def change_url(game: Game) -> str:
    return reverse("admin:games_game_change", args=[game.pk])


def page_text(body: bytes) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body.decode())))


def inline_text(body: bytes) -> str:
    """The text of the inlines (seats, centre cards, actions, votes, chat) only."""
    decoded = body.decode()
    start = decoded.find('class="js-inline-admin-formset')
    return page_text(decoded[start:].encode()) if start >= 0 else ""


@pytest.fixture
def admin_user(django_user_model: Any) -> Any:
    """A superuser without a password (hashing one costs half a second per test)."""
    return django_user_model.objects.create_user("mod", is_staff=True, is_superuser=True)


@pytest.fixture
def staff(admin_user: Any) -> Client:
    client = new_client()
    client.force_login(admin_user)
    return client


def test_admin_needs_staff(client: Client) -> None:
    response = client.get(CHANGELIST)
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_changelist_lists_and_searches_by_code(staff: Client) -> None:
    first = create_lobby(["Ann", "Ben", "Cat"])
    second = play_to(Phase.DAY)
    response = staff.get(CHANGELIST)
    assert response.status_code == 200
    body = response.content.decode()
    assert first.code in body and second.code in body
    response = staff.get(CHANGELIST, {"q": first.code})
    assert response.status_code == 200
    body = response.content.decode()
    assert first.code in body and second.code not in body
    response = staff.get(CHANGELIST, {"q": first.code.lower()})
    assert first.code in response.content.decode()
    response = staff.get(CHANGELIST, {"q": "<script>"})
    assert response.status_code == 200 and "<script>" not in response.content.decode()


def test_changelist_does_not_show_roles(staff: Client) -> None:
    play_to(Phase.NIGHT)
    text = page_text(staff.get(CHANGELIST).content)
    assert not any(role in text for role in ROLE_TITLES)


def test_changelist_query_count_does_not_grow(staff: Client) -> None:
    for _ in range(3):
        play_to(Phase.DAY)
    staff.get(CHANGELIST)
    with CaptureQueriesContext(connection) as few:
        staff.get(CHANGELIST)
    for _ in range(5):
        play_to(Phase.DAY, TWELVE)
    with CaptureQueriesContext(connection) as many:
        staff.get(CHANGELIST)
    assert len(few) == len(many)


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.DAY, Phase.VOTING])
def test_running_game_hides_roles_until_asked(staff: Client, admin_user: Any, phase: str) -> None:
    table = play_to(phase, THREE, actions={"Ben": ["Cat"]})
    response = staff.get(change_url(table.game))
    assert response.status_code == 200
    text = page_text(response.content)
    assert "Start role" not in text and "Final role" not in text
    assert not any(role in inline_text(response.content) for role in ROLE_TITLES)
    assert "Show the hidden roles" in text
    assert "Targets" not in text and "Copied role" not in text
    game = table.refresh()
    assert game.secrets_opened_at is None and game.secrets_opened_by is None

    response = staff.get(change_url(table.game), {"show_secrets": "1"})
    assert response.status_code == 200
    text = page_text(response.content)
    assert "Start role" in text
    assert {"Werewolf", "Seer", "Robber"} <= set(re.findall(r"[A-Z][a-z]+", text))
    assert "You are looking at this game's hidden roles." in text
    assert "Werewolf" in inline_text(response.content)
    game = table.refresh()
    assert game.secrets_opened_by == admin_user
    assert game.secrets_opened_at is not None


def test_show_secrets_needs_exactly_1(staff: Client) -> None:
    table = play_to(Phase.NIGHT)
    for value in ("0", "true", "yes", ""):
        response = staff.get(change_url(table.game), {"show_secrets": value})
        assert "Start role" not in page_text(response.content)
    assert table.refresh().secrets_opened_at is None


def test_lobby_has_no_secrets_and_nothing_is_recorded(staff: Client) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = staff.get(change_url(table.game), {"show_secrets": "1"})
    assert response.status_code == 200
    assert table.refresh().secrets_opened_at is None


@pytest.mark.parametrize("phase", [Phase.REVEAL, Phase.CANCELLED])
def test_finished_games_show_roles_without_recording(staff: Client, phase: str) -> None:
    table = play_to(phase)
    response = staff.get(change_url(table.game))
    text = page_text(response.content)
    assert "Start role" in text
    assert "shown: the game is not running" in text
    staff.get(change_url(table.game), {"show_secrets": "1"})
    assert table.refresh().secrets_opened_at is None


def test_admin_cannot_add_games(staff: Client) -> None:
    assert staff.get(reverse("admin:games_game_add")).status_code == 403


def run_action(staff: Client, action: str, *tables: Table) -> list[str]:
    response = staff.post(
        CHANGELIST,
        {"action": action, "_selected_action": [t.game.pk for t in tables]},
        follow=True,
    )
    assert response.status_code == 200
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_end_day_action_goes_through_the_service(staff: Client) -> None:
    day = play_to(Phase.DAY, vote_minutes=2)
    night = play_to(Phase.NIGHT)
    messages = run_action(staff, "end_day", day, night)
    assert day.phase() == Phase.VOTING
    assert day.refresh().deadline is not None  # the vote limit started, as with the host
    assert night.phase() == Phase.NIGHT
    assert f"{day.code}: the day is over; voting has begun." in messages
    assert any(m.startswith(f"{night.code}: It is night") for m in messages)
    assert day.game.chat_messages.filter(seat=None, text__startswith="The day is over").count() == 1


def test_cancel_action_goes_through_the_service(staff: Client) -> None:
    lobby = create_lobby(["Ann", "Ben", "Cat"])
    night = play_to(Phase.NIGHT, night_minutes=5)
    done = play_to(Phase.REVEAL)
    messages = run_action(staff, "cancel_games", lobby, night, done)
    assert lobby.phase() == Phase.CANCELLED
    assert night.phase() == Phase.CANCELLED
    assert night.refresh().deadline is None
    assert done.phase() == Phase.REVEAL
    assert f"{lobby.code}: cancelled." in messages
    assert f"{done.code}: This game is already over." in messages


def test_delete_is_the_only_other_action(staff: Client) -> None:
    table = play_to(Phase.DAY)
    response = staff.get(CHANGELIST)
    options = re.findall(r'<option value="([a-z_]+)"', response.content.decode())
    assert set(options) == {"delete_selected", "end_day", "cancel_games"}
    assert table.phase() == Phase.DAY


def test_hidden_admin_view_does_not_single_out_the_doppelganger(staff: Client) -> None:
    """Which seats have acted (and an unfinished action marks the Doppelganger) is a secret too:
    the night actions appear only after the recorded look."""
    cards = {
        "Ann": "doppelganger",
        "Ben": "seer",
        "Cat": "robber",
        "left": "villager",
        "middle": "werewolf",
        "right": "drunk",
    }
    table = deal_game("official", **cards)
    services.doppelganger_copy(seat=table.seat("Ann"), target="Ben")
    services.night_action_submit(seat=table.seat("Cat"), targets=[])
    body = staff.get(change_url(table.game)).content.decode()
    assert re.findall(r'id="night_actions-\d+"', body) == []
    assert "field-complete" not in body
    assert table.refresh().secrets_opened_at is None
    body = staff.get(change_url(table.game) + "?show_secrets=1").content.decode()
    assert len(re.findall(r'<tr[^>]*id="night_actions-\d+"', body)) == 2
    assert table.refresh().secrets_opened_at is not None
