"""The house rules with Daybreak's cards and the Prince added by the host (docs/rules.md 8a.8):
which cards a house table may deal, the house night's order, and the house rulings (rules/000
s6a ties, s6b the lone wolf, s6c the minion and the Tanner) read with the added cards."""

from __future__ import annotations

import pytest

from games.families.onenight import narrator
from games.families.onenight.engine import (
    CENTRE_WOLF,
    InvalidDeckError,
    Role,
    Ruleset,
    make_deal,
    play_game,
    resolve_night,
    role_limits,
    validate_deck,
)
from games.families.onenight.engine.messages import role_message
from games.families.onenight.engine.roles import NIGHTS, own_step
from games.families.onenight.engine.roles_vampire import VAMPIRE_ROLES
from games.families.onenight.engine.scenario import run_scenario

R = Role
HOUSE = Ruleset.HOUSE
BASE = dict(left="villager", middle="hunter", right="villager")


def deal(**cards: str):  # type: ignore[no-untyped-def]
    players = [n for n in cards if n not in ("left", "middle", "right", CENTRE_WOLF)]
    return make_deal(HOUSE, players, cards)


def text(d, player: str) -> str:  # type: ignore[no-untyped-def]
    return role_message(d, player).text


# --- The deck ---------------------------------------------------------------------------------


def test_a_house_deck_may_hold_daybreak_s_cards_and_the_prince_not_vampire_s() -> None:
    """8a.8: the host may add Daybreak's eleven and the Prince; the Doppelganger (rules/000 s4)
    and Vampire's cards stay with the official rules, with a message that says so."""
    deck = [R.WEREWOLF, R.SENTINEL, R.WITCH, R.PRINCE, R.SEER, R.VILLAGER]
    assert sum(validate_deck(HOUSE, deck, 3).values()) == 6
    for card in sorted(VAMPIRE_ROLES):
        with pytest.raises(InvalidDeckError, match="plays with the official rules only"):
            validate_deck(HOUSE, [card, *deck[1:]], 3)
    with pytest.raises(InvalidDeckError, match="not used in the house rules"):
        validate_deck(HOUSE, [R.DOPPELGANGER, *deck[1:]], 3)
    # The Alpha Wolf's centre werewolf card: a third werewolf card, as in the official rules.
    wolves = [R.WEREWOLF, R.WEREWOLF, R.WEREWOLF, R.ALPHA_WOLF, R.SEER, R.VILLAGER, R.VILLAGER]
    assert sum(validate_deck(HOUSE, wolves, 3).values()) == 7
    # A lone mason is still fine at a house table (the official rules want both).
    assert validate_deck(HOUSE, [R.MASON, R.SENTINEL, R.SEER, R.WEREWOLF, R.VILLAGER, R.TANNER], 3)


def test_the_house_night_order_with_daybreak() -> None:
    """8a.8: rules/000 s8's steps, Daybreak's where the official order puts them."""
    labels = [(s.label, s.role.value) for s in NIGHTS[HOUSE]]
    assert labels == [
        ("0", "sentinel"),
        ("0", "werewolf"),
        ("0", "minion"),
        ("0", "mason"),
        ("0b", "alpha_wolf"),
        ("0c", "mystic_wolf"),
        ("1", "seer"),
        ("1b", "apprentice_seer"),
        ("1c", "paranormal_investigator"),
        ("2", "robber"),
        ("2b", "witch"),
        ("3", "troublemaker"),
        ("3b", "village_idiot"),
        ("4", "drunk"),
        ("4", "insomniac"),
        ("5", "revealer"),
        ("6", "curator"),
    ]
    assert own_step(HOUSE, R.DREAM_WOLF) is None and own_step(HOUSE, R.PRINCE) is None
    # Every card a house table may deal has its place, or none because it never wakes.
    woken = {s.role for s in NIGHTS[HOUSE]}
    sleepers = {R.DREAM_WOLF, R.BODYGUARD, R.PRINCE, R.HUNTER, R.VILLAGER, R.TANNER}
    assert set(role_limits(HOUSE)) == woken | sleepers


def test_the_narrator_calls_a_house_deck_of_every_card_in_that_order() -> None:
    """Table mode at a house table: the calls follow the house night, the sentinel first."""
    deck = [r for r, n in role_limits(HOUSE).items() for _ in range(n)]
    keys = [c.key for c in narrator.narration(HOUSE, deck)]
    assert keys == [
        "sentinel",
        "werewolves",
        "minion",
        "masons",
        "alpha-wolf",
        "mystic-wolf",
        "seer",
        "apprentice-seer",
        "paranormal-investigator",
        "robber",
        "witch",
        "troublemaker",
        "village-idiot",
        "drunk",
        "insomniac",
        "revealer",
        "curator",
    ]
    # A base house deck's script is unchanged: no Daybreak call, the base werewolves' words.
    base = [R.WEREWOLF, R.WEREWOLF, R.SEER, R.ROBBER, R.TROUBLEMAKER, R.VILLAGER]
    calls = narrator.narration(HOUSE, base)
    assert [c.key for c in calls] == ["werewolves", "seer", "robber", "troublemaker"]
    assert "Dream Wolf" not in calls[0].wake


# --- Step 0: the role messages ------------------------------------------------------------------


def test_step_0_tells_the_wolves_each_other_and_the_dream_wolf_nothing() -> None:
    """rules/000 s8 step 0 with Daybreak's wolves (8a.8, 8a.5): the werewolves read each other,
    the dream wolf among them by its thumb; the dream wolf reads no names; the minion reads all."""
    d = deal(
        Ann="werewolf",
        Ben="dream_wolf",
        Cat="minion",
        Dan="alpha_wolf",
        Eve="seer",
        left="villager",
        middle="werewolf",
        right="villager",
        centre_wolf="werewolf",
    )
    assert "Your fellow werewolf is Dan." in text(d, "Ann")
    assert "Ben is a werewolf too, the Dream Wolf" in text(d, "Ann")
    assert "Your fellow werewolf is Ann." in text(d, "Dan")
    for name in ("Ann", "Cat", "Dan"):
        assert name not in text(d, "Ben")
    assert "The werewolves are Ann, Ben and Dan." in text(d, "Cat")
    three = deal(Ann="werewolf", Ben="mystic_wolf", Cat="alpha_wolf", Dan="seer", **BASE,
                 centre_wolf="werewolf")  # fmt: skip
    assert "Your fellow werewolves are Ben and Cat. You all know each other" in text(three, "Ann")


def test_a_werewolf_with_only_the_dream_wolf_beside_it_takes_no_lone_look() -> None:
    """rules/000 s6b with 8a.5: a partner of any werewolf card means no lone look."""
    d = deal(Ann="werewolf", Ben="dream_wolf", Cat="seer", **BASE)
    assert "you may look at one of the three centre cards" not in text(d, "Ann")
    alone = deal(Ann="werewolf", Ben="sentinel", Cat="seer", **BASE)
    assert "you may look at one of the three centre cards" in text(alone, "Ann")


# --- The night --------------------------------------------------------------------------------


def test_a_house_night_plays_daybreak_s_actions_in_order() -> None:
    """The sentinel's shield is on before the robber moves (8a.4); the witch swaps after the
    robber; the revealer turns up the card at dawn's order (after the insomniac)."""
    d = deal(Ann="sentinel", Ben="robber", Cat="witch", Dan="werewolf", Eve="revealer", **BASE)
    night = resolve_night(
        d, {"Ann": ["Dan"], "Ben": ["Dan"], "Cat": ["middle", "Ben"], "Eve": ["Cat"], "Dan": []}
    )
    assert night.shields == ("Dan",)
    assert night.final["Dan"] is R.WEREWOLF and night.final["Ben"] is R.HUNTER
    assert night.final["middle"] is R.ROBBER
    assert night.revealed == ("Cat",)


# --- The vote and who wins --------------------------------------------------------------------


def test_with_a_dream_wolf_at_dawn_the_minion_is_no_werewolf() -> None:
    """rules/000 s6c reads "werewolf" as any werewolf card (8a.8): with the dream wolf among
    the players the minion does not count as one, so the minion's death is no werewolf's."""
    d = deal(Ann="dream_wolf", Ben="minion", Cat="seer", Dan="villager", **BASE)
    votes = {"Ann": "Ben", "Ben": "Cat", "Cat": "Ben", "Dan": "Ben"}
    g = play_game(d, {}, votes)
    assert g.vote is not None and g.vote.dead == ("Ben",)
    assert g.outcome is not None and g.outcome.winners == ("Ann", "Ben")


def test_an_investigator_that_became_a_werewolf_is_one_for_s6c() -> None:
    """8a.5 and rules/000 s6c: the investigator who saw the only werewolf card's holder and
    became a werewolf is a werewolf at dawn; the minion then is not one."""
    d = deal(Ann="paranormal_investigator", Ben="werewolf", Cat="minion", Dan="robber", **BASE)
    # The investigator looks at 1c, before the robber's 2: it sees Ben's werewolf and becomes
    # one; then the robber takes Ben's card.
    g = play_game(
        d,
        {"Ann": ["Ben"], "Dan": ["Ben"], "Ben": ["left"]},
        {"Ann": "Cat", "Ben": "Cat", "Cat": "Ann", "Dan": "Cat"},
    )
    assert g.night.plays_as("Ann") is R.WEREWOLF
    assert g.vote is not None and g.vote.dead == ("Cat",)
    # Werewolves at dawn: Ann (the investigator's werewolf) and Dan (the robbed card).
    assert g.outcome is not None and set(g.outcome.winners) == {"Ann", "Cat", "Dan"}


def test_the_prince_is_passed_over_and_the_tie_counts_the_others() -> None:
    """rules/000 s6a with 8a.7: the Prince on two votes cannot die; nobody else has more than
    one, so nobody dies."""
    d = deal(Ann="prince", Ben="werewolf", Cat="villager", Dan="seer", **BASE)
    g = play_game(d, {"Ben": ["left"]}, {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Cat"})
    assert g.vote is not None and g.vote.dead == ()
    assert "passed over" in g.vote.reason


def test_the_tanner_breaks_no_tie_among_the_killable() -> None:
    """rules/000 s6c's Tanner rule with the Prince (8a.8): no werewolf at dawn, the Prince has
    two votes, and only the Tanner's vote lifts Dan to two: nobody dies."""
    d = deal(Ann="prince", Ben="tanner", Cat="villager", Dan="seer", Eve="robber", **BASE)
    votes = {"Ann": "Dan", "Ben": "Dan", "Cat": "Ann", "Dan": "Ann", "Eve": "Cat"}
    g = play_game(d, {}, votes)
    assert g.vote is not None and g.vote.dead == ()
    assert "Tanner" in g.vote.reason
    # Without the Tanner's vote Dan still has two: Dan dies.
    votes = {**votes, "Eve": "Dan"}
    g = play_game(d, {}, votes)
    assert g.vote is not None and g.vote.dead == ("Dan",)


def test_the_scenario_runner_plays_a_house_daybreak_deal() -> None:
    """docs/scenarios.md: a house deal with an expansion card prints its tokens, as official."""
    out = run_scenario(
        {
            "ruleset": "house",
            "players": ["Ann", "Ben", "Cat"],
            "deal": {"Ann": "sentinel", "Ben": "werewolf", "Cat": "seer", **BASE},
            "night": {"Ann": ["Ben"], "Ben": ["left"], "Cat": ["Ben"]},
            "votes": {"Ann": "Ben", "Ben": "Ann", "Cat": "Ben"},
        }
    )
    assert out["shields"] == ["Ben"]
    assert out["seen"]["Cat"] == {}  # the shield stops the seer's look (8a.4)
    assert out["dead"] == ["Ben"] and out["winners"] == ["Ann", "Cat"]
    assert "copied" not in out
