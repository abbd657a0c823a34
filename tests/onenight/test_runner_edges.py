"""The scenario runner on the edges of FORMAT.md: line counting and the format's own name rules."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from games.families.onenight.engine.scenario import run_scenario

SCENARIO = {
    "players": ["Ann", "Ben", "Cat"],
    "deal": {
        "Ann": "werewolf",
        "Ben": "seer",
        "Cat": "villager",
        "left": "villager",
        "middle": "drunk",
        "right": "tanner",
    },
    "night": {"Ben": ["Ann"]},
}


def run_lines(text: str, monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    out = io.StringIO()
    call_command("play_scenario", "-", stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_every_input_line_gets_exactly_one_result_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """FORMAT.md: one result line per input line, in order; a blank line is an error line."""
    line = json.dumps(SCENARIO)
    results = run_lines(f"{line}\n\n{line}\n", monkeypatch)
    assert len(results) == 3
    assert "final" in results[0] and "final" in results[2]
    assert set(results[1]) == {"error"}


def test_names_follow_the_format_not_the_web_app() -> None:
    """FORMAT.md asks only for distinct non-empty names other than left, middle and right: names
    that differ only in case, or longer than the web app's 24 characters, are fine here."""
    long_name = "Bartholomew the Magnificent of Somewhere"
    deal = dict(SCENARIO["deal"])
    deal["ann"] = deal.pop("Cat")
    deal[long_name] = deal.pop("Ben")
    scenario = {
        "players": ["Ann", long_name, "ann"],
        "deal": deal,
        "night": {long_name: ["Ann"]},
    }
    result = run_scenario(scenario)
    assert result["seen"][long_name] == {"Ann": "werewolf"}
    with pytest.raises(ValueError, match="centre card"):
        run_scenario({**scenario, "players": ["Ann", long_name, "left"]})
