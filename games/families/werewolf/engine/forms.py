"""What each seat may do now, with the legal targets: the forms a page, a bot or table mode
shows. Every form here is accepted by `game.apply` when filled with one of its targets (the
pack's agreement and the antidote's victim are settled when the night ends)."""

from __future__ import annotations

from typing import NamedTuple

from .abilities import CHECKS, has_now
from .day import DAY_RULES
from .night import current_victim
from .roles import Ability, Targets, Timing
from .setup import NOBODY
from .state import State


class Form(NamedTuple):
    """One thing a seat may send now.

    `kind` says which move it makes: "night" (a `NightAction` key), "vote", "sheriff_vote",
    "day" (a `UseAbility`), "accuse", "call_vote" (targets are empty: yes or no) or "decide"
    (a `Decide` of `key`). `optional` forms may be sent without a target.
    """

    kind: str
    key: str
    targets: tuple[str, ...]
    section: str = ""
    summary: str = ""
    optional: bool = False
    group_key: bool = False  # the pack's choice (the werewolves' kill or maul)


def targets_of(state: State, player: str, ability: Ability) -> tuple[str, ...]:
    """The players `player` may aim `ability` at now (and "nobody" where it may forgo)."""
    if ability.targets is Targets.NONE:
        return ()
    if ability.targets is Targets.ATTACKED:
        victim = current_victim(state)
        if victim is None or any(
            CHECKS[c](state, player, ability, victim) is not None for c in ability.checks
        ):
            return ()
        return (victim,)
    living = state.living()
    if ability.targets in (Targets.OTHER, Targets.OPTIONAL_OTHER):
        living = tuple(p for p in living if p != player)
    for name in ability.checks:
        check = CHECKS[name]
        living = tuple(p for p in living if check(state, player, ability, p) is None)
    return (*living, NOBODY) if ability.nobody else living


def forms_for(state: State, player: str) -> tuple[Form, ...]:
    """Every form `player` has now, in a stable order."""
    if state.over or state.phase is None or player not in state.setup.roles:
        return ()
    if state.pending:
        return _decision(state, player)
    if player not in state.alive or state.closing:
        return ()
    if state.phase.kind == "night":
        return _night_forms(state, player)
    return _day_forms(state, player)


def _decision(state: State, player: str) -> tuple[Form, ...]:
    awaited = state.awaited
    assert awaited is not None
    if awaited.player != player:
        return ()
    if awaited.kind == "tie_break":
        return (Form("decide", "tie_break", awaited.among, "004 III", optional=True),)
    if awaited.kind == "badge":
        living = tuple(p for p in state.living() if p != player)
        return (Form("decide", "badge", living, "004 III", optional=True),)
    ability = state.setup.roles[player].ability(awaited.kind)
    assert ability is not None
    return (
        Form(
            "decide",
            awaited.kind,
            targets_of(state, player, ability),
            ability.section,
            ability.summary,
            optional=True,
        ),
    )


def _night_forms(state: State, player: str) -> tuple[Form, ...]:
    setup = state.setup
    assert state.phase is not None
    if not setup.ruleset.first_night_actions and state.phase.number == 1:
        return ()
    forms = []
    for ability in setup.roles[player].at(Timing.NIGHT):
        if not has_now(state, player, ability):
            continue
        if ability.uses is not None and state.used(player, ability.key) >= ability.uses:
            continue
        forms.append(
            Form(
                "night",
                ability.key,
                targets_of(state, player, ability),
                ability.section,
                ability.summary,
                group_key=ability.group == "pack",
            )
        )
    return tuple(forms)


def _day_forms(state: State, player: str) -> tuple[Form, ...]:
    setup = state.setup
    rule = DAY_RULES[setup.ruleset.day]
    living = state.living()
    if state.call is not None:
        return (Form("call_vote", "yes", (), "003 The Local Justice System"),)
    if state.day_over:
        return ()
    forms: list[Form] = []
    if state.step == "election" and rule.sheriff_vote is not None:
        forms.append(Form("sheriff_vote", "sheriff", living, "004 III"))
    if state.step in rule.abilities_in:
        for ability in setup.abilities(player):
            if ability.timing is not Timing.DAY:
                continue
            if ability.uses is not None and state.used(player, ability.key) >= ability.uses:
                continue
            forms.append(
                Form(
                    "day",
                    ability.key,
                    targets_of(state, player, ability),
                    ability.section,
                    ability.summary,
                    optional=ability.targets in (Targets.NONE, Targets.OPTIONAL_OTHER),
                )
            )
        if rule.accuse is not None:
            others = tuple(p for p in living if p != player)
            forms.append(Form("accuse", "call", others, "003 The Local Justice System"))
    if state.step == "voting" and rule.vote is not None and player not in state.revealed_idiots:
        targets = living + ((NOBODY,) if setup.ruleset.day == "plurality" else ())
        forms.append(Form("vote", "vote", targets, _vote_section(setup.ruleset.name)))
    return tuple(forms)


def _vote_section(ruleset: str) -> str:
    return {"forum": "001 day phase", "classic": "004 III Voting Segment"}.get(ruleset, "")
