"""Joining is capped per address and per table, and the host can lock the table.

Issue 25, hole 6: one address could fill any open lobby with seats in a second, locking the
group out. Now at most settings.JOINS_PER_MINUTE seats are taken per minute from one address
(at any tables) and settings.TABLE_JOINS_PER_MINUTE at one table (from any addresses),
counted from stored rows (SeatTaken) so that seats the host removed still count; the host
removes a seat in one click, and locks the table against new joins (games/tables/services.py
seat_join, table_lock_set).
"""

from __future__ import annotations

from datetime import timedelta

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
PER_ADDRESS = 6
PER_TABLE = 16


@pytest.fixture(autouse=True)
def caps(settings: pytest.FixtureRequest) -> None:
    """The shipped caps (tests/conftest.py lifts them for every other test)."""
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


def test_one_address_cannot_fill_a_lobby() -> None:
    table = official_lobby()
    for i in range(PER_ADDRESS):
        assert join(table.code, f"Guest {i}").status_code == 302
    before = db_snapshot()
    refused = join(table.code, "Guest more")
    assert refused.status_code == 400
    assert any("from your address in the last minute" in a for a in alerts(refused))
    assert not snapshot_diff(before, db_snapshot())
    # The group, from their own addresses, still gets in.
    assert join(table.code, "Ben", address="203.0.113.20").status_code == 302
    assert Seat.objects.filter(table=table).count() == 1 + PER_ADDRESS + 1


def test_the_address_cap_counts_every_table_and_removed_seats() -> None:
    """Seats the host removed count, and so do seats taken at other tables."""
    first, second = official_lobby(), official_lobby()
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
    table = official_lobby()
    start = timezone.now()
    for i in range(PER_ADDRESS):
        services.seat_join(table=table, name=f"Guest {i}", joiner_key="k", now=start)
    with pytest.raises(services.ServiceError, match="Wait a moment"):
        services.seat_join(table=table, name="Guest x", joiner_key="k", now=start)
    later = start + timedelta(minutes=1, seconds=1)
    assert services.seat_join(table=table, name="Guest x", joiner_key="k", now=later).name
    # What is older than the minute is not kept.
    assert SeatTaken.objects.filter(taken_at__lte=later - timedelta(minutes=1)).count() == 0


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
