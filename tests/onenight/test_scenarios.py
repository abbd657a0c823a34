"""The shared examples (../shared/scenarios) give exactly the expected results.

FORMAT.md: every line of examples.jsonl has one line in expected.jsonl; an expected line holding
"error" means the scenario breaks a rule, and any error message is accepted for it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.families.onenight.engine.errors import RuleError
from games.families.onenight.engine.scenario import run_scenario
from games.scenario_files import play_text

from .builders import SCENARIOS


def _pairs() -> list[tuple[str, dict[str, Any]]]:
    examples = (SCENARIOS / "examples.jsonl").read_text(encoding="utf-8").splitlines()
    expected = (SCENARIOS / "expected.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(examples) == len(expected), "examples.jsonl and expected.jsonl must line up"
    return [(line, json.loads(want)) for line, want in zip(examples, expected, strict=True)]


PAIRS = _pairs()


@pytest.mark.parametrize(("line", "want"), PAIRS, ids=[f"line{i + 1}" for i in range(len(PAIRS))])
def test_example_gives_expected(line: str, want: dict[str, Any]) -> None:
    """FORMAT.md "Output" and "Errors": each example gives its expected line."""
    if "error" in want:
        with pytest.raises(RuleError) as caught:
            run_scenario(json.loads(line))
        assert str(caught.value)
        assert set(play_text(run_scenario, line)) == {"error"}
    else:
        assert run_scenario(json.loads(line)) == want
        assert play_text(run_scenario, line) == want


def test_examples_cover_both_rulesets_and_an_error() -> None:
    """The example file is a meaningful check: both rulesets and at least one error line."""
    rulesets = {json.loads(line).get("ruleset", "house") for line, _ in PAIRS}
    assert rulesets == {"house", "official"}
    assert any("error" in want for _, want in PAIRS)
