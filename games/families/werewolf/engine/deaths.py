"""Deaths and everything that follows from them.

A group of simultaneous deaths (`kill`) is applied whole: the triggered deaths are added until
nothing changes (rules/003's lovers, rules/004's charm), then the win is checked, then the
decisions the dead may make are awaited, in FORMAT's order: a dying sheriff's badge first, then
the shots in seat order. Each shot is itself a group, resolved whole (deaths, charm, win check,
badge, further shots) before the next decision of the earlier group (`decide`).
"""

from __future__ import annotations

from .abilities import ON_DEATH_REACTIONS, ON_DEATH_TRIGGERS, has_now, triggers_of
from .events import Awaiting, BadgePassed, Decided, Died, GameWon, RoleRevealed, Step
from .roles import Timing
from .state import Awaited
from .victory import outcome_of

# When a player dies of several things at once, the first cause here is the one recorded: a
# poisoned or counter-injured hunter may not shoot, whatever else hit them (004 II).
CAUSE_ORDER = ("counter_injury", "poison", "attack", "mauled", "trapped")


def kill(step: Step, deaths: list[tuple[str, str, str | None]]) -> list[str]:
    """Kill a group of players at once, with its consequences. Returns who died, in order."""
    state = step.state
    setup = state.setup
    queue = list(deaths)
    group: list[str] = []
    while queue:
        who, cause, by = queue.pop(0)
        if who not in state.alive:
            continue
        step.emit(Died(who, cause, by))
        if setup.ruleset.reveals_on_death:
            step.emit(RoleRevealed(who, setup.roles[who].name))
        group.append(who)
        queue.extend(_triggered(step, who))
    if not group:
        return group
    check_win(step)
    if state.over:
        if state.sheriff is not None and state.sheriff in group:
            # No reaction follows the win, so a sheriff who died in this group cannot hand the
            # badge on: it is lost, and the day ends with no sheriff (docs/rules.md).
            step.emit(BadgePassed(state.sheriff, None))
        return group
    awaited: list[Awaited] = []
    if state.sheriff is not None and state.sheriff in group:
        awaited.append(Awaited("badge", state.sheriff))
    for who in setup.in_seat_order(group):
        for ability in setup.roles[who].at(Timing.ON_DEATH):
            if ability.decides and has_now(state, who, ability):
                awaited.append(Awaited(ability.key, who))
    if awaited:
        step.emit(Awaiting(tuple(awaited)))
    return group


def _triggered(step: Step, who: str) -> list[tuple[str, str, str | None]]:
    """Deaths that follow at once from `who` dying: a lover's (003), a charm's (004)."""
    state = step.state
    follow: list[tuple[str, str, str | None]] = []
    lover = state.setup.lover_of(who)
    if lover is not None and lover in state.alive:
        follow.append((lover, "grief", who))  # 003 Lovers: "you will kill yourself too"
    for ability in triggers_of(state, who):
        follow.extend(ON_DEATH_TRIGGERS[ability.resolver](state, who))
    return follow


def check_win(step: Step) -> None:
    """Record the win if the ruleset's condition now holds."""
    state = step.state
    if state.over:
        return
    # Only the living and the uses of abilities (a crossbow fired) decide a win; they are
    # replaced, never changed in place, so the same two objects mean the same answer.
    checked = state._win_checked
    if checked is not None and checked[0] is state.alive and checked[1] is state.uses:
        return
    state._win_checked = (state.alive, state.uses)
    outcome = outcome_of(state)
    if outcome is not None:
        step.emit(GameWon(outcome))


def decide(step: Step, kind: str, player: str, choice: str | None) -> None:
    """Apply the awaited decision (already checked by the caller) and what follows from it."""
    state = step.state
    step.emit(Decided(kind, player, choice))
    if kind == "badge":
        step.emit(BadgePassed(player, choice))
        return
    ability = state.setup.roles[player].ability(kind)
    assert ability is not None and ability.timing is Timing.ON_DEATH
    deaths = ON_DEATH_REACTIONS[ability.resolver](step, player, choice)
    if deaths:
        kill(step, deaths)


def strongest_cause(causes: list[tuple[str, str | None]]) -> tuple[str, str | None]:
    """Of several causes of one death at daybreak, the one that decides what the dead may do."""
    return min(
        causes,
        key=lambda c: CAUSE_ORDER.index(c[0]) if c[0] in CAUSE_ORDER else len(CAUSE_ORDER),
    )
