"""The night being played, and the shape of a role's resolver (resolvers.py, daybreak.py).

The night is a `Tonight`: the cards as they move, what each player saw, the log; new kinds of
night state (marks, artifacts) belong there, next to `cards` and `seen`. A `Resolver` is:
- `each(night, turn, actor, targets)`: one player's action (the seer's look), called for every
  player who wakes at the step, with their own targets; or
- `together(night, turn, actors)`: what everyone woken at the step does at once (the werewolves
  see each other);
- `report(learned)`: the lines that player reads after the night, written only from what that
  player saw (`learned.seen`) and sent (`learned.targets`), so it never tells more than the
  rules give them.
The few report sentences every family of roles shares (a look, a shield that stopped a move)
are here too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from games.words import _

from .artifacts import Artifact
from .deck import Deal
from .marks import MarkTable
from .roles import (
    ROLES,
    Copy,
    Role,
    has_marks,
    is_vampire_card,
    is_werewolf,
    where,
)


@dataclass(frozen=True, slots=True)
class NightStep:
    """One thing that happened in the night, in order, for the reveal page.

    `order` is the wake step of the ruleset (0 = told with the role message in the house rules),
    `role` the role that acted, `actor` the player (or players, for a group that woke together).
    """

    order: int
    role: Role
    actors: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Turn:
    """The step being played: its number in the log and the role the players act as (for a
    Doppelganger, the copied role)."""

    order: int
    role: Role


class Tonight:
    """The mutable table while the night is played; used only inside `night.resolve_night`."""

    __slots__ = (
        "actions",
        "artifacts",
        "became",
        "cards",
        "copied",
        "copycats",
        "deal",
        "doppelganger",
        "drawn",
        "frightened",
        "idle_copy",
        "log",
        "marks",
        "pick",
        "revealed",
        "seen",
        "shields",
        "told",
        "vampires",
        "with_log",
    )

    def __init__(
        self, deal: Deal, actions: dict[str, tuple[str, ...]], *, with_log: bool = True
    ) -> None:
        self.with_log = with_log
        self.deal = deal
        # A copy: a frightened player's sent action is dropped at the end of dusk (8b.2).
        self.actions = dict(actions)
        self.cards: dict[str, Role] = dict(deal.cards)
        self.seen: dict[str, dict[str, Role]] = {p: {} for p in deal.players}
        self.log: list[NightStep] = []
        self.copied: Role | None = None
        copiers = [p for p in deal.players if ROLES[deal.cards[p]].copies]
        self.doppelganger: str | None = copiers[0] if copiers else None
        # Daybreak's tokens and marks (docs/rules.md, Daybreak): the shielded players' cards,
        # in the order shielded; the artifacts on players' cards and how many were drawn; the
        # cards turned face up; what a card plays as at dawn when a role changed it (the
        # Doppelganger's copy, a paranormal investigator who saw a werewolf or the tanner).
        self.shields: list[str] = []
        self.artifacts: dict[str, Artifact] = {}
        self.drawn = 0
        self.revealed: list[str] = []
        self.became: dict[Role, Role] = {}
        # Vampire (docs/rules.md 8b): the marks, dealt as Marks of Clarity, only with a Vampire
        # card in the deck (None: the base and Daybreak game, unchanged); the Copycats' copies;
        # whether the Doppelganger copied the Copycat (then it does not act: [VC]); the
        # vampires and the player they marked; who was frightened at the end of dusk; and the
        # lines each player was told about marks (their report).
        self.marks: MarkTable | None = (
            MarkTable(deal.players) if has_marks(deal.cards.values()) else None
        )
        self.copycats: dict[str, Role] = {}
        self.idle_copy = False
        self.vampires: tuple[str, ...] | None = None
        self.pick: str | None = None
        self.frightened: frozenset[str] = frozenset()
        self.told: dict[str, list[str]] = {p: [] for p in deal.players}

    def note(self, turn: Turn, actors: Sequence[str], text: Callable[[], str]) -> None:
        """Log a step; the sentence is only written when a log is wanted (see resolve_night).

        `text` is called here and now, so a lambda reading a loop variable sees its current
        value (hence the B023 exemptions at the call sites).
        """
        if self.with_log:
            self.log.append(NightStep(turn.order, turn.role, tuple(actors), text()))

    def tell(self, player: str, line: str) -> None:
        """Vampire: a line of `player`'s report, written at the step from what they saw."""
        self.told[player].append(line)

    def acting(self, player: str) -> Role:
        """The role a player acts as tonight: a copier's copy, else the card dealt."""
        if player in self.copycats:
            return self.copycats[player]
        if player == self.doppelganger and self.copied is not None:
            return self.copied
        return self.deal.cards[player]

    def own(self, player: str) -> tuple[str, ...]:
        """The targets a player sent for the role they act as (after a copier's copy)."""
        sent = self.actions.get(player, ())
        if player in self.copycats or player == self.doppelganger:
            return sent[1:]
        return sent

    def is_vampire_tonight(self, player: str) -> bool:
        """A vampire at dusk: a Vampire card or a copy of one that acts ([VC]: the
        Doppelganger-Copycat does not)."""
        if player == self.doppelganger and self.idle_copy:
            return False
        return is_vampire_card(self.acting(player))

    def swap(self, a: str, b: str) -> None:
        self.cards[a], self.cards[b] = self.cards[b], self.cards[a]

    def shielded(self, *positions: str) -> bool:
        """Daybreak: a shielded card may be neither looked at nor moved, by anyone."""
        return any(p in self.shields for p in positions)

    def blocked(self, turn: Turn, actor: str, position: str) -> None:
        """Log an action a shield stopped."""
        self.note(
            turn,
            [actor],
            lambda: (
                # Translators: %(role)s is the acting role's name; %(card)s "Ann's card".
                _("%(actor)s (%(role)s) was stopped by the shield on %(card)s.")
                % {"actor": actor, "role": turn.role.title, "card": where(position)}
            ),
        )

    def woke_as(self, role: Role) -> tuple[str, ...]:
        """Players who wake as `role`: dealt it (or a card that wakes with it, Daybreak's alpha
        and mystic wolves with the werewolves), in seat order, plus a Doppelganger that copied
        it and wakes with them (the role's `copy` is WITH_THEM, rules/002 s5)."""
        cards = self.deal.cards
        # Vampire: a Copycat wakes as the role it copied ([VC]), its card no longer counts.
        players = tuple(
            p
            for p in self.deal.players
            if (p not in self.copycats and (cards[p] is role or ROLES[cards[p]].wakes_with is role))
            or (
                p in self.copycats
                and (self.copycats[p] is role or ROLES[self.copycats[p]].wakes_with is role)
            )
        )
        copied = self.copied
        joins = copied is not None and (
            (copied is role and ROLES[role].copy is Copy.WITH_THEM)
            or ROLES[copied].wakes_with is role
        )
        if joins and self.doppelganger is not None and not self.idle_copy:
            players = (*players, self.doppelganger)
        return players

    def werewolves(self) -> tuple[str, ...]:
        """Every player who is a werewolf tonight: dealt a werewolf card (Daybreak's dream wolf
        too, who shows its thumb), in seat order, then a Doppelganger that copied one."""
        players = tuple(
            p for p in self.deal.players if is_werewolf(self.copycats.get(p, self.deal.cards[p]))
        )
        if self.copied is not None and self.doppelganger is not None and is_werewolf(self.copied):
            players = (*players, self.doppelganger)
        return players


@dataclass(frozen=True, slots=True)
class Learned:
    """What one player may know after the night, for their report: the deal (their own start
    card, the table), the targets they sent (after the copy, for a Doppelganger), what they saw,
    and, for a Doppelganger acting as the copied role, whose card it copied (`model`)."""

    deal: Deal
    player: str
    targets: tuple[str, ...]
    seen: Mapping[str, Role]
    model: str | None = None
    # Daybreak: the shielded cards (the tokens lie in plain sight) and the cards turned up.
    shields: frozenset[str] = frozenset()
    revealed: frozenset[str] = frozenset()
    # Vampire (8b.2): the Mark of Fear kept this player from acting in the night (not at dusk).
    frightened: bool = False

    @property
    def as_copy(self) -> bool:
        return self.model is not None


Each = Callable[[Tonight, Turn, str, tuple[str, ...]], None]
Together = Callable[[Tonight, Turn, tuple[str, ...]], None]
Report = Callable[[Learned], list[str]]


@dataclass(frozen=True, slots=True)
class Resolver:
    """One night action: `each` or `together` (exactly one), and its `report`."""

    report: Report
    each: Each | None = None
    together: Together | None = None


def looked(position: str, card: Role) -> str:
    # Translators: %(card)s is "Ann's card" or "the left centre card"; %(role)s a card's name.
    return _("You looked at %(card)s: it is the %(role)s.") % {
        "card": where(position),
        "role": card.title,
    }


def shield_stopped(position: str) -> str:
    # Translators: %(card)s is "Ann's card", "your card" is not used here.
    return _("A shield lay on %(card)s: nobody could look at it or move it.") % {
        "card": where(position)
    }


def first_shielded(learned: Learned, positions: Sequence[str]) -> str:
    return next(p for p in positions if p in learned.shields)
