"""The engine's API: start a game, apply a move, undo the last step.

A `Game` is the deal, the event log and the state the log folds to. `apply` checks a move
against the state, then appends the events it causes; it raises a `RuleError` (and changes
nothing) when the move breaks a rule. The phase moves on by itself once a phase is over and no
decision is awaited.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from games.words import N_, _

from .abilities import DAY, has_now
from .day import DAY_RULES, classic_tie_break
from .deaths import check_win, decide, kill
from .errors import IllegalMoveError, OutOfTurnError, RuleError
from .events import ActionChosen, Decided, Event, MoveMade, PhaseBegan, PhaseClosing, Step, replay
from .moves import (
    Accuse,
    Advance,
    CallVote,
    Decide,
    Move,
    NightAction,
    SheriffVote,
    Smite,
    UseAbility,
    Vote,
    target_problem,
)
from .night import close_night
from .roles import Targets, Timing
from .setup import Setup
from .state import Phase, State, refusal


class Game:
    """A game: its deal, the state its log folds to, and the log itself, kept as the chain of
    steps (`events` of the last step, then the game before it) so that a move appends without
    copying the history and undo is a step back. Treat it as immutable."""

    __slots__ = ("before", "events", "setup", "state")

    def __init__(
        self,
        setup: Setup,
        state: State,
        events: tuple[Event, ...] = (),
        before: Game | None = None,
    ) -> None:
        self.setup = setup
        self.state = state
        self.events = events
        self.before = before

    def __repr__(self) -> str:
        return f"<Game {self.setup.ruleset.name} at {self.state.phase}>"

    @property
    def log(self) -> tuple[Event, ...]:
        """Every event from the start, in order."""
        chain: list[tuple[Event, ...]] = []
        game: Game | None = self
        while game is not None:
            chain.append(game.events)
            game = game.before
        return tuple(event for events in reversed(chain) for event in events)

    @classmethod
    def from_log(cls, setup: Setup, log: tuple[Event, ...]) -> Game:
        """A game restored from a stored log (its steps are not kept: undo replays)."""
        return cls(setup, replay(setup, log), log)


def start(setup: Setup) -> Game:
    """The game before anyone has acted: its first phase has begun."""
    step = Step(State(setup))
    _begin(step, Phase(setup.opens_with, 1))
    return Game(setup, step.state, tuple(step.events))


def apply(game: Game, move: Move) -> Game:
    """The game after `move`. Raises RuleError, changing nothing, if the rules refuse it."""
    state = game.state
    if state.over:
        # Translators: %(move)s is the kind of move, a word of the program ("Vote", "Advance").
        message = _("The game is over: %(move)s came after the end.")
        raise OutOfTurnError(message % {"move": _described(move)})
    step = Step(state)
    step.emit(MoveMade(move))
    handler = _HANDLERS.get(type(move))
    if handler is None:
        raise RuleError(f"Not a move: {move!r}.")
    handler(step, move)
    _move_on(step)
    return Game(game.setup, step.state, tuple(step.events), game)


def undo(game: Game) -> Game:
    """The game as it was before its last move (table mode's undo): the log without the last
    step's events, folded again (or simply the game before, when it is at hand)."""
    if game.before is not None and game.events and isinstance(game.events[0], MoveMade):
        return game.before
    log = game.log
    for index in range(len(log) - 1, -1, -1):
        if isinstance(log[index], MoveMade):
            return Game.from_log(game.setup, log[:index])
    return game


def _described(move: Move) -> str:
    return type(move).__name__


def _begin(step: Step, phase: Phase) -> None:
    if phase.kind == "night":
        first = "actions"
    else:
        first = DAY_RULES[step.state.setup.ruleset.day].first_step(phase.number)
    step.emit(PhaseBegan(phase, first))


def next_phase(state: State) -> Phase:
    """The phase after the current one (FORMAT numbering: the day after night N is day N; a
    forum game that opened with a day has night N after day N)."""
    phase = state.phase
    assert phase is not None
    night_first = state.setup.opens_with == "night"
    if phase.kind == "night":
        return Phase("day", phase.number if night_first else phase.number + 1)
    return Phase("night", phase.number + 1 if night_first else phase.number)


def _move_on(step: Step) -> None:
    """Begin the next phase once this one is over and nothing is awaited."""
    state = step.state
    if state.closing and not state.pending and not state.over:
        _begin(step, next_phase(state))


# What a move refused out of turn says, by what the move is (whole sentences, for translation).
_MUST_WAIT = {
    "night_action": N_(
        # Translators: %(phase)s is "night 2" or "day 1"; %(player)s's %(decision)s is the
        # decision the game waits for ("Ann's shot", "Ann's badge", "Ann's tie break").
        "%(phase)s: a night action must wait: the game waits for %(player)s's %(decision)s."
    ),
    "day_vote": N_(
        # Translators: as in "day 1: day vote must wait: the game waits for Ann's shot."
        "%(phase)s: day vote must wait: the game waits for %(player)s's %(decision)s."
    ),
    "sheriff_election": N_(
        # Translators: as in "day 1: sheriff election must wait: the game waits for Ann's shot."
        "%(phase)s: sheriff election must wait: the game waits for %(player)s's %(decision)s."
    ),
    "ability": N_(
        # Translators: %(ability)s is the ability's key word, quoted ('duel'): not translated.
        "%(phase)s: %(ability)s must wait: the game waits for %(player)s's %(decision)s."
    ),
    "smite": N_(
        # Translators: as in "day 1: a smite must wait: the game waits for Ann's shot."
        "%(phase)s: a smite must wait: the game waits for %(player)s's %(decision)s."
    ),
    "execution_calls": N_(
        # Translators: as in "day 1: execution calls must wait: the game waits for Ann's shot."
        "%(phase)s: execution calls must wait: the game waits for %(player)s's %(decision)s."
    ),
    "moving_on": N_(
        # Translators: as in "day 1: moving on must wait: the game waits for Ann's badge."
        "%(phase)s: moving on must wait: the game waits for %(player)s's %(decision)s."
    ),
}
_ONLY_BY = {
    # Translators: %(phase)s is "night 2" or "day 1".
    "night_action": N_("%(phase)s: a night action is only possible by night."),
    # Translators: %(phase)s is "night 2" or "day 1".
    "day_vote": N_("%(phase)s: day vote is only possible by day."),
    # Translators: %(phase)s is "night 2" or "day 1".
    "sheriff_election": N_("%(phase)s: sheriff election is only possible by day."),
    # Translators: %(ability)s is the ability's key word, quoted ('duel'): not translated.
    "ability": N_("%(phase)s: %(ability)s is only possible by day."),
    # Translators: %(phase)s is "night 2" or "day 1".
    "smite": N_("%(phase)s: a smite is only possible by day."),
    # Translators: %(phase)s is "night 2" or "day 1".
    "execution_calls": N_("%(phase)s: execution calls is only possible by day."),
}
_HAS_NO = {
    # Translators: %(ruleset)s is the ruleset's key word ("forum", "oxford", "classic").
    "day_vote": N_("%(phase)s: the %(ruleset)s game has no day vote."),
    # Translators: %(ruleset)s is the ruleset's key word ("forum", "oxford", "classic").
    "sheriff_election": N_("%(phase)s: the %(ruleset)s game has no sheriff election."),
    # Translators: %(ruleset)s is the ruleset's key word ("forum", "oxford", "classic").
    "execution_calls": N_("%(phase)s: the %(ruleset)s game has no execution calls."),
}
# The decisions the game waits for (`Awaited.kind`), as the messages above name them.
_DECISIONS = {
    # Translators: the decision a dead hunter or werewolf king makes: their shot.
    "shoot": N_("shot"),
    # Translators: the sheriff's badge, which a dying sheriff hands on.
    "badge": N_("badge"),
    # Translators: the sheriff's decision between tied players.
    "tie_break": N_("tie break"),
}


def _decision(kind: str) -> str:
    """An awaited decision's kind in words."""
    return _(_DECISIONS[kind]) if kind in _DECISIONS else kind.replace("_", " ")


def _require(state: State, kind: str, what: str, ability: str = "") -> None:
    """Refuse a move `what` (a key of `_MUST_WAIT`) while a decision is awaited, or outside
    the phases of `kind`."""
    assert state.phase is not None
    if state.pending:
        awaited = state.awaited
        assert awaited is not None
        raise OutOfTurnError(
            _(_MUST_WAIT[what])
            % {
                "phase": state.phase.shown,
                "player": awaited.player,
                "decision": _decision(awaited.kind),
                "ability": ability,
            }
        )
    if state.phase.kind != kind:
        raise OutOfTurnError(_(_ONLY_BY[what]) % {"phase": state.phase.shown, "ability": ability})


def _refuse(state: State, player: str, message: str, **values: object) -> IllegalMoveError:
    """A refusal of `player`'s move: `message` has `%(phase)s` and `%(player)s` (see
    `state.refusal`)."""
    return IllegalMoveError(refusal(state, player, message, **values))


def _check_player(state: State, player: object, what: str) -> str:
    """`player`, if they are a living player; `what` is "act" or "be smitten"."""
    assert state.phase is not None
    if not isinstance(player, str) or player not in state.setup.roles:
        message = _("%(phase)s: %(player)s is not a player.")
        raise IllegalMoveError(message % {"phase": state.phase.shown, "player": repr(player)})
    if player not in state.alive:
        if what == "act":
            message = _("%(phase)s: %(player)s is dead and cannot act.")
        else:
            message = _("%(phase)s: %(player)s is dead and cannot be smitten.")
        raise IllegalMoveError(message % {"phase": state.phase.shown, "player": player})
    return player


# --- night ----------------------------------------------------------------------------------


def _night_action(step: Step, move: NightAction) -> None:
    """A choice for tonight, checked against the state at nightfall (FORMAT: targets alive,
    each ability's own rules); the pack's agreement and the antidote's target are checked when
    the night ends, once they are final."""
    state = step.state
    _require(state, "night", "night_action")
    assert state.phase is not None
    player = _check_player(state, move.player, "act")
    setup = state.setup
    role = setup.roles[player]
    if not isinstance(move.choice, Mapping):
        raise _refuse(
            state, player, _("%(phase)s: %(player)s sent an action that is not an object.")
        )
    if move.choice and not setup.ruleset.first_night_actions and state.phase.number == 1:
        message = _(
            # Translators: %(ruleset)s is the ruleset's key word ("oxford"); %(player)s is
            # "Ann (seer)".
            "%(phase)s: %(ruleset)s night 1 has no actions: the first night is for meeting only "
            "(%(player)s sent one) (003 Werewolf, Cultists)."
        )
        raise _refuse(state, player, message, ruleset=setup.ruleset.name)
    if role.one_ability_a_night and len(move.choice) > 1:
        message = _(
            "%(phase)s: %(player)s may use only one of their abilities a night (%(section)s)."
        )
        raise _refuse(state, player, message, section=role.section)
    for key, target in move.choice.items():
        ability = role.ability(key) if isinstance(key, str) else None
        if ability is None or ability.timing is not Timing.NIGHT:
            # Translators: %(ability)s is what was sent, quoted ('kill'): it is not translated.
            message = _("%(phase)s: %(player)s has no night ability %(ability)s (%(section)s).")
            raise _refuse(state, player, message, ability=repr(key), section=role.section)
        section = ability.section
        if not has_now(state, player, ability):
            # Translators: %(ability)s is the ability's key word ("kill", "see"): not translated.
            message = _("%(phase)s: %(player)s cannot %(ability)s tonight (%(section)s).")
            raise _refuse(state, player, message, ability=key, section=section)
        if ability.uses is not None and state.used(player, key) >= ability.uses:
            # Translators: %(ability)s is the ability's key word ("save"): not translated.
            message = _("%(phase)s: %(player)s has already used their %(ability)s (%(section)s).")
            raise _refuse(state, player, message, ability=key, section=section)
        if ability.targets is Targets.ATTACKED:
            if target is not True:
                # Translators: %(ability)s is the ability's key word ("save") and "true" a word
                # of the program: neither is translated; %(target)s is what was sent instead.
                message = _("%(phase)s: %(player)s must send %(ability)s: true, not %(target)s.")
                raise _refuse(state, player, message, ability=key, target=repr(target))
            continue
        problem = target_problem(state, player, ability, target)
        if problem is not None:
            raise IllegalMoveError(problem)
    step.emit(ActionChosen(player, MappingProxyType(dict(move.choice))))


# --- day --------------------------------------------------------------------------------------


def _day_part(state: State, part: str, what: str) -> Callable[..., None]:
    """The function of the ruleset's day rule that takes `what` (e.g. the vote), or a refusal
    when this ruleset's day has no such thing."""
    _require(state, "day", what)
    handler = getattr(DAY_RULES[state.setup.ruleset.day], part)
    if handler is None:
        assert state.phase is not None
        message = _(_HAS_NO[what])
        raise OutOfTurnError(
            message % {"phase": state.phase.shown, "ruleset": state.setup.ruleset.name}
        )
    return handler


def _vote(step: Step, move: Vote) -> None:
    _day_part(step.state, "vote", "day_vote")(step, move.voter, move.target)


def _sheriff_vote(step: Step, move: SheriffVote) -> None:
    _day_part(step.state, "sheriff_vote", "sheriff_election")(step, move.voter, move.candidate)


def _use_ability(step: Step, move: UseAbility) -> None:
    """A day ability, used at once: its deaths follow, and the win is checked."""
    state = step.state
    _require(state, "day", "ability", ability=repr(move.ability))
    player = _check_player(state, move.player, "act")
    setup = state.setup
    ability = next(
        (a for a in setup.abilities(player) if a.key == move.ability and a.timing is Timing.DAY),
        None,
    )
    if ability is None:
        # Translators: %(ability)s is the ability's key word as sent ("shoot"): not translated.
        message = _("%(phase)s: %(player)s cannot %(ability)s (%(section)s).")
        section = setup.roles[player].section
        raise _refuse(state, player, message, ability=move.ability, section=section)
    rule = DAY_RULES[setup.ruleset.day]
    section = ability.section
    if state.day_over or state.step not in rule.abilities_in or state.call is not None:
        if state.day_over:
            message = _(
                # Translators: %(ability)s is the ability's key word ("duel"): not translated.
                "%(phase)s: %(player)s cannot %(ability)s after the day ended (%(section)s)."
            )
        else:
            # Translators: %(ability)s is the ability's key word ("duel"): not translated.
            message = _("%(phase)s: %(player)s cannot %(ability)s now (%(section)s).")
        raise _refuse(state, player, message, ability=move.ability, section=section)
    if ability.uses is not None and state.used(player, ability.key) >= ability.uses:
        # Translators: %(ability)s is the ability's key word ("duel"): not translated.
        message = _("%(phase)s: %(player)s has already used their %(ability)s (%(section)s).")
        raise _refuse(state, player, message, ability=ability.key, section=section)
    if ability.targets is Targets.NONE:
        if move.target is not None:
            # Translators: %(ability)s is the ability's key word ("explode"): not translated.
            message = _("%(phase)s: %(player)s cannot name a target to %(ability)s (%(section)s).")
            raise _refuse(state, player, message, ability=ability.key, section=section)
    elif move.target is not None or ability.targets is not Targets.OPTIONAL_OTHER:
        problem = target_problem(state, player, ability, move.target)
        if problem is not None:
            raise IllegalMoveError(problem)
    deaths = DAY[ability.resolver](step, player, move.target)
    kill(step, deaths)
    check_win(step)
    if step.state.day_over and not step.state.over:
        step.emit(PhaseClosing())


def _smite(step: Step, move: Smite) -> None:
    """003 Fate "can choose to smite you if you do not follow the rules"."""
    state = step.state
    _require(state, "day", "smite")
    assert state.phase is not None
    if not DAY_RULES[state.setup.ruleset.day].smite:
        message = _("%(phase)s: only Fate's game (rules/003) has smites.")
        raise OutOfTurnError(message % {"phase": state.phase.shown})
    if state.call is not None:
        message = _("%(phase)s: Fate waits for the execution call to end.")
        raise OutOfTurnError(message % {"phase": state.phase.shown})
    target = _check_player(state, move.target, "be smitten")
    kill(step, [(target, "smite", None)])
    check_win(step)


def _accuse(step: Step, move: Accuse) -> None:
    _day_part(step.state, "accuse", "execution_calls")(step, move.accused, move.by, move.second)


def _call_vote(step: Step, move: CallVote) -> None:
    _day_part(step.state, "call_vote", "execution_calls")(step, move.voter, move.yes)


# --- decisions and the clock --------------------------------------------------------------


def _decide(step: Step, move: Decide) -> None:
    """The decision the game waits for, from the player it waits for."""
    state = step.state
    awaited = state.awaited
    if awaited is None or awaited.player != move.player or awaited.kind != move.kind:
        assert state.phase is not None
        # Translators: %(player)s's %(decision)s: "Ann's shot", "Ann's badge", "Ann's tie break".
        message = _("%(phase)s: nothing waits for %(player)s's %(decision)s.")
        raise OutOfTurnError(
            message
            % {
                "phase": state.phase.shown,
                "player": move.player,
                "decision": _decision(move.kind),
            }
        )
    choice = move.choice
    if awaited.kind == "tie_break":
        if choice is not None and choice not in awaited.among:
            message = _(
                # Translators: %(choice)s is the name sent; %(tied)s the tied players ("Ann, Ben").
                "%(phase)s: %(player)s broke the tie with %(choice)s, who is not one of the tied "
                "(%(tied)s) (004 III)."
            )
            # Translators: the separator between the names of a list, all but the last.
            tied = _(", ").join(awaited.among)
            raise _refuse(state, move.player, message, choice=repr(choice), tied=tied)
        step.emit(Decided(awaited.kind, move.player, choice))
        classic_tie_break(step, choice)
        return
    if choice is not None:
        if awaited.kind == "badge":
            if choice not in state.setup.roles or choice not in state.alive:
                message = _(
                    "%(phase)s: %(player)s handed the badge to %(choice)s, who is not alive."
                )
                raise _refuse(state, move.player, message, choice=repr(choice))
        else:
            ability = state.setup.roles[move.player].ability(awaited.kind)
            assert ability is not None
            problem = target_problem(state, move.player, ability, choice)
            if problem is not None:
                raise IllegalMoveError(problem)
    decide(step, awaited.kind, move.player, choice)


def _advance(step: Step, move: Advance) -> None:
    state = step.state
    assert state.phase is not None
    if state.pending:
        if not move.at_deadline:
            _require(state, state.phase.kind, "moving_on")
        awaited = state.awaited
        assert awaited is not None
        _decide(step, Decide(awaited.player, awaited.kind, None))
        return
    if state.closing:
        raise OutOfTurnError(_("%(phase)s is already over.") % {"phase": state.phase.shown})
    if state.phase.kind == "night":
        close_night(step, at_deadline=move.at_deadline)
    else:
        DAY_RULES[state.setup.ruleset.day].advance(step, move.at_deadline)


# Each handler takes the move of its key's type.
_HANDLERS: Mapping[type, Callable[[Step, Any], None]] = {
    NightAction: _night_action,
    Vote: _vote,
    SheriffVote: _sheriff_vote,
    UseAbility: _use_ability,
    Smite: _smite,
    Accuse: _accuse,
    CallVote: _call_vote,
    Decide: _decide,
    Advance: _advance,
}
