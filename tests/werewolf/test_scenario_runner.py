"""The runner against the shared examples, and `manage.py play_werewolf` end to end (FORMAT.md:
one object in, one out; JSON Lines, one line per line; a broken single scenario exits 2 with a
message naming the phase and the player; malformed input is an error, never a guess)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from games.families.werewolf.engine.errors import RuleError
from games.families.werewolf.engine.scenario import run_scenario
from games.scenario_files import play_text

from .helpers import SCENARIOS, refused, table

EXAMPLES = (SCENARIOS / "examples.jsonl").read_text(encoding="utf-8").splitlines()
EXPECTED = [json.loads(line) for line in (SCENARIOS / "expected.jsonl").read_text().splitlines()]


@pytest.mark.parametrize(
    ("line", "want"),
    list(zip(EXAMPLES, EXPECTED, strict=True)),
    ids=[f"line{i + 1}" for i in range(len(EXAMPLES))],
)
def test_example_gives_expected(line: str, want: dict[str, Any]) -> None:
    """Every shared example prints its expected line (errors: any message)."""
    if "error" in want:
        with pytest.raises(RuleError):
            run_scenario(json.loads(line))
        assert set(play_text(run_scenario, line)) == {"error"}
    else:
        assert run_scenario(json.loads(line)) == want


def play_file(path: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("play_werewolf", path, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_examples_file_prints_one_line_per_line() -> None:
    out, err = play_file(str(SCENARIOS / "examples.jsonl"))
    assert err == ""
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == len(EXPECTED)
    for got, want in zip(lines, EXPECTED, strict=True):
        assert ("error" in got) == ("error" in want)
        if "error" not in want:
            assert got == want


def test_one_object_prints_one_object(tmp_path: Path) -> None:
    file = tmp_path / "one.json"
    file.write_text(json.dumps(json.loads(EXAMPLES[0]), indent=2), encoding="utf-8")
    out, _ = play_file(str(file))
    assert json.loads(out) == EXPECTED[0]


def test_a_broken_single_scenario_exits_2_with_the_phase_and_player(tmp_path: Path) -> None:
    file = tmp_path / "bad.json"
    file.write_text(EXAMPLES[11], encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("play_werewolf", str(file), stdout=io.StringIO(), stderr=err)
    assert caught.value.code == 2
    assert "night 2" in err.getvalue() and "Ben" in err.getvalue()


def test_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(EXAMPLES[0] + "\n" + "not json\n"))
    out = io.StringIO()
    call_command("play_werewolf", "-", stdout=out)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first == EXPECTED[0]
    assert set(second) == {"error"}


SEVEN = table("werewolf", "werewolf", "lunatic", "seer", "protector", "villager", "villager")


@pytest.mark.parametrize(
    "scenario",
    [
        [],
        {"players": list(SEVEN), "roles": SEVEN},
        {"ruleset": "mafia", "players": list(SEVEN), "roles": SEVEN},
        {"ruleset": "forum", "players": list(SEVEN), "roles": SEVEN, "moon": 1},
        {"ruleset": "forum", "players": list(SEVEN), "roles": SEVEN, "crossbows": []},
        {"ruleset": "forum", "players": list(SEVEN), "roles": SEVEN, "options": None},
        {"ruleset": "forum", "players": list(SEVEN), "roles": SEVEN, "phases": {}},
        {"ruleset": "forum", "players": list(SEVEN), "roles": {**SEVEN, "Zed": "villager"}},
        {"ruleset": "forum", "players": list(SEVEN), "roles": {**SEVEN, "Ann": "vampire"}},
        {"ruleset": "forum", "players": [*SEVEN, "Ann"], "roles": SEVEN},
        {"ruleset": "forum", "players": [*SEVEN, "nobody"], "roles": {**SEVEN, "nobody": "x"}},
        {"ruleset": "forum", "players": ["Ann", "Ben", "Cat"], "roles": SEVEN},
        {"ruleset": "forum", "players": [*SEVEN, ""], "roles": {**SEVEN, "": "villager"}},
        {"ruleset": "forum", "players": list(SEVEN), "roles": SEVEN, "phases": [{"dusk": {}}]},
        {
            "ruleset": "forum",
            "players": list(SEVEN),
            "roles": SEVEN,
            "phases": [{"night": {}, "day": {}}],
        },
        {
            "ruleset": "forum",
            "players": list(SEVEN),
            "roles": SEVEN,
            "phases": [{"night": {}}, {"night": {}}],
        },
        {
            "ruleset": "forum",
            "players": list(SEVEN),
            "roles": SEVEN,
            "phases": [{"night": {"actions": {"Ann": {}}}}],
        },
        {
            "ruleset": "forum",
            "players": list(SEVEN),
            "roles": SEVEN,
            "phases": [{"night": {"actions": {"Ann": {"kill": "Dan", "see": "Ben"}}}}],
        },
        {
            "ruleset": "forum",
            "players": list(SEVEN),
            "roles": SEVEN,
            "phases": [{"night": {"actions": {"Fay": {"kill": "Dan"}}}}],
        },
        {
            "ruleset": "forum",
            "players": list(SEVEN),
            "roles": SEVEN,
            "phases": [{"night": {"sleep": True}}],
        },
        {
            "ruleset": "forum",
            "players": list(SEVEN),
            "roles": SEVEN,
            "phases": [{"day": {"votes": {"Ann": 3}}}],
        },
        {"ruleset": "oxford", "players": list(SEVEN), "roles": SEVEN},
        {
            "ruleset": "classic",
            "players": ["A", "B", "C", "D"],
            "roles": {"A": "werewolf", "B": "seer", "C": "villager", "D": "villager"},
            "phases": [{"day": {}}],
        },
    ],
)
def test_malformed_scenarios_are_errors(scenario: Any) -> None:
    """FORMAT: keys not named are errors; an unknown role or ruleset, a bad deal, a phase
    out of turn, an empty action {} are errors, never guesses."""
    with pytest.raises(RuleError):
        run_scenario(scenario)


def test_an_error_names_the_phase_and_the_player() -> None:
    message = refused("forum", SEVEN, {"night": {"actions": {"Dan": {"see": "Dan"}}}})
    assert message.startswith("night 1: Dan")
