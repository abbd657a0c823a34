"""The event log: every fact of a game, in the order it happened.

Each event is a small record with `apply(state)`, the one place that changes a `State`. Events
are never changed once made; they are not declared frozen only because a frozen dataclass is
three times slower to build, and a game makes a few hundred of them (bench/werewolf.py: about
7 % of a random Oxford game's time).
The state after any step is the fold of the log (`replay`), so undoing a step is dropping its
events. Events that only report (what a player was told, the night's attack) change nothing;
they are there for the phase reports, the views and the reveal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .setup import Setup
from .state import Awaited, Death, OpenCall, Outcome, Phase, State


class Event:
    """Base class of the log's records."""

    __slots__ = ()

    def apply(self, state: State) -> None:
        """Change `state` (a working copy) as this event says. Reports change nothing."""


@dataclass(slots=True)
class MoveMade(Event):
    """A step begins: `move` was accepted. Undo drops back to before the last one."""

    move: object


@dataclass(slots=True)
class PhaseBegan(Event):
    phase: Phase
    step: str

    def apply(self, state: State) -> None:
        state.phase = self.phase
        state.step = self.step
        state.choices = {}
        state.votes = {}
        state.sheriff_votes = {}
        state.call = None
        state.closing = False
        state.day_over = False


@dataclass(slots=True)
class StepBegan(Event):
    """The day moves on: from the sheriff election to the speeches, then to the vote."""

    step: str

    def apply(self, state: State) -> None:
        state.step = self.step


@dataclass(slots=True)
class ActionChosen(Event):
    """A player's night choice, replacing any earlier one of theirs this night (empty: none)."""

    player: str
    choice: Mapping[str, object]

    def apply(self, state: State) -> None:
        choices = dict(state.choices)
        if self.choice:
            choices[self.player] = self.choice
        else:
            choices.pop(self.player, None)
        state.choices = choices


@dataclass(slots=True)
class AbilityUsed(Event):
    """An ability took effect (counted against its uses, remembered for next night's rules)."""

    player: str
    ability: str
    target: str | None = None

    def apply(self, state: State) -> None:
        key = (self.player, self.ability)
        state.uses = {**state.uses, key: state.uses.get(key, 0) + 1}
        if state.phase is not None and state.phase.kind == "night" and self.target is not None:
            state.last = {**state.last, key: (state.phase.number, self.target)}


@dataclass(slots=True)
class Charmed(Event):
    """The wolf beauty's newest charm (rules/004 II)."""

    beauty: str
    target: str

    def apply(self, state: State) -> None:
        state.charmed = {**state.charmed, self.beauty: self.target}


@dataclass(slots=True)
class Told(Event):
    """Private information for one player (FORMAT "told"). Changes nothing."""

    player: str
    info: Mapping[str, object]


@dataclass(slots=True)
class Attacked(Event):
    """rules/004: the player the werewolves attacked tonight, or None. Changes nothing."""

    target: str | None


@dataclass(slots=True)
class Silenced(Event):
    """rules/004: the player the silencer silenced for the next day, or None."""

    target: str | None


@dataclass(slots=True)
class Injured(Event):
    """rules/003: players with a telltale injury this morning (one hit), in seat order."""

    players: tuple[str, ...]


@dataclass(slots=True)
class Died(Event):
    player: str
    cause: str
    by: str | None = None

    def apply(self, state: State) -> None:
        assert state.phase is not None
        state.alive = state.alive - {self.player}
        state.deaths = {**state.deaths, self.player: Death(self.cause, state.phase, self.by)}


@dataclass(slots=True)
class RoleRevealed(Event):
    """rules/001: a dead player's role is shown to everyone. Changes nothing."""

    player: str
    role: str


@dataclass(slots=True)
class Voted(Event):
    """A day vote (a name, or "nobody" in rules/001), replacing the voter's earlier one."""

    voter: str
    target: str | None

    def apply(self, state: State) -> None:
        votes = dict(state.votes)
        if self.target is None:
            votes.pop(self.voter, None)
        else:
            votes[self.voter] = self.target
        state.votes = votes


@dataclass(slots=True)
class VotesCounted(Event):
    """The day's tally (weights by name) and whom it eliminates, or None."""

    tally: Mapping[str, float]
    eliminated: str | None

    def apply(self, state: State) -> None:
        assert state.phase is not None
        state.eliminated = {**state.eliminated, state.phase.number: self.eliminated}


@dataclass(slots=True)
class SheriffVoted(Event):
    voter: str
    candidate: str | None

    def apply(self, state: State) -> None:
        votes = dict(state.sheriff_votes)
        if self.candidate is None:
            votes.pop(self.voter, None)
        else:
            votes[self.voter] = self.candidate
        state.sheriff_votes = votes


@dataclass(slots=True)
class SheriffElected(Event):
    player: str | None
    tally: Mapping[str, int] = MappingProxyType({})

    def apply(self, state: State) -> None:
        state.sheriff = self.player


@dataclass(slots=True)
class BadgePassed(Event):
    """A dying sheriff hands the badge on (`to`), or it is lost (None)."""

    holder: str
    to: str | None

    def apply(self, state: State) -> None:
        state.sheriff = self.to


@dataclass(slots=True)
class IdiotRevealed(Event):
    player: str

    def apply(self, state: State) -> None:
        state.revealed_idiots = state.revealed_idiots | {self.player}


@dataclass(slots=True)
class CallOpened(Event):
    accused: str
    by: str
    second: str

    def apply(self, state: State) -> None:
        state.call = OpenCall(self.accused, self.by, self.second)
        state.votes = {}


@dataclass(slots=True)
class CallVoted(Event):
    voter: str
    yes: bool

    def apply(self, state: State) -> None:
        state.votes = {**state.votes, self.voter: "yes" if self.yes else "no"}


@dataclass(slots=True)
class CallDecided(Event):
    """An execution call's weighted result (rules/003: a tie acquits)."""

    accused: str
    yes: int
    no: int
    executed: bool

    def apply(self, state: State) -> None:
        state.call = None
        state.votes = {}


@dataclass(slots=True)
class DayEnded(Event):
    """An explosion, or a duel that killed a werewolf, ended the day at once (rules/004)."""

    reason: str

    def apply(self, state: State) -> None:
        state.day_over = True


@dataclass(slots=True)
class PhaseClosing(Event):
    """The phase's business is done; it ends as soon as nothing is awaited."""

    def apply(self, state: State) -> None:
        state.closing = True


@dataclass(slots=True)
class Awaiting(Event):
    """Decisions the game now waits for, in order: a new frame on top of the pending ones."""

    items: tuple[Awaited, ...]

    def apply(self, state: State) -> None:
        if self.items:
            state.pending = (*state.pending, self.items)


@dataclass(slots=True)
class Decided(Event):
    """The first awaited decision of the top frame was made (`choice`: a name or None)."""

    kind: str
    player: str
    choice: str | None

    def apply(self, state: State) -> None:
        frames = list(state.pending)
        rest = frames[-1][1:]
        if rest:
            frames[-1] = rest
        else:
            frames.pop()
        state.pending = tuple(frames)


@dataclass(slots=True)
class GameWon(Event):
    outcome: Outcome

    def apply(self, state: State) -> None:
        state.outcome = self.outcome
        state.pending = ()


def replay(setup: Setup, events: Iterable[Event]) -> State:
    """The state the events lead to from the deal: the fold of the log."""
    state = State(setup)
    for event in events:
        event.apply(state)
    return state


class Step:
    """One move's work: a working copy of the state and the events applied to it so far."""

    __slots__ = ("events", "state")

    def __init__(self, state: State) -> None:
        self.state = state.copy()
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        event.apply(self.state)
        self.events.append(event)
