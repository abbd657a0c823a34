"""Property tests (hypothesis) over random legal games and random broken input.

- cards are only moved, never created or lost (rules/000 s3a: the dealt cards are the deck);
- the result does not depend on the order the actions or votes were sent in (rules/000 s3b:
  actions are all sent at the same time and played in the fixed order of s8 / rules/002 s5);
- a player's night report names only what they saw (rules/000 s3b, s4);
- the engine agrees with the plain second reading of the rules in reference.py;
- the scenario runner never crashes: every line gives {"error": ...} or a result (FORMAT.md).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.families.onenight.engine import (
    CENTRE_POSITIONS,
    GameResult,
    Role,
    Ruleset,
    make_deal,
    play_game,
)
from games.families.onenight.engine.scenario import run_scenario
from games.scenario_files import play_text

from . import reference
from .strategies import JSON, json_values, mutated_scenarios, scenarios
from .views import report_leaks

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _game(scenario: JSON) -> GameResult:
    d = make_deal(Ruleset(scenario["ruleset"]), scenario["players"], scenario["deal"])
    return play_game(d, scenario["night"], scenario.get("votes"))


@FAST
@given(scenarios())
def test_legal_scenarios_play_and_only_move_cards(scenario: JSON) -> None:
    """rules/000 s3a: the multiset of cards at dawn is the dealt multiset, at the same
    positions (players in seat order, then left, middle, right)."""
    result = run_scenario(scenario)
    assert "error" not in result
    assert Counter(result["final"].values()) == Counter(scenario["deal"].values())
    assert list(result["final"]) == [*scenario["players"], *CENTRE_POSITIONS]
    assert list(result["seen"]) == scenario["players"]
    assert ("copied" in result) == (scenario["ruleset"] == "official")
    if "votes" in scenario:
        seat = {p: i for i, p in enumerate(scenario["players"])}
        for key in ("dead", "winners"):
            assert set(result[key]) <= set(seat)
            assert result[key] == sorted(result[key], key=seat.__getitem__)
    else:
        assert "dead" not in result and "winners" not in result
    json.dumps(result)


@FAST
@given(scenarios(), st.randoms(use_true_random=False))
def test_result_does_not_depend_on_the_order_of_actions_or_votes(scenario: JSON, rnd: Any) -> None:
    """rules/000 s3b / s8, rules/002 s5: actions are sent in at once and played in a fixed
    order, so the order of the "night" (and "votes") entries changes nothing."""
    shuffled = json.loads(json.dumps(scenario))
    night_items = list(shuffled["night"].items())
    rnd.shuffle(night_items)
    shuffled["night"] = dict(night_items)
    if "votes" in shuffled:
        vote_items = list(shuffled["votes"].items())
        rnd.shuffle(vote_items)
        shuffled["votes"] = dict(vote_items)
    a, b = run_scenario(scenario), run_scenario(shuffled)
    for key in ("final", "seen", "copied", "dead", "winners"):
        assert a.get(key) == b.get(key), key
    assert json.dumps(a) == json.dumps(b)  # even the printed key order is the same


@FAST
@given(scenarios())
def test_night_reports_name_only_what_was_seen(scenario: JSON) -> None:
    """rules/000 s3b, s4: a player's night report never names a position or a card the
    player did not see (design.md: a view never contains another player's secret)."""
    night = _game(scenario).night
    for player in night.deal.players:
        assert report_leaks(night, player) == [], player


@FAST
@given(scenarios(with_votes=True))
def test_vote_invariants(scenario: JSON) -> None:
    """rules/000 s6a: nobody with at most one vote is lynched, and when nobody has more than
    one vote nobody is lynched; everyone with the top count (>= 2) is, unless the house Tanner
    rule (s6c) stops it. Only a dead hunter (by final role) adds deaths (rules/000 s4)."""
    result = _game(scenario)
    vote = result.vote
    assert vote is not None and result.outcome is not None
    counts = Counter(c for c in scenario["votes"].values() if c is not None)
    top = max(counts.values(), default=0)
    if top <= 1:
        assert vote.lynched == ()
    elif vote.lynched:
        assert set(vote.lynched) == {p for p, n in counts.items() if n == top}
    else:
        # Only the house Tanner rule keeps a top count of 2+ from killing.
        assert scenario["ruleset"] == "house"
        assert all(result.night.plays_as(p) is not Role.WEREWOLF for p in scenario["players"])
    for shot in vote.hunted:
        shooters = [p for p in scenario["players"] if scenario["votes"][p] == shot]
        assert any(result.night.plays_as(p) is Role.HUNTER for p in shooters)
    assert set(vote.dead) == set(vote.lynched) | set(vote.hunted)


@FAST
@given(scenarios(with_votes=True))
def test_every_team_rule_holds(scenario: JSON) -> None:
    """rules/000 s2 / rules/002 s6 restated: a winner who is the Tanner (final) died; if a
    werewolf (final) died, every town player wins and no werewolf does."""
    result = _game(scenario)
    night, dead = result.night, set(result.vote.dead)  # type: ignore[union-attr]
    winners = set(result.outcome.winners)  # type: ignore[union-attr]
    role = {p: night.plays_as(p) for p in scenario["players"]}
    for p in winners:
        if role[p] is Role.TANNER:
            assert p in dead
    if any(role[p] is Role.WEREWOLF for p in dead):
        for p, r in role.items():
            team = r.team if r is not Role.DOPPELGANGER else None
            if team is not None and team.value == "town":
                assert p in winners, p
            if r in (Role.WEREWOLF, Role.MINION):
                assert p not in winners, p


# ---------------------------------------------------------------------------------------------
# The runner never crashes (FORMAT.md "Errors": an error, never a guess, never a traceback)


def _check_line(line: str) -> dict[str, Any]:
    out = play_text(run_scenario, line)
    assert isinstance(out, dict)
    assert ("error" in out) != ("final" in out), out
    if "error" in out:
        assert set(out) == {"error"}
        assert isinstance(out["error"], str) and out["error"]
    json.dumps(out, ensure_ascii=False)
    return out


@FUZZ
@given(json_values(24))
def test_runner_survives_any_json(value: Any) -> None:
    """FORMAT.md "Errors": any JSON value gives a result or {"error": ...}."""
    _check_line(json.dumps(value))


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(["ruleset", "players", "deal", "night", "votes"]), json_values(10)
    )
)
def test_runner_survives_any_object_with_the_right_keys(value: Any) -> None:
    """FORMAT.md "Errors": wrong types under the right keys are errors, not crashes."""
    _check_line(json.dumps(value))


@FUZZ
@given(mutated_scenarios())
def test_runner_survives_mutated_scenarios(value: Any) -> None:
    """A legal scenario with random edits gives an error or a result whose cards were only
    moved (rules/000 s3a)."""
    out = _check_line(json.dumps(value))
    if "final" in out:
        assert Counter(out["final"].values()) == Counter(value["deal"].values())


@FAST
@given(st.text(max_size=200))
def test_runner_survives_any_text(line: str) -> None:
    """FORMAT.md: a line that is not JSON is an error line."""
    _check_line(line)


def test_runner_survives_deep_nesting_the_engine_sees() -> None:
    """Nesting the JSON parser accepts (a few thousand levels) gives an error line."""
    _check_line("[" * 5_000 + "]" * 5_000)
    _check_line('{"players": ["Ann", "Ben", "Cat"], "deal": ' + "[" * 5_000 + "]" * 5_000 + "}")


def test_runner_survives_nesting_too_deep_for_the_json_parser() -> None:
    """FORMAT.md "Errors": even input too deep for json.loads is an error line, not a crash."""
    _check_line("[" * 100_000 + "]" * 100_000)


@FAST
@given(scenarios())
def test_engine_agrees_with_a_plain_reading_of_the_rules(scenario: JSON) -> None:
    """rules/000 s2, s4, s6, s8 and rules/002 s5, s6, as written out plainly in reference.py,
    give the same result as the engine for every legal scenario."""
    assert run_scenario(scenario) == reference.play(scenario)
