"""The host's clock (issue 27: "the host can extend or pause a phase"): a paused step keeps its
time left and does not end by itself; resumed, it ends that much later; more minutes push the
deadline; only the host may, and only while a game runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.tables import services
from games.tables.models import ChatLine
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_pause_keeps_the_time_left_and_stops_the_clock() -> None:
    now = timezone.now()
    table = f.deal_game(night_minutes=10, now=now, **f.THREE)
    host = table.seat("Ann")
    services.clock_set(host=host, action="pause", now=now + timedelta(minutes=4))
    stored = table.refresh()
    assert stored.deadline is None and stored.paused_seconds == 6 * 60
    assert not services.table_advance_if_due(table_id=stored.pk, now=now + timedelta(hours=5))
    f.night_action(table, "Ben", ["Cat"])  # a move in the same step: still paused
    assert table.refresh().deadline is None
    services.clock_set(host=host, action="resume", now=now + timedelta(hours=5))
    stored = table.refresh()
    assert stored.paused_seconds is None
    assert stored.deadline == now + timedelta(hours=5, minutes=6)
    notes = list(ChatLine.objects.filter(table=stored, note=True).values_list("text", flat=True))
    assert any("paused" in n for n in notes) and any("again" in n for n in notes)


def test_more_minutes_push_the_deadline() -> None:
    now = timezone.now()
    table = f.deal_game(night_minutes=10, now=now, **f.THREE)
    services.clock_set(host=table.seat("Ann"), action="extend", minutes=15, now=now)
    assert table.refresh().deadline == now + timedelta(minutes=25)


def test_a_new_step_has_its_own_clock_even_after_a_pause() -> None:
    now = timezone.now()
    table = f.deal_game(night_minutes=10, day_minutes=30, now=now, **f.THREE)
    services.clock_set(host=table.seat("Ann"), action="pause", now=now)
    f.play_night(table, now=now)
    stored = table.refresh()
    assert stored.paused_seconds is None and stored.deadline is not None


@pytest.mark.parametrize("action", ["pause", "resume", "extend", "stop"])
def test_only_the_host_and_only_sensible_requests(action: str) -> None:
    table = f.deal_game(**f.THREE)  # no night time limit
    with pytest.raises(services.NotAllowedError):
        services.clock_set(host=table.seat("Ben"), action=action, minutes=5)
    with pytest.raises(services.ServiceError):
        services.clock_set(host=table.seat("Ann"), action=action, minutes=5)
