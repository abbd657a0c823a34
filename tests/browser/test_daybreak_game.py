"""Whole One Night games with a Daybreak deck, in real browsers (docs/rules.md 8a).

The host opens an official-rules table (or a house one, to which the host adds Daybreak's
cards: docs/rules.md 8a.8) and picks a deck of Daybreak cards in the lobby; four players join
on phones. Each game is dealt by a seeded source the test can foresee (the
server's `deals_with_seed`, engine `deal_cards` with the same seed), chosen so that the roles
with a two-part or token-laying action (Sentinel, Alpha Wolf, Paranormal Investigator, Witch,
Curator) and the seers are in players' hands; every night action and vote is then a random
legal choice of the same seed, picked among what the page's own form offers.

What each page must show is the engine's answer for that game, computed here from the stored
deal and actions: each player's night report (and, by hand, what the seers learned), the "On
the table" block that every seat sees alike (the shield, the artifact face down), and at the
reveal the night step by step, the tokens and the winners. No page shows another player's
card, report or artifact before the reveal.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

import pytest
from playwright.sync_api import Page, expect

from games.families.onenight.engine import (
    CENTRE_POSITIONS,
    NightResult,
    Role,
    Ruleset,
    decide_outcome,
    tally_votes,
)
from games.families.onenight.engine.messages import night_report
from games.families.onenight.panels import daybreak_tokens, on_the_table

from .live_server import LiveServer
from .players import NewPlayerPage, PlayerPage, in_phase
from .seeded import LIVE_MS, body_text, deal_seeded_game, foreseen_seed, vote_at_random

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]  # Ann is the host
NO_ACTION = 0.15  # the chance that a player who may do nothing does nothing
# Nine cards for five players: one werewolf is set apart as the Alpha Wolf's centre werewolf
# card, the other eight are shuffled to the five players and the three centre places.
DECK = {
    "werewolf": 1,
    "seer": 1,
    "tanner": 1,
    "sentinel": 1,
    "alpha_wolf": 1,
    "apprentice_seer": 1,
    "paranormal_investigator": 1,
    "witch": 1,
    "curator": 1,
}
# Per game: the seed of its choices, the roles that must be in players' hands, the rules.
GAMES = {
    "shield-alpha-witch-investigator-seer": (
        11,
        {Role.SENTINEL, Role.ALPHA_WOLF, Role.WITCH, Role.PARANORMAL_INVESTIGATOR, Role.SEER},
        Ruleset.OFFICIAL,
    ),
    "curator-apprentice-witch-shield-alpha": (
        29,
        {Role.CURATOR, Role.APPRENTICE_SEER, Role.WITCH, Role.SENTINEL, Role.ALPHA_WOLF},
        Ruleset.OFFICIAL,
    ),
    # The same cards added to a house table: the house night's order (8a.8), the house vote.
    "house-curator-investigator-shield-alpha-seer": (
        41,
        {Role.CURATOR, Role.PARANORMAL_INVESTIGATOR, Role.SENTINEL, Role.ALPHA_WOLF, Role.SEER},
        Ruleset.HOUSE,
    ),
}


def send_random_action(page: Page, rng: random.Random, last: bool) -> None:
    """One of the choices the page's form offers, or no action when it allows none. The
    `last` player's action ends the night: their page goes straight to the day."""
    form = page.locator("#night-action")
    expect(form.locator("form")).to_be_visible()
    values = [r.get_attribute("value") or "" for r in form.locator("input[type=radio]").all()]
    skip = form.get_by_role("button", name=re.compile(r"^No action"))
    # Mostly an action (the point of the game), now and then none when the form allows it.
    choice = None if skip.count() and rng.random() < NO_ACTION else rng.choice(values)
    if choice is None:
        skip.click()
    else:
        form.locator(f'input[type=radio][value="{choice}"]').check()
        form.get_by_role("button", name="Send my action").click()
    if not last:
        expect(form.locator(".done")).to_have_text(
            "Your action is in. The night ends when everyone has sent theirs."
        )


def check_the_seers(night: NightResult, reports: Mapping[str, Sequence[str]]) -> None:
    """What the Seer and Apprentice Seer learned, by hand from the deal: nothing moves the
    left, middle and right centre cards before step 5 (8a.2), and a shield lies on a player's
    card only."""
    deal = night.deal
    centre = {p: f"the {p} centre card" for p in CENTRE_POSITIONS}
    for player, targets in night.actions.items():
        role = deal.cards[player]
        looked = [t for t in targets if t in CENTRE_POSITIONS]
        if role not in (Role.SEER, Role.APPRENTICE_SEER) or not looked:
            continue
        lines = tuple(
            f"You looked at {centre[c]}: it is the {deal.cards[c].title}." for c in looked
        )
        assert reports[player] == lines, reports[player]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_daybreak_game_played_on_phones(
    game: str,
    live_server: LiveServer,
    new_player_page: NewPlayerPage,
    player_pages: list[PlayerPage],
) -> None:
    choices, wanted, ruleset = GAMES[game]
    seed = foreseen_seed(NAMES, DECK, choices, wanted, ruleset)
    rng = random.Random(choices)
    db = live_server.db
    pages = {name: new_player_page(name, phone=True) for name in NAMES}

    # --- The lobby: a table of the game's rules, a Daybreak deck, the foreseen seed's deal ----
    code, deal = deal_seeded_game(
        live_server, pages, DECK, seed, "Paranormal Investigator", ruleset
    )
    assert deal.ruleset is ruleset

    # --- The night: each player's own card, then a random choice of their own form -----------
    for name in NAMES:
        page = pages[name]
        in_phase(page, "Night", LIVE_MS)
        expect(page.locator("#role-message h2")).to_have_text(
            f"You are the {deal.cards[name].title}."
        )
        send_random_action(page, rng, last=name == NAMES[-1])

    # --- The day: each player's report, the public table, no secret of another ---------------
    for page in pages.values():
        in_phase(page, "Day", LIVE_MS)
    night = db.game(code).night()
    assert {p: night.final[p].value for p in night.final} == db.final_roles(code)
    # The seeds are chosen so that every player acts (a shield, the alpha's swap, the looks, the
    # witch's swap, an artifact): a change that loses this should choose other seeds.
    assert all(night.actions[name] for name in NAMES), night.actions
    reports = {name: night_report(night, name) for name in NAMES}
    check_the_seers(night, reports)
    table = on_the_table(night)
    shielded = [t for n, ts in night.actions.items() if deal.cards[n] is Role.SENTINEL for t in ts]
    assert [line for line in table if line.endswith(": shielded")] == [
        f"{t}'s card: shielded" for t in shielded
    ]
    holders = list(night.artifacts)
    assert [line for line in table if "artifact" in line] == [
        f"{h}'s card carries an artifact" for h in holders
    ]
    for name, page in pages.items():
        report = page.locator("#night-report p")
        expect(report).to_have_text(list(reports[name]))
        if table:
            expect(page.locator("#on-table li")).to_have_text(list(table))
        else:
            expect(page.locator("#on-table")).to_have_count(0)
        text = body_text(page)
        for other in NAMES:
            if other == name:
                continue
            for line in reports[other]:
                assert line in reports[name] or line not in text, (name, other, line)
            role = deal.cards[other]
            if role is not deal.cards[name]:
                assert f"You are the {role.title}." not in text, (name, other)
        for holder, artifact in night.artifacts.items():
            assert (artifact.title in text) == (holder == name), (name, artifact)

    # --- The vote: a random other player each ------------------------------------------------
    votes = vote_at_random(pages, rng)

    # --- The reveal: the night step by step, the tokens, the engine's winners ----------------
    tally = tally_votes(night, votes)
    outcome = decide_outcome(night, tally.dead)
    expect(pages[NAMES[-1]].locator("#reveal")).to_be_visible(timeout=LIVE_MS)
    result = db.game(code).result
    assert result is not None
    assert sorted(result["dead"]) == sorted(tally.dead)
    assert sorted(result["winners"]) == sorted(outcome.winners)
    log = [step.text for step in night.log]
    tokens = list(daybreak_tokens(night))
    assert any("centre werewolf card" in line for line in tokens)
    for page in pages.values():
        reveal = page.locator("#reveal")
        expect(reveal).to_be_visible(timeout=LIVE_MS)
        expect(reveal.locator("ol.log li")).to_have_text(log)
        expect(reveal.locator("ul.tokens li")).to_have_text(tokens)
        expect(reveal.locator(".winners")).to_have_text(outcome.reason)
        rows = reveal.locator("tbody tr")
        for i, name in enumerate(NAMES):
            cells = rows.nth(i).locator("td")
            expect(cells.nth(0)).to_have_text(name)
            start, final = deal.cards[name].title, night.final[name].title
            expect(cells.nth(1)).to_have_text(
                re.compile("^" + re.escape(start if start == final else f"{start} → {final}"))
            )
            won = re.compile(r"\bwon\b")
            if name in outcome.winners:
                expect(rows.nth(i)).to_have_class(won)
            else:
                expect(rows.nth(i)).not_to_have_class(won)
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)
