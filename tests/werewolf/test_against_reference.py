"""The engine against an independent resolver of FORMAT.md (tests/werewolf/reference/),
written from the format alone by another hand: the same output for random legal games of every
ruleset, and an error from both for the same broken scenarios (any message)."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from games.families.werewolf.engine.errors import RuleError
from games.families.werewolf.engine.scenario import run_scenario

from .reference import generate, reference


def _result(run: Any, scenario: dict, error: type[Exception]) -> dict:
    try:
        return run(scenario)
    except error as caught:
        return {"error": str(caught)}


def _numbers_by_value(value: Any) -> Any:
    """FORMAT: outputs compare as JSON, numbers by value (2 == 2.0)."""
    if isinstance(value, dict):
        return {k: _numbers_by_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers_by_value(v) for v in value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return value


# A deeper run: WEREWOLF_REFERENCE_GAMES=20000 pytest tests/werewolf/test_against_reference.py
GAMES = int(os.environ.get("WEREWOLF_REFERENCE_GAMES", "300"))


@pytest.mark.parametrize("ruleset", ["forum", "oxford", "classic"])
@pytest.mark.parametrize("illegal_rate", [0.0, 0.3], ids=["legal", "some-broken"])
def test_engine_agrees_with_the_reference(ruleset: str, illegal_rate: float) -> None:
    rng = random.Random(f"{ruleset}-{illegal_rate}")
    for _ in range(GAMES):
        scenario = generate.random_scenario(rng, ruleset, illegal_rate)
        ours = _result(run_scenario, scenario, RuleError)
        theirs = _result(reference.play, scenario, reference.ReferenceError_)
        if "error" in ours or "error" in theirs:
            assert ("error" in ours) == ("error" in theirs), (scenario, ours, theirs)
        else:
            assert _numbers_by_value(ours) == _numbers_by_value(theirs), scenario
