"""A Daybreak night played online through the services (docs/rules.md 8a): the shield, the
witch, the village idiot and the curator's artifact, with the stored artifact pile."""

from __future__ import annotations

import pytest

from games.families.onenight.engine import Artifact, Role
from games.families.onenight.engine.messages import night_report
from tests.factories import deal_game, night_action

pytestmark = pytest.mark.django_db

DAYBREAK_FIVE = {
    "Ann": "sentinel",
    "Ben": "witch",
    "Cat": "village_idiot",
    "Dan": "curator",
    "Eve": "werewolf",
    "left": "villager",
    "middle": "hunter",
    "right": "villager",
}


def test_a_daybreak_night_online() -> None:
    table = deal_game("official", **DAYBREAK_FIVE)
    night_action(table, "Ann", ["Cat"])
    night_action(table, "Ben", ["left", "Eve"])
    night_action(table, "Cat", ["left"])
    night_action(table, "Dan", ["Ben"])
    night_action(table, "Eve", [])
    state = table.state()
    assert state.phase == "day"
    night = state.night()
    assert {p: r.value for p, r in night.final.items()} == {
        "Ann": "villager",
        "Ben": "sentinel",
        "Cat": "village_idiot",
        "Dan": "witch",
        "Eve": "curator",
        "left": "werewolf",
        "middle": "hunter",
        "right": "villager",
    }
    assert night.shields == ("Cat",)
    assert night.artifacts == {"Ben": Artifact.CLAW}  # the pile unshuffled: the claw first
    assert night.plays_as("Ben") is Role.WEREWOLF
    assert "Claw of the Werewolf" in " ".join(night_report(night, "Ben"))
