"""Host and staff services: game_cancel, game_end_day_by_staff, game_secrets_open,
game_play_again; and chat_post."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.engine.messages import role_message
from games.models import ChatMessage, Game, Phase, Seat
from games.services import NotAllowedError, ServiceError, WrongPhaseError
from tests.factories import THREE, create_lobby, deal_game, game_state, play_to

pytestmark = pytest.mark.django_db


# --- game_cancel --------------------------------------------------------------------------------


@pytest.mark.parametrize("phase", [Phase.LOBBY, Phase.NIGHT, Phase.DAY, Phase.VOTING])
def test_cancel_stops_an_unfinished_game(phase: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == Phase.LOBBY else play_to(phase)
    before = timezone.now()
    services.game_cancel(game=table.game)
    game = table.refresh()
    assert game.phase == Phase.CANCELLED
    assert game.deadline is None
    assert game.finished_at is not None and game.finished_at >= before


def test_cancel_clears_a_night_deadline_so_it_never_fires() -> None:
    table = deal_game(night_minutes=1, **THREE)
    services.game_cancel(game=table.game)
    far = timezone.now() + timedelta(days=1)
    assert services.game_advance_if_due(game_id=table.game.pk, now=far) is False
    assert services.advance_due_games(now=far) == []
    assert table.phase() == Phase.CANCELLED


@pytest.mark.parametrize("phase", [Phase.REVEAL, Phase.CANCELLED])
def test_cancel_refuses_a_finished_game(phase: str) -> None:
    table = play_to(phase)
    before = game_state(table.game.pk)
    with pytest.raises(WrongPhaseError, match="already over"):
        services.game_cancel(game=table.game)
    assert game_state(table.game.pk) == before


def test_cancel_reads_the_phase_from_the_database() -> None:
    table = play_to(Phase.VOTING)
    stale = Game.objects.get(pk=table.game.pk)
    for voter, target in (("Ann", "Ben"), ("Ben", "Cat"), ("Cat", "Ann")):
        services.vote_cast(seat=table.seat(voter), target_id=table.seats[target].pk)
    assert stale.phase == Phase.VOTING
    with pytest.raises(WrongPhaseError):
        services.game_cancel(game=stale)
    assert table.phase() == Phase.REVEAL


# --- game_end_day_by_staff ----------------------------------------------------------------------


def test_staff_end_the_day() -> None:
    table = play_to(Phase.DAY, vote_minutes=5)
    now = timezone.now()
    services.game_end_day_by_staff(game=table.game, now=now)
    game = table.refresh()
    assert game.phase == Phase.VOTING
    assert game.deadline == now + timedelta(minutes=5)


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.VOTING, Phase.REVEAL, Phase.CANCELLED])
def test_staff_end_the_day_only_in_the_day(phase: str) -> None:
    table = play_to(phase)
    before = game_state(table.game.pk)
    with pytest.raises(WrongPhaseError):
        services.game_end_day_by_staff(game=table.game)
    assert game_state(table.game.pk) == before


# --- game_secrets_open --------------------------------------------------------------------------


def test_secrets_open_records_who_and_when(django_user_model: Any) -> None:
    staff = django_user_model.objects.create_user("mod", is_staff=True)
    table = play_to(Phase.NIGHT)
    before = timezone.now()
    services.game_secrets_open(game=table.game, user=staff)
    game = table.refresh()
    assert game.secrets_opened_by == staff
    assert game.secrets_opened_at is not None and game.secrets_opened_at >= before


# --- game_play_again ----------------------------------------------------------------------------


def test_play_again_seats_the_same_table_in_a_new_lobby() -> None:
    table = play_to(Phase.REVEAL, night_minutes=4, vote_minutes=2)
    old = table.refresh()
    ben = services.game_play_again(seat=table.seat("Ben"))
    new = Game.objects.get(pk=ben.game_id)
    assert new.pk != old.pk and new.code != old.code
    assert new.phase == Phase.LOBBY
    assert new.previous_game_id == old.pk
    assert (new.ruleset, new.day_seconds, new.night_seconds, new.vote_seconds) == (
        old.ruleset,
        old.day_seconds,
        old.night_seconds,
        old.vote_seconds,
    )
    assert new.require_rules_phrase is False
    assert Counter(new.deck) == Counter(THREE.values())
    seats = list(new.seats.order_by("position"))
    assert [(s.name, s.position, s.is_host) for s in seats] == [
        ("Ann", 0, True),
        ("Ben", 1, False),
        ("Cat", 2, False),
    ]
    assert all(s.start_role == "" and s.final_role == "" for s in seats)
    old_tokens = set(Seat.objects.filter(game=old).values_list("token", flat=True))
    assert not old_tokens & {s.token for s in seats}
    assert ben.name == "Ben" and not ben.is_host
    # The second caller joins the same new game, in their own seat.
    cat = services.game_play_again(seat=table.seat("Cat"))
    assert cat.game_id == new.pk and cat.name == "Cat"
    ann = services.game_play_again(seat=table.seat("Ann"))
    assert ann.game_id == new.pk and ann.is_host
    assert Game.objects.filter(previous_game=old).count() == 1
    # The old game is untouched and the new one can be played.
    assert table.phase() == Phase.REVEAL
    services.game_start(host=ann)
    assert Game.objects.get(pk=new.pk).phase == Phase.NIGHT


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.CANCELLED])
def test_play_again_only_after_the_reveal(phase: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongPhaseError):
        services.game_play_again(seat=table.seat("Ben"))
    assert Game.objects.count() == 1


def test_play_again_not_from_the_lobby() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(WrongPhaseError, match="not started"):
        services.game_play_again(seat=table.seat("Ann"))


# --- chat_post ----------------------------------------------------------------------------------


def test_chat_in_the_lobby_is_stored_clean() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    message = services.chat_post(seat=table.seat("Ben"), text="  hello\u200b there\x07  ")
    assert message.text == "hello there"
    assert message.phase == Phase.LOBBY
    assert ChatMessage.objects.get().seat_id == table.seats["Ben"].pk


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "Type a message first"), ("   \u200b ", "Type a message first"), (None, "must be text")],
)
def test_chat_refuses_empty_or_non_text(text: object, message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(ServiceError, match=message):
        services.chat_post(seat=table.seat("Ben"), text=text)
    assert not ChatMessage.objects.exists()


def test_chat_length_limit() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.chat_post(seat=table.seat("Ben"), text="x" * 500)
    with pytest.raises(ServiceError, match="limited to 500"):
        services.chat_post(seat=table.seat("Ben"), text="x" * 501)
    assert ChatMessage.objects.count() == 1


def test_chat_from_a_seat_no_longer_at_the_table_is_refused() -> None:
    """Checked against the stored seat, as a consumer's copy from connect may be stale."""
    table = play_to(Phase.DAY, THREE)
    stale = table.seat("Ben")
    Seat.objects.filter(pk=stale.pk).delete()
    with pytest.raises(NotAllowedError, match="not seated"):
        services.chat_post(seat=stale, text="still here?")
    cat = table.seat("Cat")
    Game.objects.filter(pk=table.game.pk).delete()  # staff deleted the whole game
    with pytest.raises(NotAllowedError, match="not seated"):
        services.chat_post(seat=cat, text="anyone?")
    assert not ChatMessage.objects.filter(seat__isnull=False).exists()


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.VOTING])
def test_chat_closed_at_night_and_during_the_vote(phase: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongPhaseError, match="closed"):
        services.chat_post(seat=table.seat("Ben"), text="psst")
    assert not ChatMessage.objects.filter(seat__isnull=False).exists()


def test_chat_rate_limit_per_seat() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    now = timezone.now()
    for i in range(5):
        services.chat_post(seat=table.seat("Ben"), text=f"line {i}", now=now)
    with pytest.raises(ServiceError, match="Slow down"):
        services.chat_post(seat=table.seat("Ben"), text="one more", now=now)
    services.chat_post(seat=table.seat("Cat"), text="my turn", now=now)
    services.chat_post(seat=table.seat("Ben"), text="later", now=now + timedelta(seconds=11))
    assert ChatMessage.objects.filter(seat_id=table.seats["Ben"].pk).count() == 6


def test_chat_refuses_quoting_the_moderator_in_the_day() -> None:
    table = play_to(Phase.DAY)
    seat = table.seat("Ben")
    game = table.refresh()
    deal = services.deal_of(game, list(game.seats.order_by("position")), game.centre_cards.all())
    paragraph = role_message(deal, "Ben").paragraphs[0]
    with pytest.raises(ServiceError, match="word for word"):
        services.chat_post(seat=seat, text=f"Look: {paragraph.upper()}")
    services.chat_post(seat=table.seat("Ben"), text="I am the seer, honestly.")
    assert list(ChatMessage.objects.filter(seat__isnull=False).values_list("text", flat=True)) == [
        "I am the seer, honestly."
    ]


# --- moderator notes ----------------------------------------------------------------------------


def test_each_phase_change_leaves_one_moderator_note() -> None:
    table = play_to(Phase.REVEAL)
    notes = list(
        ChatMessage.objects.filter(game=table.game, seat=None)
        .order_by("id")
        .values_list("phase", flat=True)
    )
    assert notes == [Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL]


def test_play_again_after_being_removed_from_the_new_lobby() -> None:
    table = play_to(Phase.REVEAL)
    ann = services.game_play_again(seat=table.seat("Ann"))
    new_cat = Seat.objects.get(game_id=ann.game_id, name="Cat")
    services.seat_remove(host=ann, seat_id=new_cat.pk)
    with pytest.raises(ServiceError):
        services.game_play_again(seat=table.seat("Cat"))


def test_play_again_never_hands_out_a_strangers_seat() -> None:
    table = play_to(Phase.REVEAL)
    ann = services.game_play_again(seat=table.seat("Ann"))
    services.seat_remove(host=ann, seat_id=Seat.objects.get(game_id=ann.game_id, name="Cat").pk)
    stranger = services.seat_join(game=ann.game, name="Cat")
    try:
        seat = services.game_play_again(seat=table.seat("Cat"))
    except ServiceError:
        return
    assert seat.pk != stranger.pk


def test_play_again_after_the_new_lobby_was_cancelled_leads_to_the_cancelled_game() -> None:
    """Doubtful: once the follow-up lobby is cancelled, the table can never play again."""
    table = play_to(Phase.REVEAL)
    ann = services.game_play_again(seat=table.seat("Ann"))
    services.game_cancel(game=ann.game)
    ben = services.game_play_again(seat=table.seat("Ben"))
    assert ben.game_id == ann.game_id
    assert Game.objects.get(pk=ben.game_id).phase == Phase.CANCELLED
