"""Every form post: the happy path, the wrong phase, the wrong seat and malformed input.

A plain POST that works is answered with a redirect to the table's page (Post/Redirect/Get); an
htmx POST with the seat's new panel and its X-Table-Version. A refused post always answers with a
readable message (status 400, 403 or 409), never a 500, and leaves the database as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.families.onenight.options import RULES_PHRASE
from games.tables.models import ChatLine, Table
from tests.factories import (
    OFFICIAL_FIVE,
    THREE,
    TestTable,
    client_for,
    create_lobby,
    deal_game,
    form_targets,
    new_client,
    play_to,
    table_state,
)
from tests.web.helpers import (
    HTMX,
    PHASE_MESSAGES,
    alerts,
    is_panel_only,
    move_url,
    panel_attr,
    raw,
    seat_in_session,
    text,
    url,
)

pytestmark = pytest.mark.django_db


def refused(
    client: Client,
    path: str,
    data: dict[str, Any],
    table: TestTable,
    status: int,
    message: str,
    **extra: str,
) -> None:
    """Post, and check the status, the message and that nothing changed."""
    before = table_state(table.table.pk)
    response = client.post(path, data, **extra)
    assert response.status_code == status, (response.status_code, alerts(response))
    assert any(message in a for a in alerts(response)), alerts(response)
    assert table_state(table.table.pk) == before
    if extra == HTMX and status != 404 and "seat" not in message:
        # htmx swaps the panel in, with the message on top.
        assert is_panel_only(response), raw(response)[:300]


def table_in(phase: str) -> TestTable:
    return create_lobby(["Ann", "Ben", "Cat"]) if phase == "lobby" else play_to(phase)


def ok(response: Any, table: TestTable) -> None:
    """A plain POST that worked: back to the table's page."""
    assert response.status_code == 302, (response.status_code, alerts(response))
    assert response["Location"] == url("table", table.code)


# --- lobby: options (the deck and the settings) -------------------------------------------------


def test_host_saves_the_deck_and_goes_back_to_the_suggestion() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    data = {"count_werewolf": "2", "count_seer": "1", "count_villager": "3", "count_tanner": "0"}
    ok(host.post(url("options", table.code), data), table)
    deck = table.refresh().options["deck"]
    assert Counter(deck) == Counter({"werewolf": 2, "seer": 1, "villager": 3})
    ok(host.post(url("options", table.code), {"suggested": "1", "count_werewolf": "2"}), table)
    assert table.refresh().options["deck"] == []


def test_the_deck_picker_shows_the_saved_counts() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    host.post(url("options", table.code), {"count_werewolf": "2", "count_villager": "3"})
    body = raw(host.get(url("table", table.code)))
    assert 'name="count_werewolf" min="0" max="2" value="2"' in body
    assert 'name="count_villager" min="0" max="3" value="3"' in body
    assert "5 of 6 cards:" in text(host.get(url("table", table.code)))


def test_options_post_with_htmx_returns_the_panel() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ann").post(
        url("options", table.code), {"count_villager": "3", "count_werewolf": "2"}, **HTMX
    )
    assert response.status_code == 200
    assert is_panel_only(response)
    assert response["X-Table-Version"] == str(table.refresh().version)
    assert "3 players need 6 cards" in text(response)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"count_werewolf": "3"}, "The deck may hold 0 to 2 Werewolf cards."),
        ({"count_seer": "-1"}, "The deck may hold 0 to 1 Seer cards."),
        ({"count_seer": "abc"}, "The number of Seer cards must be a whole number."),
        ({"count_seer": "1.0"}, "must be a whole number"),
        ({"count_seer": "9" * 10_000}, "must be a whole number"),
        ({"count_seer": "١٢"}, "The deck may hold 0 to 1 Seer cards."),
        ({"count_doppelganger": "1"}, "The Doppelganger is not used in the house rules."),
        # The Vampire is a card of the official ruleset now (docs/rules.md 8b).
        ({"count_ghost": "3"}, "'ghost' is not a role of this game."),
        ({"count_vampire": "1"}, "The Vampire plays with the official rules only"),
        ({"day_minutes": ""}, "Please give the day length in minutes."),
        ({"day_minutes": "0"}, "The day length must be a whole number of minutes from 1 to 1440."),
        ({"day_minutes": "abc"}, "The day length must be a whole number of minutes."),
        ({"night_minutes": "-3"}, "The night time limit must be a whole number of minutes"),
        ({"vote_minutes": "2.5"}, "The vote limit must be a whole number of minutes."),
        ({"vote_minutes": "1441"}, "from 1 to 1440"),
    ],
)
def test_bad_options_are_400(data: dict[str, str], message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    refused(host, url("options", table.code), data, table, 400, message)
    refused(host, url("options", table.code), data, table, 400, message, **HTMX)


def test_options_post_ignores_fields_it_does_not_know() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ann").post(
        url("options", table.code), {"count_villager": "1", "x": "<b>", "deck": "werewolf"}
    )
    ok(response, table)
    assert table.refresh().options["deck"] == ["villager"]


def test_a_deck_of_all_zeros_is_the_suggested_deck() -> None:
    """Doubtful: saving every counter at 0 silently means "use the suggested deck"."""
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    host.post(url("options", table.code), {"count_villager": "3"})
    ok(host.post(url("options", table.code), {"count_villager": "0"}), table)
    assert table.refresh().options["deck"] == []


def test_host_saves_the_settings() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    data = {"day_minutes": "5", "night_minutes": "3", "vote_minutes": "", "rules_phrase": "no"}
    ok(host.post(url("options", table.code), data), table)
    options = table.refresh().options
    minutes = (options["day_minutes"], options["night_minutes"], options["vote_minutes"])
    assert minutes == (5, 3, None)
    assert options["rules_phrase"] is False
    ben = text(client_for(table, "Ben").get(url("table", table.code)))
    assert "The day lasts 5 minutes." in ben and "The night ends after 3 minutes." in ben
    joiner = new_client()
    assert 'name="phrase"' not in raw(joiner.get(url("join", table.code)))
    assert joiner.post(url("join", table.code), {"name": "Dan"}).status_code == 302


def test_only_the_host_changes_options() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    ben = client_for(table, "Ben")
    for data in ({"count_villager": "1"}, {"day_minutes": "5"}, {"suggested": "1"}):
        refused(ben, url("options", table.code), data, table, 403, "Only the host can do that.")


# --- lobby: remove, lock, start, cancel ---------------------------------------------------------


def test_host_removes_a_player_and_the_player_loses_the_seat() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    cat = client_for(table, "Cat")
    response = client_for(table, "Ann").post(url("remove_seat", table.code, table.seats["Cat"].pk))
    ok(response, table)
    assert list(table.table.seats.values_list("name", flat=True)) == ["Ann", "Ben"]
    # Cat's browser is sent back to the join page.
    response = cat.get(url("table", table.code))
    assert response.status_code == 302 and response["Location"] == url("join", table.code)


@pytest.mark.parametrize(
    ("who", "target", "status", "message"),
    [
        ("Ben", "Cat", 403, "Only the host can do that."),
        ("Ann", "Ann", 400, "The host cannot remove themselves."),
        ("Ann", "stranger", 400, "That player is not at this table."),
        ("Ann", "missing", 400, "That player is not at this table."),
    ],
)
def test_bad_removals(who: str, target: str, status: int, message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    other = create_lobby(["Xia", "Yan"])
    seat_id = {
        "stranger": other.seats["Yan"].pk,
        "missing": 987_654,
    }.get(target) or table.seats[target].pk
    client = client_for(table, who)
    path = url("remove_seat", table.code, seat_id)
    refused(client, path, {}, table, status, message)
    refused(client, path, {}, table, status, message, **HTMX)
    assert other.table.seats.count() == 2


def test_remove_with_a_huge_seat_id_is_a_clear_refusal() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    for digits in (19, 30):
        path = f"/g/{table.code}/remove/{'9' * digits}"
        refused(host, path, {}, table, 400, "That player is not at this table.")


def test_remove_with_a_non_numeric_seat_id_is_404() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ann").post(f"/g/{table.code}/remove/abc")
    assert response.status_code == 404


def test_host_locks_and_unlocks_the_table() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    response = host.post(url("lock", table.code), {"locked": "yes"}, **HTMX)
    assert response.status_code == 200 and is_panel_only(response)
    assert "The table is locked: nobody new can join." in text(response)
    assert table.refresh().joins_locked
    ok(host.post(url("lock", table.code), {"locked": "no"}), table)
    assert not table.refresh().joins_locked
    refused(
        client_for(table, "Ben"), url("lock", table.code), {"locked": "yes"}, table, 403, "host"
    )


def test_host_starts_the_game() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    ok(client_for(table, "Ann").post(url("start", table.code)), table)
    assert table.phase() == "night"


def test_host_starts_the_game_with_htmx() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client_for(table, "Ann").post(url("start", table.code), **HTMX)
    assert response.status_code == 200 and is_panel_only(response)
    assert panel_attr(response, "data-stage") == "playing"
    assert panel_attr(response, "data-phase-label") == "Night"
    assert "Your night action" in text(response)


def test_start_refusals() -> None:
    table = create_lobby(["Ann", "Ben"])
    refused(client_for(table, "Ben"), url("start", table.code), {}, table, 403, "Only the host")
    refused(
        client_for(table, "Ann"),
        url("start", table.code),
        {},
        table,
        400,
        "At least 3 players are needed to start.",
    )
    started = play_to("night")
    refused(
        client_for(started, "Ann"),
        url("start", started.code),
        {},
        started,
        409,
        "The game has started: that can't be done now.",
    )


def test_host_cancels_the_lobby() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    ok(client_for(table, "Ann").post(url("cancel", table.code)), table)
    assert table.phase() == "cancelled"


def test_cancel_refusals() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    refused(
        client_for(table, "Ben"), url("cancel", table.code), {}, table, 403, "Only the host can"
    )
    done = play_to("reveal")
    refused(client_for(done, "Ann"), url("cancel", done.code), {}, done, 409, "already over")


def test_host_can_stop_a_running_game_and_nobody_else_can() -> None:
    """A host may stop a game that cannot go on (someone left); no cards are shown."""
    table = play_to("day")
    assert client_for(table, "Ben").post(url("cancel", table.code)).status_code == 403
    assert table.phase() == "day"
    ok(client_for(table, "Ann").post(url("cancel", table.code)), table)
    assert table.phase() == "cancelled"
    body = raw(client_for(table, "Ben").get(url("table", table.code)))
    assert "This game was cancelled" in body and 'id="reveal"' not in body


# --- night actions ------------------------------------------------------------------------------


def test_night_action_posts() -> None:
    table = deal_game(**THREE)
    clients = {n: client_for(table, n) for n in table.names}
    ok(clients["Ann"].post(move_url(table.code, "action"), {"targets": "middle"}), table)
    # htmx, the phase stays: the new panel.
    version = table.refresh().version
    response = clients["Ben"].post(
        move_url(table.code, "action"), {"targets": "left,right"}, **HTMX
    )
    assert response.status_code == 200
    assert is_panel_only(response)
    assert panel_attr(response, "data-phase-label") == "Night"
    assert response["X-Table-Version"] == str(version + 1)
    assert "Your action is in." in text(response)
    # htmx, the last action moves the game on: the panel of the day, which says its phase and
    # version (table.js updates the header from them).
    response = clients["Cat"].post(move_url(table.code, "action"), {"no_action": "1"}, **HTMX)
    assert response.status_code == 200
    assert is_panel_only(response)
    assert panel_attr(response, "data-phase-label") == "Day"
    assert response["X-Table-Version"] == panel_attr(response, "data-version")
    assert int(response["X-Table-Version"]) == version + 2
    assert "What you learned in the night" in text(response)
    assert table.phase() == "day"
    actions = {n: a["targets"] for n, a in table.state().actions.items()}
    assert actions == {"Ann": ["middle"], "Ben": ["left", "right"], "Cat": []}


def test_troublemaker_posts_two_selects() -> None:
    cards = {
        "Ann": "troublemaker",
        "Ben": "seer",
        "Cat": "robber",
        "left": "werewolf",
        "middle": "villager",
        "right": "drunk",
    }
    table = deal_game(**cards)
    client = client_for(table, "Ann")
    body = raw(client.get(url("table", table.code)))
    assert body.count('<select name="targets">') == 2
    refused(
        client,
        move_url(table.code, "action"),
        {"targets": [*form_targets(table, "Ben"), ""]},
        table,
        400,
        "A troublemaker swaps the cards of two other players",
    )
    pair = {"targets": form_targets(table, "Ben", "Cat")}
    ok(client.post(move_url(table.code, "action"), pair), table)
    assert table.state().actions["Ann"]["targets"] == ["Ben", "Cat"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Pick your target, or choose “no action”."),
        ({"targets": ""}, "Pick your target, or choose “no action”."),
        ({"targets": ","}, "Choose your targets from the list on the page."),
        ({"targets": ("Ben",)}, "You cannot target yourself"),
        ({"targets": "Zed"}, "Choose your targets from the list on the page."),
        ({"targets": "Cat"}, "Choose your targets from the list on the page."),
        ({"targets": "<script>alert(1)</script>"}, "Choose your targets from the list"),
        ({"targets": "Zoë 🐺"}, "Choose your targets from the list"),
        ({"targets": "x" * 50_000}, "Choose your targets from the list"),
        ({"targets": "9" * 50}, "Choose your targets from the list"),
        ({"targets": "-1"}, "Choose your targets from the list"),
        ({"targets": ("Ann", "Cat")}, "A seer looks at one other player or two centre cards."),
        ({"targets": "left,left"}, "Pick different targets"),
    ],
)
def test_bad_night_actions_are_refused(data: dict[str, Any], message: str) -> None:
    """Players are posted by seat id: a name, or a number that is no seat of this table, is
    refused before the rules are asked."""
    table = deal_game(**THREE)
    if isinstance(data.get("targets"), tuple):
        data = {**data, "targets": form_targets(table, *data["targets"])}
    client = client_for(table, "Ben")
    refused(client, move_url(table.code, "action"), data, table, 400, message)
    refused(client, move_url(table.code, "action"), data, table, 400, message, **HTMX)


def test_only_the_doppelganger_copies() -> None:
    table = deal_game(**THREE)
    data = {"targets": form_targets(table, "Ann")}
    client = client_for(table, "Ben")
    message = "Only the Doppelganger copies another card."
    refused(client, move_url(table.code, "copy"), data, table, 403, message)
    refused(client, move_url(table.code, "copy"), data, table, 403, message, **HTMX)


@pytest.mark.parametrize("kind", ["kill", "peek", "start"])
def test_a_move_the_game_does_not_have_is_refused(kind: str) -> None:
    table = deal_game(**THREE)
    message = "That can't be done in this game."
    refused(client_for(table, "Ben"), move_url(table.code, kind), {}, table, 409, message)


def test_a_seat_id_of_another_table_is_refused() -> None:
    table = deal_game(**THREE)
    other = create_lobby(["Dan", "Eve", "Fay"])
    data = {"targets": form_targets(other, "Dan")}
    message = "Choose your targets from the list on the page."
    refused(client_for(table, "Ben"), move_url(table.code, "action"), data, table, 400, message)


def test_night_action_messages_are_escaped() -> None:
    table = deal_game(**THREE)
    response = client_for(table, "Ben").post(
        move_url(table.code, "action"), {"targets": "<script>alert(1)</script>"}
    )
    assert "<script>alert(1)</script>" not in raw(response)
    assert "Choose your targets from the list on the page." in alerts(response)


def test_a_night_action_is_final() -> None:
    table = deal_game(**THREE)
    client = client_for(table, "Ben")
    client.post(move_url(table.code, "action"), {"targets": form_targets(table, "Cat")})
    refused(
        client,
        move_url(table.code, "action"),
        {"targets": form_targets(table, "Ann")},
        table,
        400,
        "You already sent your night action; it is final.",
    )


@pytest.mark.parametrize("phase", ["lobby", "day", "voting", "reveal", "cancelled"])
def test_night_action_out_of_phase_is_409(phase: str) -> None:
    table = table_in(phase)
    client = client_for(table, "Ben")
    for data in ({"targets": form_targets(table, "Cat")}, {"no_action": "1"}):
        refused(client, move_url(table.code, "action"), data, table, 409, PHASE_MESSAGES[phase])


def test_doppelganger_two_steps_on_the_page() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    ann = client_for(table, "Ann")
    body = raw(ann.get(url("table", table.code)))
    assert f'action="{move_url(table.code, "copy")}"' in body
    copy = {"targets": form_targets(table, "Cat")}
    ok(ann.post(move_url(table.code, "copy"), copy), table)
    body = raw(ann.get(url("table", table.code)))
    assert "You copied the card of a <strong>Robber</strong>." in body
    assert "A robber swaps cards with one other player" in body
    ok(ann.post(move_url(table.code, "action"), {"targets": form_targets(table, "Dan")}), table)
    assert table.state().actions["Ann"]["targets"] == ["Cat", "Dan"]


def test_a_doppelganger_who_copies_a_role_that_does_not_act_is_shown_it_at_once() -> None:
    """rules/002 s5: the Doppelganger looks at the card it copies and becomes that role; a copy
    with no action of its own (here the werewolf) completes the night action at once."""
    table = deal_game("official", **OFFICIAL_FIVE)
    ann = client_for(table, "Ann")
    ok(ann.post(move_url(table.code, "copy"), {"targets": form_targets(table, "Dan")}), table)
    body = raw(ann.get(url("table", table.code)))
    assert "You copied the card of a <strong>Werewolf</strong>." in body
    assert "Your action is in" in body
    assert (
        "Werewolf"
        not in raw(client_for(table, "Ben").get(url("table", table.code)))
        .split("role-message")[1]
        .split("</article>")[0]
    )


def test_doppelganger_copies_nobody_on_the_page() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    ann = client_for(table, "Ann")
    ok(ann.post(move_url(table.code, "action"), {"no_action": "1"}), table)
    assert table.state().actions["Ann"] == {"targets": [], "complete": True}


def test_doppelganger_copy_refusals_on_the_page() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    ann = client_for(table, "Ann")
    path = move_url(table.code, "copy")

    def copy(*names: str) -> dict[str, object]:
        return {"targets": form_targets(table, *names)}

    refused(ann, path, copy("Ann"), table, 400, "cannot target yourself")
    refused(ann, path, copy("left"), table, 400, "copies one other player's card")
    refused(ann, path, copy("Ben", "Cat"), table, 400, "Choose the one player whose card you copy")
    refused(ann, path, {}, table, 400, "Choose the one player whose card you copy")
    ann.post(path, copy("Ben"))
    refused(ann, path, copy("Cat"), table, 400, "already chose whom to copy")


def test_doppelganger_copies_the_drunk_on_the_page() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    ann = client_for(table, "Ann")
    ok(ann.post(move_url(table.code, "copy"), {"targets": form_targets(table, "Eve")}), table)
    body = text(ann.get(url("table", table.code)))
    assert "You copied the card of a Drunk." in body.replace("<strong>", "").replace(
        "</strong>", ""
    )
    assert "No action" not in body.split("Your night action")[1].split("Your choice is final")[0]


def test_copy_nobody_is_possible_from_a_browser() -> None:
    """The copy form's radios are `required`: "Copy nobody" must be a form of its own (or skip
    that check), and a ticked radio sent along with it must not turn it into a copy."""
    table = deal_game("official", **OFFICIAL_FIVE)
    body = raw(client_for(table, "Ann").get(url("table", table.code)))
    start = body.rindex("<form", 0, body.index("Copy nobody"))
    form = body[start : body.index("Copy nobody")]
    assert "required" not in form or "formnovalidate" in form
    client_for(table, "Ann").post(
        move_url(table.code, "action"), {"targets": form_targets(table, "Ben"), "no_action": "1"}
    )
    assert table.state().actions["Ann"]["targets"] == []


# --- day: ready and end of day ------------------------------------------------------------------


def test_ready_posts_and_the_day_ends_when_all_are_ready() -> None:
    table = play_to("day")
    for name in ("Ann", "Ben"):
        ok(client_for(table, name).post(move_url(table.code, "ready"), {"ready": "yes"}), table)
    ok(client_for(table, "Cat").post(move_url(table.code, "ready")), table)  # no field: ready
    assert table.phase() == "voting"


def test_unready_post() -> None:
    table = play_to("day")
    ben = client_for(table, "Ben")
    ben.post(move_url(table.code, "ready"), {"ready": "yes"})
    ben.post(move_url(table.code, "ready"), {"ready": "no"})
    assert table.state().ready == []


@pytest.mark.parametrize("phase", ["lobby", "night", "voting", "reveal"])
def test_ready_out_of_phase_is_409(phase: str) -> None:
    table = table_in(phase)
    refused(
        client_for(table, "Ben"),
        move_url(table.code, "ready"),
        {"ready": "yes"},
        table,
        409,
        PHASE_MESSAGES[phase],
    )


def test_host_ends_the_day() -> None:
    table = play_to("day")
    response = client_for(table, "Ann").post(move_url(table.code, "end_day"), **HTMX)
    assert response.status_code == 200
    assert is_panel_only(response)
    assert panel_attr(response, "data-phase-label") == "Voting"
    assert response["X-Table-Version"] == str(table.refresh().version)
    assert table.phase() == "voting"


def test_end_day_refusals() -> None:
    table = play_to("day")
    refused(
        client_for(table, "Ben"), move_url(table.code, "end_day"), {}, table, 403, "Only the host"
    )
    night = play_to("night")
    refused(
        client_for(night, "Ann"), move_url(night.code, "end_day"), {}, night, 409, "It is night"
    )


# --- voting -------------------------------------------------------------------------------------


def test_votes_through_the_page_bring_the_reveal() -> None:
    table = play_to("voting")
    for voter, target in (("Ann", "Ben"), ("Ben", "Cat")):
        response = client_for(table, voter).post(
            move_url(table.code, "vote"), {"target": str(table.seats[target].pk)}
        )
        ok(response, table)
    response = client_for(table, "Cat").post(
        move_url(table.code, "vote"), {"target": table.seats["Ann"].pk}, **HTMX
    )
    assert response.status_code == 200
    assert is_panel_only(response)
    assert panel_attr(response, "data-phase-label") == "Reveal"
    assert panel_attr(response, "data-stage") == "over"
    assert 'id="reveal"' in raw(response)
    assert table.phase() == "reveal"
    assert len(table.state().votes) == 3


def test_the_ring_shortcut_buttons_post_a_vote() -> None:
    table = play_to("voting")
    ring = table.state().ring
    ann = client_for(table, "Ann")
    body = raw(ann.get(url("table", table.code)))
    me = ring.index(table.seats["Ann"].pk)
    up = ring[me - 1]
    # One tap votes, after the page asks (issue 30: a mis-tap must not cast a final vote).
    assert f'<button type="submit" name="target" value="{up}" data-confirm="Vote for ' in body
    ok(ann.post(move_url(table.code, "vote"), {"target": str(up)}), table)
    assert table.state().votes == {str(table.seats["Ann"].pk): up}


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (None, "Vote for one of the players at this table."),
        ("", "Vote for one of the players at this table."),
        ("abc", "Vote for one of the players at this table."),
        ("1.5", "Vote for one of the players at this table."),
        ("-1", "Vote for one of the players at this table."),
        ("0", "Vote for one of the players at this table."),
        ("9" * 30, "Vote for one of the players at this table."),
        ("9" * 10_000, "Vote for one of the players at this table."),
        ("<script>", "Vote for one of the players at this table."),
        ("987654", "Vote for one of the players at this table."),
        ("self", "You cannot vote for yourself."),
        ("stranger", "Vote for one of the players at this table."),
    ],
)
def test_bad_votes_are_400(target: str | None, message: str) -> None:
    table = play_to("voting")
    other = play_to("voting")
    value = {"self": table.seats["Ann"].pk, "stranger": other.seats["Ben"].pk}.get(
        target or "", target
    )
    data = {} if value is None else {"target": value}
    client = client_for(table, "Ann")
    refused(client, move_url(table.code, "vote"), data, table, 400, message)
    refused(client, move_url(table.code, "vote"), data, table, 400, message, **HTMX)


def test_a_vote_is_final_on_the_page() -> None:
    table = play_to("voting")
    client = client_for(table, "Ann")
    client.post(move_url(table.code, "vote"), {"target": table.seats["Ben"].pk})
    refused(
        client,
        move_url(table.code, "vote"),
        {"target": table.seats["Cat"].pk},
        table,
        400,
        "You already voted; votes are final.",
    )


@pytest.mark.parametrize("phase", ["lobby", "night", "day", "reveal", "cancelled"])
def test_vote_out_of_phase_is_409(phase: str) -> None:
    table = table_in(phase)
    refused(
        client_for(table, "Ann"),
        move_url(table.code, "vote"),
        {"target": table.seats["Ben"].pk},
        table,
        409,
        PHASE_MESSAGES[phase],
    )


# --- chat ---------------------------------------------------------------------------------------


def test_chat_posts() -> None:
    table = play_to("day")
    ben = client_for(table, "Ben")
    ok(ben.post(url("chat", table.code), {"channel": "public", "text": "I am the seer"}), table)
    response = ben.post(url("chat", table.code), {"channel": "public", "text": "really"}, **HTMX)
    assert response.status_code == 200
    assert 'class="chat-box"' in raw(response) and 'value=""' in raw(response)
    lines = ChatLine.objects.filter(table=table.table, note=False).values_list("author", "text")
    assert list(lines) == [("Ben", "I am the seer"), ("Ben", "really")]


def test_chat_refusals_keep_what_was_typed() -> None:
    table = play_to("day")
    ben = client_for(table, "Ben")
    response = ben.post(url("chat", table.code), {"text": "x" * 501}, **HTMX)
    assert response.status_code == 400
    assert "Messages are limited to 500 characters." in alerts(response)
    assert f'value="{"x" * 501}"' in raw(response)
    night = play_to("night")
    closed = client_for(night, "Ben")
    response = closed.post(url("chat", night.code), {"text": "psst"}, **HTMX)
    assert response.status_code == 409
    assert "The chat is closed during the night and the vote." in text(response)
    response = closed.post(url("chat", night.code), {"text": "psst"})
    assert response.status_code == 409
    assert "The chat is closed during the night and the vote." in alerts(response)
    assert not ChatLine.objects.filter(note=False).exists()


# --- play again ---------------------------------------------------------------------------------


def test_play_again_moves_everyone_to_one_new_table() -> None:
    table = play_to("reveal")
    ben = client_for(table, "Ben")
    response = ben.post(url("play_again", table.code))
    assert response.status_code == 302
    new = Table.objects.get(previous=table.table)
    assert response["Location"] == url("table", new.code)
    seat = seat_in_session(ben, new.code)
    assert seat is not None and seat.name == "Ben"
    # The old page now says where the new table is.
    page = ben.get(url("table", table.code))
    assert "A new game with the same players is ready" in raw(page)
    assert "Go to the new game" in raw(page)
    cat = client_for(table, "Cat")
    response = cat.post(url("play_again", table.code), **HTMX)
    assert response.status_code == 204
    assert response["HX-Redirect"] == url("table", new.code)
    assert Table.objects.count() == 2
    host_page = client_for(table, "Ann")
    host_page.post(url("play_again", table.code))
    assert "Save the cards" in raw(host_page.get(url("table", new.code)))


@pytest.mark.parametrize("phase", ["night", "day", "voting", "cancelled"])
def test_play_again_out_of_phase_is_409(phase: str) -> None:
    table = play_to(phase)
    message = "This game was cancelled." if phase == "cancelled" else "The game has started"
    refused(client_for(table, "Ben"), url("play_again", table.code), {}, table, 409, message)
    assert Table.objects.count() == 1


def test_play_again_after_removal_from_the_new_lobby_is_a_clear_refusal() -> None:
    table = play_to("reveal")
    ann = client_for(table, "Ann")
    ann.post(url("play_again", table.code))
    new = Table.objects.get(previous=table.table)
    ann.post(url("remove_seat", new.code, new.seats.get(name="Cat").pk))
    cat = client_for(table, "Cat")
    response = cat.post(url("play_again", table.code))
    assert response.status_code == 403
    assert any("The host took you off the new table" in a for a in alerts(response))
    assert seat_in_session(cat, new.code) is None


# --- seats of other tables and strangers --------------------------------------------------------

POSTS: list[tuple[str, Callable[[TestTable], str], dict[str, object]]] = [
    ("options", lambda t: url("options", t.code), {"count_villager": "1"}),
    ("remove", lambda t: url("remove_seat", t.code, t.seats["Cat"].pk), {}),
    ("lock", lambda t: url("lock", t.code), {"locked": "yes"}),
    ("start", lambda t: url("start", t.code), {}),
    ("cancel", lambda t: url("cancel", t.code), {}),
    ("copy", lambda t: move_url(t.code, "copy"), {"targets": lambda t: t.seats["Ben"].pk}),
    ("action", lambda t: move_url(t.code, "action"), {"no_action": "1"}),
    ("end_day", lambda t: move_url(t.code, "end_day"), {}),
    ("ready", lambda t: move_url(t.code, "ready"), {}),
    ("vote", lambda t: move_url(t.code, "vote"), {"target": lambda t: t.seats["Ben"].pk}),
    ("chat", lambda t: url("chat", t.code), {"text": "hello"}),
    ("again", lambda t: url("play_again", t.code), {}),
]


@pytest.mark.parametrize(("name", "path", "data"), POSTS, ids=[p[0] for p in POSTS])
@pytest.mark.parametrize("phase", ["lobby", "night", "day", "voting"])
def test_a_player_of_another_table_cannot_post_here(
    name: str, path: Callable[[TestTable], str], data: dict[str, object], phase: str
) -> None:
    table = table_in(phase)
    other = table_in(phase)
    intruder = client_for(other, "Ann")  # a host, even
    data = {k: (v(table) if callable(v) else v) for k, v in data.items()}
    # In the lobby the stranger is told to take a seat; later, that the game started without them.
    said = "Take a seat first" if phase == "lobby" else "this browser holds no seat in it"
    refused(intruder, path(table), data, table, 403, said)
    refused(new_client(), path(table), data, table, 403, said)


@pytest.mark.parametrize(("name", "path", "data"), POSTS, ids=[p[0] for p in POSTS])
def test_posts_to_an_unknown_table_are_404(
    name: str, path: Callable[[TestTable], str], data: dict[str, object]
) -> None:
    table = play_to("night")
    client = client_for(table, "Ann")
    target = path(table).replace(table.code, "ZZZZZZZZ")
    data = {k: (v(table) if callable(v) else v) for k, v in data.items()}
    response = client.post(target, data)
    assert response.status_code == 404
    assert any("There is no game with that code." in a for a in alerts(response))


@pytest.mark.parametrize(("name", "path", "data"), POSTS, ids=[p[0] for p in POSTS])
def test_posts_are_post_only_and_say_so(
    name: str, path: Callable[[TestTable], str], data: dict[str, object]
) -> None:
    table = play_to("night")
    before = table_state(table.table.pk)
    response = client_for(table, "Ann").get(path(table))
    assert response.status_code == 405
    assert "POST" in response["Allow"]
    assert "Use the buttons on the page" in text(response)
    assert table_state(table.table.pk) == before


def test_a_night_action_after_the_deadline_hears_that_it_is_day() -> None:
    """After a missed night deadline, a late action is refused with the day's message."""
    table = deal_game(night_minutes=1, **THREE)
    Table.objects.filter(pk=table.table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    client = client_for(table, "Ben")
    response = client.post(move_url(table.code, "action"), {"targets": form_targets(table, "Cat")})
    assert response.status_code == 409
    assert "It is the day" in " ".join(alerts(response))
    assert table.state().actions["Ben"]["by_deadline"] is True


def test_the_rules_phrase_is_never_shown_to_a_seated_player_in_play() -> None:
    table = play_to("day")
    body = raw(client_for(table, "Cat").get(url("table", table.code)))
    assert RULES_PHRASE not in body
