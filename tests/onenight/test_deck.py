"""The table and the deck: rules/000 s3a and s4, rules/002 s2, s3 and s5."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.families.onenight.engine import (
    CENTRE_POSITIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    InvalidDeckError,
    InvalidPlayersError,
    Role,
    Ruleset,
    deal_cards,
    default_deck,
    make_deal,
    max_players,
    role_limits,
    validate_deck,
    validate_players,
)
from games.families.onenight.engine.roles import EXPANSION_ROLES

from .builders import NAMES

HOUSE = Ruleset.HOUSE
OFFICIAL = Ruleset.OFFICIAL
R = Role

# ---------------------------------------------------------------------------------------------
# Players (FORMAT.md "players"; rules/000 s3a: the centre positions are named left/middle/right)


@pytest.mark.parametrize("count", [MIN_PLAYERS, 7, MAX_PLAYERS])
def test_three_to_thirteen_players_sit_down(count: int) -> None:
    """FORMAT.md: 3 to 13 players."""
    assert validate_players(list(NAMES[:count])) == NAMES[:count]


@pytest.mark.parametrize("count", [0, 1, 2, 14, 20])
def test_too_few_or_too_many_players(count: int) -> None:
    """FORMAT.md: 3 to 13 players; the message gives the range and the count."""
    names = [f"P{i:02d}" for i in range(count)]
    with pytest.raises(InvalidPlayersError, match=f"3 to 13 players, not {count}"):
        validate_players(names)


def test_duplicate_names_are_refused() -> None:
    """FORMAT.md: distinct names."""
    with pytest.raises(InvalidPlayersError, match="Two players are called 'Ann'"):
        validate_players(["Ann", "Ben", "Ann"])


def test_names_differing_only_in_case_are_refused() -> None:
    """Engine ruling (deck.validate_players): names are compared case-insensitively."""
    with pytest.raises(InvalidPlayersError, match="Two players"):
        validate_players(["Ann", "Ben", "ann"])


@pytest.mark.parametrize("bad", ["", "   ", None, 7])
def test_empty_or_non_string_names_are_refused(bad: object) -> None:
    """FORMAT.md: non-empty names."""
    with pytest.raises(InvalidPlayersError, match="not empty"):
        validate_players(["Ann", "Ben", bad])  # type: ignore[list-item]


def test_padded_and_overlong_names_are_refused() -> None:
    """Engine ruling: names are trimmed and at most 24 characters (chat readability)."""
    with pytest.raises(InvalidPlayersError, match="space"):
        validate_players(["Ann", "Ben", " Cat"])
    with pytest.raises(InvalidPlayersError, match="longer than 24"):
        validate_players(["Ann", "Ben", "C" * 25])
    assert validate_players(["Ann", "Ben", "C" * 24])[2] == "C" * 24


@pytest.mark.parametrize("centre", ["left", "middle", "right", "Left", "MIDDLE"])
def test_centre_positions_are_not_names(centre: str) -> None:
    """FORMAT.md / rules/000 s3a: left, middle and right name the centre cards."""
    with pytest.raises(InvalidPlayersError, match="centre card"):
        validate_players(["Ann", "Ben", centre])


def test_players_must_be_a_list() -> None:
    """FORMAT.md: "players" is a list of names (a string is not)."""
    with pytest.raises(InvalidPlayersError, match="list of names"):
        validate_players("AnnBenCat")


# ---------------------------------------------------------------------------------------------
# The deck (rules/000 s3a and s4; rules/002 s3 and s5)


def _padded(cards: list[Role]) -> list[Role]:
    """`cards` plus single copies of other roles up to at least six cards (three players)."""
    fillers = (R.SEER, R.ROBBER, R.TROUBLEMAKER, R.DRUNK, R.INSOMNIAC, R.HUNTER)
    out = list(cards)
    for filler in fillers:
        if len(out) >= 6:
            break
        if filler not in out:
            out.append(filler)
    return out


def test_deck_needs_players_plus_three_cards() -> None:
    """rules/000 s3a, rules/002 s3: three more cards than players."""
    cards = [R.WEREWOLF, R.SEER, R.ROBBER, R.TROUBLEMAKER, R.VILLAGER, R.DRUNK, R.INSOMNIAC]
    with pytest.raises(InvalidDeckError, match=r"5 players need 8 cards.*but 7 were chosen"):
        validate_deck(HOUSE, cards, 5)
    with pytest.raises(InvalidDeckError, match=r"3 players need 6 cards.*but 7 were chosen"):
        validate_deck(HOUSE, cards, 3)
    assert sum(validate_deck(HOUSE, cards, 4).values()) == 7


@pytest.mark.parametrize("ruleset", [HOUSE, OFFICIAL])
@pytest.mark.parametrize(
    "role", [r for r in Role if r is not Role.DOPPELGANGER and r not in EXPANSION_ROLES]
)
def test_each_role_limit(ruleset: Ruleset, role: Role) -> None:
    """rules/000 s4: at most 2 werewolves, 2 masons, 3 villagers, one of every other role.
    (Daybreak's roles and the Prince: tests/onenight/test_daybreak.py.)"""
    limit = role_limits(ruleset)[role]
    assert limit == {R.WEREWOLF: 2, R.MASON: 2, R.VILLAGER: 3}.get(role, 1)
    ok = _padded([role] * limit)
    assert validate_deck(ruleset, ok, len(ok) - 3)[role] == limit
    too_many = _padded([role] * (limit + 1))
    copies = "one copy" if limit == 1 else f"{limit} copies"
    with pytest.raises(InvalidDeckError, match=f"only {copies} of the {role.title}"):
        validate_deck(ruleset, too_many, len(too_many) - 3)


def test_doppelganger_only_in_the_official_rules() -> None:
    """rules/000 s4 leaves the Doppelganger out; rules/002 s5 uses one."""
    cards = _padded([R.DOPPELGANGER])
    with pytest.raises(InvalidDeckError, match="Doppelganger is not used in the house rules"):
        validate_deck(HOUSE, cards, 3)
    assert validate_deck(OFFICIAL, cards, 3)[R.DOPPELGANGER] == 1
    two = _padded([R.DOPPELGANGER, R.DOPPELGANGER])
    with pytest.raises(InvalidDeckError, match="only one copy of the Doppelganger"):
        validate_deck(OFFICIAL, two, 3)


def test_official_masons_come_as_a_pair() -> None:
    """rules/002 s5: "Both Mason cards must be in play" - two masons or none."""
    with pytest.raises(InvalidDeckError, match="both Mason cards or neither"):
        validate_deck(OFFICIAL, _padded([R.MASON]), 3)
    assert validate_deck(OFFICIAL, _padded([R.MASON, R.MASON]), 3)[R.MASON] == 2
    assert validate_deck(OFFICIAL, _padded([]), 3)[R.MASON] == 0


def test_house_rules_allow_a_single_mason() -> None:
    """rules/000 s4 says "at most 2" masons, with no pairing rule (examples.jsonl line 4)."""
    assert validate_deck(HOUSE, _padded([R.MASON]), 3)[R.MASON] == 1


def test_unknown_role_is_refused() -> None:
    """FORMAT.md "Errors": an unknown role is an error naming the card."""
    cards = {"Ann": "seer", "Ben": "wizard", "Cat": "robber"}
    cards |= {"left": "villager", "middle": "villager", "right": "werewolf"}
    with pytest.raises(InvalidDeckError, match="'wizard' is not a role"):
        make_deal(HOUSE, ["Ann", "Ben", "Cat"], cards)
    cards["Ben"] = "Seer"  # role names are lower case
    with pytest.raises(InvalidDeckError, match="'Seer' is not a role"):
        make_deal(HOUSE, ["Ann", "Ben", "Cat"], cards)


def test_make_deal_needs_a_card_at_every_position_and_nowhere_else() -> None:
    """FORMAT.md "deal": a card for every player and each of left, middle, right."""
    players = ["Ann", "Ben", "Cat"]
    cards = {"Ann": "seer", "Ben": "robber", "Cat": "villager", "left": "villager"}
    with pytest.raises(InvalidDeckError, match="No card was dealt to middle"):
        make_deal(HOUSE, players, cards)
    cards |= {"middle": "werewolf", "right": "drunk", "Zed": "tanner"}
    with pytest.raises(InvalidDeckError, match="'Zed', who is not at the table"):
        make_deal(HOUSE, players, cards)
    del cards["Zed"]
    del cards["Cat"]
    with pytest.raises(InvalidDeckError, match="No card was dealt to Cat"):
        make_deal(HOUSE, players, cards)


def test_house_table_is_at_most_twelve_players() -> None:
    """rules/000 s4: the house limits of the base cards sum to 15, so 12 players is the largest
    table; the expansion cards a host may add do not make it larger (docs/rules.md 8a.8)."""
    house_cards = [
        r for r, n in role_limits(HOUSE).items() if r not in EXPANSION_ROLES for _ in range(n)
    ]
    assert len(house_cards) == 15
    assert max_players(HOUSE) == 12 and max_players(OFFICIAL) == 13
    assert sum(validate_deck(HOUSE, house_cards, 12).values()) == 15
    official_cards = [
        r for r, n in role_limits(OFFICIAL).items() if r not in EXPANSION_ROLES for _ in range(n)
    ]
    assert len(official_cards) == 16
    assert sum(validate_deck(OFFICIAL, official_cards, 13).values()) == 16
    # 13 house players would need 16 cards: any 16 house cards break a limit.
    with pytest.raises(InvalidDeckError):
        validate_deck(HOUSE, [*house_cards, R.VILLAGER], 13)


# ---------------------------------------------------------------------------------------------
# Dealing (rules/000 s3a: centre cards at left, middle, right)


def _legal_deck(ruleset: Ruleset, players: int) -> list[Role]:
    return default_deck(ruleset, players)


@pytest.mark.parametrize("ruleset", [HOUSE, OFFICIAL])
def test_deal_cards_uses_every_card_once(ruleset: Ruleset) -> None:
    """rules/000 s3a: one card to each player, the other three to left, middle and right."""
    players = list(NAMES[:7])
    deck = _legal_deck(ruleset, 7)
    dealt = deal_cards(ruleset, players, deck)
    assert dealt.ruleset is ruleset
    assert dealt.players == tuple(players)
    assert dealt.positions == (*players, "left", "middle", "right")
    assert list(dealt.cards) == [*players, *CENTRE_POSITIONS]
    assert Counter(dealt.cards.values()) == Counter(deck)


def test_deal_cards_is_reproducible_with_a_seeded_rng() -> None:
    """deal_cards(rng=...): a seeded random.Random gives the same deal twice (tests only)."""
    players = list(NAMES[:8])
    deck = _legal_deck(HOUSE, 8)
    first = deal_cards(HOUSE, players, deck, rng=random.Random(7))  # type: ignore[arg-type]
    again = deal_cards(HOUSE, players, deck, rng=random.Random(7))  # type: ignore[arg-type]
    assert dict(first.cards) == dict(again.cards)
    deals = {
        tuple(deal_cards(HOUSE, players, deck, rng=random.Random(s)).cards.values())  # type: ignore[arg-type]
        for s in range(20)
    }
    assert len(deals) > 1, "different seeds shuffle differently"


def test_deal_cards_default_rng_shuffles() -> None:
    """Without rng the deal comes from the OS random source: still a legal, complete deal."""
    players = list(NAMES[:10])
    deck = _legal_deck(HOUSE, 10)
    deals = {tuple(deal_cards(HOUSE, players, deck).cards.values()) for _ in range(30)}
    assert len(deals) > 1
    assert all(Counter(d) == Counter(deck) for d in deals)


def test_deal_cards_does_not_change_the_callers_deck() -> None:
    """deal_cards shuffles a copy."""
    deck = _legal_deck(HOUSE, 5)
    before = list(deck)
    deal_cards(HOUSE, list(NAMES[:5]), deck)
    assert deck == before


def test_deal_cards_validates_players_and_deck() -> None:
    """deal_cards refuses an illegal table or deck before dealing (rules/000 s3a, s4)."""
    with pytest.raises(InvalidPlayersError):
        deal_cards(HOUSE, ["Ann", "Ben"], _legal_deck(HOUSE, 3)[:5])
    with pytest.raises(InvalidDeckError, match="need 8 cards"):
        deal_cards(HOUSE, list(NAMES[:5]), _legal_deck(HOUSE, 4))
    with pytest.raises(InvalidDeckError, match="Doppelganger"):
        deal_cards(HOUSE, list(NAMES[:7]), _legal_deck(OFFICIAL, 7))


@pytest.mark.parametrize(
    ("ruleset", "count"),
    [(HOUSE, n) for n in range(3, 13)] + [(OFFICIAL, n) for n in range(3, 14)],
)
def test_default_deck_is_legal(ruleset: Ruleset, count: int) -> None:
    """The lobby's proposed deck is legal for every table size the ruleset allows."""
    deck = default_deck(ruleset, count)
    assert sum(validate_deck(ruleset, deck, count).values()) == count + 3
