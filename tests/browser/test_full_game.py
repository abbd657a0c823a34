"""A whole game in five browsers: create, join, deal, night, day, vote, reveal.

Each player has their own browser context (own cookies, so own seat); three are on a phone-sized
screen. Pages move between phases by themselves (the status poll every 4 s, or the websocket when
there is one), so the test waits with generous timeouts instead of reloading. What each page must
show is checked against the server's database: the dealt roles, the cards at dawn, the result.

Screenshots of every page at every phase go to test-artifacts/full_game/.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .live_server import ARTIFACTS, LiveServer
from .players import NewPlayerPage, PlayerPage

PHRASE = "The Ocean Chose Me"
# name -> (phone-sized screen?, websocket allowed?). The first player is the host. Bob and Eve
# never get a websocket: their pages must follow the game through the status poll alone (Eve
# acts and votes last, so she also gets the htmx response that moves the game on).
PLAYERS = {
    "Ann": (True, True),
    "Bob": (False, False),
    "Cat": (True, True),
    "Dan": (False, True),
    "Eve": (True, False),
}
PHASE_CHANGE_MS = 15_000  # a status poll is every 4 s; leave room for a slow machine
SHOTS = ARTIFACTS / "full_game"


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
  const form = document.getElementById("chat-form");
  if (form && form.hidden && getComputedStyle(form).display !== "none") {
    notes.push("chat form has the hidden attribute but is displayed (chat closed)");
  }
  const root = document.getElementById("game");
  const panel = document.getElementById("panel");
  if (root && panel && root.dataset.phase !== panel.dataset.phase) {
    notes.push(`header/page is for phase ${root.dataset.phase}, panel for ${panel.dataset.phase}`);
  }
  const status = document.getElementById("status");
  if (status && !status.innerText.trim() && status.getBoundingClientRect().height > 0) {
    notes.push("empty #status card is displayed");
  }
  return notes;
}"""


class Shots:
    """Numbered full-page screenshots, so the folder reads in the order of the game, and the
    layout problems found on the way (test-artifacts/full_game/layout-notes.txt)."""

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
                "layout notes (see test-artifacts/full_game/layout-notes.txt):\n"
                + "\n".join(lines),
                stacklevel=2,
            )


def title(role: str) -> str:
    return role.capitalize()


def others_after(names: list[str], me: str, count: int) -> list[str]:
    """The next `count` players after `me` around the table."""
    start = names.index(me)
    return [names[(start + i) % len(names)] for i in range(1, count + 1)]


def send_night_action(
    page: Page,
    me: str,
    seats: dict[str, dict[str, Any]],
    centre: dict[str, dict[str, Any]],
) -> tuple[str, str | None]:
    """Send the seat's action through its form; returns the role and the expected report line
    (None when it depends on the cards at dawn, which are only known after the night)."""
    names = list(seats)
    role = seats[me]["start_role"]
    wolves = [n for n, s in seats.items() if s["start_role"] == "werewolf"]
    form = page.locator("#night-action")
    if role == "werewolf" and len(wolves) == 1:
        expect(form).to_contain_text("A lone werewolf may look at one centre card.")
        form.get_by_role("radio", name="The middle centre card").check()
        form.get_by_role("button", name="Send my action").click()
        seen = title(centre["middle"]["start_role"])
        return role, f"You looked at the middle centre card: it is the {seen}."
    if role == "werewolf":
        form.get_by_role("button", name="No action: I'm ready").click()
        (partner,) = [n for n in wolves if n != me]
        return role, f"The werewolves tonight: you and {partner}."
    if role == "seer":
        (target,) = others_after(names, me, 1)
        form.get_by_role("radio", name=f"{target}'s card").check()
        form.get_by_role("button", name="Send my action").click()
        return (
            role,
            f"You looked at {target}'s card: it is the {title(seats[target]['start_role'])}.",
        )
    if role == "robber":
        (target,) = others_after(names, me, 1)
        form.get_by_role("radio", name=f"{target}'s card").check()
        form.get_by_role("button", name="Send my action").click()
        got = title(seats[target]["start_role"])  # the robber acts before any other swap
        return role, f"You swapped cards with {target}. You are now the {got}."
    if role == "troublemaker":
        first, second = others_after(names, me, 2)
        form.get_by_label("First player").select_option(label=first)
        form.get_by_label("Second player").select_option(label=second)
        form.get_by_role("button", name="Swap their cards").click()
        return role, f"You swapped the cards of {first} and {second}."
    if role == "drunk":
        expect(form.get_by_role("button", name="No action")).to_have_count(0)  # must act
        form.get_by_role("radio", name="The right centre card").check()
        form.get_by_role("button", name="Send my action").click()
        return role, (
            "You swapped your card with the right centre card. You do not know what you are now."
        )
    # Villager, insomniac: nothing to choose.
    form.get_by_role("button", name="No action: I'm ready").click()
    if role == "villager":
        return role, "You slept through the night."
    return role, None


def test_full_game_five_players(
    live_server: LiveServer, new_player_page: NewPlayerPage, player_pages: list[PlayerPage]
) -> None:
    db = live_server.db
    shots = Shots(SHOTS)
    names = list(PLAYERS)
    host_name = names[0]
    pages = {
        name: new_player_page(name, phone=phone, websocket=live)
        for name, (phone, live) in PLAYERS.items()
    }
    host = pages[host_name]

    # --- The host creates a game (house rules; the rules phrase is required by default) -------
    host.goto(live_server.url + "/")
    expect(host.get_by_role("heading", name="Start a game")).to_be_visible()
    host.get_by_label("Your name").fill(host_name)
    expect(host.get_by_label("Rules", exact=True)).to_have_value("house")
    expect(host.get_by_label("Players type the rules phrase to join")).to_have_value("default")
    shots.take("home", {host_name: host})
    host.get_by_role("button", name="Create the game").click()
    expect(host).to_have_url(re.compile(r"/g/[A-Z0-9]+/$"))
    code = re.search(r"/g/([A-Z0-9]+)/$", host.url).group(1)  # type: ignore[union-attr]
    expect(host.locator(".game-head .code strong")).to_have_text(code)
    invite = host.get_by_label("Invite link").input_value()
    assert invite == f"{live_server.url}/g/{code}/join"
    assert db.game(code)["require_rules_phrase"] == 1

    # --- Four players join through the link, typing the phrase --------------------------------
    for i, name in enumerate(names[1:]):
        page = pages[name]
        page.goto(invite)
        expect(page.get_by_role("heading", name=f"Join game {code}")).to_be_visible()
        page.get_by_label("Your name").fill(name)
        phrase = page.locator("input[name=rules_phrase]")
        if i == 0:
            # A wrong phrase is refused with the reason, and the form stays.
            phrase.fill("I skimmed them")
            page.get_by_role("button", name="Take a seat").click()
            expect(page.get_by_role("alert")).to_contain_text(PHRASE)
            shots.take("join-refused", {name: page})
            page.get_by_label("Your name").fill(name)
        # Case and punctuation do not matter.
        phrase.fill(PHRASE if i % 2 else PHRASE.lower() + "!")
        page.get_by_role("button", name="Take a seat").click()
        expect(page).to_have_url(f"{live_server.url}/g/{code}/")
        expect(
            page.get_by_text("Waiting for the host to choose the cards and start.")
        ).to_be_visible()
    assert list(db.seats(code)) == names

    # The host's seat list follows the joins without a reload.
    expect(host.locator("#status")).to_contain_text("5 at the table", timeout=PHASE_CHANGE_MS)
    for name in names:
        expect(host.locator("#status .seats")).to_contain_text(name)
    shots.take("lobby", pages)

    # A mark in each page's window: it survives only as long as the page is not reloaded.
    for page in pages.values():
        page.evaluate("window.sameDocument = true")
    # Every form POST from here on: pages with a live socket send their game forms over it.
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

    # --- The host deals the suggested deck ----------------------------------------------------
    # The answer (over the socket) replaces the panel: the mark on the old one goes with it.
    host.evaluate("document.getElementById('panel').dataset.old = 'yes'")
    host.get_by_role("button", name="Use the suggested deck").click()
    expect(host.locator("#panel[data-old]")).to_have_count(0)
    expect(host.locator("#status")).to_contain_text("Cards (8 of 8 needed")
    host.get_by_role("button", name="Deal the cards and start the night").click()
    expect(host.locator("#panel[data-phase=night]")).to_be_visible()

    seats = db.seats(code)
    centre = db.centre(code)
    assert db.game(code)["phase"] == "night"
    assert all(s["start_role"] for s in seats.values())
    for name, page in pages.items():
        own = title(seats[name]["start_role"])
        heading = page.locator("#role-message h2")
        expect(heading).to_have_text(f"You are the {own}.", timeout=PHASE_CHANGE_MS)
        expect(page.locator("#role-message")).to_have_count(1)
        expect(page.locator("#status")).to_contain_text("0 of 5 players have sent")
        body = page.locator("body").inner_text()
        for other, seat in seats.items():
            if other != name and seat["start_role"] != seats[name]["start_role"]:
                assert f"You are the {title(seat['start_role'])}." not in body, (name, other)
        wolves = [n for n, s in seats.items() if s["start_role"] == "werewolf"]
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
    shots.take("night", pages)

    # --- Night actions, one by one --------------------------------------------------------------
    expected_report: dict[str, str | None] = {}
    for sent, name in enumerate(names, start=1):
        page = pages[name]
        _, expected_report[name] = send_night_action(page, name, seats, centre)
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
        expect(page.locator("#panel[data-phase=day]")).to_be_visible(timeout=PHASE_CHANGE_MS)
        expect(page.locator("#night-report")).to_be_visible()
    game = db.game(code)
    assert game["phase"] == "day"
    seats = db.seats(code)
    for name, page in pages.items():
        report = page.locator("#night-report")
        line = expected_report[name]
        if line is None:  # the insomniac sees the card they hold at dawn
            final = seats[name]["final_role"]
            line = (
                "You woke at the end of the night: you are still the Insomniac."
                if final == "insomniac"
                else f"You woke at the end of the night: you are now the {title(final)}."
            )
        expect(report).to_contain_text(line)
        expect(page.locator("#status")).to_contain_text("of 5 players are ready to vote.")
        # The role message stays up during the day; only the player's own.
        expect(page.locator("#role-message h2")).to_have_text(
            f"You are the {title(seats[name]['start_role'])}."
        )
    shots.take("day", pages)

    # One player says they are ready; then the host ends the day early.
    pages["Bob"].get_by_role("button", name="I'm ready to vote").click()
    expect(pages["Bob"].locator("#status")).to_contain_text("1 of 5 players are ready to vote.")
    expect(pages["Bob"].get_by_role("button", name="I'm not ready after all")).to_be_visible()
    host.get_by_role("button", name="End the day now (host)").click()

    # --- Voting ----------------------------------------------------------------------------------
    for page in pages.values():
        expect(page.locator("#voting")).to_be_visible(timeout=PHASE_CHANGE_MS)
    assert db.game(code)["phase"] == "voting"
    shots.take("voting", pages)

    votes: dict[str, str] = {}
    how = {"Ann": "up", "Bob": "down", "Cat": "ring", "Dan": "ring", "Eve": "up"}
    for name in names:
        page = pages[name]
        voting = page.locator("#voting")
        if how[name] in ("up", "down"):
            label = "Vote up: " if how[name] == "up" else "Vote down: "
            button = voting.get_by_role("button", name=re.compile("^" + label))
            target = button.inner_text().removeprefix(label).strip()
            button.click()
        else:
            # Pile onto the leader so that somebody is likely to die.
            tally = Counter(t for t in votes.values() if t != name)
            target = tally.most_common(1)[0][0] if tally else others_after(names, name, 1)[0]
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
    game = db.game(code)
    assert game["phase"] == "reveal"
    result = game["result"]
    seats = db.seats(code)
    dead = [n for n in names if n in result["dead"]]
    winners = set(result["winners"])
    counts = Counter(votes.values())
    assert {n: int(result["counts"].get(n, 0)) for n in names} == {n: counts[n] for n in names}
    shots.take("reveal", pages)

    for page in pages.values():
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
            seat = seats[player]
            expect(cells.nth(0)).to_have_text(player)
            start, final = title(seat["start_role"]), title(seat["final_role"])
            cards = start if start == final else f"{start} → {final}"
            expect(cells.nth(1)).to_have_text(re.compile("^" + re.escape(cards)))
            expect(cells.nth(2)).to_have_text(votes[player])
            outcome = ("won" if player in winners else "lost") + (
                ", died" if player in dead else ""
            )
            received = f"{counts[player]} vote{'' if counts[player] == 1 else 's'}"
            expect(cells.nth(3)).to_have_text(outcome + received)
            row_class = rows.nth(i)
            if player in dead:
                expect(row_class).to_have_class(re.compile(r"\bdead\b"))
            if player in winners:
                expect(row_class).to_have_class(re.compile(r"\bwon\b"))
        expect(reveal.locator("h3", has_text="Centre cards").locator("+ ul li")).to_have_count(3)
        log = reveal.locator("ol.log li")
        expect(log.first).to_be_visible()
        assert log.count() >= 1
        # The secret messages are gone; the whole truth is in the table instead.
        expect(page.locator("#role-message")).to_have_count(0)
        expect(page.locator("#night-report")).to_have_count(0)

    # Pages with a websocket went through every phase without a reload: each new panel came
    # over the socket, and the header and chat box followed it.
    for name, page in pages.items():
        expect(page.locator("#phase-label")).to_have_text("Reveal")
        expect(page.locator("#game")).to_have_attribute("data-phase", "reveal")
        expect(page.get_by_label("Chat message")).to_be_visible()
        if PLAYERS[name][1]:
            assert page.evaluate("window.sameDocument === true"), f"{name}'s page was reloaded"

    # The game forms: over the socket from the pages that had one, as POSTs from the others.
    for name in names:
        if PLAYERS[name][1]:
            assert posts[name] == [], (name, posts[name])
        else:
            assert "action" in posts[name] and "vote" in posts[name], (name, posts[name])
    assert posts["Bob"].count("ready") == 1

    shots.report()
    for entry in player_pages:
        assert entry.js_errors == [], (entry.name, entry.js_errors)
