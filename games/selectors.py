"""What one seat may see now. Every page, fragment and websocket message for a seat is built
from `seat_view`; nothing else in the web layer reads roles.

Until the reveal a seat sees: the public table (names, host, phase, deadline, how many actions
and votes are in), its own role message and action, its own night report, and its own vote.
At the reveal everything becomes public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations

from django.utils import timezone

from games import engine
from games.engine import CENTRE_POSITIONS, Role, Ruleset
from games.engine.messages import RoleMessage, night_report, role_message
from games.models import CentreCard, ChatMessage, Game, NightAction, Phase, Seat, Vote
from games.paths import GamePaths, game_paths
from games.prepared import (
    ACTION_OF_SEAT,
    ACTIONS_OF_GAME,
    CENTRE_OF_GAME,
    SEATS_OF_GAME,
    VOTES_OF_GAME,
    PreparedRead,
    of_game,
)
from games.services import CHAT_PHASES, RULES_PHRASE, Taken, current_deck, deal_of

# Lines of chat a page or a (re)connecting socket receives: a 30-minute day of a lively table.
CHAT_HISTORY = 120
# The newest CHAT_HISTORY lines of a game after the line `after` (0: from the start), newest
# first.
RECENT_CHAT = PreparedRead(
    lambda game_id, after: (
        ChatMessage.objects.filter(game_id=game_id)
        .filter(id__gt=after)
        .order_by("-id")[:CHAT_HISTORY]
    ),
    1,
    2,
)


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as everyone sees them: public facts only."""

    id: int
    name: str
    is_host: bool
    is_me: bool


@dataclass(frozen=True, slots=True)
class DeckRow:
    """One role's counter in the lobby's deck picker."""

    role: Role
    count: int
    limit: int
    team: str


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a night-action form: `value` is posted, `label` is shown."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class ActionForm:
    """The night-action form for this seat. `kind`: "choice" (one radio list), "pair" (two
    selects of other players), "copy" (the Doppelganger's first step) or "none" (acknowledge).
    """

    kind: str
    prompt: str
    choices: tuple[Choice, ...] = ()
    allow_none: bool = True
    copied: Role | None = None


@dataclass(frozen=True, slots=True)
class RevealRow:
    name: str
    start_role: Role
    final_role: Role
    plays_as: Role
    voted_for: str | None
    votes_received: int
    died: bool
    won: bool


@dataclass(frozen=True, slots=True)
class Reveal:
    rows: tuple[RevealRow, ...]
    centre: tuple[tuple[str, Role, Role], ...]
    copied: Role | None
    log: tuple[engine.NightStep, ...]
    vote_reason: str
    reason: str
    teams: tuple[str, ...]
    dead: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A line of the chat. `is_note`: the app's own note (a phase change), which the page
    shows in a form no player's line can take, whatever its name or text."""

    id: int
    name: str
    text: str
    sent_at: datetime
    is_me: bool
    is_note: bool = False


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything seat `me` may know about its game at this moment."""

    game: Game
    me: Seat
    players: tuple[PlayerRow, ...]
    now: datetime
    deck_rows: tuple[DeckRow, ...] = ()
    deck_total: int = 0
    deck_needed: int = 0
    deck_problem: str | None = None
    max_players: int = 0
    role: RoleMessage | None = None
    action_form: ActionForm | None = None
    action_sent: bool = False
    actions_in: int = 0
    night_report: tuple[str, ...] = ()
    ring: tuple[PlayerRow, ...] = ()
    vote_up: PlayerRow | None = None
    vote_down: PlayerRow | None = None
    my_vote: str | None = None
    has_voted: bool = False
    votes_in: int = 0
    ready_count: int = 0
    reveal: Reveal | None = None
    next_game_code: str | None = None
    chat: tuple[ChatLine, ...] = field(default=())

    @property
    def phase(self) -> str:
        return self.game.phase

    @property
    def paths(self) -> GamePaths:
        return game_paths(self.game.code)

    @property
    def is_host(self) -> bool:
        return self.me.is_host

    @property
    def seconds_left(self) -> int | None:
        if self.game.deadline is None:
            return None
        return max(0, int((self.game.deadline - self.now).total_seconds()))

    @property
    def chat_open(self) -> bool:
        """rules/000 s5b: chat before the game, in the day and after the reveal only."""
        return self.game.phase in CHAT_PHASES

    @property
    def rules_phrase(self) -> str:
        return RULES_PHRASE


def _where(position: str) -> str:
    return f"the {position} card" if position in CENTRE_POSITIONS else position


def _action_form(
    deal: engine.Deal, me: str, action: NightAction | None, seat_ids: Mapping[str, int]
) -> tuple[ActionForm | None, bool]:
    """The form for this seat's start role, and whether the action is already sent.

    A player is offered by seat id (`seat_ids`: name -> id), never by name: a name is only
    shown, so no name can be read back as a centre card or as two targets (seat_forms maps the
    ids back to names). Centre cards are offered by their fixed positions ("left", and
    "left,middle" for two)."""
    if action is not None and action.complete:
        return None, True
    others = [p for p in deal.players if p != me]
    rule = engine.action_rule(deal, me)
    copied: Role | None = None
    if rule.role is Role.DOPPELGANGER:
        if action is None:
            return (
                ActionForm(
                    kind="copy",
                    prompt="Choose the player whose card you copy.",
                    choices=tuple(Choice(str(seat_ids[p]), p) for p in others),
                ),
                False,
            )
        copied = deal.cards[action.targets[0]]
        rule = engine.copied_action_rule(copied)
    if rule.requirement is engine.Requirement.NONE:
        return ActionForm(kind="none", prompt=rule.description, copied=copied), False
    choices: list[Choice] = []
    pair = False
    for shape in rule.shapes:
        if shape.players == 1:
            choices += [Choice(str(seat_ids[p]), f"{p}'s card") for p in others]
        elif shape.players == 2:
            pair = True
        elif shape.centre == 1:
            choices += [Choice(c, f"The {c} centre card") for c in CENTRE_POSITIONS]
        elif shape.centre == 2:
            choices += [
                Choice(f"{a},{b}", f"The {a} and {b} centre cards")
                for a, b in combinations(CENTRE_POSITIONS, 2)
            ]
    allow_none = rule.requirement is not engine.Requirement.MANDATORY
    if pair:
        return (
            ActionForm(
                kind="pair",
                prompt=rule.description,
                choices=tuple(Choice(str(seat_ids[p]), p) for p in others),
                allow_none=allow_none,
                copied=copied,
            ),
            False,
        )
    form = ActionForm(
        kind="choice",
        prompt=rule.description,
        choices=tuple(choices),
        allow_none=allow_none,
        copied=copied,
    )
    return form, False


def _lobby_fields(game: Game, seat_count: int) -> dict[str, object]:
    """The lobby's deck picker and table size (`SeatView` and `TableStatus` share the names):
    one row per role with its count and limit, the deck's size against what the table needs,
    and why the deck cannot start the game yet, if it cannot."""
    ruleset = Ruleset(game.ruleset)
    deck = current_deck(game, seat_count)
    counts = {r: deck.count(r) for r in engine.role_limits(ruleset)}
    rows = tuple(
        DeckRow(role=r, count=counts[r], limit=limit, team=r.team.value)
        for r, limit in engine.role_limits(ruleset).items()
    )
    problem = None
    if seat_count < engine.MIN_PLAYERS:
        problem = f"At least {engine.MIN_PLAYERS} players are needed to start."
    else:
        try:
            engine.validate_deck(ruleset, deck, seat_count)
        except engine.RuleError as error:
            problem = str(error)
    return {
        "deck_rows": rows,
        "deck_total": len(deck),
        "deck_needed": seat_count + 3,
        "deck_problem": problem,
        "max_players": engine.max_players(ruleset),
    }


@dataclass(frozen=True, slots=True)
class TableStatus:
    """The public state of a table, the same for every seat: what the status fragment shows.

    Built once per change and shared by every page of the game that a process serves
    (games/consumers.py); `status_view` adds the one seat's point of view.
    """

    game: Game
    seats: tuple[tuple[int, str, bool], ...]  # (id, name, is_host) in seat order
    actions_in: int = 0
    votes_in: int = 0
    ready_count: int = 0
    deck_rows: tuple[DeckRow, ...] = ()
    deck_total: int = 0
    deck_needed: int = 0
    deck_problem: str | None = None
    max_players: int = 0


def table_status(game: Game, table: TableRead | None = None) -> TableStatus:
    """The public status of `game`: one or two small reads whatever the table size, or none
    when `table` (a `read_table` of `game`, which has every row the counts come from) is
    given. The reads are prepared (games/prepared.py): a status is read after every action,
    "ready" and vote, and compiling their queries was most of its cost."""
    rows = table.seats if table is not None else SEATS_OF_GAME(game.pk)
    seats = tuple((s.pk, s.name, s.is_host) for s in rows)
    fields: dict[str, object] = {"game": game, "seats": seats}
    if game.phase == Phase.LOBBY:
        fields.update(_lobby_fields(game, len(seats)))
    elif game.phase == Phase.NIGHT:
        actions = table.actions if table is not None else ACTIONS_OF_GAME(game.pk)
        fields["actions_in"] = sum(1 for a in actions if a.complete)
    elif game.phase == Phase.DAY:
        fields["ready_count"] = sum(1 for s in rows if s.ready_to_vote)
    elif game.phase == Phase.VOTING:
        votes = table.votes if table is not None else VOTES_OF_GAME(game.pk)
        fields["votes_in"] = len(votes)
    return TableStatus(**fields)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class StatusView:
    """One seat's view of the public status (who is "you", host controls): the attributes the
    status fragment reads, named as in `SeatView`."""

    table: TableStatus
    me_id: int
    is_host: bool
    now: datetime

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def phase(self) -> str:
        return self.table.game.phase

    @property
    def paths(self) -> GamePaths:
        return game_paths(self.table.game.code)

    @property
    def players(self) -> tuple[PlayerRow, ...]:
        return tuple(PlayerRow(i, n, h, i == self.me_id) for i, n, h in self.table.seats)

    @property
    def seconds_left(self) -> int | None:
        deadline = self.table.game.deadline
        return None if deadline is None else max(0, int((deadline - self.now).total_seconds()))

    def __getattr__(self, name: str) -> object:
        # actions_in, votes_in, ready_count, deck_* and max_players come from the table.
        return getattr(self.table, name)


def status_view(
    table: TableStatus, *, seat_id: int, is_host: bool, now: datetime | None = None
) -> StatusView:
    """What the status fragment shows seat `seat_id`: public facts only."""
    return StatusView(table=table, me_id=seat_id, is_host=is_host, now=now or timezone.now())


@dataclass(frozen=True, slots=True)
class TableRead:
    """Every row of one table that a seat's view is built from, read in one go.

    It holds secrets (every card and action): it is an input to `seat_view`, never rendered or
    sent as it is. A websocket consumer shares one read per change among the pages of a game
    (games/consumers.py), so a phase change costs one read, not one per seat.
    """

    game: Game
    seats: tuple[Seat, ...]
    centre: tuple[CentreCard, ...] = ()
    actions: tuple[NightAction, ...] = ()
    votes: tuple[Vote, ...] = ()
    next_game_code: str | None = None
    # The night as the engine resolves it from these rows: the same for every seat's view, so
    # the views of one read (a phase change renders all of a table's) resolve it once.
    _night: list[engine.NightResult] = field(default_factory=list, compare=False, repr=False)

    def night(self, deal: engine.Deal, actions: Mapping[str, Sequence[str]]) -> engine.NightResult:
        """`engine.resolve_night(deal, actions)`, resolved once per read; `deal` and `actions`
        must be those of this read's rows (as `seat_view` builds them)."""
        if not self._night:
            self._night.append(engine.resolve_night(deal, actions))
        return self._night[0]


def read_table(game: Game) -> TableRead:
    """Read what `seat_view` needs of `game`: a fixed number of queries, whatever its size."""
    seats = tuple(of_game(SEATS_OF_GAME(game.pk), game))
    if game.phase == Phase.LOBBY or not any(s.start_role for s in seats):
        return TableRead(game=game, seats=seats)
    centre = tuple(of_game(CENTRE_OF_GAME(game.pk), game))
    actions = tuple(of_game(ACTIONS_OF_GAME(game.pk), game))
    votes: tuple[Vote, ...] = ()
    next_game_code = None
    if game.phase in (Phase.VOTING, Phase.REVEAL):
        votes = tuple(of_game(VOTES_OF_GAME(game.pk), game))
    if game.phase == Phase.REVEAL:
        follow = Game.objects.filter(previous_game=game).values_list("code", flat=True)
        next_game_code = next(iter(follow), None)
    return TableRead(game, seats, centre, actions, votes, next_game_code)


def seat_view(
    seat: Seat,
    *,
    now: datetime | None = None,
    with_chat: bool = True,
    table: TableRead | None = None,
) -> SeatView:
    """Build what `seat` may see. A fixed number of queries, whatever the table size; none
    besides the chat when `table` (a `read_table` of the seat's game) is given."""
    now = now or timezone.now()
    if table is None:
        table = read_table(seat.game)
    game = table.game
    seats = list(table.seats)
    me = next(s for s in seats if s.pk == seat.pk)
    players = tuple(PlayerRow(s.pk, s.name, s.is_host, s.pk == me.pk) for s in seats)
    view: dict[str, object] = {"game": game, "me": me, "players": players, "now": now}
    if with_chat:
        lines = RECENT_CHAT(game.pk, 0)
        view["chat"] = tuple(
            ChatLine(
                id=m.pk,
                name=m.author_name,
                text=m.text,
                sent_at=m.sent_at,
                is_me=m.seat_id == me.pk,
                is_note=m.is_note,
            )
            for m in reversed(lines)
        )
    if game.phase == Phase.LOBBY:
        view.update(_lobby_fields(game, len(seats)))
        return SeatView(**view)  # type: ignore[arg-type]
    if not me.start_role:  # cancelled before the deal
        return SeatView(**view)  # type: ignore[arg-type]

    centre = list(table.centre)
    deal = deal_of(game, seats, centre)
    actions = list(table.actions)
    mine = next((a for a in actions if a.seat_id == me.pk), None)
    view["role"] = role_message(deal, me.name)
    view["actions_in"] = sum(1 for a in actions if a.complete)
    night: engine.NightResult | None = None
    if game.phase == Phase.NIGHT:
        form, sent = _action_form(deal, me.name, mine, {s.name: s.pk for s in seats})
        view["action_form"] = form
        view["action_sent"] = sent
    elif game.phase != Phase.CANCELLED or me.final_role:
        names = {s.pk: s.name for s in seats}
        night = table.night(deal, {names[a.seat_id]: a.targets for a in actions})
        view["night_report"] = night_report(night, me.name)
        view["action_sent"] = True

    if game.phase in (Phase.DAY,):
        view["ready_count"] = sum(1 for s in seats if s.ready_to_vote)

    if game.phase in (Phase.VOTING, Phase.REVEAL):
        by_id = {p.id: p for p in players}
        ring = tuple(by_id[i] for i in game.vote_ring if i in by_id)
        view["ring"] = ring
        if ring:
            index = next(i for i, p in enumerate(ring) if p.id == me.pk)
            view["vote_up"] = ring[index - 1]
            view["vote_down"] = ring[(index + 1) % len(ring)]
        votes = list(table.votes)
        view["votes_in"] = len(votes)
        my_vote = next((v for v in votes if v.voter_id == me.pk), None)
        if my_vote is not None:
            view["has_voted"] = True
            view["my_vote"] = by_id[my_vote.target_id].name if my_vote.target_id else None
        if game.phase == Phase.REVEAL and night is not None and game.result:
            view["reveal"] = _reveal(game, seats, centre, night, votes)
            view["next_game_code"] = table.next_game_code
    return SeatView(**view)  # type: ignore[arg-type]


# The cards of the panel that a form changes on its own, by the URL name of the form: while the
# game stays in its phase, the answer to that form needs no more than the card (its partial in
# games/game.html, and the element id the page swaps).
FORM_CARDS: dict[str, tuple[str, str]] = {
    "night_action": ("night_action_card", "night-action"),
    "ready": ("day_card", "day-ready"),
    "vote": ("voting_card", "voting"),
}


def card_view(game: Game, seat: Seat, form: str, taken: Taken | None = None) -> SeatView | None:
    """What the card of `form` (a key of FORM_CARDS) shows `seat` once its form was taken, the
    game still in the form's phase: a SeatView with only the fields that card reads. The night
    action's card reads the seat's action; the "ready" and the vote cards take what their
    service handed back (`taken`) and read nothing. None when the card needs the whole view:
    the Doppelganger's copy was taken, and the card now asks for the copied role's action (or
    a form handed nothing back)."""
    view: dict[str, object] = {"game": game, "me": seat, "players": (), "now": timezone.now()}
    if form == "night_action":
        action = ACTION_OF_SEAT.one(seat.pk)
        if action is None or not action.complete:
            return None
        view["action_sent"] = True
    elif form == "ready" and taken is not None:
        view["me"] = taken.seat
    elif form == "vote" and taken is not None:
        view["has_voted"] = True
        view["my_vote"] = taken.voted_for
    else:
        return None
    return SeatView(**view)  # type: ignore[arg-type]


def _reveal(
    game: Game,
    seats: list[Seat],
    centre: list[CentreCard],
    night: engine.NightResult,
    votes: list[Vote],
) -> Reveal:
    """The whole truth, for the reveal page only (phase REVEAL)."""
    result = game.result or {}
    names = {s.pk: s.name for s in seats}
    voted = {v.voter_id: names.get(v.target_id) if v.target_id else None for v in votes}
    counts = result.get("counts", {})
    dead = set(result.get("dead", []))
    winners = set(result.get("winners", []))
    rows = tuple(
        RevealRow(
            name=s.name,
            start_role=Role(s.start_role),
            final_role=night.final[s.name],
            plays_as=night.plays_as(s.name),
            voted_for=voted.get(s.pk),
            votes_received=int(counts.get(s.name, 0)),
            died=s.name in dead,
            won=s.name in winners,
        )
        for s in seats
    )
    order = {p: i for i, p in enumerate(CENTRE_POSITIONS)}
    return Reveal(
        rows=rows,
        centre=tuple(
            (c.position, Role(c.start_role), night.final[c.position])
            for c in sorted(centre, key=lambda c: order[c.position])
        ),
        copied=night.copied,
        log=night.log,
        vote_reason=result.get("vote_reason", ""),
        reason=result.get("reason", ""),
        teams=tuple(result.get("teams", [])),
        dead=tuple(p for p in (s.name for s in seats) if p in dead),
    )
