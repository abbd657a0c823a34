"""Latency summaries, and the server processes' CPU time and memory read from /proc (Linux)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
from collections.abc import Iterable, Sequence
from typing import Any

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) of sorted values, linearly interpolated."""
    if not values:
        return math.nan
    rank = (len(values) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (rank - low)


def summarize(values: Iterable[float]) -> dict[str, Any]:
    """count, p50, p90, p99 and max of latencies in milliseconds (None when there are none)."""
    data = sorted(values)

    def r(x: float) -> float | None:
        return None if math.isnan(x) else round(x, 2)

    return {
        "count": len(data),
        **{f"p{q}": r(percentile(data, q)) for q in (50, 90, 99)},
        "max": r(data[-1] if data else math.nan),
    }


def cpu_seconds(pids: Sequence[int]) -> float:
    """User + system CPU time of the processes (all their threads)."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def rss_bytes(pids: Sequence[int]) -> int:
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/statm", encoding="ascii") as handle:
            total += int(handle.read().split()[1]) * PAGE_SIZE
    return total


def machine_busy_seconds() -> float:
    """CPU time every process of the machine used since boot, from /proc/stat."""
    with open("/proc/stat", encoding="ascii") as handle:
        user, nice, system, _idle, _iowait, irq, softirq, steal = map(
            int, handle.readline().split()[1:9]
        )
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


class CpuWindow:
    """The servers' CPU between `start()` and `stop()`, as seconds and % of one core, and what
    other processes (neither the servers nor this one) used meanwhile: noise."""

    def __init__(self, pids: Sequence[int]) -> None:
        self.pids = pids
        self.loop = asyncio.get_running_loop()
        self.t0 = self.loop.time()
        self.cpu0, self.own0, self.busy0 = (
            cpu_seconds(pids),
            own_cpu_seconds(),
            machine_busy_seconds(),
        )

    def stop(self) -> dict[str, float]:
        wall = max(self.loop.time() - self.t0, 1e-6)
        cpu = cpu_seconds(self.pids) - self.cpu0
        own = own_cpu_seconds() - self.own0
        others = max(0.0, machine_busy_seconds() - self.busy0 - cpu - own)
        return {
            "cpu_seconds": round(cpu, 2),
            "wall_seconds": round(wall, 2),
            "cpu_percent": round(100 * cpu / wall, 1),
            "other_processes_percent": round(100 * others / wall, 1),
        }


class Sampler:
    """In the background: the servers' peak RSS, and how late this process's event loop wakes
    (its p99 over a few ms means the load client itself was late)."""

    def __init__(self, pids: Sequence[int], every: float = 0.25) -> None:
        self.pids, self.every = pids, every
        self.peak = 0
        self.lags: list[float] = []
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            with contextlib.suppress(OSError):
                self.peak = max(self.peak, rss_bytes(self.pids))
            before = loop.time()
            await asyncio.sleep(self.every)
            self.lags.append((loop.time() - before - self.every) * 1000)

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
