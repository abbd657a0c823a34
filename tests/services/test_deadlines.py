"""Deadlines: game_advance_if_due and advance_due_games."""

from __future__ import annotations

import secrets
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import engine, services
from games.engine import CENTRE_POSITIONS
from games.models import CentreCard, Game, NightAction, Phase, Vote
from tests.factories import (
    THREE,
    Table,
    cast_votes,
    create_lobby,
    deal_game,
    game_state,
    play_night,
    play_to,
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


def actions_by_name(table: Table) -> dict[str, NightAction]:
    return {
        a.seat.name: a for a in NightAction.objects.filter(game=table.game).select_related("seat")
    }


def stored_final(table: Table) -> dict[str, str]:
    game = table.refresh()
    final = {s.name: s.final_role for s in game.seats.all()}
    final.update({c.position: c.final_role for c in game.centre_cards.all()})
    return final


def engine_final(table: Table) -> dict[str, str]:
    game = table.refresh()
    seats = list(game.seats.order_by("position"))
    deal = services.deal_of(game, seats, CentreCard.objects.filter(game=game))
    actions = {a.seat.name: a.targets for a in NightAction.objects.filter(game=game)}
    night = engine.resolve_night(deal, actions)
    return {p: r.value for p, r in night.final.items()}


# --- night --------------------------------------------------------------------------------------


def test_night_deadline_fills_missing_actions_and_resolves() -> None:
    start = timezone.now()
    table = deal_game(night_minutes=2, day_minutes=7, now=start, **DRUNK_TABLE)
    services.night_action_submit(seat=table.seat("Ben"), targets=["Ann"])
    assert table.game.deadline == start + timedelta(minutes=2)

    before = game_state(table.game.pk)
    almost = start + timedelta(minutes=2) - timedelta(microseconds=1)
    assert services.game_advance_if_due(game_id=table.game.pk, now=almost) is False
    assert game_state(table.game.pk) == before

    due = start + timedelta(minutes=2)
    with mock.patch.object(secrets.SystemRandom, "choice", lambda self, seq: seq[-1]):
        assert services.game_advance_if_due(game_id=table.game.pk, now=due) is True
    game = table.refresh()
    assert game.phase == Phase.DAY
    assert game.day_started_at == due
    assert game.deadline == due + timedelta(minutes=7)
    actions = actions_by_name(table)
    assert set(actions) == {"Ann", "Ben", "Cat"}
    assert (actions["Ann"].targets, actions["Ann"].by_deadline) == ([], True)
    assert (actions["Ben"].targets, actions["Ben"].by_deadline) == (["Ann"], False)
    assert (actions["Cat"].targets, actions["Cat"].by_deadline) == (["right"], True)
    assert all(a.complete for a in actions.values())
    assert stored_final(table) == engine_final(table)
    assert stored_final(table)["Cat"] == "tanner"


def test_a_missing_drunk_gets_a_random_centre_card() -> None:
    seen = set()
    for _ in range(12):
        table = deal_game(night_minutes=1, **DRUNK_TABLE)
        due = table.game.deadline
        assert due is not None
        assert services.game_advance_if_due(game_id=table.game.pk, now=due) is True
        (target,) = actions_by_name(table)["Cat"].targets
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
    services.doppelganger_copy(seat=table.seat("Ann"), target="Ben")
    due = table.game.deadline
    assert due is not None
    assert services.game_advance_if_due(game_id=table.game.pk, now=due) is True
    actions = actions_by_name(table)
    assert (actions["Ann"].targets, actions["Ann"].complete) == (["Ben"], True)
    assert actions["Ann"].by_deadline
    assert (actions["Ben"].targets, actions["Cat"].targets) == ([], [])
    game = table.refresh()
    assert game.phase == Phase.DAY and game.copied_role == "seer"

    table = deal_game("official", night_minutes=1, **cards)
    due = table.game.deadline
    assert due is not None
    services.game_advance_if_due(game_id=table.game.pk, now=due)
    assert actions_by_name(table)["Ann"].targets == []
    assert table.refresh().copied_role == ""


def test_no_night_limit_means_no_deadline() -> None:
    table = deal_game(**THREE)
    far = timezone.now() + timedelta(days=365)
    assert services.game_advance_if_due(game_id=table.game.pk, now=far) is False
    assert table.phase() == Phase.NIGHT
    assert not NightAction.objects.exists()


# --- day ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("vote_minutes", "vote_deadline"), [(None, None), (3, 180)])
def test_day_deadline_starts_the_vote(vote_minutes: int | None, vote_deadline: int | None) -> None:
    table = play_to(Phase.DAY, vote_minutes=vote_minutes)
    game = table.refresh()
    assert game.deadline is not None
    early = game.deadline - timedelta(seconds=1)
    assert services.game_advance_if_due(game_id=game.pk, now=early) is False
    assert table.phase() == Phase.DAY
    due = game.deadline + timedelta(seconds=5)
    assert services.game_advance_if_due(game_id=game.pk, now=due) is True
    game = table.refresh()
    assert game.phase == Phase.VOTING
    if vote_deadline is None:
        assert game.deadline is None
    else:
        assert game.deadline == due + timedelta(seconds=vote_deadline)
    # Moving on twice is impossible: the new deadline (if any) is not due yet.
    assert services.game_advance_if_due(game_id=game.pk, now=due) is False


# --- voting -------------------------------------------------------------------------------------


def test_vote_deadline_counts_missing_votes_as_none_and_reveals() -> None:
    table = play_to(Phase.VOTING, vote_minutes=1)
    cast_votes(table, {"Ann": "Ben"})
    game = table.refresh()
    assert game.deadline is not None
    due = game.deadline
    assert services.game_advance_if_due(game_id=game.pk, now=due) is True
    game = table.refresh()
    assert game.phase == Phase.REVEAL
    assert game.finished_at == due and game.deadline is None
    votes = {v.voter.name: v for v in Vote.objects.filter(game=game).select_related("voter")}
    assert set(votes) == {"Ann", "Ben", "Cat"}
    assert votes["Ann"].target_id == table.seats["Ben"].pk and not votes["Ann"].by_deadline
    for name in ("Ben", "Cat"):
        assert votes[name].target_id is None and votes[name].by_deadline
    assert game.result is not None
    assert game.result["counts"] == {"Ben": 1}
    assert game.result["dead"] == []
    seats = list(game.seats.order_by("position"))
    deal = services.deal_of(game, seats, CentreCard.objects.filter(game=game))
    night = engine.resolve_night(deal, {a.seat.name: a.targets for a in game.night_actions.all()})
    result = engine.finish_game(night, {"Ann": "Ben", "Ben": None, "Cat": None})
    assert result.outcome is not None
    assert game.result["reason"] == result.outcome.reason


def test_vote_deadline_with_nobody_voting() -> None:
    table = play_to(Phase.VOTING, vote_minutes=1)
    due = table.refresh().deadline
    assert due is not None
    assert services.game_advance_if_due(game_id=table.game.pk, now=due) is True
    assert Vote.objects.filter(game=table.game, target=None, by_deadline=True).count() == 3
    assert table.phase() == Phase.REVEAL


def test_finished_and_lobby_games_never_move() -> None:
    far = timezone.now() + timedelta(days=365)
    lobby = create_lobby(["Ann", "Ben", "Cat"])
    revealed = play_to(Phase.REVEAL)
    cancelled = play_to(Phase.CANCELLED)
    for table in (lobby, revealed, cancelled):
        before = game_state(table.game.pk)
        assert services.game_advance_if_due(game_id=table.game.pk, now=far) is False
        assert game_state(table.game.pk) == before


def test_a_stray_deadline_on_a_finished_game_is_ignored() -> None:
    table = play_to(Phase.REVEAL)
    Game.objects.filter(pk=table.game.pk).update(deadline=timezone.now())
    assert services.game_advance_if_due(game_id=table.game.pk) is False
    assert table.phase() == Phase.REVEAL


# --- advance_due_games --------------------------------------------------------------------------


def test_advance_due_games_moves_exactly_the_due_ones() -> None:
    start = timezone.now()
    night_due = deal_game(night_minutes=1, now=start, **THREE)
    night_later = deal_game(night_minutes=10, now=start, **THREE)
    day_due = play_to(Phase.DAY)
    Game.objects.filter(pk=day_due.game.pk).update(deadline=start)
    vote_due = play_to(Phase.VOTING, vote_minutes=1)
    Game.objects.filter(pk=vote_due.game.pk).update(deadline=start)
    untimed = play_to(Phase.VOTING)
    moved = services.advance_due_games(now=start + timedelta(minutes=1))
    assert sorted(moved) == sorted([night_due.code, day_due.code, vote_due.code])
    assert night_due.phase() == Phase.DAY
    assert night_later.phase() == Phase.NIGHT
    assert day_due.phase() == Phase.VOTING
    assert vote_due.phase() == Phase.REVEAL
    assert untimed.phase() == Phase.VOTING
    # Nothing is due any more.
    assert services.advance_due_games(now=start + timedelta(minutes=1)) == []


def test_advance_due_games_with_nothing_to_do() -> None:
    play_night(deal_game(**THREE))
    assert services.advance_due_games() == []


def test_game_caught_up_moves_a_game_on_only_once_its_deadline_has_passed() -> None:
    table = deal_game(night_minutes=1, **THREE)
    game = Game.objects.get(pk=table.game.pk)
    assert services.game_caught_up(game).phase == Phase.NIGHT  # not due yet: as it was
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game = Game.objects.get(pk=game.pk)
    caught_up = services.game_caught_up(game)
    assert caught_up is game and game.phase == Phase.DAY  # moved on and read again
