"""Lobby services: game_create, seat_join, seat_remove, deck_update, game_start."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import engine, services
from games.engine import Role, Ruleset
from games.models import CentreCard, Game, NightAction, Phase, Seat
from games.services import NotAllowedError, ServiceError, WrongPhaseError
from tests.factories import NAMES, THREE, create_lobby, deal_game, play_to

pytestmark = pytest.mark.django_db


# --- game_create --------------------------------------------------------------------------------


def test_create_seats_the_host_in_a_new_lobby() -> None:
    host = services.game_create(host_name="Ann")
    game = host.game
    assert host.is_host and host.position == 0 and host.name == "Ann"
    assert game.phase == Phase.LOBBY
    assert game.ruleset == Ruleset.HOUSE
    assert game.day_seconds == 30 * 60
    assert game.night_seconds is None and game.vote_seconds is None
    assert game.deadline is None
    assert game.deck == []
    assert len(game.code) == 8 and set(game.code) <= set("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    assert list(game.seats.all()) == [host]


def test_create_stores_minutes_as_seconds() -> None:
    host = services.game_create(
        host_name="Ann", day_minutes=5, night_minutes=2, vote_minutes=1440, ruleset="official"
    )
    game = Game.objects.get(pk=host.game_id)
    assert (game.day_seconds, game.night_seconds, game.vote_seconds) == (300, 120, 86400)
    assert game.ruleset == "official"


@pytest.mark.parametrize(
    ("ruleset", "given", "expected"),
    [
        ("house", None, True),
        ("official", None, False),
        ("house", False, False),
        ("official", True, True),
    ],
)
def test_rules_phrase_default_depends_on_ruleset(
    ruleset: str, given: bool | None, expected: bool
) -> None:
    host = services.game_create(host_name="Ann", ruleset=ruleset, require_rules_phrase=given)
    assert host.game.require_rules_phrase is expected


@pytest.mark.parametrize("ruleset", ["", "House", "ultimate", "doppelganger"])
def test_create_refuses_an_unknown_ruleset(ruleset: str) -> None:
    with pytest.raises(ServiceError, match="house rules or the official rules"):
        services.game_create(host_name="Ann", ruleset=ruleset)
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "not empty"),
        ("   ", "not empty"),
        ("x" * 25, "longer than 24"),
        ("left", "centre card"),
        ("MIDDLE", "centre card"),
        (" Right ", "centre card"),
        ("Ann\x00", "control characters"),
        ("\u200b\u2800", "not empty"),  # nothing visible
    ],
)
def test_create_refuses_bad_host_names(name: str, message: str) -> None:
    with pytest.raises(ServiceError, match=message):
        services.game_create(host_name=name)
    assert Game.objects.count() == 0
    assert Seat.objects.count() == 0


def test_create_tidies_the_host_name() -> None:
    host = services.game_create(host_name="  Ann \t  Lee  ")
    assert host.name == "Ann Lee"
    # NFC: a decomposed é is stored composed.
    other = services.game_create(host_name="Rene\u0301")
    assert other.name == "Ren\u00e9"
    # NFKC, and invisible characters (zero-width, bidi controls) dropped.
    other = services.game_create(host_name="\u202e\uff21nn\u200b")
    assert other.name == "Ann"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("day_minutes", 0),
        ("day_minutes", -5),
        ("day_minutes", 24 * 60 + 1),
        ("day_minutes", None),
        ("day_minutes", "30"),
        ("day_minutes", 2.5),
        ("day_minutes", True),
        ("night_minutes", 0),
        ("night_minutes", 24 * 60 + 1),
        ("night_minutes", "5"),
        ("vote_minutes", 0),
        ("vote_minutes", -1),
        ("vote_minutes", False),
    ],
)
def test_create_refuses_bad_minutes(field: str, value: object) -> None:
    with pytest.raises(ServiceError, match="minutes"):
        services.game_create(host_name="Ann", **{field: value})  # type: ignore[arg-type]
    assert Game.objects.count() == 0


def test_create_accepts_the_limits_of_the_minutes() -> None:
    host = services.game_create(host_name="Ann", day_minutes=1, night_minutes=1, vote_minutes=1)
    assert host.game.day_seconds == 60
    host = services.game_create(host_name="Ann", day_minutes=1440, night_minutes=1440)
    assert host.game.day_seconds == 86400


def test_game_codes_are_unique() -> None:
    codes = {services.game_create(host_name="Ann").game.code for _ in range(30)}
    assert len(codes) == 30


# --- rules phrase -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    [
        "The Ocean Chose Me",
        "the ocean chose me",
        "THE OCEAN CHOSE ME!",
        "  The   ocean, chose me.  ",
        "theoceanchoseme",
        "“The Ocean Chose Me”",
    ],
)
def test_rules_phrase_ignores_case_spacing_and_punctuation(typed: str) -> None:
    assert services.rules_phrase_matches(typed)


@pytest.mark.parametrize("typed", ["", "The Ocean", "The Ocean Chose You", "Ocean chose me the"])
def test_rules_phrase_must_be_the_phrase(typed: str) -> None:
    assert not services.rules_phrase_matches(typed)


# --- seat_join ----------------------------------------------------------------------------------


def test_join_seats_players_in_order() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    seats = list(table.game.seats.order_by("position"))
    assert [(s.name, s.position, s.is_host) for s in seats] == [
        ("Ann", 0, True),
        ("Ben", 1, False),
        ("Cat", 2, False),
    ]
    assert len({s.token for s in seats}) == 3


def test_join_requires_the_rules_phrase_in_house_games() -> None:
    host = services.game_create(host_name="Ann")
    with pytest.raises(ServiceError, match="The Ocean Chose Me"):
        services.seat_join(game=host.game, name="Ben")
    with pytest.raises(ServiceError, match="The Ocean Chose Me"):
        services.seat_join(game=host.game, name="Ben", rules_phrase="the ocean")
    assert host.game.seats.count() == 1
    seat = services.seat_join(game=host.game, name="Ben", rules_phrase="the OCEAN chose me!!")
    assert seat.position == 1


def test_join_needs_no_phrase_when_it_is_off() -> None:
    host = services.game_create(host_name="Ann", ruleset="official")
    seat = services.seat_join(game=host.game, name="Ben")
    assert seat.name == "Ben"


@pytest.mark.parametrize(("ruleset", "limit"), [("house", 12), ("official", 13)])
def test_join_stops_at_the_rulesets_table_size(ruleset: str, limit: int) -> None:
    assert engine.max_players(Ruleset(ruleset)) == limit
    table = create_lobby(NAMES[:limit], ruleset=ruleset)
    assert table.game.seats.count() == limit
    with pytest.raises(ServiceError, match=f"The table is full: the {ruleset} rules allow {limit}"):
        services.seat_join(game=table.game, name="Zed", rules_phrase=services.RULES_PHRASE)
    assert table.game.seats.count() == limit


@pytest.mark.parametrize("name", ["Ben", "ben", "BEN", " ben ", "BeN"])
def test_join_refuses_a_name_already_taken_ignoring_case(name: str) -> None:
    table = create_lobby(["Ann", "Ben"])
    with pytest.raises(ServiceError, match="already at the table"):
        services.seat_join(game=table.game, name=name, rules_phrase=services.RULES_PHRASE)
    assert table.game.seats.count() == 2


def test_join_refuses_the_hosts_name() -> None:
    table = create_lobby(["Ann"])
    with pytest.raises(ServiceError, match="Someone called ANN is already at the table"):
        services.seat_join(game=table.game, name="ANN", rules_phrase=services.RULES_PHRASE)


@pytest.mark.parametrize("name", ["", "  ", "left", "Middle", "x" * 25, "a\nb\x07"])
def test_join_refuses_bad_names(name: str) -> None:
    table = create_lobby(["Ann"])
    with pytest.raises(ServiceError):
        services.seat_join(game=table.game, name=name, rules_phrase=services.RULES_PHRASE)
    assert table.game.seats.count() == 1


def test_join_accepts_unicode_and_markup_names_as_text() -> None:
    table = create_lobby(["Ann"])
    for name in ["Zoë", "李雷", "<b>Bo</b>", "O'Neil & Co", "🐺 Wolfie"]:
        seat = services.seat_join(game=table.game, name=name, rules_phrase=services.RULES_PHRASE)
        assert seat.name == name


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL])
def test_join_only_in_the_lobby(phase: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongPhaseError):
        services.seat_join(game=table.game, name="Zed", rules_phrase=services.RULES_PHRASE)
    assert table.game.seats.count() == 3


def test_join_refused_in_a_cancelled_lobby() -> None:
    table = create_lobby(["Ann"])
    services.game_cancel(game=table.game)
    with pytest.raises(WrongPhaseError, match="cancelled"):
        services.seat_join(game=table.game, name="Ben", rules_phrase=services.RULES_PHRASE)


def test_join_reads_the_phase_from_the_database_not_the_stale_object() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    stale = Game.objects.get(pk=table.game.pk)
    services.game_start(host=table.seat("Ann"))
    assert stale.phase == Phase.LOBBY
    with pytest.raises(WrongPhaseError):
        services.seat_join(game=stale, name="Dan", rules_phrase=services.RULES_PHRASE)


def test_join_after_a_removal_takes_the_next_position() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.seat_remove(host=table.host, seat_id=table.seats["Ben"].pk)
    seat = services.seat_join(game=table.game, name="Dan", rules_phrase=services.RULES_PHRASE)
    assert seat.position == 3
    # The removed name is free again.
    seat = services.seat_join(game=table.game, name="ben", rules_phrase=services.RULES_PHRASE)
    assert seat.position == 4


# --- seat_remove --------------------------------------------------------------------------------


def test_host_removes_a_player() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.seat_remove(host=table.host, seat_id=table.seats["Cat"].pk)
    assert list(table.game.seats.values_list("name", flat=True)) == ["Ann", "Ben"]


def test_only_the_host_removes() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(NotAllowedError, match="Only the host"):
        services.seat_remove(host=table.seats["Ben"], seat_id=table.seats["Cat"].pk)
    assert table.game.seats.count() == 3


def test_host_cannot_remove_themselves() -> None:
    table = create_lobby(["Ann", "Ben"])
    with pytest.raises(ServiceError, match="cannot remove themselves"):
        services.seat_remove(host=table.host, seat_id=table.host.pk)
    assert table.game.seats.count() == 2


def test_host_cannot_remove_a_seat_of_another_game() -> None:
    table = create_lobby(["Ann", "Ben"])
    other = create_lobby(["Xia", "Yan"])
    with pytest.raises(ServiceError, match="not at this table"):
        services.seat_remove(host=table.host, seat_id=other.seats["Yan"].pk)
    with pytest.raises(ServiceError, match="not at this table"):
        services.seat_remove(host=table.host, seat_id=999_999)
    assert other.game.seats.count() == 2


@pytest.mark.parametrize("phase", [Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL])
def test_remove_only_in_the_lobby(phase: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongPhaseError):
        services.seat_remove(host=table.seat("Ann"), seat_id=table.seats["Cat"].pk)
    assert table.game.seats.count() == 3


# --- deck_update --------------------------------------------------------------------------------


def test_host_sets_the_deck() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    deck = services.deck_update(
        host=table.host, counts={"werewolf": 2, "seer": "1", "villager": 3, "tanner": 0}
    )
    assert Counter(deck) == Counter({Role.WEREWOLF: 2, Role.SEER: 1, Role.VILLAGER: 3})
    assert Counter(table.refresh().deck) == Counter({"werewolf": 2, "seer": 1, "villager": 3})
    assert services.current_deck(table.game, 3) == deck


def test_none_goes_back_to_the_suggested_deck() -> None:
    table = create_lobby(["Ann", "Ben", "Cat", "Dan"])
    services.deck_update(host=table.host, counts={"villager": 3})
    deck = services.deck_update(host=table.host, counts=None)
    assert deck == []
    game = table.refresh()
    assert game.deck == []
    assert services.current_deck(game, 4) == engine.default_deck(Ruleset.HOUSE, 4)


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({"werewolf": 3}, "0 to 2 Werewolf"),
        ({"villager": 4}, "0 to 3 Villager"),
        ({"seer": 2}, "0 to 1 Seer"),
        ({"seer": -1}, "0 to 1 Seer"),
        ({"doppelganger": 1}, "Doppelganger is not used in the house rules"),
        ({"vampire": 1}, "'vampire' is not a role"),
        ({"Werewolf": 1}, "'Werewolf' is not a role"),
        ({"seer": "one"}, "whole number"),
        ({"seer": "1.5"}, "whole number"),
        ({"seer": None}, "whole number"),
        ({"seer": "9" * 5000}, "whole number"),
    ],
)
def test_deck_update_refuses_bad_counts(counts: dict[str, object], message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.deck_update(host=table.host, counts={"villager": 1})
    with pytest.raises(ServiceError, match=message):
        services.deck_update(host=table.host, counts=counts)
    assert table.refresh().deck == ["villager"]


def test_official_deck_allows_the_doppelganger() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"], ruleset="official")
    deck = services.deck_update(host=table.host, counts={"doppelganger": 1})
    assert deck == [Role.DOPPELGANGER]


def test_only_the_host_sets_the_deck() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(NotAllowedError):
        services.deck_update(host=table.seats["Ben"], counts={"villager": 1})
    with pytest.raises(NotAllowedError):
        services.deck_update(host=table.seats["Ben"], counts=None)
    assert table.refresh().deck == []


def test_deck_update_only_in_the_lobby() -> None:
    table = play_to(Phase.NIGHT)
    before = table.refresh().deck
    with pytest.raises(WrongPhaseError):
        services.deck_update(host=table.seat("Ann"), counts={"villager": 1})
    assert table.refresh().deck == before


# --- game_start ---------------------------------------------------------------------------------


def test_start_deals_every_card_and_begins_the_night() -> None:
    table = create_lobby(["Ann", "Ben", "Cat", "Dan"])
    deck = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "drunk"]
    services.deck_update(host=table.host, counts=Counter(deck))
    now = timezone.now()
    game = services.game_start(host=table.host, now=now)
    assert game.phase == Phase.NIGHT
    game = table.refresh()
    assert game.phase == Phase.NIGHT
    assert game.started_at == now
    assert game.deadline is None  # no night time limit
    seats = list(game.seats.order_by("position"))
    centre = {c.position: c.start_role for c in game.centre_cards.all()}
    assert set(centre) == {"left", "middle", "right"}
    dealt = [s.start_role for s in seats] + [centre[p] for p in ("left", "middle", "right")]
    assert Counter(dealt) == Counter(deck)
    # The stored deck is the deal, in deal order.
    assert game.deck == dealt
    assert all(s.final_role == "" for s in seats)
    assert sorted(game.vote_ring) == sorted(s.pk for s in seats)
    assert len(game.vote_ring) == len(set(game.vote_ring)) == 4
    assert not NightAction.objects.filter(game=game).exists()


def test_start_with_the_suggested_deck() -> None:
    table = create_lobby(NAMES[:5])
    services.game_start(host=table.host)
    game = table.refresh()
    dealt = Counter(s.start_role for s in game.seats.all())
    dealt.update(c.start_role for c in game.centre_cards.all())
    assert dealt == Counter(r.value for r in engine.default_deck(Ruleset.HOUSE, 5))


def test_the_deal_and_ring_are_shuffled() -> None:
    """Twenty deals of the same deck are not all the same (chance of failing: ~1e-50)."""
    deals = set()
    rings = set()
    for _ in range(20):
        table = create_lobby(NAMES[:6])
        services.game_start(host=table.host)
        game = table.refresh()
        deals.add(tuple(game.deck))
        positions = {s.pk: s.position for s in game.seats.all()}
        rings.add(tuple(positions[i] for i in game.vote_ring))
    assert len(deals) > 1
    assert len(rings) > 1


def test_start_sets_a_night_deadline_only_with_a_night_limit() -> None:
    now = timezone.now()
    table = deal_game(night_minutes=3, now=now, **THREE)
    assert table.game.deadline == now + timedelta(minutes=3)
    table = deal_game(now=now, **THREE)
    assert table.game.deadline is None


def test_only_the_host_starts() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(NotAllowedError):
        services.game_start(host=table.seats["Ben"])
    assert table.refresh().phase == Phase.LOBBY
    assert not CentreCard.objects.exists()


@pytest.mark.parametrize("names", [["Ann"], ["Ann", "Ben"]])
def test_start_needs_three_players(names: list[str]) -> None:
    table = create_lobby(names)
    with pytest.raises(ServiceError, match="needs 3 to 13 players"):
        services.game_start(host=table.host)
    assert table.refresh().phase == Phase.LOBBY
    assert not CentreCard.objects.exists()
    assert all(s.start_role == "" for s in table.game.seats.all())


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({"werewolf": 2, "villager": 3}, "3 players need 6 cards .* but 5 were chosen"),
        ({"werewolf": 2, "villager": 3, "seer": 1, "robber": 1}, "but 7 were chosen"),
    ],
)
def test_start_needs_players_plus_three_cards(counts: dict[str, int], message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.deck_update(host=table.host, counts=counts)
    with pytest.raises(ServiceError, match=message):
        services.game_start(host=table.host)
    game = table.refresh()
    assert game.phase == Phase.LOBBY
    assert game.started_at is None and game.vote_ring == []
    assert not CentreCard.objects.exists()


def test_start_official_needs_both_masons() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"], ruleset="official")
    services.deck_update(host=table.host, counts={"mason": 1, "werewolf": 2, "villager": 3})
    with pytest.raises(ServiceError, match="both Mason cards or neither"):
        services.game_start(host=table.host)
    assert table.refresh().phase == Phase.LOBBY


def test_start_is_refused_once_started() -> None:
    table = play_to(Phase.NIGHT)
    deck = table.refresh().deck
    with pytest.raises(WrongPhaseError, match="night"):
        services.game_start(host=table.seat("Ann"))
    assert table.refresh().deck == deck
    assert CentreCard.objects.filter(game=table.game).count() == 3


def test_a_custom_deck_no_longer_fits_after_a_player_leaves() -> None:
    table = create_lobby(["Ann", "Ben", "Cat", "Dan"])
    services.deck_update(
        host=table.host, counts={"werewolf": 2, "seer": 1, "robber": 1, "villager": 3}
    )
    services.seat_remove(host=table.host, seat_id=table.seats["Dan"].pk)
    with pytest.raises(ServiceError, match="3 players need 6 cards"):
        services.game_start(host=table.host)


# --- game creation cap --------------------------------------------------------------------------


def test_one_client_creates_a_limited_number_of_games_per_minute(settings: Any) -> None:
    settings.GAMES_PER_MINUTE = 2
    for _ in range(2):
        services.game_create(host_name="Ann", creator_key="k1")
    with pytest.raises(ServiceError, match="You have created 2 games in the last minute"):
        services.game_create(host_name="Ann", creator_key="k1")
    assert Game.objects.count() == 2
    # Other clients, and callers with no key (tests, scripts), are not limited by it.
    services.game_create(host_name="Ann", creator_key="k2")
    services.game_create(host_name="Ann")
    # A minute later the client may create again.
    later = timezone.now() + timedelta(minutes=1, seconds=1)
    services.game_create(host_name="Ann", creator_key="k1", now=later)
    assert Game.objects.count() == 5


def test_a_refused_create_does_not_count_towards_the_cap(settings: Any) -> None:
    settings.GAMES_PER_MINUTE = 1
    with pytest.raises(ServiceError):
        services.game_create(host_name="left", creator_key="k1")
    services.game_create(host_name="Ann", creator_key="k1")
