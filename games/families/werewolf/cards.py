"""The role cards of a multi-night ruleset, as a page (issue 27: a player's role message links
to its card). Read straight from the engine's role records: nothing about a role is written
here."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy, ngettext

from . import names
from .engine import RULESETS
from .engine.roles import Ability, Role, Timing

WHEN = {
    Timing.NIGHT: gettext_lazy("At night"),
    Timing.DAY: gettext_lazy("By day"),
    Timing.ON_DEATH: gettext_lazy("When they die"),
    Timing.ON_ELIMINATION: gettext_lazy("When the village votes them out"),
    # Translators: an ability that acts by itself, with no choice (information, a curse).
    Timing.PASSIVE: gettext_lazy("By itself"),
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
    side: str  # the key (a style); side_title is the word shown
    side_title: str
    section: str
    summary: str
    abilities: tuple[AbilityCard, ...]
    limit: int | None


def _ability(ability: Ability) -> AbilityCard:
    uses = (
        ""
        if ability.uses is None
        else ngettext("%(count)d time", "%(count)d times", ability.uses) % {"count": ability.uses}
    )
    return AbilityCard(
        str(WHEN[ability.timing]), names.text(ability.summary), ability.section, uses
    )


def _card(role: Role) -> RoleCard:
    return RoleCard(
        role.name,
        names.title(role),
        role.side,
        names.side(role.side),
        role.section,
        names.text(role.summary),
        tuple(_ability(a) for a in role.abilities),
        role.limit,
    )


def role_cards(ruleset: str) -> tuple[str, str, tuple[RoleCard, ...]]:
    """The ruleset's title, its document and every role's card; KeyError for an unknown one."""
    rules = RULESETS[ruleset]
    return names.text(rules.title), rules.document, tuple(_card(r) for r in rules.roles.values())
