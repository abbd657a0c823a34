"""Vampire's night forms online (docs/rules.md 8b.7): each marking role's form offers only what
the night accepts, by seat id (issue 25), in the order the engine reads it; the Gremlin's
"marks" or "cards" and the Marksman's "-" are the only words a form posts besides the centre's
places; the Copycat copies a centre card first, then acts as it."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from games.families.onenight.engine import Role, RuleError, validate_action
from games.families.onenight.panels import ActionForm, action_form
from games.families.onenight.play import OneNightState, named_targets
from games.tables.family import FamilyError

PLAYERS = [[1, "Ann"], [2, "Ben"], [3, "Cat"], [4, "Dan"], [5, "Eve"]]
IDS = {n: str(i) for i, n in PLAYERS}
OTHERS = ["2", "3", "4", "5"]
EVERYONE = ["1", *OTHERS]


def _state(first: Role, actions: dict[str, Any] | None = None, **cards: str) -> OneNightState:
    dealt = {"Ann": first.value, "Ben": "werewolf", "Cat": "villager", "Dan": "tanner",
             "Eve": "seer", "left": "seer", "middle": "vampire", "right": "drunk"}  # fmt: skip
    dealt |= cards
    return OneNightState(
        {"ruleset": "official", "phase": "night", "players": PLAYERS, "cards": dealt,
         "actions": actions or {}, "ready": [], "ring": [1, 2, 3, 4, 5], "votes": {}}
    )  # fmt: skip


def _form(state: OneNightState) -> ActionForm:
    form = action_form(state, "Ann", state.actions.get("Ann"))
    assert form is not None
    return form


def _legal(state: OneNightState, values: list[str]) -> bool:
    sent = list(state.actions["Ann"]["targets"]) if "Ann" in state.actions else []
    try:
        validate_action(state.deal, "Ann", [*sent, *named_targets(state, values)])
    except RuleError:
        return False
    return True


@pytest.mark.parametrize(
    ("role", "offered", "must"),
    [
        (Role.VAMPIRE, OTHERS, True),
        (Role.THE_MASTER, OTHERS, True),
        (Role.DISEASED, ["2", "5"], True),  # the neighbours only
        (Role.INSTIGATOR, EVERYONE, False),
        (Role.PRIEST, OTHERS, False),
        (Role.PICKPOCKET, OTHERS, False),
        (Role.ASSASSIN, EVERYONE, True),
        (Role.APPRENTICE_ASSASSIN, EVERYONE, True),
    ],
)
def test_a_one_player_form_offers_only_legal_players(
    role: Role, offered: list[str], must: bool
) -> None:
    state = _state(role, Eve="villager")
    form = _form(state)
    assert form.kind == "choice"
    assert sorted(c.value for c in form.choices) == offered
    assert form.allow_none is not must
    assert all(_legal(state, [c.value]) for c in form.choices)
    assert [c.label for c in form.choices if c.value == "1"] in ([], ["yourself"])
    # Everything the form leaves out is refused by the night.
    for value in sorted(set(EVERYONE) - set(offered)):
        assert not _legal(state, [value]), value


def test_the_counts_form_is_the_pick_then_the_mark_of_fear() -> None:
    state = _state(Role.THE_COUNT)
    form = _form(state)
    assert form.kind == "selects" and not form.words and not form.allow_none
    assert [f.label for f in form.selects] == ["The vampires' pick", "The Mark of Fear"]
    for field in form.selects:
        assert field.blank and [c.value for c in field.choices] == OTHERS
    for pick, fear in product(OTHERS, OTHERS):
        assert _legal(state, [pick, fear]) is (pick != fear), (pick, fear)


def test_cupids_form_is_two_players_himself_allowed_or_nobody() -> None:
    state = _state(Role.CUPID)
    form = _form(state)
    assert form.kind == "selects" and form.allow_none and not form.words
    assert form.button == "Make them lovers"
    for field in form.selects:
        assert [c.value for c in field.choices] == EVERYONE
    assert _legal(state, ["1", "3"]) and _legal(state, ["4", "2"])
    assert not _legal(state, ["3", "3"]) and not _legal(state, ["3"])


def test_the_marksmans_form_offers_nobody_first_for_the_card_and_the_mark() -> None:
    state = _state(Role.MARKSMAN)
    form = _form(state)
    assert form.kind == "selects" and form.allow_none
    assert [f.label for f in form.selects] == ["Look at the card of", "Look at the mark of"]
    for field in form.selects:
        assert not field.blank
        assert [c.value for c in field.choices] == ["-", *OTHERS]
        assert field.choices[0].label == "nobody"
    for card, mark in product(["-", *OTHERS], repeat=2):
        legal = _legal(state, [card, mark])
        assert legal is (card == "-" or card != mark), (card, mark)


def test_the_gremlins_form_posts_its_word_first() -> None:
    state = _state(Role.GREMLIN)
    form = _form(state)
    assert form.kind == "selects" and form.allow_none
    assert [w.value for w in form.words] == ["marks", "cards"]
    for field in form.selects:
        assert [c.value for c in field.choices] == EVERYONE  # himself allowed
    for word in ("marks", "cards"):
        assert _legal(state, [word, "1", "4"])
        assert not _legal(state, [word, "4", "4"])


def test_renfield_only_acknowledges() -> None:
    assert _form(_state(Role.RENFIELD)).kind == "none"


@pytest.mark.parametrize(
    ("position", "copied", "kind", "must"),
    [
        ("left", Role.SEER, "choice", False),
        ("middle", Role.VAMPIRE, "choice", True),
        ("right", Role.DRUNK, "choice", True),
    ],
)
def test_the_copycat_copies_a_centre_card_then_acts_as_it(
    position: str, copied: Role, kind: str, must: bool
) -> None:
    state = _state(Role.COPYCAT)
    first = _form(state)
    assert first.kind == "copy" and not first.allow_none
    assert [c.value for c in first.choices] == ["left", "middle", "right"]
    after = _state(Role.COPYCAT, {"Ann": {"targets": [position], "complete": False}})
    form = _form(after)
    assert form.copied is copied and form.kind == kind and form.allow_none is not must
    assert form.choices and all(_legal(after, [c.value]) for c in form.choices)


def test_a_doppelganger_that_copied_the_count_gets_the_counts_form() -> None:
    state = _state(Role.DOPPELGANGER, {"Ann": {"targets": ["Ben"], "complete": False}},
                   Ben="the_count")  # fmt: skip
    form = _form(state)
    assert form.copied is Role.THE_COUNT and form.kind == "selects"
    assert _legal(state, ["3", "4"]) and not _legal(state, ["3", "3"])


def test_the_words_a_form_posts_and_nothing_else() -> None:
    state = _state(Role.GREMLIN)
    assert named_targets(state, ["marks", "2", "3"]) == ["marks", "Ben", "Cat"]
    assert named_targets(state, ["cards", "2", "3"]) == ["cards", "Ben", "Cat"]
    assert named_targets(state, ["-", "2"]) == ["-", "Ben"]
    assert named_targets(state, ["2", "-"]) == ["Ben", "-"]
    for forged in (["2", "marks"], ["marks", "cards"], ["nobody"], ["--"], ["marks,2"],
                   ["Marks", "2", "3"], ["-,2"], ["Ben"]):  # fmt: skip
        with pytest.raises(FamilyError, match=r"Choose your targets from the list on the page\."):
            named_targets(state, forged)
