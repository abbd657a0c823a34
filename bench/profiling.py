"""Optional: sample the server with py-spy while the lobby fills and the games run (`--profile`).

py-spy (not a dependency of the project: `pip install py-spy`) records collapsed stacks of the
running daphne without stopping it (--nonblocking), sampling only the thread that holds the GIL
(--gil). Without --gil, py-spy counts every thread the OS reports as running, and on the
server's one pinned core a thread waiting for that core looks as busy as the one using it (the
worker thread appeared to spend 11 % of its time writing one byte to wake the event loop).
Time spent in C with the GIL released (SQLite's own work, system calls) is not sampled.
`summarize_collapsed` turns the stacks into the functions that take the most samples: by own
time (the leaf frame) and including callees.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SITE = "site-packages/"


def _py_spy() -> str | None:
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else shutil.which("py-spy")


def available() -> bool:
    return _py_spy() is not None


@dataclass
class Profiler:
    process: subprocess.Popen[bytes]
    output: Path


def start(pid: int, output: Path, duration: int, rate: int = 200) -> Profiler | None:
    exe = _py_spy()
    if exe is None:
        return None
    log = output.with_suffix(".log").open("wb")
    process = subprocess.Popen(
        [
            exe,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(duration),
            "--rate",
            str(rate),
            "--nonblocking",
            "--gil",
            "--format",
            "raw",
            "--output",
            str(output),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    return Profiler(process, output)


def finish(profiler: Profiler, timeout: float = 60.0, *, now: bool = False) -> dict[str, Any]:
    """Wait for py-spy to write its stacks and summarize them. `now`: stop recording first
    (py-spy writes what it has on SIGINT), for a phase that ended before its duration."""
    if now and profiler.process.poll() is None:
        profiler.process.send_signal(signal.SIGINT)
    try:
        profiler.process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        profiler.process.terminate()
        profiler.process.wait(timeout=10)
    if not profiler.output.exists():
        return {"file": str(profiler.output), "error": "py-spy wrote nothing"}
    return {"file": str(profiler.output), **summarize_collapsed(profiler.output)}


def _short(frame: str) -> str:
    """ "func (path/to/site-packages/pkg/mod.py:12)" -> "func (pkg/mod.py)"."""
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    path = where.rsplit(":", 1)[0]
    if SITE in path:
        path = path.split(SITE, 1)[1]
    elif "/work/" in path or path.startswith("/"):
        parts = path.split("/")
        for anchor in ("games", "onenight", "bench"):
            if anchor in parts:
                path = "/".join(parts[parts.index(anchor) :])
                break
    return f"{name} ({path})"


def summarize_collapsed(path: Path, top: int = 25) -> dict[str, Any]:
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [_short(f) for f in stack.split(";") if f and not f.startswith("process ")]
        if not frames:
            continue
        total += count
        own[frames[-1]] += count
        for frame in set(frames):
            inclusive[frame] += count

    def share(counter: Counter[str]) -> list[list[Any]]:
        return [[name, round(100 * n / total, 1)] for name, n in counter.most_common(top)]

    return {
        "samples": total,
        "top_own_percent": share(own),
        "top_inclusive_percent": share(inclusive),
    }
