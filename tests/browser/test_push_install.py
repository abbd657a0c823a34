"""The installable app and its push notifications (issue 41, item 4), in Chromium against
daphne: the page offers the web app manifest, "Notify me on this device" registers the service
worker for the whole site and asks Chromium for a push subscription; the service worker caches
nothing, so a reload still comes from the server.

Headless Chromium with no network here refuses push registrations ("Registration failed -
permission denied": its push service is Google's, out of reach): the test then checks that the
page says so and the server stores nothing. Where Chromium can subscribe, it checks that the
server stored the subscription for the seat. What the server sends to a subscription is tested
against a push service on this machine (tests/notices/test_push.py)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from .live_server import LiveServer, run_live_server
from .players import DEFAULT_TIMEOUT_MS, create_table

# A VAPID pair made for these tests with `manage.py vapid_keys`: no secret of any real server.
PUBLIC = "BKWU8hW8mbgXo0j273yrGJE9ytXbL-XRT0CdFYnK_YsA07UxkJ746f8dLIAHwWmoPw6lvfOdHjIWtyUgUhOOg10"
PRIVATE = "mt7FPZgTu2N934t1cstaouyYv6H4DNP86JLOw4KE5yM"


@pytest.fixture(scope="module")
def push_server() -> Iterator[LiveServer]:
    env = {"ONENIGHT_VAPID_PUBLIC_KEY": PUBLIC, "ONENIGHT_VAPID_PRIVATE_KEY": PRIVATE}
    with run_live_server(name="daphne-push", extra_env=env) as server:
        yield server


def test_the_app_installs_its_service_worker_and_subscribes(
    push_server: LiveServer, browser: Browser
) -> None:
    url = push_server.url
    with urllib.request.urlopen(f"{url}/notices/manifest.webmanifest") as answer:
        manifest = json.load(answer)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    with urllib.request.urlopen(f"{url}/notices/sw.js") as answer:
        assert answer.headers["Service-Worker-Allowed"] == "/"
        assert "fetch" not in answer.read().decode().replace("no fetch handler", "")

    context = browser.new_context(permissions=["notifications"])
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    page = context.new_page()
    try:
        code = create_table(url, page, "Ann")
        assert page.locator('link[rel="manifest"]').count() == 1
        page.locator("details#notices summary").click()
        page.get_by_role("button", name="Notify me on this device").click()
        box = page.locator("[data-push-url]")
        expect(box).to_have_attribute("data-push-state", re.compile("on|failed"), timeout=30_000)
        active = page.evaluate(
            "navigator.serviceWorker.getRegistration('/').then(r => !!(r && r.active))"
        )
        assert active
        devices = push_server.db.query(
            "SELECT d.endpoint FROM notices_pushdevice d JOIN tables_seat s ON s.id = d.seat_id"
            " JOIN tables_table t ON t.id = s.table_id WHERE t.code = ?",
            (code,),
        )
        if box.get_attribute("data-push-state") == "on":
            assert len(devices) == 1 and devices[0]["endpoint"].startswith("https://")
        else:
            expect(box.locator("[data-push-status]")).to_contain_text("could not be set up")
            assert devices == []
        # Nothing cached: the page comes from the server again, not from the worker.
        assert page.evaluate("caches.keys()") == []
        reloaded = page.reload()
        assert reloaded is not None and not reloaded.from_service_worker
    finally:
        context.close()
