"""The scenario format of ../shared/scenarios/FORMAT.md: JSON in, JSON-ready dicts out.

Pure: no Django, no I/O. The `play_scenario` management command does the reading and printing.
"""

from __future__ import annotations

from typing import Any

from .artifacts import parse_artifacts
from .deck import make_deal
from .errors import RuleError, shown
from .game import play_game
from .roles import EXPANSION_ROLES, Role, Ruleset


class ScenarioError(RuleError):
    """The scenario is not well formed (wrong types, missing keys)."""


_KEYS = frozenset({"ruleset", "players", "deal", "night", "votes"})
# Our extension for Daybreak (docs/scenarios.md): the Curator's artifact pile.
_DAYBREAK_KEYS = frozenset({"artifacts"})


def _ruleset(value: Any) -> Ruleset:
    if value is None:
        return Ruleset.HOUSE
    try:
        return Ruleset(value)
    except (ValueError, TypeError):
        raise ScenarioError(f'Unknown ruleset {value!r}: use "house" or "official".') from None


def run_scenario(scenario: Any) -> dict[str, Any]:
    """Play one scenario and return the result object of FORMAT.md.

    Raises RuleError (or its subclasses) with a message naming the player and the problem.
    """
    if not isinstance(scenario, dict):
        raise ScenarioError("A scenario must be a JSON object.")
    unknown = sorted(set(scenario) - _KEYS - _DAYBREAK_KEYS)
    if unknown:
        raise ScenarioError(f"Unknown scenario key {shown(unknown[0])}.")
    ruleset = _ruleset(scenario.get("ruleset"))
    players = scenario.get("players")
    if not isinstance(players, list):
        raise ScenarioError('"players" must be a list of names.')
    cards = scenario.get("deal")
    if not isinstance(cards, dict):
        raise ScenarioError('"deal" must map every player and centre position to a role.')
    pile = None
    if "artifacts" in scenario:
        try:
            pile = parse_artifacts(scenario["artifacts"])
        except ValueError as error:
            raise ScenarioError(str(error)) from None
    deal = make_deal(ruleset, players, cards, strict=False, artifacts=pile)
    night = scenario.get("night", {})
    if not isinstance(night, dict):
        raise ScenarioError('"night" must map players to lists of targets.')
    for actor, targets in night.items():
        if not isinstance(targets, list):
            raise ScenarioError(f"{shown(actor)}: the night targets must be a list.")
    votes = scenario.get("votes")
    if votes is not None and not isinstance(votes, dict):
        raise ScenarioError('"votes" must map every player to the player they vote for.')
    result = play_game(deal, night, votes, with_log=False)
    out: dict[str, Any] = {
        "final": {pos: card.value for pos, card in result.night.final.items()},
        "seen": {
            player: {pos: card.value for pos, card in views.items()}
            for player, views in result.night.seen.items()
        },
    }
    if ruleset is Ruleset.OFFICIAL:
        out["copied"] = result.night.copied.value if result.night.copied else None
    if any(card in EXPANSION_ROLES for card in deal.cards.values()):
        # Daybreak's tokens and marks, only for a deal with an expansion's card, so a base
        # game prints exactly the FORMAT.md result (docs/scenarios.md).
        night_result = result.night
        out["shields"] = list(night_result.shields)
        out["artifacts"] = {p: a.value for p, a in night_result.artifacts.items()}
        out["revealed"] = list(night_result.revealed)
        out["plays_as"] = {p: night_result.plays_as(p).value for p in deal.players}
        if night_result.marks:
            # Vampire (docs/scenarios.md): each player's mark at dawn, and what the Copycat
            # card copied; only for a deal with a Vampire card (a night with marks).
            out["marks"] = {p: night_result.marks[p].value for p in deal.players}
            copycat = night_result.became.get(Role.COPYCAT)
            out["copycat"] = copycat.value if copycat is not None else None
    if result.vote is not None and result.outcome is not None:
        out["dead"] = list(result.vote.dead)
        out["winners"] = list(result.outcome.winners)
    return out
