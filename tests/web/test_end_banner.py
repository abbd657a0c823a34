"""The end of a game (issue 30): each player's page opens with their own result, won or lost,
with the cards they held, above the full reveal."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.factories import new_client, play_to

pytestmark = pytest.mark.django_db


def _banner(table: object, name: str) -> str:
    browser = new_client()
    browser.get(reverse("rejoin", args=[table.code, table.seat(name).token]))
    page = html.unescape(browser.get(reverse("table", args=[table.code])).content.decode())
    match = re.search(r'id="my-result".*?</div>', page, re.S)
    assert match is not None, name
    return re.sub(r"<[^>]+>", "", match.group(0))


def test_each_player_sees_their_own_result_and_cards() -> None:
    # Cat robs Ann: Cat ends the night as the werewolf, Ann as the robber. Nobody dies.
    table = play_to("reveal", actions={"Cat": ["Ann"]})
    assert "You won" in _banner(table, "Cat")
    assert "You were the Robber, now the Werewolf" in " ".join(_banner(table, "Cat").split())
    assert "You lost" in _banner(table, "Ann")
    assert "You were the Werewolf, now the Robber" in " ".join(_banner(table, "Ann").split())
    assert "You lost" in _banner(table, "Ben")
