"""Lobby services: table_create, seat_join, seat_remove, table_lock_set, options_set (the deck,
the time limits, the rules phrase) and table_start, with the One Night family."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.families.onenight import engine
from games.families.onenight.engine import Role, Ruleset
from games.families.onenight.options import RULES_PHRASE
from games.tables import services
from games.tables.models import CODE_ALPHABET, Move, Seat, Stage, Table
from games.tables.services import NotAllowedError, ServiceError, WrongStageError
from tests.factories import NAMES, THREE, TestTable, create_lobby, deal_game, play_to, table_state

pytestmark = pytest.mark.django_db


def create(host_name: str = "Ann", ruleset: str = "house", **kwargs: Any) -> Seat:
    return services.table_create(family="onenight", ruleset=ruleset, host_name=host_name, **kwargs)


def join(table: TestTable | Table, name: str, phrase: str = RULES_PHRASE) -> Seat:
    target = table.table if isinstance(table, TestTable) else table
    return services.seat_join(table=target, name=name, phrase=phrase)


def options(table: TestTable) -> dict[str, Any]:
    return table.refresh().options


def set_options(table: TestTable, seat: Seat | None = None, **fields: str | list[str]) -> None:
    posted = {k: v if isinstance(v, list) else [v] for k, v in fields.items()}
    services.options_set(host=seat or table.host, fields=posted)


def seat_count(table: TestTable) -> int:
    return Seat.objects.filter(table=table.table).count()


# --- table_create -------------------------------------------------------------------------------


def test_create_seats_the_host_in_a_new_lobby() -> None:
    host = create()
    table = Table.objects.get(pk=host.table_id)
    assert host.is_host and host.position == 0 and host.name == "Ann"
    assert (table.family, table.ruleset) == ("onenight", "house")
    assert table.stage == Stage.LOBBY and table.phase == "lobby"
    assert table.options == {
        "deck": [],
        "day_minutes": 30,
        "night_minutes": 5,
        "vote_minutes": 5,
        "rules_phrase": True,
    }
    assert table.deadline is None and table.state is None
    assert len(table.code) == 8 and set(table.code) <= set(CODE_ALPHABET)
    assert list(table.seats.all()) == [host]


def test_options_store_the_minutes() -> None:
    table = create_lobby(["Ann"], ruleset="official")
    set_options(table, day_minutes="5", night_minutes="2", vote_minutes="1440")
    stored = options(table)
    assert (stored["day_minutes"], stored["night_minutes"], stored["vote_minutes"]) == (5, 2, 1440)
    assert table.refresh().ruleset == "official"
    # Empty optional limits mean no limit.
    set_options(table, night_minutes="", vote_minutes="")
    stored = options(table)
    assert (stored["night_minutes"], stored["vote_minutes"]) == (None, None)
    assert stored["day_minutes"] == 5  # fields not posted keep their value


@pytest.mark.parametrize(
    ("ruleset", "given", "expected"),
    [
        ("house", None, True),
        ("official", None, False),
        ("house", "no", False),
        ("official", "yes", True),
    ],
)
def test_rules_phrase_default_depends_on_ruleset(
    ruleset: str, given: str | None, expected: bool
) -> None:
    host = create(ruleset=ruleset)
    if given is not None:
        services.options_set(host=host, fields={"rules_phrase": [given]})
    assert Table.objects.get(pk=host.table_id).options["rules_phrase"] is expected


@pytest.mark.parametrize("ruleset", ["", "House", "ultimate", "doppelganger"])
def test_create_refuses_an_unknown_ruleset(ruleset: str) -> None:
    with pytest.raises(ServiceError, match="Choose one of the rules on the page"):
        create(ruleset=ruleset)
    assert Table.objects.count() == 0


@pytest.mark.parametrize("family", ["", "OneNight", "poker"])
def test_create_refuses_an_unknown_game(family: str) -> None:
    with pytest.raises(ServiceError, match="Choose one of the games on the page"):
        services.table_create(family=family, ruleset="house", host_name="Ann")
    assert Table.objects.count() == 0


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "not empty"),
        ("   ", "not empty"),
        ("x" * 25, "at most 24 characters"),
        ("left", "has a meaning in this game"),
        ("MIDDLE", "has a meaning in this game"),
        (" Right ", "has a meaning in this game"),
        ("Ann\x00", "control characters"),
        ("\u200b\u2800", "not empty"),  # nothing visible
        ("Moderator", "the name of the app's own notes"),
        ("Ann, Ben", "comma"),
    ],
)
def test_create_refuses_bad_host_names(name: str, message: str) -> None:
    with pytest.raises(ServiceError, match=message):
        create(host_name=name)
    assert Table.objects.count() == 0
    assert Seat.objects.count() == 0


def test_create_tidies_the_host_name() -> None:
    assert create(host_name="  Ann \t  Lee  ").name == "Ann Lee"
    # A decomposed é is stored composed.
    assert create(host_name="Rene\u0301").name == "Ren\u00e9"
    # NFKC, and invisible characters (zero-width, bidi controls) dropped.
    assert create(host_name="\u202e\uff21nn\u200b").name == "Ann"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("day_minutes", "0", "from 1 to 1440"),
        ("day_minutes", "-5", "from 1 to 1440"),
        ("day_minutes", "1441", "from 1 to 1440"),
        ("day_minutes", "", "Please give the day length in minutes"),
        ("day_minutes", "abc", "whole number of minutes"),
        ("day_minutes", "2.5", "whole number of minutes"),
        ("day_minutes", "9" * 5000, "whole number of minutes"),
        ("night_minutes", "0", "night time limit must be a whole number of minutes from 1"),
        ("night_minutes", "1441", "from 1 to 1440"),
        ("night_minutes", "five", "whole number of minutes"),
        ("vote_minutes", "0", "vote limit must be a whole number of minutes from 1"),
        ("vote_minutes", "-1", "from 1 to 1440"),
    ],
)
def test_options_refuse_bad_minutes(field: str, value: str, message: str) -> None:
    table = create_lobby(["Ann"])
    before = table_state(table.table.pk)
    with pytest.raises(ServiceError, match=message):
        set_options(table, **{field: value})
    assert table_state(table.table.pk) == before


def test_options_accept_the_limits_of_the_minutes() -> None:
    table = create_lobby(["Ann"])
    set_options(table, day_minutes="1", night_minutes="1", vote_minutes="1")
    assert options(table)["day_minutes"] == 1
    set_options(table, day_minutes="1440", night_minutes="1440", vote_minutes=" 1440 ")
    stored = options(table)
    assert (stored["day_minutes"], stored["night_minutes"], stored["vote_minutes"]) == (
        1440,
        1440,
        1440,
    )


def test_table_codes_are_unique() -> None:
    codes = {create().table.code for _ in range(30)}
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
    assert services.phrase_matches(typed, RULES_PHRASE)


@pytest.mark.parametrize("typed", ["", "The Ocean", "The Ocean Chose You", "Ocean chose me the"])
def test_rules_phrase_must_be_the_phrase(typed: str) -> None:
    assert not services.phrase_matches(typed, RULES_PHRASE)


# --- seat_join ----------------------------------------------------------------------------------


def test_join_seats_players_in_order() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    seats = list(table.table.seats.order_by("position"))
    assert [(s.name, s.position, s.is_host) for s in seats] == [
        ("Ann", 0, True),
        ("Ben", 1, False),
        ("Cat", 2, False),
    ]
    assert len({s.token for s in seats}) == 3


def test_join_requires_the_rules_phrase_in_house_games() -> None:
    host = create()
    with pytest.raises(ServiceError, match="Type the phrase the rules ask for"):
        services.seat_join(table=host.table, name="Ben")
    with pytest.raises(ServiceError, match="Type the phrase the rules ask for"):
        services.seat_join(table=host.table, name="Ben", phrase="the ocean")
    assert host.table.seats.count() == 1
    seat = services.seat_join(table=host.table, name="Ben", phrase="the OCEAN chose me!!")
    assert seat.position == 1


def test_join_needs_no_phrase_when_it_is_off() -> None:
    host = create(ruleset="official")
    assert services.seat_join(table=host.table, name="Ben").name == "Ben"
    house = create()
    services.options_set(host=house, fields={"rules_phrase": ["no"]})
    assert services.seat_join(table=house.table, name="Ben").name == "Ben"


@pytest.mark.parametrize(("ruleset", "limit"), [("house", 12), ("official", 13)])
def test_join_stops_at_the_rulesets_table_size(ruleset: str, limit: int) -> None:
    assert engine.max_players(Ruleset(ruleset)) == limit
    table = create_lobby(NAMES[:limit], ruleset=ruleset)
    assert seat_count(table) == limit
    with pytest.raises(ServiceError, match=f"The table is full: these rules allow {limit} players"):
        join(table, "Zed")
    assert seat_count(table) == limit


@pytest.mark.parametrize("name", ["Ben", "ben", "BEN", " ben ", "BeN", "B\u0435n"])
def test_join_refuses_a_name_already_taken_ignoring_case_and_look_alikes(name: str) -> None:
    table = create_lobby(["Ann", "Ben"])
    with pytest.raises(ServiceError, match="already at the table"):
        join(table, name)
    assert seat_count(table) == 2


@pytest.mark.parametrize(("seated", "typed"), [("Ali", "ALI"), ("ALI", "ali"), ("Ida", "lda")])
def test_join_refuses_a_name_in_capitals_even_where_the_skeleton_reads_i_as_l(
    seated: str, typed: str
) -> None:
    """The look-alike check folds case both before and after it compares skeletons: a capital
    I reads as an l, yet "ALI" is still "Ali"."""
    table = create_lobby(["Ann", seated])
    with pytest.raises(ServiceError, match="already at the table"):
        join(table, typed)
    assert seat_count(table) == 2


def test_join_refuses_the_hosts_name() -> None:
    table = create_lobby(["Ann"])
    with pytest.raises(ServiceError, match="Someone called ANN is already at the table"):
        join(table, "ANN")


@pytest.mark.parametrize("name", ["", "  ", "left", "Middle", "x" * 25, "a\nb\x07", "moderator"])
def test_join_refuses_bad_names(name: str) -> None:
    table = create_lobby(["Ann"])
    with pytest.raises(ServiceError):
        join(table, name)
    assert seat_count(table) == 1


def test_join_accepts_unicode_and_markup_names_as_text() -> None:
    table = create_lobby(["Ann"])
    for name in ["Zoë", "李雷", "<b>Bo</b>", "O'Neil & Co", "🐺 Wolfie"]:
        assert join(table, name).name == name


@pytest.mark.parametrize("phase", ["night", "day", "voting", "reveal"])
def test_join_only_in_the_lobby(phase: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongStageError):
        join(table, "Zed")
    assert seat_count(table) == 3


def test_join_refused_in_a_cancelled_lobby() -> None:
    table = create_lobby(["Ann"])
    services.table_cancel(table=table.table)
    with pytest.raises(WrongStageError, match="cancelled"):
        join(table, "Ben")


def test_join_reads_the_stage_from_the_database_not_the_stale_object() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    stale = Table.objects.get(pk=table.table.pk)
    services.table_start(host=table.seat("Ann"))
    assert stale.stage == Stage.LOBBY
    with pytest.raises(WrongStageError):
        join(stale, "Dan")
    assert seat_count(table) == 3


def test_join_after_a_removal_takes_the_next_position() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.seat_remove(host=table.host, seat_id=table.seats["Ben"].pk)
    assert join(table, "Dan").position == 3
    # The removed name is free again.
    assert join(table, "ben").position == 4


def test_each_change_in_the_lobby_bumps_the_version() -> None:
    table = create_lobby(["Ann"])
    versions = [table.refresh().version]
    join(table, "Ben")
    versions.append(table.refresh().version)
    set_options(table, day_minutes="10")
    versions.append(table.refresh().version)
    services.table_lock_set(host=table.host, locked=True)
    versions.append(table.refresh().version)
    assert versions == sorted(set(versions))


# --- seat_remove --------------------------------------------------------------------------------


def test_host_removes_a_player() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    services.seat_remove(host=table.host, seat_id=table.seats["Cat"].pk)
    assert list(table.table.seats.values_list("name", flat=True)) == ["Ann", "Ben"]


def test_only_the_host_removes() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(NotAllowedError, match="Only the host"):
        services.seat_remove(host=table.seats["Ben"], seat_id=table.seats["Cat"].pk)
    assert seat_count(table) == 3


def test_host_cannot_remove_themselves() -> None:
    table = create_lobby(["Ann", "Ben"])
    with pytest.raises(ServiceError, match="cannot remove themselves"):
        services.seat_remove(host=table.host, seat_id=table.host.pk)
    assert seat_count(table) == 2


def test_host_cannot_remove_a_seat_of_another_table() -> None:
    table = create_lobby(["Ann", "Ben"])
    other = create_lobby(["Xia", "Yan"])
    with pytest.raises(ServiceError, match="not at this table"):
        services.seat_remove(host=table.host, seat_id=other.seats["Yan"].pk)
    with pytest.raises(ServiceError, match="not at this table"):
        services.seat_remove(host=table.host, seat_id=999_999)
    assert seat_count(other) == 2


def test_a_removed_seat_can_do_nothing_more() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    cat = table.seat("Cat")
    services.seat_remove(host=table.host, seat_id=cat.pk)
    with pytest.raises(NotAllowedError, match="not seated"):
        services.chat_post(seat=cat, text="still here?")


@pytest.mark.parametrize("phase", ["night", "day", "voting", "reveal"])
def test_remove_only_in_the_lobby(phase: str) -> None:
    table = play_to(phase)
    with pytest.raises(WrongStageError):
        services.seat_remove(host=table.seat("Ann"), seat_id=table.seats["Cat"].pk)
    assert seat_count(table) == 3


# --- table_lock_set -----------------------------------------------------------------------------


def test_a_locked_table_takes_nobody_new_and_keeps_its_seats() -> None:
    table = create_lobby(["Ann", "Ben"])
    services.table_lock_set(host=table.host, locked=True)
    assert table.refresh().joins_locked
    with pytest.raises(NotAllowedError, match="The host has locked this table"):
        join(table, "Cat")
    assert seat_count(table) == 2
    services.table_lock_set(host=table.host, locked=False)
    assert join(table, "Cat").position == 2


def test_only_the_host_locks_and_only_in_the_lobby() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    with pytest.raises(NotAllowedError, match="Only the host"):
        services.table_lock_set(host=table.seats["Ben"], locked=True)
    assert not table.refresh().joins_locked
    started = play_to("night")
    with pytest.raises(WrongStageError):
        services.table_lock_set(host=started.seat("Ann"), locked=True)


# --- the deck (options_set) ---------------------------------------------------------------------


def test_host_sets_the_deck() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    set_options(table, count_werewolf="2", count_seer="1", count_villager="3", count_tanner="0")
    assert Counter(options(table)["deck"]) == Counter({"werewolf": 2, "seer": 1, "villager": 3})


def test_suggested_goes_back_to_the_suggested_deck() -> None:
    table = create_lobby(["Ann", "Ben", "Cat", "Dan"])
    set_options(table, count_villager="3")
    set_options(table, suggested="1", count_werewolf="2")
    assert options(table)["deck"] == []
    services.table_start(host=table.host)
    dealt = Counter(table.state().raw["cards"].values())
    assert dealt == Counter(r.value for r in engine.default_deck(Ruleset.HOUSE, 4))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"count_werewolf": "3"}, "0 to 2 Werewolf"),
        ({"count_villager": "4"}, "0 to 3 Villager"),
        ({"count_seer": "2"}, "0 to 1 Seer"),
        ({"count_seer": "-1"}, "0 to 1 Seer"),
        ({"count_doppelganger": "1"}, "Doppelganger is not used in the house rules"),
        ({"count_ghost": "1"}, "'ghost' is not a role"),
        ({"count_Werewolf": "1"}, "'Werewolf' is not a role"),
        ({"count_seer": "one"}, "whole number"),
        ({"count_seer": "1.5"}, "whole number"),
        ({"count_seer": "9" * 5000}, "whole number"),
    ],
)
def test_deck_refuses_bad_counts(fields: dict[str, str], message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    set_options(table, count_villager="1")
    with pytest.raises(ServiceError, match=message):
        set_options(table, **fields)
    assert options(table)["deck"] == ["villager"]


def test_official_deck_allows_the_doppelganger() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"], ruleset="official")
    set_options(table, count_doppelganger="1")
    assert options(table)["deck"] == [Role.DOPPELGANGER.value]


def test_only_the_host_sets_options() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    for fields in ({"count_villager": "1"}, {"suggested": "1"}, {"day_minutes": "5"}):
        with pytest.raises(NotAllowedError):
            set_options(table, table.seats["Ben"], **fields)
    assert options(table)["deck"] == []
    assert options(table)["day_minutes"] == 30


def test_options_only_in_the_lobby() -> None:
    table = play_to("night")
    before = options(table)
    with pytest.raises(WrongStageError):
        set_options(table, table.seat("Ann"), count_villager="1")
    assert options(table) == before


# --- table_start --------------------------------------------------------------------------------


def test_start_deals_every_card_and_begins_the_night() -> None:
    table = create_lobby(["Ann", "Ben", "Cat", "Dan"])
    deck = ["werewolf", "werewolf", "seer", "robber", "troublemaker", "villager", "drunk"]
    set_options(table, **{f"count_{role}": str(n) for role, n in Counter(deck).items()})
    now = timezone.now()
    started = services.table_start(host=table.host, now=now)
    assert started.stage == Stage.PLAYING and started.phase == "night"
    stored = table.refresh()
    assert (stored.stage, stored.phase, stored.phase_label) == (Stage.PLAYING, "night", "Night")
    assert stored.started_at == now
    assert stored.deadline is None  # no night time limit
    state = table.state()
    cards = state.raw["cards"]
    assert set(cards) == {"Ann", "Ben", "Cat", "Dan", "left", "middle", "right"}
    assert Counter(cards.values()) == Counter(deck)
    seat_ids = [s.pk for s in table.table.seats.order_by("position")]
    assert [i for i, _ in state.players] == seat_ids
    assert sorted(state.ring) == sorted(seat_ids) and len(state.ring) == 4
    assert state.actions == {} and state.votes == {} and state.ready == []
    assert Move.objects.filter(table=table.table, kind="start").count() == 1


def test_start_with_the_suggested_deck() -> None:
    table = create_lobby(NAMES[:5])
    services.table_start(host=table.host)
    dealt = Counter(table.state().raw["cards"].values())
    assert dealt == Counter(r.value for r in engine.default_deck(Ruleset.HOUSE, 5))


def test_the_deal_and_ring_are_shuffled() -> None:
    """Twenty deals of the same deck are not all the same (chance of failing: ~1e-50)."""
    deals = set()
    rings = set()
    for _ in range(20):
        table = create_lobby(NAMES[:6])
        services.table_start(host=table.host)
        state = table.state()
        deals.add(tuple(state.raw["cards"][p] for p in state.deal.positions))
        positions = {s.pk: s.position for s in table.table.seats.all()}
        rings.add(tuple(positions[i] for i in state.ring))
    assert len(deals) > 1
    assert len(rings) > 1


def test_start_sets_a_night_deadline_only_with_a_night_limit() -> None:
    now = timezone.now()
    table = deal_game(night_minutes=3, now=now, **THREE)
    assert table.table.deadline == now + timedelta(minutes=3)
    table = deal_game(now=now, **THREE)
    assert table.table.deadline is None


def test_only_the_host_starts() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    before = table_state(table.table.pk)
    with pytest.raises(NotAllowedError):
        services.table_start(host=table.seats["Ben"])
    assert table_state(table.table.pk) == before


@pytest.mark.parametrize("names", [["Ann"], ["Ann", "Ben"]])
def test_start_needs_three_players(names: list[str]) -> None:
    table = create_lobby(names)
    before = table_state(table.table.pk)
    with pytest.raises(ServiceError, match="At least 3 players are needed to start"):
        services.table_start(host=table.host)
    assert table_state(table.table.pk) == before


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({"werewolf": 2, "villager": 3}, "3 players need 6 cards .* but 5 were chosen"),
        ({"werewolf": 2, "villager": 3, "seer": 1, "robber": 1}, "but 7 were chosen"),
    ],
)
def test_start_needs_players_plus_three_cards(counts: dict[str, int], message: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    set_options(table, **{f"count_{r}": str(n) for r, n in counts.items()})
    before = table_state(table.table.pk)
    with pytest.raises(ServiceError, match=message):
        services.table_start(host=table.host)
    assert table_state(table.table.pk) == before
    assert table.refresh().started_at is None


def test_start_official_needs_both_masons() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"], ruleset="official")
    set_options(table, count_mason="1", count_werewolf="2", count_villager="3")
    with pytest.raises(ServiceError, match="both Mason cards or neither"):
        services.table_start(host=table.host)
    assert table.refresh().stage == Stage.LOBBY


def test_start_is_refused_once_started() -> None:
    table = play_to("night")
    before = table_state(table.table.pk)
    with pytest.raises(WrongStageError, match="The game has started"):
        services.table_start(host=table.seat("Ann"))
    assert table_state(table.table.pk) == before


def test_a_custom_deck_no_longer_fits_after_a_player_leaves() -> None:
    table = create_lobby(["Ann", "Ben", "Cat", "Dan"])
    set_options(table, count_werewolf="2", count_seer="1", count_robber="1", count_villager="3")
    services.seat_remove(host=table.host, seat_id=table.seats["Dan"].pk)
    with pytest.raises(ServiceError, match="3 players need 6 cards"):
        services.table_start(host=table.host)


# --- table creation cap -------------------------------------------------------------------------


def test_one_client_creates_a_limited_number_of_tables_per_minute(settings: Any) -> None:
    settings.GAMES_PER_MINUTE = 2
    for _ in range(2):
        create(creator_key="k1")
    with pytest.raises(ServiceError, match="You have created 2 games in the last minute"):
        create(creator_key="k1")
    assert Table.objects.count() == 2
    # Other clients, and callers with no key (tests, scripts), are not limited by it.
    create(creator_key="k2")
    create()
    # A minute later the client may create again.
    later = timezone.now() + timedelta(minutes=1, seconds=1)
    create(creator_key="k1", now=later)
    assert Table.objects.count() == 5


def test_a_refused_create_does_not_count_towards_the_cap(settings: Any) -> None:
    settings.GAMES_PER_MINUTE = 1
    with pytest.raises(ServiceError):
        create(host_name="left", creator_key="k1")
    create(creator_key="k1")
