"""The game page, its htmx panel and the status fragment: what each seat sees in each phase."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.models import Game, Phase
from tests.factories import (
    OFFICIAL_FIVE,
    THREE,
    Table,
    cast_votes,
    client_for,
    clients_for,
    create_lobby,
    deal_game,
    form_targets,
    play_night,
    play_to,
)
from tests.web.helpers import HTMX, raw, text, url, visible

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
REVEAL_ONLY = ["(seer) looked at", "(robber) took", "The night, step by step", "Centre cards"]


def played(phase: str) -> Table:
    """THREE played to `phase` with ACTIONS in the night."""
    table = deal_game(**THREE)
    if phase == Phase.NIGHT:
        return table
    play_night(table, ACTIONS)
    if phase in (Phase.VOTING, Phase.REVEAL):
        services.day_end(host=table.seat("Ann"))
    if phase == Phase.REVEAL:
        cast_votes(table, {"Ann": "Ben", "Ben": "Cat", "Cat": "Ben"})
    table.refresh()
    assert table.game.phase == phase
    return table


def panel(body: str) -> str:
    match = re.search(r'<section id="panel".*?</section>\s*$', body, flags=re.S)
    return match.group(0) if match else body


# --- per phase ----------------------------------------------------------------------------------


def test_lobby_page_for_host_and_player() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = text(client_for(table, "Ann").get(url("game", table.code)))
    ben = text(client_for(table, "Ben").get(url("game", table.code)))
    for body in (host, ben):
        assert 'data-phase="lobby"' in body
        assert "Invite your friends" in body and table.code in body
        assert all(name in body for name in ("Ann", "Ben", "Cat"))
        assert "You are the" not in body.replace("You are <strong>", "")
        assert 'id="reveal"' not in body
    assert "Choose the cards" in host and "Deal the cards and start the night" in host
    assert "Choose the cards" not in ben and "Waiting for the host" in ben
    assert url("remove_seat", table.code, table.seats["Ben"].pk) in host
    assert url("remove_seat", table.code, table.seats["Ann"].pk) not in host
    assert "/remove/" not in ben


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.DAY, Phase.VOTING])
def test_each_seat_sees_only_its_own_role_and_report(phase: str) -> None:
    table = played(phase)
    clients = clients_for(table)
    for name, client in clients.items():
        response = client.get(url("game", table.code))
        assert response.status_code == 200
        body = text(response)
        assert f'data-phase="{phase}"' in body
        assert HEADINGS[name] in body
        for other, heading in HEADINGS.items():
            if other != name:
                assert heading not in body, (name, other)
        for other, report in REPORTS.items():
            if other != name or phase == Phase.NIGHT:
                assert report not in body, (name, other)
        if phase != Phase.NIGHT:
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
    table = played(Phase.NIGHT)
    ann = text(client_for(table, "Ann").get(url("game", table.code)))
    ben = text(client_for(table, "Ben").get(url("game", table.code)))
    assert "A lone werewolf may look at one centre card." in ann
    assert "The middle centre card" in ann and "Cat's card" not in ann
    assert "A seer looks at one other player or two centre cards." in ben
    assert "Cat's card" in ben and "Ben's card" not in ben
    assert "The left and middle centre cards" in ben


def test_night_page_after_sending_and_the_progress_count() -> None:
    table = played(Phase.NIGHT)
    client = client_for(table, "Ben")
    client.post(url("night_action", table.code), {"targets": form_targets(table, "Cat")})
    body = text(client.get(url("game", table.code)))
    assert "Your action is in." in body
    assert "1 of 3 players have sent their night action." in body
    # Sending does not reveal the result before the day.
    assert REPORTS["Ben"] not in body


def test_day_page_ready_and_host_controls() -> None:
    table = played(Phase.DAY)
    host = text(client_for(table, "Ann").get(url("game", table.code)))
    ben_client = client_for(table, "Ben")
    ben = text(ben_client.get(url("game", table.code)))
    assert "End the day now (host)" in host and "End the day now" not in ben
    assert "I'm ready to vote" in ben
    assert "0 of 3 players are ready to vote." in ben
    assert "Time left in the day" in ben
    ben_client.post(url("ready", table.code), {})
    ben = text(ben_client.get(url("game", table.code)))
    assert "I'm not ready after all" in ben and "1 of 3 players are ready" in ben


def test_voting_page_shows_the_ring_and_own_vote_only() -> None:
    table = played(Phase.VOTING)
    ann = client_for(table, "Ann")
    body = text(ann.get(url("game", table.code)))
    assert "Vote up:" in body and "Vote down:" in body
    assert "Ann (you)" in body
    ann.post(url("vote", table.code), {"target": table.seats["Cat"].pk})
    body = visible(ann.get(url("game", table.code)))
    assert "You voted for Cat." in body
    assert "1 of 3 players have voted." in body
    ben = text(client_for(table, "Ben").get(url("game", table.code)))
    assert "You voted for" not in ben
    assert "Cat" in ben  # on the ballot, not as Ann's vote


def test_reveal_page_shows_everything_to_everyone() -> None:
    table = played(Phase.REVEAL)
    for name in table.names:
        body = text(client_for(table, name).get(url("game", table.code)))
        assert 'id="reveal"' in body
        assert "The reveal" in body
        for line in REVEAL_ONLY:
            assert line in body
        # The role messages and night reports are replaced by the reveal table.
        assert 'id="role-message"' not in body and 'id="night-report"' not in body
        # Ben got two votes and died; Cat (now the werewolf) lived: the werewolf team won.
        assert "Died: Ben." in visible(client_for(table, name).get(url("game", table.code)))
        assert "Play again with the same players" in body
    game = Game.objects.get(pk=table.game.pk)
    assert game.result is not None and game.result["dead"] == ["Ben"]


def test_cancelled_page() -> None:
    table = played(Phase.NIGHT)
    services.game_cancel(game=table.game)
    for name in table.names:
        response = client_for(table, name).get(url("game", table.code))
        assert response.status_code == 200
        body = text(response)
        assert "This game was cancelled." in body
        assert not any(h in body for h in HEADINGS.values())
        assert 'id="reveal"' not in body


def test_cancelled_lobby_page() -> None:
    table = create_lobby(["Ann", "Ben"])
    services.game_cancel(game=table.game)
    response = client_for(table, "Ben").get(url("game", table.code))
    assert response.status_code == 200
    assert "This game was cancelled." in text(response)


def test_unknown_game_page_is_404(client: Client) -> None:
    response = client.get(url("game", "ZZZZZZZZ"))
    assert response.status_code == 404
    assert "There is no game with that code." in text(response)


def test_a_stranger_sees_nothing_of_a_running_game(client: Client) -> None:
    table = played(Phase.DAY)
    response = client.get(url("game", table.code))
    assert response.status_code == 403
    body = text(response)
    assert not any(h in body for h in HEADINGS.values())
    assert not any(r in body for r in REPORTS.values())


def test_a_player_of_another_game_is_a_stranger_here() -> None:
    table = played(Phase.DAY)
    other = played(Phase.DAY)
    intruder = client_for(other, "Ben")
    for name in ("game", "status"):
        response = intruder.get(url(name, table.code))
        assert response.status_code == 403


def test_a_passed_deadline_is_noticed_by_a_page_load() -> None:
    table = played(Phase.DAY)
    Game.objects.filter(pk=table.game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    body = text(client_for(table, "Ben").get(url("game", table.code)))
    assert 'data-phase="voting"' in body
    assert table.phase() == Phase.VOTING


def test_night_deadline_noticed_by_the_status_fragment() -> None:
    table = deal_game(night_minutes=1, **THREE)
    Game.objects.filter(pk=table.game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    response = client_for(table, "Ben").get(url("status", table.code) + "?phase=night")
    assert response.status_code == 204
    assert response["HX-Refresh"] == "true"
    assert table.phase() == Phase.DAY


# --- htmx and the status fragment ---------------------------------------------------------------


@pytest.mark.parametrize("phase", [Phase.LOBBY, Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL])
def test_htmx_requests_get_the_panel_only(phase: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == Phase.LOBBY else played(phase)
    client = client_for(table, "Ben")
    response = client.get(url("game", table.code), **HTMX)
    assert response.status_code == 200
    body = raw(response)
    assert body.lstrip().startswith('<section id="panel"')
    assert "<html" not in body and 'id="chat"' not in body
    full = raw(client.get(url("game", table.code)))
    assert "<html" in full and 'id="chat"' in full
    restore = raw(
        client.get(url("game", table.code), HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    )
    assert "<html" in restore


@pytest.mark.parametrize(
    "phase", [Phase.LOBBY, Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL, Phase.CANCELLED]
)
def test_status_fragment(phase: str) -> None:
    if phase == Phase.LOBBY:
        table = create_lobby(["Ann", "Ben", "Cat"])
    elif phase == Phase.CANCELLED:
        table = play_to(Phase.CANCELLED)
    else:
        table = played(phase)
    client = client_for(table, "Ben")
    for query in ("", f"?phase={phase}"):
        response = client.get(url("status", table.code) + query)
        assert response.status_code == 200
        body = raw(response)
        assert body.lstrip().startswith('<div id="status"')
        assert f'data-phase="{phase}"' in body
        assert f"?phase={phase}" in body
        assert "<html" not in body
        assert not any(h in html.unescape(body) for h in HEADINGS.values())


@pytest.mark.parametrize("stale", ["lobby", "night", "day", "bogus", ""])
def test_status_with_a_stale_phase_asks_for_a_reload(stale: str) -> None:
    table = played(Phase.VOTING)
    response = client_for(table, "Ben").get(url("status", table.code) + f"?phase={stale}")
    assert response.status_code == 204
    assert response["HX-Refresh"] == "true"
    assert response.content == b""


def test_status_counts_follow_the_game() -> None:
    table = played(Phase.NIGHT)
    client = client_for(table, "Ben")
    assert "0 of 3 players have sent" in text(client.get(url("status", table.code)))
    client.post(url("night_action", table.code), {"no_action": "1"})
    client_for(table, "Ann").post(url("night_action", table.code), {"no_action": "1"})
    assert "2 of 3 players have sent" in text(client.get(url("status", table.code)))


def test_status_of_unknown_game_and_stranger(client: Client) -> None:
    assert client.get(url("status", "ZZZZZZZZ")).status_code == 404
    table = create_lobby(["Ann", "Ben", "Cat"])
    assert client.get(url("status", table.code)).status_code == 403


# --- chat on the page ---------------------------------------------------------------------------


def test_a_removed_players_chat_is_not_attributed_to_the_moderator() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.chat_post(seat=table.seat("Ben"), text="I will be the werewolf, trust me")
    services.seat_remove(host=table.seat("Ann"), seat_id=table.seats["Ben"].pk)
    body = raw(client_for(table, "Ann").get(url("game", table.code)))
    line = re.search(r"<li[^>]*>(.*?I will be the werewolf.*?)</li>", body, flags=re.S)
    assert line is not None
    assert "Moderator" not in line.group(1)


def test_a_player_cannot_take_the_moderators_name() -> None:
    """The app's own notes are signed "Moderator": no player may sit down under that name."""
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(services.ServiceError, match="Moderator"):
        services.seat_join(game=table.game, name="moderator")
    response = Client().post(url("join", table.code), {"name": "Moderator"})
    assert response.status_code == 400
    assert "pick another name" in raw(response)


# --- a whole official game through the pages ----------------------------------------------------


def test_an_official_game_with_the_doppelganger_from_deal_to_reveal() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    clients = clients_for(table)
    post = {
        "Ann": [
            {"step": "copy", "targets": form_targets(table, "Cat")},
            {"targets": form_targets(table, "Dan")},
        ],
        "Ben": [{"targets": "left,middle"}],
        "Cat": [{"no_action": "1"}],
        "Dan": [{"targets": "right"}],
        "Eve": [{"targets": "left"}],
    }
    for name, steps in post.items():
        for data in steps:
            response = clients[name].post(url("night_action", table.code), data)
            assert response.status_code == 302, (name, data, response.content[:300])
    assert table.phase() == Phase.DAY
    ann = visible(clients["Ann"].get(url("game", table.code)))
    assert "You are the Doppelganger." in ann
    assert "You looked at Cat's card and became the Robber." in ann
    assert "You swapped cards with Dan. You are now the Werewolf." in ann
    dan = visible(clients["Dan"].get(url("game", table.code)))
    assert "You looked at the right centre card: it is the Werewolf." in dan
    assert "Robber" not in dan and "Cat" not in dan.split("What you learned")[-1]
    # Everyone votes for Ann, who now holds the werewolf card.
    assert clients["Ann"].post(url("end_day", table.code)).status_code == 302
    votes = {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ann", "Eve": "Ann"}
    for voter, target in votes.items():
        response = clients[voter].post(url("vote", table.code), {"target": table.seats[target].pk})
        assert response.status_code == 302
    assert table.phase() == Phase.REVEAL
    for client in clients.values():
        body = visible(client.get(url("game", table.code)))
        assert "The Doppelganger copied the Robber." in body
        assert "Died: Ann." in body
        assert "A werewolf died, so the town won." in body


def test_chat_and_names_are_escaped_on_every_page() -> None:
    table = create_lobby(["Ann", "<b>Bo</b>", "Zoë 🐺"])
    services.chat_post(seat=table.seat("<b>Bo</b>"), text='<script>alert("x")</script> & <i>hi</i>')
    for name in table.names:
        body = raw(client_for(table, name).get(url("game", table.code)))
        assert "<script>alert" not in body and "<b>Bo</b>" not in body and "<i>hi</i>" not in body
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;i&gt;hi&lt;/i&gt;" in body
        assert "&lt;b&gt;Bo&lt;/b&gt;" in body
        assert "Zoë 🐺" in body
