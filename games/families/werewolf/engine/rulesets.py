"""The three rulesets as data: their roles, sides, options and the named rules they follow.

Each `Ruleset` names the functions that differ between the documents (how the werewolves'
choices collapse, the death pass at daybreak, the day's decision, the win check); those
functions live in `night.py`, `day.py` and `victory.py`, found by name. Every option and rule
carries the section it comes from, so that a page can show a host why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from games.words import N_

from .roles import CLASSIC_ROLES, FORUM_ROLES, OXFORD_ROLES, Role


@dataclass(frozen=True, slots=True)
class Option:
    """A named choice a host makes before the game, with its default and its source. `summary`
    is English, marked with `N_`: a page shows `_(option.summary)`."""

    name: str
    default: object
    choices: tuple[object, ...]
    section: str
    summary: str


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One rule document's game.

    `pack` names how the werewolves' night choices become attacks (`night.PACK_RULES`),
    `daybreak` the death pass (`night.DAYBREAK_RULES`), `day` the day's decision
    (`day.DAY_RULES`) and `victory` the win check (`victory.VICTORY_RULES`). `title` is English,
    marked with `N_`: a page shows `_(ruleset.title)`.
    """

    name: str
    document: str
    title: str
    roles: Mapping[str, Role]
    sides: tuple[str, ...]
    pack: str
    daybreak: str
    day: str
    victory: str
    options: tuple[Option, ...] = ()
    opens_with: frozenset[str] = frozenset({"night"})
    first_night_actions: bool = True
    reveals_on_death: bool = False  # rules/001: affiliation and role shown on elimination
    has_sheriff: bool = False
    has_pairs: bool = False  # rules/003: lovers and rivals, crossbows given by Fate
    win_after_each_day_event: bool = False
    living_winners_only: bool = False
    min_players: int = 4
    max_players: int = 30

    def option(self, name: str) -> Option | None:
        for option in self.options:
            if option.name == name:
                return option
        return None

    def resolve_options(self, given: Mapping[str, object]) -> Mapping[str, object]:
        """Every option's value: the given ones over the defaults. Assumes `given` is valid."""
        values = {option.name: option.default for option in self.options}
        values.update(given)
        return MappingProxyType(values)


def _table(roles: tuple[Role, ...]) -> Mapping[str, Role]:
    return MappingProxyType({role.name: role for role in roles})


FORUM = Ruleset(
    name="forum",
    document="001",
    title=N_("The forum game"),
    roles=_table(FORUM_ROLES),
    sides=("village", "werewolves", "lunatic"),
    pack="plurality",
    daybreak="forum",
    day="plurality",
    victory="forum",
    opens_with=frozenset({"night", "day"}),
    reveals_on_death=True,
)

OXFORD = Ruleset(
    name="oxford",
    document="003",
    title=N_("The Oxford game"),
    roles=_table(OXFORD_ROLES),
    sides=("village", "werewolves", "lovers"),
    pack="individual",
    daybreak="hits",
    day="execution_calls",
    victory="oxford",
    first_night_actions=False,
    has_pairs=True,
    win_after_each_day_event=True,
    living_winners_only=True,
)

CLASSIC = Ruleset(
    name="classic",
    document="004",
    title=N_("The 1.7.0 game"),
    roles=_table(CLASSIC_ROLES),
    sides=("good", "werewolves", "none"),
    pack="agreed",
    daybreak="classic",
    day="sheriff",
    victory="classic",
    has_sheriff=True,
    options=(
        Option(
            "victory",
            "side",
            ("side", "total"),
            "004 V.1, V.2",
            N_(
                '"side": the werewolves win once every divine or every commoner is out; '
                '"total": only once the whole good camp is out.'
            ),
        ),
        Option(
            "witch_self_save_first_night",
            True,
            (True, False),
            "004 House Rule Tips",
            N_("The witch may use her antidote on herself on the first night (never later)."),
        ),
        Option(
            "guardian_repeat",
            False,
            (True, False),
            "004 House Rule Tips",
            N_("The guardian may guard the same player two nights running."),
        ),
        Option(
            "wolf_king_shoots_if_killed_by_wolves",
            True,
            (True, False),
            "004 House Rule Tips",
            N_("The werewolf king may still shoot when the pack's own attack killed him."),
        ),
        Option(
            "knight_duel_ends_day",
            True,
            (True, False),
            "004 House Rule Tips",
            N_("A duel that kills a werewolf ends the day at once, with no vote."),
        ),
    ),
)

RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {ruleset.name: ruleset for ruleset in (FORUM, OXFORD, CLASSIC)}
)
