"""One Night games whose deal a test foresees: a deck of expansion cards, players on phones, and
the server dealing with a seeded source (`LiveServer.deals_with_seed`) that the engine's
`deal_cards` repeats here (tests/browser/test_daybreak_game.py, test_vampire_game.py,
test_held_copy.py). Official rules unless a test asks for the house rules (Daybreak's cards
added to a house table: docs/rules.md 8a.8)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from playwright.sync_api import Page, expect

from games.families.onenight.engine import Deal, Role, Ruleset, deal_cards, role_limits

from .live_server import LiveServer
from .players import HOUSE, OFFICIAL, create_table, in_phase, join_table, save_deck, save_settings

LIVE_MS = 8_000


def deck_roles(deck: Mapping[str, int], ruleset: Ruleset = Ruleset.OFFICIAL) -> list[Role]:
    """The deck as the lobby stores it: in the order of its counters."""
    return [r for r in role_limits(ruleset) for _ in range(deck.get(r.value, 0))]


def foreseen_seed(
    names: Sequence[str],
    deck: Mapping[str, int],
    choices: int,
    wanted: set[Role],
    ruleset: Ruleset = Ruleset.OFFICIAL,
) -> int:
    """The first seed from `choices` on whose deal the players hold the `wanted` roles."""
    cards = deck_roles(deck, ruleset)
    for seed in range(choices, choices + 20_000):
        deal = deal_cards(ruleset, list(names), cards, random.Random(seed))
        if {deal.cards[n] for n in names} == wanted:
            return seed
    raise AssertionError(f"no seed deals {wanted} to the players")


def deal_seeded_game(
    live_server: LiveServer,
    pages: Mapping[str, Page],
    deck: Mapping[str, int],
    seed: int,
    shown: str,
    ruleset: Ruleset = Ruleset.OFFICIAL,
) -> tuple[str, Deal]:
    """The first page's player opens a table of `ruleset` (a house one asks no rules phrase),
    the others join, the host saves `deck` (every guest's summary names the `shown` card) and
    deals with `seed`. Returns the table's code and the deal, checked against the one stored."""
    names = list(pages)
    host = pages[names[0]]
    house = ruleset is Ruleset.HOUSE
    code = create_table(live_server.url, host, names[0], HOUSE if house else OFFICIAL)
    if house:
        save_settings(host, rules_phrase="no")
    for name in names[1:]:
        join_table(live_server.url, code, pages[name], name)
    expect(host.locator(".lobby")).to_contain_text(f"{len(names)} at the table", timeout=LIVE_MS)
    save_deck(host, deck)
    total = sum(deck.values())
    for name in names[1:]:
        summary = pages[name].locator(".deck-summary")
        expect(summary).to_contain_text(f"{total} of {total} cards:", timeout=LIVE_MS)
        expect(summary).to_contain_text(shown)
    with live_server.deals_with_seed(seed):
        host.get_by_role("button", name="Deal and start the game").click()
        in_phase(host, "Night")
    deal = deal_cards(ruleset, names, deck_roles(deck, ruleset), random.Random(seed))
    assert live_server.db.start_roles(code) == {p: r.value for p, r in deal.cards.items()}
    return code, deal


def vote_at_random(pages: Mapping[str, Page], rng: random.Random) -> dict[str, str]:
    """Everyone is ready to vote, then each casts a vote for a random other player through
    the page's voting form; returns the votes, by voter."""
    for page in pages.values():
        page.get_by_role("button", name="I'm ready to vote").click()
    names = list(pages)
    votes: dict[str, str] = {}
    for name, page in pages.items():
        in_phase(page, "Voting", LIVE_MS)
        votes[name] = rng.choice([n for n in names if n != name])
        voting = page.locator("#voting")
        voting.get_by_role("radio", name=votes[name], exact=True).check()
        voting.get_by_role("button", name="Cast my vote").click()
    return votes


def body_text(page: Page) -> str:
    """Every text of the page, hidden parts included (a secret in a folded block still leaks)."""
    return page.locator("body").text_content() or ""
