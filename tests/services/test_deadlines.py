"""Deadlines: table_advance_if_due, advance_due_tables and table_caught_up, with One Night's
documented defaults (docs/rules.md): a missing night action is none (a drunk is given a random
centre card), the day ends into the vote, a missing vote is no vote."""

from __future__ import annotations

import random
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.families.onenight import engine
from games.families.onenight.engine import CENTRE_POSITIONS, Role
from games.families.onenight.options import DAY_MINUTES
from games.tables import services
from games.tables.models import ChatLine, Move, Stage, Table
from tests.factories import (
    THREE,
    TestTable,
    cast_votes,
    create_lobby,
    deal_game,
    form_targets,
    move,
    night_action,
    play_night,
    play_to,
    table_state,
)

pytestmark = pytest.mark.django_db

DRUNK_TABLE: dict[str, str] = {
    "Ann": "werewolf",
    "Ben": "seer",
    "Cat": "drunk",
    "left": "villager",
    "middle": "robber",
    "right": "tanner",
}


def advance(table: TestTable, now: object = None) -> bool:
    return services.table_advance_if_due(table_id=table.table.pk, now=now)  # type: ignore[arg-type]


def final(table: TestTable) -> dict[str, str]:
    return {p: r.value for p, r in table.state().night().final.items()}


def past(table: TestTable, seconds: int = 1) -> None:
    """Move the stored deadline into the past, as if that much time had gone by."""
    Table.objects.filter(pk=table.table.pk).update(
        deadline=timezone.now() - timedelta(seconds=seconds)
    )


# --- night --------------------------------------------------------------------------------------


def test_night_deadline_fills_missing_actions_and_resolves() -> None:
    start = timezone.now()
    table = deal_game(night_minutes=2, day_minutes=7, now=start, **DRUNK_TABLE)
    night_action(table, "Ben", ["Ann"])
    assert table.refresh().deadline == start + timedelta(minutes=2)

    before = table_state(table.table.pk)
    almost = start + timedelta(minutes=2) - timedelta(microseconds=1)
    assert advance(table, almost) is False
    assert table_state(table.table.pk) == before

    due = start + timedelta(minutes=2)
    with mock.patch.object(random.SystemRandom, "choice", lambda self, seq: seq[-1]):
        assert advance(table, due) is True
    stored = table.refresh()
    assert stored.phase == "day"
    assert stored.deadline == due + timedelta(minutes=7)
    actions = table.state().actions
    assert set(actions) == {"Ann", "Ben", "Cat"}
    assert actions["Ann"] == {"targets": [], "complete": True, "by_deadline": True}
    assert actions["Ben"] == {"targets": ["Ann"], "complete": True}
    assert actions["Cat"] == {"targets": ["right"], "complete": True, "by_deadline": True}
    assert final(table)["Cat"] == "tanner"
    assert Move.objects.filter(table=stored, kind="deadline", seat=None).count() == 1
    # Fired once: the day's deadline is not due yet.
    assert advance(table, due) is False


def test_a_missing_drunk_gets_a_random_centre_card() -> None:
    seen = set()
    for _ in range(12):
        table = deal_game(night_minutes=1, **DRUNK_TABLE)
        due = table.table.deadline
        assert due is not None
        assert advance(table, due) is True
        (target,) = table.state().actions["Cat"]["targets"]
        assert target in CENTRE_POSITIONS
        seen.add(target)
    assert len(seen) > 1  # random: all twelve the same has chance 3 * 3**-12


def test_night_deadline_with_a_half_done_and_a_silent_doppelganger() -> None:
    cards = {
        "Ann": "doppelganger",
        "Ben": "seer",
        "Cat": "werewolf",
        "left": "villager",
        "middle": "robber",
        "right": "drunk",
    }
    table = deal_game("official", night_minutes=1, **cards)
    move(table.seat("Ann"), "copy", targets=form_targets(table, "Ben"))
    due = table.table.deadline
    assert due is not None
    assert advance(table, due) is True
    actions = table.state().actions
    assert actions["Ann"] == {"targets": ["Ben"], "complete": True, "by_deadline": True}
    assert (actions["Ben"]["targets"], actions["Cat"]["targets"]) == ([], [])
    assert table.phase() == "day" and table.state().night().copied is Role.SEER

    table = deal_game("official", night_minutes=1, **cards)
    due = table.table.deadline
    assert due is not None
    advance(table, due)
    assert table.state().actions["Ann"]["targets"] == []
    assert table.state().night().copied is None


def test_a_doppelganger_who_copied_the_drunk_is_given_a_centre_card() -> None:
    cards = {
        "Ann": "doppelganger",
        "Ben": "drunk",
        "Cat": "werewolf",
        "left": "villager",
        "middle": "robber",
        "right": "seer",
    }
    table = deal_game("official", night_minutes=1, **cards)
    move(table.seat("Ann"), "copy", targets=form_targets(table, "Ben"))
    due = table.table.deadline
    assert due is not None
    with mock.patch.object(random.SystemRandom, "choice", lambda self, seq: seq[0]):
        assert advance(table, due) is True
    actions = table.state().actions
    assert actions["Ann"]["targets"] == ["Ben", "left"]
    assert actions["Ben"]["targets"] == ["left"]


def test_no_night_limit_means_no_deadline() -> None:
    table = deal_game(**THREE)
    far = timezone.now() + timedelta(days=365)
    assert advance(table, far) is False
    assert table.phase() == "night"
    assert table.state().actions == {}


# --- day ----------------------------------------------------------------------------------------


def test_the_day_lasts_thirty_minutes_unless_the_host_says_otherwise() -> None:
    assert DAY_MINUTES == 30
    start = timezone.now()
    table = create_lobby(["Ann", "Ben", "Cat"])
    assert table.refresh().options["day_minutes"] == 30
    table = deal_game(now=start, **THREE)
    play_night(table, now=start)
    assert table.refresh().deadline == start + timedelta(minutes=30)


@pytest.mark.parametrize(("vote_minutes", "vote_deadline"), [(None, None), (3, 180)])
def test_day_deadline_starts_the_vote(vote_minutes: int | None, vote_deadline: int | None) -> None:
    table = play_to("day", vote_minutes=vote_minutes)
    stored = table.refresh()
    assert stored.deadline is not None
    early = stored.deadline - timedelta(seconds=1)
    assert advance(table, early) is False
    assert table.phase() == "day"
    due = stored.deadline + timedelta(seconds=5)
    assert advance(table, due) is True
    stored = table.refresh()
    assert stored.phase == "voting"
    if vote_deadline is None:
        assert stored.deadline is None
    else:
        assert stored.deadline == due + timedelta(seconds=vote_deadline)
    # Moving on twice is impossible: the new deadline (if any) is not due yet.
    assert advance(table, due) is False
    notes = ChatLine.objects.filter(table=stored, note=True, text__startswith="The day is over")
    assert notes.count() == 1


# --- voting -------------------------------------------------------------------------------------


def test_vote_deadline_counts_missing_votes_as_none_and_reveals() -> None:
    table = play_to("voting", vote_minutes=1)
    cast_votes(table, {"Ann": "Ben"})
    due = table.refresh().deadline
    assert due is not None
    assert advance(table, due) is True
    stored = table.refresh()
    assert (stored.stage, stored.phase) == (Stage.OVER, "reveal")
    assert stored.finished_at is not None and stored.deadline is None
    seats = table.seats
    assert table.state().votes == {
        str(seats["Ann"].pk): seats["Ben"].pk,
        str(seats["Ben"].pk): None,
        str(seats["Cat"].pk): None,
    }
    result = table.state().result
    assert result is not None
    assert result["counts"] == {"Ben": 1}
    assert result["dead"] == []
    night = table.state().night()
    expected = engine.finish_game(night, {"Ann": "Ben", "Ben": None, "Cat": None})
    assert expected.outcome is not None
    assert result["reason"] == expected.outcome.reason


def test_vote_deadline_with_nobody_voting() -> None:
    table = play_to("voting", vote_minutes=1)
    due = table.refresh().deadline
    assert due is not None
    assert advance(table, due) is True
    assert list(table.state().votes.values()) == [None, None, None]
    assert table.phase() == "reveal"


def test_finished_and_lobby_tables_never_move() -> None:
    far = timezone.now() + timedelta(days=365)
    lobby = create_lobby(["Ann", "Ben", "Cat"])
    revealed = play_to("reveal")
    cancelled = play_to("cancelled")
    for table in (lobby, revealed, cancelled):
        before = table_state(table.table.pk)
        assert advance(table, far) is False
        assert table_state(table.table.pk) == before


def test_a_stray_deadline_on_a_finished_table_is_ignored() -> None:
    table = play_to("reveal")
    past(table)
    assert advance(table) is False
    assert services.advance_due_tables() == []
    assert table.phase() == "reveal"


# --- advance_due_tables -------------------------------------------------------------------------


def test_advance_due_tables_moves_exactly_the_due_ones() -> None:
    start = timezone.now()
    night_due = deal_game(night_minutes=1, now=start, **THREE)
    night_later = deal_game(night_minutes=10, now=start, **THREE)
    day_due = play_to("day")
    Table.objects.filter(pk=day_due.table.pk).update(deadline=start)
    vote_due = play_to("voting", vote_minutes=1)
    Table.objects.filter(pk=vote_due.table.pk).update(deadline=start)
    untimed = play_to("voting")
    moved = services.advance_due_tables(now=start + timedelta(minutes=1))
    assert sorted(moved) == sorted([night_due.code, day_due.code, vote_due.code])
    assert night_due.phase() == "day"
    assert night_later.phase() == "night"
    assert day_due.phase() == "voting"
    assert vote_due.phase() == "reveal"
    assert untimed.phase() == "voting"
    # Nothing is due any more.
    assert services.advance_due_tables(now=start + timedelta(minutes=1)) == []


def test_advance_due_tables_with_nothing_to_do() -> None:
    play_night(deal_game(**THREE))
    assert services.advance_due_tables() == []


# --- table_caught_up (a page load notices a passed deadline) ------------------------------------


def test_caught_up_moves_a_table_on_only_once_its_deadline_has_passed() -> None:
    table = deal_game(night_minutes=1, **THREE)
    loaded = Table.objects.get(pk=table.table.pk)
    version = loaded.version
    assert services.table_caught_up(loaded).phase == "night"  # not due yet: as it was
    assert table.refresh().version == version
    past(table)
    loaded = Table.objects.get(pk=table.table.pk)
    caught_up = services.table_caught_up(loaded)
    assert caught_up is loaded and loaded.phase == "day"  # moved on and read again
    assert loaded.version > version
    assert services.table_caught_up(loaded).version == loaded.version  # once only


def test_caught_up_leaves_a_table_without_deadline_alone() -> None:
    for table in (create_lobby(["Ann", "Ben", "Cat"]), deal_game(**THREE), play_to("reveal")):
        before = table_state(table.table.pk)
        services.table_caught_up(Table.objects.get(pk=table.table.pk))
        assert table_state(table.table.pk) == before
