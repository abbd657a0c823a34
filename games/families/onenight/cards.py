"""One Night's rules page and role cards (issue 30: help in the game), in this project's own
words, each fact with the section of the document it comes from. The role message links to its
card, the lobby's chips to theirs, the join page to the rules (the house rules' phrase is in
them, rules/000 s5e, as it is in the document: a player who reads finds it)."""

from __future__ import annotations

from dataclasses import dataclass

from .engine import Role, Ruleset, role_limits
from .options import RULES_PHRASE


@dataclass(frozen=True, slots=True)
class RoleCard:
    role: Role
    team: str
    does: str
    wakes: str
    wins: str
    limit: int
    sections: str


# What each card does at night, for both rulesets unless a ruleset's own line is given.
_DOES: dict[Role, str] = {
    Role.DOPPELGANGER: (
        "Looks at another player's card and becomes that role: a copied seer, robber,"
        " troublemaker or drunk acts at once; a copied werewolf or mason wakes with them; a"
        " copied minion sees the werewolves; a copied insomniac looks at their own card again at"
        " the very end of the night."
    ),
    Role.WEREWOLF: (
        "Learns who the other werewolves are. A werewolf alone among the players may look at one"
        " centre card."
    ),
    Role.MINION: "Learns who the werewolves are; they do not learn who the minion is.",
    Role.MASON: "Learns who the other mason is (or that there is none among the players).",
    Role.SEER: "May look at one other player's card, or at two of the centre cards.",
    Role.ROBBER: (
        "May swap cards with another player and then look at the new card: the robber now plays"
        " as that role, for its team, but does not wake again to use it."
    ),
    Role.TROUBLEMAKER: "May swap the cards of two other players, without looking at them.",
    Role.DRUNK: (
        "Must swap their card with one of the centre cards, without looking: they no longer know"
        " what they are."
    ),
    Role.INSOMNIAC: "Looks at their own card at the end of the night, to see if it changed.",
    Role.HUNTER: "Nothing at night. If the hunter dies, the player they voted for dies too.",
    Role.VILLAGER: "Nothing: a villager has only their vote and their wits.",
    Role.TANNER: "Nothing at night. The tanner hates their job and wants to die.",
}

_WAKES: dict[Ruleset, dict[Role, str]] = {
    # rules/000 s8: step 0 comes with the role message; then 1 to 4.
    Ruleset.HOUSE: {
        Role.WEREWOLF: "Told with the role message (step 0); a lone werewolf's look comes then.",
        Role.MINION: "Told with the role message (step 0).",
        Role.MASON: "Told with the role message (step 0).",
        Role.SEER: "Step 1.",
        Role.ROBBER: "Step 2.",
        Role.TROUBLEMAKER: "Step 3.",
        Role.DRUNK: "Step 4, before the insomniac.",
        Role.INSOMNIAC: "Step 4, last of all.",
    },
    # rules/002 s5.
    Ruleset.OFFICIAL: {
        Role.DOPPELGANGER: "First; again after the insomniac if it copied the insomniac.",
        Role.WEREWOLF: "Second.",
        Role.MINION: "Third.",
        Role.MASON: "Fourth.",
        Role.SEER: "Fifth.",
        Role.ROBBER: "Sixth.",
        Role.TROUBLEMAKER: "Seventh.",
        Role.DRUNK: "Eighth.",
        Role.INSOMNIAC: "Ninth.",
    },
}

_TOWN_WINS = "With the town: the town wins if at least one werewolf dies."
_WINS: dict[Ruleset, dict[Role, str]] = {
    Ruleset.HOUSE: {
        Role.WEREWOLF: "With the werewolves: they win if no werewolf dies (and the tanner lives).",
        Role.MINION: (
            "With the werewolves, even if the minion dies. With no werewolf among the players at"
            " dawn, the minion counts as one (rules/000 s6c)."
        ),
        Role.TANNER: "Alone: only if the tanner dies. Then the werewolves cannot win.",
    },
    Ruleset.OFFICIAL: {
        Role.WEREWOLF: "With the werewolves: they win if no werewolf dies and the tanner lives.",
        Role.MINION: (
            "With the werewolves, even if the minion dies. With no werewolf among the players,"
            " the minion wins if another player dies while the minion and the tanner live."
        ),
        Role.TANNER: "Alone: only if the tanner dies. Then the werewolves cannot win.",
        Role.DOPPELGANGER: "With the team of the role it copied (copying nothing, with the town).",
    },
}

_SECTIONS: dict[Ruleset, str] = {
    Ruleset.HOUSE: "rules/000 s2, s4, s8",
    Ruleset.OFFICIAL: "rules/002 s5, s6, s7",
}


def role_cards(ruleset: Ruleset) -> tuple[RoleCard, ...]:
    """A card for every role the ruleset deals, in the catalogue's order."""
    limits = role_limits(ruleset)
    return tuple(
        RoleCard(
            role=role,
            team=role.team.value,
            does=_DOES[role],
            wakes=_WAKES[ruleset].get(role, "Does not wake."),
            wins=_WINS[ruleset].get(role, _TOWN_WINS),
            limit=limit,
            sections=_SECTIONS[ruleset],
        )
        for role, limit in limits.items()
    )


@dataclass(frozen=True, slots=True)
class RulesSection:
    title: str
    paragraphs: tuple[str, ...]
    source: str


def rules_sections(ruleset: Ruleset) -> tuple[RulesSection, ...]:
    """How a game goes, in short, with the document's sections."""
    house = ruleset is Ruleset.HOUSE
    sections = [
        RulesSection(
            "The cards",
            (
                "The deck holds three more cards than there are players. Each player gets one;"
                " the three left over lie in the centre, as the left, middle and right cards.",
                "Your card at the start of the night says what you do tonight; the card you hold"
                " at the end of the night says which team you are on.",
            ),
            "rules/000 s3a, s4" if house else "rules/002 s3, s7",
        ),
        RulesSection(
            "The night",
            (
                "Everyone sends in their night action, even those with nothing to do. The"
                " actions then happen one after another in a fixed order, so a later one can"
                " change what an earlier one learned.",
                "Each player is told what they learned, and nothing more.",
            ),
            "rules/000 s3b, s8" if house else "rules/002 s4, s5",
        ),
        RulesSection(
            "The day",
            (
                "Talk it over in the game's chat: claim, accuse, lie if it helps your team."
                + (" The day lasts 30 minutes unless the table says otherwise." if house else ""),
                "Never quote what the moderator told you word for word (screenshots included):"
                " say it in your own words."
                if house
                else "Say what you like about what you saw; nothing you say is checked.",
            ),
            "rules/000 s3c, s5" if house else "rules/002 s4",
        ),
        RulesSection(
            "The vote",
            (
                "Everyone votes in secret for another player; votes are final and there is no"
                " abstaining.",
                "The player with the most votes dies. If several share the most votes and have"
                " more than one each, they all die; if everyone has exactly one vote, nobody"
                " dies. Voting all 'up' (or all 'down') the circle makes that happen.",
            ),
            "rules/000 s3d, s6a" if house else "rules/002 s4, s6",
        ),
        RulesSection(
            "Who wins",
            (
                "The town wins if at least one werewolf dies. The werewolves (and the minion)"
                " win if no werewolf dies. The tanner wins only by dying, and then the werewolves"
                " lose.",
                "With no werewolf among the players, the town wins only if nobody dies."
                + (
                    " In the house rules the minion then counts as a werewolf."
                    if house
                    else " The minion then wins if someone else dies while it and the tanner live."
                ),
            ),
            "rules/000 s2, s6c" if house else "rules/002 s6",
        ),
    ]
    if house:
        sections.append(
            RulesSection(
                "Playing fair",
                (
                    "Keep to the spirit of the rules as well as their letter; ask the table when"
                    " unsure, with a general example.",
                    "To show you have read these rules, type this phrase when you join a game:"
                    f" “{RULES_PHRASE}”.",
                ),
                "rules/000 s5d, s5e",
            )
        )
    return tuple(sections)


def title_of(ruleset: Ruleset) -> str:
    return "House rules (rules/000)" if ruleset is Ruleset.HOUSE else "Official rules (rules/002)"


__all__ = ["RoleCard", "RulesSection", "role_cards", "rules_sections", "title_of"]
