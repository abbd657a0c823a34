"""Daybreak's artifacts: the tokens the Curator puts face down on a player's card.

Each artifact is one record: its name, what its holder plays as at dawn (None: the artifact
changes no team), and what its holder reads. Sources and reasoning: docs/rules.md, "Daybreak:
the Curator's artifacts". The pile is dealt shuffled with the cards (`deck.deal_cards`); the
Curator takes the next one, unseen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from games.words import N_, _

from .errors import shown
from .roles import Role


class Artifact(StrEnum):
    """An artifact token. The value is the scenario format's word."""

    CLAW = "claw"  # Claw of the Werewolf
    BRAND = "brand"  # Brand of the Villager
    CUDGEL = "cudgel"  # Cudgel of the Tanner
    VOID = "void"  # Void of Nothingness
    MASK = "mask"  # Mask of Muting
    SHROUD = "shroud"  # Shroud of Shame

    @property
    def title(self) -> str:  # type: ignore[override]
        """The token's name in the reader's language."""
        return _(ARTIFACTS[self].title)


@dataclass(frozen=True, slots=True)
class ArtifactRecord:
    """One artifact: its name, the role its holder plays as at dawn, what the holder reads."""

    artifact: Artifact
    title: str
    plays_as: Role | None
    told: str


_RECORDS = (
    ArtifactRecord(
        Artifact.CLAW,
        # Translators: Daybreak's artifact tokens, which the Curator puts on a card.
        N_("Claw of the Werewolf"),
        Role.WEREWOLF,
        N_("You are now a werewolf, whatever your card says, and play for the werewolves."),
    ),
    ArtifactRecord(
        Artifact.BRAND,
        N_("Brand of the Villager"),
        Role.VILLAGER,
        N_("You are now a plain villager, whatever your card says, and play for the town."),
    ),
    ArtifactRecord(
        Artifact.CUDGEL,
        N_("Cudgel of the Tanner"),
        Role.TANNER,
        N_("You are now a tanner, whatever your card says: you win only if you die."),
    ),
    ArtifactRecord(
        Artifact.VOID,
        N_("Void of Nothingness"),
        None,
        N_("It does nothing: you are still what your card says."),
    ),
    ArtifactRecord(
        Artifact.MASK,
        N_("Mask of Muting"),
        None,
        N_("You may not speak today (gestures only); your team is still your card's."),
    ),
    ArtifactRecord(
        Artifact.SHROUD,
        N_("Shroud of Shame"),
        None,
        N_(
            "You must turn away from the table today and may not look at anyone; your team is"
            " still your card's."
        ),
    ),
)

ARTIFACTS: Mapping[Artifact, ArtifactRecord] = MappingProxyType(
    {record.artifact: record for record in _RECORDS}
)

# The pile in its printed order: the scenario runner's pile when a scenario gives none.
ARTIFACT_PILE: tuple[Artifact, ...] = tuple(Artifact)


def parse_artifacts(value: object) -> tuple[Artifact, ...]:
    """The pile from a list of artifact words; raises ValueError naming a bad one."""
    if not isinstance(value, list | tuple):
        raise ValueError(_("The artifacts must be a list of artifact names."))
    pile: list[Artifact] = []
    for word in value:
        try:
            pile.append(Artifact(word))
        except ValueError:
            raise ValueError(_("%(name)s is not an artifact.") % {"name": shown(word)}) from None
    if len(set(pile)) != len(pile):
        raise ValueError(_("Each artifact is in the pile once."))
    return tuple(pile)
