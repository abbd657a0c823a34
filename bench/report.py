"""Markdown tables from a bench/load.py result, as used in docs/benchmarks.md.

.venv/bin/python bench/report.py bench/results/<file>.json [--target-k 100]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.baseline import LOBBY_FLOOR  # noqa: E402


def _f(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def summary_table(run: dict[str, Any]) -> list[str]:
    lines = [
        "| K | players | fan-out p50 / p99 / max ms | lost | dup | errors | games done | games/min"
        " | worst request p99 / floor p99 | ping p99 ms | echo p99 ms | relay p99 ms"
        " | night p99 ms | tally p99 ms | server CPU % | other CPU % | peak RSS MiB"
        " | KiB / player | client lag p99 ms |",
        "|" + "---|" * 19,
    ]
    for s in run["steps"]:
        g, t, b = s["games_phase"], s["targets"], s["baseline"]
        fan = g["chat"]["fanout_ms"]
        lines.append(
            f"| {s['games']} | {s['connections']} | {_f(fan['p50'])} / {_f(fan['p99'])} /"
            f" {_f(fan['max'])} | {g['chat']['lost']:,} | {g['chat']['duplicates']} |"
            f" {t['errors']:,} | {g['completed']}/{s['games']} | {_f(g['games_per_minute'])} |"
            f" {_f(t['worst_page_ratio'], 2)} ({t['worst_page']}) |"
            f" {_f(b['http'].get('ping', {}).get('p99'))} |"
            f" {_f(b['http'].get('echo', {}).get('p99'))} | {_f(b['ws']['fanout_ms']['p99'])} |"
            f" {_f(t['night_p99_ms'])} | {_f(t['tally_p99_ms'])} |"
            f" {_f(g['server_cpu']['cpu_percent'])} |"
            f" {_f(g['server_cpu'].get('other_processes_percent'))} |"
            f" {_f(s['memory']['peak_rss_mib'])} | {_f(s['memory']['per_connection_kib'])} |"
            f" {_f(s['client']['loop_lag_ms']['p99'])} |"
        )
    return lines


def pages_table(run: dict[str, Any]) -> list[str]:
    steps = run["steps"]
    kinds = sorted({k for s in steps for k in s["games_phase"]["http"]})
    lines = [
        "| request | "
        + " | ".join(f"K={s['games']} p50 / p99 ms (/ floor p99)" for s in steps)
        + " |",
        "|---|" + "---|" * len(steps),
    ]
    for kind in kinds:
        cells = []
        for s in steps:
            x = s["games_phase"]["http"].get(kind)
            cells.append(
                "-"
                if x is None
                else f"{_f(x['p50'])} / {_f(x['p99'])} (x{_f(x['ratio_p99_to_baseline'])})"
            )
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    for label, get in (
        (LOBBY_FLOOR, lambda s: s["lobby"].get("floor")),
        ("ping, baseline", lambda s: s["baseline"]["http"].get("ping")),
        ("echo, baseline", lambda s: s["baseline"]["http"].get("echo")),
        ("ping, during games", lambda s: s["games_phase"]["ping_during_games"]),
    ):
        cells = [
            "-" if get(s) is None else f"{_f(get(s)['p50'])} / {_f(get(s)['p99'])}" for s in steps
        ]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def cpu_lines(run: dict[str, Any]) -> list[str]:
    """Server CPU of the lobby and of the games, each beside its floor on the same schedule."""
    lines = []
    for s in run["steps"]:
        k, lobby = s["games"], s["lobby"]
        floor = lobby.get("floor_server_cpu", {}).get("cpu_seconds")
        games = s["games_phase"]["server_cpu"]["cpu_seconds"]
        base = s["baseline"]["server_cpu"]["cpu_seconds"]
        lines.append(
            f"- K={k}: lobby {_f(lobby['server_cpu']['cpu_seconds'], 2)} s of server CPU"
            f" ({_f(lobby['server_cpu']['cpu_percent'])} % of the core; its replay as pings"
            f" {_f(floor, 2)} s), games {_f(games / k, 3)} s per game (floor {_f(base / k, 3)} s)"
        )
    return lines


def targets_table(run: dict[str, Any], k: int) -> list[str]:
    step = next((s for s in run["steps"] if s["games"] == k), None)
    if step is None:
        return [f"(no step with K={k})"]
    t = step["targets"]
    chat = step["games_phase"]["chat"]

    def mark(ok: bool) -> str:
        return "met" if ok else "**missed**"

    return [
        f"| target (K={k}, {step['connections']} sockets) | measured | |",
        "|---|---|---|",
        f"| chat fan-out p99 < 50 ms | {_f(t['fanout_p99_ms'])} ms |"
        f" {mark(t['fanout_p99_under_50ms'])} |",
        f"| zero lost or duplicated deliveries | {chat['lost']:,} lost,"
        f" {chat['duplicates']} duplicated | {mark(t['lost_or_duplicated'] == 0)} |",
        f"| zero errors | {t['errors']:,} | {mark(t['errors'] == 0)} |",
        f"| game requests p99 within 3x the floor's p99 | worst x"
        f"{_f(t['worst_page_ratio'], 2)} ({t['worst_page']}) |"
        f" {mark(t['pages_within_3x_baseline'])} |",
        f"| night resolution and tally p99 < 20 ms (server side) | {_f(t['night_p99_ms'])} /"
        f" {_f(t['tally_p99_ms'])} ms | {mark(t['server_side_under_20ms'])} |",
        f"| memory < 100 KiB per extra connected player | {_f(t['kib_per_connection'])} KiB |"
        f" {mark(t['memory_under_100kib'])} |",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("result", type=Path)
    parser.add_argument("--target-k", type=int, default=100)
    args = parser.parse_args(argv)
    result = json.loads(args.result.read_text(encoding="utf-8"))
    for run in result["runs"]:
        print(
            f"\n### {run['name']}: {run['processes']} process(es), {run['database']},"
            f" {run['channel_layer']} channel layer\n"
        )
        print(
            f"First K where the fan-out p99 passes 100 ms: {run['first_k_fanout_p99_over_100ms']}\n"
        )
        print("\n".join(summary_table(run)))
        print()
        print("\n".join(pages_table(run)))
        print()
        print("\n".join(cpu_lines(run)))
        print()
        print("\n".join(targets_table(run, args.target_k)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
