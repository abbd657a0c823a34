"""Shared helpers for the service, web and realtime tests: One Night tables with a fixed deal,
played to a phase.

Everything goes through games/tables/services, exactly as the pages do; the only trick is the
deal. `fixed_shuffle()` makes the table core's source of chance leave lists as they are, so the
deal is the deck in order (seats by position, then left, middle, right) and the voting ring is
the seat order. `deal_game(Ann="werewolf", Ben="seer", ..., left=..., middle=..., right=...)`
seats the players in keyword order (the first one hosts) and deals them exactly those cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from unittest import mock

from django.test import Client
from django.test.client import ClientHandler
from django.urls import reverse

from games.families.onenight.engine import CENTRE_POSITIONS, Requirement, Role, copied_action_rule
from games.families.onenight.options import RULES_PHRASE
from games.families.onenight.play import OneNightState
from games.tables import services
from games.tables.models import ChatLine, Move, Seat, Table

NAMES: tuple[str, ...] = (
    "Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Max",
    "Ned",
)  # fmt: skip

# A house deal for three players: every player learns something different in the night.
THREE: dict[str, str] = {
    "Ann": "werewolf",
    "Ben": "seer",
    "Cat": "robber",
    "left": "troublemaker",
    "middle": "villager",
    "right": "drunk",
}

# An official deal for five: a Doppelganger and every role it can copy in interesting ways.
OFFICIAL_FIVE: dict[str, str] = {
    "Ann": "doppelganger",
    "Ben": "seer",
    "Cat": "robber",
    "Dan": "werewolf",
    "Eve": "drunk",
    "left": "villager",
    "middle": "troublemaker",
    "right": "werewolf",
}

# All fifteen house cards for twelve players (the house maximum).
TWELVE: dict[str, str] = {
    "Ann": "werewolf",
    "Ben": "seer",
    "Cat": "robber",
    "Dan": "troublemaker",
    "Eve": "drunk",
    "Fay": "insomniac",
    "Gus": "minion",
    "Hal": "mason",
    "Ivy": "mason",
    "Jon": "hunter",
    "Kim": "villager",
    "Lou": "tanner",
    "left": "werewolf",
    "middle": "villager",
    "right": "villager",
}


class _InOrder(random.Random):
    """A source of chance that shuffles nothing (and picks the first of a choice)."""

    def shuffle(self, x: Any) -> None:  # type: ignore[override]
        return None

    def choice(self, seq: Any) -> Any:  # type: ignore[override]
        return seq[0]


@contextmanager
def fixed_shuffle() -> Iterator[None]:
    """Deal the deck in order: the table core's chance leaves every list as it is."""
    with mock.patch("games.tables.services.host.new_rng", lambda: _InOrder()):
        yield


@dataclass
class TestTable:
    """A table and its seats by name (in seat order; the first is the host)."""

    __test__ = False  # not a test class, despite its name

    table: Table
    seats: dict[str, Seat]

    @property
    def code(self) -> str:
        return self.table.code

    @property
    def host(self) -> Seat:
        return next(s for s in self.seats.values() if s.is_host)

    @property
    def names(self) -> list[str]:
        return list(self.seats)

    def seat(self, name: str) -> Seat:
        """A fresh copy of the seat from the database."""
        return Seat.objects.select_related("table").get(pk=self.seats[name].pk)

    def refresh(self) -> Table:
        self.table.refresh_from_db()
        return self.table

    def phase(self) -> str:
        return Table.objects.values_list("phase", flat=True).get(pk=self.table.pk)

    def state(self) -> OneNightState:
        return OneNightState(Table.objects.values_list("state", flat=True).get(pk=self.table.pk))

    def start_role(self, name: str) -> Role:
        return self.state().deal.cards[name]


def create_lobby(
    names: Sequence[str] = NAMES[:3],
    *,
    ruleset: str = "house",
    day_minutes: int = 30,
    night_minutes: int | None = None,
    vote_minutes: int | None = None,
    require_rules_phrase: bool | None = None,
) -> TestTable:
    """A One Night lobby with `names` seated in order; the first is the host."""
    host = services.table_create(family="onenight", ruleset=ruleset, host_name=names[0])
    fields: dict[str, list[str]] = {
        "day_minutes": [str(day_minutes)],
        "night_minutes": [str(night_minutes or "")],
        "vote_minutes": [str(vote_minutes or "")],
    }
    if require_rules_phrase is not None:
        fields["rules_phrase"] = ["yes" if require_rules_phrase else "no"]
    services.options_set(host=host, fields=fields)
    seats = {host.name: host}
    for name in names[1:]:
        seat = services.seat_join(table=host.table, name=name, phrase=RULES_PHRASE)
        seats[seat.name] = seat
    return TestTable(table=Table.objects.get(pk=host.table_id), seats=seats)


def split_cards(cards: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """The player names (in order) and the deck in deal order (players, then the centre)."""
    players = [name for name in cards if name not in CENTRE_POSITIONS]
    deck = [cards[p] for p in players] + [cards[p] for p in CENTRE_POSITIONS]
    return players, deck


def start_with_deal(
    table: TestTable, cards: Mapping[str, str], *, now: datetime | None = None
) -> TestTable:
    """Store the deck in deal order and start the game with the shuffle switched off."""
    players, deck = split_cards(cards)
    assert players == table.names, "the deal must name the seated players in seat order"
    options = {**table.refresh().options, "deck": deck}
    Table.objects.filter(pk=table.table.pk).update(options=options)
    with fixed_shuffle():
        services.table_start(host=table.seat(table.host.name), now=now)
    table.refresh()
    table.seats = {name: table.seat(name) for name in table.seats}
    return table


def deal_game(
    ruleset: str = "house",
    /,
    *,
    day_minutes: int = 30,
    night_minutes: int | None = None,
    vote_minutes: int | None = None,
    now: datetime | None = None,
    **cards: str,
) -> TestTable:
    """A started game (phase night) with exactly this deal; players in keyword order."""
    players, _ = split_cards(cards)
    table = create_lobby(
        players,
        ruleset=ruleset,
        day_minutes=day_minutes,
        night_minutes=night_minutes,
        vote_minutes=vote_minutes,
    )
    return start_with_deal(table, cards, now=now)


def form_targets(table: TestTable, *targets: str) -> list[str]:
    """What a night-action form posts for these targets: a player by seat id, a centre card
    by its position ("left,middle" for a seer's two), anything else as it stands."""
    return [str(table.seats[t].pk) if t in table.seats else t for t in targets]


def move(seat: Seat, kind: str, now: datetime | None = None, **fields: Any) -> Table:
    """A One Night move as its form posts it (each field a value or a list of values)."""
    posted = {
        k: [str(x) for x in v] if isinstance(v, list | tuple) else [str(v)]
        for k, v in fields.items()
    }
    return services.seat_move(seat=seat, kind=kind, fields=posted, now=now)


def night_action(
    table: TestTable, name: str, targets: Sequence[str], *, now: datetime | None = None
) -> Table:
    """`name`'s night action naming players and centre cards; [] is "no action"."""
    if not targets:
        return move(table.seat(name), "action", now=now, no_action="1")
    return move(table.seat(name), "action", now=now, targets=form_targets(table, *targets))


def default_action(table: TestTable, name: str) -> list[str]:
    """ "No action", or the left centre card for a drunk (who must act)."""
    return ["left"] if table.start_role(name) == Role.DRUNK else []


def send_action(
    table: TestTable, name: str, targets: Sequence[str], *, now: datetime | None = None
) -> None:
    """Send one night action; a Doppelganger copies first and then acts, as on the page."""
    if table.start_role(name) != Role.DOPPELGANGER or not targets:
        night_action(table, name, targets, now=now)
        return
    move(table.seat(name), "copy", now=now, targets=form_targets(table, targets[0]))
    copied = table.state().deal.cards[targets[0]]
    if copied_action_rule(copied).requirement is not Requirement.NONE:
        night_action(table, name, list(targets[1:]), now=now)


def play_night(
    table: TestTable,
    actions: Mapping[str, Sequence[str]] | None = None,
    *,
    now: datetime | None = None,
) -> TestTable:
    """Everyone who has not yet acted sends their action (given ones, else "no action", or
    the left card for a drunk): the day begins."""
    actions = dict(actions or {})
    done = {n for n, a in table.state().actions.items() if a["complete"]}
    for name in table.names:
        if name in done:
            continue
        targets = actions.get(name)
        if targets is None:
            targets = default_action(table, name)
        send_action(table, name, targets, now=now)
    table.refresh()
    assert table.table.phase == "day"
    return table


def end_day(table: TestTable) -> TestTable:
    move(table.seat(table.host.name), "end_day")
    table.refresh()
    return table


def vote(table: TestTable, voter: str, target: str) -> Table:
    return move(table.seat(voter), "vote", target=table.seats[target].pk)


def cast_votes(table: TestTable, votes: Mapping[str, str]) -> TestTable:
    """Each named voter votes for the named target."""
    for voter, target in votes.items():
        vote(table, voter, target)
    table.refresh()
    return table


def ring_votes(table: TestTable) -> dict[str, str]:
    """Everyone votes for the next player in seat order: one vote each, nobody dies."""
    names = table.names
    return {name: names[(i + 1) % len(names)] for i, name in enumerate(names)}


def play_to(
    phase: str,
    cards: Mapping[str, str] | None = None,
    *,
    ruleset: str = "house",
    actions: Mapping[str, Sequence[str]] | None = None,
    votes: Mapping[str, str] | None = None,
    night_minutes: int | None = None,
    vote_minutes: int | None = None,
) -> TestTable:
    """A game with this deal (default: THREE) played to `phase` (night, day, voting, reveal,
    cancelled)."""
    table = deal_game(
        ruleset, night_minutes=night_minutes, vote_minutes=vote_minutes, **dict(cards or THREE)
    )
    if phase == "cancelled":
        services.table_cancel(table=table.table)
        table.refresh()
        return table
    if phase == "night":
        return table
    play_night(table, actions)
    if phase == "day":
        return table
    end_day(table)
    if phase == "voting":
        return table
    cast_votes(table, votes or ring_votes(table))
    assert table.table.phase == "reveal"
    return table


_HANDLER: ClientHandler | None = None


def new_client() -> Client:
    """A fresh browser (own cookies) sharing one request handler with the other test browsers
    (each Client builds its middleware chain on its first request; WhiteNoise indexes the static
    files while doing so)."""
    global _HANDLER
    client = Client()
    if _HANDLER is None:
        _HANDLER = client.handler
    client.handler = _HANDLER
    return client


def client_for(table: TestTable, name: str) -> Client:
    """A browser holding `name`'s seat (through the private rejoin link)."""
    client = new_client()
    seat = table.seats[name]
    response = client.get(reverse("rejoin", args=[table.code, seat.token]))
    assert response.status_code == 302, response.status_code
    return client


def clients_for(table: TestTable) -> dict[str, Client]:
    return {name: client_for(table, name) for name in table.names}


def table_state(table_id: int) -> dict[str, object]:
    """A snapshot of everything a request could change, to check that nothing did."""
    table = Table.objects.get(pk=table_id)
    return {
        "table": {f.attname: getattr(table, f.attname) for f in Table._meta.concrete_fields},
        "seats": list(Seat.objects.filter(table_id=table_id).order_by("pk").values()),
        "moves": list(Move.objects.filter(table_id=table_id).order_by("pk").values()),
        "chat": list(ChatLine.objects.filter(table_id=table_id).order_by("pk").values()),
    }
