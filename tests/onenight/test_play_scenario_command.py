"""`manage.py play_scenario FILE` end to end (FORMAT.md): one object in, one object out; JSON
Lines in, one line out per line; a broken single scenario exits with status 2 and a message on
stderr naming the player; "-" reads standard input. No database is touched."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.families.onenight.engine.scenario import run_scenario

from .builders import SCENARIOS

EXAMPLES = (SCENARIOS / "examples.jsonl").read_text(encoding="utf-8").splitlines()
EXPECTED = (SCENARIOS / "expected.jsonl").read_text(encoding="utf-8").splitlines()
GOOD = EXAMPLES[0]
SELF_VOTE = EXAMPLES[-1]  # Dan votes for Dan


def play(path: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("play_scenario", path, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_one_object_prints_one_object(tmp_path: Path) -> None:
    """FORMAT.md: a file with one JSON object prints one JSON object."""
    file = tmp_path / "one.json"
    file.write_text(GOOD + "\n", encoding="utf-8")
    out, err = play(str(file))
    assert err == ""
    assert out.count("\n") == 1
    assert json.loads(out) == run_scenario(json.loads(GOOD))


def test_pretty_printed_object_is_one_scenario(tmp_path: Path) -> None:
    """FORMAT.md: one JSON object may span several lines; it is still one scenario."""
    file = tmp_path / "pretty.json"
    file.write_text(json.dumps(json.loads(GOOD), indent=2), encoding="utf-8")
    out, _ = play(str(file))
    assert out.count("\n") == 1
    assert json.loads(out) == run_scenario(json.loads(GOOD))


def test_examples_file_prints_the_expected_lines(tmp_path: Path) -> None:
    """FORMAT.md: JSON Lines give exactly one result line per input line, in order; the
    shared examples print their expected lines byte for byte (errors: any message)."""
    out, err = play(str(SCENARIOS / "examples.jsonl"))
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == len(EXPECTED)
    for got, want in zip(lines, EXPECTED, strict=True):
        if "error" in json.loads(want):
            assert set(json.loads(got)) == {"error"}
        else:
            assert got == want


def test_json_lines_with_error_lines(tmp_path: Path) -> None:
    """FORMAT.md "Errors": in JSON Lines mode a broken line prints {"error": ...} and the run
    goes on with the next line."""
    lines = [GOOD, "this is not json", SELF_VOTE, "[1, 2]", '{"players": 3}', GOOD]
    file = tmp_path / "many.jsonl"
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, _ = play(str(file))
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(lines)
    assert results[0] == results[-1] == run_scenario(json.loads(GOOD))
    for bad in results[1:-1]:
        assert set(bad) == {"error"}
    assert "Not valid JSON" in results[1]["error"]
    assert "Dan" in results[2]["error"]


def test_bad_single_scenario_exits_2_naming_the_player(tmp_path: Path) -> None:
    """FORMAT.md "Errors": for one scenario the message goes to stderr, naming the player, and
    the exit status is 2; nothing is printed on stdout."""
    file = tmp_path / "bad.json"
    file.write_text(SELF_VOTE, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("play_scenario", str(file), stdout=out, stderr=err)
    assert exited.value.code == 2
    assert "Dan" in err.getvalue()
    assert "yourself" in err.getvalue()
    assert out.getvalue() == ""


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{not json", "Not valid JSON"),
        ("[]", "JSON object"),
        ('{"players": ["Ann", "Ben"], "deal": {}}', "3 to 13 players"),
    ],
)
def test_other_single_errors_exit_2(tmp_path: Path, text: str, needle: str) -> None:
    """FORMAT.md "Errors": any broken single scenario exits with status 2 and a message."""
    file = tmp_path / "bad.json"
    file.write_text(text, encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("play_scenario", str(file), stdout=io.StringIO(), stderr=err)
    assert exited.value.code == 2
    assert needle in err.getvalue()


def test_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """FORMAT.md: FILE may be - for standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(GOOD))
    out, _ = play("-")
    assert json.loads(out) == run_scenario(json.loads(GOOD))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join([GOOD, SELF_VOTE]) + "\n"))
    out, _ = play("-")
    assert len(out.splitlines()) == 2


def test_missing_file_is_a_command_error(tmp_path: Path) -> None:
    """An unreadable FILE is reported, not a traceback."""
    with pytest.raises(CommandError, match="Cannot read"):
        play(str(tmp_path / "nope.json"))


def test_non_ascii_names_round_trip(tmp_path: Path) -> None:
    """Names are printed as written (ensure_ascii=False), in UTF-8."""
    scenario = json.loads(GOOD)
    text = json.dumps(scenario).replace("Eve", "Zoë")
    file = tmp_path / "utf8.json"
    file.write_text(text, encoding="utf-8")
    out, _ = play(str(file))
    assert "Zoë" in out
    assert json.loads(out)["final"]["Zoë"] == "villager"


def test_json_too_deep_to_parse_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """FORMAT.md "Errors": a single broken scenario exits with status 2 and a message."""
    file = tmp_path / "deep.json"
    file.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(SystemExit) as exited:
        play(str(file))
    assert exited.value.code == 2
