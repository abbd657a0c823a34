"""The rulebooks' suggested sets (games/families/onenight/suggested.py, docs/rules.md 8a and 8b
"Suggested sets"): each is a legal official deck for every table size it claims, and is dealt."""

from __future__ import annotations

import random

import pytest

from games.families.onenight import options as table_options
from games.families.onenight.engine import Ruleset, deal_cards, validate_deck
from games.families.onenight.suggested import BY_KEY, SETS, offered, pick
from games.tables.family import FamilyError

CASES = [(s.key, n) for s in SETS for n in s.players]


def test_there_is_one_set_for_each_expansion_the_sources_give() -> None:
    assert set(BY_KEY) == {"daybreak_first_game", "vampire_first_game"}
    assert len(BY_KEY) == len(SETS)
    for suggested in SETS:
        assert suggested.players and suggested.source.startswith("upandatom96/fake-fan-adam ")


@pytest.mark.parametrize(("key", "players"), CASES)
def test_each_set_is_a_legal_deck_for_each_size_it_claims(key: str, players: int) -> None:
    suggested = BY_KEY[key]
    validate_deck(Ruleset.OFFICIAL, suggested.cards, players)
    names = [f"P{i}" for i in range(players)]
    dealt = deal_cards(Ruleset.OFFICIAL, names, suggested.cards, random.Random(1))
    assert sorted(dealt.cards.values()) == sorted(suggested.cards)
    deck = pick("official", key, players)
    assert deck == [role.value for role in suggested.cards]
    options = {**table_options.defaults("official"), "deck": deck}
    assert table_options.start_problem("official", options, players) is None


@pytest.mark.parametrize(("key", "players"), CASES)
def test_a_set_is_refused_at_another_table_size(key: str, players: int) -> None:
    for other in (players - 1, players + 1):
        with pytest.raises(FamilyError, match=f"is for {players} players"):
            pick("official", key, other)


def test_house_tables_offer_daybreak_s_set_only_and_refuse_vampire_s() -> None:
    """docs/rules.md 8a.8: a house table may deal Daybreak's cards, not Vampire's."""
    assert [s.key for s in offered("house")] == ["daybreak_first_game"]
    assert pick("house", "daybreak_first_game", 3)
    assert offered("official") == SETS
    with pytest.raises(FamilyError, match="official rules"):
        pick("house", "vampire_first_game", 4)
    with pytest.raises(FamilyError, match="is not one of the suggested sets"):
        pick("official", "epic_battle", 4)
