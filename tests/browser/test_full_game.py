"""Whole games in real browsers: create, join, set up, deal, night, day, vote, reveal, play again.

Each player has their own browser context (own cookies, so own seat); some are on a phone-sized
screen. Pages move between phases by themselves (the push over the websocket, or the panel poll
every 5 s when there is none), so the test waits with generous timeouts instead of reloading.
What each page must show is checked against the server's database: the dealt cards, the cards
at dawn, the result.

Screenshots of every page at every step go to test-artifacts/full_game/ (house rules) and
test-artifacts/full_game_official/.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .live_server import ARTIFACTS, GameDB, LiveServer
from .players import (
    HOUSE,
    OFFICIAL,
    NewPlayerPage,
    PlayerPage,
    code_of,
    expect_chat_writable,
    fill_deck,
    in_phase,
    join_table,
    save_deck,
    save_settings,
    send_chat,
)

PHRASE = "The Ocean Chose Me"
# name -> (phone-sized screen?, websocket allowed?). The first player is the host. Bob and Eve
# never get a websocket: their pages must follow the game through the panel poll alone (Eve
# acts and votes last, so her own answer is the one that moves the game on).
PLAYERS = {
    "Ann": (True, True),
    "Bob": (False, False),
    "Cat": (True, True),
    "Dan": (False, True),
    "Eve": (True, False),
}
PHASE_CHANGE_MS = 15_000  # a panel poll is every 5 s; leave room for a slow machine
LIVE_MS = 3_000


# Layout problems a screenshot can hide or a reader can miss; reported, never failed on.
LAYOUT_PROBE = """(width) => {
  const notes = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > width + 1) {
    const culprits = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !el.closest(".table-wrap"))
      .filter((el) => ![...el.children].some((c) => c.getBoundingClientRect().right > width + 1))
      .slice(0, 4)
      .map((el) => el.tagName.toLowerCase() + (el.name ? "[name=" + el.name + "]" : ""));
    notes.push(`page is ${doc.scrollWidth}px wide in a ${width}px window (${culprits.join(", ")})`);
  }
  document.querySelectorAll(".table-wrap").forEach((wrap) => {
    if (wrap.scrollWidth > wrap.clientWidth + 1) {
      const cut = [...wrap.querySelectorAll("th")]
        .filter((th) => th.getBoundingClientRect().right > wrap.getBoundingClientRect().right + 1)
        .map((th) => th.textContent.trim());
      notes.push(`table scrolls sideways; off screen at first: ${cut.join(", ")}`);
    }
  });
  document.querySelectorAll("[hidden]").forEach((el) => {
    if (getComputedStyle(el).display !== "none") {
      const what = el.tagName.toLowerCase() + "." + el.className;
      notes.push(`${what} has the hidden attribute but is shown`);
    }
  });
  const label = document.getElementById("phase-label");
  const panel = document.getElementById("panel");
  if (label && panel && label.textContent.trim() !== panel.dataset.phaseLabel) {
    notes.push(`header says ${label.textContent.trim()}, panel is for ${panel.dataset.phaseLabel}`);
  }
  const status = document.getElementById("status");
  if (status && !status.innerText.trim() && status.getBoundingClientRect().height > 0) {
    notes.push("empty #status card is displayed");
  }
  return notes;
}"""


class Shots:
    """Numbered full-page screenshots, so the folder reads in the order of the game, and the
    layout problems found on the way (layout-notes.txt in the same folder)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        self.notes: dict[str, list[str]] = {}
        folder.mkdir(parents=True, exist_ok=True)
        for old in [*folder.glob("*.png"), *folder.glob("*.txt")]:
            old.unlink()

    def take(self, step: str, pages: dict[str, Page]) -> None:
        self.count += 1
        for name, page in pages.items():
            shot = f"{self.count:02d}-{step}-{name}"
            page.screenshot(path=str(self.folder / f"{shot}.png"), full_page=True)
            width = (page.viewport_size or {"width": 0})["width"]
            for note in page.evaluate(LAYOUT_PROBE, width):
                self.notes.setdefault(note, []).append(shot)

    def report(self) -> None:
        lines = [f"{note}\n    seen in: {', '.join(shots)}" for note, shots in self.notes.items()]
        (self.folder / "layout-notes.txt").write_text("\n".join(lines) + "\n" if lines else "")
        if lines:
            warnings.warn(
                f"layout notes (see {self.folder}/layout-notes.txt):\n" + "\n".join(lines),
                stacklevel=2,
            )


def title(role: str) -> str:
    return role.capitalize()


def others_after(names: list[str], me: str, count: int) -> list[str]:
    """The next `count` players after `me` around the table."""
    start = names.index(me)
    return [names[(start + i) % len(names)] for i in range(1, count + 1)]


def send_night_action(page: Page, me: str, names: list[str], cards: dict[str, str]) -> str | None:
    """Send the seat's action through its form (`cards`: the deal, by player and centre
    position); returns the expected report line (None when it depends on the cards at dawn,
    which are only known after the night)."""
    role = cards[me]
    wolves = [n for n in names if cards[n] == "werewolf"]
    form = page.locator("#night-action")
    if role == "werewolf" and len(wolves) == 1:
        expect(form).to_contain_text("A lone werewolf may look at one centre card.")
        form.get_by_role("radio", name="The middle centre card").check()
        form.get_by_role("button", name="Send my action").click()
        return f"You looked at the middle centre card: it is the {title(cards['middle'])}."
    if role == "werewolf":
        form.get_by_role("button", name="No action: I'm ready").click()
        (partner,) = [n for n in wolves if n != me]
        return f"The werewolves tonight: you and {partner}."
    if role == "seer":
        (target,) = others_after(names, me, 1)
        form.get_by_role("radio", name=f"{target}'s card").check()
        form.get_by_role("button", name="Send my action").click()
        return f"You looked at {target}'s card: it is the {title(cards[target])}."
    if role == "robber":
        (target,) = others_after(names, me, 1)
        form.get_by_role("radio", name=f"{target}'s card").check()
        form.get_by_role("button", name="Send my action").click()
        got = title(cards[target])  # the robber acts before any other swap
        return f"You swapped cards with {target}. You are now the {got}."
    if role == "troublemaker":
        first, second = others_after(names, me, 2)
        form.get_by_label("First player").select_option(label=first)
        form.get_by_label("Second player").select_option(label=second)
        form.get_by_role("button", name="Swap their cards").click()
        return f"You swapped the cards of {first} and {second}."
    if role == "drunk":
        expect(form.get_by_role("button", name="No action")).to_have_count(0)  # must act
        form.get_by_role("radio", name="The right centre card").check()
        form.get_by_role("button", name="Send my action").click()
        return "You swapped your card with the right centre card. You do not know what you are now."
    # Villager, insomniac: nothing to choose.
    form.get_by_role("button", name="No action: I'm ready").click()
    if role == "villager":
        return "You slept through the night."
    return None


def check_reveal(
    page: Page, db: GameDB, code: str, names: list[str], votes: dict[str, str]
) -> Mapping[str, Any]:
    """The reveal on `page` against the stored result."""
    game = db.game(code)
    result = game.result
    assert result is not None
    starts, finals = db.start_roles(code), db.final_roles(code)
    dead = [n for n in names if n in result["dead"]]
    winners = set(result["winners"])
    counts = Counter(votes.values())
    assert {n: int(result["counts"].get(n, 0)) for n in names} == {n: counts[n] for n in names}
    reveal = page.locator("#reveal")
    verdict = reveal.locator(".verdict")
    if dead:
        expect(verdict).to_have_text(f"Died: {', '.join(dead)}.")
    else:
        expect(verdict).to_have_text("Nobody died.")
    expect(reveal.locator(".winners")).to_have_text(result["reason"])
    expect(reveal).to_contain_text(result["vote_reason"])
    rows = reveal.locator("tbody tr")
    expect(rows).to_have_count(len(names))
    for i, player in enumerate(names):
        cells = rows.nth(i).locator("td")
        expect(cells.nth(0)).to_have_text(player)
        start, final = title(starts[player]), title(finals[player])
        cards = start if start == final else f"{start} → {final}"
        expect(cells.nth(1)).to_have_text(re.compile("^" + re.escape(cards)))
        expect(cells.nth(2)).to_have_text(votes[player])
        outcome = ("won" if player in winners else "lost") + (", died" if player in dead else "")
        received = f"{counts[player]} vote{'' if counts[player] == 1 else 's'}"
        expect(cells.nth(3)).to_have_text(outcome + received)
        if player in dead:
            expect(rows.nth(i)).to_have_class(re.compile(r"\bdead\b"))
        if player in winners:
            expect(rows.nth(i)).to_have_class(re.compile(r"\bwon\b"))
    expect(reveal.locator("h3", has_text="Centre cards").locator("+ ul li")).to_have_count(3)
    expect(reveal.locator("ol.log li").first).to_be_visible()
    # The secret messages are gone; the whole truth is in the table instead.
    expect(page.locator("#role-message")).to_have_count(0)
    expect(page.locator("#night-report")).to_have_count(0)
    expect(page.locator("#phase-label")).to_have_text("Reveal")
    return result


def say(page: Page, text: str) -> None:
    send_chat(page, text)


def test_full_game_five_players_house_rules(
    live_server: LiveServer, new_player_page: NewPlayerPage, player_pages: list[PlayerPage]
) -> None:
    db = live_server.db
    shots = Shots(ARTIFACTS / "full_game")
    names = list(PLAYERS)
    host_name = names[0]
    pages = {
        name: new_player_page(name, phone=phone, websocket=live)
        for name, (phone, live) in PLAYERS.items()
    }
    live_pages = [pages[n] for n in names if PLAYERS[n][1]]
    host = pages[host_name]

    # --- The host opens a table (house rules: the rules phrase is asked for) -------------------
    host.goto(live_server.url + "/")
    expect(host.get_by_role("heading", name="Start a game")).to_be_visible()
    host.get_by_label("Your name").fill(host_name)
    expect(host.get_by_label("Game", exact=True)).to_have_value(HOUSE)
    shots.take("home", {host_name: host})
    host.get_by_role("button", name="Create the game").click()
    expect(host).to_have_url(re.compile(r"/g/[A-Z0-9]+/$"))
    code = code_of(host)
    expect(host.locator(".game-head .code strong")).to_have_text(code)
    expect(host.locator("#phase-label")).to_have_text("Lobby")
    invite = host.get_by_label("Invite link").input_value()
    assert invite == f"{live_server.url}/g/{code}/join"
    assert db.table(code)["options"]["rules_phrase"] is True
    expect(host.get_by_label("Players type the rules phrase to join")).to_have_value("yes")

    # --- Four players join through the link, typing the phrase --------------------------------
    for i, name in enumerate(names[1:]):
        page = pages[name]
        page.goto(invite)
        expect(page.get_by_role("heading", name=f"Join game {code}")).to_be_visible()
        page.get_by_label("Your name").fill(name)
        phrase = page.locator("input[name=phrase]")
        if i == 0:
            # A wrong phrase is refused with the reason, and the form stays.
            phrase.fill("I skimmed them")
            page.get_by_role("button", name="Take a seat").click()
            expect(page.get_by_role("alert")).to_contain_text("Type the phrase the rules ask for")
            expect(page.get_by_role("heading", name=f"Join game {code}")).to_be_visible()
            shots.take("join-refused", {name: page})
            page.get_by_label("Your name").fill(name)
        # Case and punctuation do not matter.
        phrase.fill(PHRASE if i % 2 else PHRASE.lower() + "!")
        page.get_by_role("button", name="Take a seat").click()
        expect(page).to_have_url(f"{live_server.url}/g/{code}/")
        expect(
            page.get_by_text("Waiting for the host to set up the game and start.")
        ).to_be_visible()
    assert list(db.seats(code)) == names

    # The host's seat list follows the joins without a reload.
    lobby = host.locator(".lobby")
    expect(lobby).to_contain_text("5 at the table", timeout=LIVE_MS)
    for name in names:
        expect(lobby.locator(".seats")).to_contain_text(name)

    # A mark in each page's window: it survives only as long as the page is not reloaded.
    for page in pages.values():
        page.evaluate("window.sameDocument = true")
    # Every POST from here on, by the last part of its address ("start", "action"...).
    posts: dict[str, list[str]] = {name: [] for name in pages}
    for name, page in pages.items():
        page.on(
            "request",
            lambda request, name=name: (
                posts[name].append(request.url.rsplit("/", 1)[-1])
                if request.method == "POST"
                else None
            ),
        )

    # --- The host sets the table up: a deck one card short, then the suggested one -----------
    fill_deck(host, {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 2})
    host.get_by_role("button", name="Save the cards").click()
    expect(host.locator(".deck-summary")).to_contain_text("7 of 8 cards:")
    expect(lobby.locator(".warning")).to_be_visible()
    start = host.get_by_role("button", name="Deal and start the game")
    expect(start).to_be_disabled()
    for name in names[1:]:  # everyone sees the cards, by push or by poll
        expect(pages[name].locator(".deck-summary")).to_contain_text(
            "7 of 8 cards:", timeout=PHASE_CHANGE_MS
        )
        expect(pages[name].locator(".deck")).to_have_count(0)  # only the host picks
    # The answer replaces the panel: a mark on the old one goes with it.
    host.evaluate("document.getElementById('panel').dataset.old = 'yes'")
    host.get_by_role("button", name="Use the suggested deck").click()
    expect(host.locator("#panel[data-old]")).to_have_count(0)
    expect(host.locator(".deck-summary")).to_contain_text("8 of 8 cards, suggested")
    expect(lobby.locator(".warning")).to_have_count(0)
    save_settings(host, day_minutes="10")
    for name in names[1:]:
        expect(pages[name].locator("#panel")).to_contain_text(
            "The day lasts 10 minutes.", timeout=PHASE_CHANGE_MS
        )
    shots.take("lobby", pages)

    # --- The host deals ------------------------------------------------------------------------
    expect(start).to_be_enabled()
    start.click()
    in_phase(host, "Night")
    assert db.table(code)["phase"] == "night"
    cards = db.start_roles(code)
    wolves = [n for n in names if cards[n] == "werewolf"]
    for name, page in pages.items():
        own = title(cards[name])
        in_phase(page, "Night", PHASE_CHANGE_MS)
        expect(page.locator("#role-message h2")).to_have_text(f"You are the {own}.")
        expect(page.locator("#role-message")).to_have_count(1)
        expect(page.locator("#phase-label")).to_have_text("Night")
        expect(page.locator("#status")).to_contain_text("0 of 5 players have sent")
        body = page.locator("body").inner_text()
        for other in names:
            if other != name and cards[other] != cards[name]:
                assert f"You are the {title(cards[other])}." not in body, (name, other)
        message = page.locator("#role-message")
        if own == "Werewolf" and len(wolves) == 2:
            (partner,) = [n for n in wolves if n != name]
            expect(message).to_contain_text(f"Your fellow werewolf is {partner}.")
        elif own == "Werewolf":
            expect(message).to_contain_text("You are the only werewolf among the players")
        else:
            for other in names:  # nobody else's identity is told to a town player
                if other != name:
                    expect(message).not_to_contain_text(other)
    for page in live_pages:  # no talk in the night
        expect(page.get_by_label("Chat message")).to_be_hidden()
    shots.take("night", pages)

    # --- Night actions, one by one --------------------------------------------------------------
    expected_report: dict[str, str | None] = {}
    for sent, name in enumerate(names, start=1):
        page = pages[name]
        expected_report[name] = send_night_action(page, name, names, cards)
        if sent < len(names):
            expect(page.locator("#night-action .done")).to_have_text(
                "Your action is in. The night ends when everyone has sent theirs."
            )
            expect(page.locator("#status")).to_contain_text(
                f"{sent} of 5 players have sent their night action."
            )
            expect(page.locator("#night-action form")).to_have_count(0)
        if sent == len(names) - 1:
            # Everyone's count follows, without a reload.
            for other in pages.values():
                expect(other.locator("#status")).to_contain_text(
                    "4 of 5 players have sent their night action.", timeout=PHASE_CHANGE_MS
                )
            shots.take("night-4-sent", pages)

    # --- Day: every page moves on and shows its own night report -----------------------------
    for page in pages.values():
        in_phase(page, "Day", PHASE_CHANGE_MS)
        expect(page.locator("#night-report")).to_be_visible()
    assert db.table(code)["phase"] == "day"
    finals = db.final_roles(code)
    for name, page in pages.items():
        line = expected_report[name]
        if line is None:  # the insomniac sees the card they hold at dawn
            line = (
                "You woke at the end of the night: you are still the Insomniac."
                if finals[name] == "insomniac"
                else f"You woke at the end of the night: you are now the {title(finals[name])}."
            )
        expect(page.locator("#night-report")).to_contain_text(line)
        expect(page.locator("#status")).to_contain_text("0 of 5 players are ready to vote.")
        # The day's clock, counting down from the host's 10 minutes.
        expect(page.locator("#status .clock")).to_contain_text("Time left in the day:")
        countdown = page.locator("time.countdown")
        expect(countdown).to_have_text(re.compile(r"^(9:[0-5]\d|10:00)$"))
        expect(page.locator("#phase-label")).to_have_text("Day")
        # The role message stays up during the day; only the player's own.
        expect(page.locator("#role-message h2")).to_have_text(f"You are the {title(cards[name])}.")
    shown = pages["Cat"].locator("time.countdown").inner_text()
    expect(pages["Cat"].locator("time.countdown")).not_to_have_text(shown)  # it ticks
    shots.take("day", pages)

    # The day's chat, live both ways between the pages with a socket.
    for page in live_pages:
        expect_chat_writable(page)
        expect(page.locator(".chat-log")).to_contain_text("Dawn: the night is over")
    say(host, "Dan, what did you see last night?")
    for name in ("Cat", "Dan"):
        expect(pages[name].locator(".chat-log")).to_contain_text(
            "what did you see last night", timeout=LIVE_MS
        )
    say(pages["Dan"], "not telling you before Cat does")
    for name in ("Ann", "Cat"):
        expect(pages[name].locator(".chat-log")).to_contain_text(
            "not telling you before Cat does", timeout=LIVE_MS
        )
    shots.take("day-chat", {n: pages[n] for n in ("Ann", "Dan")})

    # One player says they are ready; then the host ends the day early.
    bob = pages["Bob"]
    bob.get_by_role("button", name="I'm ready to vote").click()
    expect(bob.locator("#status")).to_contain_text("1 of 5 players are ready to vote.")
    expect(bob.get_by_role("button", name="I'm not ready after all")).to_be_visible()
    expect(host.locator("#status")).to_contain_text("1 of 5 players are ready", timeout=LIVE_MS)
    expect(pages["Bob"].get_by_role("button", name="End the day now (host)")).to_have_count(0)
    host.get_by_role("button", name="End the day now (host)").click()

    # --- Voting ----------------------------------------------------------------------------------
    for page in pages.values():
        in_phase(page, "Voting", PHASE_CHANGE_MS)
        expect(page.locator("#voting")).to_be_visible()
        expect(page.locator("#phase-label")).to_have_text("Voting")
    for page in live_pages:
        expect(page.get_by_label("Chat message")).to_be_hidden()
        expect(page.locator(".chat-log")).to_contain_text("The day is over")
    assert db.table(code)["phase"] == "voting"
    shots.take("voting", pages)

    votes: dict[str, str] = {}
    how = {"Ann": "up", "Bob": "down", "Cat": "ring", "Dan": "ring", "Eve": "up"}
    ring = db.game(code).ring
    seat_ids = {name: seat["id"] for name, seat in db.seats(code).items()}
    by_id = {seat_id: name for name, seat_id in seat_ids.items()}
    for name in names:
        page = pages[name]
        voting = page.locator("#voting")
        if how[name] in ("up", "down"):
            # The ring shortcuts: the player before or after oneself in the shuffled circle.
            mine = ring.index(seat_ids[name])
            step = -1 if how[name] == "up" else 1
            target = by_id[ring[(mine + step) % len(ring)]]
            label = "Vote up: " if how[name] == "up" else "Vote down: "
            voting.get_by_role("button", name=label + target, exact=True).click()
        else:
            # Pile onto the leader so that somebody is likely to die.
            tally = Counter(t for t in votes.values() if t != name)
            target = tally.most_common(1)[0][0] if tally else others_after(names, name, 1)[0]
            expect(voting.get_by_role("radio", name=name, exact=True)).to_have_count(0)
            voting.get_by_role("radio", name=target, exact=True).check()
            voting.get_by_role("button", name="Cast my vote").click()
        assert target in names and target != name
        votes[name] = target
        if len(votes) < len(names):
            expect(page.locator("#voting .done")).to_have_text(
                f"You voted for {target}. Waiting for the others."
            )
            expect(page.locator("#status")).to_contain_text(
                f"{len(votes)} of 5 players have voted."
            )

    # --- Reveal ---------------------------------------------------------------------------------
    for page in pages.values():
        expect(page.locator("#reveal")).to_be_visible(timeout=PHASE_CHANGE_MS)
    assert db.table(code)["stage"] == "over"
    shots.take("reveal", pages)
    for page in pages.values():
        check_reveal(page, db, code, names, votes)
        expect_chat_writable(page)

    # Every page went through every phase without a reload: each new panel came as a form's
    # answer, a push or a poll, and the header followed it.
    for name, page in pages.items():
        assert page.evaluate("window.sameDocument === true"), f"{name}'s page was reloaded"
    # Every game form is a POST, from the pages with a socket as from the others.
    for name in names:
        assert "action" in posts[name] and "vote" in posts[name], (name, posts[name])
    assert posts["Bob"].count("ready") == 1
    assert {"options", "start", "end_day"} <= set(posts[host_name]), posts[host_name]

    # --- Play again: the same players at a new table ----------------------------------------
    host.get_by_role("button", name="Play again with the same players").click()
    expect(host).not_to_have_url(re.compile(f"/g/{code}/"))
    new_code = code_of(host)
    in_phase(host, "Lobby")
    expect(host.locator(".lobby")).to_contain_text("5 at the table")
    # They read the rules for the last game: no phrase this time.
    expect(host.get_by_label("Players type the rules phrase to join")).to_have_value("no")
    for name in names[1:]:
        page = pages[name]
        # Every player's page follows to the new table by itself.
        expect(page).to_have_url(f"{live_server.url}/g/{new_code}/", timeout=PHASE_CHANGE_MS)
        expect(
            page.get_by_text("Waiting for the host to set up the game and start.")
        ).to_be_visible()
        expect(page.get_by_role("button", name="Deal and start the game")).to_have_count(0)
    assert list(db.seats(new_code)) == names
    assert db.table(new_code)["stage"] == "lobby"
    # The new table is live like the first: the host's choice of cards reaches every page.
    save_deck(host, {"werewolf": 2, "seer": 1, "robber": 1, "troublemaker": 1, "villager": 3})
    for name in names[1:]:
        expect(pages[name].locator(".deck-summary")).to_contain_text(
            "8 of 8 cards:", timeout=PHASE_CHANGE_MS
        )
    shots.take("play-again", pages)

    shots.report()
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)


# The official game's deck, dealt in the order of the host's counters (live_server
# .deals_in_order): Ann the Doppelganger, Ben the Werewolf, Cat the Seer, Dan the Robber; in the
# centre the Troublemaker, the Insomniac and a Villager. The voting ring is the seat order.
OFFICIAL_DECK = {
    "doppelganger": 1,
    "werewolf": 1,
    "seer": 1,
    "robber": 1,
    "troublemaker": 1,
    "insomniac": 1,
    "villager": 1,
}
OFFICIAL_PLAYERS = {"Ann": True, "Ben": False, "Cat": True, "Dan": True}  # name -> phone?


def test_full_game_official_rules_with_a_doppelganger(
    live_server: LiveServer, new_player_page: NewPlayerPage, player_pages: list[PlayerPage]
) -> None:
    db = live_server.db
    shots = Shots(ARTIFACTS / "full_game_official")
    names = list(OFFICIAL_PLAYERS)
    pages = {name: new_player_page(name, phone=phone) for name, phone in OFFICIAL_PLAYERS.items()}
    ann, ben, cat, dan = (pages[n] for n in names)

    # --- The host opens an official-rules table: no rules phrase asked for ------------------
    ann.goto(live_server.url + "/")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_label("Game", exact=True).select_option(OFFICIAL)
    ann.get_by_role("button", name="Create the game").click()
    expect(ann).to_have_url(re.compile(r"/g/[A-Z0-9]+/$"))
    code = code_of(ann)
    expect(ann.locator(".lobby")).to_contain_text("One Night, Official rules")
    expect(ann.get_by_label("Players type the rules phrase to join")).to_have_value("no")
    for name in names[1:]:
        pages[name].goto(f"{live_server.url}/g/{code}/join")
        expect(pages[name].locator("input[name=phrase]")).to_have_count(0)
        join_table(live_server.url, code, pages[name], name)
    expect(ann.locator(".lobby")).to_contain_text("4 at the table", timeout=LIVE_MS)

    # The lobby chat, before the game.
    say(ben, "first time with a doppelganger!")
    for page in pages.values():
        expect(page.locator(".chat-log")).to_contain_text("with a doppelganger", timeout=LIVE_MS)

    save_deck(ann, OFFICIAL_DECK)
    save_settings(ann, day_minutes="3", vote_minutes="5")
    for page in (ben, cat, dan):
        expect(page.locator(".deck-summary")).to_contain_text("7 of 7 cards:", timeout=LIVE_MS)
        expect(page.locator(".deck-summary")).to_contain_text("Doppelganger")
        expect(page.locator("#panel")).to_contain_text("The day lasts 3 minutes.")
        expect(page.locator("#panel")).to_contain_text("The vote closes after 5 minutes.")
    shots.take("lobby", pages)

    with live_server.deals_in_order():
        ann.get_by_role("button", name="Deal and start the game").click()
        in_phase(ann, "Night")
    cards = db.start_roles(code)
    assert [cards[n] for n in names] == ["doppelganger", "werewolf", "seer", "robber"]
    for name, page in pages.items():
        in_phase(page, "Night", LIVE_MS)
        expect(page.locator("#role-message h2")).to_have_text(f"You are the {title(cards[name])}.")
    expect(ben.locator("#role-message")).to_contain_text(
        "If the Doppelganger copies a werewolf, they join you; you learn it at dawn."
    )
    shots.take("night", pages)

    # --- The Doppelganger copies the Seer, then looks at a card as the Seer does -----------
    night = ann.locator("#night-action")
    expect(night).to_contain_text("Choose the player whose card you copy.")
    expect(night.get_by_role("radio", name="Ann", exact=True)).to_have_count(0)
    night.get_by_role("radio", name="Cat", exact=True).check()
    night.get_by_role("button", name="Copy this card").click()
    expect(night.locator(".done")).to_have_text("You copied the card of a Seer.")
    expect(night).to_contain_text("A seer looks at one other player or two centre cards.")
    shots.take("doppelganger-copied", {"Ann": ann})
    expect(cat.locator("#status")).to_contain_text("0 of 4 players have sent")  # not done yet
    night.get_by_role("radio", name="Ben's card").check()
    night.get_by_role("button", name="Send my action").click()
    expect(night.locator(".done")).to_have_text(
        "Your action is in. The night ends when everyone has sent theirs."
    )
    # The others.
    reports = {
        "Ann": [
            "You looked at Cat's card and became the Seer.",
            "You looked at Ben's card: it is the Werewolf.",
        ]
    }
    for name in ("Ben", "Cat"):  # the lone werewolf peeks at the middle; the seer at Dan
        reports[name] = [send_night_action(pages[name], name, names, cards) or ""]
    assert reports["Ben"] == ["You looked at the middle centre card: it is the Insomniac."]
    assert reports["Cat"] == ["You looked at Dan's card: it is the Robber."]
    dan.locator("#night-action").get_by_role("radio", name="Ben's card").check()
    dan.get_by_role("button", name="Send my action").click()
    reports["Dan"] = ["You swapped cards with Ben. You are now the Werewolf."]

    # --- Day ----------------------------------------------------------------------------------
    for name, page in pages.items():
        in_phase(page, "Day", LIVE_MS)
        for line in reports[name]:
            expect(page.locator("#night-report")).to_contain_text(line)
        expect(page.locator("time.countdown")).to_have_text(re.compile(r"^(2:[0-5]\d|3:00)$"))
    finals = db.final_roles(code)
    assert [finals[n] for n in names] == ["doppelganger", "robber", "seer", "werewolf"]
    shots.take("day", pages)
    say(cat, "Ann, I think you copied me")
    expect(ann.locator(".chat-log")).to_contain_text("you copied me", timeout=LIVE_MS)
    say(ann, "I did, and Ben was a werewolf")
    expect(cat.locator(".chat-log")).to_contain_text("Ben was a werewolf", timeout=LIVE_MS)
    # Everyone ready: the day ends without the host.
    for page in (ann, ben, cat):
        page.get_by_role("button", name="I'm ready to vote").click()
        expect(page.get_by_role("button", name="I'm not ready after all")).to_be_visible()
    expect(dan.locator("#status")).to_contain_text("3 of 4 players are ready", timeout=LIVE_MS)
    dan.get_by_role("button", name="I'm ready to vote").click()

    # --- The vote: the ring is the seat order, so up and down are known ---------------------
    for page in pages.values():
        in_phase(page, "Voting", LIVE_MS)
        expect(page.locator("#status .clock")).to_contain_text("Voting closes in:")
    expect(ann.get_by_role("button", name="Vote up: Dan", exact=True)).to_be_visible()
    expect(ann.get_by_role("button", name="Vote down: Ben", exact=True)).to_be_visible()
    shots.take("voting", pages)
    ann.get_by_role("button", name="Vote up: Dan", exact=True).click()
    ben.locator("#voting").get_by_role("radio", name="Dan", exact=True).check()
    ben.get_by_role("button", name="Cast my vote").click()
    cat.get_by_role("button", name="Vote down: Dan", exact=True).click()
    expect(dan.locator("#status")).to_contain_text("3 of 4 players have voted.", timeout=LIVE_MS)
    dan.get_by_role("button", name="Vote down: Ann", exact=True).click()
    votes = {"Ann": "Dan", "Ben": "Dan", "Cat": "Dan", "Dan": "Ann"}

    # --- The reveal: the werewolf (Dan, since the robbery) dies; the town wins --------------
    for page in pages.values():
        expect(page.locator("#reveal")).to_be_visible(timeout=LIVE_MS)
    shots.take("reveal", pages)
    for page in pages.values():
        result = check_reveal(page, db, code, names, votes)
        reveal = page.locator("#reveal")
        expect(reveal.locator(".verdict")).to_have_text("Died: Dan.")
        expect(reveal).to_contain_text("The Doppelganger copied the Seer.")
        expect(reveal.locator("tbody tr").nth(0).locator("td").nth(1)).to_have_text(
            "Doppelganger (as Seer)"
        )
    assert set(result["winners"]) == {"Ann", "Ben", "Cat"}
    shots.report()
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)
