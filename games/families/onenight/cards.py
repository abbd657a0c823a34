"""One Night's rules page and role cards (issue 30: help in the game), in this project's own
words, each fact with the section of the document it comes from. The role message links to its
card, the lobby's chips to theirs, the join page to the rules (the house rules' phrase is in
them, rules/000 s5e, as it is in the document: a player who reads finds it)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .engine import EXPANSION_ROLES, VAMPIRE_ROLES, Role, Ruleset
from .engine.roles import ROLES, own_step
from .online import online_limits
from .options import RULES_PHRASE

# The teams as a card's text names them (the value, "town", stays the page's style class).
TEAM_NAMES = {
    # Translators: the team a card plays for, on the rules page ("Team: town").
    "town": pgettext_lazy("team", "town"),
    "werewolf": pgettext_lazy("team", "werewolf"),
    "tanner": pgettext_lazy("team", "tanner"),
    # Vampire (docs/rules.md 8b.1).
    "vampire": pgettext_lazy("team", "vampire"),
    "assassin": pgettext_lazy("team", "assassin"),
    "apprentice_assassin": pgettext_lazy("team", "apprentice assassin"),
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


# A role without a wake step in the ruleset's night table (roles.NIGHTS).
_DOES_NOT_WAKE = gettext_lazy("Does not wake.")

_SECTIONS: dict[Ruleset, str] = {
    Ruleset.HOUSE: "rules/000 s2, s4, s8",
    Ruleset.OFFICIAL: "rules/002 s5, s6, s7",
}


def _sections(ruleset: Ruleset, role: Role) -> str:
    """Where a card's rules come from: the ruleset's document for the base cards, the
    expansion's rulebook for the others (docs/rules.md 8a and 8b cite them part by part)."""
    if role is Role.PRINCE:
        # Translators: where the Prince's rules come from (a One Night expansion's name).
        return _("rules/002 s7; the Bonus Pack")
    if role in VAMPIRE_ROLES:
        # Translators: the rulebook of One Night Ultimate Vampire.
        return _("the Vampire rulebook")
    if role in EXPANSION_ROLES:
        # Translators: the rulebook of One Night Ultimate Werewolf: Daybreak.
        return _("the Daybreak rulebook")
    return _SECTIONS[ruleset]


def _wakes(ruleset: Ruleset, role: Role) -> str:
    """When the role wakes: its wake step's line, or that it does not wake."""
    step = own_step(ruleset, role)
    if step is None:
        return str(_DOES_NOT_WAKE)
    if step.wakes is None:
        raise LookupError(f"the {ruleset.value} wake step of {role.value} has no rules-page line")
    return _(step.wakes)


def role_cards(ruleset: Ruleset) -> tuple[RoleCard, ...]:
    """A card for every role the ruleset deals online (online.py), in the catalogue's order,
    from its record (engine/roles.py) and its wake step."""
    limits = online_limits(ruleset)
    return tuple(
        RoleCard(
            role=role,
            team=role.team.value,
            does=_(ROLES[role].does),
            wakes=_wakes(ruleset, role),
            wins=_(ROLES[role].wins[ruleset]),
            limit=limit,
            sections=_sections(ruleset, role),
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
                *(
                    # docs/rules.md 8a.8: what a house host may add, and what not.
                    (
                        _(
                            "The suggested deck is the base game's. The host may add Daybreak's"
                            " cards and the Prince, played by these same rules; Vampire's"
                            " cards and the Doppelganger need the official rules."
                        ),
                    )
                    if house
                    else ()
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
        return _("House rules")
    return _("Official rules")


__all__ = ["RoleCard", "RulesSection", "role_cards", "rules_sections", "title_of"]
