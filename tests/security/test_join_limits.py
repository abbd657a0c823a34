"""Joining is capped per address and per table, and the host can lock the table.

Issue 25, hole 6: one address could fill any open lobby with seats in a second, locking the
group out. Issue 35: at a party every phone on the home Wi-Fi has the same public address, and
the seventh was refused. Now, counted over the last minute from stored rows (SeatTaken, so that
seats the host removed still count): one address takes seats at no more than
settings.JOIN_TABLES_PER_MINUTE tables, and no more than settings.JOINS_PER_MINUTE seats (a
party of 18 joins one table at once); one table sees no more than
settings.TABLE_JOINS_PER_MINUTE seats taken, from any addresses. The host removes a seat in
one click and locks the table against new joins (games/tables/services/ seat_join,
table_lock_set). docs/security.md says what each cap protects and how it was sized.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.utils import timezone

from games.families.onenight.options import RULES_PHRASE
from games.tables import services
from games.tables.models import Seat, SeatTaken, Table
from tests.factories import client_for, create_lobby, new_client, play_to
from tests.security.audit import HTMX, alerts, db_snapshot, raw, snapshot_diff, url, visible

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.9"  # documentation range: only ever a header value here
CAPS = {
    "JOIN_TABLES_PER_MINUTE": "ONENIGHT_JOIN_TABLES_PER_MINUTE",
    "JOINS_PER_MINUTE": "ONENIGHT_JOINS_PER_MINUTE",
    "TABLE_JOINS_PER_MINUTE": "ONENIGHT_TABLE_JOINS_PER_MINUTE",
}
# The largest party the caps are sized for: multi-night games are played by 8 to 18.
PARTY = 18


def _shipped_caps() -> dict[str, int]:
    """The caps as settings.py ships them (this suite lifts them through the environment):
    read by a fresh interpreter without the suite's variables."""
    env = {k: v for k, v in os.environ.items() if k not in CAPS.values()}
    env["DJANGO_SETTINGS_MODULE"] = "onenight.settings"
    names = json.dumps(list(CAPS))
    code = (
        "import json; from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n) for n in {names}}}))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


SHIPPED = _shipped_caps()
PER_ADDRESS_TABLES = SHIPPED["JOIN_TABLES_PER_MINUTE"]
PER_ADDRESS = SHIPPED["JOINS_PER_MINUTE"]
PER_TABLE = SHIPPED["TABLE_JOINS_PER_MINUTE"]


@pytest.fixture(autouse=True)
def caps(settings: pytest.FixtureRequest) -> None:
    """The shipped caps (tests/conftest.py lifts them for every other test)."""
    settings.JOIN_TABLES_PER_MINUTE = PER_ADDRESS_TABLES
    settings.JOINS_PER_MINUTE = PER_ADDRESS
    settings.TABLE_JOINS_PER_MINUTE = PER_TABLE


def join(code: str, name: str, address: str = ADDRESS) -> HttpResponse:
    """A newcomer's browser takes a seat through the invite link, from `address`."""
    data = {"name": name, "phrase": RULES_PHRASE}
    return new_client().post(url("join", code), data, REMOTE_ADDR=address)


def official_lobby() -> Table:
    """An official-rules lobby (up to 13 seats) that asks for no rules phrase."""
    host = services.table_create(family="onenight", ruleset="official", host_name="Ann")
    return host.table


def werewolf_lobby() -> Table:
    """A forum-game lobby (up to 30 seats)."""
    host = services.table_create(family="werewolf", ruleset="forum", host_name="Ann")
    return host.table


def test_the_shipped_caps_let_the_largest_party_in_at_once() -> None:
    """The host opened the table: the other PARTY - 1 join, from one address, in one minute.
    A second table for the same friends is allowed as well."""
    assert PER_ADDRESS >= PARTY - 1
    assert PER_TABLE >= PARTY - 1
    assert PER_ADDRESS_TABLES >= 2


def test_a_party_of_eighteen_behind_one_router_joins_one_table() -> None:
    table = werewolf_lobby()
    for i in range(PARTY - 1):
        response = join(table.code, f"Friend {i}")
        assert response.status_code == 302, alerts(response)
    assert Seat.objects.filter(table=table).count() == PARTY


def test_one_address_cannot_flood_a_table() -> None:
    """Past PER_ADDRESS seats in a minute (here taken and removed again, so the table never
    fills), the address is refused, with nothing stored; other addresses still get in."""
    table = werewolf_lobby()
    host = Seat.objects.get(table=table, is_host=True)
    for i in range(PER_ADDRESS):
        assert join(table.code, f"Guest {i}").status_code == 302
        services.seat_remove(host=host, seat_id=Seat.objects.get(table=table, name=f"Guest {i}").pk)
    before = db_snapshot()
    refused = join(table.code, "Guest more")
    assert refused.status_code == 400
    assert any(
        f"{PER_ADDRESS} seats were taken from your address in the last minute" in a
        for a in alerts(refused)
    )
    assert not snapshot_diff(before, db_snapshot())
    assert join(table.code, "Ben", address="203.0.113.20").status_code == 302


def test_one_address_cannot_sit_down_at_many_tables() -> None:
    """One seat at each of PER_ADDRESS_TABLES lobbies; the next lobby refuses the address,
    while the tables it already sits at still take its friends."""
    tables = [official_lobby() for _ in range(PER_ADDRESS_TABLES + 1)]
    for table in tables[:-1]:
        assert join(table.code, "Squatter").status_code == 302
    before = db_snapshot()
    refused = join(tables[-1].code, "Squatter")
    assert refused.status_code == 400
    assert any(
        f"seats were taken at {PER_ADDRESS_TABLES} tables in the last minute" in a
        for a in alerts(refused)
    )
    assert not snapshot_diff(before, db_snapshot())
    assert join(tables[0].code, "Friend").status_code == 302
    assert join(tables[-1].code, "Someone", address="203.0.113.20").status_code == 302


def test_the_address_cap_counts_every_table_and_removed_seats() -> None:
    """Seats the host removed count, and so do seats taken at other tables."""
    first, second = werewolf_lobby(), werewolf_lobby()
    host = Seat.objects.get(table=first, is_host=True)
    for i in range(PER_ADDRESS - 1):
        assert join(first.code, f"Guest {i}").status_code == 302
    for seat in Seat.objects.filter(table=first, is_host=False):
        services.seat_remove(host=host, seat_id=seat.pk)
    assert join(second.code, "Guest x").status_code == 302
    assert join(second.code, "Guest y").status_code == 400
    assert join(first.code, "Guest z").status_code == 400


def test_the_table_cap_holds_against_many_addresses() -> None:
    """A lobby sees at most PER_TABLE seats taken in a minute, whoever takes them (here each
    from its own address, and removed again so the table never fills)."""
    table = official_lobby()
    host = Seat.objects.get(table=table, is_host=True)
    for i in range(PER_TABLE):
        assert join(table.code, f"Guest {i}", address=f"203.0.113.{i + 1}").status_code == 302
        guest = Seat.objects.get(table=table, name=f"Guest {i}")
        services.seat_remove(host=host, seat_id=guest.pk)
    before = db_snapshot()
    refused = join(table.code, "Latecomer", address="203.0.113.200")
    assert refused.status_code == 400
    assert any("at this table in the last minute" in a for a in alerts(refused))
    assert not snapshot_diff(before, db_snapshot())


def test_the_caps_count_one_minute() -> None:
    table = werewolf_lobby()
    start = timezone.now()
    for i in range(PER_ADDRESS):
        services.seat_join(table=table, name=f"Guest {i}", joiner_key="k", now=start)
    with pytest.raises(services.ServiceError, match="Wait a moment"):
        services.seat_join(table=table, name="Guest x", joiner_key="k", now=start)
    later = start + timedelta(minutes=1, seconds=1)
    assert services.seat_join(table=table, name="Guest x", joiner_key="k", now=later).name
    # What is older than the minute is not kept.
    assert SeatTaken.objects.filter(taken_at__lte=later - timedelta(minutes=1)).count() == 0


def test_the_tables_cap_counts_one_minute() -> None:
    tables = [werewolf_lobby() for _ in range(PER_ADDRESS_TABLES + 1)]
    start = timezone.now()
    for table in tables[:-1]:
        services.seat_join(table=table, name="Guest", joiner_key="k", now=start)
    with pytest.raises(services.ServiceError, match="tables in the last minute"):
        services.seat_join(table=tables[-1], name="Guest", joiner_key="k", now=start)
    later = start + timedelta(minutes=1, seconds=1)
    assert services.seat_join(table=tables[-1], name="Guest", joiner_key="k", now=later).name


# --- The lock ---------------------------------------------------------------------------------


def test_the_host_locks_the_table_and_nobody_new_can_join() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    ann, ben = client_for(table, "Ann"), client_for(table, "Ben")
    assert "Lock the table" in visible(ann.get(url("table", table.code)))
    assert "Lock the table" not in visible(ben.get(url("table", table.code)))
    response = ann.post(url("lock", table.code), {"locked": "yes"}, **HTMX)
    assert response.status_code == 200
    assert "The table is locked" in visible(response) and "Unlock the table" in visible(response)
    assert Table.objects.get(pk=table.table.pk).joins_locked
    # A newcomer with the invite link is told, and cannot sit down.
    page = new_client().get(url("join", table.code))
    assert page.status_code == 403 and "locked this table" in visible(page)
    before = db_snapshot()
    refused = join(table.code, "Dan")
    assert refused.status_code == 403 and "locked this table" in visible(refused)
    assert not snapshot_diff(before, db_snapshot())
    with pytest.raises(services.NotAllowedError, match="locked this table"):
        services.seat_join(table=table.table, name="Dan", phrase=RULES_PHRASE)
    # The seated keep their seats, pages and rejoin links.
    assert ben.get(url("table", table.code)).status_code == 200
    rejoined = new_client().get(url("rejoin", table.code, table.seats["Cat"].token))
    assert rejoined.status_code == 302
    assert "The host has locked the table" in visible(ben.get(url("table", table.code)))
    # Unlocked, the link works again.
    assert ann.post(url("lock", table.code), {"locked": "no"}).status_code == 302
    assert join(table.code, "Dan").status_code == 302


def test_only_the_host_locks_and_only_in_the_lobby() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ben").post(url("lock", table.code), {"locked": "yes"})
    assert response.status_code == 403 and "Only the host" in raw(response)
    assert not Table.objects.get(pk=table.table.pk).joins_locked
    started = play_to("night")
    response = client_for(started, "Ann").post(url("lock", started.code), {"locked": "yes"})
    assert response.status_code == 409
    assert not Table.objects.get(pk=started.table.pk).joins_locked


def test_play_again_opens_an_unlocked_table() -> None:
    table = play_to("reveal")
    Table.objects.filter(pk=table.table.pk).update(joins_locked=True)
    new_seat = services.play_again(seat=table.seat("Ann"))
    assert not new_seat.table.joins_locked
