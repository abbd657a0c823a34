"""Who has won: one win check per ruleset, found by the ruleset's `victory` name.

Each returns an `Outcome` or None. The engine asks after every group of deaths, after every
night and, in rules/003, after every day event (FORMAT "Winning"); asking again when nothing
changed gives the same answer, so asking more often than a document says changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from .state import Outcome, State


def forum(state: State) -> Outcome | None:
    """001 "The game continues until": a lunatic eliminated (by day or night, FORMAT) wins for
    the lunatics, over the village's and the werewolves' conditions; then no werewolf alive
    wins for the village; then living werewolves at least as many as the others."""
    setup = state.setup
    lunatics = setup.dealt(side="lunatic")
    if any(p in state.deaths for p in lunatics):
        return Outcome("lunatic", lunatics)
    alive = state.alive
    wolves = sum(1 for p in alive if setup.roles[p].side == "werewolves")
    if wolves == 0:
        return Outcome("village", setup.dealt(side="village"))
    if wolves >= len(alive) - wolves:
        return Outcome("werewolves", setup.dealt(side="werewolves"))
    return None


def oxford(state: State) -> Outcome | None:
    """003 "Winning & Losing", as FORMAT reads it: two star-crossed lovers left alone win;
    then no werewolf alive wins for the village (the dark villager is executed with the
    werewolves' defeat); then the werewolves win once their side holds as many execution votes
    as everyone else (the mayor's counting twice) and no one else holds a loaded crossbow.
    Winners are the living members of the side (003 Objective), without star-crossed lovers,
    and without rivals who both live: those duel, as Fate decides."""
    setup = state.setup
    living = state.living()
    if len(living) == 2 and _star_crossed_pair(state, living[0], living[1]):
        return Outcome("lovers", living)
    roles = setup.roles
    if not any(roles[p].name == "werewolf" for p in living):
        return _oxford_outcome(state, "village")
    pack_votes = sum(roles[p].vote_weight for p in living if roles[p].side == "werewolves")
    other_votes = sum(roles[p].vote_weight for p in living if roles[p].side != "werewolves")
    loaded = any(roles[p].side != "werewolves" and _has_loaded_crossbow(state, p) for p in living)
    if pack_votes >= other_votes and not loaded:
        return _oxford_outcome(state, "werewolves")
    return None


def _star_crossed_pair(state: State, a: str, b: str) -> bool:
    setup = state.setup
    return setup.lover_of(a) == b and setup.side(a) != setup.side(b)


def _has_loaded_crossbow(state: State, player: str) -> bool:
    for ability in state.setup.abilities(player):
        if ability.resolver == "crossbow":
            assert ability.uses is not None
            return state.used(player, ability.key) < ability.uses
    return False


def _oxford_outcome(state: State, side: str) -> Outcome:
    setup = state.setup
    living = state.living()
    star_crossed = setup.star_crossed()
    duelling = [
        (a, b) if setup.seats[a] < setup.seats[b] else (b, a)
        for a, b in setup.rivals
        if a in state.alive and b in state.alive
    ]  # the pairs as Fate dealt them, each in seat order (FORMAT)
    in_duel = {p for pair in duelling for p in pair}
    winners = tuple(
        p for p in living if setup.side(p) == side and p not in star_crossed and p not in in_duel
    )
    return Outcome(side, winners, tuple(duelling))


def classic(state: State) -> Outcome | None:
    """004 V, checked at once after every death: the good camp wins when the werewolf camp is
    all out; the werewolves win while one of theirs lives and, in "side" mode (V.1), every
    divine or every commoner is out (a group never dealt does not count), or in "total" mode
    (V.2) the whole good camp is out. Nobody left alive at all: nobody wins (FORMAT)."""
    setup = state.setup
    alive = state.alive
    roles = setup.roles
    wolves_alive = any(roles[p].side == "werewolves" for p in alive)
    good_alive = any(roles[p].side == "good" for p in alive)
    if not wolves_alive and not good_alive:
        return Outcome("none", ())
    if not wolves_alive:
        return Outcome("good", setup.dealt(side="good"))
    if state.option("victory") == "total":
        beaten = not good_alive
    else:
        beaten = any(
            dealt and not any(p in alive for p in dealt)
            for dealt in (setup.dealt(group="divine"), setup.dealt(group="commoner"))
        )
    return Outcome("werewolves", setup.dealt(side="werewolves")) if beaten else None


VICTORY_RULES: Mapping[str, Callable[[State], Outcome | None]] = MappingProxyType(
    {"forum": forum, "oxford": oxford, "classic": classic}
)


def outcome_of(state: State) -> Outcome | None:
    """The ruleset's win check on `state`."""
    return VICTORY_RULES[state.setup.ruleset.victory](state)
