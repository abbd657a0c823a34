"""Benchmark the multi-night engine: random 12-player games played to their end, per ruleset.

    python bench/werewolf.py [--games N] [--players P] [--seed S] [--rulesets forum,oxford,classic]

Each game is dealt along the documents' line-ups (games/families/werewolf/engine/autoplay.py)
and played through the engine's public API by a random client: every move is chosen from
`forms_for` and sent with `apply`, each night closed and each decision answered as a table
would, until a side wins. Two figures per ruleset, both CPU time of one process on one core:

- "whole games/s": the games as played, the random client's own work (reading the forms,
  choosing) included;
- "engine games/s": the same games again, every recorded move re-sent with `apply` from the
  deal: the engine's work alone, as a server does it for the moves its players send.

Also the mean phases, moves and events per game and the engine's time per move. The target is
at least 1,000 whole games per second per ruleset on one core (issue 24); the numbers are
written up in docs/benchmarks.md.
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

from games.families.werewolf.engine import apply, start  # noqa: E402
from games.families.werewolf.engine.autoplay import play_randomly, random_setup  # noqa: E402
from games.families.werewolf.engine.events import MoveMade, PhaseBegan  # noqa: E402


def run(ruleset: str, games: int, players: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    play_randomly(start(random_setup(ruleset, random.Random(seed + 1), players)), rng)  # warm up
    phases = events = 0
    winners: Counter[str] = Counter()
    recorded = []
    gc.collect()
    played = 0.0
    for _ in range(games):
        started = time.process_time()
        game = play_randomly(start(random_setup(ruleset, rng, players)), rng)
        played += time.process_time() - started
        log = game.log  # counted outside the timing; each game is let go before the next
        events += len(log)
        phases += sum(1 for e in log if isinstance(e, PhaseBegan))
        recorded.append((game.setup, [e.move for e in log if isinstance(e, MoveMade)]))
        outcome = game.state.outcome
        winners[outcome.winner if outcome else "(unfinished)"] += 1
    moves = sum(len(m) for _, m in recorded)
    gc.collect()
    started = time.process_time()
    for setup, sent in recorded:
        game = start(setup)
        for move in sent:
            game = apply(game, move)
    engine = time.process_time() - started
    return {
        "whole": games / played,
        "engine": games / engine,
        "phases": phases / games,
        "moves": moves / games,
        "events": events / games,
        "us_per_move": engine / moves * 1e6,
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
            f"{ruleset:8} whole {r['whole']:5.0f} games/s   engine {r['engine']:5.0f} games/s   "
            f"{r['phases']:4.1f} phases {r['moves']:5.1f} moves {r['events']:6.1f} events "
            f"per game   {r['us_per_move']:4.1f} µs per move   ended: {r['winners']}"
        )


if __name__ == "__main__":
    main()
