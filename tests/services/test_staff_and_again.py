"""Host and staff services: table_cancel, table_move_on (the admin's "move on"), secrets_open,
play_again; and chat_post."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from games.families.onenight.engine.messages import role_message
from games.tables import services
from games.tables.models import ChatLine, Move, Seat, Stage, Table
from games.tables.services import NotAllowedError, ServiceError, WrongStageError
from tests.factories import (
    THREE,
    create_lobby,
    deal_game,
    night_action,
    play_to,
    table_state,
    vote,
)

pytestmark = pytest.mark.django_db


# --- table_cancel -------------------------------------------------------------------------------


@pytest.mark.parametrize("phase", ["lobby", "night", "day", "voting"])
def test_cancel_stops_an_unfinished_game(phase: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == "lobby" else play_to(phase)
    before = timezone.now()
    services.table_cancel(table=table.table)
    stored = table.refresh()
    assert (stored.stage, stored.phase, stored.phase_label) == (
        Stage.CANCELLED,
        "cancelled",
        "Cancelled",
    )
    assert stored.deadline is None
    assert stored.finished_at is not None and stored.finished_at >= before


def test_the_host_cancels_and_nobody_else() -> None:
    table = play_to("day")
    before = table_state(table.table.pk)
    with pytest.raises(NotAllowedError, match="Only the host"):
        services.table_cancel(table=table.table, by=table.seat("Ben"))
    assert table_state(table.table.pk) == before
    services.table_cancel(table=table.table, by=table.seat("Ann"))
    assert table.refresh().stage == Stage.CANCELLED
    assert Move.objects.get(table=table.table, kind="cancel").seat_id == table.seats["Ann"].pk


def test_cancel_reveals_nobodys_cards() -> None:
    table = play_to("day", actions={"Cat": ["Ann"]})
    services.table_cancel(table=table.table)
    assert table.state().result is None
    notes = " ".join(ChatLine.objects.filter(table=table.table).values_list("text", flat=True))
    assert "Werewolf" not in notes and "Robber" not in notes


def test_cancel_clears_a_night_deadline_so_it_never_fires() -> None:
    table = deal_game(night_minutes=1, **THREE)
    services.table_cancel(table=table.table)
    far = timezone.now() + timedelta(days=1)
    assert services.table_advance_if_due(table_id=table.table.pk, now=far) is False
    assert services.advance_due_tables(now=far) == []
    assert table.phase() == "cancelled"


@pytest.mark.parametrize("phase", ["reveal", "cancelled"])
def test_cancel_refuses_a_finished_game(phase: str) -> None:
    table = play_to(phase)
    before = table_state(table.table.pk)
    with pytest.raises(WrongStageError, match="already over"):
        services.table_cancel(table=table.table)
    assert table_state(table.table.pk) == before


def test_cancel_reads_the_stage_from_the_database() -> None:
    table = play_to("voting")
    stale = Table.objects.get(pk=table.table.pk)
    for voter, target in (("Ann", "Ben"), ("Ben", "Cat"), ("Cat", "Ann")):
        vote(table, voter, target)
    assert stale.stage == Stage.PLAYING
    with pytest.raises(WrongStageError):
        services.table_cancel(table=stale)
    assert table.phase() == "reveal"


# --- table_move_on (staff) ----------------------------------------------------------------------


def test_staff_move_the_day_on() -> None:
    table = play_to("day", vote_minutes=5)
    now = timezone.now()
    services.table_move_on(table=table.table, now=now)
    stored = table.refresh()
    assert stored.phase == "voting"
    assert stored.deadline == now + timedelta(minutes=5)
    assert Move.objects.filter(table=stored, kind="move_on", seat=None).count() == 1


def test_staff_move_the_night_on_with_the_documented_defaults() -> None:
    cards = {
        "Ann": "werewolf",
        "Ben": "seer",
        "Cat": "drunk",
        "left": "villager",
        "middle": "robber",
        "right": "tanner",
    }
    table = deal_game(**cards)  # no night limit: only staff can move it on
    night_action(table, "Ben", ["Ann"])
    with mock.patch.object(random.SystemRandom, "choice", lambda self, seq: seq[1]):
        services.table_move_on(table=table.table)
    assert table.phase() == "day"
    actions = table.state().actions
    assert actions["Ann"] == {"targets": [], "complete": True, "by_deadline": True}
    assert actions["Ben"] == {"targets": ["Ann"], "complete": True}
    assert actions["Cat"] == {"targets": ["middle"], "complete": True, "by_deadline": True}


def test_staff_move_the_vote_on_to_the_reveal() -> None:
    table = play_to("voting")
    vote(table, "Ann", "Ben")
    services.table_move_on(table=table.table)
    stored = table.refresh()
    assert (stored.stage, stored.phase) == (Stage.OVER, "reveal")
    assert table.state().result is not None
    assert list(table.state().votes.values()).count(None) == 2


@pytest.mark.parametrize(
    ("phase", "message"),
    [
        ("lobby", "The game has not started yet"),
        ("reveal", "This game is over"),
        ("cancelled", "This game was cancelled"),
    ],
)
def test_staff_move_on_only_a_running_game(phase: str, message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"]) if phase == "lobby" else play_to(phase)
    before = table_state(table.table.pk)
    with pytest.raises(WrongStageError, match=message):
        services.table_move_on(table=table.table)
    assert table_state(table.table.pk) == before


# --- secrets_open -------------------------------------------------------------------------------


def test_secrets_open_records_who_and_when(django_user_model: Any) -> None:
    staff = django_user_model.objects.create_user("mod", is_staff=True)
    table = play_to("night")
    before = timezone.now()
    services.secrets_open(table=table.table, user=staff)
    stored = table.refresh()
    assert stored.secrets_opened_by == staff
    assert stored.secrets_opened_at is not None and stored.secrets_opened_at >= before


# --- play_again ---------------------------------------------------------------------------------


def test_play_again_seats_the_same_table_in_a_new_lobby() -> None:
    table = play_to("reveal", night_minutes=4, vote_minutes=2)
    old = Table.objects.get(pk=table.table.pk)
    ben = services.play_again(seat=table.seat("Ben"))
    new = Table.objects.get(pk=ben.table_id)
    assert new.pk != old.pk and new.code != old.code
    assert new.stage == Stage.LOBBY and new.phase == "lobby"
    assert new.previous_id == old.pk
    assert (new.family, new.ruleset) == (old.family, old.ruleset)
    for name in ("day_minutes", "night_minutes", "vote_minutes"):
        assert new.options[name] == old.options[name]
    assert new.options["rules_phrase"] is False  # they read the rules for the last game
    assert Counter(new.options["deck"]) == Counter(THREE.values())
    seats = list(new.seats.order_by("position"))
    assert [(s.name, s.position, s.is_host) for s in seats] == [
        ("Ann", 0, True),
        ("Ben", 1, False),
        ("Cat", 2, False),
    ]
    assert new.state is None
    old_tokens = set(Seat.objects.filter(table=old).values_list("token", flat=True))
    assert not old_tokens & {s.token for s in seats}
    assert ben.name == "Ben" and not ben.is_host
    # The second caller joins the same new table, in their own seat.
    cat = services.play_again(seat=table.seat("Cat"))
    assert cat.table_id == new.pk and cat.name == "Cat"
    ann = services.play_again(seat=table.seat("Ann"))
    assert ann.table_id == new.pk and ann.is_host
    assert Table.objects.filter(previous=old).count() == 1
    # The old table is untouched but for its version (its pages learn of the new one), and the
    # new one can be played.
    assert table.phase() == "reveal"
    assert table.refresh().version == old.version + 1
    services.table_start(host=ann)
    assert Table.objects.get(pk=new.pk).phase == "night"


@pytest.mark.parametrize(
    ("phase", "message"),
    [
        ("night", "The game has started"),
        ("day", "The game has started"),
        ("voting", "The game has started"),
        ("cancelled", "This game was cancelled"),
    ],
)
def test_play_again_only_after_the_reveal(phase: str, message: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongStageError, match=message):
        services.play_again(seat=table.seat("Ben"))
    assert Table.objects.count() == 1


def test_play_again_not_from_the_lobby() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(WrongStageError, match="not started"):
        services.play_again(seat=table.seat("Ann"))


def test_play_again_after_being_removed_from_the_new_lobby() -> None:
    table = play_to("reveal")
    ann = services.play_again(seat=table.seat("Ann"))
    new_cat = Seat.objects.get(table_id=ann.table_id, name="Cat")
    services.seat_remove(host=ann, seat_id=new_cat.pk)
    with pytest.raises(NotAllowedError, match="The host took you off the new table"):
        services.play_again(seat=table.seat("Cat"))
    # The others still follow.
    assert services.play_again(seat=table.seat("Ben")).table_id == ann.table_id


def test_play_again_never_hands_out_a_strangers_seat() -> None:
    table = play_to("reveal")
    ann = services.play_again(seat=table.seat("Ann"))
    services.seat_remove(host=ann, seat_id=Seat.objects.get(table_id=ann.table_id, name="Cat").pk)
    stranger = services.seat_join(table=ann.table, name="Cat")  # no phrase: they read the rules
    with pytest.raises(NotAllowedError):
        services.play_again(seat=table.seat("Cat"))
    assert Seat.objects.filter(pk=stranger.pk, previous_seat=None).exists()


def test_play_again_after_the_new_lobby_was_cancelled_leads_to_the_cancelled_table() -> None:
    """Doubtful: once the follow-up lobby is cancelled, the table can never play again."""
    table = play_to("reveal")
    ann = services.play_again(seat=table.seat("Ann"))
    services.table_cancel(table=ann.table)
    ben = services.play_again(seat=table.seat("Ben"))
    assert ben.table_id == ann.table_id
    assert Table.objects.get(pk=ben.table_id).stage == Stage.CANCELLED


def test_play_again_from_a_seat_no_longer_at_the_table() -> None:
    table = play_to("reveal")
    stale = table.seat("Ben")
    Seat.objects.filter(pk=stale.pk).delete()
    with pytest.raises(NotAllowedError, match="not seated"):
        services.play_again(seat=stale)
    assert Table.objects.count() == 1


# --- chat_post ----------------------------------------------------------------------------------


def test_chat_in_the_lobby_is_stored_clean() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    line = services.chat_post(seat=table.seat("Ben"), text="  hello\u200b there\x07  ")
    assert line.text == "hello there"
    stored = ChatLine.objects.get()
    assert (stored.seat_id, stored.author, stored.channel, stored.note) == (
        table.seats["Ben"].pk,
        "Ben",
        "public",
        False,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "Type a message first"), ("   \u200b ", "Type a message first"), (None, "must be text")],
)
def test_chat_refuses_empty_or_non_text(text: object, message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(ServiceError, match=message):
        services.chat_post(seat=table.seat("Ben"), text=text)
    assert not ChatLine.objects.exists()


def test_chat_length_limit() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.chat_post(seat=table.seat("Ben"), text="x" * 500)
    with pytest.raises(ServiceError, match="limited to 500"):
        services.chat_post(seat=table.seat("Ben"), text="x" * 501)
    assert ChatLine.objects.count() == 1


def test_chat_from_a_seat_no_longer_at_the_table_is_refused() -> None:
    """Checked against the stored seat, as a page's copy may be stale."""
    table = play_to("day", THREE)
    stale = table.seat("Ben")
    Seat.objects.filter(pk=stale.pk).delete()
    with pytest.raises(NotAllowedError, match="not seated"):
        services.chat_post(seat=stale, text="still here?")
    cat = table.seat("Cat")
    Table.objects.filter(pk=table.table.pk).delete()  # staff deleted the whole table
    with pytest.raises(NotAllowedError, match="This table is gone"):
        services.chat_post(seat=cat, text="anyone?")
    assert not ChatLine.objects.filter(seat__isnull=False).exists()


@pytest.mark.parametrize("phase", ["night", "voting"])
def test_chat_closed_at_night_and_during_the_vote(phase: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongStageError, match="closed during the night and the vote"):
        services.chat_post(seat=table.seat("Ben"), text="psst")
    assert not ChatLine.objects.filter(seat__isnull=False).exists()


def test_chat_open_in_the_day_and_after_the_reveal_but_not_once_cancelled() -> None:
    for phase in ("day", "reveal"):
        table = play_to(phase)
        services.chat_post(seat=table.seat("Ben"), text=f"hello in the {phase}")
    cancelled = play_to("cancelled")
    with pytest.raises(WrongStageError, match="cancelled; its chat is closed"):
        services.chat_post(seat=cancelled.seat("Ben"), text="hello?")


def test_chat_only_on_the_public_channel() -> None:
    table = play_to("day")
    with pytest.raises(WrongStageError, match="You cannot write there now"):
        services.chat_post(seat=table.seat("Ann"), text="wolves only", channel="werewolves")
    assert not ChatLine.objects.filter(seat__isnull=False).exists()


def test_chat_rate_limit_per_seat() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    now = timezone.now()
    for i in range(5):
        services.chat_post(seat=table.seat("Ben"), text=f"line {i}", now=now)
    with pytest.raises(ServiceError, match="Slow down"):
        services.chat_post(seat=table.seat("Ben"), text="one more", now=now)
    services.chat_post(seat=table.seat("Cat"), text="my turn", now=now)
    services.chat_post(seat=table.seat("Ben"), text="later", now=now + timedelta(seconds=11))
    assert ChatLine.objects.filter(seat_id=table.seats["Ben"].pk).count() == 6


def test_chat_refuses_quoting_the_moderator_in_the_day() -> None:
    table = play_to("day")
    paragraph = role_message(table.state().deal, "Ben").paragraphs[0]
    with pytest.raises(ServiceError, match="word for word"):
        services.chat_post(seat=table.seat("Ben"), text=f"Look: {paragraph.upper()}")
    services.chat_post(seat=table.seat("Ben"), text="I am the seer, honestly.")
    assert list(ChatLine.objects.filter(seat__isnull=False).values_list("text", flat=True)) == [
        "I am the seer, honestly."
    ]


# --- the app's notes ----------------------------------------------------------------------------


def test_each_phase_change_leaves_one_note() -> None:
    table = play_to("reveal")
    notes = list(
        ChatLine.objects.filter(table=table.table, note=True, seat=None)
        .order_by("id")
        .values_list("text", flat=True)
    )
    assert [n.split()[0] for n in notes] == ["The", "Dawn:", "The", "Every"]
    assert notes[0].startswith("The cards are dealt")
    assert notes[2].startswith("The day is over")
