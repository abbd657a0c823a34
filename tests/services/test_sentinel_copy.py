"""docs/rules.md 8a.10: online, the Doppelganger's copied card is held back from its page until
every other player's action is in, when the deck holds the Sentinel and the Doppelganger wakes
after it (8a.3); a copy the Sentinel shields fails, and the action completes by itself."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.utils import timezone

from games.families.onenight.engine import Role
from games.families.onenight.family import OneNight
from games.families.onenight.play import OneNightState, copy_held, copy_shielded
from games.tables import services
from games.tables.models import Table
from games.tables.reads import seat_info, table_info
from games.tables.services.common import ServiceError
from tests.factories import (
    TestTable,
    client_for,
    deal_game,
    form_targets,
    move,
    night_action,
)
from tests.web.helpers import panel_of, url

pytestmark = pytest.mark.django_db

HELD = "You will see the card you copied once every other player's action is in"
COPIED = "You copied the card of a"
SHOWN = "You copied the card of a <strong>Seer</strong>."

WITH_SENTINEL = {
    "Ann": "doppelganger",
    "Ben": "sentinel",
    "Cat": "werewolf",
    "Dan": "seer",
    "left": "villager",
    "middle": "robber",
    "right": "troublemaker",
}


def _panel(table: TestTable, name: str) -> str:
    return html.unescape(panel_of(client_for(table, name).get(url("table", table.code))))


def _copy(table: TestTable, name: str, model: str) -> None:
    move(table.seat(name), "copy", targets=form_targets(table, model))


def test_the_copy_is_held_until_every_other_action_is_in() -> None:
    table = deal_game("official", **WITH_SENTINEL)
    _copy(table, "Ann", "Dan")
    state = table.state()
    assert copy_held(state, "Ann") and state.actions["Ann"]["complete"] is False
    page = _panel(table, "Ann")
    assert HELD in page and COPIED not in page and "Send my action" not in page
    # The copied role's action is not read while the card is held.
    with pytest.raises(ServiceError, match="once every other player"):
        night_action(table, "Ann", ["Cat"])
    night_action(table, "Ben", ["Cat"])  # shields another card
    night_action(table, "Cat", [])
    assert HELD in _panel(table, "Ann")
    night_action(table, "Dan", [])
    state = table.state()
    assert state.phase == "night" and not copy_held(state, "Ann")
    assert copy_shielded(state, "Ann") is None
    page = _panel(table, "Ann")
    assert SHOWN in page and HELD not in page and "Send my action" in page
    night_action(table, "Ann", ["Cat"])
    assert table.phase() == "day"
    assert table.state().night().copied is Role.SEER


def test_a_shielded_copy_fails_and_completes_by_itself() -> None:
    table = deal_game("official", **WITH_SENTINEL)
    _copy(table, "Ann", "Dan")
    night_action(table, "Ben", ["Dan"])  # the shield on the copied card
    night_action(table, "Cat", [])
    page = _panel(table, "Ann")
    assert HELD in page and COPIED not in page
    night_action(table, "Dan", [])
    state = table.state()
    assert state.phase == "day"
    assert state.actions["Ann"] == {"targets": ["Dan"], "complete": True}
    assert state.night().copied is None
    page = _panel(table, "Ann")
    assert COPIED not in page
    assert "A shield lay on Dan's card" in page  # the engine's night report


def test_a_copy_sent_last_onto_a_shielded_card_fails_at_once() -> None:
    table = deal_game("official", **WITH_SENTINEL)
    night_action(table, "Ben", ["Dan"])
    night_action(table, "Cat", [])
    night_action(table, "Dan", [])
    _copy(table, "Ann", "Dan")
    assert table.phase() == "day" and table.state().night().copied is None


def test_a_copy_sent_last_and_not_shielded_is_shown_at_once() -> None:
    table = deal_game("official", **WITH_SENTINEL)
    night_action(table, "Ben", ["Cat"])
    night_action(table, "Cat", [])
    night_action(table, "Dan", [])
    _copy(table, "Ann", "Dan")
    assert SHOWN in _panel(table, "Ann")
    night_action(table, "Ann", ["Cat"])
    assert table.phase() == "day"


def test_a_held_copy_of_a_role_with_nothing_to_do_waits_too() -> None:
    """The page is the same whatever the copied role does: a copy needing no action is not
    complete while held; it completes once the others are in."""
    table = deal_game("official", **{**WITH_SENTINEL, "Dan": "villager", "left": "seer"})
    _copy(table, "Ann", "Dan")
    assert table.state().actions["Ann"]["complete"] is False
    assert HELD in _panel(table, "Ann")
    night_action(table, "Ben", [])
    night_action(table, "Cat", [])
    night_action(table, "Dan", [])
    assert table.phase() == "day" and table.state().night().copied is Role.VILLAGER


@pytest.mark.parametrize(
    "cards",
    [
        # No Sentinel in the deck.
        {**WITH_SENTINEL, "Ben": "villager"},
        # A Vampire expansion card: the Doppelganger wakes at dusk, before the Sentinel (8b.3).
        {**WITH_SENTINEL, "Cat": "vampire", "left": "werewolf"},
    ],
)
def test_without_the_hold_the_copy_is_shown_at_once(cards: dict[str, str]) -> None:
    table = deal_game("official", **cards)
    _copy(table, "Ann", "Dan")
    assert not copy_held(table.state(), "Ann")
    page = _panel(table, "Ann")
    assert SHOWN in page and HELD not in page


def _advance(table: TestTable) -> None:
    Table.objects.filter(pk=table.table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.table_advance_if_due(table_id=table.table.pk) is True


@pytest.mark.parametrize("shield", ["Dan", "Cat"])
def test_the_deadline_ends_a_night_with_a_held_copy(shield: str) -> None:
    table = deal_game("official", night_minutes=1, **WITH_SENTINEL)
    _copy(table, "Ann", "Dan")
    night_action(table, "Ben", [shield])
    assert copy_held(table.state(), "Ann")
    _advance(table)
    state = table.state()
    assert state.phase == "day"
    assert state.actions["Ann"]["targets"] == ["Dan"]
    assert state.night().copied is (None if shield == "Dan" else Role.SEER)


def test_copy_held_reads_only_a_doppelganger_copy() -> None:
    table = deal_game("official", **WITH_SENTINEL)
    state = table.state()
    assert not copy_held(state, "Ann") and copy_shielded(state, "Ann") is None
    assert not copy_held(OneNightState({**state.raw, "phase": "day"}), "Ben")


def test_the_action_that_lets_a_copy_go_redraws_the_doppelgangers_page() -> None:
    """A move that only counts redraws its sender's page alone; the last action a held copy
    waited for redraws the Doppelganger's too, which now shows the copied card and its form
    (without it, the page kept saying the copy waits until reloaded)."""
    table = deal_game("official", **WITH_SENTINEL)
    _copy(table, "Ann", "Dan")
    night_action(table, "Ben", ["Cat"])  # shields another card
    family = OneNight()
    now = timezone.now()

    def redraw(name: str) -> frozenset[int] | None:
        row = Table.objects.get(pk=table.table.pk)
        change = family.move(
            table_info(row), seat_info(table.seat(name)), "action", {"no_action": ["1"]}, now
        )
        return change.redraw

    assert redraw("Cat") == {table.seat("Cat").pk}
    night_action(table, "Cat", [])
    assert redraw("Dan") == {table.seat("Dan").pk, table.seat("Ann").pk}
