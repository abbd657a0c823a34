"""The day and the vote, through seat_move: "ready", the host's end of the day, secret and
final votes, and the reveal as the engine decides it (hunter, tanner)."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.families.onenight import engine, play
from games.tables.models import ChatLine, Stage, Table
from games.tables.services import NotAllowedError, ServiceError, WrongStageError
from tests.factories import (
    TWELVE,
    TestTable,
    cast_votes,
    create_lobby,
    move,
    play_to,
    table_state,
    vote,
)

pytestmark = pytest.mark.django_db


def engine_result(table: TestTable, votes: dict[str, str | None]) -> engine.GameResult:
    state = table.state()
    actions = {name: list(a["targets"]) for name, a in state.actions.items()}
    return engine.play_game(state.deal, actions, votes)


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


def ready(table: TestTable, name: str, value: str = "yes", **kwargs: object) -> Table:
    return move(table.seat(name), "ready", ready=value, **kwargs)  # type: ignore[arg-type]


def ready_names(table: TestTable) -> set[str]:
    state = table.state()
    return {n for i, n in state.players if i in state.ready}


def votes_by_name(table: TestTable) -> dict[str, str | None]:
    state = table.state()
    names = dict(state.players)
    return {
        names[int(voter)]: names[target] if target is not None else None
        for voter, target in state.votes.items()
    }


# --- the host ends the day ----------------------------------------------------------------------


def test_host_ends_the_day_and_voting_begins() -> None:
    table = play_to("day")
    move(table.seat("Ann"), "end_day")
    stored = table.refresh()
    assert (stored.phase, stored.phase_label) == ("voting", "Voting")
    assert stored.deadline is None  # no vote time limit
    notes = ChatLine.objects.filter(table=stored, note=True, text__startswith="The day is over")
    assert notes.count() == 1


def test_ending_the_day_sets_the_vote_deadline() -> None:
    table = play_to("day", vote_minutes=2)
    now = timezone.now()
    move(table.seat("Ann"), "end_day", now=now)
    assert table.refresh().deadline == now + timedelta(minutes=2)


def test_only_the_host_ends_the_day() -> None:
    table = play_to("day")
    before = table_state(table.table.pk)
    with pytest.raises(NotAllowedError, match="Only the host"):
        move(table.seat("Ben"), "end_day")
    assert table_state(table.table.pk) == before


@pytest.mark.parametrize(
    ("phase", "message"),
    [
        ("night", "It is night"),
        ("voting", "Voting is under way"),
        ("reveal", "This game is over"),
        ("cancelled", "This game was cancelled"),
    ],
)
def test_end_day_only_in_the_day(phase: str, message: str) -> None:
    table = play_to(phase)
    before = table_state(table.table.pk)
    with pytest.raises(WrongStageError, match=message):
        move(table.seat("Ann"), "end_day")
    assert table_state(table.table.pk) == before


# --- ready to vote ------------------------------------------------------------------------------


def test_ready_marks_and_unmarks() -> None:
    table = play_to("day")
    ready(table, "Ben")
    assert ready_names(table) == {"Ben"}
    ready(table, "Ben", "no")
    assert ready_names(table) == set()
    assert table.phase() == "day"


def test_when_everyone_is_ready_the_day_ends() -> None:
    table = play_to("day", vote_minutes=1)
    now = timezone.now()
    ready(table, "Ann")
    ready(table, "Ben")
    version = table.refresh().version
    # Said twice (another tab, the chat): refused in words, and nothing changes.
    with pytest.raises(ServiceError, match="You are already ready to vote"):
        ready(table, "Ben")
    with pytest.raises(ServiceError, match="nothing to take back"):
        ready(table, "Cat", "no")
    assert table.refresh().version == version
    assert table.phase() == "day"
    assert table.state().ready.count(table.seats["Ben"].pk) == 1
    ready(table, "Cat", now=now)
    stored = table.refresh()
    assert stored.phase == "voting"
    assert stored.deadline == now + timedelta(minutes=1)


def test_unready_players_keep_the_day_going() -> None:
    table = play_to("day")
    for name in ("Ann", "Ben"):
        ready(table, name)
    ready(table, "Ann", "no")
    ready(table, "Cat")
    assert table.phase() == "day"
    assert ready_names(table) == {"Ben", "Cat"}


@pytest.mark.parametrize("phase", ["night", "voting"])
def test_ready_only_in_the_day(phase: str) -> None:
    table = play_to(phase)
    before = table_state(table.table.pk)
    with pytest.raises(WrongStageError, match="that can't be done now"):
        ready(table, "Ben")
    assert table_state(table.table.pk) == before


def test_ready_not_in_the_lobby_nor_after_the_end() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(WrongStageError, match="not started"):
        ready(table, "Ben")
    done = play_to("reveal")
    with pytest.raises(WrongStageError, match="This game is over"):
        ready(done, "Ben")


# --- votes --------------------------------------------------------------------------------------


def test_a_vote_is_stored_and_final() -> None:
    table = play_to("voting")
    vote(table, "Ann", "Ben")
    assert votes_by_name(table) == {"Ann": "Ben"}
    before = table_state(table.table.pk)
    with pytest.raises(ServiceError, match="already voted; votes are final"):
        vote(table, "Ann", "Cat")
    assert table_state(table.table.pk) == before
    assert table.phase() == "voting"


def test_no_vote_for_yourself() -> None:
    table = play_to("voting")
    with pytest.raises(ServiceError, match="You cannot vote for yourself"):
        vote(table, "Ann", "Ann")
    assert table.state().votes == {}


def test_no_vote_for_a_stranger() -> None:
    table = play_to("voting")
    other = play_to("voting")
    before = table_state(table.table.pk)
    targets: list[object] = [other.seats["Ben"].pk, 10**12, 2**63, 2**80, 0, -5, "", "abc", "1.5"]
    for target in targets:
        with pytest.raises(ServiceError, match="Vote for one of the players at this table"):
            move(table.seat("Ann"), "vote", target=target)
    with pytest.raises(ServiceError, match="Vote for one of the players at this table"):
        move(table.seat("Ann"), "vote")
    assert table_state(table.table.pk) == before


def test_the_ring_shortcuts_give_everyone_one_vote_and_nobody_dies() -> None:
    """The ring is the table's random circle (rules/000 s6a): everyone voting "up" (or
    everyone "down") gives each player exactly one vote."""
    for direction in (-1, 1):
        table = play_to("voting", TWELVE)
        state = table.state()
        names = dict(state.players)
        ring = state.ring
        assert sorted(ring) == sorted(names)
        for index, voter in enumerate(ring):
            target = ring[(index + direction) % len(ring)]
            move(table.seat(names[voter]), "vote", target=target)
        result = table.state().result
        assert result is not None
        assert set(result["counts"].values()) == {1}
        assert result["dead"] == []


def test_votes_are_secret_until_the_reveal() -> None:
    """Nothing public tells who voted for whom: only the count of votes cast."""
    table = play_to("voting")
    vote(table, "Ann", "Ben")
    stored = table.refresh()
    public = " ".join(ChatLine.objects.filter(table=stored).values_list("text", flat=True))
    assert "Ben" not in public and "Ann" not in public
    assert stored.phase_label == "Voting"


@pytest.mark.parametrize(
    ("phase", "message"),
    [
        ("night", "It is night"),
        ("day", "It is the day"),
        ("reveal", "This game is over"),
        ("cancelled", "This game was cancelled"),
    ],
)
def test_votes_only_while_voting(phase: str, message: str) -> None:
    table = play_to(phase)
    before = table_state(table.table.pk)
    with pytest.raises(WrongStageError, match=message):
        vote(table, "Ann", "Ben")
    assert table_state(table.table.pk) == before


def test_the_last_vote_brings_the_reveal_once() -> None:
    table = play_to("voting")
    with mock.patch.object(play, "_reveal", wraps=play._reveal) as spy:
        vote(table, "Ann", "Cat")
        vote(table, "Ben", "Cat")
        assert spy.call_count == 0 and table.phase() == "voting"
        vote(table, "Cat", "Ann")
        assert spy.call_count == 1
    stored = table.refresh()
    assert (stored.stage, stored.phase, stored.phase_label) == (Stage.OVER, "reveal", "Reveal")
    assert stored.finished_at is not None
    assert stored.deadline is None
    expected = engine_result(table, {"Ann": "Cat", "Ben": "Cat", "Cat": "Ann"})
    result = table.state().result
    assert result == result_json(expected)
    # Nobody acted at night, so Ann is still the werewolf; Cat (robber) dies and the wolf wins.
    assert result is not None
    assert result["dead"] == ["Cat"]
    assert result["teams"] == ["werewolf"] and result["winners"] == ["Ann"]
    assert result["counts"] == {"Cat": 2, "Ann": 1}
    notes = ChatLine.objects.filter(table=stored, note=True, text__startswith="Every vote is in")
    assert notes.count() == 1


def test_the_reveal_matches_the_engine_for_a_full_table_with_a_hunter_and_a_tanner() -> None:
    table = play_to(
        "voting",
        TWELVE,
        actions={"Cat": ["Ann"], "Dan": ["Jon", "Kim"], "Eve": ["middle"]},
    )
    # Everyone votes for Kim (the hunter at dawn), who votes for Lou (the Tanner).
    votes: dict[str, str | None] = {n: "Kim" for n in table.names if n != "Kim"}
    votes["Kim"] = "Lou"
    cast_votes(table, {k: v for k, v in votes.items() if v is not None})
    assert table.phase() == "reveal"
    result = table.state().result
    assert result == result_json(engine_result(table, votes))
    assert result is not None
    assert result["lynched"] == ["Kim"]
    assert result["hunted"] == ["Lou"]
    assert "tanner" in result["teams"]


def test_a_lynched_tanner_wins_alone() -> None:
    cards = {
        "Ann": "werewolf",
        "Ben": "tanner",
        "Cat": "villager",
        "left": "seer",
        "middle": "villager",
        "right": "robber",
    }
    table = play_to("voting", cards)
    cast_votes(table, {"Ann": "Ben", "Ben": "Cat", "Cat": "Ben"})
    result = table.state().result
    assert result is not None
    assert result["dead"] == ["Ben"]
    assert result["winners"] == ["Ben"] and result["teams"] == ["tanner"]
    assert result == result_json(engine_result(table, {"Ann": "Ben", "Ben": "Cat", "Cat": "Ben"}))


def test_votes_in_other_tables_do_not_count_towards_the_reveal() -> None:
    table = play_to("voting")
    other = play_to("voting")
    cast_votes(other, {"Ann": "Ben", "Ben": "Cat"})
    cast_votes(table, {"Ann": "Ben", "Ben": "Cat"})
    assert table.phase() == "voting"
    assert other.phase() == "voting"
    assert Table.objects.filter(phase="reveal").count() == 0
