"""One Night's rules page and role cards (issue 30: help in the game), in this project's own
words, each fact with the section of the document it comes from. The role message links to its
card, the lobby's chips to theirs, the join page to the rules (the house rules' phrase is in
them, rules/000 s5e, as it is in the document: a player who reads finds it)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .engine import Role, Ruleset, role_limits
from .options import RULES_PHRASE

# The teams as a card's text names them (the value, "town", stays the page's style class).
TEAM_NAMES = {
    # Translators: the team a card plays for, on the rules page ("Team: town").
    "town": pgettext_lazy("team", "town"),
    "werewolf": pgettext_lazy("team", "werewolf"),
    "tanner": pgettext_lazy("team", "tanner"),
}


@dataclass(frozen=True, slots=True)
class RoleCard:
    """A role's card on the rules page, in the reader's language. `team` is the team's value
    (a style class); `team_name` is how the reader names it."""

    role: Role
    team: str
    does: str
    wakes: str
    wins: str
    limit: int
    sections: str

    @property
    def team_name(self) -> str:
        return str(TEAM_NAMES[self.team])


# What each card does at night, for both rulesets unless a ruleset's own line is given.
_DOES: dict[Role, str] = {
    Role.DOPPELGANGER: gettext_lazy(
        "Looks at another player's card and becomes that role: a copied seer, robber,"
        " troublemaker or drunk acts at once; a copied werewolf or mason wakes with them; a"
        " copied minion sees the werewolves; a copied insomniac looks at their own card again at"
        " the very end of the night."
    ),
    Role.WEREWOLF: gettext_lazy(
        "Learns who the other werewolves are. A werewolf alone among the players may look at one"
        " centre card."
    ),
    Role.MINION: gettext_lazy(
        "Learns who the werewolves are; they do not learn who the minion is."
    ),
    Role.MASON: gettext_lazy(
        "Learns who the other mason is (or that there is none among the players)."
    ),
    Role.SEER: gettext_lazy("May look at one other player's card, or at two of the centre cards."),
    Role.ROBBER: gettext_lazy(
        "May swap cards with another player and then look at the new card: the robber now plays"
        " as that role, for its team, but does not wake again to use it."
    ),
    Role.TROUBLEMAKER: gettext_lazy(
        "May swap the cards of two other players, without looking at them."
    ),
    Role.DRUNK: gettext_lazy(
        "Must swap their card with one of the centre cards, without looking: they no longer know"
        " what they are."
    ),
    Role.INSOMNIAC: gettext_lazy(
        "Looks at their own card at the end of the night, to see if it changed."
    ),
    Role.HUNTER: gettext_lazy(
        "Nothing at night. If the hunter dies, the player they voted for dies too."
    ),
    Role.VILLAGER: gettext_lazy("Nothing: a villager has only their vote and their wits."),
    Role.TANNER: gettext_lazy("Nothing at night. The tanner hates their job and wants to die."),
}

_WAKES: dict[Ruleset, dict[Role, str]] = {
    # rules/000 s8: step 0 comes with the role message; then 1 to 4.
    Ruleset.HOUSE: {
        Role.WEREWOLF: gettext_lazy(
            "Told with the role message (step 0); a lone werewolf's look comes then."
        ),
        Role.MINION: gettext_lazy("Told with the role message (step 0)."),
        Role.MASON: gettext_lazy("Told with the role message (step 0)."),
        Role.SEER: gettext_lazy("Step 1."),
        Role.ROBBER: gettext_lazy("Step 2."),
        Role.TROUBLEMAKER: gettext_lazy("Step 3."),
        Role.DRUNK: gettext_lazy("Step 4, before the insomniac."),
        Role.INSOMNIAC: gettext_lazy("Step 4, last of all."),
    },
    # rules/002 s5.
    Ruleset.OFFICIAL: {
        Role.DOPPELGANGER: gettext_lazy(
            "First; again after the insomniac if it copied the insomniac."
        ),
        Role.WEREWOLF: gettext_lazy("Second."),
        Role.MINION: gettext_lazy("Third."),
        Role.MASON: gettext_lazy("Fourth."),
        Role.SEER: gettext_lazy("Fifth."),
        Role.ROBBER: gettext_lazy("Sixth."),
        Role.TROUBLEMAKER: gettext_lazy("Seventh."),
        Role.DRUNK: gettext_lazy("Eighth."),
        Role.INSOMNIAC: gettext_lazy("Ninth."),
    },
}

_TOWN_WINS = gettext_lazy("With the town: the town wins if at least one werewolf dies.")
_WINS: dict[Ruleset, dict[Role, str]] = {
    Ruleset.HOUSE: {
        Role.WEREWOLF: gettext_lazy(
            "With the werewolves: they win if no werewolf dies (and the tanner lives)."
        ),
        Role.MINION: gettext_lazy(
            "With the werewolves, even if the minion dies. With no werewolf among the players at"
            " dawn, the minion counts as one (rules/000 s6c)."
        ),
        Role.TANNER: gettext_lazy(
            "Alone: only if the tanner dies. Then the werewolves cannot win."
        ),
    },
    Ruleset.OFFICIAL: {
        Role.WEREWOLF: gettext_lazy(
            "With the werewolves: they win if no werewolf dies and the tanner lives."
        ),
        Role.MINION: gettext_lazy(
            "With the werewolves, even if the minion dies. With no werewolf among the players,"
            " the minion wins if another player dies while the minion and the tanner live."
        ),
        Role.TANNER: gettext_lazy(
            "Alone: only if the tanner dies. Then the werewolves cannot win."
        ),
        Role.DOPPELGANGER: gettext_lazy(
            "With the team of the role it copied (copying nothing, with the town)."
        ),
    },
}

_DOES_NOT_WAKE = gettext_lazy("Does not wake.")

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
            does=str(_DOES[role]),
            wakes=str(_WAKES[ruleset].get(role, _DOES_NOT_WAKE)),
            wins=str(_WINS[ruleset].get(role, _TOWN_WINS)),
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
    if house:
        talk = _(
            "Talk it over in the game's chat: claim, accuse, lie if it helps your team. The day"
            " lasts 30 minutes unless the table says otherwise."
        )
        quoting = _(
            "Never quote what the moderator told you word for word (screenshots included):"
            " say it in your own words."
        )
        no_wolf = _(
            "With no werewolf among the players, the town wins only if nobody dies. In the house"
            " rules the minion then counts as a werewolf."
        )
    else:
        talk = _("Talk it over in the game's chat: claim, accuse, lie if it helps your team.")
        quoting = _("Say what you like about what you saw; nothing you say is checked.")
        no_wolf = _(
            "With no werewolf among the players, the town wins only if nobody dies. The minion"
            " then wins if someone else dies while it and the tanner live."
        )
    sections = [
        RulesSection(
            _("The cards"),
            (
                _(
                    "The deck holds three more cards than there are players. Each player gets"
                    " one; the three left over lie in the centre, as the left, middle and right"
                    " cards."
                ),
                _(
                    "Your card at the start of the night says what you do tonight; the card you"
                    " hold at the end of the night says which team you are on."
                ),
            ),
            "rules/000 s3a, s4" if house else "rules/002 s3, s7",
        ),
        RulesSection(
            _("The night"),
            (
                _(
                    "Everyone sends in their night action, even those with nothing to do. The"
                    " actions then happen one after another in a fixed order, so a later one can"
                    " change what an earlier one learned."
                ),
                _("Each player is told what they learned, and nothing more."),
            ),
            "rules/000 s3b, s8" if house else "rules/002 s4, s5",
        ),
        RulesSection(
            _("The day"), (talk, quoting), "rules/000 s3c, s5" if house else "rules/002 s4"
        ),
        RulesSection(
            _("The vote"),
            (
                _(
                    "Everyone votes in secret for another player; votes are final and there is"
                    " no abstaining."
                ),
                _(
                    "The player with the most votes dies. If several share the most votes and"
                    " have more than one each, they all die; if everyone has exactly one vote,"
                    " nobody dies. Voting all 'up' (or all 'down') the circle makes that happen."
                ),
            ),
            "rules/000 s3d, s6a" if house else "rules/002 s4, s6",
        ),
        RulesSection(
            _("Who wins"),
            (
                _(
                    "The town wins if at least one werewolf dies. The werewolves (and the minion)"
                    " win if no werewolf dies. The tanner wins only by dying, and then the"
                    " werewolves lose."
                ),
                no_wolf,
            ),
            "rules/000 s2, s6c" if house else "rules/002 s6",
        ),
    ]
    if house:
        sections.append(
            RulesSection(
                _("Playing fair"),
                (
                    _(
                        "Keep to the spirit of the rules as well as their letter; ask the table"
                        " when unsure, with a general example."
                    ),
                    # Translators: %(phrase)s is the phrase players type to join (it stays in
                    # English: it is the house rules' own words).
                    _(
                        "To show you have read these rules, type this phrase when you join a"
                        " game: “%(phrase)s”."
                    )
                    % {"phrase": RULES_PHRASE},
                ),
                "rules/000 s5d, s5e",
            )
        )
    return tuple(sections)


def title_of(ruleset: Ruleset) -> str:
    if ruleset is Ruleset.HOUSE:
        return _("House rules (rules/000)")
    return _("Official rules (rules/002)")


__all__ = ["RoleCard", "RulesSection", "role_cards", "rules_sections", "title_of"]
