"""Day and vote services: day_end, seat_ready_set, vote_cast and the reveal."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import engine, services
from games.models import CentreCard, Game, NightAction, Phase, Vote
from games.services import NotAllowedError, ServiceError, WrongPhaseError
from tests.factories import TWELVE, Table, cast_votes, create_lobby, play_to

pytestmark = pytest.mark.django_db


def engine_result(table: Table, votes: dict[str, str | None]) -> engine.GameResult:
    game = table.refresh()
    seats = list(game.seats.order_by("position"))
    deal = services.deal_of(game, seats, CentreCard.objects.filter(game=game))
    names = {s.pk: s.name for s in seats}
    actions = {names[a.seat_id]: a.targets for a in NightAction.objects.filter(game=game)}
    return engine.play_game(deal, actions, votes)


def result_json(result: engine.GameResult) -> dict[str, object]:
    assert result.vote is not None and result.outcome is not None
    return {
        "counts": dict(result.vote.counts),
        "lynched": list(result.vote.lynched),
        "hunted": list(result.vote.hunted),
        "dead": list(result.vote.dead),
        "vote_reason": result.vote.reason,
        "winners": list(result.outcome.winners),
        "teams": sorted(t.value for t in result.outcome.teams),
        "reason": result.outcome.reason,
    }


# --- day_end ------------------------------------------------------------------------------------


def test_host_ends_the_day_and_voting_begins() -> None:
    table = play_to(Phase.DAY)
    now = timezone.now()
    services.day_end(host=table.seat("Ann"), now=now)
    game = table.refresh()
    assert game.phase == Phase.VOTING
    assert game.deadline is None  # no vote time limit


def test_day_end_sets_the_vote_deadline() -> None:
    table = play_to(Phase.DAY, vote_minutes=2)
    now = timezone.now()
    services.day_end(host=table.seat("Ann"), now=now)
    assert table.refresh().deadline == now + timedelta(minutes=2)


def test_only_the_host_ends_the_day() -> None:
    table = play_to(Phase.DAY)
    with pytest.raises(NotAllowedError, match="Only the host"):
        services.day_end(host=table.seat("Ben"))
    assert table.phase() == Phase.DAY


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.VOTING, Phase.REVEAL, Phase.CANCELLED])
def test_day_end_only_in_the_day(phase: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongPhaseError):
        services.day_end(host=table.seat("Ann"))
    assert table.phase() == phase


# --- seat_ready_set -----------------------------------------------------------------------------


def test_ready_marks_and_unmarks() -> None:
    table = play_to(Phase.DAY)
    services.seat_ready_set(seat=table.seat("Ben"), ready=True)
    assert table.seat("Ben").ready_to_vote
    services.seat_ready_set(seat=table.seat("Ben"), ready=False)
    assert not table.seat("Ben").ready_to_vote
    assert table.phase() == Phase.DAY


def test_when_everyone_is_ready_the_day_ends() -> None:
    table = play_to(Phase.DAY, vote_minutes=1)
    now = timezone.now()
    services.seat_ready_set(seat=table.seat("Ann"), ready=True)
    services.seat_ready_set(seat=table.seat("Ben"), ready=True)
    services.seat_ready_set(seat=table.seat("Ben"), ready=True)  # twice counts once
    assert table.phase() == Phase.DAY
    services.seat_ready_set(seat=table.seat("Cat"), ready=True, now=now)
    game = table.refresh()
    assert game.phase == Phase.VOTING
    assert game.deadline == now + timedelta(minutes=1)


def test_unready_players_keep_the_day_going() -> None:
    table = play_to(Phase.DAY)
    for name in ("Ann", "Ben"):
        services.seat_ready_set(seat=table.seat(name), ready=True)
    services.seat_ready_set(seat=table.seat("Ann"), ready=False)
    services.seat_ready_set(seat=table.seat("Cat"), ready=True)
    assert table.phase() == Phase.DAY


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.VOTING, Phase.REVEAL])
def test_ready_only_in_the_day(phase: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongPhaseError):
        services.seat_ready_set(seat=table.seat("Ben"), ready=True)
    assert not table.seat("Ben").ready_to_vote


def test_ready_not_in_the_lobby() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(WrongPhaseError, match="not started"):
        services.seat_ready_set(seat=table.seat("Ben"), ready=True)


# --- vote_cast ----------------------------------------------------------------------------------


def test_a_vote_is_stored_and_final() -> None:
    table = play_to(Phase.VOTING)
    services.vote_cast(seat=table.seat("Ann"), target_id=table.seats["Ben"].pk)
    vote = Vote.objects.get(voter_id=table.seats["Ann"].pk)
    assert vote.target_id == table.seats["Ben"].pk and not vote.by_deadline
    with pytest.raises(ServiceError, match="already voted; votes are final"):
        services.vote_cast(seat=table.seat("Ann"), target_id=table.seats["Cat"].pk)
    assert Vote.objects.get(voter_id=table.seats["Ann"].pk).target_id == table.seats["Ben"].pk
    assert table.phase() == Phase.VOTING


def test_no_vote_for_yourself() -> None:
    table = play_to(Phase.VOTING)
    with pytest.raises(ServiceError, match="cannot vote for yourself"):
        services.vote_cast(seat=table.seat("Ann"), target_id=table.seats["Ann"].pk)
    assert not Vote.objects.exists()


def test_no_vote_for_a_stranger() -> None:
    table = play_to(Phase.VOTING)
    other = play_to(Phase.VOTING)
    with pytest.raises(ServiceError, match="Vote for one of the players at this table"):
        services.vote_cast(seat=table.seat("Ann"), target_id=other.seats["Ben"].pk)
    with pytest.raises(ServiceError, match="Vote for one of the players at this table"):
        services.vote_cast(seat=table.seat("Ann"), target_id=10**12)
    # Ids no database column holds, and values that are not ids, find no seat either.
    for target_id in (2**63, 2**80, 0, -5, "2", None):
        with pytest.raises(ServiceError, match="Vote for one of the players at this table"):
            services.vote_cast(seat=table.seat("Ann"), target_id=target_id)  # type: ignore[arg-type]
    assert not Vote.objects.exists()


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.DAY, Phase.REVEAL, Phase.CANCELLED])
def test_votes_only_while_voting(phase: str) -> None:
    table = play_to(phase)
    votes = Vote.objects.count()
    with pytest.raises(WrongPhaseError):
        services.vote_cast(seat=table.seat("Ann"), target_id=table.seats["Ben"].pk)
    assert Vote.objects.count() == votes


def test_the_last_vote_brings_the_reveal_once() -> None:
    table = play_to(Phase.VOTING)
    now = timezone.now()
    with mock.patch.object(services, "_reveal", wraps=services._reveal) as spy:
        services.vote_cast(seat=table.seat("Ann"), target_id=table.seats["Cat"].pk)
        services.vote_cast(seat=table.seat("Ben"), target_id=table.seats["Cat"].pk)
        assert spy.call_count == 0 and table.phase() == Phase.VOTING
        services.vote_cast(seat=table.seat("Cat"), target_id=table.seats["Ann"].pk, now=now)
        assert spy.call_count == 1
    game = table.refresh()
    assert game.phase == Phase.REVEAL
    assert game.finished_at == now
    assert game.deadline is None
    expected = engine_result(table, {"Ann": "Cat", "Ben": "Cat", "Cat": "Ann"})
    assert game.result == result_json(expected)
    # Nobody acted at night, so Ann is still the werewolf; Cat (robber) dies and the wolf wins.
    assert game.result is not None
    assert game.result["dead"] == ["Cat"]
    assert game.result["teams"] == ["werewolf"] and game.result["winners"] == ["Ann"]
    assert game.result["counts"] == {"Cat": 2, "Ann": 1}


def test_reveal_matches_the_engine_for_a_full_table_with_a_hunter() -> None:
    table = play_to(
        Phase.VOTING,
        TWELVE,
        actions={"Cat": ["Ann"], "Dan": ["Jon", "Kim"], "Eve": ["middle"]},
    )
    names = table.names
    # Everyone votes for Kim (the hunter at dawn), who votes for Lou (the Tanner).
    votes: dict[str, str | None] = {n: "Kim" for n in names if n != "Kim"}
    votes["Kim"] = "Lou"
    cast_votes(table, {k: v for k, v in votes.items() if v is not None})
    game = table.refresh()
    assert game.phase == Phase.REVEAL
    assert game.result == result_json(engine_result(table, votes))
    assert game.result is not None
    assert game.result["lynched"] == ["Kim"]
    assert game.result["hunted"] == ["Lou"]
    assert "tanner" in game.result["teams"]


def test_votes_in_other_games_do_not_count_towards_the_reveal() -> None:
    table = play_to(Phase.VOTING)
    other = play_to(Phase.VOTING)
    cast_votes(other, {"Ann": "Ben", "Ben": "Cat"})
    cast_votes(table, {"Ann": "Ben", "Ben": "Cat"})
    assert table.phase() == Phase.VOTING
    assert other.phase() == Phase.VOTING
    assert Game.objects.filter(phase=Phase.REVEAL).count() == 0
