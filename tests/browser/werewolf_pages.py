"""What a player does on a multi-night Werewolf page, for the browser tests: the lobby's roles,
a night's choices, a vote, a chat line, and reading the game from the server's database."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from playwright.sync_api import Page, expect

from games.families.werewolf.engine import Game
from games.families.werewolf.stored import game_of

from .live_server import GameDB
from .players import send_chat


def set_roles(host: Page, roles: Mapping[str, int]) -> None:
    """The host's role counters (every other role 0), saved; waits for the saved line-up."""
    for row in host.locator(".deck input[type=number]").all():
        role = (row.get_attribute("name") or "").removeprefix("count_")
        row.fill(str(roles.get(role, 0)))
    host.get_by_role("button", name="Save the roles").click()
    expect(host.locator(".deck-summary")).to_contain_text(f"{sum(roles.values())} roles for")


def set_pace(host: Page, **fields: str) -> None:
    """The host's pace form: `opens_with="day"`, `minutes_night="3"`, `lovers="1"`..."""
    panel = host.locator("#panel")
    version = panel.get_attribute("data-version")
    form = host.locator("form:has(button:text('Save the pace'))")
    for name, value in fields.items():
        field = form.locator(f"[name={name}]")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    form.get_by_role("button", name="Save the pace").click()
    expect(panel).not_to_have_attribute("data-version", version or "")
    # Another push may come first: wait for the saved values, as the server drew them.
    saved = host.locator("form:has(button:text('Save the pace'))")
    for name, value in fields.items():
        expect(saved.locator(f"[name={name}]")).to_have_value(value)


def game(db: GameDB, code: str) -> Game:
    """The game as the server stores it, read with the family's own reader (no Django)."""
    state: Any = db.table(code)["state"]
    assert state, f"table {code} has not been dealt"
    return game_of(state)


def roles(db: GameDB, code: str) -> dict[str, str]:
    return {player: role.name for player, role in game(db, code).setup.roles.items()}


def _sent(page: Page, card: str) -> None:
    """Wait until the answer to a form in `card` is on the page: the card is gone (the step
    moved on) or says the choice is in."""
    expect(page.locator(f"{card}:not(:has(.done))")).to_have_count(0)


def night(page: Page, choices: Mapping[str, str]) -> None:
    """Send tonight's choices: ability key -> the player's name (or "Nobody")."""
    card = page.locator("#night-action")
    for key, name in choices.items():
        card.locator(f"#night-{key}").select_option(label=name)
    card.get_by_role("button", name="Send my choices").click()
    _sent(page, "#night-action")


def sleep(*pages: Page) -> None:
    """Players without a night power say they are done for the night (the night ends early
    only once every living player has: docs/security.md)."""
    for page in pages:
        page.get_by_role("button", name="Done for tonight").click()
    for page in pages:
        _sent(page, "#night-sleep")


def vote(page: Page, name: str) -> None:
    page.get_by_label("Vote for").select_option(label=name)
    page.get_by_role("button", name="Vote", exact=True).click()
    _sent(page, ".form-vote")


def say(page: Page, channel: str, text: str) -> None:
    """Write a line in `channel` ("public", "pack", "graveyard") and wait for it to show."""
    send_chat(page, text, channel)
    box = page.locator(f'.channel[data-channel="{channel}"]')
    expect(box.locator(".chat-log")).to_contain_text(text)


def phase(page: Page, label: str) -> None:
    expect(page.locator(f'#panel[data-phase-label="{label}"]')).to_be_visible()


def never_shown(pages: Iterable[Page], text: str) -> None:
    """`text` is nowhere in these pages' HTML (hidden elements and attributes included)."""
    for page in pages:
        assert text not in page.content(), (page.url, text)


def ready(page: Page) -> None:
    """Say "I'm done talking" and wait for the answer."""
    page.get_by_role("button", name="I'm done talking").click()
    expect(page.get_by_role("button", name="I'm done talking")).to_have_count(0)


def choose(page: Page, label: str, name: str, button: str) -> None:
    """Pick `name` in the select labelled `label` and press `button`; wait until the form has
    gone (the game moved on) or been answered."""
    page.get_by_label(label, exact=True).select_option(label=name)
    press(page, button)


def press(page: Page, button: str) -> None:
    """Press `button` and wait for the page's next version."""
    version = page.locator("#panel").get_attribute("data-version")
    page.get_by_role("button", name=button, exact=True).click()
    expect(page.locator("#panel")).not_to_have_attribute("data-version", version or "")


def move_on(host: Page) -> None:
    """The host's "Move on now" (Host tools of the game)."""
    tools = host.locator("details.host-tools:has(button:text('Move on now'))")
    tools.locator("summary").click()
    press(host, "Move on now")


def wait_for_table(
    db: GameDB, code: str, ready_: Callable[[dict[str, Any]], bool], timeout: float = 20.0
) -> None:
    """Wait, polling the server's database, until `ready_(the table's row)` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ready_(db.table(code)):
            return
        time.sleep(0.2)
    raise AssertionError(f"table {code} is still at {db.table(code)['phase_label']}")
