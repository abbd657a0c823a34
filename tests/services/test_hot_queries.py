"""The hand-written statements of games/hot_queries.py give what the ORM gives."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import hot_queries
from games.models import CentreCard, NightAction, Phase, Seat, Vote
from tests.factories import THREE, play_to

pytestmark = pytest.mark.django_db


def test_count_rows_counts_as_a_filter_would() -> None:
    table = play_to(Phase.DAY, THREE)
    game = table.game
    assert hot_queries.count_rows(Seat, game=game.pk) == 3
    assert hot_queries.count_rows(Seat, game=game.pk, ready_to_vote=True) == 0
    assert hot_queries.count_rows(NightAction, game=game.pk, complete=True) == 3
    Seat.objects.filter(pk=table.seats["Cat"].pk).update(ready_to_vote=True)
    assert hot_queries.count_rows(Seat, game=game.pk, ready_to_vote=True) == 1


def test_count_rows_and_flagged_gives_both_counts_in_one_statement() -> None:
    table = play_to(Phase.DAY, THREE)
    game = table.game
    assert hot_queries.count_rows_and_flagged(Seat, "ready_to_vote", game=game.pk) == (3, 0)
    Seat.objects.filter(pk=table.seats["Cat"].pk).update(ready_to_vote=True)
    assert hot_queries.count_rows_and_flagged(Seat, "ready_to_vote", game=game.pk) == (3, 1)
    assert hot_queries.count_rows_and_flagged(Seat, "ready_to_vote", game=0) == (0, 0)


def test_vote_insert_stores_a_vote_as_the_orm_would_and_only_one_per_voter() -> None:
    table = play_to(Phase.VOTING, THREE)
    ann, ben = table.seats["Ann"], table.seats["Ben"]
    cast_at = timezone.now()
    hot_queries.vote_insert(
        game_id=table.game.pk, voter_id=ann.pk, target_id=ben.pk, cast_at=cast_at
    )
    vote = Vote.objects.get(voter=ann)
    assert (vote.game_id, vote.target_id, vote.by_deadline, vote.cast_at) == (
        table.game.pk,
        ben.pk,
        False,
        cast_at,
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        hot_queries.vote_insert(
            game_id=table.game.pk, voter_id=ann.pk, target_id=ben.pk, cast_at=cast_at
        )
    assert Vote.objects.filter(voter=ann).count() == 1


def test_update_rows_stores_each_rows_fields() -> None:
    table = play_to(Phase.DAY, THREE)
    cards = list(CentreCard.objects.filter(game=table.game).order_by("position"))
    for card in cards:
        card.final_role = "villager"
    hot_queries.update_rows(cards, ["final_role"])
    seats = list(Seat.objects.filter(game=table.game))
    for seat in seats:
        seat.ready_to_vote = seat.name == "Ann"
    hot_queries.update_rows(seats, ["ready_to_vote"])
    hot_queries.update_rows([], ["final_role"])  # nothing to store
    assert set(CentreCard.objects.filter(game=table.game).values_list("final_role", flat=True)) == {
        "villager"
    }
    assert list(
        Seat.objects.filter(game=table.game, ready_to_vote=True).values_list("name", flat=True)
    ) == ["Ann"]
