"""What a new group trips over on phones (issue 30), each shown fixed in Chromium: deck edits
the host did not save, a mis-tap on a button that cannot be undone, a refused form's message
off screen, the lobby's chips all one colour, the tab that does not say the game needs you,
and /favicon.ico."""

from __future__ import annotations

import urllib.request

from playwright.sync_api import expect

from .live_server import GameDB, LiveServer
from .players import (
    QUIET_DECK,
    NewPlayerPage,
    PlayerPage,
    create_table,
    fill_deck,
    in_phase,
    join_table,
    save_deck,
    save_settings,
    seat_table,
)


def _entry(pages: list[PlayerPage], name: str) -> PlayerPage:
    return next(p for p in pages if p.name == name)


def test_the_deal_uses_the_deck_on_the_hosts_screen_even_unsaved(
    live_server: LiveServer, new_player_page: NewPlayerPage, game_db: GameDB
) -> None:
    ann, ben, cat = (new_player_page(n, phone=n != "Ann") for n in ("Ann", "Ben", "Cat"))
    code = seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    save_deck(ann, QUIET_DECK)
    # The host changes the deck and deals at once, without "Save the cards".
    deck = {"villager": 2, "werewolf": 1, "seer": 1, "insomniac": 1, "tanner": 1}
    fill_deck(ann, deck)
    ann.get_by_role("button", name="Deal and start the game").click()
    for page in (ann, ben, cat):
        in_phase(page, "Night")
    dealt = sorted(game_db.start_roles(code).values())
    assert dealt == sorted(role for role, n in deck.items() for _ in range(n))


def test_irreversible_buttons_ask_first_and_a_no_changes_nothing(
    live_server: LiveServer,
    new_player_page: NewPlayerPage,
    player_pages: list[PlayerPage],
    game_db: GameDB,
) -> None:
    ann, ben, cat = (new_player_page(n) for n in ("Ann", "Ben", "Cat"))
    code = seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    host = _entry(player_pages, "Ann")
    remove_cat = ann.locator(".seats li", has_text="Cat").get_by_role("button", name="Remove")
    host.accept_dialogs = False
    remove_cat.click()
    assert host.dialogs == ["Remove Cat from the table?"]
    ann.wait_for_timeout(300)
    assert "Cat" in game_db.seats(code)
    host.accept_dialogs = True
    remove_cat.click()
    expect(ann.locator(".lobby")).to_contain_text("2 at the table")
    assert "Cat" not in game_db.seats(code)
    host.accept_dialogs = False
    ann.get_by_role("button", name="Cancel the game").click()
    assert host.dialogs[-1] == "Cancel this game for everyone?"
    ann.wait_for_timeout(300)
    assert game_db.table(code)["stage"] == "lobby"


def test_a_refused_form_brings_its_message_into_sight(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    """On a phone, the seer sends her form with nothing picked: the message is focused (and
    so scrolled into view) instead of sitting above the screen."""
    ann, ben, cat = (new_player_page(n, phone=True) for n in ("Ann", "Ben", "Cat"))
    with live_server.deals_in_order():
        seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
        save_deck(ann, {"seer": 1, "villager": 2, "werewolf": 1, "tanner": 1, "insomniac": 1})
        ann.get_by_role("button", name="Deal and start the game").click()
        in_phase(ann, "Night")
    ann.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    ann.get_by_role("button", name="Send my action").click()
    error = ann.locator("#panel-error")
    expect(error).to_contain_text("Pick your target")
    expect(error).to_be_focused()
    expect(error).to_be_in_viewport()


def test_the_lobby_colours_each_role_by_its_team_and_the_tab_calls_for_attention(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    ann, ben, cat = (new_player_page(n) for n in ("Ann", "Ben", "Cat"))
    seat_table(live_server.url, ann, "Ann", {"Ben": ben, "Cat": cat})
    save_deck(ann, {"werewolf": 2, "villager": 2, "tanner": 1, "seer": 1})

    def colour(role: str) -> str:
        chip = ann.locator(".deck-summary .chip", has_text=role)
        return str(chip.evaluate("e => getComputedStyle(e).borderLeftColor"))

    assert len({colour("Werewolf"), colour("Villager"), colour("Tanner")}) == 3
    # The night asks Ben for his action: his tab's title and icon say so.
    ann.get_by_role("button", name="Deal and start the game").click()
    in_phase(ben, "Night")
    expect(ben).to_have_title("(!) Game " + ben.url.rstrip("/").rsplit("/", 1)[1] + " · One Night")
    icon = ben.locator("link#favicon")
    expect(icon).to_have_attribute("href", "/static/favicon-attention.svg")


def test_the_favicon_answers(live_server: LiveServer) -> None:
    with urllib.request.urlopen(f"{live_server.url}/favicon.ico") as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("image/svg")
        assert b"<svg" in answer.read()


def test_the_lobby_shows_the_invite_link_as_a_qr_code_that_reads_back(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    """A table of phones: the host's lobby shows a QR code; read back from a screenshot, it is
    the invite link, and a phone that opens it can take a seat. The link copies with a tap."""
    import io

    import zxingcpp
    from PIL import Image

    ann = new_player_page("Ann")
    code = create_table(live_server.url, ann, "Ann")
    save_settings(ann, rules_phrase="no")
    link = ann.get_by_label("Invite link", exact=True).input_value()
    assert link == f"{live_server.url}/g/{code}/join"
    shot = ann.locator("figure.qr svg").screenshot()
    [found] = zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)))
    assert found.text == link
    ben = new_player_page("Ben", phone=True)
    join_table(live_server.url, code, ben, "Ben")  # the page the code leads to seats him
    copy = ann.get_by_role("button", name="Copy the link")
    copy.click()
    expect(ann.get_by_role("button", name="Copied")).to_be_visible()
