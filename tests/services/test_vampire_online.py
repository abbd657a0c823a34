"""Vampire's cards played online through the pages and the services (docs/rules.md 8b.7): the
forms post seat ids, the Gremlin's word and the Marksman's "-"; a forged value is refused with
a clear message and nothing stored; the Copycat copies a centre card, then acts; each seat's
day page shows its own mark lines and no one else's; the reveal lists every mark."""

from __future__ import annotations

import html
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.families.onenight.engine import Mark, Role
from games.tables import services
from games.tables.models import Table
from tests.factories import (
    TestTable,
    cast_votes,
    client_for,
    deal_game,
    end_day,
    form_targets,
    move,
    night_action,
    table_state,
)
from tests.web.helpers import HTMX, alerts, move_url, panel_of, url

pytestmark = pytest.mark.django_db

NIGHT_OF_MARKS = {
    "Ann": "the_count",
    "Ben": "vampire",
    "Cat": "marksman",
    "Dan": "gremlin",
    "Eve": "copycat",
    "left": "seer",
    "middle": "villager",
    "right": "werewolf",
}


def _page(browser: Client, code: str) -> str:
    return html.unescape(browser.get(url("table", code)).content.decode())


def _refused(
    client: Client, kind: str, data: dict[str, Any], table: TestTable, status: int, message: str
) -> None:
    """Posted as a plain form and with htmx: refused with `message`, nothing stored."""
    for extra in ({}, HTMX):
        before = table_state(table.table.pk)
        response = client.post(move_url(table.code, kind), data, **extra)
        assert response.status_code == status, (response.status_code, alerts(response))
        assert any(message in a for a in alerts(response)), alerts(response)
        assert table_state(table.table.pk) == before


def test_the_night_forms_post_seat_ids_and_words() -> None:
    table = deal_game("official", **NIGHT_OF_MARKS)
    ids = {name: str(seat.pk) for name, seat in table.seats.items()}
    count = panel_of(client_for(table, "Ann").get(url("table", table.code)))
    assert "The vampires&#x27; pick" in count or "The vampires' pick" in html.unescape(count)
    assert count.count('<select name="targets" required>') == 2
    for name in ("Ben", "Cat", "Dan", "Eve"):
        assert f'<option value="{ids[name]}">{name}</option>' in count
    assert f'value="{ids["Ann"]}"' not in count  # not himself
    gremlin = panel_of(client_for(table, "Dan").get(url("table", table.code)))
    assert 'value="marks" required' in gremlin and 'value="cards" required' in gremlin
    assert gremlin.index('value="marks"') < gremlin.index("<select")
    marksman = panel_of(client_for(table, "Cat").get(url("table", table.code)))
    assert marksman.count('<select name="targets"><option value="-">nobody</option>') == 2
    copycat = panel_of(client_for(table, "Eve").get(url("table", table.code)))
    assert 'value="left" required' in copycat and "Copy nobody" not in copycat
    assert "copy" in copycat.split('value="left"')[0].rsplit("<form", 1)[1]


def test_a_night_of_marks_online_and_what_each_seat_reads() -> None:
    table = deal_game("official", **NIGHT_OF_MARKS)
    night_action(table, "Ann", ["Cat", "Dan"])  # the pick, then the Mark of Fear
    night_action(table, "Ben", ["Cat"])
    night_action(table, "Cat", ["-", "Dan"])  # no card, Dan's mark
    night_action(table, "Dan", ["marks", "Ann", "Ben"])  # frightened: dropped
    move(table.seat("Eve"), "copy", targets=["left"])  # the seer
    assert table.phase() == "night"
    night_action(table, "Eve", ["Ben"])
    state = table.state()
    assert state.phase == "day"
    night = state.night()
    assert night.marks == {
        "Ann": Mark.CLARITY,
        "Ben": Mark.CLARITY,
        "Cat": Mark.VAMPIRE,
        "Dan": Mark.FEAR,
        "Eve": Mark.CLARITY,
    }
    pages = {name: _page(client_for(table, name), table.code) for name in table.names}
    assert "Dan's mark is the Mark of Fear." in pages["Cat"]
    assert "At the end of dusk your mark was the Mark of the Vampire." in pages["Cat"]
    assert "At the end of dusk your mark was the Mark of Fear." in pages["Dan"]
    assert "The Mark of Fear kept you from acting tonight." in pages["Dan"]
    assert "You copied the left centre card" in pages["Eve"]
    for name in ("Ben", "Eve"):
        # Another seat's mark is never on this seat's page.
        assert "Mark of Fear" not in pages[name] and "Dan's mark" not in pages[name], name
    assert "Mark of the Vampire." not in pages["Dan"]
    end_day(table)
    cast_votes(table, {"Ann": "Ben", "Ben": "Cat", "Cat": "Ann", "Dan": "Ann", "Eve": "Ann"})
    reveal = _page(client_for(table, "Ben"), table.code)
    assert "<th>Mark</th>" in reveal
    assert '<td class="mark">Mark of Fear</td>' in reveal
    assert '<td class="mark">Mark of the Vampire</td>' in reveal
    assert table.state().result is not None
    assert table.state().result["reason"] in reveal  # the outcome's own words


def test_the_gremlin_swaps_marks_or_cards() -> None:
    cards = {
        **{"Ann": "gremlin", "Ben": "priest", "Cat": "cupid", "Dan": "werewolf", "Eve": "villager"},
        **{"left": "villager", "middle": "seer", "right": "robber"},
    }
    table = deal_game("official", **cards)
    night_action(table, "Cat", ["Ann", "Eve"])
    night_action(table, "Ben", [])
    night_action(table, "Dan", [])
    night_action(table, "Eve", [])
    night_action(table, "Ann", ["marks", "Ann", "Ben"])
    night = table.state().night()
    assert night.marks["Ann"] is Mark.CLARITY and night.marks["Ben"] is Mark.LOVE
    assert night.marks["Eve"] is Mark.LOVE
    table = deal_game("official", **cards)
    for name in ("Ben", "Cat", "Dan", "Eve"):
        night_action(table, name, [])
    night_action(table, "Ann", ["cards", "Dan", "Eve"])
    night = table.state().night()
    assert night.final["Dan"] is Role.VILLAGER and night.final["Eve"] is Role.WEREWOLF


def test_forged_values_are_refused_and_change_nothing() -> None:
    cards = {"Ann": "the_count", "Ben": "diseased", "Cat": "marksman", "Dan": "gremlin",
             "Eve": "copycat", "Fay": "vampire", "left": "seer", "middle": "villager",
             "right": "drunk"}  # fmt: skip
    table = deal_game("official", **cards)
    ann, ben, cat, dan, eve, fay = (client_for(table, n) for n in table.names)
    ids = form_targets(table, "Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
    a, b, c, _d, e, f = ids
    list_only = "Choose your targets from the list on the page."
    _refused(ann, "action", {"targets": [a, b]}, table, 400, "You cannot target yourself")
    _refused(ann, "action", {"targets": [b]}, table, 400, "then a player for the Mark of Fear")
    _refused(ann, "action", {"targets": [b, b]}, table, 400, "then a player for the Mark of Fear")
    _refused(ann, "action", {"no_action": "1"}, table, 400, "your role must act tonight")
    _refused(ben, "action", {"targets": [e]}, table, 400, "The diseased names a neighbour.")
    _refused(cat, "action", {"targets": ["-", "-"]}, table, 400, "choose “no action”")
    _refused(cat, "action", {"targets": [b, b]}, table, 400, "The marksman names a card")
    _refused(cat, "action", {"targets": ["-", c]}, table, 400, "You cannot target yourself")
    _refused(dan, "action", {"targets": [b, "marks", c]}, table, 400, list_only)
    _refused(dan, "action", {"targets": ["marks", b, b]}, table, 400, "The gremlin names")
    _refused(dan, "action", {"targets": ["marks"]}, table, 400, "The gremlin names")
    _refused(dan, "action", {"targets": ["swap", b, c]}, table, 400, list_only)
    _refused(fay, "action", {"targets": [f]}, table, 400, "You cannot target yourself")
    _refused(fay, "action", {"targets": ["Ann"]}, table, 400, list_only)  # a name, not a seat
    # The Copycat: a centre card first, and only one.
    copy_first = "Choose whom to copy first"
    _refused(eve, "action", {"targets": [b]}, table, 400, copy_first)
    _refused(eve, "copy", {"targets": [b]}, table, 400, "Choose the one centre card you copy.")
    _refused(eve, "copy", {"targets": ["left,middle"]}, table, 400, "the one centre card")
    _refused(eve, "action", {"no_action": "1"}, table, 400, "A copycat looks at one centre card")
    _refused(fay, "copy", {"targets": ["left"]}, table, 403, "Only the Doppelganger copies")
    # The Copycat copies the drunk on the right: then it must take a centre card.
    move(table.seat("Eve"), "copy", targets=["right"])
    assert table.state().actions["Eve"] == {"targets": ["right"], "complete": False}
    _refused(eve, "copy", {"targets": ["left"]}, table, 400, "it is final")
    _refused(eve, "action", {"no_action": "1"}, table, 400, "A drunk")
    night_action(table, "Eve", ["left"])
    assert table.state().actions["Eve"]["targets"] == ["right", "left"]


def test_a_night_that_runs_out_is_finished_by_the_rules() -> None:
    """The clock runs out on the vampires, the Diseased, Cupid and a Copycat that copied
    nothing: the Copycat is given a centre card (and its copy's "must"), the marking roles
    are done by the engine on the first legal player (8b.3), Cupid does nothing."""
    cards = {
        **{"Ann": "vampire", "Ben": "diseased", "Cat": "cupid", "Dan": "copycat"},
        **{"Eve": "the_master", "left": "drunk", "middle": "villager", "right": "seer"},
    }
    table = deal_game("official", night_minutes=5, **cards)
    Table.objects.filter(pk=table.table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.table_advance_if_due(table_id=table.table.pk)
    state = table.state()
    assert state.phase == "day"
    assert state.actions["Dan"]["targets"][0] in ("left", "middle", "right")
    assert all(state.actions[n]["by_deadline"] for n in ("Ann", "Ben", "Cat", "Eve"))
    night = state.night()  # the stored actions are legal
    assert night.pick == "Ben"  # the first non-vampire in seat order
    assert night.marks["Cat"] is not Mark.LOVE
