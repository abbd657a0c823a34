"""The table page and its panel fragment: what each seat sees in each phase, and nothing more."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.tables import services
from games.tables.models import Seat, Table
from tests.factories import (
    OFFICIAL_FIVE,
    THREE,
    TestTable,
    cast_votes,
    client_for,
    clients_for,
    create_lobby,
    deal_game,
    form_targets,
    move,
    new_client,
    night_action,
    play_night,
    play_to,
)
from tests.web.helpers import (
    HTMX,
    alerts,
    is_panel_only,
    move_url,
    panel_attr,
    panel_of,
    raw,
    text,
    url,
    visible,
)

pytestmark = pytest.mark.django_db

# THREE: Ann werewolf (alone among the players), Ben seer, Cat robber.
ACTIONS: dict[str, list[str]] = {"Ann": ["middle"], "Ben": ["Cat"], "Cat": ["Ann"]}
HEADINGS = {
    "Ann": "You are the Werewolf.",
    "Ben": "You are the Seer.",
    "Cat": "You are the Robber.",
}
REPORTS = {
    "Ann": "You looked at the middle centre card: it is the Villager.",
    "Ben": "You looked at Cat's card: it is the Robber.",
    "Cat": "You swapped cards with Ann. You are now the Werewolf.",
}
# Lines only the reveal may show (from the night log and the reveal table).
REVEAL_ONLY = ["(Seer) looked at", "(Robber) took", "The night, step by step", "Centre cards"]
LABELS = {"night": "Night", "day": "Day", "voting": "Voting", "reveal": "Reveal"}


def played(phase: str) -> TestTable:
    """THREE played to `phase` with ACTIONS in the night."""
    table = deal_game(**THREE)
    if phase == "night":
        return table
    play_night(table, ACTIONS)
    if phase in ("voting", "reveal"):
        move(table.seat("Ann"), "end_day")
    if phase == "reveal":
        cast_votes(table, {"Ann": "Ben", "Ben": "Cat", "Cat": "Ben"})
    assert table.phase() == phase
    return table


def page(client: Client, table: TestTable, **extra: str) -> str:
    response = client.get(url("table", table.code), **extra)
    assert response.status_code == 200, response.content[:500]
    return text(response)


# --- per phase ----------------------------------------------------------------------------------


def test_lobby_page_for_host_and_player() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = page(client_for(table, "Ann"), table)
    ben = page(client_for(table, "Ben"), table)
    for body in (host, ben):
        assert 'data-stage="lobby"' in body
        assert "Invite your friends" in body and table.code in body
        assert all(name in body for name in ("Ann", "Ben", "Cat"))
        assert "You are the" not in body
        assert 'id="reveal"' not in body
        assert "3 at the table (3 to 12 can play)" in body
    assert "Save the cards" in host and "Deal and start the game" in host
    assert "Save the settings" in host and "Lock the table" in host
    assert "Save the cards" not in ben and "Waiting for the host" in ben
    assert url("remove_seat", table.code, table.seats["Ben"].pk) in host
    assert url("remove_seat", table.code, table.seats["Ann"].pk) not in host
    assert "/remove/" not in ben and url("options", table.code) not in ben


def test_lobby_page_says_why_the_game_cannot_start() -> None:
    table = create_lobby(["Ann", "Ben"])
    body = page(client_for(table, "Ann"), table)
    assert "At least 3 players are needed to start." in body
    assert re.search(r'<button type="submit" class="primary"\s+disabled>Deal and start', body)


@pytest.mark.parametrize("phase", ["night", "day", "voting"])
def test_each_seat_sees_only_its_own_role_and_report(phase: str) -> None:
    table = played(phase)
    clients = clients_for(table)
    for name, client in clients.items():
        response = client.get(url("table", table.code))
        assert response.status_code == 200
        body = text(response)
        assert f'data-phase-label="{LABELS[phase]}"' in body
        assert HEADINGS[name] in body
        for other, heading in HEADINGS.items():
            if other != name:
                assert heading not in body, (name, other)
        for other, report in REPORTS.items():
            if other != name or phase == "night":
                assert report not in body, (name, other)
        if phase != "night":
            assert REPORTS[name] in body
            assert "What you learned in the night" in body
        for line in REVEAL_ONLY:
            assert line not in body
        assert 'id="reveal"' not in body
        # The private rejoin link is this seat's own, and nobody else's.
        assert table.seats[name].token in body
        for other in table.names:
            if other != name:
                assert table.seats[other].token not in body


def test_night_page_shows_the_seats_own_action_form() -> None:
    table = played("night")
    ann = page(client_for(table, "Ann"), table)
    ben = page(client_for(table, "Ben"), table)
    assert "A lone werewolf may look at one centre card." in ann
    assert "The middle centre card" in ann and "Cat's card" not in ann
    assert "A seer looks at one other player or two centre cards." in ben
    assert "Cat's card" in ben and "Ben's card" not in ben
    assert "The left and middle centre cards" in ben
    # Players are offered by seat id, never by name.
    assert f'name="targets" value="{table.seats["Cat"].pk}"' in ben
    assert 'name="targets" value="Cat"' not in ben


def test_night_page_after_sending_and_the_progress_count() -> None:
    table = played("night")
    client = client_for(table, "Ben")
    client.post(move_url(table.code, "action"), {"targets": form_targets(table, "Cat")})
    body = page(client, table)
    assert "Your action is in." in body
    assert "1 of 3 players have sent their night action." in body
    # Sending does not reveal the result before the day.
    assert REPORTS["Ben"] not in body
    # The others see the count, and still their own form.
    ann = page(client_for(table, "Ann"), table)
    assert "1 of 3 players have sent their night action." in ann
    assert "Your action is in." not in ann


def test_night_page_with_a_time_limit_shows_the_clock() -> None:
    table = deal_game(night_minutes=5, **THREE)
    body = page(client_for(table, "Ben"), table)
    assert "Night ends in" in body
    seconds = int(re.search(r'data-seconds="(\d+)"', body).group(1))  # type: ignore[union-attr]
    assert 280 < seconds <= 300


def test_day_page_ready_and_host_controls() -> None:
    table = played("day")
    host = page(client_for(table, "Ann"), table)
    ben_client = client_for(table, "Ben")
    ben = page(ben_client, table)
    assert "End the day now (host)" in host and "End the day now" not in ben
    assert "I'm ready to vote" in ben
    assert "0 of 3 players are ready to vote." in ben
    assert "Time left in the day" in ben
    ben_client.post(move_url(table.code, "ready"), {"ready": "yes"})
    ben = page(ben_client, table)
    assert "I'm not ready after all" in ben and "1 of 3 players are ready" in ben


def test_voting_page_shows_the_ring_and_own_vote_only() -> None:
    table = played("voting")
    ann = client_for(table, "Ann")
    body = page(ann, table)
    assert "Vote up:" in body and "Vote down:" in body
    assert "Ann (you)" in body
    # The ring shortcuts name the neighbours in the table's ring.
    ring = table.state().ring
    names = dict(table.state().players)
    me = ring.index(table.seats["Ann"].pk)
    up, down = names[ring[me - 1]], names[ring[(me + 1) % len(ring)]]
    assert f"Vote up: {up}" in body and f"Vote down: {down}" in body
    ann.post(move_url(table.code, "vote"), {"target": table.seats["Cat"].pk})
    body = visible(ann.get(url("table", table.code)))
    assert "You voted for Cat." in body
    assert "1 of 3 players have voted." in body
    ben = page(client_for(table, "Ben"), table)
    assert "You voted for" not in ben
    assert "1 of 3 players have voted." in ben
    assert "Cat" in ben  # on the ballot, not as Ann's vote


def test_reveal_page_shows_everything_to_everyone() -> None:
    table = played("reveal")
    for name in table.names:
        client = client_for(table, name)
        body = page(client, table)
        assert 'id="reveal"' in body
        assert "The reveal" in body
        for line in REVEAL_ONLY:
            assert line in body
        # The role messages and night reports are replaced by the reveal table.
        assert 'id="role-message"' not in body and 'id="night-report"' not in body
        # Ben got two votes and died; Cat (now the werewolf) lived: the werewolf team won.
        words = visible(client.get(url("table", table.code)))
        assert "Died: Ben." in words
        assert "No werewolf died, so the werewolf team won." in words
        assert "Play again with the same players" in body
    result = table.state().result
    assert result is not None and result["dead"] == ["Ben"]


def test_cancelled_page() -> None:
    table = played("night")
    services.table_cancel(table=table.table)
    for name in table.names:
        body = page(client_for(table, name), table)
        assert "This game was cancelled." in body
        # Nobody's cards are shown: at most the seat's own card, which it already knew.
        assert not any(h in body for other, h in HEADINGS.items() if other != name)
        assert 'id="reveal"' not in body and 'id="night-action"' not in body
        assert "Centre cards" not in body and "Play again" not in body


def test_cancelled_lobby_page() -> None:
    table = create_lobby(["Ann", "Ben"])
    services.table_cancel(table=table.table)
    assert "This game was cancelled." in page(client_for(table, "Ben"), table)


def test_unknown_table_page_is_404(client: Client) -> None:
    for code in ("ZZZZZZZZ", "no-such", "x" * 200):
        response = client.get(f"/g/{code}/")
        assert response.status_code == 404
        assert any("There is no game with that code." in a for a in alerts(response))


def test_a_stranger_sees_nothing_of_a_running_game(client: Client) -> None:
    table = played("day")
    for path in (url("table", table.code), url("panel", table.code)):
        response = client.get(path)
        assert response.status_code == 403
        body = text(response)
        assert "You are not in this game" in body
        assert not any(h in body for h in HEADINGS.values())
        assert not any(r in body for r in REPORTS.values())


def test_a_player_of_another_table_is_a_stranger_here() -> None:
    table = played("day")
    other = played("day")
    intruder = client_for(other, "Ben")
    for name in ("table", "panel"):
        response = intruder.get(url(name, table.code))
        assert response.status_code == 403
        assert HEADINGS["Ben"] not in text(response)


def test_a_removed_player_is_sent_back_to_the_join_page() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    cat = client_for(table, "Cat")
    services.seat_remove(host=table.host, seat_id=table.seats["Cat"].pk)
    response = cat.get(url("table", table.code))
    assert response.status_code == 302 and response["Location"] == url("join", table.code)
    assert cat.get(url("panel", table.code)).status_code == 403


# --- deadlines noticed by a page load ------------------------------------------------------------


def test_a_passed_deadline_is_noticed_by_a_page_load() -> None:
    table = played("day")
    Table.objects.filter(pk=table.table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    body = page(client_for(table, "Ben"), table)
    assert 'data-phase-label="Voting"' in body
    assert table.phase() == "voting"


def test_a_passed_night_deadline_is_noticed_by_the_panel_fragment() -> None:
    table = deal_game(night_minutes=1, **THREE)
    version = table.refresh().version
    Table.objects.filter(pk=table.table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    response = client_for(table, "Ben").get(url("panel", table.code), {"version": version}, **HTMX)
    assert response.status_code == 200  # not "unchanged": the table moved on
    assert table.phase() == "day"
    assert int(response["X-Table-Version"]) > version
    assert panel_attr(response, "data-phase-label") == "Day"
    assert REPORTS["Ben"].split(":")[0] not in raw(response)  # Ben sent nothing: no report


# --- htmx and the panel fragment ----------------------------------------------------------------


@pytest.mark.parametrize("phase", ["lobby", "night", "day", "voting", "reveal"])
def test_htmx_requests_get_the_panel_only(phase: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == "lobby" else played(phase)
    client = client_for(table, "Ben")
    response = client.get(url("table", table.code), **HTMX)
    assert response.status_code == 200
    assert is_panel_only(response)
    assert response["X-Table-Version"] == str(table.refresh().version)
    assert panel_attr(response, "data-version") == response["X-Table-Version"]
    full = raw(client.get(url("table", table.code)))
    assert "<html" in full and 'id="chat"' in full
    restore = raw(
        client.get(url("table", table.code), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    )
    assert "<html" in restore


@pytest.mark.parametrize("phase", ["lobby", "night", "day", "voting", "reveal", "cancelled"])
def test_panel_fragment(phase: str) -> None:
    if phase == "lobby":
        table = create_lobby(["Ann", "Ben", "Cat"])
    elif phase == "cancelled":
        table = play_to("cancelled")
    else:
        table = played(phase)
    client = client_for(table, "Ben")
    version = table.refresh().version
    for query in ({}, {"version": version - 1}, {"version": "bogus"}, {"version": ""}):
        response = client.get(url("panel", table.code), query, **HTMX)
        assert response.status_code == 200
        assert is_panel_only(response)
        assert response["X-Table-Version"] == str(version)
        if phase != "reveal":
            assert not any(h in text(response) for o, h in HEADINGS.items() if o != "Ben")
    # A page that already shows this version is told nothing changed.
    for shown in (version, version + 5):
        unchanged = client.get(url("panel", table.code), {"version": shown}, **HTMX)
        assert unchanged.status_code == 204 and unchanged.content == b""


def test_the_panel_follows_the_game() -> None:
    table = played("night")
    client = client_for(table, "Ben")
    first = client.get(url("panel", table.code), **HTMX)
    assert "0 of 3 players have sent" in text(first)
    client.post(move_url(table.code, "action"), {"no_action": "1"})
    client_for(table, "Ann").post(move_url(table.code, "action"), {"no_action": "1"})
    second = client.get(url("panel", table.code), {"version": first["X-Table-Version"]}, **HTMX)
    assert second.status_code == 200
    assert "2 of 3 players have sent" in text(second)
    assert int(second["X-Table-Version"]) == int(first["X-Table-Version"]) + 2


def test_panel_of_unknown_table_and_stranger(client: Client) -> None:
    assert client.get(url("panel", "ZZZZZZZZ")).status_code == 404
    table = create_lobby(["Ann", "Ben", "Cat"])
    response = client.get(url("panel", table.code))
    assert response.status_code == 403
    assert "Take a seat first" in text(response)


def test_the_panel_is_what_the_page_shows() -> None:
    table = played("day")
    client = client_for(table, "Cat")
    fragment = client.get(url("panel", table.code), **HTMX)
    full = client.get(url("table", table.code))
    strip = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|data-now="[^"]*"|\d+ s<')
    assert strip.sub("", panel_of(fragment)) == strip.sub("", panel_of(full))


# --- chat on the page ---------------------------------------------------------------------------


def test_a_removed_players_chat_is_not_taken_for_the_apps_notes() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.chat_post(seat=table.seat("Ben"), text="I will be the werewolf, trust me")
    services.seat_remove(host=table.seat("Ann"), seat_id=table.seats["Ben"].pk)
    body = raw(client_for(table, "Ann").get(url("table", table.code)))
    line = re.search(r"<li([^>]*)>((?:(?!<li).)*I will be the werewolf.*?)</li>", body, flags=re.S)
    assert line is not None
    assert 'class="line' in line.group(1) and "note" not in line.group(1)
    assert '<span class="who">Ben</span>' in line.group(2)


def test_a_player_cannot_take_the_moderators_name() -> None:
    """The app's own notes are its own: no player may sit down under its name."""
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(services.ServiceError, match="Moderator"):
        services.seat_join(table=table.table, name="moderator", phrase="The Ocean Chose Me")
    response = Client().post(url("join", table.code), {"name": "Moderator"})
    assert response.status_code == 400
    assert "pick another name" in raw(response)


def test_chat_and_names_are_escaped_on_every_page() -> None:
    table = create_lobby(["Ann", "<b>Bo</b>", "Zoë 🐺"])
    services.chat_post(seat=table.seat("<b>Bo</b>"), text='<script>alert("x")</script> & <i>hi</i>')
    for name in table.names:
        body = raw(client_for(table, name).get(url("table", table.code)))
        assert "<script>alert" not in body and "<b>Bo</b>" not in body and "<i>hi</i>" not in body
        escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;i&gt;hi&lt;/i&gt;"
        assert escaped in body
        assert "&lt;b&gt;Bo&lt;/b&gt;" in body
        assert "Zoë 🐺" in body


def test_the_chat_box_is_closed_at_night_with_its_reason() -> None:
    table = played("night")
    body = raw(client_for(table, "Ben").get(url("table", table.code)))
    assert re.search(r'<form method="post" action="[^"]*/chat"[^>]*\bhidden\b', body, flags=re.S)
    assert "The chat is closed during the night and the vote." in body


# --- a whole official game through the pages ----------------------------------------------------


def test_an_official_game_with_the_doppelganger_from_deal_to_reveal() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    clients = clients_for(table)
    posts = {
        "Ann": [
            ("copy", {"targets": form_targets(table, "Cat")}),
            ("action", {"targets": form_targets(table, "Dan")}),
        ],
        "Ben": [("action", {"targets": "left,middle"})],
        "Cat": [("action", {"no_action": "1"})],
        "Dan": [("action", {"targets": "right"})],
        "Eve": [("action", {"targets": "left"})],
    }
    for name, steps in posts.items():
        for kind, data in steps:
            response = clients[name].post(move_url(table.code, kind), data)
            assert response.status_code == 302, (name, data, response.content[:300])
    assert table.phase() == "day"
    ann = visible(clients["Ann"].get(url("table", table.code)))
    assert "You are the Doppelganger." in ann
    assert "You looked at Cat's card and became the Robber." in ann
    assert "You swapped cards with Dan. You are now the Werewolf." in ann
    dan = visible(clients["Dan"].get(url("table", table.code)))
    assert "You looked at the right centre card: it is the Werewolf." in dan
    assert "Robber" not in dan and "Cat" not in dan.split("What you learned")[-1].split("Chat")[0]
    # Everyone votes for Ann, who now holds the werewolf card.
    assert clients["Ann"].post(move_url(table.code, "end_day")).status_code == 302
    votes = {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ann", "Eve": "Ann"}
    for voter, target in votes.items():
        response = clients[voter].post(
            move_url(table.code, "vote"), {"target": table.seats[target].pk}
        )
        assert response.status_code == 302
    assert table.phase() == "reveal"
    for client in clients.values():
        body = visible(client.get(url("table", table.code)))
        assert "The Doppelganger copied the Robber." in body
        assert "Died: Ann." in body
        assert "A werewolf died, so the town won." in body


def test_page_and_services_agree_on_the_night() -> None:
    """The page's night result is the engine's (a check of the helpers)."""
    table = deal_game(**THREE)
    night_action(table, "Cat", ["Ann"])
    play_night(table)
    body = raw(client_for(table, "Cat").get(url("table", table.code)))
    assert REPORTS["Cat"] in body
    assert "The Ocean Chose Me" not in body


@pytest.mark.parametrize("phase", ["night", "day", "voting", "reveal"])
def test_the_seats_current_action_comes_first_in_its_panel(phase: str) -> None:
    """Issue 38: what the seat is asked to do now (data-now) leads the panel, before its role
    card (drawn open, folded by table.js once read) and what it learned."""
    table = played(phase)
    for name, client in clients_for(table).items():
        body = page(client, table)
        panel = body[body.index('<section id="panel"') :]
        now = panel.index("data-now")
        assert panel.count("data-now") >= 1, name
        for later in ('id="role-message"', 'id="night-report"', 'id="reveal"'):
            if later in panel:
                assert now < panel.index(later), (name, later)
        if phase != "reveal":
            assert re.search(r'<details class="card role [^"]*" id="role-message" open', panel)
            assert 'class="role-chip"' in panel and 'class="role-icon"' in panel


def test_a_multi_night_host_page_has_one_host_tools_box_and_no_empty_story() -> None:
    """Issue 38: the game's own controls (Move on now) sit in the page's one "Host tools"
    box, and night 1, with nothing public yet, shows no empty "The story so far"."""
    host = services.table_create(family="werewolf", ruleset="forum", host_name="Ann")
    for name in ("Ben", "Cat", "Dan", "Eve", "Fay", "Gus"):
        services.seat_join(table=host.table, name=name)
    services.table_start(host=Seat.objects.get(pk=host.pk))
    client = new_client()
    response = client.get(url("rejoin", host.table.code, host.token))
    assert response.status_code == 302
    body = text(client.get(url("table", host.table.code)))
    assert body.count('class="card host-tools"') == 1
    tools = body[body.index('class="card host-tools"') :]
    tools = tools[: tools.index("</details>")]
    assert "Move on now" in tools and "Cancel the game" in tools
    assert "The story so far" not in body
    assert "data-now" in body
