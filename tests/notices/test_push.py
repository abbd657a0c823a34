"""Web Push through a push service on this machine that checks what a real one would: each
notice reaches every browser a seat subscribed, encrypted for it (RFC 8291, decrypted here with
http-ece) and signed with the server's VAPID key (RFC 8292, checked here); a subscription the
push service says is gone is dropped; the app refuses to post to private addresses."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse

from games.notices.models import Notice, PushDevice, Subscription
from games.tables import services
from tests.factories import fixed_shuffle, new_client

from .forum import START, Forum, notice_pass, open_forum
from .pushservice import PushService

pytestmark = pytest.mark.django_db


def started() -> Forum:
    forum = open_forum()
    with fixed_shuffle():
        services.table_start(host=forum.seats["Ann"], now=START)
    forum.refresh()
    return forum


def seat_client(forum: Forum, name: str):  # type: ignore[no-untyped-def]
    client = new_client()
    client.get(reverse("rejoin", args=[forum.table.code, forum.seats[name].token]))
    return client


def hand_over(client: Any, forum: Forum, subscription: dict[str, Any]) -> Any:
    return client.post(
        reverse("notices_push", args=[forum.table.code]),
        json.dumps(subscription),
        content_type="application/json",
    )


def test_a_phase_reaches_every_subscribed_browser_encrypted_and_signed(
    push_service: PushService,
) -> None:
    forum = started()
    ann = seat_client(forum, "Ann")
    assert hand_over(ann, forum, push_service.subscription("phone")).status_code == 200
    assert hand_over(ann, forum, push_service.subscription("laptop")).status_code == 200
    assert hand_over(ann, forum, push_service.subscription("old", gone=True)).status_code == 200
    assert PushDevice.objects.filter(seat=forum.seats["Ann"]).count() == 3
    assert Subscription.objects.get(seat=forum.seats["Ann"]).email == ""  # push only

    notice_pass(START + timedelta(days=2))  # Night 1 ends: Day 1 begins
    code = forum.table.code
    got = {name: body for name, body, _claims in push_service.received}
    assert set(got) == {"phone", "laptop"}
    for body in got.values():
        assert body["title"] == f"Game {code}: Day 1"
        assert body["body"] == "Day 1 has begun."
        assert body["url"] == f"https://moderator.example.org/g/{code}/"
    # The gone subscription is dropped, not tried again.
    assert push_service.refused == ["old"]
    assert PushDevice.objects.filter(seat=forum.seats["Ann"]).count() == 2
    (notice,) = Notice.objects.filter(channel="push")
    assert notice.sent_at is not None
    notice_pass(START + timedelta(days=2, hours=1))
    assert len(push_service.received) == 2 and push_service.refused == ["old"]

    # Stopping from the page removes the browser.
    stop = {"endpoint": push_service.endpoint("laptop"), "remove": True}
    assert hand_over(ann, forum, stop).status_code == 200
    assert PushDevice.objects.filter(seat=forum.seats["Ann"]).count() == 1


@pytest.mark.parametrize(
    "subscription",
    [
        {"endpoint": "http://10.0.0.5/push/x", "keys": {"p256dh": "a", "auth": "b"}},
        {"endpoint": "https://127.0.0.1/push/x", "keys": {"p256dh": "a", "auth": "b"}},
        {"endpoint": "https://push.localhost/x", "keys": {"p256dh": "a", "auth": "b"}},
        {"endpoint": "https://push.example.org/x"},
        {"keys": {"p256dh": "a", "auth": "b"}},
        "not an object",
    ],
)
def test_the_app_posts_only_to_public_push_services(
    push_service: PushService, settings: Any, subscription: Any
) -> None:
    settings.PUSH_LOCAL_ENDPOINTS = False
    forum = started()
    answer = hand_over(seat_client(forum, "Ben"), forum, subscription)
    assert answer.status_code == 400 and answer.json()["error"]
    assert not PushDevice.objects.exists() and not Subscription.objects.exists()


def test_no_push_without_a_seat_or_without_keys(push_service: PushService, settings: Any) -> None:
    forum = started()
    assert hand_over(new_client(), forum, push_service.subscription("x")).status_code == 403
    settings.VAPID_PRIVATE_KEY = ""
    answer = hand_over(seat_client(forum, "Ben"), forum, push_service.subscription("x"))
    assert answer.status_code == 400
    assert not PushDevice.objects.exists()
