"""The day: how each ruleset decides whom the village puts to death.

- "plurality" (rules/001): every living player votes for a player or for "nobody" at any time
  of the day; a strict plurality eliminates at its end.
- "execution_calls" (rules/003): during the day, execution calls (accused, caller, seconder,
  then open or closed fists, the mayor's vote counting twice, a tie acquitting), crossbow shots
  and Fate's smites, in any order, each checked for a win at once.
- "sheriff" (rules/004): on day 1 the sheriff election; then the speeches, where the knight may
  duel and a werewolf may explode (both at once); then the vote, the sheriff's weighing 1.5, a
  tie broken by the sheriff or eliminating no one; the idiot survives a first elimination.

Each rule is a `DayRule` of small functions; `game.py` routes the day's moves to them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from games.words import _

from .abilities import ON_ELIMINATION
from .deaths import check_win, kill
from .errors import IllegalMoveError, OutOfTurnError
from .events import (
    Awaiting,
    CallDecided,
    CallOpened,
    CallVoted,
    PhaseClosing,
    SheriffElected,
    SheriffVoted,
    Step,
    StepBegan,
    Voted,
    VotesCounted,
)
from .roles import Timing
from .setup import NOBODY
from .state import Awaited, State, who

SHERIFF_WEIGHT = 1.5  # 004 III: "sheriff has 1.5 vote power"


def _phase(state: State) -> str:
    """The current phase as messages name it ("day 2")."""
    assert state.phase is not None
    return state.phase.shown


def _living_target(state: State, voter: str, target: object, *, nobody: bool) -> str:
    if nobody and target == NOBODY:
        return NOBODY
    if not isinstance(target, str) or target not in state.setup.roles:
        message = _("%(phase)s: %(voter)s voted for %(target)s, who is not a player.")
        raise IllegalMoveError(
            message % {"phase": _phase(state), "voter": voter, "target": repr(target)}
        )
    if target not in state.alive:
        message = _("%(phase)s: %(voter)s voted for %(target)s, who is dead.")
        raise IllegalMoveError(message % {"phase": _phase(state), "voter": voter, "target": target})
    return target


def _check_voter(state: State, voter: str) -> None:
    if voter not in state.setup.roles:
        message = _("%(phase)s: %(player)s is not a player.")
        raise IllegalMoveError(message % {"phase": _phase(state), "player": repr(voter)})
    if voter not in state.alive:
        message = _("%(phase)s: %(voter)s is dead and cannot vote.")
        raise IllegalMoveError(message % {"phase": _phase(state), "voter": voter})


def _count(state: State, weight: Callable[[str], float]) -> dict[str, float]:
    """Each named player's votes, weighted (the sheriff's count 1.5), in the order first named."""
    tally: dict[str, float] = {}
    for voter, target in state.votes.items():
        tally[target] = tally.get(target, 0) + weight(voter)
    return tally


def _strict_leader(tally: Mapping[str, float]) -> tuple[str | None, list[str]]:
    """(the unique leader or None, everyone tied at the top)."""
    if not tally:
        return None, []
    top = max(tally.values())
    leaders = [name for name, n in tally.items() if n == top]
    return (leaders[0] if len(leaders) == 1 else None), leaders


def _close_day(step: Step) -> None:
    step.emit(PhaseClosing())
    check_win(step)


# --- rules/001 --------------------------------------------------------------------------------


def _forum_vote(step: Step, voter: str, target: str | None) -> None:
    """001 day phase: any living player votes for a player (themselves included) or for no
    elimination; a later vote replaces an earlier one."""
    state = step.state
    _check_voter(state, voter)
    if target is not None:
        target = _living_target(state, voter, target, nobody=True)
    step.emit(Voted(voter, target))


def _forum_advance(step: Step, at_deadline: bool) -> None:
    """001: a strict plurality (more votes than any other player and than "nobody")
    eliminates at the end of the day; otherwise nobody is eliminated."""
    state = step.state
    tally = _count(state, lambda voter: 1)
    leader, _tied = _strict_leader(tally)
    eliminated = None if leader == NOBODY else leader
    step.emit(VotesCounted(MappingProxyType(dict(tally)), eliminated))
    if eliminated is not None:
        kill(step, [(eliminated, "vote", None)])
    _close_day(step)


# --- rules/003 --------------------------------------------------------------------------------


def _oxford_accuse(step: Step, accused: str, by: str, second: str) -> None:
    """003 The Local Justice System: a call needs a caller and a seconder; three different
    living players (FORMAT)."""
    state = step.state
    if state.call is not None:
        message = _("%(phase)s: the call on %(accused)s is still being voted on.")
        raise OutOfTurnError(message % {"phase": _phase(state), "accused": state.call.accused})
    names = (accused, by, second)
    for name in names:
        if name not in state.setup.roles:
            message = _("%(phase)s: %(player)s in an execution call is not a player.")
            raise IllegalMoveError(message % {"phase": _phase(state), "player": repr(name)})
        if name not in state.alive:
            message = _("%(phase)s: %(player)s is dead and cannot take part in an execution call.")
            raise IllegalMoveError(message % {"phase": _phase(state), "player": name})
    if len(set(names)) != 3:
        message = _(
            "%(phase)s: the accused, the caller and the seconder must be three different "
            "players (%(accused)s, %(caller)s, %(seconder)s) (003 The Local Justice System)."
        )
        values = {"phase": _phase(state), "accused": accused, "caller": by, "seconder": second}
        raise IllegalMoveError(message % values)
    step.emit(CallOpened(accused, by, second))


def _oxford_call_vote(step: Step, voter: str, yes: bool) -> None:
    state = step.state
    if state.call is None:
        message = _("%(phase)s: there is no execution call to vote on.")
        raise OutOfTurnError(message % {"phase": _phase(state)})
    _check_voter(state, voter)
    step.emit(CallVoted(voter, yes))


def _oxford_decide_call(step: Step) -> None:
    """003: every living player votes, the mayor twice; execution needs more yes than no (a tie
    goes to the accused). A living player who did not open their fist voted no."""
    state = step.state
    call = state.call
    assert call is not None
    roles = state.setup.roles
    opened = {voter for voter, fist in state.votes.items() if fist == "yes"}
    yes = sum(roles[p].vote_weight for p in state.alive if p in opened)
    no = sum(roles[p].vote_weight for p in state.alive if p not in opened)
    executed = yes > no
    step.emit(CallDecided(call.accused, yes, no, executed))
    if executed:
        kill(step, [(call.accused, "execution", None)])
    check_win(step)


def _oxford_advance(step: Step, at_deadline: bool) -> None:
    if step.state.call is not None:
        _oxford_decide_call(step)
        return
    _close_day(step)


# --- rules/004 --------------------------------------------------------------------------------


def _classic_sheriff_vote(step: Step, voter: str, candidate: str | None) -> None:
    """004 III Daybreak, FORMAT: on day 1, living players vote for a living candidate
    (themselves included), one vote each."""
    state = step.state
    if state.step != "election":
        message = _("%(phase)s: the sheriff is elected on day 1 only, before the speeches.")
        raise OutOfTurnError(message % {"phase": _phase(state)})
    _check_voter(state, voter)
    if candidate is not None:
        candidate = _living_target(state, voter, candidate, nobody=False)
    step.emit(SheriffVoted(voter, candidate))


def _classic_vote(step: Step, voter: str, target: str | None) -> None:
    """004 III Voting Segment, FORMAT: living players with a vote (not a revealed idiot), for
    a living player (themselves included); no vote is an abstention."""
    state = step.state
    if state.day_over:
        message = _("%(phase)s: %(voter)s voted after the day ended.")
        raise OutOfTurnError(message % {"phase": _phase(state), "voter": voter})
    if state.step != "voting":
        message = _("%(phase)s: %(voter)s voted before the vote was opened.")
        raise OutOfTurnError(message % {"phase": _phase(state), "voter": voter})
    _check_voter(state, voter)
    if voter in state.revealed_idiots:
        # Translators: %(player)s is "Ann (idiot)": the player and their role's key word.
        message = _("%(phase)s: %(player)s was revealed and has no vote any more (004 II Idiot).")
        raise IllegalMoveError(message % {"phase": _phase(state), "player": who(state, voter)})
    if target is not None:
        target = _living_target(state, voter, target, nobody=False)
    step.emit(Voted(voter, target))


def _sheriff_weight(state: State) -> Callable[[str], float]:
    sheriff = state.sheriff
    return lambda voter: SHERIFF_WEIGHT if voter == sheriff else 1


def _classic_advance(step: Step, at_deadline: bool) -> None:
    state = step.state
    if state.day_over:
        message = _("%(phase)s: the day has already ended.")
        raise OutOfTurnError(message % {"phase": _phase(state)})
    if state.step == "election":
        ballots = Counter(state.sheriff_votes.values())
        leader, _tied = _strict_leader(ballots)
        step.emit(SheriffElected(leader, MappingProxyType(dict(ballots))))
        step.emit(StepBegan("speech"))
        return
    if state.step == "speech":
        step.emit(StepBegan("voting"))
        return
    tally = _count(state, _sheriff_weight(state))
    leader, tied = _strict_leader(tally)
    sheriff = state.sheriff
    if leader is None and tied and sheriff is not None and sheriff in state.alive:
        among = tuple(state.setup.in_seat_order(tied))
        step.emit(Awaiting((Awaited("tie_break", sheriff, among),)))
        return
    _classic_eliminate(step, tally, leader)


def classic_tie_break(step: Step, choice: str | None) -> None:
    """004 III: "if there is a tie, the sheriff has the final say" (or names no one)."""
    state = step.state
    tally = _count(state, _sheriff_weight(state))
    _classic_eliminate(step, tally, choice)


def _classic_eliminate(step: Step, tally: Mapping[str, float], eliminated: str | None) -> None:
    state = step.state
    step.emit(VotesCounted(MappingProxyType(dict(tally)), eliminated))
    if eliminated is not None:
        spared = False
        for ability in state.setup.roles[eliminated].at(Timing.ON_ELIMINATION):
            spared = ON_ELIMINATION[ability.resolver](step, eliminated) or spared
        if not spared:
            kill(step, [(eliminated, "vote", None)])
    _close_day(step)


@dataclass(frozen=True, slots=True)
class DayRule:
    first_step: Callable[[int], str]
    vote: Callable[[Step, str, str | None], None] | None
    advance: Callable[[Step, bool], None]
    sheriff_vote: Callable[[Step, str, str | None], None] | None = None
    accuse: Callable[[Step, str, str, str], None] | None = None
    call_vote: Callable[[Step, str, bool], None] | None = None
    smite: bool = False
    abilities_in: tuple[str, ...] = ("speech",)  # steps in which day abilities may be used


DAY_RULES: Mapping[str, DayRule] = MappingProxyType(
    {
        "plurality": DayRule(
            first_step=lambda number: "voting",
            vote=_forum_vote,
            advance=_forum_advance,
            abilities_in=(),
        ),
        "execution_calls": DayRule(
            first_step=lambda number: "speech",
            vote=None,
            advance=_oxford_advance,
            accuse=_oxford_accuse,
            call_vote=_oxford_call_vote,
            smite=True,
        ),
        "sheriff": DayRule(
            first_step=lambda number: "election" if number == 1 else "speech",
            vote=_classic_vote,
            advance=_classic_advance,
            sheriff_vote=_classic_sheriff_vote,
        ),
    }
)
