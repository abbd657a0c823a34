"""Shared helpers for the service and web tests: tables with a fixed deal, played to a phase.

Everything goes through games/services, exactly as the pages do; the only trick is the deal.
`fixed_shuffle()` turns `secrets.SystemRandom.shuffle` into a no-op, so `game_start` deals the
stored deck in order (seats by position, then left, middle, right) and the voting ring is the
seat order. `deal_game(Ann="werewolf", Ben="seer", ..., left=..., middle=..., right=...)` seats
the players in keyword order (the first one hosts) and deals them exactly those cards.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from unittest import mock

from django.test import Client
from django.test.client import ClientHandler
from django.urls import reverse

from games import engine, services
from games.engine import CENTRE_POSITIONS, Role
from games.models import CentreCard, ChatMessage, Game, NightAction, Phase, Seat, Vote

NAMES: tuple[str, ...] = (
    "Ann",
    "Ben",
    "Cat",
    "Dan",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jon",
    "Kim",
    "Lou",
    "Max",
    "Ned",
)

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


@contextmanager
def fixed_shuffle() -> Iterator[None]:
    """Make every `secrets.SystemRandom().shuffle` leave the list as it is."""
    with mock.patch.object(secrets.SystemRandom, "shuffle", lambda self, items: None):
        yield


@dataclass
class Table:
    """A game and its seats by name (in seat order; the first is the host)."""

    game: Game
    seats: dict[str, Seat]

    @property
    def code(self) -> str:
        return self.game.code

    @property
    def host(self) -> Seat:
        return next(s for s in self.seats.values() if s.is_host)

    @property
    def names(self) -> list[str]:
        return list(self.seats)

    def seat(self, name: str) -> Seat:
        """A fresh copy of the seat from the database."""
        return Seat.objects.select_related("game").get(pk=self.seats[name].pk)

    def refresh(self) -> Game:
        self.game.refresh_from_db()
        return self.game

    def phase(self) -> str:
        return Game.objects.values_list("phase", flat=True).get(pk=self.game.pk)


def create_lobby(
    names: Sequence[str] = NAMES[:3],
    *,
    ruleset: str = "house",
    day_minutes: int = 30,
    night_minutes: int | None = None,
    vote_minutes: int | None = None,
    require_rules_phrase: bool | None = None,
) -> Table:
    """A lobby with `names` seated in order; the first is the host."""
    host = services.game_create(
        host_name=names[0],
        ruleset=ruleset,
        day_minutes=day_minutes,
        night_minutes=night_minutes,
        vote_minutes=vote_minutes,
        require_rules_phrase=require_rules_phrase,
    )
    seats = {host.name: host}
    for name in names[1:]:
        seat = services.seat_join(game=host.game, name=name, rules_phrase=services.RULES_PHRASE)
        seats[seat.name] = seat
    game = Game.objects.get(pk=host.game_id)
    return Table(game=game, seats=seats)


def split_cards(cards: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """The player names (in order) and the deck in deal order (players, then the centre)."""
    players = [name for name in cards if name not in CENTRE_POSITIONS]
    deck = [cards[p] for p in players] + [cards[p] for p in CENTRE_POSITIONS]
    return players, deck


def start_with_deal(
    table: Table, cards: Mapping[str, str], *, now: datetime | None = None
) -> Table:
    """Store the deck in deal order and start the game with the shuffle switched off."""
    players, deck = split_cards(cards)
    assert players == table.names, "the deal must name the seated players in seat order"
    Game.objects.filter(pk=table.game.pk).update(deck=deck)
    with fixed_shuffle():
        services.game_start(host=table.seat(table.host.name), now=now)
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
) -> Table:
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


def form_targets(table: Table, *targets: str) -> list[str]:
    """What a night-action form posts for these targets: a player by seat id, a centre card
    by its position ("left,middle" for a seer's two), anything else as it stands."""
    return [str(table.seats[t].pk) if t in table.seats else t for t in targets]


def default_action(table: Table, name: str) -> list[str]:
    """ "No action", or the left centre card for a drunk (who must act)."""
    role = table.seat(name).start_role
    return ["left"] if role == Role.DRUNK else []


def send_action(
    table: Table, name: str, targets: Sequence[str], *, now: datetime | None = None
) -> None:
    """Send one night action; a Doppelganger copies first and then acts, as on the page."""
    seat = table.seat(name)
    if seat.start_role != Role.DOPPELGANGER or not targets:
        services.night_action_submit(seat=seat, targets=list(targets), now=now)
        return
    copied = services.doppelganger_copy(seat=seat, target=targets[0], now=now)
    if engine.copied_action_rule(copied).requirement is not engine.Requirement.NONE:
        services.night_action_submit(seat=table.seat(name), targets=list(targets[1:]), now=now)


def play_night(
    table: Table,
    actions: Mapping[str, Sequence[str]] | None = None,
    *,
    now: datetime | None = None,
) -> Table:
    """Everyone who has not yet acted sends their action (given ones, else "no action", or
    the left card for a drunk): the day begins."""
    actions = dict(actions or {})
    done = set(
        NightAction.objects.filter(game=table.game, complete=True).values_list("seat_id", flat=True)
    )
    for name in table.names:
        if table.seats[name].pk in done:
            continue
        targets = actions.get(name)
        if targets is None:
            targets = default_action(table, name)
        send_action(table, name, targets, now=now)
    table.refresh()
    assert table.game.phase == Phase.DAY
    return table


def cast_votes(table: Table, votes: Mapping[str, str]) -> Table:
    """Each named voter votes for the named target."""
    for voter, target in votes.items():
        services.vote_cast(seat=table.seat(voter), target_id=table.seats[target].pk)
    table.refresh()
    return table


def ring_votes(table: Table) -> dict[str, str]:
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
) -> Table:
    """A game with this deal (default: THREE) played to `phase`."""
    table = deal_game(
        ruleset,
        night_minutes=night_minutes,
        vote_minutes=vote_minutes,
        **dict(cards or THREE),
    )
    if phase == Phase.CANCELLED:
        services.game_cancel(game=table.game)
        table.refresh()
        return table
    if phase == Phase.NIGHT:
        return table
    play_night(table, actions)
    if phase == Phase.DAY:
        return table
    services.day_end(host=table.seat(table.host.name))
    table.refresh()
    if phase == Phase.VOTING:
        return table
    cast_votes(table, votes or ring_votes(table))
    assert table.game.phase == Phase.REVEAL
    return table


_HANDLER: ClientHandler | None = None


def new_client() -> Client:
    """A fresh browser (own cookies) sharing one request handler with the other test browsers.

    Each Django test Client builds its own middleware chain on its first request, and
    WhiteNoise indexes the static files while doing so: sharing the handler saves ~0.1 s each.
    """
    global _HANDLER
    client = Client()
    if _HANDLER is None:
        _HANDLER = client.handler
    client.handler = _HANDLER
    return client


def client_for(table: Table, name: str) -> Client:
    """A browser holding `name`'s seat (through the private rejoin link)."""
    client = new_client()
    seat = table.seats[name]
    response = client.get(reverse("rejoin", args=[table.code, seat.token]))
    assert response.status_code == 302, response.status_code
    return client


def clients_for(table: Table) -> dict[str, Client]:
    return {name: client_for(table, name) for name in table.names}


def game_state(game_id: int) -> dict[str, object]:
    """A snapshot of everything a request could change, to check that nothing did."""
    game = Game.objects.get(pk=game_id)
    return {
        "game": {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields},
        "seats": list(Seat.objects.filter(game_id=game_id).order_by("pk").values()),
        "centre": list(CentreCard.objects.filter(game_id=game_id).order_by("pk").values()),
        "actions": list(NightAction.objects.filter(game_id=game_id).order_by("pk").values()),
        "votes": list(Vote.objects.filter(game_id=game_id).order_by("pk").values()),
        "chat": list(ChatMessage.objects.filter(game_id=game_id).order_by("pk").values()),
        "games": Game.objects.count(),
    }
