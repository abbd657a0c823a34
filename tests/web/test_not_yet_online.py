"""The cards played online (games/families/onenight/online.py, docs/rules.md 8b.7): since
Vampire's web step every card of the engine is dealt online. The official lobby's picker and
rules page offer Vampire's fourteen; the house tables none (docs/rules.md 8a.8, 8b); a forged
count above a card's limit, or a Vampire card at a house table, is still refused with nothing
stored."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from games.families.onenight.engine import VAMPIRE_ROLES, Ruleset
from games.families.onenight.engine import role_limits as engine_limits
from games.families.onenight.online import NOT_YET_ONLINE, not_online, online_limits
from tests.factories import NAMES, TestTable, client_for, create_lobby, table_state
from tests.web.helpers import HTMX, alerts, raw, url

pytestmark = pytest.mark.django_db

# A deck for five with two Vampire cards, as the picker posts it.
VAMPIRE_DECK = {
    "count_vampire": "1",
    "count_the_count": "1",
    "count_werewolf": "1",
    "count_seer": "1",
    "count_cupid": "1",
    "count_marksman": "1",
    "count_gremlin": "1",
    "count_villager": "1",
}


def test_every_card_of_the_engine_is_dealt_online() -> None:
    assert frozenset() == NOT_YET_ONLINE
    for ruleset in Ruleset:
        assert online_limits(ruleset) == engine_limits(ruleset)
    assert set(online_limits(Ruleset.OFFICIAL)) >= VAMPIRE_ROLES
    assert not set(online_limits(Ruleset.HOUSE)) & VAMPIRE_ROLES
    assert not_online(VAMPIRE_ROLES) is None


def lobby(ruleset: str) -> tuple[TestTable, Client]:
    table = create_lobby(list(NAMES[:5]), ruleset=ruleset)
    return table, client_for(table, NAMES[0])


def test_the_official_lobby_offers_them_and_the_house_lobby_does_not() -> None:
    official, host = lobby("official")
    page = raw(host.get(url("table", official.code)))
    for role in VAMPIRE_ROLES:
        assert f'name="count_{role.value}"' in page, role
    house, host = lobby("house")
    page = raw(host.get(url("table", house.code)))
    assert 'name="count_seer"' in page
    for role in VAMPIRE_ROLES:
        assert f'name="count_{role.value}"' not in page, role


@pytest.mark.parametrize("extra", [{}, HTMX])
def test_a_vampire_deck_is_stored_and_dealt(extra: dict[str, str]) -> None:
    table, host = lobby("official")
    response = host.post(url("options", table.code), VAMPIRE_DECK, **extra)
    assert response.status_code in (200, 302), alerts(response)
    deck = sorted(table.refresh().options["deck"])
    assert deck == sorted(k.removeprefix("count_") for k in VAMPIRE_DECK)
    response = host.post(url("start", table.code), **extra)
    assert response.status_code in (200, 302), alerts(response)
    assert table.refresh().phase == "night"


@pytest.mark.parametrize("extra", [{}, HTMX])
def test_a_forged_count_above_the_limit_is_refused_and_changes_nothing(
    extra: dict[str, str],
) -> None:
    table, host = lobby("official")
    before = table_state(table.table.pk)
    options = dict(table.refresh().options)
    for role in sorted(VAMPIRE_ROLES):
        forged = {**VAMPIRE_DECK, f"count_{role.value}": "2"}
        response = host.post(url("options", table.code), forged, **extra)
        assert response.status_code == 400, role
        wanted = f"The deck may hold 0 to 1 {role.title} cards."
        assert any(wanted in a for a in alerts(response)), alerts(response)
    assert table_state(table.table.pk) == before
    assert table.refresh().options == options


def test_a_vampire_card_at_a_house_table_is_refused() -> None:
    table, host = lobby("house")
    before = table_state(table.table.pk)
    response = host.post(url("options", table.code), {"count_vampire": "1"})
    assert response.status_code == 400
    wanted = "The Vampire plays with the official rules only"
    assert any(wanted in a for a in alerts(response)), alerts(response)
    assert table_state(table.table.pk) == before


def test_the_rules_page_lists_them_for_the_official_rules_only() -> None:
    def page(ruleset: str) -> str:
        body = Client().get(reverse("onenight_rules", args=[ruleset])).content.decode()
        return html.unescape(body)

    official, house = page("official"), page("house")
    for role in VAMPIRE_ROLES:
        assert f'id="role-{role.value}"' in official, role
        assert f'id="role-{role.value}"' not in house, role
