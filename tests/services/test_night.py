"""Night services: night_action_submit, doppelganger_copy and the night's resolution."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from games import engine, services
from games.engine import Role
from games.models import CentreCard, NightAction, Phase, Seat
from games.services import NotAllowedError, ServiceError, WrongPhaseError
from tests.factories import (
    OFFICIAL_FIVE,
    THREE,
    TWELVE,
    Table,
    create_lobby,
    deal_game,
    game_state,
    play_night,
    play_to,
)

pytestmark = pytest.mark.django_db


def action_of(table: Table, name: str) -> NightAction | None:
    return NightAction.objects.filter(seat_id=table.seats[name].pk).first()


def expected_night(table: Table) -> engine.NightResult:
    """The engine's night for the stored deal and actions."""
    game = table.refresh()
    seats = list(game.seats.order_by("position"))
    deal = services.deal_of(game, seats, CentreCard.objects.filter(game=game))
    names = {s.pk: s.name for s in seats}
    actions = {names[a.seat_id]: a.targets for a in NightAction.objects.filter(game=game)}
    return engine.resolve_night(deal, actions)


def stored_final(table: Table) -> dict[str, str]:
    game = table.refresh()
    final = {s.name: s.final_role for s in game.seats.all()}
    final.update({c.position: c.final_role for c in game.centre_cards.all()})
    return final


# --- night_action_submit ------------------------------------------------------------------------


def test_an_action_is_stored_and_the_night_waits_for_the_rest() -> None:
    table = deal_game(**THREE)
    services.night_action_submit(seat=table.seat("Ben"), targets=["Cat"])
    action = action_of(table, "Ben")
    assert action is not None
    assert action.targets == ["Cat"] and action.complete and not action.by_deadline
    services.night_action_submit(seat=table.seat("Ann"), targets=[])
    assert table.phase() == Phase.NIGHT
    assert all(s.final_role == "" for s in table.game.seats.all())


def test_an_action_is_final_once_sent() -> None:
    table = deal_game(**THREE)
    services.night_action_submit(seat=table.seat("Ben"), targets=["Cat"])
    for targets in (["Ann"], [], ["left", "right"]):
        with pytest.raises(ServiceError, match="already sent your night action; it is final"):
            services.night_action_submit(seat=table.seat("Ben"), targets=targets)
    action = action_of(table, "Ben")
    assert action is not None and action.targets == ["Cat"]
    assert NightAction.objects.filter(game=table.game).count() == 1


@pytest.mark.parametrize(
    ("name", "targets", "message"),
    [
        ("Ben", ["Ben"], "^you cannot target yourself. A seer looks"),
        ("Ben", ["Zed"], "^'Zed' is not a player or a centre card"),
        ("Ben", ["left"], "^A seer looks at one other player or two centre cards"),
        ("Ben", ["Ann", "left"], "^A seer looks"),
        ("Ben", ["left", "left"], "^pick different targets"),
        ("Ben", ["left", "middle", "right"], "^A seer looks"),
        ("Cat", ["Ann", "Ben"], "^A robber swaps"),
        ("Cat", ["middle"], "^A robber swaps"),
        ("Ann", ["Ben"], "^A lone werewolf may look at one centre card"),
        ("Ann", ["left", "right"], "^A lone werewolf"),
        ("Ben", ["ann"], "^'ann' is not a player"),
        ("Ben", [""], "^'' is not a player"),
    ],
)
def test_illegal_actions_are_refused_with_the_engines_message(
    name: str, targets: list[str], message: str
) -> None:
    table = deal_game(**THREE)
    with pytest.raises(ServiceError, match=message) as caught:
        services.night_action_submit(seat=table.seat(name), targets=targets)
    # The engine prefixes the player's name; the service drops it on the player's own page.
    assert not str(caught.value).startswith(f"{name}:")
    assert not NightAction.objects.exists()


@pytest.mark.parametrize(
    "targets", ["Cat", ("Cat",), [10**12], [None], [True], ["Cat", 10**12], [-1], [1.0], None]
)
def test_targets_must_be_a_list_of_names_or_seat_ids(targets: object) -> None:
    table = deal_game(**THREE)
    with pytest.raises(ServiceError, match="Choose your targets from the list"):
        services.night_action_submit(seat=table.seat("Ben"), targets=targets)  # type: ignore[arg-type]
    assert not NightAction.objects.exists()


def test_a_target_may_be_the_seat_id_a_page_posts() -> None:
    table = deal_game(**THREE)
    services.night_action_submit(seat=table.seat("Ben"), targets=[table.seats["Cat"].pk])
    assert NightAction.objects.get().targets == ["Cat"]


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
    with pytest.raises(ServiceError, match=r"^A drunk must swap"):
        services.night_action_submit(seat=table.seat("Ann"), targets=[])
    with pytest.raises(ServiceError, match=r"^A drunk must swap"):
        services.night_action_submit(seat=table.seat("Ann"), targets=["Ben"])
    with pytest.raises(ServiceError, match=r"^You have nothing to do tonight"):
        services.night_action_submit(seat=table.seat("Ben"), targets=["Ann"])
    with pytest.raises(ServiceError, match=r"^You have nothing to do tonight"):
        services.night_action_submit(seat=table.seat("Cat"), targets=["left"])
    assert not NightAction.objects.exists()


@pytest.mark.parametrize("phase", [Phase.DAY, Phase.VOTING, Phase.REVEAL, Phase.CANCELLED])
def test_actions_only_at_night(phase: str) -> None:
    table = play_to(phase)
    actions = list(NightAction.objects.filter(game=table.game).values_list("pk", "targets"))
    with pytest.raises(WrongPhaseError):
        services.night_action_submit(seat=table.seat("Ben"), targets=["Cat"])
    assert list(NightAction.objects.values_list("pk", "targets")) == actions


def test_no_action_in_the_lobby() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(WrongPhaseError, match="has not started yet"):
        services.night_action_submit(seat=table.seat("Ben"), targets=[])
    assert not NightAction.objects.exists()


# --- resolution ---------------------------------------------------------------------------------


def test_the_last_action_resolves_the_night_once_and_stores_final_roles() -> None:
    now = timezone.now()
    table = deal_game(day_minutes=10, **THREE)
    Seat.objects.filter(game=table.game).update(ready_to_vote=True)  # reset at dawn
    with mock.patch.object(services, "_resolve_night", wraps=services._resolve_night) as spy:
        services.night_action_submit(seat=table.seat("Ann"), targets=["middle"])
        services.night_action_submit(seat=table.seat("Ben"), targets=["left", "right"])
        assert spy.call_count == 0
        services.night_action_submit(seat=table.seat("Cat"), targets=["Ann"], now=now)
        assert spy.call_count == 1
    game = table.refresh()
    assert game.phase == Phase.DAY
    assert game.day_started_at == now
    assert game.deadline == now + timedelta(minutes=10)
    assert game.copied_role == ""
    # Robber Cat took Ann's werewolf.
    assert stored_final(table) == {
        "Ann": "robber",
        "Ben": "seer",
        "Cat": "werewolf",
        "left": "troublemaker",
        "middle": "villager",
        "right": "drunk",
    }
    night = expected_night(table)
    assert stored_final(table) == {p: r.value for p, r in night.final.items()}
    assert not game.seats.filter(ready_to_vote=True).exists()
    # The night is over: nobody can act again.
    with pytest.raises(WrongPhaseError):
        services.night_action_submit(seat=table.seat("Cat"), targets=[])


def test_final_roles_for_a_full_house_table() -> None:
    table = deal_game(**TWELVE)
    actions = {
        "Ben": ["Gus"],  # seer looks at the minion
        "Cat": ["Ann"],  # robber takes the werewolf
        "Dan": ["Jon", "Kim"],  # troublemaker swaps hunter and villager
        "Eve": ["right"],  # drunk takes a villager
    }
    play_night(table, actions)
    night = expected_night(table)
    assert stored_final(table) == {p: r.value for p, r in night.final.items()}
    final = stored_final(table)
    assert final["Cat"] == "werewolf" and final["Ann"] == "robber"
    assert final["Jon"] == "villager" and final["Kim"] == "hunter"
    assert final["Eve"] == "villager" and final["right"] == "drunk"
    assert final["Fay"] == "insomniac"


# --- the Doppelganger -----------------------------------------------------------------------------


def test_doppelganger_copies_then_acts_as_the_copied_role() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    copied = services.doppelganger_copy(seat=table.seat("Ann"), target="Cat")
    assert copied is Role.ROBBER
    action = action_of(table, "Ann")
    assert action is not None and action.targets == ["Cat"] and not action.complete
    with pytest.raises(ServiceError, match="already chose whom to copy; it is final"):
        services.doppelganger_copy(seat=table.seat("Ann"), target="Ben")
    # The second step: the copied robber robs Dan's werewolf.
    with pytest.raises(ServiceError, match=r"^A robber swaps"):
        services.night_action_submit(seat=table.seat("Ann"), targets=["left"])
    action = action_of(table, "Ann")
    assert action is not None and action.targets == ["Cat"] and not action.complete
    services.night_action_submit(seat=table.seat("Ann"), targets=["Dan"])
    action = action_of(table, "Ann")
    assert action is not None and action.targets == ["Cat", "Dan"] and action.complete
    with pytest.raises(ServiceError, match="already sent"):
        services.night_action_submit(seat=table.seat("Ann"), targets=[])
    play_night(table, {"Eve": ["left"]})
    game = table.refresh()
    assert game.copied_role == "robber"
    final = stored_final(table)
    assert final["Ann"] == "werewolf" and final["Dan"] == "doppelganger"
    night = expected_night(table)
    assert final == {p: r.value for p, r in night.final.items()}


def test_doppelganger_copying_a_role_without_action_is_complete_at_once() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    assert services.doppelganger_copy(seat=table.seat("Ann"), target="Dan") is Role.WEREWOLF
    action = action_of(table, "Ann")
    assert action is not None and action.complete and action.targets == ["Dan"]
    with pytest.raises(ServiceError, match="already sent"):
        services.night_action_submit(seat=table.seat("Ann"), targets=["left"])


def test_doppelganger_may_decline_the_copied_action() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    assert services.doppelganger_copy(seat=table.seat("Ann"), target="Ben") is Role.SEER
    services.night_action_submit(seat=table.seat("Ann"), targets=[])
    action = action_of(table, "Ann")
    assert action is not None and action.complete and action.targets == ["Ben"]


def test_doppelganger_may_copy_nobody() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    services.night_action_submit(seat=table.seat("Ann"), targets=[])
    action = action_of(table, "Ann")
    assert action is not None and action.complete and action.targets == []
    with pytest.raises(ServiceError, match="already chose"):
        services.doppelganger_copy(seat=table.seat("Ann"), target="Ben")


def test_doppelganger_copy_as_the_last_action_resolves_the_night() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    for name, targets in {"Ben": [], "Cat": [], "Dan": ["left"], "Eve": ["middle"]}.items():
        services.night_action_submit(seat=table.seat(name), targets=targets)
    assert table.phase() == Phase.NIGHT
    services.doppelganger_copy(seat=table.seat("Ann"), target="Dan")
    game = table.refresh()
    assert game.phase == Phase.DAY
    assert game.copied_role == "werewolf"


def test_doppelganger_half_done_keeps_the_night_open() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    services.doppelganger_copy(seat=table.seat("Ann"), target="Ben")
    for name, targets in {"Ben": [], "Cat": [], "Dan": ["left"], "Eve": ["middle"]}.items():
        services.night_action_submit(seat=table.seat(name), targets=targets)
    assert table.phase() == Phase.NIGHT
    services.night_action_submit(seat=table.seat("Ann"), targets=["right", "middle"])
    assert table.phase() == Phase.DAY
    assert table.refresh().copied_role == "seer"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("Ann", "cannot target yourself"),
        ("left", "copies one other player's card"),
        ("Zed", "'Zed' is not a player"),
        ("", "'' is not a player"),
    ],
)
def test_doppelganger_copy_refuses_bad_targets(target: str, message: str) -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    with pytest.raises(ServiceError, match=message):
        services.doppelganger_copy(seat=table.seat("Ann"), target=target)
    assert not NightAction.objects.exists()


def test_only_the_doppelganger_copies() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    with pytest.raises(NotAllowedError, match="Only the Doppelganger"):
        services.doppelganger_copy(seat=table.seat("Ben"), target="Cat")
    assert not NightAction.objects.exists()


def test_doppelganger_copy_only_at_night() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    play_night(table, {"Eve": ["left"]})
    with pytest.raises(WrongPhaseError):
        services.doppelganger_copy(seat=table.seat("Ann"), target="Ben")


def test_doppelganger_can_copy_the_drunk_in_two_steps() -> None:
    table = deal_game("official", **OFFICIAL_FIVE)
    assert services.doppelganger_copy(seat=table.seat("Ann"), target="Eve") is Role.DRUNK
    services.night_action_submit(seat=table.seat("Ann"), targets=["left"])
    action = action_of(table, "Ann")
    assert action is not None and action.targets == ["Eve", "left"]


def test_doppelganger_must_copy_before_sending_an_action() -> None:
    """The whole action at once is refused without naming any card: its refusal would quote
    the rule of the card it names, a peek before choosing (docs/security.md)."""
    table = deal_game("official", **OFFICIAL_FIVE)
    before = game_state(table.game.pk)
    for targets in (["Eve", "left"], ["Ben", "Cat", "left"]):
        with pytest.raises(services.ServiceError) as refusal:
            services.night_action_submit(seat=table.seat("Ann"), targets=targets)
        assert str(refusal.value) == (
            "Choose whom to copy first; then send the copied role's action."
        )
    assert game_state(table.game.pk) == before
    # "Copy nobody" stays possible in one step.
    services.night_action_submit(seat=table.seat("Ann"), targets=[])
    action = action_of(table, "Ann")
    assert action is not None and action.targets == [] and action.complete
