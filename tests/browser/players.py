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
# The socket's address on a table page (templates/tables/page.html, data-ws).
TABLE_SOCKET = re.compile(r"/ws/table/")

HOUSE = "onenight:house"
OFFICIAL = "onenight:official"


@dataclass
class PlayerPage:
    """An open page with the player it belongs to, and the JavaScript errors it raised."""

    name: str
    page: Page
    context: BrowserContext
    phone: bool
    websocket: bool = True
    js_errors: list[str] = field(default_factory=list)
    # The page's confirm() questions (data-confirm): each is recorded and accepted, unless
    # the test sets `accept_dialogs` to False to answer "Cancel".
    dialogs: list[str] = field(default_factory=list)
    accept_dialogs: bool = True


# new_player_page(name, *, phone=False, websocket=True) -> Page
NewPlayerPage = Callable[..., Page]


# Three players, only roles with no night action, so the night is three clicks.
QUIET_DECK = {"villager": 3, "tanner": 1, "hunter": 1, "insomniac": 1}


def code_of(page: Page) -> str:
    return re.search(r"/g/([A-Z0-9]+)/$", page.url).group(1)  # type: ignore[union-attr]


def create_table(url: str, host: Page, host_name: str, game: str = HOUSE) -> str:
    """The host opens a table from the home page; returns its code."""
    host.goto(url + "/")
    host.get_by_label("Your name").fill(host_name)
    host.get_by_label("Game", exact=True).select_option(game)
    host.get_by_role("button", name="Create the game").click()
    expect(host).to_have_url(re.compile(r"/g/[A-Z0-9]+/$"))
    return code_of(host)


def save_settings(host: Page, **fields: str) -> None:
    """The host's "Time and rules" form in the lobby: `day_minutes="5"`, `rules_phrase="no"`..."""
    labels = {
        "day_minutes": "Day length (minutes)",
        "night_minutes": "Night time limit (minutes, optional)",
        "vote_minutes": "Vote time limit (minutes, optional)",
    }
    for name, value in fields.items():
        if name == "rules_phrase":
            host.get_by_label("Players type the rules phrase to join").select_option(value)
        else:
            host.get_by_label(labels[name]).fill(value)
    panel = host.locator("#panel")
    version = int(panel.get_attribute("data-version") or 0)
    host.get_by_role("button", name="Save the settings").click()
    expect(panel).not_to_have_attribute("data-version", str(version))


def join_table(url: str, code: str, page: Page, name: str, phrase: str | None = None) -> None:
    page.goto(f"{url}/g/{code}/join")
    page.get_by_label("Your name").fill(name)
    if phrase is not None:
        page.locator("input[name=phrase]").fill(phrase)
    page.get_by_role("button", name="Take a seat").click()
    expect(page).to_have_url(f"{url}/g/{code}/")
    expect(page.get_by_text("Waiting for the host to set up the game and start.")).to_be_visible()


def seat_table(
    url: str, host: Page, host_name: str, guests: Mapping[str, Page], game: str = HOUSE
) -> str:
    """The host opens a table whose players need not type the rules phrase, and each guest
    (name -> page) takes a seat in its lobby. Returns the table's code."""
    code = create_table(url, host, host_name, game)
    save_settings(host, rules_phrase="no")
    for name, page in guests.items():
        join_table(url, code, page, name)
    expect(host.locator(".lobby")).to_contain_text(f"{len(guests) + 1} at the table")
    return code


def fill_deck(host: Page, deck: Mapping[str, int]) -> None:
    """Set the host's card counters to `deck` (role -> count; every other role 0), unsaved."""
    for row in host.locator(".deck input[type=number]").all():
        role = (row.get_attribute("name") or "").removeprefix("count_")
        row.fill(str(deck.get(role, 0)))


def save_deck(host: Page, deck: Mapping[str, int]) -> None:
    """Fill the counters and save them; waits for the saved deck on the host's page."""
    fill_deck(host, deck)
    host.get_by_role("button", name="Save the cards").click()
    total = sum(deck.values())
    expect(host.locator(".deck-summary")).to_contain_text(f"{total} of {total} cards:")


def panel_version(page: Page) -> int:
    return int(page.locator("#panel").get_attribute("data-version") or 0)


def in_phase(page: Page, label: str, timeout: float | None = None) -> None:
    """Wait until `page` shows the panel of phase `label` ("Lobby", "Night", "Day"...)."""
    expect(page.locator(f'#panel[data-phase-label="{label}"]')).to_be_visible(timeout=timeout)


def start_game(host: Page) -> None:
    host.get_by_role("button", name="Deal and start the game").click()
    in_phase(host, "Night")


def quiet_night(pages: Mapping[str, Page], timeout: float | None = None) -> None:
    """A QUIET_DECK night: each player sends "no action"; every page comes to the day."""
    for page in pages.values():
        in_phase(page, "Night", timeout)
        page.get_by_role("button", name="No action: I'm ready").click()
    for page in pages.values():
        in_phase(page, "Day", timeout)


# Counts the page's finished XMLHttpRequests (htmx's POSTs), one tick after htmx has handled
# each answer, in <html data-answers>: a test can wait for an answer to have been dealt with,
# not for a time. (A locator waits for it: the page's CSP forbids wait_for_function's eval.)
COUNT_ANSWERS = """
const send = XMLHttpRequest.prototype.send;
XMLHttpRequest.prototype.send = function (...args) {
  this.addEventListener("loadend", () => setTimeout(() => {
    const root = document.documentElement;
    root.dataset.answers = String(Number(root.dataset.answers || 0) + 1);
  }, 0));
  return send.apply(this, args);
};
"""


def answers_handled(page: Page) -> int:
    return int(page.locator("html").get_attribute("data-answers") or 0)


def wait_for_answers(page: Page, count: int) -> None:
    """Wait until the page has handled `count` answers in all (see COUNT_ANSWERS)."""
    assert count > 0
    expect(page.locator("html")).to_have_attribute("data-answers", str(count))


def open_chat(page: Page) -> None:
    """Open the chat's drawer on a phone (static/js/table.js); a wide page always shows it."""
    toggle = page.locator("#table.drawer:not(.chat-open) #chat-toggle")
    if toggle.is_visible():
        toggle.click()
    expect(page.locator("#chat")).to_be_visible()


def close_chat(page: Page) -> None:
    """Close the chat's drawer, if open, so that it covers nothing of the panel."""
    close = page.locator("#table.chat-open .chat-close")
    if close.is_visible():
        close.click()
    expect(page.locator("#table.chat-open")).to_have_count(0)


def expect_chat_writable(page: Page) -> None:
    """The chat's box takes a line (the drawer opened to look, and closed again)."""
    open_chat(page)
    expect(page.get_by_label("Chat message")).to_be_visible()
    close_chat(page)


def send_chat(page: Page, text: str, channel: str | None = None) -> None:
    """Write `text` in the chat (in `channel`, or the only box) and send it; waits for the
    answer (the line in the sender's chat, or the box's refusal), the drawer then closed."""
    open_chat(page)
    box = page.locator(f'.channel[data-channel="{channel}"]' if channel else ".channel")
    box.get_by_label("Chat message").fill(text)
    box.get_by_role("button", name="Send").click()
    answered = box.locator(".chat-log li.mine", has_text=text).or_(box.locator(".chat-error"))
    expect(answered.first).to_be_attached()
    close_chat(page)
