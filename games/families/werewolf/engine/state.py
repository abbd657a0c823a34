"""The state of a game between two moves: the fold of its event log.

`State` is only ever changed by `Event.apply` (events.py). It is copied before every move and
its containers are replaced, never changed in place, so a copy is cheap and an earlier state is
never touched: the engine's functions are pure from the caller's side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from games.words import _

from .setup import Setup

EMPTY: Mapping = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Phase:
    """A night or a day, numbered as FORMAT says: night 1, day 1, night 2..."""

    kind: str  # "night" or "day"
    number: int

    @property
    def label(self) -> str:
        return f"{self.kind} {self.number}"

    def __str__(self) -> str:
        return self.label

    @property
    def shown(self) -> str:
        """The phase as a reader sees it, in their language ("night 2"); `label` is the
        scenario format's word."""
        if self.kind == "night":
            # Translators: a phase of the game, as in "night 2: Ann is dead and cannot act."
            return _("night %(number)d") % {"number": self.number}
        if self.kind == "day":
            # Translators: a phase of the game, as in "day 2: Ann voted after the day ended."
            return _("day %(number)d") % {"number": self.number}
        return self.label


@dataclass(frozen=True, slots=True)
class Death:
    """How and when a player died. `cause` is a word of `causes.CAUSES`."""

    cause: str
    phase: Phase
    by: str | None = None


@dataclass(frozen=True, slots=True)
class Awaited:
    """A decision the game waits for before it goes on: a dead hunter's shot, a dying
    sheriff's badge, the sheriff's tie break."""

    kind: str  # "shoot", "badge" or "tie_break"
    player: str
    among: tuple[str, ...] = ()  # the tied players, for a tie break


@dataclass(frozen=True, slots=True)
class OpenCall:
    """An execution call of rules/003 being voted on (the fists are the state's `votes`)."""

    accused: str
    by: str
    second: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won. `duel` lists the rival pairs left for Fate to settle (rules/003)."""

    winner: str
    winners: tuple[str, ...]
    duel: tuple[tuple[str, str], ...] = ()


class State:
    """Where a game stands. Read it; change it only through events."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.phase: Phase | None = None
        self.step = ""  # night: "actions"; day: "election", "speech", "voting"
        self.alive: frozenset[str] = frozenset(setup.players)
        self.deaths: Mapping[str, Death] = EMPTY
        self.choices: Mapping[str, Mapping[str, object]] = EMPTY  # tonight's, by player
        self.votes: Mapping[str, str] = EMPTY  # today's, by voter (an open call's: "yes"/"no")
        self.sheriff_votes: Mapping[str, str] = EMPTY
        self.call: OpenCall | None = None
        self.uses: Mapping[tuple[str, str], int] = EMPTY  # (player, ability) -> times used
        self.last: Mapping[tuple[str, str], tuple[int, str]] = EMPTY  # -> (night, target)
        self.sheriff: str | None = None
        self.charmed: Mapping[str, str] = EMPTY  # wolf beauty -> her newest charm
        self.revealed_idiots: frozenset[str] = frozenset()
        self.eliminated: Mapping[int, str | None] = EMPTY  # day number -> voted out
        self.pending: tuple[tuple[Awaited, ...], ...] = ()  # frames of awaited decisions
        self.closing = False  # the phase is over once nothing is pending
        self.day_over = False  # an explosion or a duel ended the day: no more events or votes
        self.outcome: Outcome | None = None
        self._living: tuple[frozenset[str], tuple[str, ...]] | None = None
        self._win_checked: tuple[object, object] | None = None  # (alive, uses) last checked

    def copy(self) -> State:
        """A working copy for the next move (cheap: containers are shared, never changed in
        place; events replace them)."""
        clone = State.__new__(State)
        clone.__dict__.update(self.__dict__)
        return clone

    # --- reading ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def awaited(self) -> Awaited | None:
        """The decision the game waits for now, if any."""
        return self.pending[-1][0] if self.pending else None

    def is_alive(self, player: str) -> bool:
        return player in self.alive

    def living(self) -> tuple[str, ...]:
        """The living players in seat order (computed once per set of the living)."""
        cached = self._living
        if cached is None or cached[0] is not self.alive:
            alive = self.alive
            cached = self._living = (alive, tuple(p for p in self.setup.players if p in alive))
        return cached[1]

    def option(self, name: str) -> object:
        return self.setup.options[name]

    def used(self, player: str, ability: str) -> int:
        return self.uses.get((player, ability), 0)

    def last_night_target(self, player: str, ability: str) -> str | None:
        """The target `player` chose with `ability` on the night just before this one."""
        if self.phase is None:
            return None
        last = self.last.get((player, ability))
        if last is None or last[0] != self.phase.number - 1:
            return None
        return last[1]

    def signature(self) -> tuple:
        """Every field as a comparable value (replaying a log must give the same state)."""
        return tuple(
            (name, _frozen(value))
            for name, value in sorted(vars(self).items())
            if name != "setup" and not name.startswith("_")
        )


def who(state: State, player: str) -> str:
    """A player as messages name them, with their role as players read it: "Ann (Seer)"."""
    # Translators: a player named with their role in a refusal, e.g. "Ann (Seer)".
    return _("%(player)s (%(role)s)") % {
        "player": player,
        "role": _(state.setup.roles[player].title),
    }


def refusal(state: State, player: str, message: str, **values: object) -> str:
    """`message` (translated, with `%(phase)s` and `%(player)s`) filled in for `player` now:
    the phase as it is shown and the player as `who` names them, then `values`."""
    assert state.phase is not None
    return message % {"phase": state.phase.shown, "player": who(state, player), **values}


def _frozen(value: object) -> object:
    if isinstance(value, Mapping):
        return tuple(sorted((repr(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, frozenset | set):
        return tuple(sorted(map(repr, value)))
    return value
