"""What one game and one chat line cost PostgreSQL and Redis, counted (issue 39, item 4).

    .venv/bin/python bench/counts.py                # 20 games of each family; --games N
    DATABASE_URL=postgres://… REDIS_URL=redis://…   # other servers than this machine's

The tables of bench/profile_events.py (eight seats, every seat's socket open, the same moves,
chat lines and page loads) are driven through the app's own ASGI application, here on
PostgreSQL and the Redis channel layer (the production shape, docs/deploy.md). Nothing is timed:
for every event, and for every whole game, the script counts

- the SQL statements the app sent, by kind (SELECT, INSERT, UPDATE, DELETE, and the
  transaction's own: SAVEPOINT, RELEASE…), through Django's `connection.execute_wrapper`;
- the messages the channel layer published on Redis (`PUBLISH` calls, from Redis's own
  `INFO commandstats`, so the count is Redis's, not ours) and the bytes Redis received.

These counts do not depend on the machine's speed or load: they are the figures the plan for
10,000 games in docs/deploy.md multiplies.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.profile_events import PLAYERS, Driver  # noqa: E402

DATABASE = "postgres://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379/3"
SCRATCH = "bench_counts"  # the database made (and dropped) beside DATABASE's
WRITES = ("INSERT", "UPDATE", "DELETE")


class Statements:
    """Every SQL statement the app sends, counted by its first word (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        word = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
        if word == "SELECT" and "FOR UPDATE" in sql.upper():
            word = "SELECT … FOR UPDATE"
        with self.lock:
            self.counts[word] += 1
        return execute(sql, params, many, context)

    def snapshot(self) -> Counter[str]:
        with self.lock:
            return Counter(self.counts)


class RedisStats:
    """Redis's own counters: PUBLISH calls and bytes received."""

    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url)

        self.own_bytes = 0
        first = self.snapshot()
        self.own_bytes = self.snapshot()["bytes in"] - first["bytes in"]  # the two INFO asked

    def snapshot(self) -> Counter[str]:
        """The counters now, less the bytes of the questions that read them."""
        commands = self.client.info("commandstats")
        stats = self.client.info("stats")
        publish = commands.get("cmdstat_publish", {}).get("calls", 0)
        self.asked = getattr(self, "asked", 0) + 1
        received = stats["total_net_input_bytes"] - self.asked * self.own_bytes
        return Counter({"PUBLISH": publish, "bytes in": received})


def scratch_database(url: str) -> str:
    """A fresh database beside `url`'s; its URL."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {SCRATCH}")
    return url.rsplit("/", 1)[0] + "/" + SCRATCH


def drop_scratch(url: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {SCRATCH} WITH (FORCE)")


def set_up_django(database_url: str, redis_url: str, statements: Statements) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "onenight.settings"
    os.environ["DATABASE_URL"] = database_url
    os.environ["REDIS_URL"] = redis_url
    os.environ["ONENIGHT_TICKER"] = "0"
    for cap in ("GAMES", "JOINS", "JOIN_TABLES", "TABLE_JOINS"):
        os.environ[f"ONENIGHT_{cap}_PER_MINUTE"] = "1000000"
    import django
    from django.core.management import call_command
    from django.db.backends.signals import connection_created

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)

    def watch(sender: Any, connection: Any, **kwargs: Any) -> None:
        # The documented hook list behind `connection.execute_wrapper()`, kept for the
        # connection's life: the worker thread's connection lives across events.
        if statements not in connection.execute_wrappers:
            connection.execute_wrappers.append(statements)

    connection_created.connect(watch, weak=False)


class Counting(Driver):
    """profile_events' driver, counting each event's statements and Redis traffic."""

    def __init__(self, games: int, statements: Statements, redis: RedisStats) -> None:
        super().__init__(events=10**9)  # every event is counted, none profiled
        self.statements = statements
        self.redis = redis
        self.per_event: dict[str, list[Counter[str]]] = defaultdict(list)
        self.per_game: dict[str, list[Counter[str]]] = defaultdict(list)
        self.games = games

    def snapshot(self) -> Counter[str]:
        return self.statements.snapshot() + self.redis.snapshot()

    async def counted(self, into: list[Counter[str]], work: Callable[[], Awaitable[Any]]) -> None:
        before = self.snapshot()
        await work()
        after = self.snapshot()
        delta = Counter(after)
        delta.subtract(before)
        into.append(+delta)

    async def measure(self, kind: str, event: Callable[[], Awaitable[None]]) -> None:
        await self.counted(self.per_event[kind], event)


async def run(driver: Counting) -> None:
    await driver.onenight_table()  # warm-up: the first connection, the migrations' cache
    await driver.werewolf_table()
    driver.per_event.clear()
    for _ in range(driver.games):
        await driver.counted(driver.per_game["One Night game of 8"], driver.onenight_table)
    for _ in range(driver.games):
        await driver.counted(driver.per_game["Werewolf (forum) game of 8"], driver.werewolf_table)


COLUMNS = ("SELECT", "SELECT … FOR UPDATE", "INSERT", "UPDATE", "DELETE", "PUBLISH", "bytes in")


def table(rows: dict[str, list[Counter[str]]]) -> str:
    head = ["", "n", "statements", *COLUMNS, "writes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for kind, counts in rows.items():
        mean = {k: statistics.mean(c.get(k, 0) for c in counts) for k in COLUMNS}
        statements = statistics.mean(
            sum(v for k, v in c.items() if k not in ("PUBLISH", "bytes in")) for c in counts
        )
        writes = sum(mean[k] for k in WRITES)
        cells = [kind, str(len(counts)), f"{statements:.1f}"]
        cells += [f"{mean[k]:.1f}" if k != "bytes in" else f"{mean[k]:.0f}" for k in COLUMNS]
        cells.append(f"{writes:.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games of each family")
    args = parser.parse_args()
    base = os.environ.get("DATABASE_URL", DATABASE)
    redis_url = os.environ.get("REDIS_URL", REDIS)
    statements = Statements()
    redis = RedisStats(redis_url)
    set_up_django(scratch_database(base), redis_url, statements)
    driver = Counting(args.games, statements, redis)
    try:
        asyncio.run(run(driver))
    finally:
        from django.db import connections

        driver.worker.submit(connections.close_all).result()
        drop_scratch(base)
    seats = len(PLAYERS)
    print(f"Counted on PostgreSQL and Redis; tables of {seats}, every seat's socket open.\n")
    print("Per event (the request and everything it causes):\n")
    print(table(dict(sorted(driver.per_event.items()))))
    print("\nPer whole game (set-up, night, day chat of 8 lines, 4 page loads, the end):\n")
    print(table(driver.per_game))


if __name__ == "__main__":
    main()
