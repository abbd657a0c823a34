"""Error answers are pages of the app, in its words and style (issue 30: no plain pages)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_an_unknown_address_is_the_apps_own_page() -> None:
    answer = Client().get("/no/such/page")
    assert answer.status_code == 404
    body = answer.content.decode()
    assert "There is nothing here" in body and 'class="brand"' in body


def test_a_stale_form_is_told_to_try_again() -> None:
    answer = Client(enforce_csrf_checks=True).post("/games/new", {"host_name": "Ann"})
    assert answer.status_code == 403
    body = answer.content.decode()
    assert "Please try again" in body and "nothing was changed" in body
