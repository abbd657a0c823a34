"""The pages' own forms work without JavaScript: each is a plain POST form with its CSRF token
(htmx, where present, posts the same fields to the same address), and a whole game can be played
by filling them in as a browser without scripts would, with Django's CSRF check on."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import resolve

from games.families.onenight.options import RULES_PHRASE
from games.tables.models import ChatLine, Table
from tests.factories import (
    OFFICIAL_FIVE,
    TestTable,
    client_for,
    clients_for,
    create_lobby,
    deal_game,
    fixed_shuffle,
    play_to,
)
from tests.web.helpers import PageForm, page_form, page_forms, raw, text, url, visible

pytestmark = pytest.mark.django_db

CORE_VIEWS = {
    "table_new",
    "join_by_code",
    "join",
    "options",
    "remove_seat",
    "lock",
    "clock",
    "start",
    "cancel",
    "move",
    "chat",
    "play_again",
    "hand_over",
    "leave",
    "seat_code",
    "seat_back",
    # The seat's notices box (games/notices): its choice, and the host's defaults.
    "notices_subscribe",
    "notices_defaults",
}


def browser() -> Client:
    """A browser without JavaScript: no htmx header, and the CSRF check applies."""
    return Client(enforce_csrf_checks=True)


def posted(client: Client, response: HttpResponse, form: PageForm, data: dict) -> HttpResponse:
    """Send `form` as the browser would (an empty action posts to the page's own address) and
    follow the redirect."""
    action = form.action or response.wsgi_request.path
    answer = client.post(action, data)
    assert answer.status_code == 302, (action, data, answer.status_code, raw(answer)[:2000])
    return client.get(answer["Location"])


def check_forms(response: HttpResponse, table: TestTable | None = None) -> int:
    """Every form of the page is a POST to one of the app's addresses, with its CSRF token;
    an htmx form posts to the same address as without JavaScript."""
    forms = page_forms(response)
    for form in forms:
        assert form.method == "post", form
        tokens = [f for f in form.fields if f.name == "csrfmiddlewaretoken"]
        assert len(tokens) == 1 and tokens[0].kind == "hidden" and tokens[0].value, form
        action = form.action or response.wsgi_request.path
        assert resolve(urlsplit(action).path).url_name in CORE_VIEWS | {"join"}, action
        if table is not None and form.action:
            assert f"/g/{table.code}/" in form.action, form.action
        if form.hx_post is not None:
            assert form.hx_post == form.action, form
        assert form.buttons, form
    return len(forms)


@pytest.mark.parametrize("phase", ["lobby", "night", "day", "voting", "reveal", "cancelled"])
def test_every_form_on_every_page_posts_with_its_token(phase: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == "lobby" else play_to(phase)
    for name in ("Ann", "Ben"):
        response = client_for(table, name).get(url("table", table.code))
        assert check_forms(response, table) >= 1


def test_the_home_and_join_pages_forms_post_with_their_tokens(client: Client) -> None:
    assert check_forms(client.get(url("home"))) == 2
    table = create_lobby(["Ann"])
    assert check_forms(client.get(url("join", table.code))) == 1


def test_no_action_buttons_are_not_blocked_by_required_fields() -> None:
    """A required radio would stop a browser from sending "no action" (or "copy nobody")
    before something is ticked: such a button is in a form of its own, or skips the check."""
    seen = 0
    for cards in (OFFICIAL_FIVE, {**OFFICIAL_FIVE, "Ann": "robber", "Cat": "doppelganger"}):
        table = deal_game("official", **cards)
        for name, client in clients_for(table).items():
            for form in page_forms(client.get(url("table", table.code))):
                if "no_action" not in [b[0] for b in form.buttons]:
                    continue
                seen += 1
                if any(f.required for f in form.fields):
                    assert "no_action" in form.unchecked, (name, form)
    assert seen >= 8


def test_a_bound_form_shows_what_was_typed_and_its_errors(client: Client) -> None:
    response = client.post(url("table_new"), {"host_name": "", "game": "onenight:official"})
    assert response.status_code == 400
    body = raw(response)
    assert 'aria-invalid="true"' in body
    assert '<option value="onenight:official" selected>' in body
    assert 'aria-invalid="true"' not in raw(client.get(url("home")))
    table = create_lobby(["Ann"])
    response = client.post(url("join", table.code), {"name": "Zoë <b>", "phrase": "nope"})
    assert response.status_code == 400
    assert 'value="Zoë &lt;b&gt;"' in raw(response)


def test_csrf_is_checked_on_every_form() -> None:
    table = play_to("day")
    client = Client(enforce_csrf_checks=True)
    client.get(url("rejoin", table.code, table.seats["Ben"].token))
    response = client.post(url("move", table.code, "ready"), {"ready": "yes"})
    assert response.status_code == 403
    assert table.state().ready == []


def night_data(form: PageForm) -> tuple[dict, str]:
    """A valid choice on a night-action form, and the button to press."""
    buttons = [b[2] for b in form.buttons]
    if any("Copy this card" in b for b in buttons):
        return form.data("Copy this card", targets=form.values("targets")[0]), "copy"
    if any("No action: I'm ready" in b for b in buttons):
        return form.data("No action: I'm ready"), "none"
    if any("Swap their cards" in b for b in buttons):
        first, second = [v for v in form.values("targets") if v][:2]
        return form.data("Swap their cards", targets=[first, second]), "pair"
    return form.data("Send my action", targets=form.values("targets")[0]), "choice"


def test_a_whole_game_through_the_pages_forms_without_javascript() -> None:
    ann = browser()
    home = ann.get(url("home"))
    form = page_form(home, url("table_new"))
    refused = ann.post(form.action, form.data("Create the game"))  # no name typed
    assert refused.status_code == 400
    assert "This field is required." in text(refused)
    page = posted(ann, home, form, form.data("Create the game", host_name="Ann"))
    table = Table.objects.get()
    code = table.code
    assert "Save the cards" in text(page)

    browsers = {"Ann": ann}
    for name in ("Ben", "Cat"):
        browsers[name] = browser()
        join = browsers[name].get(url("join", code))
        form = page_form(join, "")
        page = posted(browsers[name], join, form, form.data(name=name, phrase=RULES_PHRASE))
        assert "Waiting for the host" in text(page)

    # The host saves the suggested cards and a shorter day, then deals.
    lobby = ann.get(url("table", code))
    form = page_form(lobby, url("options", code), "Save the cards")
    lobby = posted(ann, lobby, form, form.data("Save the cards"))
    assert len(Table.objects.get().options["deck"]) == 6
    form = page_form(lobby, url("options", code), "Save the settings")
    lobby = posted(ann, lobby, form, form.data("Save the settings", day_minutes="7"))
    assert Table.objects.get().options["day_minutes"] == 7
    form = page_form(lobby, url("start", code))
    with fixed_shuffle():
        posted(ann, lobby, form, form.data("Deal and start the game"))
    assert Table.objects.get().phase == "night"

    # Night: everyone fills in their own action form (two steps for a Doppelganger).
    for client in browsers.values():
        page = client.get(url("table", code))
        for _ in range(2):
            forms = [f for f in page_forms(page) if "/do/" in f.action]
            if not forms:
                break
            data, kind = night_data(forms[0])
            page = posted(client, page, forms[0], data)
            if kind != "copy":
                break
        assert "Your action is in." in text(page) or Table.objects.get().phase == "day"
    assert Table.objects.get().phase == "day"

    # Day: a line in the chat, then everyone is ready.
    ben_page = browsers["Ben"].get(url("table", code))
    form = page_form(ben_page, url("chat", code))
    posted(browsers["Ben"], ben_page, form, form.data("Send", text="I am the seer, I promise"))
    assert ChatLine.objects.filter(note=False).get().text == "I am the seer, I promise"
    for client in browsers.values():
        page = client.get(url("table", code))
        assert "I am the seer, I promise" in text(page)
        form = page_form(page, url("move", code, "ready"))
        posted(client, page, form, form.data("I'm ready to vote"))
    assert Table.objects.get().phase == "voting"

    # Voting: everyone votes up the ring; each gets one vote and nobody dies.
    for client in browsers.values():
        page = client.get(url("table", code))
        form = page_form(page, url("move", code, "vote"), "Vote up:")
        page = posted(client, page, form, form.data("Vote up:"))
    assert Table.objects.get().phase == "reveal"
    assert "Nobody died." in visible(page)

    # Play again: everyone follows to the same new table.
    codes = set()
    for client in browsers.values():
        page = client.get(url("table", code))
        form = page_form(page, url("play_again", code))
        page = posted(client, page, form, form.data())
        codes.add(page.wsgi_request.path)
    assert len(codes) == 1
    assert Table.objects.count() == 2
