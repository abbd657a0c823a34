"""Benchmark the multi-night engine: random 12-player games played to their end, per ruleset.

    python bench/werewolf.py [--games N] [--players P] [--seed S] [--rulesets forum,oxford,classic]

Each game is dealt along the documents' line-ups (games/families/werewolf/engine/autoplay.py)
and played through the engine's public API: every move is chosen from `forms_for` and sent
with `apply`, each night closed and each decision answered as a table would, until a side
wins. One process, one core; the random player's own work is counted with the engine's, since
a table's client does that work too. Prints, per ruleset, whole games per second, the mean
phases, moves and events per game, the time per move, and how the games ended. The target is
at least 1,000 games per second per ruleset on one core (issue 24); the numbers are written
up in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.families.werewolf.engine.autoplay import random_game  # noqa: E402
from games.families.werewolf.engine.events import MoveMade, PhaseBegan  # noqa: E402


def run(ruleset: str, games: int, players: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    random_game(ruleset, random.Random(seed + 1), players)  # warm up imports and caches
    phases = moves = events = 0
    winners: Counter[str] = Counter()
    gc.collect()
    started = time.process_time()
    finished = []
    for _ in range(games):
        finished.append(random_game(ruleset, rng, players))
    seconds = time.process_time() - started
    for game in finished:
        log = game.log
        events += len(log)
        moves += sum(1 for e in log if isinstance(e, MoveMade))
        phases += sum(1 for e in log if isinstance(e, PhaseBegan))
        outcome = game.state.outcome
        winners[outcome.winner if outcome else "(unfinished)"] += 1
    return {
        "games_per_second": games / seconds,
        "phases": phases / games,
        "moves": moves / games,
        "events": events / games,
        "us_per_move": seconds / moves * 1e6,
        "winners": dict(winners),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rulesets", default="forum,oxford,classic")
    args = parser.parse_args()
    print(f"{args.games} random {args.players}-player games per ruleset, CPU time of one process")
    for ruleset in args.rulesets.split(","):
        r = run(ruleset, args.games, args.players, args.seed)
        print(
            f"{ruleset:8} {r['games_per_second']:7.0f} games/s   "
            f"{r['phases']:4.1f} phases  {r['moves']:5.1f} moves  {r['events']:6.1f} events "
            f"per game   {r['us_per_move']:5.1f} µs per move   ended: {r['winners']}"
        )


if __name__ == "__main__":
    main()
