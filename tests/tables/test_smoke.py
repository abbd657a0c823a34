from __future__ import annotations

import pytest
from django.urls import reverse

from tests import factories as f

pytestmark = pytest.mark.django_db


def test_a_whole_game_through_services_and_pages() -> None:
    table = f.play_to("reveal")
    assert table.table.stage == "over"
    clients = f.clients_for(table)
    page = clients["Ann"].get(reverse("table", args=[table.code]))
    assert page.status_code == 200, page.content[:2000]
    assert b"The reveal" in page.content


def test_night_pages() -> None:
    table = f.deal_game(**f.THREE)
    clients = f.clients_for(table)
    page = clients["Ben"].get(reverse("table", args=[table.code]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Seer" in html, html[:3000]
    r = clients["Ben"].post(
        reverse("move", args=[table.code, "action"]),
        {"targets": [str(table.seats["Ann"].pk)]},
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 200, r.content[:1000]
    assert "Your action is in" in r.content.decode()


def test_lobby_pages() -> None:
    table = f.create_lobby()
    clients = f.clients_for(table)
    page = clients["Ann"].get(reverse("table", args=[table.code]))
    assert page.status_code == 200, page.content[:3000]
    html = page.content.decode()
    assert "Save the cards" in html
    home = f.new_client().get("/")
    assert home.status_code == 200
