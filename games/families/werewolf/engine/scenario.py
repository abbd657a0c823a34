"""The multi-night scenario format (../shared/scenarios/werewolf/FORMAT.md): JSON in, JSON out.

A thin client of the engine's API: it checks the shape of the input, turns each phase into the
moves a table would send (night actions, votes, events, then "move on"), answers the decisions
the engine waits for from the phase's `on_death` and `tie_break`, and prints the phase reports.
Pure: no Django, no I/O (the `play_werewolf` command reads and prints).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any

from .errors import RuleError, shown
from .game import Game, apply, start
from .moves import (
    Accuse,
    Advance,
    CallVote,
    Decide,
    NightAction,
    SheriffVote,
    Smite,
    UseAbility,
    Vote,
)
from .report import PhaseReport, phase_reports
from .setup import make_setup, ruleset_named
from .state import Outcome


class ScenarioError(RuleError):
    """The scenario is not well formed (wrong types, missing or unknown keys)."""


_BASE_KEYS = frozenset({"ruleset", "options", "players", "roles", "phases"})
_PAIR_KEYS = frozenset({"crossbows", "lovers", "rivals"})
_NIGHT_KEYS = frozenset({"actions", "on_death"})
_DAY_KEYS = {
    "forum": frozenset({"votes", "on_death"}),
    "oxford": frozenset({"events", "on_death"}),
    "classic": frozenset({"sheriff_votes", "events", "votes", "tie_break", "on_death"}),
}
_REACTION_KEYS = frozenset({"shoot", "badge"})


def run_scenario(scenario: Any) -> dict[str, Any]:
    """Play one scenario and return FORMAT.md's result object. Raises RuleError."""
    if not isinstance(scenario, dict):
        raise ScenarioError("A scenario must be a JSON object.")
    for key in ("ruleset", "players", "roles"):
        if key not in scenario:
            raise ScenarioError(f'The scenario has no "{key}".')
    rules = ruleset_named(scenario["ruleset"])
    allowed = _BASE_KEYS | (_PAIR_KEYS if rules.has_pairs else frozenset())
    unknown = sorted(set(scenario) - allowed, key=str)
    if unknown:
        raise ScenarioError(f"Unknown scenario key {shown(unknown[0])} for {rules.name}.")
    for key in ("options", "phases", *_PAIR_KEYS):
        if key in scenario and scenario[key] is None:
            raise ScenarioError(f'"{key}" cannot be null: leave it out instead.')
    phases = scenario.get("phases", [])
    if not isinstance(phases, list):
        raise ScenarioError('"phases" must be a list.')
    entries = [_phase_entry(i, entry) for i, entry in enumerate(phases)]
    opens_with = entries[0][0] if entries else "night"
    if opens_with not in rules.opens_with:
        raise ScenarioError(f"A {rules.name} game opens with a night, not a day.")
    setup = make_setup(
        rules.name,
        scenario["players"],
        scenario["roles"],
        scenario.get("options", {}),
        crossbows=scenario.get("crossbows"),
        lovers=scenario.get("lovers"),
        rivals=scenario.get("rivals"),
        opens_with=opens_with,
    )
    game = start(setup)
    for kind, body in entries:
        state = game.state
        assert state.phase is not None
        if state.over:
            raise RuleError(f"A {kind} after the game ended ({_won(state.outcome)}).")
        if kind != state.phase.kind:
            raise ScenarioError(
                f"Phases alternate: after {_previous(game)} comes {state.phase}, not a {kind}."
            )
        game = _PLAYERS[(kind, rules.name) if kind == "day" else ("night", "")](game, body)
    reports = phase_reports(setup, game.log)[: len(entries)]
    out: dict[str, Any] = {"phases": [_entry(rules.name, r) for r in reports]}
    outcome = game.state.outcome
    out["alive"] = list(game.state.living())
    out["winner"] = outcome.winner if outcome else None
    out["winners"] = list(outcome.winners) if outcome else []
    if outcome is not None and outcome.duel:
        out["duel"] = [list(pair) for pair in outcome.duel]
    return out


def _won(outcome: Outcome | None) -> str:
    return f"{outcome.winner} won" if outcome else "it ended"


def _previous(game: Game) -> str:
    reports = phase_reports(game.setup, game.log)
    return str(reports[-2].phase) if len(reports) > 1 else "the start"


def _phase_entry(index: int, entry: Any) -> tuple[str, dict[str, Any]]:
    if not isinstance(entry, dict) or len(entry) != 1:
        raise ScenarioError(f'Phase {index + 1} must be an object with one key, "night" or "day".')
    ((kind, body),) = entry.items()
    if kind not in ("night", "day"):
        raise ScenarioError(
            f'Phase {index + 1}: unknown phase {shown(kind)} (use "night" or "day").'
        )
    if not isinstance(body, dict):
        raise ScenarioError(f"Phase {index + 1}: a {kind} must be an object.")
    return kind, body


def _keys(game: Game, body: dict[str, Any], allowed: frozenset[str]) -> None:
    unknown = sorted(set(body) - allowed, key=str)
    if unknown:
        raise ScenarioError(f"{game.state.phase}: unknown key {shown(unknown[0])}.")


def _mapping(game: Game, body: dict[str, Any], key: str) -> dict[str, Any]:
    value = body.get(key, {})
    if not isinstance(value, dict):
        raise ScenarioError(f'{game.state.phase}: "{key}" must be an object.')
    return value


def _name(game: Game, value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ScenarioError(
            f"{game.state.phase}: {what} must be a player's name, not {shown(value)}."
        )
    return value


# --- decisions the engine waits for ------------------------------------------------------------


class _Answers:
    """The phase's `on_death` reactions (and rules/004's tie break), handed out as the engine
    asks for them; whatever is left unasked at the end was not a legal reaction."""

    def __init__(self, game: Game, body: dict[str, Any]) -> None:
        reactions = _mapping(game, body, "on_death")
        rules = game.setup.ruleset
        if reactions and not rules.has_sheriff:
            raise ScenarioError(
                f"{game.state.phase}: {rules.name} has no reactions on death: on_death must "
                "be empty."
            )
        self.phase = game.state.phase
        self.left: dict[tuple[str, str], Any] = {}
        for player, reaction in reactions.items():
            if not isinstance(reaction, dict) or not reaction:
                raise ScenarioError(
                    f"{self.phase}: {player}'s reaction must be an object such as "
                    '{"shoot": NAME} or {"badge": NAME}.'
                )
            for key, value in reaction.items():
                if key not in _REACTION_KEYS:
                    raise ScenarioError(f"{self.phase}: {player}: unknown reaction {shown(key)}.")
                if key == "shoot" and not isinstance(value, str):
                    raise ScenarioError(f"{self.phase}: {player}'s shot must name a player.")
                if key == "badge" and value is not None and not isinstance(value, str):
                    raise ScenarioError(
                        f"{self.phase}: {player}'s badge must go to a player or null."
                    )
                self.left[(player, key)] = value
        self.tie_break = body.get("tie_break")
        if self.tie_break is not None and not isinstance(self.tie_break, str):
            raise ScenarioError(f"{self.phase}: tie_break must name a player or be null.")

    def answer(self, game: Game) -> Game:
        while game.state.pending and not game.state.over:
            awaited = game.state.awaited
            assert awaited is not None
            if awaited.kind == "tie_break":
                choice, self.tie_break = self.tie_break, None
            else:
                choice = self.left.pop((awaited.player, awaited.kind), None)
            game = apply(game, Decide(awaited.player, awaited.kind, choice))
        return game

    def finish(self, game: Game) -> None:
        """Errors for what was never asked for (FORMAT: a reaction of a player who does not die
        in that phase, or who may not react, is an error; so is a tie break without a tie)."""
        if self.tie_break is not None:
            raise RuleError(
                f"{self.phase}: tie_break names {self.tie_break}, but there was no tie for a "
                "living sheriff to break (004 III)."
            )
        if not self.left:
            return
        player, key = next(iter(self.left))
        raise RuleError(f"{self.phase}: {_refused_reaction(game, player, key, self.phase)}")


def _refused_reaction(game: Game, player: str, key: str, phase: object) -> str:
    state = game.state
    setup = game.setup
    if player not in setup.roles:
        return f"{player!r} in on_death is not a player."
    who = f"{player} ({setup.roles[player].name})"
    death = state.deaths.get(player)
    if death is None or death.phase != phase:
        return f"{who} did not die in this phase, so has no reaction."
    if state.over:
        return f"{who}'s {key} would come after the game ended."
    if key == "badge":
        return f"{who} was not the sheriff when they died (004 III)."
    ability = setup.roles[player].ability(key)
    if ability is None:
        return f"{who} has no {key} on death."
    return f"{who} may not {key}: died of {death.cause.replace('_', ' ')} ({ability.section})."


# --- phases -------------------------------------------------------------------------------------


def _night(game: Game, body: dict[str, Any]) -> Game:
    _keys(game, body, _NIGHT_KEYS)
    answers = _Answers(game, body)
    actions = _mapping(game, body, "actions")
    for player, action in actions.items():
        if not isinstance(action, dict) or not action:
            raise ScenarioError(
                f"{game.state.phase}: {player}'s action must be a non-empty object."
            )
        game = apply(game, NightAction(player, action))
    game = answers.answer(apply(game, Advance()))
    answers.finish(game)
    return game


def _forum_day(game: Game, body: dict[str, Any]) -> Game:
    _keys(game, body, _DAY_KEYS["forum"])
    answers = _Answers(game, body)
    for voter, target in _mapping(game, body, "votes").items():
        game = apply(game, Vote(voter, _name(game, target, f"{voter}'s vote")))
    game = answers.answer(apply(game, Advance()))
    answers.finish(game)
    return game


def _oxford_day(game: Game, body: dict[str, Any]) -> Game:
    _keys(game, body, _DAY_KEYS["oxford"])
    answers = _Answers(game, body)
    events = body.get("events", [])
    if not isinstance(events, list):
        raise ScenarioError(f'{game.state.phase}: "events" must be a list.')
    for event in events:
        if game.state.over:
            raise RuleError(f"{game.state.phase}: an event after the game ended.")
        game = _oxford_event(game, event)
    if not game.state.over:
        game = apply(game, Advance())
    answers.finish(game)
    return game


def _event(game: Game, event: Any, kinds: tuple[str, ...]) -> tuple[str, Any]:
    if not isinstance(event, dict) or len(event) != 1:
        raise ScenarioError(f"{game.state.phase}: each event is an object with one key.")
    ((kind, value),) = event.items()
    if kind not in kinds:
        raise ScenarioError(f"{game.state.phase}: unknown event {shown(kind)}.")
    return kind, value


def _fields(
    game: Game, value: Any, required: AbstractSet[str], optional: AbstractSet[str] = frozenset()
) -> dict:
    if not isinstance(value, dict) or not required <= set(value) <= required | optional:
        names = ", ".join(sorted(required))
        raise ScenarioError(f"{game.state.phase}: the event needs exactly {names}.")
    return value


def _oxford_event(game: Game, event: Any) -> Game:
    kind, value = _event(game, event, ("shoot", "call", "smite"))
    if kind == "shoot":
        shot = _fields(game, value, {"by", "target"})
        return apply(
            game,
            UseAbility(
                _name(game, shot["by"], "by"), "shoot", _name(game, shot["target"], "target")
            ),
        )
    if kind == "smite":
        return apply(game, Smite(_name(game, value, "smite")))
    call = _fields(game, value, {"accused", "by", "second", "yes"})
    yes = call["yes"]
    if not isinstance(yes, list) or not all(isinstance(p, str) for p in yes):
        raise ScenarioError(f'{game.state.phase}: "yes" must be a list of players.')
    if len(set(yes)) != len(yes):
        raise RuleError(f"{game.state.phase}: a player opened their fist twice in one call.")
    game = apply(
        game,
        Accuse(
            _name(game, call["accused"], "accused"),
            _name(game, call["by"], "by"),
            _name(game, call["second"], "second"),
        ),
    )
    for voter in yes:
        game = apply(game, CallVote(voter, True))
    return apply(game, Advance())


def _classic_day(game: Game, body: dict[str, Any]) -> Game:
    _keys(game, body, _DAY_KEYS["classic"])
    answers = _Answers(game, body)
    label = game.state.phase
    sheriff_votes = _mapping(game, body, "sheriff_votes")
    if game.state.step == "election":
        for voter, candidate in sheriff_votes.items():
            game = apply(game, SheriffVote(voter, _name(game, candidate, f"{voter}'s vote")))
        game = apply(game, Advance())
    elif sheriff_votes:
        raise RuleError(f"{label}: the sheriff is elected on day 1 only (004 III).")
    events = body.get("events", [])
    if not isinstance(events, list):
        raise ScenarioError(f'{label}: "events" must be a list.')
    for event in events:
        game = _still_today(game, label, "an event")
        kind, value = _event(game, event, ("duel", "explode"))
        if kind == "duel":
            duel = _fields(game, value, {"by", "target"})
            move = UseAbility(
                _name(game, duel["by"], "by"), "duel", _name(game, duel["target"], "target")
            )
        else:
            blast = _fields(game, value, {"by"}, {"target"})
            target = blast.get("target")
            if "target" in blast:
                target = _name(game, target, "target")
            move = UseAbility(_name(game, blast["by"], "by"), "explode", target)
        game = answers.answer(apply(game, move))
    votes = _mapping(game, body, "votes")
    if game.state.over or game.state.phase != label:
        if votes:
            _still_today(game, label, "a vote")
    else:
        game = apply(game, Advance())  # the speeches end: the vote opens
        for voter, target in votes.items():
            game = apply(game, Vote(voter, _name(game, target, f"{voter}'s vote")))
        game = answers.answer(apply(game, Advance()))
    answers.finish(game)
    return game


def _still_today(game: Game, label: object, what: str) -> Game:
    state = game.state
    if state.over:
        raise RuleError(f"{label}: {what} after the game ended ({_won(state.outcome)}).")
    if state.phase != label or state.day_over:
        raise RuleError(f"{label}: {what} after the day ended.")
    return game


_PLAYERS: dict[tuple[str, str], Callable[[Game, dict[str, Any]], Game]] = {
    ("night", ""): _night,
    ("day", "forum"): _forum_day,
    ("day", "oxford"): _oxford_day,
    ("day", "classic"): _classic_day,
}


# --- output ---------------------------------------------------------------------------------


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def _entry(ruleset: str, report: PhaseReport) -> dict[str, Any]:
    entry: dict[str, Any] = {"phase": report.phase.label, "dead": report.dead}
    night = report.phase.kind == "night"
    if night:
        entry["told"] = report.told
    if ruleset == "forum":
        entry["revealed"] = report.revealed
        if not night:
            entry["tally"] = {k: _number(v) for k, v in (report.tally or {}).items()}
            entry["eliminated"] = report.eliminated
    elif ruleset == "oxford":
        if night and report.injured is not None:
            entry["injured"] = list(report.injured)
        if not night:
            entry["calls"] = [
                {"accused": c.accused, "yes": c.yes, "no": c.no, "executed": c.executed}
                for c in report.calls
            ]
    elif night:
        entry["attacked"] = report.attacked
        entry["silenced"] = report.silenced
    else:
        entry["sheriff"] = report.sheriff
        entry["tally"] = {k: _number(v) for k, v in (report.tally or {}).items()}
        entry["eliminated"] = report.eliminated
        if report.idiot_revealed is not None:
            entry["idiot_revealed"] = report.idiot_revealed
    if report.outcome is not None:
        entry["winner"] = report.outcome.winner
    return entry
