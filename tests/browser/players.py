"""Player pages for the browser tests: one browser context (own cookies) per player."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import BrowserContext, Page

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
