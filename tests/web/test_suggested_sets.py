"""The rulebooks' suggested sets in the lobby (games/families/onenight/suggested.py; docs/rules.md
8a and 8b "Suggested sets"; issue 42): an official table's host fills the deck with one tap
(`set=<key>`); a set that does not fit the table says why; a forged or unfitting key is refused
with nothing stored; the house tables offer the sets whose every card they deal (8a.8): no
Doppelganger, no Vampire card. Daybreak's "Fun Scenarios" fit any table from their minimum up
and are topped up with the suggested deck's cards (8a.11)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from games.families.onenight.suggested import BY_KEY
from tests.factories import NAMES, client_for, create_lobby, table_state
from tests.web.helpers import HTMX, alerts, raw, text, url, visible

pytestmark = pytest.mark.django_db

DAYBREAK = BY_KEY["daybreak_first_game"]
VAMPIRE = BY_KEY["vampire_first_game"]
CHAOS = BY_KEY["daybreak_total_chaos"]


def set_buttons(body: str) -> list[str]:
    return re.findall(r'name="set" value="([a-z_]+)"', body)


def test_the_official_lobby_lists_the_sets_and_offers_those_that_fit() -> None:
    table = create_lobby(list(NAMES[:3]), ruleset="official")
    body = raw(client_for(table, NAMES[0]).get(url("table", table.code)))
    assert 'name="set" value="daybreak_first_game"' in body
    assert 'name="set" value="vampire_first_game"' not in body
    words = visible(client_for(table, NAMES[0]).get(url("table", table.code)))
    assert "Daybreak: first game" in words
    assert "Vampire: first game is for 4 players, and this table has 3 players." in words
    # Daybreak's "Fun Scenarios": the two for 3 players or more fit, the others say why.
    assert set_buttons(body) == [
        "daybreak_first_game",
        "daybreak_evil_transformation",
        "daybreak_trust_no_one",
    ]
    assert "Daybreak: Trust No One for 3 players or more:" in words
    assert (
        "Daybreak: Cautionary Tale is for 4 players or more, and this table has 3 players." in words
    )
    assert "Daybreak: Total Chaos is for 5 players or more, and this table has 3 players." in words
    # Only the host picks the deck.
    assert 'name="set"' not in raw(client_for(table, NAMES[1]).get(url("table", table.code)))


def test_picking_a_set_stores_its_deck_and_the_game_starts_with_it() -> None:
    table = create_lobby(list(NAMES[:4]), ruleset="official")
    host = client_for(table, NAMES[0])
    response = host.post(url("options", table.code), {"set": "vampire_first_game"})
    assert response.status_code == 302, alerts(response)
    deck = table.refresh().options["deck"]
    assert Counter(deck) == Counter(role.value for role in VAMPIRE.cards)
    body = raw(host.get(url("table", table.code)))
    assert 'name="count_the_count" min="0" max="1" value="1"' in body
    assert "7 of 7 cards:" in text(host.get(url("table", table.code)))
    again = host.post(url("options", table.code), {"set": "vampire_first_game"}, **HTMX)
    assert again.status_code == 200
    assert host.post(url("start", table.code)).status_code == 302
    assert table.refresh().state is not None


def test_a_fun_set_at_a_larger_table_is_topped_up_to_a_full_legal_deck() -> None:
    """8a.11: Total Chaos (5 players or more) at 7: its nine cards (the Alpha Wolf's centre
    werewolf among them) and two of the suggested deck's, eleven in all; the game starts."""
    table = create_lobby(list(NAMES[:7]), ruleset="official")
    host = client_for(table, NAMES[0])
    page = host.get(url("table", table.code))
    assert "daybreak_total_chaos" in set_buttons(raw(page))
    assert "; at this table, 2 more cards from the suggested deck" in visible(page)
    response = host.post(url("options", table.code), {"set": CHAOS.key})
    assert response.status_code == 302, alerts(response)
    deck = Counter(table.refresh().options["deck"])
    assert sum(deck.values()) == 7 + 3 + 1
    assert not Counter(role.value for role in CHAOS.cards) - deck
    assert deck["werewolf"] == 3 and deck["seer"] == 1  # the suggested deck's first two
    assert "11 of 11 cards:" in text(host.get(url("table", table.code)))
    assert host.post(url("start", table.code)).status_code == 302
    assert table.refresh().state is not None


@pytest.mark.parametrize(
    ("ruleset", "players", "key", "message"),
    [
        ("official", 3, "epic_battle", "'epic_battle' is not one of the suggested sets."),
        ("official", 3, "", "'' is not one of the suggested sets."),
        ("official", 3, "x" * 5000, "is not one of the suggested sets."),
        ("official", 3, "vampire_first_game", "Vampire: first game is for 4 players"),
        ("official", 4, "daybreak_first_game", "Daybreak: first game is for 3 players"),
        ("house", 4, "vampire_first_game", "Vampire: first game is for tables with the official"),
        ("official", 4, "daybreak_total_chaos", "Daybreak: Total Chaos is for 5 players or more"),
        ("house", 5, "daybreak_total_chaos", "Daybreak: Total Chaos is for tables with the"),
        ("house", 3, "daybreak_cautionary_tale", "Cautionary Tale is for 4 players or more, and"),
    ],
)
def test_a_forged_or_unfitting_set_is_refused_with_nothing_stored(
    ruleset: str, players: int, key: str, message: str
) -> None:
    table = create_lobby(list(NAMES[:players]), ruleset=ruleset)
    host = client_for(table, NAMES[0])
    host.post(url("options", table.code), {"count_villager": "1"})
    for extra in ({}, HTMX):
        before = table_state(table.table.pk)
        response = host.post(url("options", table.code), {"set": key}, **extra)
        assert response.status_code == 400, (response.status_code, alerts(response))
        assert any(message in a for a in alerts(response)), alerts(response)
        assert table_state(table.table.pk) == before
    assert table.refresh().options["deck"] == ["villager"]


def test_the_house_lobby_offers_the_sets_of_the_cards_it_deals() -> None:
    """8a.8: a house host may add Daybreak's cards (the picker lists them, the Prince too) and
    the sets of those cards; the Doppelganger's and Vampire's stay with the official rules."""
    table = create_lobby(list(NAMES[:3]))
    host = client_for(table, NAMES[0])
    response = host.get(url("table", table.code))
    assert set_buttons(raw(response)) == ["daybreak_first_game"]
    words = visible(response)
    assert "Daybreak: Cautionary Tale is for 4 players or more" in words
    assert "Daybreak: Information Society is for 5 players or more" in words
    for key in ("vampire_first_game", "daybreak_evil_transformation", "daybreak_total_chaos"):
        assert str(BY_KEY[key].title) not in words
    assert "Trust No One" not in words
    assert 'name="count_sentinel"' in raw(response) and 'name="count_prince"' in raw(response)
    assert 'name="count_vampire"' not in raw(response)
    assert 'name="count_doppelganger"' not in raw(response)
    answer = host.post(url("options", table.code), {"set": DAYBREAK.key})
    assert answer.status_code == 302, alerts(answer)
    assert Counter(table.refresh().options["deck"]) == Counter(r.value for r in DAYBREAK.cards)
    assert host.post(url("start", table.code)).status_code == 302
    assert table.refresh().state is not None


def test_only_the_host_picks_a_set() -> None:
    table = create_lobby(list(NAMES[:3]), ruleset="official")
    before = table_state(table.table.pk)
    response = client_for(table, NAMES[1]).post(url("options", table.code), {"set": DAYBREAK.key})
    assert response.status_code == 403
    assert table_state(table.table.pk) == before


def test_a_larger_house_lobby_offers_exactly_its_two_fun_sets() -> None:
    table = create_lobby(list(NAMES[:6]))
    host = client_for(table, NAMES[0])
    body = raw(host.get(url("table", table.code)))
    assert set_buttons(body) == ["daybreak_cautionary_tale", "daybreak_information_society"]
    response = host.post(url("options", table.code), {"set": "daybreak_cautionary_tale"})
    assert response.status_code == 302, alerts(response)
    deck = Counter(table.refresh().options["deck"])
    assert sum(deck.values()) == 9 and deck["werewolf"] == 2 and "doppelganger" not in deck
    assert host.post(url("start", table.code)).status_code == 302
    assert table.refresh().state is not None
