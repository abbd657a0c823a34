"""Whole One Night games with a Vampire deck, in real browsers: the marks and the Epic Battle
(docs/rules.md 8b; rules/002 s6).

The host opens an official-rules table and picks a deck with a werewolf, vampires and village
cards; four players join on phones. Each game is dealt by a seeded source the test can foresee
(the server's `deals_with_seed`), chosen so that the players hold a werewolf, a vampire and the
cards with two-part forms (the Count's pick and fear, the Gremlin's word and two players, the
Marksman's card and mark with "nobody", Cupid's two lovers, the Copycat's centre card and then
its copy's own action). Every night action and vote is a random choice among what the page's
own form offers.

What each page must show is the engine's answer, computed here from the stored deal and
actions: each player's night report (their mark at the end of dusk included) and nobody else's,
and at the reveal each player's mark, the dead and the winners of an Epic Battle (werewolves,
vampires and villagers all among the players).
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from games.families.onenight.engine import Role, finish_game
from games.families.onenight.engine.epic import is_epic
from games.families.onenight.engine.messages import night_report

from .live_server import LiveServer
from .players import NewPlayerPage, PlayerPage, in_phase
from .seeded import LIVE_MS, body_text, deal_seeded_game, foreseen_seed, vote_at_random

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve"]  # Ann is the host
NO_ACTION = 0.15  # the chance that a player who may do nothing does nothing
# Eight cards for five players: a werewolf, two vampires, and village cards whose forms have
# two parts.
DECK = {
    "werewolf": 1,
    "vampire": 1,
    "the_count": 1,
    "cupid": 1,
    "gremlin": 1,
    "marksman": 1,
    "copycat": 1,
    "diseased": 1,
}
# Per game: the seed of its choices, and the roles that must be in players' hands.
GAMES = {
    "count-gremlin-marksman-cupid": (
        7,
        {Role.WEREWOLF, Role.THE_COUNT, Role.GREMLIN, Role.MARKSMAN, Role.CUPID},
    ),
    "copycat-vampire-diseased-cupid": (
        23,
        {Role.WEREWOLF, Role.VAMPIRE, Role.COPYCAT, Role.DISEASED, Role.CUPID},
    ),
}


def send_random_form(page: Page, rng: random.Random) -> str:
    """One of the choices the page's night form offers: a radio, or a value for each select
    (different players in each, as every two-part form asks), or no action when the form
    allows it. Returns the form's kind: "copy", "action" or "none"."""
    form = page.locator("#night-action")
    expect(form.locator("form").first).to_be_visible()
    copy = form.get_by_role("button", name="Copy this card")
    skip = form.get_by_role("button", name=re.compile(r"^No action"))
    radios = form.locator("input[type=radio][name=targets]")
    selects = form.locator("select[name=targets]")
    if copy.count():
        values = [r.get_attribute("value") or "" for r in radios.all()]
        form.locator(f'input[type=radio][value="{rng.choice(values)}"]').check()
        copy.click()
        return "copy"
    if skip.count() and (rng.random() < NO_ACTION or not (radios.count() or selects.count())):
        skip.click()
        return "none"
    if radios.count():
        values = [r.get_attribute("value") or "" for r in radios.all()]
        form.locator(f'input[type=radio][value="{rng.choice(values)}"]').check()
    chosen: list[str] = []
    for select in selects.all():
        offered = [
            v
            for o in select.locator("option").all()
            if (v := o.get_attribute("value") or "") and v not in chosen
        ]
        value = rng.choice(offered)
        if value == "-" and "-" in chosen:
            value = next(v for v in offered if v != "-")
        chosen.append(value)
        select.select_option(value)
    form.locator("button.primary").click()
    return "action"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_vampire_game_with_an_epic_battle_played_on_phones(
    game: str,
    live_server: LiveServer,
    new_player_page: NewPlayerPage,
    player_pages: list[PlayerPage],
) -> None:
    choices, wanted = GAMES[game]
    seed = foreseen_seed(NAMES, DECK, choices, wanted)
    rng = random.Random(choices)
    db = live_server.db
    pages = {name: new_player_page(name, phone=True) for name in NAMES}

    # --- The lobby: an official table, a Vampire deck, dealt with the foreseen seed --------
    code, deal = deal_seeded_game(live_server, pages, DECK, seed, "Count")

    # --- The night: each player's own card, then random choices of their own forms -----------
    for name in NAMES:
        page = pages[name]
        in_phase(page, "Night", LIVE_MS)
        expect(page.locator("#role-message h2")).to_have_text(
            f"You are the {deal.cards[name].title}."
        )
        if send_random_form(page, rng) == "copy":
            # The Copycat's second step: the copied card's own form, or nothing more to send.
            expect(page.locator("#night-action")).to_contain_text("You copied the card of a")
            if page.locator("#night-action form").count():
                send_random_form(page, rng)
        if name != NAMES[-1]:
            expect(page.locator("#night-action .done")).to_have_text(
                "Your action is in. The night ends when everyone has sent theirs.",
                timeout=LIVE_MS,
            )

    # --- The day: each player's report, their own mark, no secret of another ----------------
    for page in pages.values():
        in_phase(page, "Day", LIVE_MS)
    night = db.game(code).night()
    assert {p: night.final[p].value for p in night.final} == db.final_roles(code)
    assert night.marks, "a Vampire deck plays with marks"
    reports = {name: night_report(night, name) for name in NAMES}
    for name, page in pages.items():
        expect(page.locator("#night-report p")).to_have_text(list(reports[name]))
        text = body_text(page)
        for other in NAMES:
            if other == name:
                continue
            for line in reports[other]:
                assert line in reports[name] or line not in text, (name, other, line)

    # --- The vote: a random other player each ------------------------------------------------
    votes = vote_at_random(pages, rng)

    # --- The reveal: the marks, the Epic Battle's dead and winners, as the engine says -------
    # The seeds are chosen so that werewolves, vampires and villagers are all among the players
    # at dawn (a change that loses this should choose other seeds).
    assert is_epic(night), night.marks
    result = finish_game(night, votes)
    assert result.vote is not None and result.outcome is not None
    assert result.vote.epic
    expect(pages[NAMES[-1]].locator("#reveal")).to_be_visible(timeout=LIVE_MS)
    stored = db.game(code).result
    assert stored is not None
    assert sorted(stored["dead"]) == sorted(result.vote.dead)
    assert sorted(stored["winners"]) == sorted(result.outcome.winners)
    for page in pages.values():
        reveal = page.locator("#reveal")
        expect(reveal).to_be_visible(timeout=LIVE_MS)
        expect(reveal.locator(".winners")).to_have_text(result.outcome.reason)
        rows = reveal.locator("tbody tr")
        for i, name in enumerate(NAMES):
            expect(rows.nth(i).locator("td").nth(0)).to_have_text(name)
            expect(rows.nth(i).locator("td.mark")).to_contain_text(night.marks[name].title)
            won = re.compile(r"\bwon\b")
            if name in result.outcome.winners:
                expect(rows.nth(i)).to_have_class(won)
            else:
                expect(rows.nth(i)).not_to_have_class(won)
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)
