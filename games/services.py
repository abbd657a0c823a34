"""Every change to a game: one function, one transaction, the phase it expects checked first.

Each service locks the game row (PostgreSQL: SELECT ... FOR UPDATE; SQLite: the IMMEDIATE
transaction already holds the write lock) and re-reads the phase, so when two requests race,
one wins and the other gets a clear `ServiceError`. Phase moves are conditional updates as well,
so "exactly once" holds even without the lock. Pages are told after commit (games/broadcast).

Rules come from games/engine only; these functions store what it decides.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import engine, hot_queries
from games.broadcast import announce_on_commit, send_chat_on_commit
from games.engine import CENTRE_POSITIONS, Role, RuleError, Ruleset
from games.engine.messages import RoleMessage, night_report, role_message
from games.models import (
    MODERATOR,
    CentreCard,
    ChatMessage,
    Game,
    NightAction,
    Phase,
    Seat,
    SeatTaken,
    Vote,
)
from games.names import RefusedName, clashing_name, clean_name
from games.prepared import (
    ACTION_OF_SEAT,
    ACTIONS_OF_GAME,
    CENTRE_OF_GAME,
    GAME_BY_ID,
    LOCKED_GAME_BY_ID,
    SEAT_AT_GAME,
    SEATS_OF_GAME,
    VOTES_OF_GAME,
    of_game,
)
from games.quoting import can_quote, quotes, word_runs

timing_log = logging.getLogger("games.timing")

# rules/000 s5e: players show they read the rules by sending this phrase.
RULES_PHRASE = "The Ocean Chose Me"
# What a newcomer hears at a table its host has locked (`table_lock_set`).
TABLE_LOCKED = (
    "The host has locked this table: nobody new can take a seat. Ask the host to unlock it if"
    " you should be playing."
)
MAX_DAY_MINUTES = 24 * 60
MAX_LIMIT_MINUTES = 24 * 60


class ServiceError(Exception):
    """A request the game cannot accept now; the message is shown to the player as it is."""


class WrongPhaseError(ServiceError):
    """The game is not in the phase this request needs (another request may have won)."""


class NotAllowedError(ServiceError):
    """The seat may not do this (not the host, not in this game)."""


@dataclass(frozen=True, slots=True)
class Taken:
    """What a player's change left behind, as its transaction committed it, handed back so
    that the answer to the form need not read it again (games/consumers.py): the game (its
    phase tells whether the change moved it on), the sender's seat, and for a vote the name
    voted for."""

    game: Game
    seat: Seat
    voted_for: str | None = None


def _now(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


def _locked_game(game_id: int) -> Game:
    """The game row, locked for the rest of the transaction where the database can.
    Game.DoesNotExist if there is no such game."""
    game = LOCKED_GAME_BY_ID.one(game_id)
    if game is None:
        raise Game.DoesNotExist(f"No game {game_id}.")
    return game


def _expect_phase(game: Game, *phases: str) -> None:
    if game.phase not in phases:
        messages = {
            Phase.LOBBY: "The game has not started yet.",
            Phase.NIGHT: "It is night: that can't be done now.",
            Phase.DAY: "It is the day: that can't be done now.",
            Phase.VOTING: "Voting is under way: that can't be done now.",
            Phase.REVEAL: "This game is over.",
            Phase.CANCELLED: "This game was cancelled.",
        }
        raise WrongPhaseError(messages.get(game.phase, "That can't be done now."))


def _move_phase(game: Game, from_phase: str, to_phase: str, **fields: object) -> None:
    """Move the game on, only if it is still in `from_phase`; raise if another request won."""
    moved = Game.objects.filter(pk=game.pk, phase=from_phase).update(phase=to_phase, **fields)
    if moved != 1:
        raise WrongPhaseError("Someone else moved the game on first.")
    game.phase = to_phase
    for name, value in fields.items():
        setattr(game, name, value)


def _moderator_says(game: Game, text: str) -> None:
    """A public note from the moderator in the game's chat (phase changes), sent after commit."""
    note = ChatMessage.objects.create(game=game, seat=None, text=text, phase=game.phase)
    send_chat_on_commit(
        game.code,
        {
            "id": note.pk,
            "seat_id": None,
            "name": MODERATOR,
            "note": True,
            "text": text,
            "sent_at": note.sent_at.isoformat(),
        },
    )


def _minutes(value: int | None, label: str, *, maximum: int, allow_none: bool) -> int | None:
    if value is None:
        if allow_none:
            return None
        raise ServiceError(f"Please give the {label} in minutes.")
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise ServiceError(f"The {label} must be a whole number of minutes from 1 to {maximum}.")
    return value * 60


def _ruleset(value: str) -> Ruleset:
    try:
        return Ruleset(value)
    except ValueError:
        raise ServiceError("Choose the house rules or the official rules.") from None


def _clean_name(name: str) -> str:
    try:
        return clean_name(name)
    except RefusedName as error:
        raise ServiceError(str(error)) from None


def rules_phrase_matches(text: str) -> bool:
    """Case, spacing and punctuation do not matter when typing the rules phrase."""

    def simplify(value: str) -> str:
        return re.sub(r"[^a-z]", "", value.lower())

    return simplify(text or "") == simplify(RULES_PHRASE)


# --- Lobby ------------------------------------------------------------------------------------


@transaction.atomic
def game_create(
    *,
    host_name: str,
    ruleset: str = Ruleset.HOUSE.value,
    day_minutes: int = 30,
    night_minutes: int | None = None,
    vote_minutes: int | None = None,
    require_rules_phrase: bool | None = None,
    creator_key: str = "",
    now: datetime | None = None,
) -> Seat:
    """Open a lobby and seat its host. Returns the host's seat.

    `require_rules_phrase` defaults to on for the house rules (rules/000 s5e) and off otherwise.
    `creator_key` identifies the client (games/views: a keyed hash of its address); one key may
    create at most settings.GAMES_PER_MINUTE games in any minute.
    """
    rules = _ruleset(ruleset)
    name = _clean_name(host_name)
    if creator_key:
        since = _now(now) - timedelta(minutes=1)
        recent = Game.objects.filter(creator_key=creator_key, created_at__gt=since).count()
        if recent >= settings.GAMES_PER_MINUTE:
            raise ServiceError(
                f"You have created {recent} games in the last minute. Wait a moment."
            )
    game = Game.objects.create(
        creator_key=creator_key,
        ruleset=rules.value,
        day_seconds=_minutes(day_minutes, "day length", maximum=MAX_DAY_MINUTES, allow_none=False),
        night_seconds=_minutes(
            night_minutes, "night time limit", maximum=MAX_LIMIT_MINUTES, allow_none=True
        ),
        vote_seconds=_minutes(
            vote_minutes, "vote time limit", maximum=MAX_LIMIT_MINUTES, allow_none=True
        ),
        require_rules_phrase=(
            rules is Ruleset.HOUSE if require_rules_phrase is None else require_rules_phrase
        ),
    )
    return Seat.objects.create(game=game, name=name, position=0, is_host=True)


def _check_join_caps(game: Game, joiner_key: str, when: datetime) -> None:
    """Refuse a seat past the caps on joining: settings.JOINS_PER_MINUTE from one client (by
    `joiner_key`, at any tables) and settings.TABLE_JOINS_PER_MINUTE at one table (from any
    clients), both counted over the last minute from `SeatTaken`, so seats since removed
    count too. Rows older than that minute are dropped here: nothing else reads them."""
    since = when - timedelta(minutes=1)
    SeatTaken.objects.filter(taken_at__lte=since).delete()
    if joiner_key:
        mine = SeatTaken.objects.filter(client_key=joiner_key, taken_at__gt=since).count()
        if mine >= settings.JOINS_PER_MINUTE:
            raise ServiceError(
                f"{mine} seats were taken from your address in the last minute. Wait a moment"
                " and try again."
            )
    here = SeatTaken.objects.filter(game=game, taken_at__gt=since).count()
    if here >= settings.TABLE_JOINS_PER_MINUTE:
        raise ServiceError(
            f"{here} seats were taken at this table in the last minute. Wait a moment and try"
            " again."
        )


@transaction.atomic
def seat_join(
    *,
    game: Game,
    name: str,
    rules_phrase: str = "",
    joiner_key: str = "",
    now: datetime | None = None,
) -> Seat:
    """Seat a new player in the lobby of `game`, unless the host has locked the table.

    `joiner_key` identifies the client (games/views: a keyed hash of its address), for the
    caps on how many seats one client, and one table, may see taken per minute
    (`_check_join_caps`).
    """
    game = _locked_game(game.pk)
    _expect_phase(game, Phase.LOBBY)
    if game.joins_locked:
        raise NotAllowedError(TABLE_LOCKED)
    clean = _clean_name(name)
    if game.require_rules_phrase and not rules_phrase_matches(rules_phrase):
        raise ServiceError(
            f"Type the phrase from the end of the rules (“{RULES_PHRASE}”) to show you read them."
        )
    seats = SEATS_OF_GAME(game.pk)
    limit = engine.max_players(Ruleset(game.ruleset))
    if len(seats) >= limit:
        raise ServiceError(f"The table is full: the {game.ruleset} rules allow {limit} players.")
    if clashing_name(clean, (s.name for s in seats)) is not None:
        raise ServiceError(f"Someone called {clean} is already at the table; pick another name.")
    when = _now(now)
    _check_join_caps(game, joiner_key, when)
    position = max((s.position for s in seats), default=-1) + 1
    try:
        with transaction.atomic():
            seat = Seat.objects.create(game=game, name=clean, position=position)
    except IntegrityError:
        raise ServiceError(f"Someone called {clean} just sat down; pick another name.") from None
    SeatTaken.objects.create(game=game, client_key=joiner_key, taken_at=when)
    announce_on_commit(game.code, "seats", count=len(seats) + 1)
    return seat


def _require_host(seat: Seat) -> Game:
    if not seat.is_host:
        raise NotAllowedError("Only the host can do that.")
    return _locked_game(seat.game_id)


@transaction.atomic
def seat_remove(*, host: Seat, seat_id: int) -> None:
    """The host takes a player out of the lobby (not themselves)."""
    game = _require_host(host)
    _expect_phase(game, Phase.LOBBY)
    seat = game.seats.filter(pk=seat_id).one_or_none()
    if seat is None:
        raise ServiceError("That player is not at this table.")
    if seat.pk == host.pk:
        raise ServiceError("The host cannot remove themselves.")
    seat.delete()
    announce_on_commit(game.code, "seats")


@transaction.atomic
def table_lock_set(*, host: Seat, locked: bool) -> None:
    """The host locks the lobby against new players (or unlocks it): with the table locked,
    the invite link seats nobody; the seated keep their seats and rejoin links."""
    game = _require_host(host)
    _expect_phase(game, Phase.LOBBY)
    Game.objects.filter(pk=game.pk).update(joins_locked=bool(locked))
    announce_on_commit(game.code, "lock", locked=bool(locked))


def parse_deck_counts(ruleset: Ruleset, counts: Mapping[str, object]) -> list[Role]:
    """The deck from role name → count, checked against the ruleset's per-role limits."""
    limits = engine.role_limits(ruleset)
    deck: list[Role] = []
    for name, raw in counts.items():
        try:
            role = Role(name)
        except ValueError:
            raise ServiceError(f"{name!r} is not a role of this game.") from None
        try:
            count = int(raw)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise ServiceError(
                f"The number of {role.title} cards must be a whole number."
            ) from None
        if count < 0 or count > limits.get(role, 0):
            limit = limits.get(role, 0)
            if limit == 0:
                raise ServiceError(f"The {role.title} is not used in the {ruleset} rules.")
            raise ServiceError(f"The deck may hold 0 to {limit} {role.title} cards.")
        deck.extend([role] * count)
    return deck


@transaction.atomic
def deck_update(*, host: Seat, counts: Mapping[str, object] | None) -> list[Role]:
    """The host sets the cards; None goes back to the suggested deck for the table size."""
    game = _require_host(host)
    _expect_phase(game, Phase.LOBBY)
    deck = [] if counts is None else parse_deck_counts(Ruleset(game.ruleset), counts)
    game.deck = [r.value for r in deck]
    game.save(update_fields=["deck"])
    announce_on_commit(game.code, "deck")
    return deck


def current_deck(game: Game, player_count: int) -> list[Role]:
    """The host's cards, or the suggested deck for this many players if none were chosen."""
    if game.deck:
        return [Role(r) for r in game.deck]
    count = min(max(player_count, engine.MIN_PLAYERS), engine.max_players(Ruleset(game.ruleset)))
    return engine.default_deck(Ruleset(game.ruleset), count)


@transaction.atomic
def game_start(*, host: Seat, now: datetime | None = None) -> Game:
    """Deal the cards (secure shuffle) and begin the night."""
    game = _require_host(host)
    _expect_phase(game, Phase.LOBBY)
    seats = list(game.seats.order_by("position"))
    ruleset = Ruleset(game.ruleset)
    try:
        deal = engine.deal_cards(ruleset, [s.name for s in seats], current_deck(game, len(seats)))
    except RuleError as error:
        raise ServiceError(str(error)) from None
    for seat in seats:
        seat.start_role = deal.cards[seat.name].value
    _update_each(seats, "start_role")
    CentreCard.objects.bulk_create(
        CentreCard(game=game, position=p, start_role=deal.cards[p].value) for p in CENTRE_POSITIONS
    )
    ring = [s.pk for s in seats]
    secrets.SystemRandom().shuffle(ring)
    when = _now(now)
    deadline = when + timedelta(seconds=game.night_seconds) if game.night_seconds else None
    _move_phase(
        game,
        Phase.LOBBY,
        Phase.NIGHT,
        deck=[deal.cards[p].value for p in deal.positions],
        started_at=when,
        deadline=deadline,
        vote_ring=ring,
    )
    _moderator_says(
        game, "The cards are dealt and night falls. Read your role and send your action."
    )
    announce_on_commit(game.code, "phase", phase=Phase.NIGHT)
    return game


# --- Night ------------------------------------------------------------------------------------


def deal_of(game: Game, seats: Iterable[Seat], centre: Iterable[CentreCard]) -> engine.Deal:
    """Rebuild the engine's Deal from the stored start cards."""
    seats = sorted(seats, key=lambda s: s.position)
    cards: dict[str, Role] = {s.name: Role(s.start_role) for s in seats}
    cards.update({c.position: Role(c.start_role) for c in centre})
    return engine.Deal(
        ruleset=Ruleset(game.ruleset), players=tuple(s.name for s in seats), cards=cards
    )


def _transactions_lock_the_database() -> bool:
    """True on SQLite with IMMEDIATE transactions (the embedded default, see settings): every
    transaction starts by taking the one write lock of the whole database."""
    options = connection.settings_dict.get("OPTIONS", {})
    return connection.vendor == "sqlite" and options.get("transaction_mode") == "IMMEDIATE"


def _current_seat(seat: Seat) -> Seat:
    """The seat as stored now, with its game locked as `_locked_game` does; NotAllowedError if
    it is no longer at its table.

    The seat is read after the lock is taken, so a removal that committed while this waited
    for the lock is seen (on PostgreSQL a row read in the same statement as the lock would
    come from before the wait). Must run inside a transaction.
    """
    if _transactions_lock_the_database():
        # Nothing else can write until this transaction ends: the seat and its game are read
        # as they are, with no locking read first.
        current = SEAT_AT_GAME.one(seat.pk, seat.game_id)
        game = GAME_BY_ID.one(seat.game_id) if current is not None else None
        if current is None or game is None:
            raise NotAllowedError("You are not seated in this game.")
        return of_game([current], game)[0]
    try:
        game = _locked_game(seat.game_id)
    except Game.DoesNotExist:  # deleted by staff while the page was open
        raise NotAllowedError("You are not seated in this game.") from None
    current = SEAT_AT_GAME.one(seat.pk, game.pk)
    if current is None:
        raise NotAllowedError("You are not seated in this game.")
    return of_game([current], game)[0]


def _seat_in_game(seat: Seat) -> Game:
    """The seat's game, locked, if the seat is still at its table (see `_current_seat`)."""
    return _current_seat(seat).game


def _update_each(rows: Sequence[Seat] | Sequence[CentreCard], *fields: str) -> None:
    """Store `fields` of each of a table's rows: one UPDATE statement, run once per row.

    For a table's dozen rows this is far cheaper than `bulk_update` (one CASE WHEN statement
    that takes longer to build than the statements it saves) or an ORM update per row (each
    built anew); games/hot_queries.py, docs/benchmarks.md.
    """
    hot_queries.update_rows(rows, fields)


def _load_table(game: Game) -> tuple[list[Seat], list[CentreCard], engine.Deal]:
    seats = of_game(SEATS_OF_GAME(game.pk), game)
    centre = of_game(CENTRE_OF_GAME(game.pk), game)
    return seats, centre, deal_of(game, seats, centre)


def _named_targets(targets: Sequence[str | int], seats: Sequence[Seat]) -> list[str]:
    """The targets as the engine names them. A seat id (what the pages post: a player's name
    is only ever shown) becomes that seat's name, if the seat is at this table; a string is
    taken as the engine's own word, a name or a centre position (the tests and the deadline
    send those)."""
    by_id = {s.pk: s.name for s in seats}
    named: list[str] = []
    for target in targets:
        if isinstance(target, bool) or not isinstance(target, int | str):
            raise ServiceError("Choose your targets from the list.")
        if isinstance(target, int):
            if target not in by_id:
                raise ServiceError("Choose your targets from the list on the page.")
            target = by_id[target]
        named.append(target)
    return named


@transaction.atomic
def doppelganger_copy(*, seat: Seat, target: str | int, now: datetime | None = None) -> Role:
    """The Doppelganger's first step: copy another player's card (rules/002 s5). `target`
    names the player or, from a page, is their seat id.

    The copied card is shown to the Doppelganger at once (it is the first thing that happens in
    the night, so nothing can have changed it). If the copied role acts no further, the action is
    complete; otherwise the copied role's own action is sent next.
    """
    game = _seat_in_game(seat)
    _expect_phase(game, Phase.NIGHT)
    seats, _, deal = _load_table(game)
    me = next(s for s in seats if s.pk == seat.pk)
    if deal.cards[me.name] is not Role.DOPPELGANGER:
        raise NotAllowedError("Only the Doppelganger copies another card.")
    if ACTION_OF_SEAT.one(me.pk) is not None:
        raise ServiceError("You already chose whom to copy; it is final.")
    (target,) = _named_targets([target], seats)
    try:
        copied = engine.validate_copy(deal, me.name, target)
    except RuleError as error:
        raise ServiceError(_for_player(error, me.name)) from None
    complete = engine.copied_action_rule(copied).requirement is engine.Requirement.NONE
    NightAction.objects.create(game=game, seat=me, targets=[target], complete=complete)
    if complete:
        _after_action(game, seats, now)
    return copied


@transaction.atomic
def night_action_submit(
    *, seat: Seat, targets: list[str | int], now: datetime | None = None
) -> None:
    """Send a seat's night action (final). `targets` [] means "no action"; each target names a
    player or a centre position or, from a page, is a player's seat id.

    For a Doppelganger that already copied, `targets` are the copied role's own targets.
    When the last action arrives, the night is resolved in the same transaction.
    """
    game = _seat_in_game(seat)
    _expect_phase(game, Phase.NIGHT)
    seats, _, deal = _load_table(game)
    me = next(s for s in seats if s.pk == seat.pk)
    existing = ACTION_OF_SEAT.one(me.pk)
    if existing is not None and existing.complete:
        raise ServiceError("You already sent your night action; it is final.")
    if not isinstance(targets, list):
        raise ServiceError("Choose your targets from the list.")
    named = _named_targets(targets, seats)
    if deal.cards[me.name] is Role.DOPPELGANGER and existing is None and named:
        # The copy comes first, on its own: checking a whole action at once would answer with
        # the rule of whatever card it names, a peek at any card before choosing.
        raise ServiceError("Choose whom to copy first; then send the copied role's action.")
    full = (existing.targets if existing else []) + named
    try:
        checked = engine.validate_action(deal, me.name, full)
    except RuleError as error:
        raise ServiceError(_for_player(error, me.name)) from None
    if existing is None:
        NightAction.objects.create(game=game, seat=me, targets=list(checked), complete=True)
    else:
        existing.targets = list(checked)
        existing.complete = True
        existing.save(update_fields=["targets", "complete", "sent_at"])
    _after_action(game, seats, now)


def _for_player(error: RuleError, name: str) -> str:
    """Engine messages name the player ("Ann: ..."); on Ann's own page, drop the name."""
    text = str(error)
    prefix = f"{name}: "
    return text[len(prefix) :] if text.startswith(prefix) else text


def _after_action(game: Game, seats: list[Seat], now: datetime | None) -> None:
    done = hot_queries.count_rows(NightAction, game=game.pk, complete=True)
    if done >= len(seats):
        _resolve_night(game, now)
    else:
        announce_on_commit(game.code, "night-progress", sent=done, total=len(seats))


def _fill_missing_actions(game: Game, seats: list[Seat], deal: engine.Deal) -> None:
    """Night time limit passed: optional actions left out count as none; a drunk (or a
    Doppelganger who copied the drunk) is given a random centre card, since the drunk must act
    (rules/000 s4). See docs/rules.md."""
    rng = secrets.SystemRandom()
    actions = {a.seat_id: a for a in NightAction.objects.filter(game=game)}
    for seat in seats:
        action = actions.get(seat.pk)
        if action is not None and action.complete:
            continue
        sent = action.targets if action else []
        rule = engine.action_rule(deal, seat.name)
        if sent and rule.role is Role.DOPPELGANGER:
            rule = engine.copied_action_rule(deal.cards[sent[0]])
        extra: list[str] = []
        if rule.requirement is engine.Requirement.MANDATORY:
            extra = [rng.choice(CENTRE_POSITIONS)]
        if action is None:
            NightAction.objects.create(
                game=game, seat=seat, targets=extra, complete=True, by_deadline=True
            )
        else:
            action.targets = sent + extra
            action.complete = True
            action.by_deadline = True
            action.save(update_fields=["targets", "complete", "by_deadline", "sent_at"])


def _resolve_night(game: Game, now: datetime | None) -> engine.NightResult:
    """Play the night through the engine, store the cards at dawn and begin the day."""
    started = time.perf_counter()
    seats, centre, deal = _load_table(game)
    names = {s.pk: s.name for s in seats}
    actions = {names[a.seat_id]: a.targets for a in ACTIONS_OF_GAME(game.pk)}
    night = engine.resolve_night(deal, actions)
    when = _now(now)
    _move_phase(
        game,
        Phase.NIGHT,
        Phase.DAY,
        copied_role=night.copied.value if night.copied else "",
        day_started_at=when,
        deadline=when + timedelta(seconds=game.day_seconds),
    )
    for seat in seats:
        seat.final_role = night.final[seat.name].value
        seat.ready_to_vote = False
    _update_each(seats, "final_role", "ready_to_vote")
    for card in centre:
        card.final_role = night.final[card.position].value
    _update_each(centre, "final_role")
    minutes = game.day_seconds // 60
    _moderator_says(
        game,
        f"Dawn: the night is over and the chat is open for {minutes} minute"
        f"{'' if minutes == 1 else 's'}. Talk it over.",
    )
    announce_on_commit(game.code, "phase", phase=Phase.DAY)
    timing_log.info("resolve_night %s %.3f", game.code, (time.perf_counter() - started) * 1000)
    return night


# --- Day --------------------------------------------------------------------------------------


def _start_voting(game: Game, now: datetime | None) -> None:
    when = _now(now)
    deadline = when + timedelta(seconds=game.vote_seconds) if game.vote_seconds else None
    _move_phase(game, Phase.DAY, Phase.VOTING, deadline=deadline)
    _moderator_says(game, "The day is over and the chat is closed. Cast your secret vote.")
    announce_on_commit(game.code, "phase", phase=Phase.VOTING)


@transaction.atomic
def day_end(*, host: Seat, now: datetime | None = None) -> None:
    """The host ends the day early; voting begins."""
    game = _require_host(host)
    _expect_phase(game, Phase.DAY)
    _start_voting(game, now)


@transaction.atomic
def seat_ready_set(*, seat: Seat, ready: bool, now: datetime | None = None) -> Taken:
    """A player marks (or unmarks) "ready to vote"; when everyone is ready, the day ends."""
    current = _current_seat(seat)
    game = current.game
    _expect_phase(game, Phase.DAY)
    current.ready_to_vote = bool(ready)
    _update_each([current], "ready_to_vote")
    total, ready_count = hot_queries.count_rows_and_flagged(Seat, "ready_to_vote", game=game.pk)
    if ready_count >= total:
        _start_voting(game, now)
    else:
        announce_on_commit(game.code, "ready", ready=ready_count, total=total)
    return Taken(game, current)


# --- Voting and reveal ------------------------------------------------------------------------


@transaction.atomic
def vote_cast(*, seat: Seat, target_id: int, now: datetime | None = None) -> Taken:
    """A secret, final vote for another player (rules/000 s3d); the last vote brings the reveal."""
    current = _current_seat(seat)
    game = current.game
    _expect_phase(game, Phase.VOTING)
    if hot_queries.count_rows(Vote, voter=seat.pk):
        raise ServiceError("You already voted; votes are final.")
    # An id the database can hold (SQLite's integers are 64-bit); any other finds no seat.
    valid_id = isinstance(target_id, int) and 0 < target_id < 2**63
    target = SEAT_AT_GAME.one(target_id, game.pk) if valid_id else None
    if target is None:
        raise ServiceError("Vote for one of the players at this table.")
    if target.pk == seat.pk:
        raise ServiceError("You cannot vote for yourself.")
    try:
        with transaction.atomic():
            hot_queries.vote_insert(
                game_id=game.pk, voter_id=seat.pk, target_id=target.pk, cast_at=timezone.now()
            )
    except IntegrityError:
        raise ServiceError("You already voted; votes are final.") from None
    cast = hot_queries.count_rows(Vote, game=game.pk)
    total = hot_queries.count_rows(Seat, game=game.pk)
    if cast >= total:
        _reveal(game, now)
    else:
        announce_on_commit(game.code, "vote-progress", cast=cast, total=total)
    return Taken(game, current, voted_for=target.name)


def _reveal(game: Game, now: datetime | None) -> None:
    """Tally the votes through the engine and store the outcome for the reveal page."""
    started = time.perf_counter()
    seats, _, deal = _load_table(game)
    names = {s.pk: s.name for s in seats}
    actions = {names[a.seat_id]: a.targets for a in ACTIONS_OF_GAME(game.pk)}
    night = engine.resolve_night(deal, actions)
    votes: dict[str, str | None] = {s.name: None for s in seats}
    for vote in VOTES_OF_GAME(game.pk):
        votes[names[vote.voter_id]] = names[vote.target_id] if vote.target_id else None
    result = engine.finish_game(night, votes)
    assert result.vote is not None and result.outcome is not None
    _move_phase(
        game,
        Phase.VOTING,
        Phase.REVEAL,
        deadline=None,
        finished_at=_now(now),
        result={
            "counts": dict(result.vote.counts),
            "lynched": list(result.vote.lynched),
            "hunted": list(result.vote.hunted),
            "dead": list(result.vote.dead),
            "vote_reason": result.vote.reason,
            "winners": list(result.outcome.winners),
            "teams": sorted(t.value for t in result.outcome.teams),
            "reason": result.outcome.reason,
        },
    )
    _moderator_says(game, "Every vote is in. The cards are turned over: see the reveal.")
    announce_on_commit(game.code, "phase", phase=Phase.REVEAL)
    timing_log.info("tally_votes %s %.3f", game.code, (time.perf_counter() - started) * 1000)


# --- Deadlines --------------------------------------------------------------------------------


@transaction.atomic
def game_advance_if_due(*, game_id: int, now: datetime | None = None) -> bool:
    """If the game's deadline has passed, move it on exactly once. Returns True if it moved.

    Safe to call from any request, consumer or ticker, in any number of processes: the game row
    is locked and the phase and deadline are re-read inside the transaction.
    """
    when = _now(now)
    game = _locked_game(game_id)
    if game.deadline is None or game.deadline > when:
        return False
    if game.phase == Phase.NIGHT:
        seats, _, deal = _load_table(game)
        _fill_missing_actions(game, seats, deal)
        _resolve_night(game, when)
    elif game.phase == Phase.DAY:
        _start_voting(game, when)
    elif game.phase == Phase.VOTING:
        voted = set(Vote.objects.filter(game=game).values_list("voter_id", flat=True))
        Vote.objects.bulk_create(
            Vote(game=game, voter=s, target=None, by_deadline=True)
            for s in game.seats.all()
            if s.pk not in voted
        )
        _reveal(game, when)
    else:
        return False
    return True


def game_caught_up(game: Game) -> Game:
    """`game`, moved on first and read again if its deadline has passed: a page load or a push
    notices a passed deadline as well as the ticker does."""
    if game.deadline is not None and game.deadline <= timezone.now():
        game_advance_if_due(game_id=game.pk)
        game.refresh_from_db()
    return game


def advance_due_games(*, now: datetime | None = None) -> list[str]:
    """Move on every game whose deadline has passed; returns their codes. Used by the ticker."""
    when = _now(now)
    due = Game.objects.filter(
        deadline__lte=when, phase__in=[Phase.NIGHT, Phase.DAY, Phase.VOTING]
    ).values_list("pk", "code")
    moved = []
    for game_id, code in due:
        if game_advance_if_due(game_id=game_id, now=when):
            moved.append(code)
    return moved


# --- Chat -------------------------------------------------------------------------------------

CHAT_MAX_LENGTH = 500
# Per seat: at most CHAT_BURST messages in any CHAT_WINDOW seconds. Counted from the stored
# messages, so the limit holds across reconnects and server processes.
CHAT_BURST = 5
CHAT_WINDOW = 10
CHAT_PHASES = (Phase.LOBBY, Phase.DAY, Phase.REVEAL)  # rules/000 s5b


def private_word_runs(role: RoleMessage, report: Iterable[str] = ()) -> frozenset[tuple[str, ...]]:
    """The word runs of what the moderator told a seat privately: its role message and, after
    the night, its night report (rules/000 s5c)."""
    return word_runs([*role.paragraphs, *report])


def seat_private_runs(seat: Seat) -> frozenset[tuple[str, ...]]:
    """The word runs of everything the moderator told `seat` privately: its role message and,
    after the night, its night report. Used to refuse quoting (rules/000 s5c)."""
    game = seat.game
    if game.phase in (Phase.LOBBY, Phase.CANCELLED, Phase.REVEAL) or not seat.start_role:
        return frozenset()
    seats, _, deal = _load_table(game)
    role = role_message(deal, seat.name)
    if game.phase == Phase.NIGHT:
        return private_word_runs(role)
    names = {s.pk: s.name for s in seats}
    actions = {names[a.seat_id]: a.targets for a in ACTIONS_OF_GAME(game.pk)}
    return private_word_runs(role, night_report(engine.resolve_night(deal, actions), seat.name))


def clean_chat_text(text: object) -> str:
    """The message as it will be stored: a string, control characters removed, trimmed."""
    if not isinstance(text, str):
        raise ServiceError("A chat message must be text.")
    # Control characters and invisible format characters (zero-width, bidi overrides, soft
    # hyphens) are dropped: they only serve to disguise a message. Newlines and tabs stay.
    text = "".join(
        c
        for c in unicodedata.normalize("NFC", text)
        if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co")
    ).strip()
    if not text:
        raise ServiceError("Type a message first.")
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(f"Messages are limited to {CHAT_MAX_LENGTH} characters.")
    return text


@transaction.atomic
def chat_post(
    *,
    seat: Seat,
    text: object,
    runs_cache: dict[str, frozenset[tuple[str, ...]]] | None = None,
    now: datetime | None = None,
) -> ChatMessage:
    """Store a chat line and deliver it to every page of the game after commit.

    Refused (ServiceError, nothing stored) during the night and the vote (rules/000 s5b), when
    the seat is sending too fast, and when it quotes the seat's private messages (s5c).
    `runs_cache` (phase -> the seat's private word runs) lets a long-lived caller, such as a
    websocket consumer, avoid recomputing them for every message (it may fill it from what it
    showed the seat: `private_word_runs`); it is read and filled for the phase the game is in
    under the lock, so a message racing a phase change is checked against the right texts.
    """
    clean = clean_chat_text(text)
    # The stored seat, not the caller's copy: a consumer keeps its Seat from connect, when the
    # cards may not have been dealt yet.
    seat = _current_seat(seat)
    phase = seat.game.phase
    if phase not in CHAT_PHASES:
        if phase == Phase.CANCELLED:
            raise WrongPhaseError("This game was cancelled; its chat is closed.")
        raise WrongPhaseError("The chat is closed during the night and the vote.")
    when = _now(now)
    recent = hot_queries.chat_lines_since(
        seat_id=seat.pk, since=when - timedelta(seconds=CHAT_WINDOW)
    )
    if recent >= CHAT_BURST:
        raise ServiceError(f"Slow down: at most {CHAT_BURST} messages every {CHAT_WINDOW} seconds.")
    if phase == Phase.DAY and can_quote(clean):
        runs = runs_cache.get(phase) if runs_cache is not None else None
        if runs is None:
            runs = seat_private_runs(seat)
            if runs_cache is not None:
                runs_cache[phase] = runs
        if quotes(clean, runs):
            raise ServiceError(
                "That repeats the moderator's private message word for word, which the rules"
                " forbid (rules, section 5c). Say it in your own words."
            )
    message = hot_queries.chat_line_insert(
        game_id=seat.game_id,
        seat_id=seat.pk,
        author=seat.name,
        text=clean,
        phase=phase,
        sent_at=when,
    )
    send_chat_on_commit(
        seat.game.code,
        {
            "id": message.pk,
            "seat_id": seat.pk,
            "name": seat.name,
            "note": False,
            "text": clean,
            "sent_at": message.sent_at.isoformat(),
        },
    )
    return message


# --- Host and staff ---------------------------------------------------------------------------


@transaction.atomic
def game_cancel(*, game: Game) -> None:
    """Stop a game that has not finished: the host (from the lobby or during play, say when a
    player has left for good) or staff in the admin. Nobody's roles are revealed."""
    game = _locked_game(game.pk)
    if game.phase in (Phase.REVEAL, Phase.CANCELLED):
        raise WrongPhaseError("This game is already over.")
    _move_phase(game, game.phase, Phase.CANCELLED, deadline=None, finished_at=timezone.now())
    announce_on_commit(game.code, "phase", phase=Phase.CANCELLED)


@transaction.atomic
def game_end_day_by_staff(*, game: Game, now: datetime | None = None) -> None:
    """Staff end the day from the admin, through the same phase move as the host."""
    game = _locked_game(game.pk)
    _expect_phase(game, Phase.DAY)
    _start_voting(game, now)


@transaction.atomic
def game_secrets_open(*, game: Game, user: object) -> None:
    """Record that a staff user opened a running game's hidden roles in the admin."""
    Game.objects.filter(pk=game.pk).update(secrets_opened_at=timezone.now(), secrets_opened_by=user)


@transaction.atomic
def game_play_again(*, seat: Seat) -> Seat:
    """After the reveal, seat the same players in a new lobby with the same deck.

    Whoever asks first creates it; everyone else is sent to the same new game. Returns the
    asking player's seat in the new game.
    """
    game = _seat_in_game(seat)
    _expect_phase(game, Phase.REVEAL)
    follow = Game.objects.filter(previous_game=game).one_or_none()
    if follow is None:
        seats = list(game.seats.order_by("position"))
        host = next((s for s in seats if s.is_host), seats[0])
        follow = Game.objects.create(
            ruleset=game.ruleset,
            deck=game.deck,
            day_seconds=game.day_seconds,
            night_seconds=game.night_seconds,
            vote_seconds=game.vote_seconds,
            require_rules_phrase=False,  # they read the rules for the last game
            previous_game=game,
        )
        Seat.objects.bulk_create(
            Seat(game=follow, name=s.name, position=i, is_host=s.pk == host.pk, previous_seat=s)
            for i, s in enumerate(seats)
        )
        announce_on_commit(game.code, "again", next_code=follow.code)
    mine = Seat.objects.filter(game=follow, previous_seat_id=seat.pk).one_or_none()
    if mine is None:
        raise NotAllowedError(
            "The host took you off the new table. Ask them for the invite link to join again."
        )
    return mine


__all__ = [
    "RULES_PHRASE",
    "NotAllowedError",
    "ServiceError",
    "WrongPhaseError",
    "advance_due_games",
    "chat_post",
    "current_deck",
    "day_end",
    "deal_of",
    "deck_update",
    "doppelganger_copy",
    "game_advance_if_due",
    "game_cancel",
    "game_caught_up",
    "game_create",
    "game_end_day_by_staff",
    "game_play_again",
    "game_secrets_open",
    "game_start",
    "night_action_submit",
    "rules_phrase_matches",
    "seat_join",
    "seat_ready_set",
    "seat_remove",
    "table_lock_set",
    "vote_cast",
]
