"""Every page passes axe-core's checks, the accessibility engine browsers' own audits use
(issue 30: "every page usable with a keyboard and a screen reader").

axe checks what a screen reader depends on: every control and image named, labels tied to
their fields, landmarks and headings in order, ARIA used as specified, no focusable element
hidden from the reader, the page's language, and text contrast in both themes. It reads the
live page in Chromium, after its scripts ran, at each step of a One Night game on a phone, and on
the pages around a game: home, join, the rules, a Werewolf lobby and night, table mode, errors.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from tests.werewolf.test_table_mode import CLASSIC

from .live_server import LiveServer
from .players import (
    OFFICIAL,
    QUIET_DECK,
    NewPlayerPage,
    in_phase,
    join_table,
    save_deck,
    save_settings,
    seat_table,
    start_game,
)
from .test_table_mode_werewolf import _enter_cards as enter_cards
from .test_table_mode_werewolf import _open as open_moderated

AXE = Axe()
# The WCAG 2.1 A and AA rules and axe's best practices (headings, landmarks, regions).
OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}


def audit(page: Page, where: str, found: dict[str, str]) -> None:
    """Run axe on `page` in the light and the dark theme; note each violation by rule."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        results = AXE.run(page, options=OPTIONS)
        for violation in results.response["violations"]:
            key = f"{violation['id']} ({violation['impact']})"
            if key not in found:
                nodes = violation["nodes"][:3]
                html = " | ".join(node["html"][:160] for node in nodes)
                found[key] = f"{where} [{scheme}]: {violation['help']}: {html}"
    page.emulate_media(color_scheme="light")


@pytest.fixture
def violations() -> Iterator[dict[str, str]]:
    found: dict[str, str] = {}
    yield found
    assert not found, "axe-core found:\n" + "\n".join(f"- {k}: {v}" for k, v in found.items())


def test_a_one_night_game_on_phones_passes_axe(
    live_server: LiveServer, new_player_page: NewPlayerPage, violations: dict[str, str]
) -> None:
    url = live_server.url
    ann = new_player_page("Ann", phone=True)
    ben = new_player_page("Ben", phone=True)
    cat = new_player_page("Cat", phone=True)
    ann.goto(url + "/")
    audit(ann, "home", violations)
    code = seat_table(url, ann, "Ann", {"Ben": ben})
    audit(ann, "lobby (host)", violations)
    audit(ben, "lobby (guest)", violations)
    cat.goto(f"{url}/g/{code}/join")
    audit(cat, "join", violations)
    join_table(url, code, cat, "Cat")
    save_deck(ann, QUIET_DECK)
    start_game(ann)
    in_phase(ben, "Night")
    audit(ann, "night", violations)
    for page in (ann, ben, cat):
        in_phase(page, "Night")
        page.get_by_role("button", name="No action: I'm ready").click()
    in_phase(ann, "Day")
    # A screen reader hears the new phase in a few words, not the whole panel again.
    expect(ann.locator("#announce")).to_have_text("Day")
    expect(ann.locator("#panel")).not_to_have_attribute("aria-live", "polite")
    audit(ann, "day", violations)
    ann.get_by_role("button", name="End the day now").click()
    in_phase(ann, "Voting")
    # ...and, when the game newly needs the player, the call with it.
    expect(ann.locator("#announce")).to_have_text("Voting. The game needs you.")
    audit(ann, "voting", violations)
    for page, target in ((ann, "Ben"), (ben, "Cat"), (cat, "Ann")):
        in_phase(page, "Voting")
        page.get_by_role("radio", name=target).check()
        page.get_by_role("button", name="Cast my vote").click()
    in_phase(ann, "Reveal")
    audit(ann, "reveal", violations)


def test_the_pages_around_a_game_pass_axe(
    live_server: LiveServer, new_player_page: NewPlayerPage, violations: dict[str, str]
) -> None:
    url = live_server.url
    page = new_player_page("Reader")
    for path, where in (
        ("/one-night/house/rules", "One Night rules"),
        ("/werewolf/classic/roles", "Werewolf roles"),
        ("/at-the-table/", "table mode"),
        ("/at-the-table/one-night/", "narrator set-up"),
        ("/at-the-table/several-nights/", "moderator set-up"),
        ("/no/such/page", "not found"),
        ("/about/", "about and credits"),
    ):
        page.goto(url + path)
        audit(page, where, violations)


def test_a_werewolf_table_and_an_official_lobby_pass_axe(
    live_server: LiveServer, new_player_page: NewPlayerPage, violations: dict[str, str]
) -> None:
    url = live_server.url
    ann = new_player_page("Ann")
    ben = new_player_page("Ben")
    seat_table(url, ann, "Ann", {"Ben": ben}, game=OFFICIAL)
    save_settings(ann, day_minutes="5")
    audit(ann, "official lobby (desktop)", violations)
    ann.goto(url + "/")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_label("Game", exact=True).select_option("werewolf:classic")
    ann.get_by_role("button", name="Create the game").click()
    expect(ann.locator("#panel")).to_be_visible()
    audit(ann, "werewolf lobby", violations)


def test_table_mode_passes_axe(
    live_server: LiveServer, new_player_page: NewPlayerPage, violations: dict[str, str]
) -> None:
    """The moderator's assistant through a night and a morning, and the narrator, on a phone."""
    url = live_server.url
    page = new_player_page("Moderator", phone=True)
    open_moderated(page, url, "classic", list(CLASSIC))
    audit(page, "moderator lobby", violations)
    enter_cards(page, CLASSIC)
    audit(page, "moderator night", violations)
    page.locator("#mod-call").get_by_role("button", name="Fay", exact=True).click()
    expect(page.locator("#mod-call h2")).to_have_text("Dan (Witch)")
    audit(page, "moderator witch", violations)
    narrator = new_player_page("Narrator", phone=True)
    narrator.goto(f"{url}/at-the-table/one-night/")
    audit(narrator, "narrator set-up", violations)
    narrator.get_by_label("Players, one per line, in seat order").fill("Ann\nBen\nCat")
    narrator.get_by_role("button", name="Ready: show the night").click()
    expect(narrator.locator("#narrator")).to_be_visible()
    audit(narrator, "narrator", violations)
