"""The engine's API: start a game, apply a move, undo the last step.

A `Game` is the deal, the event log and the state the log folds to. `apply` checks a move
against the state, then appends the events it causes; it raises a `RuleError` (and changes
nothing) when the move breaks a rule. The phase moves on by itself once a phase is over and no
decision is awaited.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from .abilities import DAY, has_now
from .day import DAY_RULES, classic_tie_break, who
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
from .state import Phase, State


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
        raise OutOfTurnError(f"The game is over: {_described(move)} came after the end.")
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


def _require(state: State, kind: str, what: str) -> None:
    assert state.phase is not None
    if state.pending:
        awaited = state.awaited
        assert awaited is not None
        raise OutOfTurnError(
            f"{state.phase}: {what} must wait: the game waits for {awaited.player}'s "
            f"{awaited.kind.replace('_', ' ')}."
        )
    if state.phase.kind != kind:
        raise OutOfTurnError(f"{state.phase}: {what} is only possible by {kind}.")


def _refuse(state: State, player: str, problem: str, section: str = "") -> IllegalMoveError:
    where = f" ({section})" if section else ""
    return IllegalMoveError(f"{state.phase}: {who(state, player)} {problem}{where}.")


def _check_player(state: State, player: object, what: str) -> str:
    if not isinstance(player, str) or player not in state.setup.roles:
        raise IllegalMoveError(f"{state.phase}: {player!r} is not a player.")
    if player not in state.alive:
        raise IllegalMoveError(f"{state.phase}: {player} is dead and cannot {what}.")
    return player


# --- night ----------------------------------------------------------------------------------


def _night_action(step: Step, move: NightAction) -> None:
    """A choice for tonight, checked against the state at nightfall (FORMAT: targets alive,
    each ability's own rules); the pack's agreement and the antidote's target are checked when
    the night ends, once they are final."""
    state = step.state
    _require(state, "night", "a night action")
    player = _check_player(state, move.player, "act")
    setup = state.setup
    role = setup.roles[player]
    if not isinstance(move.choice, Mapping):
        raise _refuse(state, player, "sent an action that is not an object")
    if move.choice and not setup.ruleset.first_night_actions and state.phase.number == 1:
        raise IllegalMoveError(
            f"{state.phase}: {setup.ruleset.name} night 1 has no actions: the first night is "
            f"for meeting only ({who(state, player)} sent one) (003 Werewolf, Cultists)."
        )
    if role.one_ability_a_night and len(move.choice) > 1:
        raise _refuse(state, player, "may use only one of their abilities a night", role.section)
    for key, target in move.choice.items():
        ability = role.ability(key) if isinstance(key, str) else None
        if ability is None or ability.timing is not Timing.NIGHT:
            raise _refuse(state, player, f"has no night ability {key!r}", role.section)
        if not has_now(state, player, ability):
            raise _refuse(state, player, f"cannot {key} tonight", ability.section)
        if ability.uses is not None and state.used(player, key) >= ability.uses:
            raise _refuse(state, player, f"has already used their {key}", ability.section)
        if ability.targets is Targets.ATTACKED:
            if target is not True:
                raise _refuse(state, player, f"must send {key}: true, not {target!r}")
            continue
        problem = target_problem(state, player, ability, target)
        if problem is not None:
            raise _refuse(state, player, problem, ability.section)
    step.emit(ActionChosen(player, MappingProxyType(dict(move.choice))))


# --- day --------------------------------------------------------------------------------------


def _day_part(state: State, part: str, what: str) -> Callable[..., None]:
    """The function of the ruleset's day rule that takes `what` (e.g. the vote), or a refusal
    when this ruleset's day has no such thing."""
    _require(state, "day", what)
    handler = getattr(DAY_RULES[state.setup.ruleset.day], part)
    if handler is None:
        raise OutOfTurnError(f"{state.phase}: the {state.setup.ruleset.name} game has no {what}.")
    return handler


def _vote(step: Step, move: Vote) -> None:
    _day_part(step.state, "vote", "day vote")(step, move.voter, move.target)


def _sheriff_vote(step: Step, move: SheriffVote) -> None:
    _day_part(step.state, "sheriff_vote", "sheriff election")(step, move.voter, move.candidate)


def _use_ability(step: Step, move: UseAbility) -> None:
    """A day ability, used at once: its deaths follow, and the win is checked."""
    state = step.state
    _require(state, "day", f"{move.ability!r}")
    player = _check_player(state, move.player, "act")
    setup = state.setup
    ability = next(
        (a for a in setup.abilities(player) if a.key == move.ability and a.timing is Timing.DAY),
        None,
    )
    if ability is None:
        raise _refuse(state, player, f"cannot {move.ability}", setup.roles[player].section)
    rule = DAY_RULES[setup.ruleset.day]
    if state.day_over or state.step not in rule.abilities_in or state.call is not None:
        when = "after the day ended" if state.day_over else "now"
        raise _refuse(state, player, f"cannot {move.ability} {when}", ability.section)
    if ability.uses is not None and state.used(player, ability.key) >= ability.uses:
        raise _refuse(state, player, f"has already used their {ability.key}", ability.section)
    if ability.targets is Targets.NONE:
        if move.target is not None:
            raise _refuse(state, player, f"cannot name a target to {ability.key}", ability.section)
    elif move.target is not None or ability.targets is not Targets.OPTIONAL_OTHER:
        problem = target_problem(state, player, ability, move.target)
        if problem is not None:
            raise _refuse(state, player, problem, ability.section)
    deaths = DAY[ability.resolver](step, player, move.target)
    kill(step, deaths)
    check_win(step)
    if step.state.day_over and not step.state.over:
        step.emit(PhaseClosing())


def _smite(step: Step, move: Smite) -> None:
    """003 Fate "can choose to smite you if you do not follow the rules"."""
    state = step.state
    _require(state, "day", "a smite")
    if not DAY_RULES[state.setup.ruleset.day].smite:
        raise OutOfTurnError(f"{state.phase}: only Fate's game (rules/003) has smites.")
    if state.call is not None:
        raise OutOfTurnError(f"{state.phase}: Fate waits for the execution call to end.")
    target = _check_player(state, move.target, "be smitten")
    kill(step, [(target, "smite", None)])
    check_win(step)


def _accuse(step: Step, move: Accuse) -> None:
    _day_part(step.state, "accuse", "execution calls")(step, move.accused, move.by, move.second)


def _call_vote(step: Step, move: CallVote) -> None:
    _day_part(step.state, "call_vote", "execution calls")(step, move.voter, move.yes)


# --- decisions and the clock --------------------------------------------------------------


def _decide(step: Step, move: Decide) -> None:
    """The decision the game waits for, from the player it waits for."""
    state = step.state
    awaited = state.awaited
    if awaited is None or awaited.player != move.player or awaited.kind != move.kind:
        raise OutOfTurnError(
            f"{state.phase}: nothing waits for {move.player}'s {move.kind.replace('_', ' ')}."
        )
    choice = move.choice
    if awaited.kind == "tie_break":
        if choice is not None and choice not in awaited.among:
            raise _refuse(
                state,
                move.player,
                f"broke the tie with {choice!r}, who is not one of the tied "
                f"({', '.join(awaited.among)})",
                "004 III",
            )
        step.emit(Decided(awaited.kind, move.player, choice))
        classic_tie_break(step, choice)
        return
    if choice is not None:
        if awaited.kind == "badge":
            if choice not in state.setup.roles or choice not in state.alive:
                raise _refuse(
                    state, move.player, f"handed the badge to {choice!r}, who is not alive"
                )
        else:
            ability = state.setup.roles[move.player].ability(awaited.kind)
            assert ability is not None
            problem = target_problem(state, move.player, ability, choice)
            if problem is not None:
                raise _refuse(state, move.player, problem, ability.section)
    decide(step, awaited.kind, move.player, choice)


def _advance(step: Step, move: Advance) -> None:
    state = step.state
    assert state.phase is not None
    if state.pending:
        if not move.at_deadline:
            _require(state, state.phase.kind, "moving on")
        awaited = state.awaited
        assert awaited is not None
        _decide(step, Decide(awaited.player, awaited.kind, None))
        return
    if state.closing:
        raise OutOfTurnError(f"{state.phase} is already over.")
    if state.phase.kind == "night":
        close_night(step, at_deadline=move.at_deadline)
    else:
        DAY_RULES[state.setup.ruleset.day].advance(step, move.at_deadline)


_HANDLERS = {
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
