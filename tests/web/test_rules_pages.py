"""One Night's rules pages and role cards (issue 30: help in the game): every role of the
ruleset has a card with what it does, when it wakes and how it wins; the role message and the
lobby's chips link to them; the join page asks for the rules phrase without printing it."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from games.families.onenight.engine import Ruleset
from games.families.onenight.online import online_limits
from games.families.onenight.options import RULES_PHRASE
from tests.factories import create_lobby, deal_game, new_client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["house", "official"])
def test_a_rules_page_has_a_card_for_every_role(ruleset: str) -> None:
    page = html.unescape(Client().get(reverse("onenight_rules", args=[ruleset])).content.decode())
    # The cards played online (online.py): Vampire's wait for their web step.
    for role in online_limits(Ruleset(ruleset)):
        assert f'id="role-{role.value}"' in page
    assert page.count("<strong>Wakes:</strong>") == len(online_limits(Ruleset(ruleset)))
    # rules/000 s5e: the house rules hold their phrase, as the document does.
    assert (RULES_PHRASE in page) is (ruleset == "house")


def test_an_unknown_ruleset_is_a_clear_404() -> None:
    assert Client().get(reverse("onenight_rules", args=["chess"])).status_code == 404


def test_the_join_page_links_the_rules_and_keeps_the_phrase_to_them() -> None:
    table = create_lobby(["Ann", "Ben"], require_rules_phrase=True)
    page = Client().get(reverse("join", args=[table.code])).content.decode()
    assert RULES_PHRASE not in html.unescape(page)
    assert reverse("onenight_rules", args=["house"]) in page
    answer = Client().post(reverse("join", args=[table.code]), {"name": "Cat", "phrase": "no"})
    assert answer.status_code == 400 and RULES_PHRASE not in html.unescape(answer.content.decode())


def test_the_role_message_links_to_its_card() -> None:
    table = deal_game(
        Ann="seer", Ben="robber", Cat="werewolf", left="villager", middle="villager", right="drunk"
    )
    browser = new_client()
    browser.get(reverse("rejoin", args=[table.code, table.seat("Ann").token]))
    page = browser.get(reverse("table", args=[table.code])).content.decode()
    assert f"{reverse('onenight_rules', args=['house'])}#role-seer" in page
