"""What happened in each phase, read from the log: the game's thread, phase by phase.

The scenario runner prints these; the web pages, table mode and the reveal show them (what one
seat may see of them is `view.py`'s business: `told` is private).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .events import (
    ActionChosen,
    Attacked,
    BadgePassed,
    CallDecided,
    Died,
    Event,
    GameWon,
    IdiotRevealed,
    Injured,
    PhaseBegan,
    RoleRevealed,
    SheriffElected,
    SheriffVoted,
    Silenced,
    Told,
    Voted,
    VotesCounted,
)
from .setup import Setup
from .state import Death, Outcome, Phase


@dataclass(slots=True)
class PhaseReport:
    """One phase's facts. `told` is private to each player; the rest is public unless the
    ruleset keeps it from the table (a night's attack in rules/004 is the moderator's)."""

    phase: Phase
    dead: list[str] = field(default_factory=list)
    deaths: dict[str, Death] = field(default_factory=dict)
    told: dict[str, dict[str, object]] = field(default_factory=dict)
    revealed: dict[str, str] = field(default_factory=dict)
    attacked: str | None = None
    silenced: str | None = None
    injured: tuple[str, ...] | None = None
    tally: Mapping[str, float] | None = None
    eliminated: str | None = None
    idiot_revealed: str | None = None
    calls: list[CallDecided] = field(default_factory=list)
    sheriff: str | None = None
    sheriff_tally: Mapping[str, int] | None = None
    outcome: Outcome | None = None
    actions: dict[str, Mapping[str, object]] = field(default_factory=dict)  # last choice each
    votes: dict[str, str] = field(default_factory=dict)  # each voter's final vote
    sheriff_votes: dict[str, str] = field(default_factory=dict)


def phase_reports(setup: Setup, log: Iterable[Event]) -> list[PhaseReport]:
    """A report per phase begun, in order."""
    reports: list[PhaseReport] = []
    current: PhaseReport | None = None
    sheriff: str | None = None
    for event in log:
        if isinstance(event, PhaseBegan):
            current = PhaseReport(event.phase, sheriff=sheriff)
            reports.append(current)
            continue
        if current is None:
            continue
        match event:
            case Died(player=player, cause=cause, by=by):
                current.dead.append(player)
                current.deaths[player] = Death(cause, current.phase, by)
            case Told(player=player, info=info):
                current.told.setdefault(player, {}).update(info)
            case RoleRevealed(player=player, role=role):
                current.revealed[player] = role
            case Attacked(target=target):
                current.attacked = target
            case Silenced(target=target):
                current.silenced = target
            case Injured(players=players):
                current.injured = players
            case VotesCounted(tally=tally, eliminated=eliminated):
                current.tally = tally
                current.eliminated = eliminated
            case IdiotRevealed(player=player):
                current.idiot_revealed = player
            case CallDecided():
                current.calls.append(event)
            case SheriffElected(player=player, tally=tally):
                sheriff = current.sheriff = player
                current.sheriff_tally = tally
            case BadgePassed(to=to):
                sheriff = current.sheriff = to
            case GameWon(outcome=outcome):
                current.outcome = outcome
            case ActionChosen(player=player, choice=choice):
                if choice:
                    current.actions[player] = choice
                else:
                    current.actions.pop(player, None)
            case Voted(voter=voter, target=target):
                if target is None:
                    current.votes.pop(voter, None)
                else:
                    current.votes[voter] = target
            case SheriffVoted(voter=voter, candidate=candidate):
                if candidate is None:
                    current.sheriff_votes.pop(voter, None)
                else:
                    current.sheriff_votes[voter] = candidate
    for report in reports:
        report.dead = setup.in_seat_order(report.dead)
    return reports
