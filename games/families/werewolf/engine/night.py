"""The night as a fold.

At the night's end (`close_night`): the werewolves' choices collapse into the pack's attack as
the ruleset says (`PACK_RULES`: rules/001's plurality, rules/003's individual mauls, rules/004's
one agreed victim); every action and every passive ability of the living becomes an `Act`; the
acts are sorted by precedence band and folded into one `Ledger` by their resolvers
(abilities.NIGHT); the ruleset's daybreak rule (`DAYBREAK_RULES`) reads the ledger and names the
dead; `deaths.kill` applies the consequences. All actions take effect together, from the state
at nightfall (FORMAT: a seer killed that night still learns her result), so the order in which
they were sent in never matters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from types import MappingProxyType

from games.words import _

from .abilities import NIGHT, charm_events, has_now
from .deaths import check_win, kill, strongest_cause
from .errors import IllegalMoveError
from .events import AbilityUsed, Attacked, Injured, PhaseClosing, Silenced, Step, Told
from .ledger import Act, Ledger
from .moves import target_problem
from .roles import Ability, Targets, Timing
from .setup import NOBODY
from .state import State, refusal


def killers(state: State) -> list[str]:
    """The living players who may name tonight's victim with the pack, in seat order."""
    roles = state.setup.roles
    return [
        p for p in state.living() if (pack := roles[p].pack) is not None and has_now(state, p, pack)
    ]


def _pack_choices(state: State) -> list[tuple[str, str]]:
    """(werewolf, target) for every pack choice sent tonight, in seat order."""
    choices = state.choices
    roles = state.setup.roles
    out = []
    for player in state.living():
        choice = choices.get(player)
        if choice is None:
            continue
        pack = roles[player].pack
        if pack is not None and pack.key in choice:
            target = choice[pack.key]
            assert isinstance(target, str)  # a pack choice names a player or "nobody" (game.py)
            out.append((player, target))
    return out


def _plurality(state: State, *, at_deadline: bool) -> list[Act]:
    """001: the werewolves' votes; a player with more votes than every other and than
    "nobody" is attacked; otherwise nobody is."""
    votes = _pack_choices(state)
    count = Counter(target for _wolf, target in votes)
    victim = _strict_winner(count)
    if victim is None or victim == NOBODY:
        return []
    ability = _pack_ability(state, votes[0][0])
    return [Act(votes[0][0], ability, victim, tuple(w for w, t in votes if t == victim))]


def _strict_winner(count: Counter[str]) -> str | None:
    if not count:
        return None
    ranked = count.most_common()
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def _individual(state: State, *, at_deadline: bool) -> list[Act]:
    """003: each werewolf mauls on their own; the number of mauls on a player matters."""
    return [Act(wolf, _pack_ability(state, wolf), target) for wolf, target in _pack_choices(state)]


def _agreed(state: State, *, at_deadline: bool) -> list[Act]:
    """004 III: the killers open their eyes together and name one victim. Killers who send
    nothing hold off; different names are an error (FORMAT). At a deadline that finds them
    split, the name with the most killers is attacked, and nobody on a tie (docs/rules.md)."""
    votes = _pack_choices(state)
    if not votes:
        return []
    names = {target for _wolf, target in votes}
    if len(names) > 1:
        if not at_deadline:
            # Translators: one werewolf's choice, in a list ("Ann named Dan, Ben named Cat").
            named = _("%(werewolf)s named %(target)s")
            said = [named % {"werewolf": w, "target": t} for w, t in votes]
            # Translators: the separator between the names of a list, all but the last.
            separator = _(", ")
            message = _(
                # Translators: %(phase)s is "night 2"; %(choices)s lists each werewolf's choice.
                "%(phase)s: the werewolves must agree on one victim (%(choices)s) (004 III)."
            )
            choices = separator.join(said)
            assert state.phase is not None
            raise IllegalMoveError(message % {"phase": state.phase.shown, "choices": choices})
        victim = _strict_winner(Counter(target for _wolf, target in votes))
        if victim is None:
            return []
    else:
        (victim,) = names
    by = tuple(w for w, t in votes if t == victim)
    return [Act(by[0], _pack_ability(state, by[0]), victim, by)]


def _pack_ability(state: State, wolf: str) -> Ability:
    pack = state.setup.roles[wolf].pack
    assert pack is not None, f"{wolf} has no pack ability"
    return pack


PACK_RULES: Mapping[str, Callable[..., list[Act]]] = MappingProxyType(
    {"plurality": _plurality, "individual": _individual, "agreed": _agreed}
)


def current_victim(state: State) -> str | None:
    """The pack's victim if the night ended now (rules/001's plurality, rules/004's agreed
    choice; None while the pack is split or has not chosen; rules/003 has no one victim)."""
    acts = PACK_RULES[state.setup.ruleset.pack](state, at_deadline=True)
    if len(acts) != 1 or acts[0].ability.resolver == "maul":
        return None
    return acts[0].target


def unsettled(state: State) -> Mapping[str, str]:
    """The killers whose choices keep the night from ending now, each with the refusal
    `close_night` would give: those of a split pack (rules/004 asks for one agreed victim).
    The app counts a killer whose own choice splits the pack as not done yet (docs/security.md:
    a table that saw everyone done while the night went on would learn that the pack is
    split)."""
    try:
        PACK_RULES[state.setup.ruleset.pack](state, at_deadline=False)
    except IllegalMoveError as error:
        return {wolf: str(error) for wolf, _target in _pack_choices(state)}
    return {}


def _acts(state: State, *, at_deadline: bool) -> list[Act]:
    """Every act of the night, sorted by band (then seat): the pack's, each player's own
    choices, and the passive abilities of the living."""
    setup = state.setup
    acts = PACK_RULES[setup.ruleset.pack](state, at_deadline=at_deadline)
    victim = next((a.target for a in acts if a.ability.resolver != "maul"), None)
    for player in state.living():
        role = setup.roles[player]
        for passive in role.at(Timing.PASSIVE):
            if has_now(state, player, passive):
                acts.append(Act(player, passive))
        choice = state.choices.get(player)
        if not choice:
            continue
        for key, target in choice.items():
            ability = role.ability(key)
            assert ability is not None
            if ability.group == "pack":
                continue
            if ability.targets is Targets.ATTACKED:
                act = _on_victim(state, player, ability, victim, at_deadline=at_deadline)
                if act is not None:
                    acts.append(act)
                continue
            acts.append(Act(player, ability, target if isinstance(target, str) else None))
    acts.sort(key=lambda a: (a.ability.band, setup.seats[a.actor]))
    return acts


def _on_victim(
    state: State, player: str, ability: Ability, victim: str | None, *, at_deadline: bool
) -> Act | None:
    """An act aimed at tonight's victim (the witch's antidote): checked now that the pack's
    choice is final. At a deadline a choice that cannot apply is dropped, unused."""
    problem: str | None
    if victim is None:
        message = _(
            "%(phase)s: %(player)s used the antidote, but nobody was attacked (%(section)s)."
        )
        problem = refusal(state, player, message, section=ability.section)
    else:
        problem = target_problem(state, player, ability, victim)
    if problem is None:
        return Act(player, ability, victim)
    if at_deadline:
        return None
    raise IllegalMoveError(problem)


def _forum_daybreak(ledger: Ledger) -> list[tuple[str, str, str | None]]:
    """001: the pack's victim is eliminated unless protected."""
    victim = ledger.attacked
    if victim is None or ledger.shielded(victim, "protector"):
        return []
    return [(victim, "attack", None)]


def _hits_daybreak(ledger: Ledger) -> list[tuple[str, str, str | None]]:
    """003 Werewolf: two hits or more kill."""
    state = ledger.state
    mauled = {target for _wolf, target in ledger.mauls}
    return [
        (p, "mauled" if p in mauled else "trapped", None)
        for p in state.setup.players
        if ledger.hits[p] >= 2
    ]


def _classic_daybreak(ledger: Ledger) -> list[tuple[str, str, str | None]]:
    """004 IV: the victim dies unless exactly one of guarded and saved ("same protection and
    save" kills); the poisoned die, guarded or not; the counter-injured die."""
    causes: dict[str, list[tuple[str, str | None]]] = {}
    victim = ledger.attacked
    if victim is not None:
        shields = ledger.shields.get(victim, set()) & {"guard", "save"}
        if len(shields) != 1:
            causes.setdefault(victim, []).append(("attack", None))
    for target, witch in ledger.poisoned.items():
        causes.setdefault(target, []).append(("poison", witch))
    for who, cause, by in ledger.deaths:
        causes.setdefault(who, []).append((cause, by))
    seats = ledger.state.setup.seats
    return [
        (who, *strongest_cause(c)) for who, c in sorted(causes.items(), key=lambda i: seats[i[0]])
    ]


DAYBREAK_RULES: Mapping[str, Callable[[Ledger], list[tuple[str, str, str | None]]]] = (
    MappingProxyType(
        {"forum": _forum_daybreak, "hits": _hits_daybreak, "classic": _classic_daybreak}
    )
)


def fold(state: State, *, at_deadline: bool = False) -> Ledger:
    """The night's ledger: every act folded in by its resolver, in band order."""
    ledger = Ledger(state)
    for act in _acts(state, at_deadline=at_deadline):
        NIGHT[act.ability.resolver](ledger, act)
        if act.ability.timing is Timing.NIGHT and act.ability.group is None:
            ledger.used.append((act.actor, act.ability.key, act.target))
    return ledger


def close_night(step: Step, *, at_deadline: bool = False) -> None:
    """Resolve the night (the step's state is the state at nightfall) and start its deaths."""
    state = step.state
    setup = state.setup
    ledger = fold(state, at_deadline=at_deadline)
    for player, key, target in ledger.used:
        step.emit(AbilityUsed(player, key, target))
    for event in charm_events(ledger):
        step.emit(event)
    for player in setup.players:
        info = ledger.told.get(player)
        if info:
            step.emit(Told(player, MappingProxyType(dict(info))))
    step.emit(Attacked(ledger.attacked))
    step.emit(Silenced(ledger.silenced))
    step.emit(PhaseClosing())
    kill(step, DAYBREAK_RULES[setup.ruleset.daybreak](ledger))
    if setup.ruleset.daybreak == "hits" and state.phase is not None and state.phase.number > 1:
        hurt = tuple(p for p in setup.players if ledger.hits[p] == 1 and p in state.alive)
        step.emit(Injured(hurt))
    check_win(step)
