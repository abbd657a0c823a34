"""Why a player died, in words, with the rule behind it: for the reveal and the table's story.

Each cause the engine records (`Died.cause`) has a plain description (English, marked with
`N_`: a page shows `_(text)`) and the section of the document that makes it so. rules/004
announces deaths without their causes during the game (004 III); the causes are shown at the
end. A cause several documents share names each one's section ("001 day phase / 004 III"); a
game cites its own document only (`described(cause, ruleset)`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from games.words import N_

CAUSES: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "attack": (N_("attacked by the werewolves"), "001 night phase / 004 IV"),
        "vote": (N_("voted out by the village"), "001 day phase / 004 III"),
        "mauled": (N_("mauled by the werewolves"), "003 Werewolf"),
        "trapped": (N_("hurt by the traps at a victim's door"), "003 Trapper"),
        "grief": (N_("died with their lover"), "003 Lovers"),
        "crossbow": (N_("shot with a crossbow"), "003 Vigilantes"),
        "execution": (N_("executed by the village"), "003 The Local Justice System"),
        "smite": (N_("struck down by Fate"), "003 Fate"),
        "poison": (N_("poisoned by the witch"), "004 II Witch"),
        "counter_injury": (N_("cursed by the wraith rider"), "004 II Wraith Rider, IV"),
        "charm": (N_("died with the wolf beauty who charmed them"), "004 II Wolf Beauty, IV"),
        "duel": (N_("lost the knight's duel"), "004 II Knight, IV"),
        "duel_lost": (N_("duelled a good player and died"), "004 II Knight"),
        "explosion": (N_("exploded"), "004 II Common Werewolf"),
        "blast": (N_("taken by the white werewolf king's explosion"), "004 II White Werewolf King"),
        "shot": (N_("shot by a dying hunter or werewolf king"), "004 II Hunter, Werewolf King"),
    }
)


# The document each ruleset plays (docs/rules.md).
DOCUMENTS: Mapping[str, str] = MappingProxyType({"forum": "001", "oxford": "003", "classic": "004"})


def described(cause: str, ruleset: str = "") -> tuple[str, str]:
    """(what happened, in English: a page shows `_(text)`; the section) for a cause of death,
    the section of `ruleset`'s own document when it is given ("vote" in a 1.7.0 game: "004
    III", never the forum's "001 day phase")."""
    text, sections = CAUSES.get(cause, (cause.replace("_", " "), ""))
    document = DOCUMENTS.get(ruleset)
    if document is None:
        return text, sections
    own = [part for part in sections.split(" / ") if part.startswith(document)]
    return text, " / ".join(own)
