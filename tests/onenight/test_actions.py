"""Night action validation: what each START card may send in (rules/000 s3b, s4, s6b; rules/002
s5 and s7; FORMAT.md "night"). Every refusal is an IllegalActionError naming the player."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from games.families.onenight.engine import (
    IllegalActionError,
    Requirement,
    Role,
    action_rule,
    copied_action_rule,
    resolve_night,
    validate_action,
)
from games.families.onenight.engine.deck import Deal

from .builders import deal

# One house table holding every role with an action, and a villager.
HOUSE = deal(
    "house",
    Ann="werewolf",
    Ben="seer",
    Cat="robber",
    Dan="troublemaker",
    Eve="drunk",
    Fay="insomniac",
    Gus="villager",
    Hal="minion",
    Ivy="mason",
    Jon="mason",
    Kim="hunter",
    Lou="tanner",
    left="werewolf",
    middle="villager",
    right="villager",
)
# Two werewolves among the players: neither may peek.
PAIR = deal(
    "house",
    Ann="werewolf",
    Ben="werewolf",
    Cat="seer",
    left="villager",
    middle="robber",
    right="drunk",
)
OFFICIAL = deal(
    "official",
    Ann="doppelganger",
    Ben="seer",
    Cat="robber",
    Dan="troublemaker",
    Eve="drunk",
    Fay="werewolf",
    Gus="minion",
    Hal="mason",
    Ivy="mason",
    Jon="insomniac",
    Kim="villager",
    Lou="hunter",
    Max="tanner",
    left="werewolf",
    middle="villager",
    right="villager",
)


def refused(d: Deal, player: str, targets: Sequence[str], message: str) -> None:
    """The action is refused with `message` in an error naming the player."""
    with pytest.raises(IllegalActionError, match=message) as caught:
        validate_action(d, player, targets)
    assert player in str(caught.value)
    # resolve_night refuses the same night as a whole.
    with pytest.raises(IllegalActionError):
        resolve_night(d, {player: targets})


# ---------------------------------------------------------------------------------------------
# The legal forms (FORMAT.md "night")

LEGAL: list[tuple[Deal, str, tuple[str, ...]]] = [
    (HOUSE, "Ben", ()),
    (HOUSE, "Ben", ("Ann",)),
    (HOUSE, "Ben", ("left", "right")),
    (HOUSE, "Ben", ("right", "middle")),
    (HOUSE, "Cat", ()),
    (HOUSE, "Cat", ("Ann",)),
    (HOUSE, "Dan", ()),
    (HOUSE, "Dan", ("Ann", "Ben")),
    (HOUSE, "Eve", ("middle",)),
    (HOUSE, "Ann", ()),  # lone werewolf: the peek is a "may" (rules/000 s6b)
    (HOUSE, "Ann", ("left",)),
    (PAIR, "Ann", ()),
    (OFFICIAL, "Ann", ()),  # the Doppelganger may copy nobody (rules/002 s7: optional)
    (OFFICIAL, "Ann", ("Ben",)),  # copied seer, chose not to look
    (OFFICIAL, "Ann", ("Ben", "Cat")),
    (OFFICIAL, "Ann", ("Ben", "left", "middle")),
    (OFFICIAL, "Ann", ("Ben", "Ben")),  # the seer she copied is "one other player"
    (OFFICIAL, "Ann", ("Cat", "Fay")),
    (OFFICIAL, "Ann", ("Cat", "Cat")),  # robs the robber she copied
    (OFFICIAL, "Ann", ("Dan", "Dan", "Gus")),  # examples.jsonl line 3
    (OFFICIAL, "Ann", ("Dan", "Ben", "Cat")),
    (OFFICIAL, "Ann", ("Eve", "right")),
    (OFFICIAL, "Ann", ("Fay",)),
    (OFFICIAL, "Ann", ("Gus",)),
    (OFFICIAL, "Ann", ("Hal",)),
    (OFFICIAL, "Ann", ("Jon",)),
    (OFFICIAL, "Ann", ("Kim",)),
    (OFFICIAL, "Ann", ("Lou",)),
    (OFFICIAL, "Ann", ("Max",)),
    (OFFICIAL, "Fay", ("middle",)),  # lone werewolf among the players, official too
]


@pytest.mark.parametrize(("d", "player", "targets"), LEGAL)
def test_legal_actions_are_accepted(d: Deal, player: str, targets: tuple[str, ...]) -> None:
    """FORMAT.md "night": each legal form is returned unchanged as a tuple."""
    assert validate_action(d, player, list(targets)) == targets


@pytest.mark.parametrize(
    "player", ["Ann", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Ben", "Cat", "Dan"]
)
def test_no_action_is_always_allowed_except_for_the_drunk(player: str) -> None:
    """rules/000 s3b: "you must still submit your action (by targeting no one)"; "may" roles may
    abstain (rules/000 s4)."""
    assert validate_action(HOUSE, player, []) == ()


# ---------------------------------------------------------------------------------------------
# Refusals, role by role


def test_seer_refusals() -> None:
    """rules/000 s4 Seer: one OTHER player, or two centre locations."""
    refused(HOUSE, "Ben", ["Ben"], "Ben: you cannot target yourself")
    refused(HOUSE, "Ben", ["left", "left"], "Ben: pick different targets")
    refused(HOUSE, "Ben", ["Zed"], "Ben: 'Zed' is not a player or a centre card")
    refused(HOUSE, "Ben", ["left"], "one other player or two centre cards")
    refused(HOUSE, "Ben", ["Ann", "Cat"], "one other player or two centre cards")
    refused(HOUSE, "Ben", ["Ann", "left"], "one other player or two centre cards")
    refused(HOUSE, "Ben", ["left", "middle", "right"], "one other player or two centre cards")
    refused(HOUSE, "Ben", ["Left", "right"], "'Left' is not a player or a centre card")


def test_robber_refusals() -> None:
    """rules/000 s4 Robber: one player to swap with (another player, never the centre)."""
    refused(HOUSE, "Cat", ["Cat"], "Cat: you cannot target yourself")
    refused(HOUSE, "Cat", ["left"], "A robber swaps cards with one other player")
    refused(HOUSE, "Cat", ["Ann", "Ben"], "A robber swaps cards with one other player")
    refused(HOUSE, "Cat", ["Ann", "Ann"], "Cat: pick different targets")
    refused(HOUSE, "Cat", ["Zed"], "'Zed' is not a player")


def test_troublemaker_refusals() -> None:
    """rules/000 s4 Troublemaker: two OTHER players."""
    refused(HOUSE, "Dan", ["Ann"], "two other players")
    refused(HOUSE, "Dan", ["Ann", "Ben", "Cat"], "two other players")
    refused(HOUSE, "Dan", ["Ann", "Ann"], "Dan: pick different targets")
    refused(HOUSE, "Dan", ["Dan", "Ann"], "Dan: you cannot target yourself")
    refused(HOUSE, "Dan", ["Ann", "left"], "two other players")
    refused(HOUSE, "Dan", ["Ann", "Zed"], "'Zed' is not a player")


def test_drunk_refusals() -> None:
    """rules/000 s4 Drunk: MUST choose one centre location (rules/002 s7: mandatory)."""
    refused(HOUSE, "Eve", [], "Eve: A drunk must swap")
    refused(HOUSE, "Eve", ["Ann"], "A drunk must swap")
    refused(HOUSE, "Eve", ["left", "right"], "A drunk must swap")
    refused(HOUSE, "Eve", ["Eve"], "Eve: you cannot target yourself")
    # Leaving the drunk out of the night entirely is the same as sending nothing.
    with pytest.raises(IllegalActionError, match="Eve: A drunk must swap"):
        resolve_night(HOUSE, {})


def test_lone_werewolf_peeks_at_one_centre_card_only() -> None:
    """rules/000 s6b: the lone werewolf may view ONE of the centre roles."""
    refused(HOUSE, "Ann", ["left", "right"], "A lone werewolf may look at one centre card")
    refused(HOUSE, "Ann", ["Ben"], "A lone werewolf may look at one centre card")
    refused(HOUSE, "Ann", ["Ann"], "Ann: you cannot target yourself")


def test_werewolf_with_a_partner_cannot_peek() -> None:
    """rules/000 s6b: only a werewolf alone at the start may view a centre card."""
    refused(PAIR, "Ann", ["left"], "Ann: You have nothing to do tonight")
    refused(PAIR, "Ben", ["middle"], "Ben: You have nothing to do tonight")


@pytest.mark.parametrize("player", ["Fay", "Gus", "Hal", "Ivy", "Kim", "Lou"])
def test_roles_without_an_action_take_no_targets(player: str) -> None:
    """rules/000 s4: insomniac, villager, minion, mason, hunter and tanner send no targets."""
    refused(HOUSE, player, ["Ann"], f"{player}: You have nothing to do tonight")
    refused(HOUSE, player, ["left"], f"{player}: You have nothing to do tonight")


def test_doppelganger_refusals() -> None:
    """rules/002 s5: the Doppelganger copies another PLAYER's card, then acts as that role."""
    refused(OFFICIAL, "Ann", ["Ann"], "Ann: you cannot target yourself")
    refused(OFFICIAL, "Ann", ["left"], "copies one other player's card first")
    refused(OFFICIAL, "Ann", ["Zed"], "'Zed' is not a player")
    # Copied seer: the seer's own shapes.
    refused(OFFICIAL, "Ann", ["Ben", "left"], "A seer looks at one other player")
    refused(OFFICIAL, "Ann", ["Ben", "Cat", "Dan"], "A seer looks at one other player")
    refused(OFFICIAL, "Ann", ["Ben", "Ann"], "Ann: you cannot target yourself")
    refused(OFFICIAL, "Ann", ["Ben", "left", "left"], "Ann: pick different targets")
    # Copied robber / troublemaker.
    refused(OFFICIAL, "Ann", ["Cat", "Ann"], "Ann: you cannot target yourself")
    refused(OFFICIAL, "Ann", ["Cat", "middle"], "A robber swaps")
    refused(OFFICIAL, "Ann", ["Dan", "Ben"], "two other players")
    refused(OFFICIAL, "Ann", ["Dan", "Ben", "Ben"], "Ann: pick different targets")
    refused(OFFICIAL, "Ann", ["Dan", "Ann", "Ben"], "Ann: you cannot target yourself")
    # A copied drunk must act (FORMAT.md: "a copied drunk must act").
    refused(OFFICIAL, "Ann", ["Eve"], "Ann: A drunk must swap")
    refused(OFFICIAL, "Ann", ["Eve", "Ben"], "A drunk must swap")
    refused(OFFICIAL, "Ann", ["Eve", "left", "right"], "A drunk must swap")


@pytest.mark.parametrize(
    ("model", "role"),
    [
        ("Fay", "Werewolf"),
        ("Gus", "Minion"),
        ("Hal", "Mason"),
        ("Jon", "Insomniac"),
        ("Kim", "Villager"),
        ("Lou", "Hunter"),
        ("Max", "Tanner"),
    ],
)
def test_doppelganger_copying_a_role_without_an_action_takes_no_more_targets(
    model: str, role: str
) -> None:
    """rules/002 s5: a Doppelganger werewolf/minion/mason wakes with them, a Doppelganger
    insomniac looks later; neither sends further targets. A copied lone werewolf cannot peek
    (the lone-werewolf rule is judged on the card dealt)."""
    refused(OFFICIAL, "Ann", [model, "left"], f"A Doppelganger who copies the {role} acts no")
    refused(OFFICIAL, "Ann", [model, "Ben"], f"A Doppelganger who copies the {role} acts no")


def test_stranger_actor_and_centre_actor_are_refused() -> None:
    """FORMAT.md "night": the keys are players; an unknown key is an error."""
    with pytest.raises(IllegalActionError, match="'Zed' is not a player in this game"):
        resolve_night(HOUSE, {"Eve": ["left"], "Zed": []})
    with pytest.raises(IllegalActionError, match="'left' is not a player in this game"):
        resolve_night(HOUSE, {"Eve": ["left"], "left": []})
    with pytest.raises(IllegalActionError, match="'Zed' is not a player in this game"):
        validate_action(HOUSE, "Zed", [])


def test_targets_must_be_a_list_of_strings() -> None:
    """FORMAT.md "night": a list of names or centre positions."""
    with pytest.raises(IllegalActionError, match="Ben: the targets must be a list"):
        validate_action(HOUSE, "Ben", "Ann")
    with pytest.raises(IllegalActionError, match="Ben: every target must be a name"):
        validate_action(HOUSE, "Ben", [3])  # type: ignore[list-item]
    with pytest.raises(IllegalActionError, match="Ben: every target must be a name"):
        validate_action(HOUSE, "Ben", [None, None])  # type: ignore[list-item]


def test_action_rules_say_which_roles_must_act() -> None:
    """rules/002 s7: optional Doppelganger/seer/robber/troublemaker/insomniac; mandatory drunk."""
    assert action_rule(HOUSE, "Eve").requirement is Requirement.MANDATORY
    for player in ("Ann", "Ben", "Cat", "Dan"):
        assert action_rule(HOUSE, player).requirement is Requirement.OPTIONAL
    for player in ("Fay", "Gus", "Hal", "Ivy", "Kim", "Lou"):
        assert action_rule(HOUSE, player).requirement is Requirement.NONE
    assert action_rule(PAIR, "Ann").requirement is Requirement.NONE
    assert action_rule(OFFICIAL, "Ann").role is Role.DOPPELGANGER
    assert copied_action_rule(Role.DRUNK).requirement is Requirement.MANDATORY
    assert copied_action_rule(Role.WEREWOLF).requirement is Requirement.NONE


def test_an_illegal_action_changes_nothing() -> None:
    """engine: a refused night is refused whole, other players' legal actions included."""
    with pytest.raises(IllegalActionError):
        resolve_night(HOUSE, {"Cat": ["Ann"], "Eve": ["left"], "Ben": ["Ben"]})
    assert HOUSE.cards["Cat"] is Role.ROBBER
    assert HOUSE.cards["Ann"] is Role.WEREWOLF
