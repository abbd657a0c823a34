"""Table mode's screens on a 390x844 phone (issue 38 item 5): the current action (what to read
aloud, and the button that moves on) lies within the first viewport, without scrolling; what
is read aloud carries no secret and no rule citation, and is apart from what only the
moderator may see. The narrator, the moderator's night call, and counting a vote by hand."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.werewolf.test_table_mode import CLASSIC

from .live_server import LiveServer
from .players import NewPlayerPage
from .test_table_mode_werewolf import _count, _enter_cards, _open, _press, _tap


def _in_first_viewport(page: Page, element: Locator) -> None:
    """The element lies wholly within the first screenful of the page (scrolled to the top)."""
    expect(element).to_be_visible()
    box = element.evaluate(
        "e => { const r = e.getBoundingClientRect();"
        " return {top: r.top + window.scrollY, bottom: r.bottom + window.scrollY,"
        " height: window.innerHeight}; }"
    )
    assert box["top"] >= 0 and box["bottom"] <= box["height"], box


def test_the_narrators_current_step_is_on_the_first_screen(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    page = new_player_page("Host", phone=True)
    deck = "count_doppelganger=1&count_werewolf=2&count_minion=1&count_seer=1&count_mason=2"
    page.goto(
        f"{live_server.url}/at-the-table/one-night/?go=1&ruleset=official"
        f"&players=Ann%0ABen%0ACat%0ADan%0AEve&{deck}&count_villager=1"
    )
    expect(page.locator("#narrator")).to_be_visible()
    page.get_by_label("Speak aloud").uncheck()
    for seconds in page.locator("#steps li input.seconds").all():
        seconds.fill("60")
    page.get_by_role("button", name="Start the night").click()
    expect(page.locator("#now")).to_contain_text("Doppelganger, wake up")
    _in_first_viewport(page, page.locator("#now"))
    _in_first_viewport(page, page.get_by_role("button", name="Skip this step"))
    page.get_by_role("button", name="Skip this step").click()
    # Its step ends without "close your eyes" while it may have to stay awake (rules/002 s5).
    expect(page.locator("#now")).to_contain_text("Werewolves, stick out your thumb")
    _in_first_viewport(page, page.locator("#now"))


def test_the_moderators_call_and_count_are_on_the_first_screen(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    page = new_player_page("Moderator", phone=True)
    _open(page, live_server.url, "classic", list(CLASSIC))
    # The lobby: nothing for phones the players do not have.
    lobby = page.locator("#panel")
    for online in ("Invite your friends", "Make host", "Lock the table", "rejoin link"):
        expect(lobby).not_to_contain_text(online)
    expect(page.locator("#sound")).to_have_count(0)
    _enter_cards(page, CLASSIC)
    # The night: the words to read aloud and the choices, on the first screen, apart.
    read = page.locator("#mod-read")
    expect(read).to_contain_text("Werewolves, wake up.")
    _in_first_viewport(page, read)
    _in_first_viewport(page, page.locator("#mod-private button").first)
    _tap(page, "Fay")
    expect(read).to_contain_text("Witch, wake up.")
    for secret in ("Dan", "Fay", "004", "(", "Save"):
        expect(read).not_to_contain_text(secret)
    expect(page.locator("#mod-private")).to_contain_text("Dan (Witch)")
    _in_first_viewport(page, read)
    _in_first_viewport(page, page.locator("#mod-private button").first)
    _tap(page, "Do not save")
    _tap(page, "No poison tonight")
    _tap(page, "Ann")
    _press(page, "Daybreak")
    # The sheriff election counted by hand: the players voted for, on the first screen.
    _in_first_viewport(page, page.locator("#tally-accused button").first)
    _count(page, {"Ann": "Cat", "Ben": "Cat"})
    button = page.locator('#tally-voters [data-voter="Ann"]')
    box = button.bounding_box()
    assert box and box["height"] >= 48 and box["width"] >= 120, box  # one big target each
    expect(button).to_have_attribute("aria-pressed", "true")
