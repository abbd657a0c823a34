"""Roles as data: every card of One Night has one record in `ROLES`, and each ruleset's night is
one table of wake steps here. The base game's records are here; Daybreak's and the Prince's are
in roles_daybreak.py, Vampire's (and their dusk steps) in roles_vampire.py, the shapes of a
record in role_types.py; `ROLES` joins them, so there is one catalogue and one night.

A `RoleRecord` holds everything about one role: its card's name, its team, how many a deck of
each ruleset may hold, what it may send in at night, how a Doppelganger plays it, and every text
a player reads about it (its role message, the rules page's lines, the narrator's calls). The
night tables `NIGHTS` list the wake steps of each ruleset in the document's order (rules/000 s8,
rules/002 s5, docs/rules.md 8a.2 and 8b.3); each step names its handler, one small function
pair in `resolvers.py`, `daybreak.py` or `dusk.py` (what the action does, what the player
learns). The engine's night, the Doppelganger's copies, the
narrator and the rules page all read these tables; nothing about a particular role's night is
written anywhere else. Adding a role: docs/architecture.md, "Adding a role".

Sources: rules/000 sections 2, 4, 6 and 8 (house roles, limits, edge cases, night order) and
rules/002 sections 2, 5, 6 and 7 (official roles, Doppelganger, teams, wake order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from games.words import N_

from .role_types import (
    CATALOGUE,
    CENTRE_POSITIONS,
    CENTRE_WOLF,
    COPIED_ACTS_NO_FURTHER,
    ONE_CENTRE,
    ONE_PLAYER,
    TANNER_WINS,
    TOWN_GOAL,
    TOWN_WINS,
    TWO_CENTRE,
    TWO_PLAYERS,
    WEREWOLF_GOAL,
    ActionRule,
    Calls,
    CentrePosition,
    Copy,
    Requirement,
    Role,
    RoleRecord,
    Ruleset,
    TargetShape,
    Team,
    WakeStep,
    both,
    centre_card,
    where,
)
from .roles_daybreak import DAYBREAK_RECORDS
from .roles_vampire import (
    DUSK_STEPS,
    GREMLIN_STEPS,
    MARKSMAN_STEPS,
    PICKPOCKET_STEPS,
    VAMPIRE_RECORDS,
    VAMPIRE_ROLES,
)

_RECORDS: tuple[RoleRecord, ...] = (
    RoleRecord(
        Role.DOPPELGANGER,
        # Translators: the names of the game's cards (One Night Ultimate Werewolf).
        N_("Doppelganger"),
        # rules/002 s6 leaves a Doppelganger that copied nothing without a team: the town's
        # (docs/rules.md, "Doppelganger that copies nothing").
        Team.TOWN,
        "002 s5, s6, s7",
        # rules/000 s4 leaves it out ("a somewhat complicated role will not be used").
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "Looks at another player's card and becomes that role: a copied seer, robber,"
            " troublemaker or drunk acts at once; a copied werewolf or mason wakes with them; a"
            " copied minion sees the werewolves; a copied insomniac looks at their own card again"
            " at the very end of the night."
        ),
        wins={
            Ruleset.OFFICIAL: N_(
                "With the team of the role it copied (copying nothing, with the town)."
            )
        },
        message=(
            N_("Tonight you first look at another player's card and become that role."),
            N_(
                "If you copy a seer, robber, troublemaker or drunk, you do that role's action at"
                " once. If you copy a werewolf, minion or mason, you wake with them. If you copy"
                " the insomniac, you check your own card at the very end of the night."
            ),
            N_("You then play for the team of the role you copied."),
        ),
        action=ActionRule(
            Role.DOPPELGANGER,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("The Doppelganger copies one other player's card first, then acts as that role."),
        ),
        copies=True,
        calls=Calls(
            "doppelganger",
            # Translators: the narrator's words, read aloud to the players at a real table.
            N_(
                "Doppelganger, wake up and look at another player's card: you are now that role."
                " If it is a seer, robber, troublemaker or drunk, do that role's action now."
            ),
            N_("Doppelganger, close your eyes."),
            12,
        ),
    ),
    RoleRecord(
        Role.WEREWOLF,
        N_("Werewolf"),
        Team.WEREWOLF,
        "000 s4, s6b; 002 s5, s6",
        # rules/000 s4: "Werewolf (at most 2)"; rules/002 s2 the same.
        limits={Ruleset.HOUSE: 2, Ruleset.OFFICIAL: 2},
        does=N_(
            "Learns who the other werewolves are. A werewolf alone among the players may look at"
            " one centre card."
        ),
        wins={
            Ruleset.HOUSE: N_(
                "With the werewolves: they win if no werewolf dies (and the tanner lives)."
            ),
            Ruleset.OFFICIAL: N_(
                "With the werewolves: they win if no werewolf dies and the tanner lives."
            ),
        },
        told="werewolf",
        # rules/000 s6b: a werewolf dealt alone among the players may view one centre card.
        action=ActionRule(
            Role.WEREWOLF,
            Requirement.OPTIONAL,
            (ONE_CENTRE,),
            N_("A lone werewolf may look at one centre card."),
        ),
        action_if="lone_wolf",
        copy=Copy.WITH_THEM,
        werewolf=True,
        calls=Calls(
            "werewolves",
            N_(
                "Werewolves wake up and look for the other werewolves. If you are the only one,"
                " you may look at one card in the centre."
            ),
            N_("Werewolves, close your eyes."),
            10,
            wake_with_doppelganger=N_(
                "Werewolves, and the Doppelganger if it became one, wake up and look for the"
                " other werewolves. If you are the only one, you may look at one card in the"
                " centre."
            ),
        ),
    ),
    RoleRecord(
        Role.MINION,
        N_("Minion"),
        Team.WEREWOLF,
        "000 s4, s6c; 002 s5, s6",
        limits={Ruleset.HOUSE: 1, Ruleset.OFFICIAL: 1},
        does=N_("Learns who the werewolves are; they do not learn who the minion is."),
        wins={
            Ruleset.HOUSE: N_(
                "With the werewolves, even if the minion dies. With no werewolf among the players"
                " at dawn, the minion counts as one."
            ),
            Ruleset.OFFICIAL: N_(
                "With the werewolves, even if the minion dies. With no werewolf among the"
                " players, the minion wins if another player dies while the minion and the"
                " tanner live."
            ),
        },
        told="minion",
        # rules/002 s5: a Doppelganger-minion stays awake after its step to see the werewolves;
        # the engine tells it at the minion's step, the narrator right after the Doppelganger.
        copy=Copy.WITH_THEM,
        calls=Calls(
            "minion",
            N_(
                "Minion, wake up. Werewolves, stick out your thumb so the minion can see who you"
                " are."
            ),
            N_("Werewolves, put your thumbs away. Minion, close your eyes."),
            8,
        ),
        copy_calls=Calls(
            "doppelganger-minion",
            N_(
                "Werewolves, stick out your thumb, eyes closed, so the Doppelganger who is now"
                " the minion can see who you are."
            ),
            N_("Werewolves, put your thumbs away. Doppelganger, close your eyes."),
            10,
            stays_awake=N_(
                "Doppelganger, if you are now the minion, keep your eyes open. If not, close"
                " your eyes."
            ),
        ),
    ),
    RoleRecord(
        Role.MASON,
        N_("Mason"),
        Team.TOWN,
        "000 s4; 002 s5",
        # rules/000 s4: "Mason (at most 2)"; rules/002 s5: both or neither (deck.validate_deck).
        limits={Ruleset.HOUSE: 2, Ruleset.OFFICIAL: 2},
        does=N_("Learns who the other mason is (or that there is none among the players)."),
        wins=both(TOWN_WINS),
        told="mason",
        copy=Copy.WITH_THEM,
        calls=Calls(
            "masons",
            N_("Masons, wake up and look for the other mason."),
            N_("Masons, close your eyes."),
            8,
            # rules/002 s5: a Doppelganger that saw a mason "wakes with them when called".
            wake_with_doppelganger=N_(
                "Masons, and the Doppelganger if it became a mason, wake up and look for the"
                " other masons."
            ),
        ),
    ),
    RoleRecord(
        Role.SEER,
        N_("Seer"),
        Team.TOWN,
        "000 s4; 002 s5",
        limits={Ruleset.HOUSE: 1, Ruleset.OFFICIAL: 1},
        does=N_("May look at one other player's card, or at two of the centre cards."),
        wins=both(TOWN_WINS),
        message=(
            N_(
                "Tonight you may look at one other player's card, or at two of the three centre"
                " cards."
            ),
            TOWN_GOAL,
        ),
        action=ActionRule(
            Role.SEER,
            Requirement.OPTIONAL,
            (ONE_PLAYER, TWO_CENTRE),
            N_("A seer looks at one other player or two centre cards."),
        ),
        copy=Copy.AT_ONCE,
        calls=Calls(
            "seer",
            N_("Seer, wake up. You may look at another player's card, or at two centre cards."),
            N_("Seer, close your eyes."),
            12,
        ),
    ),
    RoleRecord(
        Role.ROBBER,
        N_("Robber"),
        Team.TOWN,
        "000 s4; 002 s5, s7",
        limits={Ruleset.HOUSE: 1, Ruleset.OFFICIAL: 1},
        does=N_(
            "May swap cards with another player and then look at the new card: the robber now"
            " plays as that role, for its team, but does not wake again to use it."
        ),
        wins=both(TOWN_WINS),
        message=(
            N_(
                "Tonight you may swap your card with another player's card, and you will see the"
                " card you take. You then play for the team of that card."
            ),
            TOWN_GOAL,
        ),
        action=ActionRule(
            Role.ROBBER,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("A robber swaps cards with one other player and looks at the new card."),
        ),
        copy=Copy.AT_ONCE,
        calls=Calls(
            "robber",
            N_("Robber, wake up. You may swap your card with another player's, then look at it."),
            N_("Robber, close your eyes."),
            10,
        ),
    ),
    RoleRecord(
        Role.TROUBLEMAKER,
        N_("Troublemaker"),
        Team.TOWN,
        "000 s4; 002 s5",
        limits={Ruleset.HOUSE: 1, Ruleset.OFFICIAL: 1},
        does=N_("May swap the cards of two other players, without looking at them."),
        wins=both(TOWN_WINS),
        message=(
            N_(
                "Tonight you may swap the cards of two other players. You will not see either card."
            ),
            TOWN_GOAL,
        ),
        action=ActionRule(
            Role.TROUBLEMAKER,
            Requirement.OPTIONAL,
            (TWO_PLAYERS,),
            N_("A troublemaker swaps the cards of two other players without looking."),
        ),
        copy=Copy.AT_ONCE,
        calls=Calls(
            "troublemaker",
            N_("Troublemaker, wake up. You may swap two other players' cards, unseen."),
            N_("Troublemaker, close your eyes."),
            10,
        ),
    ),
    RoleRecord(
        Role.DRUNK,
        N_("Drunk"),
        Team.TOWN,
        "000 s4; 002 s5, s7",
        limits={Ruleset.HOUSE: 1, Ruleset.OFFICIAL: 1},
        does=N_(
            "Must swap their card with one of the centre cards, without looking: they no longer"
            " know what they are."
        ),
        wins=both(TOWN_WINS),
        message=(
            N_(
                "Tonight you must swap your card with one of the centre cards (left, middle or"
                " right). You will not see the card you get, and you play for its team."
            ),
            TOWN_GOAL,
        ),
        # rules/000 s4 and rules/002 s7: the drunk must act.
        action=ActionRule(
            Role.DRUNK,
            Requirement.MANDATORY,
            (ONE_CENTRE,),
            N_("A drunk must swap their card with one centre card, without looking."),
        ),
        copy=Copy.AT_ONCE,
        calls=Calls(
            "drunk",
            N_("Drunk, wake up. Swap your card with a centre card, without looking at it."),
            N_("Drunk, close your eyes."),
            8,
        ),
    ),
    RoleRecord(
        Role.INSOMNIAC,
        N_("Insomniac"),
        Team.TOWN,
        "000 s4, s8; 002 s5",
        limits={Ruleset.HOUSE: 1, Ruleset.OFFICIAL: 1},
        does=N_("Looks at their own card at the end of the night, to see if it changed."),
        wins=both(TOWN_WINS),
        message=(N_("At the end of the night you will see which card you hold then."), TOWN_GOAL),
        # rules/002 s5 step 9a: a Doppelganger-insomniac looks after the insomniac.
        copy=Copy.OWN_STEP,
        calls=Calls(
            "insomniac",
            N_("Insomniac, wake up. Look at your card."),
            N_("Insomniac, close your eyes."),
            8,
        ),
        copy_calls=Calls(
            "doppelganger-insomniac",
            N_("Doppelganger, if you copied the insomniac, wake up and look at your card."),
            N_("Doppelganger, close your eyes."),
            10,
        ),
    ),
    RoleRecord(
        Role.HUNTER,
        N_("Hunter"),
        Team.TOWN,
        "000 s4; 002 s5, s7 (the shot: voting.tally_votes)",
        limits={Ruleset.HOUSE: 1, Ruleset.OFFICIAL: 1},
        does=N_("Nothing at night. If the hunter dies, the player they voted for dies too."),
        wins=both(TOWN_WINS),
        message=(N_("If you die, the player you voted for dies with you."), TOWN_GOAL),
    ),
    RoleRecord(
        Role.VILLAGER,
        N_("Villager"),
        Team.TOWN,
        "000 s4; 002 s5",
        # rules/000 s4: "Villager (at most 3)".
        limits={Ruleset.HOUSE: 3, Ruleset.OFFICIAL: 3},
        does=N_("Nothing: a villager has only their vote and their wits."),
        wins=both(TOWN_WINS),
        message=(
            N_(
                "You have no power tonight, but your voice and your vote count as much as anyone's."
            ),
            TOWN_GOAL,
        ),
    ),
    RoleRecord(
        Role.TANNER,
        N_("Tanner"),
        Team.TANNER,
        "000 s2, s4; 002 s5, s6 (the win: voting.decide_outcome)",
        limits={Ruleset.HOUSE: 1, Ruleset.OFFICIAL: 1},
        does=N_("Nothing at night. The tanner hates their job and wants to die."),
        wins=both(TANNER_WINS),
        message=(
            N_(
                "You hate your job. You win only if you die tomorrow, by the vote or by the hunter."
            ),
            N_("If you die, the werewolves lose too."),
        ),
    ),
)

# The names of the catalogue's shapes (role_types.py), read from here by the engine and the app.
__all__ = [
    "CENTRE_POSITIONS",
    "CENTRE_WOLF",
    "COPIED_ACTS_NO_FURTHER",
    "EXPANSION_ROLES",
    "NIGHTS",
    "NIGHT_SECTIONS",
    "ROLES",
    "TOWN_GOAL",
    "WEREWOLF_GOAL",
    "ActionRule",
    "Calls",
    "CentrePosition",
    "Copy",
    "Requirement",
    "Role",
    "RoleRecord",
    "Ruleset",
    "TargetShape",
    "Team",
    "WakeStep",
    "centre_card",
    "has_marks",
    "is_vampire_card",
    "is_werewolf",
    "own_step",
    "plays_as",
    "role_limits",
    "team_of",
    "where",
]

# The one catalogue: the base game's records, Daybreak's and the Prince's (roles_daybreak.py)
# and Vampire's (roles_vampire.py).
_BY_ROLE = {record.role: record for record in (*_RECORDS, *DAYBREAK_RECORDS, *VAMPIRE_RECORDS)}
# Every card has its record (a card without one fails here, when the engine is imported).
ROLES: Mapping[Role, RoleRecord] = MappingProxyType({role: _BY_ROLE[role] for role in Role})
CATALOGUE.update(ROLES)


# --- The nights: each ruleset's wake steps, in the document's order -----------------------------

_TOLD_AT_DEAL = N_("Told with the role message (step 0).")

# rules/000 s8: "0 (in role PM) - Werewolves, Minion, Masons", then 1 seer, 2 robber,
# 3 troublemaker, 4 drunk and insomniac ("technically insomniac happens after drunk").
# Daybreak's cards, when the host adds them (docs/rules.md 8a.8), take their places as in the
# official combined order (8a.2), numbered after the house steps they follow: the sentinel
# first of all, 0b alpha wolf and 0c mystic wolf after step 0, 1b apprentice seer
# and 1c paranormal investigator after the seer, 2b witch after the robber, 3b village idiot
# after the troublemaker, 5 revealer and 6 curator after the insomniac. Their werewolves and the
# minion learn each other with the role message at step 0, as the base cards do; at a table the
# alpha and mystic wolves act after the masons rather than before the minion as in the official
# order, which changes nothing (nobody at step 0 looks at a card the alpha wolf moves).
HOUSE_NIGHT: tuple[WakeStep, ...] = (
    WakeStep(
        "0",
        Role.SENTINEL,
        "sentinel",
        N_("First of all, before the werewolves' step (a shield is on before anyone acts)."),
    ),
    WakeStep(
        "0",
        Role.WEREWOLF,
        "werewolves",
        N_("Told with the role message (step 0); a lone werewolf's look comes then."),
    ),
    WakeStep("0", Role.MINION, "minion", _TOLD_AT_DEAL),
    WakeStep("0", Role.MASON, "masons", _TOLD_AT_DEAL),
    WakeStep("0b", Role.ALPHA_WOLF, "alpha", N_("After step 0 (0b).")),
    WakeStep("0c", Role.MYSTIC_WOLF, "mystic", N_("After the alpha wolf (0c).")),
    WakeStep("1", Role.SEER, "seer", N_("Step 1.")),
    WakeStep("1b", Role.APPRENTICE_SEER, "apprentice", N_("After the seer (1b).")),
    WakeStep(
        "1c", Role.PARANORMAL_INVESTIGATOR, "investigator", N_("After the apprentice seer (1c).")
    ),
    WakeStep("2", Role.ROBBER, "robber", N_("Step 2.")),
    WakeStep("2b", Role.WITCH, "witch", N_("After the robber (2b).")),
    WakeStep("3", Role.TROUBLEMAKER, "troublemaker", N_("Step 3.")),
    WakeStep("3b", Role.VILLAGE_IDIOT, "idiot", N_("After the troublemaker (3b).")),
    WakeStep("4", Role.DRUNK, "drunk", N_("Step 4, before the insomniac.")),
    WakeStep("4", Role.INSOMNIAC, "insomniac", N_("Step 4, last of the base cards.")),
    WakeStep("5", Role.REVEALER, "revealer", N_("After the insomniac (5).")),
    WakeStep("6", Role.CURATOR, "curator", N_("Last of all (6).")),
)

# rules/002 s5: 1 Doppelganger (a copied seer, robber, troublemaker or drunk acts at once; a
# copied minion stays awake to see the werewolves), 2 werewolves, 3 minion, 4 masons, 5 seer,
# 6 robber, 7 troublemaker, 8 drunk, 9 insomniac, 9a Doppelganger-insomniac. Daybreak's roles
# take their places in the published combined order (docs/rules.md, "Daybreak: the wake
# order"): 0 sentinel first; 2b alpha wolf and 2c mystic wolf after the werewolves; 5b
# apprentice seer and 5c paranormal investigator after the seer; 6b witch after the robber; 7b
# village idiot after the troublemaker; 10 revealer and 11 curator after the insomniac. A
# Doppelganger copy of a role that wakes late acts right after the role (10a, 11a); a copied
# alpha or mystic wolf acts at once and wakes with the werewolves ([DR], docs/rules.md 8a.3).
# Vampire's dusk comes first and its three night roles take their places (docs/rules.md 8b.3,
# roles_vampire.py); with a Vampire card in the deck the Doppelganger copies at -7, at dusk.
OFFICIAL_NIGHT: tuple[WakeStep, ...] = (
    *DUSK_STEPS,
    WakeStep("0", Role.SENTINEL, "sentinel", N_("First of all, before the Doppelganger.")),
    WakeStep(
        "1",
        Role.DOPPELGANGER,
        "copy",
        N_("First; again after the insomniac if it copied the insomniac."),
        deck="no_vampire",
    ),
    WakeStep("1", Role.DOPPELGANGER, None, copied=Role.MINION),
    WakeStep("2", Role.WEREWOLF, "werewolves", N_("Second.")),
    WakeStep("2b", Role.ALPHA_WOLF, "alpha", N_("With the werewolves, then alone after them.")),
    WakeStep(
        "2c", Role.MYSTIC_WOLF, "mystic", N_("With the werewolves, then after the alpha wolf.")
    ),
    WakeStep("3", Role.MINION, "minion", N_("Third.")),
    WakeStep("4", Role.MASON, "masons", N_("Fourth.")),
    WakeStep("5", Role.SEER, "seer", N_("Fifth.")),
    WakeStep("5b", Role.APPRENTICE_SEER, "apprentice", N_("After the seer.")),
    WakeStep("5c", Role.PARANORMAL_INVESTIGATOR, "investigator", N_("After the apprentice seer.")),
    *MARKSMAN_STEPS,
    WakeStep("6", Role.ROBBER, "robber", N_("Sixth.")),
    WakeStep("6b", Role.WITCH, "witch", N_("After the robber.")),
    *PICKPOCKET_STEPS,
    WakeStep("7", Role.TROUBLEMAKER, "troublemaker", N_("Seventh.")),
    WakeStep("7b", Role.VILLAGE_IDIOT, "idiot", N_("After the troublemaker.")),
    *GREMLIN_STEPS,
    WakeStep("8", Role.DRUNK, "drunk", N_("Eighth.")),
    WakeStep("9", Role.INSOMNIAC, "insomniac", N_("Ninth.")),
    WakeStep("9a", Role.DOPPELGANGER, "insomniac", copied=Role.INSOMNIAC),
    WakeStep("10", Role.REVEALER, "revealer", N_("After the insomniac.")),
    WakeStep("10a", Role.DOPPELGANGER, "revealer", copied=Role.REVEALER),
    WakeStep("11", Role.CURATOR, "curator", N_("Last of all.")),
    WakeStep("11a", Role.DOPPELGANGER, "curator", copied=Role.CURATOR),
)

NIGHTS: Mapping[Ruleset, tuple[WakeStep, ...]] = MappingProxyType(
    {Ruleset.HOUSE: HOUSE_NIGHT, Ruleset.OFFICIAL: OFFICIAL_NIGHT}
)
# The section each night table follows, as the narrator cites it.
NIGHT_SECTIONS: Mapping[Ruleset, str] = MappingProxyType(
    {Ruleset.HOUSE: "000 s8", Ruleset.OFFICIAL: "002 s5"}
)


# --- Reading the tables ---------------------------------------------------------------------

_LIMITS: dict[Ruleset, dict[Role, int]] = {
    ruleset: {r: ROLES[r].limits[ruleset] for r in Role if ruleset in ROLES[r].limits}
    for ruleset in Ruleset
}
_OWN_STEPS: dict[Ruleset, dict[Role, WakeStep]] = {
    ruleset: {s.role: s for s in reversed(NIGHTS[ruleset]) if s.copied is None}
    for ruleset in Ruleset
}


def role_limits(ruleset: Ruleset) -> dict[Role, int]:
    """How many copies of each role a deck of this ruleset may hold, in the catalogue's order
    (rules/000 s4; rules/002 s2 adds the Doppelganger)."""
    return _LIMITS[ruleset]


def own_step(ruleset: Ruleset, role: Role) -> WakeStep | None:
    """The step at which `role` wakes in this ruleset's night (None: it never wakes)."""
    return _OWN_STEPS[ruleset].get(role)


def team_of(card: Role, copied: Role | None) -> Team:
    """The team of whoever holds `card` at the end of the night.

    The Doppelganger card plays as the role it copied, whoever holds it at the end (rules/002
    section 7: the copied role stays with the card). One that copied nothing counts as town.
    """
    if ROLES[card].copies:
        return ROLES[copied].team if copied is not None else ROLES[card].team
    return ROLES[card].team


# The expansions' roles: Daybreak's eleven and the Bonus Pack's Prince (both rulesets, docs/rules.md
# 8a.8) and Vampire's (official only).
DAYBREAK_ROLES: frozenset[Role] = frozenset(
    {
        Role.SENTINEL,
        Role.ALPHA_WOLF,
        Role.MYSTIC_WOLF,
        Role.DREAM_WOLF,
        Role.APPRENTICE_SEER,
        Role.PARANORMAL_INVESTIGATOR,
        Role.WITCH,
        Role.VILLAGE_IDIOT,
        Role.REVEALER,
        Role.CURATOR,
        Role.BODYGUARD,
    }
)
EXPANSION_ROLES: frozenset[Role] = DAYBREAK_ROLES | {Role.PRINCE} | VAMPIRE_ROLES


def is_vampire_card(role: Role) -> bool:
    """A Vampire card: the Vampire, the Master, the Count (docs/rules.md 8b.1)."""
    return ROLES[role].vampire


def has_marks(cards: Iterable[Role]) -> bool:
    """A deck with a Vampire expansion card plays with marks and dusk (docs/rules.md 8b.2);
    without one the game is the base and Daybreak game, unchanged."""
    return any(card in VAMPIRE_ROLES for card in cards)


def is_werewolf(role: Role) -> bool:
    """A werewolf card: the werewolf and Daybreak's alpha, mystic and dream wolves."""
    return ROLES[role].werewolf


WEREWOLF_CARDS: frozenset[Role] = frozenset(r for r in Role if ROLES[r].werewolf)


def plays_as(card: Role, copied: Role | None) -> Role:
    """The role a held card plays as for the day: the copied role for a Doppelganger card."""
    if ROLES[card].copies and copied is not None:
        return copied
    return card
