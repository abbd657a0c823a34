"""Percentiles, latency summaries and the server processes' CPU time and memory (from /proc).

Linux only: CPU time and resident memory are read from /proc/<pid>/stat and /proc/<pid>/statm,
so the benchmark needs no extra package.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
MIB = 1024 * 1024


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) of already sorted values, linearly interpolated."""
    if not sorted_values:
        return math.nan
    if len(sorted_values) == 1:
        return float(sorted_values[0])
    rank = (len(sorted_values) - 1) * q / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (rank - low)


def _round(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 2)


def summarize(values: Iterable[float]) -> dict[str, float | int | None]:
    """count, p50, p90, p99, max and mean of latencies in milliseconds."""
    data = sorted(values)
    mean = sum(data) / len(data) if data else math.nan
    return {
        "count": len(data),
        "p50": _round(percentile(data, 50)),
        "p90": _round(percentile(data, 90)),
        "p99": _round(percentile(data, 99)),
        "max": _round(data[-1] if data else math.nan),
        "mean": _round(mean),
    }


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b <= 0:
        return None
    return round(a / b, 2)


# --- Server processes ------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` (all its threads), in seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    # Fields after the command name start at field 3 (state); utime and stime are 14 and 15.
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_bytes(pid: int) -> int:
    """Resident set size of process `pid`."""
    with open(f"/proc/{pid}/statm", encoding="ascii") as handle:
        return int(handle.read().split()[1]) * PAGE_SIZE


def total_rss(pids: Sequence[int]) -> int:
    return sum(rss_bytes(pid) for pid in pids)


def total_cpu(pids: Sequence[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


@dataclass
class MemorySampler:
    """Samples the summed RSS of the server processes every `interval` seconds; keeps the peak."""

    pids: Sequence[int]
    interval: float = 0.25
    peak: int = 0
    samples: int = 0
    _task: asyncio.Task[None] | None = field(default=None, repr=False)

    def sample(self) -> int:
        value = total_rss(self.pids)
        self.peak = max(self.peak, value)
        self.samples += 1
        return value

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(OSError):
                self.sample()
            await asyncio.sleep(self.interval)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


@dataclass
class CpuWindow:
    """CPU seconds used by some processes between `start()` and `stop()`, and the wall time."""

    pids: Sequence[int]
    cpu0: float = 0.0
    wall0: float = 0.0
    own0: float = 0.0
    busy0: float = 0.0
    cpu: float = 0.0
    wall: float = 0.0
    others: float = 0.0

    def start(self) -> CpuWindow:
        loop = asyncio.get_running_loop()
        self.cpu0, self.wall0 = total_cpu(self.pids), loop.time()
        self.own0, self.busy0 = own_cpu_seconds(), system_busy_seconds()
        return self

    def stop(self) -> dict[str, float]:
        loop = asyncio.get_running_loop()
        self.cpu = total_cpu(self.pids) - self.cpu0
        self.wall = loop.time() - self.wall0
        own = own_cpu_seconds() - self.own0
        self.others = max(0.0, system_busy_seconds() - self.busy0 - self.cpu - own)
        return self.as_dict()

    def as_dict(self) -> dict[str, float]:
        wall = self.wall if self.wall > 0 else 1.0
        # Percent of one core: 100 % means one core fully busy. "other_processes_percent" is
        # the rest of the machine (neither the server nor this load process): noise.
        return {
            "cpu_seconds": round(self.cpu, 2),
            "wall_seconds": round(self.wall, 2),
            "cpu_percent": round(100 * self.cpu / wall, 1),
            "other_processes_percent": round(100 * self.others / wall, 1),
        }


@dataclass
class LoopLag:
    """How late the load process's event loop wakes up: a check that the client kept up."""

    interval: float = 0.1
    lags: list[float] = field(default_factory=list)
    _task: asyncio.Task[None] | None = field(default=None, repr=False)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.interval)
            self.lags.append((loop.time() - before - self.interval) * 1000)

    def start(self) -> None:
        self.lags.clear()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> dict[str, float | int | None]:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        return summarize(self.lags)


def system_busy_seconds() -> float:
    """CPU time all processes of the machine used since boot (every core), from /proc/stat."""
    with open("/proc/stat", encoding="ascii") as handle:
        values = [int(x) for x in handle.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = values[:8]
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system
