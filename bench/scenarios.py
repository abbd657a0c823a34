"""Benchmark the scenario runner: N random legal games through `manage.py play_scenario`.

    python bench/scenarios.py [--count N] [--seed S] [--keep FILE]

Generates N random VALID scenarios (../shared/scenarios/FORMAT.md) from a fixed seed, so runs
are comparable: a random ruleset, 3 to 12 (house) or 13 (official) players, a deck within the
limits of rules/000 s4 (official: masons in pairs, the Doppelganger allowed), a legal night
action for every start card (rules/000 s4 and s6b, rules/002 s5, the Doppelganger's copied
action included) and a vote for another player from everyone. They are written as JSON Lines
to a temporary file and played by ONE `python manage.py play_scenario FILE` process.

Prints the number of scenarios, the wall and CPU time of the whole command (Django start-up
included), the number of error lines (must be 0) and the in-process time of `run_scenario` alone.
The target is under 2 s wall for 10,000 scenarios on a 2-core machine. Exit status 1 when any
line is an error or the output does not have one line per scenario.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.families.onenight.engine.roles import CENTRE_POSITIONS, Ruleset, role_limits  # noqa: E402
from games.families.onenight.engine.scenario import run_scenario  # noqa: E402

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Max")
MAX_TABLE = {"house": 12, "official": 13}
CENTRE = list(CENTRE_POSITIONS)


def _pool(ruleset: str) -> list[str]:
    """Every card the ruleset allows, each as many times as its limit (rules/000 s4)."""
    return [r.value for r, n in role_limits(Ruleset(ruleset)).items() for _ in range(n)]


POOLS = {name: _pool(name) for name in MAX_TABLE}


def _deck(rng: random.Random, ruleset: str, size: int) -> list[str]:
    """`size` cards in random order; official masons come in pairs (rules/002 s5)."""
    cards = list(POOLS[ruleset])
    rng.shuffle(cards)
    hand, rest = cards[:size], cards[size:]
    if ruleset == "official" and hand.count("mason") == 1:
        spare = [c for c in rest if c != "mason"]
        if spare:
            hand[hand.index("mason")] = spare[0]
        else:
            hand[next(i for i, c in enumerate(hand) if c != "mason")] = "mason"
    return hand


def _targets(rng: random.Random, role: str, actor: str, players: list[str], lone: bool) -> list:
    """A legal target list for `actor` acting as `role`; "may" actions are sometimes declined."""
    others = [p for p in players if p != actor]
    if role == "drunk":
        return [rng.choice(CENTRE)]
    if role not in ("seer", "robber", "troublemaker") and not (role == "werewolf" and lone):
        return []
    if rng.random() < 0.15:
        return []
    if role == "seer":
        return [rng.choice(others)] if rng.random() < 0.5 else rng.sample(CENTRE, 2)
    if role == "robber":
        return [rng.choice(others)]
    if role == "troublemaker":
        return rng.sample(others, 2)
    return [rng.choice(CENTRE)]  # the lone werewolf's peek (rules/000 s6b)


def random_scenario(rng: random.Random) -> dict[str, Any]:
    """One legal scenario (FORMAT.md) with votes."""
    ruleset = rng.choice(("house", "official"))
    count = rng.randint(3, MAX_TABLE[ruleset])
    players = rng.sample(NAMES, count)
    deal = dict(zip([*players, *CENTRE], _deck(rng, ruleset, count + 3), strict=True))
    wolves = [p for p in players if deal[p] == "werewolf"]
    night: dict[str, list[str]] = {}
    for player in players:
        role = deal[player]
        if role == "doppelganger":
            if rng.random() < 0.1:
                targets: list[str] = []
            else:
                model = rng.choice([p for p in players if p != player])
                targets = [model, *_targets(rng, deal[model], player, players, lone=False)]
        else:
            targets = _targets(rng, role, player, players, lone=wolves == [player])
        if targets or rng.random() < 0.5:
            night[player] = targets
    votes = {p: rng.choice([o for o in players if o != p]) for p in players}
    if rng.random() < 0.05:
        votes[rng.choice(players)] = None  # a vote missed at the deadline
    return {"ruleset": ruleset, "players": players, "deal": deal, "night": night, "votes": votes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=10_000, help="scenarios (default 10000)")
    parser.add_argument("--seed", type=int, default=20260101, help="generator seed")
    parser.add_argument("--keep", type=Path, help="also write the scenarios to this file")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    started = time.perf_counter()
    scenarios = [random_scenario(rng) for _ in range(args.count)]
    lines = [json.dumps(s) for s in scenarios]
    generated = time.perf_counter() - started

    with tempfile.NamedTemporaryFile(
        "w", suffix=".jsonl", prefix="scenarios-", delete=False, encoding="utf-8"
    ) as handle:
        handle.write("\n".join(lines) + "\n")
        path = Path(handle.name)
    if args.keep:
        args.keep.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "onenight.settings"}
    command = [sys.executable, str(ROOT / "manage.py"), "play_scenario", str(path)]
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    finally:
        path.unlink(missing_ok=True)
    out_lines = done.stdout.splitlines()
    errors = [line for line in out_lines if line.startswith('{"error"')]

    # In process: json.loads + run_scenario + json.dumps, like the command's inner loop, and
    # run_scenario alone on already-parsed scenarios.
    started = time.perf_counter()
    for line in lines:
        json.dumps(run_scenario(json.loads(line)), ensure_ascii=False)
    with_json = time.perf_counter() - started
    started = time.perf_counter()
    for scenario in scenarios:
        run_scenario(scenario)
    resolving = time.perf_counter() - started

    print(f"scenarios:               {args.count} (seed {args.seed})")
    print(f"generation:              {generated:.3f} s")
    print(f"play_scenario wall time: {wall:.3f} s (one process, Django start-up included)")
    print(f"play_scenario CPU time:  {cpu:.3f} s (user + system; steadier on a busy machine)")
    print(f"output lines:            {len(out_lines)} (exit status {done.returncode})")
    print(f"error lines:             {len(errors)}")
    print(
        f"in-process run_scenario: {resolving:.3f} s"
        f" ({resolving / max(args.count, 1) * 1e6:.0f} us per scenario);"
        f" with json load/dump {with_json:.3f} s"
    )
    for line in errors[:5]:
        print(f"  e.g. {line}")
    if done.returncode != 0:
        print(done.stderr[-2000:], file=sys.stderr)
    ok = done.returncode == 0 and not errors and len(out_lines) == args.count
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
