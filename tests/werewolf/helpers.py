"""Small builders for multi-night scenarios: a table from a list of roles, and the runner."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.families.werewolf.engine.errors import RuleError
from games.families.werewolf.engine.scenario import run_scenario

SCENARIOS = Path(__file__).resolve().parents[2].parent / "shared" / "scenarios" / "werewolf"
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lee")


def table(*roles: str) -> dict[str, str]:
    """Roles dealt to Ann, Ben, Cat... in seat order."""
    return dict(zip(NAMES, roles, strict=False))


def play(ruleset: str, roles: dict[str, str], *phases: dict[str, Any], **extra: Any) -> dict:
    """The runner's result for a scenario of these roles and phases."""
    scenario = {"ruleset": ruleset, "players": list(roles), "roles": roles, "phases": list(phases)}
    scenario.update(extra)
    return run_scenario(scenario)


def refused(ruleset: str, roles: dict[str, str], *phases: dict[str, Any], **extra: Any) -> str:
    """The message of the error the runner raises for this scenario."""
    with pytest.raises(RuleError) as caught:
        play(ruleset, roles, *phases, **extra)
    message = str(caught.value)
    assert message
    return message


def night(**actions: Any) -> dict[str, Any]:
    return {"night": {"actions": actions}}


def day(**body: Any) -> dict[str, Any]:
    return {"day": body}
