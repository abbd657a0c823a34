"""Daybreak's night forms online: each new action has a form whose every choice the night
accepts (docs/rules.md 8a; the page posts seat ids and centre positions, issue 25)."""

from __future__ import annotations

import pytest

from games.families.onenight.engine import CENTRE_WOLF, Role, validate_action
from games.families.onenight.panels import action_form
from games.families.onenight.play import OneNightState, named_targets

PLAYERS = [[1, "Ann"], [2, "Ben"], [3, "Cat"], [4, "Dan"]]


def _state(first: Role) -> OneNightState:
    cards = {"Ann": first.value, "Ben": "werewolf", "Cat": "villager", "Dan": "tanner"}
    cards |= {"left": "villager", "middle": "hunter", "right": "villager"}
    if first is Role.ALPHA_WOLF:
        cards[CENTRE_WOLF] = "werewolf"
    return OneNightState(
        {"ruleset": "official", "phase": "night", "players": PLAYERS, "cards": cards,
         "actions": {}, "ready": [], "ring": [1, 2, 3, 4], "votes": {}}
    )  # fmt: skip


@pytest.mark.parametrize(
    "role",
    [
        Role.SENTINEL,
        Role.ALPHA_WOLF,
        Role.MYSTIC_WOLF,
        Role.APPRENTICE_SEER,
        Role.PARANORMAL_INVESTIGATOR,
        Role.WITCH,
        Role.VILLAGE_IDIOT,
        Role.REVEALER,
        Role.CURATOR,
    ],
)
def test_every_choice_of_a_daybreak_form_is_a_legal_action(role: Role) -> None:
    state = _state(role)
    form = action_form(state, "Ann", None)
    assert form is not None and form.kind == "choice" and form.choices
    for choice in form.choices:
        targets = named_targets(state, [choice.value])
        validate_action(state.deal, "Ann", targets)
    if role is Role.WITCH:
        assert any(c.value == "left,1" for c in form.choices)  # her own card
    if role is Role.ALPHA_WOLF:
        assert [c.value for c in form.choices] == ["3", "4"]
        assert not form.allow_none


def test_the_reveal_names_the_tokens() -> None:
    """The reveal lists the shields, face-up cards, artifacts and the centre werewolf card."""
    from games.families.onenight.engine import Artifact, make_deal, resolve_night
    from games.families.onenight.engine.roles import Ruleset
    from games.families.onenight.panels import daybreak_tokens

    cards = {"Ann": "sentinel", "Ben": "alpha_wolf", "Cat": "revealer", "Dan": "curator"}
    cards |= {"left": "villager", "middle": "hunter", "right": "villager", CENTRE_WOLF: "werewolf"}
    deal = make_deal(
        Ruleset.OFFICIAL, ["Ann", "Ben", "Cat", "Dan"], cards, artifacts=[Artifact.MASK]
    )
    night = resolve_night(deal, {"Ann": ["Cat"], "Ben": ["Dan"], "Cat": ["Ann"], "Dan": ["Ann"]})
    assert daybreak_tokens(night) == (
        "A shield lay on Cat's card.",
        "Ann's card lay face up.",
        "Ann held the Mask of Muting.",
        "The centre werewolf card: Werewolf, at dawn Curator.",
    )
