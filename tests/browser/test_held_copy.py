"""The Doppelganger's held copy, in real browsers (docs/rules.md 8a.10 #5, 8a.3).

Online every night action is sent at once, but at a table the Sentinel wakes first and a copy
of the card it shields fails unseen. So with the Sentinel in the deck and no Vampire card, the
Doppelganger's copy is made at once and the copied card is kept from its page until every
other player's action is in; then a copy of a shielded card has failed (its action complete,
its night report says a shield stopped it), else the card and the copied role's form are shown.

Two official tables, four players on phones, the same seeded deal: Ann the Werewolf, Ben the
Curator, Cat the Doppelganger, Dan the Sentinel. Cat copies Ben's card first (a Curator: a role
no page names before the copy is shown, not even the Doppelganger's own role message, which
names the roles it acts as at once), then Dan, Ann and Ben act through their own forms:
  - "shielded": Dan shields Ben's card. Cat's page says the copy is made and waits, naming
    neither the card nor the role; Ben's action ends the night, and Cat's night report says a
    shield lay on Ben's card (the copy failed: Cat stays the Doppelganger).
  - "shown": Dan shields Ann's card. Once Ben's action is in, Cat's page shows the Curator card
    and the Curator's form; Cat sends its action and the night ends with the copy made.
No page but Ben's names the Curator before the copy is shown (the Doppelganger's after it).
Screenshots of Cat's page go to test-artifacts/held_copy/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.families.onenight.engine import Role
from games.families.onenight.engine.messages import night_report
from games.families.onenight.hold import HELD_MESSAGE

from .live_server import ARTIFACTS, LiveServer
from .players import NewPlayerPage, PlayerPage, in_phase
from .seeded import LIVE_MS, body_text, deal_seeded_game, foreseen_seed

NAMES = ["Ann", "Ben", "Cat", "Dan"]  # Ann is the host
# Seven cards for four players: the Sentinel and the Doppelganger, no Vampire card.
DECK = {"werewolf": 2, "seer": 1, "robber": 1, "doppelganger": 1, "sentinel": 1, "curator": 1}
DEALT = {
    "Ann": Role.WEREWOLF,
    "Ben": Role.CURATOR,
    "Cat": Role.DOPPELGANGER,
    "Dan": Role.SENTINEL,
}
COPIED = "You copied the card of a"
DONE = "Your action is in. The night ends when everyone has sent theirs."
SHOTS = ARTIFACTS / "held_copy"
# Per game: the card Dan's shield lies on.
GAMES = {"shielded": "Ben", "shown": "Ann"}


def shot(page: Page, game: str, step: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{game}-{step}.png"), full_page=True)


def names_the_curator(page: Page) -> bool:
    """Whether the page names the Curator anywhere: its text (hidden parts included) or its
    markup (a class, an icon's name, an attribute)."""
    return bool(re.search(r"curator", page.content(), re.I)) or "Curator" in body_text(page)


def expect_held(cat: Page) -> None:
    """Cat's page while the copy waits: the copy is made, the card unseen, nothing to send."""
    action = cat.locator("#night-action")
    expect(action.locator(".held")).to_have_text(str(HELD_MESSAGE), timeout=LIVE_MS)
    expect(action.locator("form")).to_have_count(0)
    expect(action.locator(".copied")).to_have_count(0)
    assert COPIED not in body_text(cat)
    assert not names_the_curator(cat), "the held copy names the card it copied"


def send(page: Page, choice: str | None) -> None:
    """A night form sent as a player does: the radio labelled `choice`, or "No action"."""
    form = page.locator("#night-action")
    expect(form.locator("form")).to_be_visible(timeout=LIVE_MS)
    if choice is None:
        form.get_by_role("button", name=re.compile(r"^No action")).click()
    else:
        form.get_by_role("radio", name=choice, exact=True).check()
        form.get_by_role("button", name="Send my action").click()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_doppelgangers_copy_waits_for_every_other_action(
    game: str,
    live_server: LiveServer,
    new_player_page: NewPlayerPage,
    player_pages: list[PlayerPage],
) -> None:
    shield = GAMES[game]
    seed = foreseen_seed(NAMES, DECK, 1, set(DEALT.values()))
    pages = {name: new_player_page(name, phone=True) for name in NAMES}
    code, deal = deal_seeded_game(live_server, pages, DECK, seed, "Curator")
    assert {n: deal.cards[n] for n in NAMES} == DEALT
    ann, ben, cat, dan = (pages[n] for n in NAMES)
    for name, page in pages.items():
        in_phase(page, "Night", LIVE_MS)
        expect(page.locator("#role-message h2")).to_have_text(f"You are the {DEALT[name].title}.")

    def nobody_else_sees_the_copy() -> None:
        # Ben holds the Curator card; Cat's page is checked by expect_held while it waits.
        for name in ("Ann", "Dan"):
            assert not names_the_curator(pages[name]), name
            assert COPIED not in body_text(pages[name]), name

    # --- Cat copies Ben's card first: the copy is made, the card held ------------------------
    copy = cat.locator("#night-action")
    expect(copy).to_contain_text("Choose the player whose card you copy.")
    copy.get_by_role("radio", name="Ben", exact=True).check()
    copy.get_by_role("button", name="Copy this card").click()
    expect_held(cat)
    shot(cat, game, "1-held")
    nobody_else_sees_the_copy()

    # --- The others act through their own forms; Cat's page still waits ----------------------
    send(dan, f"{shield}'s card")  # the Sentinel's shield
    expect(dan.locator("#night-action .done")).to_have_text(DONE, timeout=LIVE_MS)
    send(ann, None)  # the lone werewolf looks at no centre card
    expect(ann.locator("#night-action .done")).to_have_text(DONE, timeout=LIVE_MS)
    cat.reload()  # a page opened again waits alike
    in_phase(cat, "Night", LIVE_MS)
    expect_held(cat)
    nobody_else_sees_the_copy()
    send(ben, "Dan's card")  # the Curator's artifact: the last other action

    db = live_server.db
    if game == "shielded":
        # --- The copy failed: Cat's action is complete, the night ends -------------------------
        for page in pages.values():
            in_phase(page, "Day", LIVE_MS)
        state = db.game(code)
        assert state.actions["Cat"] == {"targets": ["Ben"], "complete": True}
        night = state.night()
        assert night.copied is None
        assert night.shields == ("Ben",)
        report = night_report(night, "Cat")
        stopped = "A shield lay on Ben's card: nobody could look at it or move it."
        assert stopped in report, report
        expect(cat.locator("#night-report p")).to_have_text(list(report))
        shot(cat, game, "2-stopped")
        assert COPIED not in body_text(cat)
        assert not names_the_curator(cat), "a copy that failed shows nothing of the card"
    else:
        # --- The copy is shown: the Curator's card and form; Cat sends its action ------------
        action = cat.locator("#night-action")
        expect(action.locator(".done")).to_have_text(f"{COPIED} Curator.", timeout=LIVE_MS)
        expect(action.locator(".held")).to_have_count(0)
        expect(action.locator("form")).to_be_visible()
        expect(action.get_by_role("button", name="Send my action")).to_be_visible()
        shot(cat, game, "2-shown")
        expect(ben.locator("#night-action .done")).to_have_text(DONE)
        nobody_else_sees_the_copy()
        send(cat, "Ann's card")  # the copied Curator's artifact
        for page in pages.values():
            in_phase(page, "Day", LIVE_MS)
        night = db.game(code).night()
        assert night.copied is Role.CURATOR
        assert night.shields == ("Ann",)
        assert night.actions["Cat"] == ("Ben", "Ann"), night.actions
        expect(cat.locator("#night-report p")).to_have_text(list(night_report(night, "Cat")))
        shot(cat, game, "3-day")
    assert db.game(code).phase == "day"
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)
