"""Table mode's pages (issue 28), drawn from what the families offer through the family
interface (issue 37 item 2): One Night's narrator (its set-up, its night's script, its reveal
sheet) and Werewolf's moderated game, at table mode's addresses."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.tables.models import Table
from tests.web.helpers import alerts, text

pytestmark = pytest.mark.django_db


def test_the_narrator_set_up_refuses_what_it_cannot_narrate(client: Client) -> None:
    page = client.get(reverse("narrator"), {"ruleset": "official", "count_seer": "2"})
    assert page.status_code == 200
    assert 'action="/at-the-table/one-night/"' in page.content.decode()
    assert 'name="count_seer" min="0" max="1" value="2"' in page.content.decode()
    for fields, problem in (
        ({"players": "Ann\nBen"}, "Write 3 to"),
        ({"players": "Ann\nann\nCat"}, "ann is on the list twice"),
        ({"players": "Ann\nBen\nCat", "day_minutes": "0"}, "whole number of minutes"),
        ({"players": "Ann\nBen\nCat", "ruleset": "mafia"}, "house rules or the official"),
    ):
        page = client.get(reverse("narrator"), {"go": "1", **fields})
        assert page.status_code == 400, fields
        assert any(problem in alert for alert in alerts(page)), (fields, alerts(page))


def test_the_narrators_night_then_its_reveal_sheet(client: Client) -> None:
    deck = {"count_werewolf": "2", "count_seer": "1", "count_robber": "1", "count_villager": "2"}
    page = client.get(
        reverse("narrator"), {"go": "1", "ruleset": "house", "players": "Ann\nBen\nCat", **deck}
    )
    assert page.status_code == 200
    body = page.content.decode()
    assert re.findall(r'<li data-key="([a-z-]+)"', body) == ["werewolves", "seer", "robber"]
    assert 'hx-post="/at-the-table/one-night/reveal"' in body
    sheet = {
        "ruleset": "house",
        "player": ["Ann", "Ben", "Cat"],
        **{f"final_{n}": card for n, card in enumerate(["werewolf", "seer", "robber"])},
        **{f"vote_{n}": "Ann" if n else "Ben" for n in range(3)},
    }
    verdict = client.post(reverse("narrator_reveal"), sheet)
    assert verdict.status_code == 200
    assert "Died: <strong>Ann</strong>." in text(verdict)
    assert "Winners: <strong>Ben, Cat</strong>." in text(verdict)
    refused = client.post(reverse("narrator_reveal"), {**sheet, "final_2": ""})
    assert refused.status_code == 400 and alerts(refused)


def test_the_moderated_game_opens_a_table_with_the_familys_options(client: Client) -> None:
    page = client.post(reverse("moderate"), {"ruleset": "classic", "players": "7"})
    assert page.status_code == 302
    table = Table.objects.get()
    assert table.family == "werewolf"
    assert {k: table.options[k] for k in ("table_mode", "deal", "pace")} == {
        "table_mode": True,
        "deal": "app",
        "pace": "table",
    }
    assert table.joins_locked and table.seats.count() == 8
