"""Nobody stalls the table for want of a host (issue 30): the host hands the role over; a host
who leaves the lobby passes it on; a host whose page has been closed for a while loses it to
the first player whose page notices; the last player out closes the table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.tables import services
from games.tables.models import ChatLine, Seat, Table
from tests.factories import create_lobby, deal_game, new_client

pytestmark = pytest.mark.django_db


def test_the_host_hands_the_role_over_and_only_the_host_can() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(services.ServiceError, match="no screen open"):
        services.host_hand_over(host=table.seat("Ann"), seat_id=table.seat("Ben").pk)
    Seat.objects.filter(table=table.table).update(last_seen=timezone.now())
    with pytest.raises(services.NotAllowedError):
        services.host_hand_over(host=table.seat("Ben"), seat_id=table.seat("Cat").pk)
    services.host_hand_over(host=table.seat("Ann"), seat_id=table.seat("Ben").pk)
    assert table.seat("Ben").is_host and not table.seat("Ann").is_host
    assert ChatLine.objects.filter(
        table=table.table, note=True, text__contains="Ben is the host"
    ).exists()
    with pytest.raises(services.ServiceError):
        services.host_hand_over(host=table.seat("Ben"), seat_id=123456789)


def test_a_host_who_leaves_the_lobby_passes_the_role_and_the_last_one_out_closes_it() -> None:
    table = create_lobby(["Ann", "Ben"])
    services.seat_leave(seat=table.seat("Ann"))
    assert list(Seat.objects.filter(table=table.table).values_list("name", "is_host")) == [
        ("Ben", True)
    ]
    services.seat_leave(seat=Seat.objects.get(table=table.table, name="Ben"))
    assert Table.objects.get(pk=table.table.pk).stage == "cancelled"


def test_leaving_from_the_page_forgets_the_seat() -> None:
    table = create_lobby(["Ann", "Ben"])
    browser = new_client()
    browser.get(reverse("rejoin", args=[table.code, table.seat("Ben").token]))
    answer = browser.post(reverse("leave", args=[table.code]), HTTP_HX_REQUEST="true")
    assert answer.status_code == 204 and answer["HX-Redirect"] == reverse("home")
    assert not Seat.objects.filter(table=table.table, name="Ben").exists()
    assert browser.get(reverse("table", args=[table.code])).status_code == 302  # to join


def test_a_gone_host_is_replaced_by_the_player_who_notices() -> None:
    table = deal_game(
        **{
            "Ann": "werewolf",
            "Ben": "seer",
            "Cat": "robber",
            "left": "villager",
            "middle": "villager",
            "right": "drunk",
        }
    )
    now = timezone.now()
    Seat.objects.filter(pk=table.seat("Ann").pk).update(last_seen=now - timedelta(minutes=2))
    assert not services.host_pass_if_gone(seat=table.seat("Ben"), now=now)  # not gone yet
    Seat.objects.filter(pk=table.seat("Ann").pk).update(last_seen=now - timedelta(minutes=6))
    browser = new_client()
    browser.get(reverse("rejoin", args=[table.code, table.seat("Cat").token]))
    page = browser.get(reverse("table", args=[table.code])).content.decode()
    assert table.seat("Cat").is_host and not table.seat("Ann").is_host
    assert "(host)" in page
    # A host whose page never held a socket is never judged gone.
    Seat.objects.filter(pk=table.seat("Cat").pk).update(last_seen=None)
    assert not services.host_pass_if_gone(seat=table.seat("Ben"))
