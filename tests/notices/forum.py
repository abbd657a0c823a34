"""A forum game (rules/001: 48 hours a phase) at a table, its seats asking for e-mails, driven
with a moved clock: time is passed in to every service and to the notice passes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from games.families.werewolf.stored import game_of
from games.notices import owed, sender
from games.notices.models import Subscription
from games.tables import services
from games.tables.models import Seat, Table

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
# 19:00 in Paris; in the future, so that a page load (which catches up with a passed deadline)
# does not move the game on by the real clock.
START = datetime(2036, 3, 3, 18, 0, tzinfo=UTC)
HOURS = timedelta(hours=1)


@dataclass
class Forum:
    table: Table
    seats: dict[str, Seat]

    def refresh(self) -> Table:
        self.table.refresh_from_db()
        return self.table

    def roles(self) -> dict[str, str]:
        game = game_of(self.refresh().state)
        return {name: role.name for name, role in game.setup.roles.items()}

    def address(self, name: str) -> str:
        return f"{name.lower()}@players.example"

    def seat(self, name: str) -> Seat:
        return Seat.objects.get(pk=self.seats[name].pk)


def open_forum(now: datetime = START) -> Forum:
    host = services.table_create(family="werewolf", ruleset="forum", host_name=NAMES[0])
    seats = {host.name: host}
    for name in NAMES[1:]:
        seats[name] = services.seat_join(table=host.table, name=name)
    return Forum(Table.objects.get(pk=host.table_id), seats)


def subscribe(
    forum: Forum,
    name: str,
    *,
    remind_minutes: int = 6 * 60,
    zone: str = "Europe/Paris",
    quiet: tuple[int | None, int | None] = (None, None),
    now: datetime = START,
) -> Subscription:
    subscription = Subscription(
        seat=forum.seats[name],
        email=forum.address(name),
        remind_minutes=remind_minutes,
        time_zone=zone,
        quiet_from=quiet[0],
        quiet_to=quiet[1],
        site="http://127.0.0.1:8000",
    )
    owed.baseline(subscription, now)
    subscription.save()
    return subscription


def notice_pass(now: datetime) -> int:
    """What every process's notice loop does once (games/notices/loop.py), at `now`."""
    services.advance_due_tables(now=now)
    owed.scan(now)
    return sender.send_due(now)


def wolf_kill(forum: Forum, wolf: str, victim: str, now: datetime) -> None:
    services.seat_move(
        seat=forum.seat(wolf),
        kind="night",
        fields={"kill": [str(forum.seats[victim].pk)]},
        now=now,
    )
