"""The rulebooks' suggested sets (games/families/onenight/suggested.py, docs/rules.md 8a.11 and
8b.9): each is a legal deck for every table size it claims, in every ruleset that offers it, and
is dealt; at a table larger than its minimum it is topped up with the suggested deck's cards."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.families.onenight import options as table_options
from games.families.onenight.engine import (
    Role,
    Ruleset,
    deal_cards,
    default_deck,
    max_players,
    role_limits,
    validate_deck,
)
from games.families.onenight.suggested import (
    BY_KEY,
    SETS,
    SuggestedSet,
    for_players,
    offered,
    pick,
)
from games.tables.family import FamilyError

FUN = (
    "daybreak_evil_transformation",
    "daybreak_trust_no_one",
    "daybreak_cautionary_tale",
    "daybreak_information_society",
    "daybreak_total_chaos",
)
CASES = [
    (ruleset, s.key, n)
    for ruleset in ("house", "official")
    for s in offered(ruleset)
    for n in range(3, max_players(Ruleset(ruleset)) + 1)
    if s.fits(ruleset, n)
]


def test_the_sets_the_sources_give() -> None:
    assert set(BY_KEY) == {"daybreak_first_game", "vampire_first_game", *FUN}
    assert len(BY_KEY) == len(SETS)
    for suggested in SETS:
        assert suggested.source.startswith("upandatom96/fake-fan-adam ")
    # Daybreak's "Fun Scenarios": their minimums, open-ended; the first games: one size each.
    assert {k: (BY_KEY[k].least, BY_KEY[k].most) for k in FUN} == {
        "daybreak_evil_transformation": (3, None),
        "daybreak_trust_no_one": (3, None),
        "daybreak_cautionary_tale": (4, None),
        "daybreak_information_society": (5, None),
        "daybreak_total_chaos": (5, None),
    }
    assert (BY_KEY["daybreak_first_game"].least, BY_KEY["daybreak_first_game"].most) == (3, 3)
    assert (BY_KEY["vampire_first_game"].least, BY_KEY["vampire_first_game"].most) == (4, 4)
    for key in FUN:
        assert BY_KEY[key].source.endswith("daybreak_content.md, Fun Scenarios")


def test_the_alpha_wolf_sets_add_a_werewolf_as_its_centre_card() -> None:
    """docs/rules.md 8a.1, 8a.11: the rulebook counts its sets without the centre werewolf."""
    chaos = Counter(BY_KEY["daybreak_total_chaos"].cards)
    assert chaos[Role.WEREWOLF] == 2 and len(BY_KEY["daybreak_total_chaos"].cards) == 9
    for key in ("daybreak_evil_transformation", "daybreak_trust_no_one"):
        assert Counter(BY_KEY[key].cards)[Role.WEREWOLF] == 1
        assert len(BY_KEY[key].cards) == 7  # six named cards and the centre werewolf
    assert len(BY_KEY["daybreak_cautionary_tale"].cards) == 7
    assert len(BY_KEY["daybreak_information_society"].cards) == 8


@pytest.mark.parametrize(("ruleset", "key", "players"), CASES)
def test_each_set_is_a_legal_deck_for_each_size_it_claims(
    ruleset: str, key: str, players: int
) -> None:
    suggested = BY_KEY[key]
    rules = Ruleset(ruleset)
    deck = suggested.deck_for(ruleset, players)
    validate_deck(rules, deck, players)
    # The set's own cards are all in, first; at its minimum the deck is exactly the set.
    assert deck[: len(suggested.cards)] == list(suggested.cards)
    if players == suggested.least:
        assert deck == list(suggested.cards)
    # The rest comes from the suggested deck for this size, in its order, within the limits.
    added = deck[len(suggested.cards) :]
    proposal = default_deck(rules, players)
    rest = iter(proposal)
    assert all(card in rest for card in added), (added, proposal)  # a subsequence of it
    limits = role_limits(rules)
    wolf = 1 if Role.ALPHA_WOLF in deck else 0
    for role, count in Counter(deck).items():
        assert count <= limits[role] + (wolf if role is Role.WEREWOLF else 0), role
    # Dealt, picked and started as a table's deck.
    names = [f"P{i}" for i in range(players)]
    dealt = deal_cards(rules, names, deck, random.Random(1))
    assert sorted(dealt.cards.values()) == sorted(deck)
    picked = pick(ruleset, key, players)
    assert picked == [role.value for role in deck]
    options = {**table_options.defaults(ruleset), "deck": picked}
    assert table_options.start_problem(ruleset, options, players) is None


def test_every_fun_set_fits_up_to_the_largest_table() -> None:
    for ruleset in ("house", "official"):
        largest = max_players(Ruleset(ruleset))
        for suggested in offered(ruleset):
            if suggested.most is None:
                assert suggested.fits(ruleset, largest)
                assert not suggested.fits(ruleset, largest + 1)
                assert not suggested.fits(ruleset, suggested.least - 1)


@pytest.mark.parametrize("key", ["daybreak_first_game", "vampire_first_game"])
def test_a_first_game_is_refused_at_another_table_size(key: str) -> None:
    players = BY_KEY[key].least
    for other in (players - 1, players + 1):
        with pytest.raises(FamilyError, match=f"is for {players} players"):
            pick("official", key, other)


@pytest.mark.parametrize(("key", "least"), [("daybreak_information_society", 5), (FUN[2], 4)])
def test_a_fun_set_is_refused_below_its_minimum(key: str, least: int) -> None:
    with pytest.raises(FamilyError) as refused:
        pick("official", key, least - 1)
    title = BY_KEY[key].title
    assert str(refused.value) == (
        f"{title} is for {least} players or more, and this table has {least - 1} players."
    )


def test_the_filler_adds_the_masons_as_a_pair_or_not_at_all() -> None:
    """rules/002 s5 in the official rules: one place left is not given to a lone Mason."""
    base = (Role.DOPPELGANGER, Role.WEREWOLF, Role.WEREWOLF, Role.SEER, Role.ROBBER)
    base += (Role.TROUBLEMAKER, *(Role.VILLAGER,) * 3, Role.INSOMNIAC, Role.DRUNK, Role.MINION)
    base += (Role.TANNER, Role.HUNTER)
    one_short = SuggestedSet("t", "t", 3, None, (*base, Role.SENTINEL), "test")
    deck = one_short.deck_for("official", 13)
    assert Role.MASON not in deck and len(deck) == 15  # nothing fits: pick would refuse it
    two_short = SuggestedSet("t", "t", 3, None, base, "test")
    assert Counter(two_short.deck_for("official", 13))[Role.MASON] == 2
    house = SuggestedSet("t", "t", 3, None, (*base[1:], Role.SENTINEL), "test")
    assert Counter(house.deck_for("house", 12))[Role.MASON] == 1  # pairs: official only


def test_house_tables_offer_the_sets_whose_cards_they_deal() -> None:
    """docs/rules.md 8a.8: a house table may deal Daybreak's cards, not the Doppelganger nor
    Vampire's."""
    assert [s.key for s in offered("house")] == [
        "daybreak_first_game",
        "daybreak_cautionary_tale",
        "daybreak_information_society",
    ]
    assert pick("house", "daybreak_first_game", 3)
    assert offered("official") == SETS
    for key in ("vampire_first_game", "daybreak_total_chaos", "daybreak_trust_no_one"):
        with pytest.raises(FamilyError, match="official rules"):
            pick("house", key, 5)
    with pytest.raises(FamilyError, match="is not one of the suggested sets"):
        pick("official", "epic_battle", 4)


def test_the_sizes_as_the_lobby_says_them() -> None:
    assert for_players(BY_KEY["daybreak_first_game"]) == "for 3 players:"
    assert for_players(BY_KEY["daybreak_total_chaos"]) == "for 5 players or more:"
    assert for_players(SuggestedSet("t", "T", 4, 6, (), "test")) == "for 4 to 6 players:"
    # Beyond the ruleset's largest table (a house table seats 12 at most: 8a.8).
    with pytest.raises(FamilyError) as refused:
        pick("house", "daybreak_cautionary_tale", 13)
    assert str(refused.value) == (
        "Daybreak: Cautionary Tale is for 4 to 12 players, and this table has 13 players."
    )
