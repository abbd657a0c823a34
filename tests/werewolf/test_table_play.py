"""Multi-night Werewolf at a table, through the table services as the pages send it: random
legal games of each ruleset played to their end by posting each seat's forms, every page
rendered for every seat along the way; the app's moves agree with the engine's."""

from __future__ import annotations

import html
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.families.werewolf.engine import RULESETS
from games.families.werewolf.engine.forms import forms_for
from games.families.werewolf.engine.view import view_for
from games.families.werewolf.progress import asked
from games.families.werewolf.stored import game_of
from games.tables import services
from games.tables.models import ChatLine, Seat, Table
from games.tables.selectors import WATCHERS_READ
from games.tables.watching import watch_path
from tests.factories import new_client

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy")


def open_table(ruleset: str, players: int = 8) -> tuple[Table, dict[str, Seat]]:
    host = services.table_create(family="werewolf", ruleset=ruleset, host_name=NAMES[0])
    seats = {host.name: host}
    for name in NAMES[1:players]:
        seat = services.seat_join(table=host.table, name=name)
        seats[name] = seat
    return Table.objects.get(pk=host.table_id), seats


def fields_for(
    table: Table, seat: Seat, rng: random.Random
) -> tuple[str, dict[str, list[str]]] | None:
    """A legal form this seat could post now, as the page would post it (seat ids)."""
    game = game_of(table.state)
    ids = table.state["seats"]
    name = seat.name
    forms = forms_for(game.state, name)
    if not forms:
        # The day's speeches: everyone alive says when they are done talking.
        return ("ready", {"ready": ["yes"]}) if asked(game.state, name) else None

    def pick(targets: tuple[str, ...]) -> str:
        target = rng.choice(targets)
        return target if target == "nobody" else str(ids[target])

    night = [f for f in forms if f.kind == "night"]
    if night:
        fields: dict[str, list[str]] = {}
        for form in night:
            if form.key == "save":
                if form.targets and rng.random() < 0.5:
                    fields["save"] = ["yes"]
            elif form.targets and rng.random() < 0.8:
                fields[form.key] = [pick(form.targets)]
        if any(f.group_key for f in night) and game.setup.ruleset.pack == "agreed":
            victim = table.state.get("_test_victim")
            if victim:
                fields[night[0].key] = [victim]
        return "night", fields
    form = forms[0]
    if form.kind == "decide":
        return "decide", {"target": [pick(form.targets)] if form.targets else ["nobody"]}
    if form.kind == "vote":
        return "vote", {"target": [pick(form.targets)]}
    if form.kind == "sheriff_vote":
        return "sheriff_vote", {"target": [pick(form.targets)]}
    if form.kind == "call_vote":
        return "fist", {"yes": [rng.choice(["yes", "no"])]}
    return "ready", {"ready": ["yes"]}


@pytest.mark.parametrize("ruleset", ["forum", "oxford", "classic"])
def test_random_games_play_to_their_end_through_the_pages(ruleset: str) -> None:
    rng = random.Random(ruleset)
    table, seats = open_table(ruleset)
    services.table_start(host=seats["Ann"])
    clients = {}
    for name, seat in seats.items():
        client = new_client()
        client.get(reverse("rejoin", args=[table.code, seat.token]))
        clients[name] = client
    # The watcher rules (games/tables/watching.py): the living host's page offers no watch
    # link; the game's link is the one a host whose seat reads the graveyard hands out.
    assert "/watch/" not in clients["Ann"].get(reverse("table", args=[table.code])).text
    watcher = new_client()
    table.refresh_from_db()
    assert watcher.get(watch_path(table)).status_code == 302
    for _ in range(400):
        table.refresh_from_db()
        if table.stage != "playing":
            break
        moved = False
        for name in rng.sample(list(seats), len(seats)):
            seat = Seat.objects.get(pk=seats[name].pk)
            found = fields_for(table, seat, rng)
            if found is None:
                continue
            kind, fields = found
            response = clients[name].post(
                reverse("move", args=[table.code, kind]), fields, HTTP_HX_REQUEST="true"
            )
            assert response.status_code in (200, 400, 409), response.content[:500]
            moved = moved or response.status_code == 200
            table.refresh_from_db()
            if table.stage != "playing":
                break
        if not moved:
            services.table_move_on(table=table)
        for name in seats:
            page = clients[name].get(reverse("table", args=[table.code]))
            assert page.status_code == 200
        table.refresh_from_db()
        if table.stage == "playing":
            assert_watcher_knows_nothing_secret(watcher, table)
    table.refresh_from_db()
    assert table.stage == "over", game_of(table.state).state.phase
    assert game_of(table.state).state.outcome is not None
    page = clients["Ben"].get(reverse("table", args=[table.code]))
    assert b"The end" in page.content
    assert ChatLine.objects.filter(table=table, note=True).exists()
    assert "The end" in watcher.get(reverse("table", args=[table.code])).content.decode()


def assert_watcher_knows_nothing_secret(watcher: Client, table: Table) -> None:
    """A watcher's page and panel: the public game only. No role of a living player unless the
    game has made it public, no night result, no pack, no form; the graveyard may be read."""
    game = game_of(table.state)
    public = dict(view_for(game, None).known)
    for path in (reverse("table", args=[table.code]), reverse("panel", args=[table.code])):
        response = watcher.get(path)
        assert response.status_code == 200
        body = html.unescape(response.content.decode())
        assert "You are <strong>watching</strong>" in body or path.endswith("panel")
        for secret in ("You are the ", "What you learned", "The pack tonight", 'id="night-action"'):
            assert secret not in body, secret
        assert "/do/" not in body  # no game form
        if not path.endswith("panel"):
            assert body.count(WATCHERS_READ) == body.count('class="chat-form"')
        for player, role in game.setup.roles.items():
            if player not in public:
                assert f"{player} ({role.name.replace('_', ' ')})" not in body
        assert 'data-channel="pack"' not in body


@pytest.mark.parametrize(
    ("ruleset", "role", "section"),
    [("forum", "Protector", "001"), ("oxford", "Trapper", "003"), ("classic", "Witch", "004")],
)
def test_the_role_cards_page_of_each_ruleset(ruleset: str, role: str, section: str) -> None:
    """The card a role message links to: every role of the ruleset, what it does, when, and
    the section it comes from."""
    response = new_client().get(reverse("werewolf_roles", args=[ruleset]))
    assert response.status_code == 200
    body = html.unescape(response.content.decode())
    body = re.sub(r"<svg .*?</svg>", "", body)  # the role's icon beside its name
    assert f"<h2>{role}</h2>" in body and section in body
    assert body.count('class="card role side-') == len(RULESETS[ruleset].roles)


def test_an_unknown_ruleset_has_no_role_cards() -> None:
    response = new_client().get("/werewolf/chess/roles")
    assert response.status_code == 404
    assert "There is no Werewolf game by that name." in response.content.decode()


def test_a_form_posted_after_its_player_died_is_refused_as_the_game_moving_on() -> None:
    """A page drawn while its player lived posts after the death (here Fate's smite, rules/003):
    409 with a clear message and nothing changed; the race a player meets, not a seat without
    rights (the load benchmark met it as a 403)."""
    table, seats = open_table("oxford")
    services.table_start(host=seats["Ann"])
    for _ in range(10):
        table.refresh_from_db()
        if game_of(table.state).state.phase.kind == "day":
            break
        services.table_move_on(table=table)
    victim = next(n for n in game_of(table.state).state.alive if n != "Ann")
    services.seat_move(seat=seats["Ann"], kind="smite", fields={"target": [str(seats[victim].id)]})
    client = new_client()
    client.get(reverse("rejoin", args=[table.code, seats[victim].token]))
    before = Table.objects.get(pk=table.pk).version
    response = client.post(
        reverse("move", args=[table.code, "ready"]), {"ready": ["yes"]}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409
    assert "You have died" in html.unescape(response.content.decode())
    assert Table.objects.get(pk=table.pk).version == before
