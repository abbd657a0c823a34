"""The admin: finding tables, the hidden state and moves until asked (and the look recorded),
and the two actions ("move on" and "cancel"), which go through the table services."""

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

from games.tables.models import ChatLine, Move, Table
from tests.factories import (
    THREE,
    TWELVE,
    TestTable,
    create_lobby,
    deal_game,
    form_targets,
    move,
    new_client,
    night_action,
    play_to,
)

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:tables_table_changelist")
ROLE_WORDS = ["werewolf", "seer", "robber", "troublemaker", "villager", "drunk"]


def change_url(table: TestTable) -> str:
    return reverse("admin:tables_table_change", args=[table.table.pk])


def page_text(body: bytes) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body.decode())))


def inline_text(body: bytes) -> str:
    """The text of the inlines (seats, moves, chat) only."""
    decoded = body.decode()
    start = decoded.find('class="js-inline-admin-formset')
    return page_text(decoded[start:].encode()) if start >= 0 else ""


def shows_state(body: bytes) -> bool:
    return 'class="form-row field-state"' in body.decode()


def move_rows(body: bytes) -> list[str]:
    return re.findall(r'<tr[^>]*id="moves-\d+"', body.decode())


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
    second = play_to("day")
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
    play_to("night")
    text = page_text(staff.get(CHANGELIST).content).lower()
    assert not any(role in text for role in ROLE_WORDS)


def test_changelist_query_count_does_not_grow(staff: Client) -> None:
    for _ in range(3):
        play_to("day")
    staff.get(CHANGELIST)
    with CaptureQueriesContext(connection) as few:
        staff.get(CHANGELIST)
    for _ in range(5):
        play_to("day", TWELVE)
    with CaptureQueriesContext(connection) as many:
        staff.get(CHANGELIST)
    assert len(few) == len(many)


@pytest.mark.parametrize("phase", ["night", "day", "voting"])
def test_running_game_hides_state_and_moves_until_asked(
    staff: Client, admin_user: Any, phase: str
) -> None:
    table = play_to(phase, THREE, actions={"Ben": ["Cat"]})
    response = staff.get(change_url(table))
    assert response.status_code == 200
    text = page_text(response.content)
    assert not shows_state(response.content)
    assert move_rows(response.content) == []
    assert not any(role in inline_text(response.content).lower() for role in ROLE_WORDS)
    assert "Show the hidden state and the moves" in text
    stored = table.refresh()
    assert stored.secrets_opened_at is None and stored.secrets_opened_by is None

    response = staff.get(change_url(table), {"show_secrets": "1"})
    assert response.status_code == 200
    text = page_text(response.content)
    assert shows_state(response.content)
    state = text.split("State:")[1]
    assert all(f'"{name}": "{role}"' in state for name, role in THREE.items())
    assert "You are looking at this game's hidden state." in text
    assert len(move_rows(response.content)) == Move.objects.filter(table=table.table).count()
    stored = table.refresh()
    assert stored.secrets_opened_by == admin_user
    assert stored.secrets_opened_at is not None


def test_show_secrets_needs_exactly_1(staff: Client) -> None:
    table = play_to("night")
    for value in ("0", "true", "yes", ""):
        response = staff.get(change_url(table), {"show_secrets": value})
        assert not shows_state(response.content)
    assert table.refresh().secrets_opened_at is None


def test_lobby_has_no_secrets_and_nothing_is_recorded(staff: Client) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = staff.get(change_url(table), {"show_secrets": "1"})
    assert response.status_code == 200
    assert table.refresh().secrets_opened_at is None


@pytest.mark.parametrize("phase", ["reveal", "cancelled"])
def test_finished_games_show_state_without_recording(staff: Client, phase: str) -> None:
    table = play_to(phase)
    response = staff.get(change_url(table))
    text = page_text(response.content)
    assert shows_state(response.content)
    assert "shown: the game is not running" in text
    assert move_rows(response.content)
    staff.get(change_url(table), {"show_secrets": "1"})
    assert table.refresh().secrets_opened_at is None


def test_admin_cannot_add_tables_and_shows_every_field_read_only(staff: Client) -> None:
    assert staff.get(reverse("admin:tables_table_add")).status_code == 403
    table = play_to("day")
    body = staff.get(change_url(table)).content.decode()
    fields = body.split('id="table_form"')[1].split("js-inline-admin-formset")[0]
    assert re.findall(r'<(?:input|textarea|select)\b(?![^>]*type="hidden")', fields) == []


def run_action(staff: Client, action: str, *tables: TestTable) -> list[str]:
    response = staff.post(
        CHANGELIST,
        {"action": action, "_selected_action": [t.table.pk for t in tables]},
        follow=True,
    )
    assert response.status_code == 200
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_move_on_action_goes_through_the_service(staff: Client) -> None:
    day = play_to("day", vote_minutes=2)
    night = play_to("night")
    lobby = create_lobby(["Ann", "Ben", "Cat"])
    done = play_to("reveal")
    messages = run_action(staff, "move_on", day, night, lobby, done)
    assert day.phase() == "voting"
    assert day.refresh().deadline is not None  # the vote limit started, as with the host
    assert night.phase() == "day"  # the night's defaults for whoever had not acted
    assert lobby.phase() == "lobby" and done.phase() == "reveal"
    assert f"{day.code}: moved on." in messages
    assert f"{night.code}: moved on." in messages
    assert f"{lobby.code}: The game has not started yet." in messages
    assert f"{done.code}: This game is over." in messages
    notes = ChatLine.objects.filter(table=day.table, note=True, text__startswith="The day is over")
    assert notes.count() == 1


def test_cancel_action_goes_through_the_service(staff: Client) -> None:
    lobby = create_lobby(["Ann", "Ben", "Cat"])
    night = play_to("night", night_minutes=5)
    done = play_to("reveal")
    messages = run_action(staff, "cancel_tables", lobby, night, done)
    assert lobby.phase() == "cancelled"
    assert night.phase() == "cancelled"
    assert night.refresh().deadline is None
    assert done.phase() == "reveal"
    assert f"{lobby.code}: cancelled." in messages
    assert f"{done.code}: This game is already over." in messages


def test_delete_is_the_only_other_action(staff: Client) -> None:
    table = play_to("day")
    response = staff.get(CHANGELIST)
    options = re.findall(r'<option value="([a-z_]+)"', response.content.decode())
    assert set(options) == {"delete_selected", "move_on", "cancel_tables"}
    assert table.phase() == "day"


def test_hidden_admin_view_does_not_single_out_the_doppelganger(staff: Client) -> None:
    """Which seats have acted (and a copy without its action marks the Doppelganger) is a
    secret too: the moves appear only after the recorded look."""
    cards = {
        "Ann": "doppelganger",
        "Ben": "seer",
        "Cat": "robber",
        "left": "villager",
        "middle": "werewolf",
        "right": "drunk",
    }
    table = deal_game("official", **cards)
    move(table.seat("Ann"), "copy", targets=form_targets(table, "Ben"))
    night_action(table, "Cat", [])
    body = staff.get(change_url(table)).content
    assert move_rows(body) == []
    assert "copy" not in inline_text(body)
    assert table.refresh().secrets_opened_at is None
    body = staff.get(change_url(table) + "?show_secrets=1").content
    assert len(move_rows(body)) == 3  # the deal, Ann's copy, Cat's action
    assert table.refresh().secrets_opened_at is not None
    assert Table.objects.get(pk=table.table.pk).phase == "night"
