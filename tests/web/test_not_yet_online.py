"""The cards not yet played online (games/families/onenight/online.py, docs/rules.md 8b.7): the
engine deals Vampire's fourteen cards, but no page offers them and no post gets one into a deck
until their web step lands: the lobby's picker, a forged options or start post, a deck stored
before the gate, table mode's set-up and reveal sheet, the rules page and the suggested decks."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from games.families.onenight.engine import VAMPIRE_ROLES, Role, Ruleset, default_deck, max_players
from games.families.onenight.engine import role_limits as engine_limits
from games.families.onenight.online import NOT_YET_ONLINE, online_limits
from games.tables.models import Table
from tests.factories import NAMES, client_for, create_lobby, table_state
from tests.web.helpers import HTMX, alerts, raw, url

pytestmark = pytest.mark.django_db

WAITS = "The Vampire card cannot be played here yet."
# A forged deck for five: a Vampire card among cards the picker offers.
FORGED = {
    "count_vampire": "1",
    "count_werewolf": "2",
    "count_seer": "1",
    "count_robber": "1",
    "count_troublemaker": "1",
    "count_villager": "2",
}


def test_the_flag_holds_vampires_cards_and_the_engine_keeps_them() -> None:
    assert NOT_YET_ONLINE == VAMPIRE_ROLES and len(NOT_YET_ONLINE) == 14
    official = engine_limits(Ruleset.OFFICIAL)
    assert set(official) >= NOT_YET_ONLINE  # the engine still deals them
    assert online_limits(Ruleset.OFFICIAL) == {
        r: n for r, n in official.items() if r not in NOT_YET_ONLINE
    }
    assert online_limits(Ruleset.HOUSE) == engine_limits(Ruleset.HOUSE)


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_no_suggested_deck_holds_a_card_not_online(ruleset: Ruleset) -> None:
    for players in range(3, max_players(ruleset) + 1):
        assert not set(default_deck(ruleset, players)) & NOT_YET_ONLINE, players


def official_lobby() -> tuple[Table, Client]:
    table = create_lobby(list(NAMES[:5]), ruleset="official")
    return table, client_for(table, NAMES[0])


def test_the_official_lobby_does_not_offer_them() -> None:
    table, host = official_lobby()
    page = raw(host.get(url("table", table.code)))
    assert 'name="count_seer"' in page and 'name="count_sentinel"' in page
    for role in NOT_YET_ONLINE:
        assert f'name="count_{role.value}"' not in page, role


@pytest.mark.parametrize("extra", [{}, HTMX])
def test_a_forged_options_post_is_refused_and_changes_nothing(extra: dict[str, str]) -> None:
    table, host = official_lobby()
    before = table_state(table.table.pk)
    response = host.post(url("options", table.code), FORGED, **extra)
    assert response.status_code == 400
    assert any(WAITS in a for a in alerts(response)), alerts(response)
    assert table_state(table.table.pk) == before
    # Every Vampire card, alone, the same.
    for role in NOT_YET_ONLINE:
        response = host.post(url("options", table.code), {f"count_{role.value}": "1"}, **extra)
        assert response.status_code == 400, role
        assert any(
            f"The {role.title} card cannot be played here yet." in a for a in alerts(response)
        )
    assert table_state(table.table.pk) == before


def test_a_forged_start_post_is_refused_and_deals_nothing() -> None:
    table, host = official_lobby()
    before = table_state(table.table.pk)
    response = host.post(url("start", table.code), FORGED)
    assert response.status_code == 400
    assert any(WAITS in a for a in alerts(response)), alerts(response)
    assert table_state(table.table.pk) == before


def test_a_deck_stored_before_the_gate_is_not_dealt() -> None:
    table, host = official_lobby()
    deck = ["vampire", "werewolf", "werewolf", "seer", "robber", "troublemaker", "villager"]
    Table.objects.filter(pk=table.table.pk).update(
        options={**table.refresh().options, "deck": [*deck, "villager"]}
    )
    before = table_state(table.table.pk)
    response = host.post(url("start", table.code))
    assert response.status_code == 400
    assert any(WAITS in a for a in alerts(response)), alerts(response)
    assert table_state(table.table.pk) == before


def test_table_mode_does_not_offer_them_nor_take_a_forged_set_up(client: Client) -> None:
    page = client.get(reverse("narrator"), {"ruleset": "official"})
    assert page.status_code == 200
    body = page.content.decode()
    assert 'name="count_sentinel"' in body
    for role in NOT_YET_ONLINE:
        assert f'name="count_{role.value}"' not in body, role
    players = "\n".join(NAMES[:5])
    page = client.get(
        reverse("narrator"), {"go": "1", "ruleset": "official", "players": players, **FORGED}
    )
    assert page.status_code == 400
    assert any(WAITS in a for a in alerts(page)), alerts(page)


def test_table_modes_reveal_sheet_refuses_them(client: Client) -> None:
    sheet = {
        "ruleset": "official",
        "player": ["Ann", "Ben", "Cat"],
        **{f"final_{n}": card for n, card in enumerate(["werewolf", "seer", "robber"])},
        **{f"vote_{n}": "Ann" if n else "Ben" for n in range(3)},
    }
    assert client.post(reverse("narrator_reveal"), sheet).status_code == 200
    for forged in (
        {"final_2": Role.VAMPIRE.value},
        {"final_2": "doppelganger", "copied": "vampire"},
    ):
        refused = client.post(reverse("narrator_reveal"), {**sheet, **forged})
        assert refused.status_code == 400, forged
        assert any(WAITS in a for a in alerts(refused)), alerts(refused)


def test_the_rules_page_does_not_list_them() -> None:
    page = html.unescape(
        Client().get(reverse("onenight_rules", args=["official"])).content.decode()
    )
    assert 'id="role-sentinel"' in page
    for role in NOT_YET_ONLINE:
        assert f'id="role-{role.value}"' not in page, role
