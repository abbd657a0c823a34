"""Web Push (issue 41, item 1): a notice sent to each browser a seat subscribed, encrypted for
that browser (RFC 8291, aes128gcm) and signed with the server's VAPID key (RFC 8292), by the
maintained pywebpush library. The keys come from the environment (settings.VAPID_*), made once
with `manage.py vapid_keys`.

What a push shows on a lock screen is its title and one line: the notice's subject (the game's
code and public phase) and its first sentence; the page says the rest.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from pywebpush import WebPushException, webpush

from .models import Notice, PushDevice

log = logging.getLogger(__name__)

GONE = (404, 410)  # the push service no longer knows the subscription
TTL = 2 * 24 * 60 * 60  # a push service keeps an undelivered message this long (seconds)


class PushFailed(Exception):
    """Every device failed for a reason that may pass: try again later."""


def offered() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def payload(notice: Notice, link: str) -> str:
    first = notice.body.split("\n\n", 1)[0]
    return json.dumps({"title": notice.subject, "body": first, "url": link})


def send(notice: Notice, link: str) -> int:
    """Push `notice` to every device of its seat; how many took it. A device whose
    subscription is gone is dropped; PushFailed if none took it and some may later."""
    delivered, failed = 0, 0
    data = payload(notice, link)
    for device in PushDevice.objects.filter(seat_id=notice.seat_id):
        try:
            webpush(
                device.info(),
                data,
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=TTL,
                timeout=10,
            )
        except WebPushException as error:
            if error.status_code in GONE:
                log.info("Push device %s is gone; dropped", device.pk)
                device.delete()
            else:
                log.warning("Push to device %s failed: %s", device.pk, error)
                failed += 1
        except OSError as error:  # the push service could not be reached
            log.warning("Push to device %s failed: %s", device.pk, error)
            failed += 1
        else:
            delivered += 1
    if failed and not delivered:
        raise PushFailed(f"{failed} devices failed")
    return delivered
