"""The role catalogue: names, teams, per-ruleset limits and the centre positions.

Sources: rules/000 section 4 (house roles and limits) and rules/002 sections 2, 5 and 6 (official
roles, Doppelganger, teams).
"""

from __future__ import annotations

from enum import StrEnum

from games.words import N_, _


class Ruleset(StrEnum):
    """Which rule document the engine applies."""

    HOUSE = "house"  # rules/000: the group's own rules, the default
    OFFICIAL = "official"  # rules/002: the published rules, with the Doppelganger


class Team(StrEnum):
    """The three teams of rules/000 section 2 (rules/002 section 6 has the same three)."""

    TOWN = "town"
    WEREWOLF = "werewolf"
    TANNER = "tanner"


class Role(StrEnum):
    """A card. The value is the lower-case name used in scenarios, forms and the database."""

    DOPPELGANGER = "doppelganger"
    WEREWOLF = "werewolf"
    MINION = "minion"
    MASON = "mason"
    SEER = "seer"
    ROBBER = "robber"
    TROUBLEMAKER = "troublemaker"
    DRUNK = "drunk"
    INSOMNIAC = "insomniac"
    HUNTER = "hunter"
    VILLAGER = "villager"
    TANNER = "tanner"

    @property
    def title(self) -> str:  # type: ignore[override]
        """The name as a player reads it ("Doppelganger", "Werewolf"), in the reader's language.

        The scenario runner never shows it: it prints `value`, the format's own word."""
        return _(ROLE_TITLES[self])

    @property
    def team(self) -> Team:
        """The team this card plays for at the end of the night (rules/000 s2, rules/002 s6).

        A Doppelganger that copied nothing has no role of its own; it is counted with the town
        (see docs/rules.md, "Doppelganger that copies nothing"). Use `team_of` for a held card,
        which knows what the Doppelganger copied.
        """
        return ROLE_TEAMS[self]


class CentrePosition(StrEnum):
    """The three centre cards keep fixed positions (rules/000 section 3a)."""

    LEFT = "left"
    MIDDLE = "middle"
    RIGHT = "right"


CENTRE_POSITIONS: tuple[str, ...] = tuple(p.value for p in CentrePosition)

# The cards' names as players read them (marked here, translated where shown: Role.title).
ROLE_TITLES: dict[Role, str] = {
    # Translators: the names of the game's cards (One Night Ultimate Werewolf).
    Role.DOPPELGANGER: N_("Doppelganger"),
    Role.WEREWOLF: N_("Werewolf"),
    Role.MINION: N_("Minion"),
    Role.MASON: N_("Mason"),
    Role.SEER: N_("Seer"),
    Role.ROBBER: N_("Robber"),
    Role.TROUBLEMAKER: N_("Troublemaker"),
    Role.DRUNK: N_("Drunk"),
    Role.INSOMNIAC: N_("Insomniac"),
    Role.HUNTER: N_("Hunter"),
    Role.VILLAGER: N_("Villager"),
    Role.TANNER: N_("Tanner"),
}

# A centre card as a sentence names it ("You looked at the left centre card").
CENTRE_CARDS: dict[str, str] = {
    # Translators: the three cards face down in the middle of the table, by their place.
    "left": N_("the left centre card"),
    "middle": N_("the middle centre card"),
    "right": N_("the right centre card"),
}


def centre_card(position: str) -> str:
    """ "the left centre card", in the reader's language."""
    return _(CENTRE_CARDS[position])


ROLE_TEAMS: dict[Role, Team] = {
    Role.DOPPELGANGER: Team.TOWN,
    Role.WEREWOLF: Team.WEREWOLF,
    Role.MINION: Team.WEREWOLF,
    Role.MASON: Team.TOWN,
    Role.SEER: Team.TOWN,
    Role.ROBBER: Team.TOWN,
    Role.TROUBLEMAKER: Team.TOWN,
    Role.DRUNK: Team.TOWN,
    Role.INSOMNIAC: Team.TOWN,
    Role.HUNTER: Team.TOWN,
    Role.VILLAGER: Team.TOWN,
    Role.TANNER: Team.TANNER,
}

# rules/000 section 4: "Werewolf (at most 2)", "Mason (at most 2)", "Villager (at most 3)", every
# other role once. The official deck (rules/002 section 2) has the same counts plus the
# Doppelganger, which the house rules leave out ("a somewhat complicated role will not be used").
HOUSE_LIMITS: dict[Role, int] = {
    Role.WEREWOLF: 2,
    Role.MINION: 1,
    Role.MASON: 2,
    Role.SEER: 1,
    Role.ROBBER: 1,
    Role.TROUBLEMAKER: 1,
    Role.DRUNK: 1,
    Role.INSOMNIAC: 1,
    Role.HUNTER: 1,
    Role.VILLAGER: 3,
    Role.TANNER: 1,
}
OFFICIAL_LIMITS: dict[Role, int] = {Role.DOPPELGANGER: 1, **HOUSE_LIMITS}


def role_limits(ruleset: Ruleset) -> dict[Role, int]:
    """How many copies of each role a deck of this ruleset may hold."""
    return OFFICIAL_LIMITS if ruleset is Ruleset.OFFICIAL else HOUSE_LIMITS


def team_of(card: Role, copied: Role | None) -> Team:
    """The team of whoever holds `card` at the end of the night.

    The Doppelganger card plays as the role it copied, whoever holds it at the end (rules/002
    section 7: the copied role stays with the card). One that copied nothing counts as town.
    """
    if card is Role.DOPPELGANGER:
        return ROLE_TEAMS[copied] if copied is not None else Team.TOWN
    return ROLE_TEAMS[card]


def plays_as(card: Role, copied: Role | None) -> Role:
    """The role a held card plays as for the day: the copied role for a Doppelganger card."""
    if card is Role.DOPPELGANGER and copied is not None:
        return copied
    return card
