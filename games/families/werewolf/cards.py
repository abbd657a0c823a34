"""The role cards of a multi-night ruleset, as a page (issue 27: a player's role message links
to its card). Read straight from the engine's role records: nothing about a role is written
here."""

from __future__ import annotations

from dataclasses import dataclass

from .engine import RULESETS
from .engine.roles import Ability, Role, Timing

WHEN: dict[Timing, str] = {
    Timing.NIGHT: "At night",
    Timing.DAY: "By day",
    Timing.ON_DEATH: "When they die",
    Timing.ON_ELIMINATION: "When the village votes them out",
    Timing.PASSIVE: "By itself",
}


@dataclass(frozen=True, slots=True)
class AbilityCard:
    when: str
    summary: str
    section: str
    uses: str


@dataclass(frozen=True, slots=True)
class RoleCard:
    name: str
    title: str
    side: str
    section: str
    summary: str
    abilities: tuple[AbilityCard, ...]
    limit: int | None


def _ability(ability: Ability) -> AbilityCard:
    uses = "" if ability.uses is None else f"{ability.uses} time{'s' if ability.uses > 1 else ''}"
    return AbilityCard(WHEN[ability.timing], ability.summary, ability.section, uses)


def _card(role: Role) -> RoleCard:
    return RoleCard(
        role.name,
        role.title,
        role.side,
        role.section,
        role.summary,
        tuple(_ability(a) for a in role.abilities),
        role.limit,
    )


def role_cards(ruleset: str) -> tuple[str, str, tuple[RoleCard, ...]]:
    """The ruleset's title, its document and every role's card; KeyError for an unknown one."""
    rules = RULESETS[ruleset]
    return rules.title, rules.document, tuple(_card(r) for r in rules.roles.values())
