"""Player pages for the browser tests: one browser context (own cookies) per player."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from playwright.sync_api import BrowserContext, Page, expect

CHROMIUM = "/usr/bin/chromium"
# Debian's Chromium, as root, with no network access beyond the test server.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
DEFAULT_TIMEOUT_MS = 10_000


@dataclass
class PlayerPage:
    """An open page with the player it belongs to, and the JavaScript errors it raised."""

    name: str
    page: Page
    context: BrowserContext
    phone: bool
    websocket: bool = True
    js_errors: list[str] = field(default_factory=list)


# new_player_page(name, *, phone=False, websocket=True) -> Page
NewPlayerPage = Callable[..., Page]


# Three players, only roles with no night action, so the night is three clicks.
QUIET_DECK = {"villager": 3, "tanner": 1, "hunter": 1, "insomniac": 1}


def seat_table(url: str, host: Page, host_name: str, guests: Mapping[str, Page]) -> str:
    """The host creates a game whose players need not type the rules phrase, and each guest
    (name -> page) takes a seat in its lobby. Returns the game's code."""
    host.goto(url + "/")
    host.get_by_label("Your name").fill(host_name)
    host.get_by_label("Players type the rules phrase to join").select_option("no")
    host.get_by_role("button", name="Create the game").click()
    code = re.search(r"/g/([A-Z0-9]+)/$", host.url).group(1)  # type: ignore[union-attr]
    for name, page in guests.items():
        page.goto(f"{url}/g/{code}/join")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Take a seat").click()
        expect(page.get_by_text("Waiting for the host")).to_be_visible()
    return code


def fill_deck(host: Page, deck: Mapping[str, int]) -> None:
    """Set the host's card counters to `deck` (role -> count; every other role 0), unsaved."""
    for row in host.locator(".deck input[type=number]").all():
        role = (row.get_attribute("name") or "").removeprefix("count_")
        row.fill(str(deck.get(role, 0)))
