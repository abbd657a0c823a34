"""Action first (issue 38): on a 390x844 phone, what the player is asked to do now, or the line
that says there is nothing to do, lies in the first screenful, in every phase of every family;
on a desktop the deck's counters never break a role's name inside a word, the chat sits beside
the game and the page uses the width, the multi-night host page has one "Host tools" box, and
night 1 shows no empty "The story so far".

The panel marks that element `data-now` (the families' panel templates, tables/lobby.html).
Each page is measured at the top (scrollY 0): the element's whole box must lie in the viewport.
The multi-night games are played by a simple bot (each seat takes its first choice, the host
moves the game on when nobody has anything left to do) until the end or a number of steps.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.citations import citations

from .live_server import GameDB, LiveServer
from .players import (
    HOUSE,
    OFFICIAL,
    PHONE,
    NewPlayerPage,
    close_chat,
    create_table,
    in_phase,
    join_table,
    open_chat,
    seat_table,
    send_chat,
    start_game,
)
from .test_accessibility import audit
from .werewolf_pages import move_on, roles, set_roles

SCREEN = PHONE["height"]


def _settled(page: Page, db: GameDB, code: str) -> None:
    """Wait until `page` shows the table's newest version."""
    version = db.table(code)["version"]
    expect(page.locator("#panel")).to_have_attribute("data-version", str(version))


def now_in_first_screen(page: Page, where: str, seen: list[str] | None = None) -> None:
    """The page's current action (or waiting line) lies within the first viewport."""
    page.evaluate("() => window.scrollTo(0, 0)")
    now = page.locator("#panel [data-now]").first
    box = None
    for _ in range(5):  # a push may redraw the panel between the two reads
        expect(now).to_be_visible()
        box = now.bounding_box()
        if box is not None:
            break
    assert page.evaluate("() => window.scrollY") == 0
    assert box is not None, where
    assert box["y"] >= 0 and box["y"] + box["height"] <= SCREEN, (
        f"{where}: the current action lies at {box['y']:.0f}..{box['y'] + box['height']:.0f}px,"
        f" beyond the first {SCREEN}px"
    )
    # Plain words (issue 38 item 3): no rule citation outside a "why?" on what the player sees.
    cited = citations(page.content())
    assert not cited, f"{where}: rule citations outside a why?: {cited}"
    if seen is not None:
        seen.append(where)


# --- One Night ------------------------------------------------------------------------------

ACT_BUTTONS = ("No action: I'm ready", "No action", "Copy nobody")


def _send_no_action(page: Page) -> None:
    """Send this seat's night action without a target (or copy nobody, then act)."""
    card = page.locator("#night-action")
    for _ in range(3):
        if card.locator(".done").count() or not card.count():
            return
        version = page.locator("#panel").get_attribute("data-version")
        for name in ACT_BUTTONS:
            button = card.get_by_role("button", name=name, exact=True)
            if button.count():
                button.click()
                break
        else:
            raise AssertionError("no way to send the night action")
        expect(page.locator("#panel")).not_to_have_attribute("data-version", version or "")


@pytest.mark.parametrize("ruleset", [HOUSE, OFFICIAL])
def test_one_night_on_phones_puts_the_action_first(
    ruleset: str, live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    url, db = live_server.url, live_server.db
    pages = {name: new_player_page(name, phone=True) for name in ("Ann", "Ben", "Cat")}
    ann, ben, cat = pages.values()
    code = seat_table(url, ann, "Ann", {"Ben": ben, "Cat": cat}, game=ruleset)
    seen: list[str] = []
    now_in_first_screen(ann, "lobby, host", seen)
    now_in_first_screen(ben, "lobby, guest", seen)

    start_game(ann)
    for name, page in pages.items():
        in_phase(page, "Night")
        _settled(page, db, code)
        now_in_first_screen(page, f"night, {name}", seen)
        # The role card is shown in full the first time.
        expect(page.locator("details#role-message")).to_have_attribute("open", "")
    _send_no_action(ann)
    now_in_first_screen(ann, "night, action sent", seen)
    for page in (ben, cat):
        _send_no_action(page)

    for name, page in pages.items():
        in_phase(page, "Day")
        now_in_first_screen(page, f"day, {name}", seen)
        # Read once: now a chip that opens it again.
        card = page.locator("details#role-message")
        expect(card).not_to_have_attribute("open", "")
        expect(card.locator("summary .role-name")).to_be_visible()
        card.locator("summary").click()
        expect(card.locator("h2")).to_be_visible()
        card.locator("summary").click()
    # The chat's drawer counts what came while it was shut, and opens over the page.
    send_chat(ben, "who looked at a card?")
    unread = ann.locator("#chat-toggle .unread")
    expect(unread).to_have_text(re.compile(r"^[1-9]\d*$"))
    found: dict[str, str] = {}
    audit(ann, "day, the role chip folded", found)
    open_chat(ann)
    expect(ann.locator(".chat-log")).to_contain_text("who looked at a card?")
    expect(unread).to_be_hidden()
    audit(ann, "day, the chat's drawer open", found)
    assert not found, found
    close_chat(ann)
    for page in pages.values():
        page.get_by_role("button", name="I'm ready to vote").click()

    for name, page in pages.items():
        in_phase(page, "Voting")
        now_in_first_screen(page, f"vote, {name}", seen)
    ann.get_by_role("button", name="Vote up: ").click()
    expect(ann.locator("#voting .done")).to_be_visible()
    now_in_first_screen(ann, "vote, voted", seen)
    for page in (ben, cat):
        page.get_by_role("button", name="Vote up: ").click()

    for name, page in pages.items():
        in_phase(page, "Reveal")
        now_in_first_screen(page, f"reveal, {name}", seen)
    assert len(seen) == 16


# --- Multi-night Werewolf ---------------------------------------------------------------------

SIX = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
LINE_UPS = {
    "werewolf:forum": {"protector": 1, "seer": 1, "villager": 3, "werewolf": 1},
    "werewolf:oxford": {"trapper": 1, "villager": 4, "werewolf": 1},
    "werewolf:classic": {"guardian": 1, "hunter": 1, "villager": 2, "werewolf": 1, "witch": 1},
}


def _first_choice(card: Locator, spare: frozenset[str] = frozenset()) -> None:
    """Pick the first player (not "nobody", none of `spare`) in each of the card's lists."""
    for select in card.locator("select").all():
        options = [
            (o.get_attribute("value"), o.inner_text()) for o in select.locator("option").all()
        ]
        chosen = next((v for v, name in options if v and v != "nobody" and name not in spare), None)
        if chosen is not None:
            select.select_option(value=chosen)


def _act(page_name: str, page: Page, wolves: frozenset[str], accused: set[str]) -> bool:
    """The seat's first thing to do, with its first choice (the village spares the werewolves,
    so that the game lasts two nights; one accusation a day and one fist a seat, kept in
    `accused`); False: nothing to do."""
    panel = page.locator("#panel")
    day = panel.get_attribute("data-phase-label") or ""
    version = panel.get_attribute("data-version") or ""
    night = panel.locator("#night-action")
    second = panel.get_by_role("button", name="Second the call")
    if night.count() and not night.locator(".done").count():
        _first_choice(night, wolves)  # the witch never poisons the lone wolf on night 1
        night.get_by_role("button", name="Send my choices").click()
    elif panel.get_by_role("button", name="Done for tonight").count():
        panel.get_by_role("button", name="Done for tonight").click()
    elif second.count():
        second.click()
    elif panel.locator(".form-call_vote").count() and f"{page_name} {day}" not in accused:
        accused.add(f"{page_name} {day}")  # the form stays: a fist may be changed
        panel.get_by_role("button", name="Open fist (execute)").click()
    else:
        for kind, button in (
            ("sheriff_vote", "Vote for sheriff"),
            ("decide", "Decide"),
            ("vote", "Vote"),
            ("accuse", "Accuse"),
        ):
            card = panel.locator(f".form-{kind}")
            # A seat may owe two decisions in one step (a dying sheriff's badge, then a
            # hunter's shot): each is its own card, answered once.
            which = card.first.get_attribute("id") if card.count() else ""
            once = day if kind == "accuse" else f"{page_name} {day} {which or kind}"
            if once in accused:
                continue
            if card.count() and not card.locator(".done").count():
                accused.add(once)
                _first_choice(card, wolves)
                card.get_by_role("button", name=button, exact=True).click()
                break
        else:
            talking = panel.get_by_role("button", name="I'm done talking")
            if not talking.count():
                return False
            talking.click()
    expect(panel).not_to_have_attribute("data-version", version)
    return True


@pytest.mark.parametrize("ruleset", list(LINE_UPS))
def test_multi_night_games_on_phones_put_the_action_first(
    ruleset: str, live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    url, db = live_server.url, live_server.db
    pages = {name: new_player_page(name, phone=True) for name in SIX}
    host = pages["Ann"]
    code = create_table(url, host, "Ann", game=ruleset)
    for name in SIX[1:]:
        join_table(url, code, pages[name], name)
    now_in_first_screen(pages["Ben"], "lobby, guest")
    set_roles(host, LINE_UPS[ruleset])
    now_in_first_screen(host, "lobby, host")
    host.get_by_role("button", name="Deal and start the game").click()
    in_phase(host, "Night 1")
    wolves = frozenset(p for p, r in roles(db, code).items() if r == "werewolf")

    # One move at a time, every page measured after each: each seat's every state is seen.
    labels: list[str] = []
    accused: set[str] = set()
    found: dict[str, str] = {}
    for _step in range(150):
        row = db.table(code)
        for name, page in pages.items():
            _settled(page, db, code)
            now_in_first_screen(page, f"{row['phase_label']}, {name}")
        if not labels or labels[-1] != row["phase_label"]:
            labels.append(row["phase_label"])
            if len(labels) in (1, 2):  # night 1 and the first day: the new screens pass axe
                audit(pages["Cat"], row["phase_label"], found)
        if row["stage"] == "over":
            break
        if not any(_act(name, page, wolves, accused) for name, page in pages.items()):
            move_on(host)
    assert labels[0].startswith("Night 1"), labels
    assert any(label.startswith("Day 1") for label in labels), labels
    if ruleset != "werewolf:classic":  # 1.7.0's first vote may end it (a hunter's shot)
        assert any(label.startswith("Night 2") for label in labels), labels
    assert labels[-1] == "The end", labels
    audit(pages["Cat"], "the end", found)
    assert not found, found


# --- Desktop --------------------------------------------------------------------------------

# Each word of each counter's role name on one line (a Range per word: one box).
BROKEN_WORDS = """
() => {
  const broken = [];
  for (const span of document.querySelectorAll(".deck .counter span")) {
    const text = span.firstChild;
    if (!text) continue;
    const re = /\\S+/g;
    let m;
    while ((m = re.exec(text.textContent)) !== null) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}
"""


def _layout_uses_the_width(page: Page, width: int) -> None:
    table = page.locator("#table").bounding_box()
    panel = page.locator("#panel").bounding_box()
    chat = page.locator("#chat").bounding_box()
    assert table and panel and chat
    assert table["width"] >= 0.9 * width, table
    assert chat["x"] >= panel["x"] + panel["width"], (panel, chat)  # beside, not under
    expect(page.locator("#chat-toggle")).to_be_hidden()


@pytest.mark.parametrize(
    ("game", "roles"),
    [(HOUSE, None), (OFFICIAL, None), ("werewolf:classic", LINE_UPS["werewolf:classic"])],
)
def test_desktop_deck_counters_keep_words_whole(
    game: str,
    roles: Mapping[str, int] | None,
    live_server: LiveServer,
    new_player_page: NewPlayerPage,
) -> None:
    host = new_player_page("Ann")
    create_table(live_server.url, host, "Ann", game=game)
    expect(host.locator(".deck .counter").first).to_be_visible()
    for width in (1366, 1920, 1100, 390):
        host.set_viewport_size({"width": width, "height": 900})
        assert host.evaluate(BROKEN_WORDS) == [], width
        if width >= 1366:
            _layout_uses_the_width(host, width)


def test_multi_night_host_page_has_one_host_tools_and_no_empty_story(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    url = live_server.url
    pages = {name: new_player_page(name) for name in SIX}
    host = pages["Ann"]
    code = create_table(url, host, "Ann", game="werewolf:forum")
    for name in SIX[1:]:
        join_table(url, code, pages[name], name)
    set_roles(host, LINE_UPS["werewolf:forum"])
    host.get_by_role("button", name="Deal and start the game").click()
    in_phase(host, "Night 1")
    for width in (1366, 1920):
        host.set_viewport_size({"width": width, "height": 900})
        expect(host.locator("details.host-tools")).to_have_count(1)
        tools = host.locator("details.host-tools")
        tools.locator("summary").click()
        expect(tools.get_by_role("button", name="Move on now")).to_be_visible()
        expect(tools.get_by_role("button", name="Cancel the game")).to_be_visible()
        tools.locator("summary").click()
        expect(host.get_by_text("The story so far")).to_have_count(0)
        _layout_uses_the_width(host, width)
