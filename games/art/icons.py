"""Which icon stands for each role and each team: the one mapping `bin/vendor-icons` reads to
copy the chosen SVGs from the game-icons collection (game-icons.net, CC BY 3.0) into
static/icons/, and the template tags read to find them.

A role is named by its key in its family's engine (One Night's `Role` values, multi-night
Werewolf's role names in every ruleset); a key two families share (werewolf, seer, hunter,
villager) is the same figure and has one icon. A team is one of four colours and icons; the
families' own names for their sides are folded into them by `TEAM_OF` (One Night's "town" and
1.7.0's "good" are the village). Nothing here knows a rule: it is names only.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# role key -> game-icons name
ROLE_ICONS: Mapping[str, str] = MappingProxyType(
    {
        # One Night (rules/000, rules/002)
        "doppelganger": "double-face-mask",
        "werewolf": "werewolf",
        "minion": "evil-minion",
        "mason": "trowel",
        "seer": "crystal-ball",
        "robber": "robber-mask",
        "troublemaker": "card-exchange",
        "drunk": "beer-stein",
        "insomniac": "sleepy",
        "hunter": "bow-arrow",
        "villager": "farmer",
        "tanner": "leather-boot",
        # One Night's Daybreak and the Prince (issue 42). The witch shares the 1.7.0 witch's
        # key and icon.
        "sentinel": "bordered-shield",
        "alpha_wolf": "wolf-head",
        "mystic_wolf": "third-eye",
        "dream_wolf": "night-sleep",
        "apprentice_seer": "crystal-eye",
        "paranormal_investigator": "magnifying-glass",
        "village_idiot": "dunce-cap",
        "revealer": "flashlight",
        "curator": "locked-chest",
        "bodyguard": "police-officer-head",
        "prince": "jewel-crown",
        # One Night's Vampire (issue 42, docs/rules.md 8b)
        "copycat": "cat",
        "vampire": "fangs",
        "the_master": "vampire-cape",
        "the_count": "bat-mask",
        "renfield": "bat-wing",
        "diseased": "plague-doctor-profile",
        "cupid": "cupidon-arrow",
        "instigator": "backstab",
        "priest": "prayer",
        "assassin": "hooded-assassin",
        "apprentice_assassin": "ninja-mask",
        "marksman": "reticule",
        "pickpocket": "robber-hand",
        "gremlin": "imp-laugh",
        # Multi-night Werewolf: the forum game (rules/001)
        "lunatic": "psychic-waves",
        "protector": "checked-shield",
        # the Oxford game (rules/003)
        "dark_villager": "hood",
        "wolfsbane": "vine-flower",
        "trapper": "wolf-trap",
        "vigilante": "blunderbuss",
        "mayor": "top-hat",
        "cultist": "pentagram-rose",
        # the 1.7.0 game (rules/004)
        "wolf_beauty": "lips",
        "white_wolf_king": "direwolf",
        "hidden_wolf": "cloak-dagger",
        "wolf_king": "king",
        "wraith_rider": "spectre",
        "stone_ghost": "stone-bust",
        "witch": "witch-flight",
        "guardian": "guards",
        "knight": "black-knight-helm",
        "idiot": "jester-hat",
        "silencer": "silenced",
        "grave_keeper": "graveyard",
    }
)

# team -> game-icons name. "vampire" waits for a game with vampires.
TEAM_ICONS: Mapping[str, str] = MappingProxyType(
    {
        "village": "village",
        "werewolf": "wolf-howl",
        "neutral": "scales",
        "vampire": "vampire-dracula",
    }
)

# A family's name for a side -> the team whose colour and icon it wears.
TEAM_OF: Mapping[str, str] = MappingProxyType(
    {
        "village": "village",
        "town": "village",  # One Night
        "good": "village",  # 1.7.0
        "werewolf": "werewolf",  # One Night
        "werewolves": "werewolf",  # multi-night
        "tanner": "neutral",  # One Night: plays for himself
        "lunatic": "neutral",  # the forum game
        "none": "neutral",
        "neutral": "neutral",
        "vampire": "vampire",
        "vampires": "vampire",
        "assassin": "neutral",  # One Night's Vampire: plays for himself
        "apprentice_assassin": "neutral",
    }
)


def team_key(side: object) -> str:
    """The team (village, werewolf, neutral, vampire) a family's side name wears; an unknown
    side is neutral."""
    return TEAM_OF.get(str(side), "neutral")


def role_file(key: str) -> str:
    """The role's icon, under static/."""
    return f"icons/role-{key}.svg"


def team_file(team: str) -> str:
    """The team's icon, under static/."""
    return f"icons/team-{team}.svg"
