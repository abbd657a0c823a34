"""The night, through seat_move: every role's action, the Doppelganger's copy and then its
action, the refusals and their messages, and the night's resolution."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games.families.onenight import engine, play
from games.families.onenight.engine import Role
from games.families.onenight.engine.messages import night_report
from games.tables.models import ChatLine, Move
from games.tables.services import NotAllowedError, ServiceError, WrongStageError
from tests.factories import (
    OFFICIAL_FIVE,
    THREE,
    TWELVE,
    TestTable,
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


def action_of(table: TestTable, name: str) -> dict[str, object] | None:
    action = table.state().actions.get(name)
    return dict(action) if action is not None else None


def final(table: TestTable) -> dict[str, str]:
    """Every card's place after the night, as the engine resolves the stored actions."""
    return {p: r.value for p, r in table.state().night().final.items()}


def copy(table: TestTable, name: str, target: str) -> None:
    move(table.seat(name), "copy", targets=form_targets(table, target))


def dawn_notes(table: TestTable) -> int:
    return ChatLine.objects.filter(table=table.table, note=True, text__startswith="Dawn").count()


# --- night actions ------------------------------------------------------------------------------


def test_an_action_is_stored_and_the_night_waits_for_the_rest() -> None:
    table = deal_game(**THREE)
    night_action(table, "Ben", ["Cat"])
    assert action_of(table, "Ben") == {"targets": ["Cat"], "complete": True}
    night_action(table, "Ann", [])
    assert action_of(table, "Ann") == {"targets": [], "complete": True}
    assert table.phase() == "night"
    assert table.refresh().deadline is None
    assert [m.kind for m in Move.objects.filter(table=table.table)] == ["start", "action", "action"]


def test_an_action_is_final_once_sent() -> None:
    table = deal_game(**THREE)
    night_action(table, "Ben", ["Cat"])
    before = table_state(table.table.pk)
    for targets in (["Ann"], [], ["left", "right"]):
        with pytest.raises(ServiceError, match="already sent your night action; it is final"):
            night_action(table, "Ben", targets)
    assert action_of(table, "Ben") == {"targets": ["Cat"], "complete": True}
    assert table_state(table.table.pk) == before


@pytest.mark.parametrize(
    ("name", "targets", "message"),
    [
        ("Ben", ["Ben"], "^You cannot target yourself. A seer looks"),
        ("Ben", ["left"], "^A seer looks at one other player or two centre cards"),
        ("Ben", ["Ann", "left"], "^A seer looks"),
        ("Ben", ["left", "left"], "^Pick different targets"),
        ("Ben", ["left", "middle", "right"], "^A seer looks"),
        ("Cat", ["Ann", "Ben"], "^A robber swaps"),
        ("Cat", ["middle"], "^A robber swaps"),
        ("Ann", ["Ben"], "^A lone werewolf may look at one centre card"),
        ("Ann", ["left", "right"], "^A lone werewolf"),
    ],
)
def test_illegal_actions_are_refused_with_the_engines_message(
    name: str, targets: list[str], message: str
) -> None:
    table = deal_game(**THREE)
    before = table_state(table.table.pk)
    with pytest.raises(ServiceError, match=message) as caught:
        night_action(table, name, targets)
    assert caught.value.status == 400
    # The engine prefixes the player's name; the family drops it on the player's own page.
    assert not str(caught.value).startswith(f"{name}:")
    assert table_state(table.table.pk) == before


@pytest.mark.parametrize(
    "posted",
    [
        ["Cat"],  # a name is never read as a target
        ["ann"],
        ["Zed"],
        ["9" * 50],
        ["999999"],
        ["-1"],
        ["1.0"],
        [","],
        ["left,Cat"],
        ["<script>"],
        ["x" * 50_000],
    ],
)
def test_targets_are_seat_ids_or_centre_positions(posted: list[str]) -> None:
    table = deal_game(**THREE)
    before = table_state(table.table.pk)
    with pytest.raises(ServiceError, match="Choose your targets from the list on the page"):
        move(table.seat("Ben"), "action", targets=posted)
    assert table_state(table.table.pk) == before


def test_a_seat_id_of_another_table_is_not_a_target() -> None:
    table = deal_game(**THREE)
    other = create_lobby(["Dan", "Eve", "Fay"])
    with pytest.raises(ServiceError, match="Choose your targets from the list on the page"):
        move(table.seat("Ben"), "action", targets=form_targets(other, "Dan"))
    assert action_of(table, "Ben") is None


def test_a_target_is_the_seat_id_a_page_posts() -> None:
    table = deal_game(**THREE)
    move(table.seat("Ben"), "action", targets=[table.seats["Cat"].pk])
    assert action_of(table, "Ben") == {"targets": ["Cat"], "complete": True}
    move(table.seat("Ann"), "action", targets=["middle"])
    move(table.seat("Cat"), "action", targets=[table.seats["Ann"].pk])
    assert table.phase() == "day"


@pytest.mark.parametrize("fields", [{}, {"targets": ""}, {"targets": ["", ""]}])
def test_a_form_sent_with_nothing_picked_is_not_no_action(fields: dict[str, object]) -> None:
    """A "no action" is its own button: an action form sent empty is refused, not taken as
    a final "no action"."""
    table = deal_game(**THREE)
    before = table_state(table.table.pk)
    with pytest.raises(ServiceError, match="Pick your target, or choose “no action”"):
        move(table.seat("Ben"), "action", **fields)
    assert table_state(table.table.pk) == before


def test_an_empty_form_from_the_drunk_does_not_offer_a_no_action_he_does_not_have() -> None:
    """The Drunk must act (rules/000 s4): his page has no "no action" button, and the message
    for a form sent empty says to pick, not to choose what is not there (issue 30)."""
    table = deal_game(Ann="drunk", Ben="seer", Cat="robber", left="werewolf", middle="villager",
                      right="troublemaker")  # fmt: skip
    with pytest.raises(ServiceError, match="Pick your target first: your role must act tonight"):
        move(table.seat("Ann"), "action")


def test_the_drunk_must_act_and_roles_without_action_take_no_targets() -> None:
    cards = {
        "Ann": "drunk",
        "Ben": "villager",
        "Cat": "insomniac",
        "left": "werewolf",
        "middle": "seer",
        "right": "robber",
    }
    table = deal_game(**cards)
    before = table_state(table.table.pk)
    with pytest.raises(ServiceError, match=r"^A drunk must swap"):
        night_action(table, "Ann", [])
    with pytest.raises(ServiceError, match=r"^A drunk must swap"):
        night_action(table, "Ann", ["Ben"])
    with pytest.raises(ServiceError, match=r"^You have nothing to do tonight"):
        night_action(table, "Ben", ["Ann"])
    with pytest.raises(ServiceError, match=r"^You have nothing to do tonight"):
        night_action(table, "Cat", ["left"])
    assert table_state(table.table.pk) == before
    night_action(table, "Ann", ["middle"])
    night_action(table, "Ben", [])
    night_action(table, "Cat", [])
    assert final(table)["Ann"] == "seer" and final(table)["middle"] == "drunk"
    # The insomniac wakes last and sees their own card.
    cat = night_report(table.state().night(), "Cat")
    assert any("Insomniac" in line for line in cat), cat


@pytest.mark.parametrize("phase", ["day", "voting"])
def test_actions_only_at_night(phase: str) -> None:
    table = play_to(phase)
    before = table_state(table.table.pk)
    with pytest.raises(WrongStageError, match="that can't be done now"):
        night_action(table, "Ben", ["Cat"])
    assert table_state(table.table.pk) == before


@pytest.mark.parametrize(
    ("phase", "message"),
    [("reveal", "This game is over"), ("cancelled", "This game was cancelled")],
)
def test_no_action_once_the_game_ended(phase: str, message: str) -> None:
    table = play_to(phase)
    before = table_state(table.table.pk)
    with pytest.raises(WrongStageError, match=message):
        night_action(table, "Ben", [])
    assert table_state(table.table.pk) == before


def test_no_action_in_the_lobby() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(WrongStageError, match="has not started yet"):
        night_action(table, "Ben", [])
    assert table.refresh().state is None


def test_an_unknown_move_is_refused() -> None:
    table = deal_game(**THREE)
    before = table_state(table.table.pk)
    with pytest.raises(WrongStageError, match="can't be done in this game"):
        move(table.seat("Ben"), "kill", target=table.seats["Ann"].pk)
    assert table_state(table.table.pk) == before


# --- resolution ---------------------------------------------------------------------------------


def test_the_last_action_resolves_the_night_once() -> None:
    now = timezone.now()
    table = deal_game(day_minutes=10, **THREE)
    with mock.patch.object(play, "_dawn", wraps=play._dawn) as spy:
        night_action(table, "Ann", ["middle"])
        night_action(table, "Ben", ["left", "right"])
        assert spy.call_count == 0
        night_action(table, "Cat", ["Ann"], now=now)
        assert spy.call_count == 1
    stored = table.refresh()
    assert (stored.phase, stored.phase_label) == ("day", "Day")
    assert stored.deadline == now + timedelta(minutes=10)
    assert table.state().ready == []
    assert table.state().night().copied is None
    # Robber Cat took Ann's werewolf.
    assert final(table) == {
        "Ann": "robber",
        "Ben": "seer",
        "Cat": "werewolf",
        "left": "troublemaker",
        "middle": "villager",
        "right": "drunk",
    }
    assert dawn_notes(table) == 1
    # The night is over: nobody can act again.
    with pytest.raises(WrongStageError, match="It is the day"):
        night_action(table, "Cat", [])


def test_final_roles_for_a_full_house_table() -> None:
    table = deal_game(**TWELVE)
    actions = {
        "Ben": ["Gus"],  # seer looks at the minion
        "Cat": ["Ann"],  # robber takes the werewolf
        "Dan": ["Jon", "Kim"],  # troublemaker swaps hunter and villager
        "Eve": ["right"],  # drunk takes a villager
    }
    play_night(table, actions)
    state = table.state()
    expected = engine.resolve_night(state.deal, {**{n: [] for n in table.names}, **actions})
    assert final(table) == {p: r.value for p, r in expected.final.items()}
    cards = final(table)
    assert cards["Cat"] == "werewolf" and cards["Ann"] == "robber"
    assert cards["Jon"] == "villager" and cards["Kim"] == "hunter"
    assert cards["Eve"] == "villager" and cards["right"] == "drunk"
    assert cards["Fay"] == "insomniac"


# --- the Doppelganger -----------------------------------------------------------------------------


def test_doppelganger_copies_then_acts_as_the_copied_role() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    copy(table, "Ann", "Cat")
    assert action_of(table, "Ann") == {"targets": ["Cat"], "complete": False}
    with pytest.raises(ServiceError, match="already chose whom to copy; it is final"):
        copy(table, "Ann", "Ben")
    # The second step: the copied robber robs Dan's werewolf.
    with pytest.raises(ServiceError, match=r"^A robber swaps"):
        night_action(table, "Ann", ["left"])
    assert action_of(table, "Ann") == {"targets": ["Cat"], "complete": False}
    night_action(table, "Ann", ["Dan"])
    assert action_of(table, "Ann") == {"targets": ["Cat", "Dan"], "complete": True}
    with pytest.raises(ServiceError, match="already sent"):
        night_action(table, "Ann", [])
    play_night(table, {"Eve": ["left"]})
    assert table.state().night().copied is Role.ROBBER
    cards = final(table)
    assert cards["Ann"] == "werewolf" and cards["Dan"] == "doppelganger"


def test_doppelganger_copying_a_role_without_action_is_complete_at_once() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    copy(table, "Ann", "Dan")
    assert action_of(table, "Ann") == {"targets": ["Dan"], "complete": True}
    with pytest.raises(ServiceError, match="already sent"):
        night_action(table, "Ann", ["left"])


def test_doppelganger_may_decline_the_copied_action() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    copy(table, "Ann", "Ben")
    night_action(table, "Ann", [])
    assert action_of(table, "Ann") == {"targets": ["Ben"], "complete": True}


def test_doppelganger_may_copy_nobody() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    night_action(table, "Ann", [])
    assert action_of(table, "Ann") == {"targets": [], "complete": True}
    with pytest.raises(ServiceError, match="already chose"):
        copy(table, "Ann", "Ben")


def test_doppelganger_copy_as_the_last_action_resolves_the_night() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    for name, targets in {"Ben": [], "Cat": [], "Dan": ["left"], "Eve": ["middle"]}.items():
        night_action(table, name, targets)
    assert table.phase() == "night"
    copy(table, "Ann", "Dan")
    assert table.phase() == "day"
    assert table.state().night().copied is Role.WEREWOLF


def test_doppelganger_half_done_keeps_the_night_open() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    copy(table, "Ann", "Ben")
    for name, targets in {"Ben": [], "Cat": [], "Dan": ["left"], "Eve": ["middle"]}.items():
        night_action(table, name, targets)
    assert table.phase() == "night"
    night_action(table, "Ann", ["right", "middle"])
    assert table.phase() == "day"
    assert table.state().night().copied is Role.SEER


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        (["Ann"], "cannot target yourself"),
        (["left"], "copies one other player's card"),
        (["Ben", "Cat"], "Choose the one player whose card you copy"),
        (["999999"], "Choose your targets from the list on the page"),
        (["Zed"], "Choose your targets from the list on the page"),
        ([], "Choose the one player whose card you copy"),
    ],
)
def test_doppelganger_copy_refuses_bad_targets(targets: list[str], message: str) -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    before = table_state(table.table.pk)
    posted = [str(table.seats[t].pk) if t in table.seats else t for t in targets]
    with pytest.raises(ServiceError, match=message):
        move(table.seat("Ann"), "copy", targets=posted)
    assert table_state(table.table.pk) == before


def test_only_the_doppelganger_copies() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    before = table_state(table.table.pk)
    with pytest.raises(NotAllowedError, match="Only the Doppelganger"):
        copy(table, "Ben", "Cat")
    assert table_state(table.table.pk) == before


def test_doppelganger_copy_only_at_night() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    play_night(table, {"Eve": ["left"]})
    with pytest.raises(WrongStageError, match="It is the day"):
        copy(table, "Ann", "Ben")


def test_doppelganger_can_copy_the_drunk_in_two_steps() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    copy(table, "Ann", "Eve")
    with pytest.raises(ServiceError, match=r"^A drunk must swap"):
        night_action(table, "Ann", [])
    night_action(table, "Ann", ["left"])
    assert action_of(table, "Ann") == {"targets": ["Eve", "left"], "complete": True}


def test_doppelganger_must_copy_before_sending_an_action() -> None:
    """The whole action at once is refused without naming any card: its refusal would quote
    the rule of the card it names, a peek before choosing (docs/security.md)."""
    table = deal_game("official", **OFFICIAL_FIVE)
    before = table_state(table.table.pk)
    for targets in (["Eve", "left"], ["Ben", "Cat", "left"], ["Dan"]):
        with pytest.raises(ServiceError) as refusal:
            night_action(table, "Ann", targets)
        assert str(refusal.value) == (
            "Choose whom to copy first; then send the copied role's action."
        )
    assert table_state(table.table.pk) == before
    # "Copy nobody" stays possible in one step.
    night_action(table, "Ann", [])
    assert action_of(table, "Ann") == {"targets": [], "complete": True}


def test_every_action_is_recorded_as_a_move_of_its_seat() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    copy(table, "Ann", "Cat")
    night_action(table, "Ann", ["Dan"])
    moves = list(
        Move.objects.filter(table=table.table, seat__name="Ann")
        .exclude(kind="start")
        .order_by("id")
    )
    assert [(m.kind, m.fields) for m in moves] == [
        ("copy", {"targets": [str(table.seats["Cat"].pk)]}),
        ("action", {"targets": [str(table.seats["Dan"].pk)]}),
    ]
    assert moves[0].version < moves[1].version == table.refresh().version


def test_the_players_page_reads_the_engines_night_result() -> None:
    table = play_to("day", actions={"Cat": ["Ann"]})
    report = night_report(table.state().night(), "Cat")
    assert "You swapped cards with Ann. You are now the Werewolf." in report
