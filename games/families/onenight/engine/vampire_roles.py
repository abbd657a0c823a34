"""One Night Ultimate Vampire's roles as data (docs/rules.md 8b): one record per card, and the
table of the steps they wake at (dusk, the lovers, and their three night steps).

The cards are a `VampireRole` of their own while the Vampire roles are not dealt by the tables
(8b.7): `Card` is a base or Daybreak `Role` or a `VampireRole`, and the values never clash, so
a scenario or a form names either by its word. Each record says what the role may send in
(`VampireAction`), how a Doppelganger plays it (`roles.Copy`), its side, and the texts a player
reads; each step names its resolver in `dusk.VAMPIRE_RESOLVERS`.

Sources: [VR] the Vampire rulebook and [VC] its compendium, as docs/rules.md 8b lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from games.words import N_, _

from .roles import ROLES, Copy, Requirement, Role, Team


class VampireRole(StrEnum):
    """A card of One Night Ultimate Vampire; the value is its word in scenarios and forms."""

    COPYCAT = "copycat"
    VAMPIRE = "vampire"
    THE_MASTER = "the_master"
    THE_COUNT = "the_count"
    RENFIELD = "renfield"
    DISEASED = "diseased"
    CUPID = "cupid"
    INSTIGATOR = "instigator"
    PRIEST = "priest"
    ASSASSIN = "assassin"
    APPRENTICE_ASSASSIN = "apprentice_assassin"
    MARKSMAN = "marksman"
    PICKPOCKET = "pickpocket"
    GREMLIN = "gremlin"

    @property
    def title(self) -> str:  # type: ignore[override]
        return _(VAMPIRE_ROLES[self].title)


Card = Role | VampireRole


def parse_card(word: str) -> Card:
    """The card a word names, base, Daybreak or Vampire (KeyError: no such card)."""
    for kind in (Role, VampireRole):
        try:
            return kind(word)
        except ValueError:
            continue
    raise KeyError(word)


class Side(StrEnum):
    """Who a player wins with (8b.1): the base teams, the vampires, and the two assassins, each
    on a side of their own."""

    TOWN = "town"
    WEREWOLF = "werewolf"
    TANNER = "tanner"
    VAMPIRE = "vampire"
    ASSASSIN = "assassin"
    APPRENTICE_ASSASSIN = "apprentice_assassin"


SIDE_OF_TEAM: Mapping[Team, Side] = MappingProxyType(
    {Team.TOWN: Side.TOWN, Team.WEREWOLF: Side.WEREWOLF, Team.TANNER: Side.TANNER}
)


class Phase(StrEnum):
    DUSK = "dusk"
    NIGHT = "night"
    NONE = "none"  # never wakes


class Aim(StrEnum):
    """The kinds of things an action names, for the forms: players, a neighbour, a centre card,
    the marksman's card-and-mark pair, the gremlin's word and two players."""

    CENTRE = "centre"  # one centre card
    PLAYER = "player"  # one player
    TWO_PLAYERS = "two_players"  # two players
    NEIGHBOUR = "neighbour"  # the player on the left or the right
    VAMPIRE_PICK = "vampire_pick"  # the player the vampires mark (and, for the Count, fear)
    CARD_AND_MARK = "card_and_mark"  # one player's card, another player's mark ("-" for none)
    MARKS_OR_CARDS = "marks_or_cards"  # "marks" or "cards", then two players
    NOTHING = "nothing"  # wakes, chooses nothing (Renfield takes the Mark of the Bat)


@dataclass(frozen=True, slots=True)
class VampireAction:
    """What a role sends in: its `aim`, whether it must act, whether it may name itself, and
    the rule as a player reads it (`marked`)."""

    aim: Aim
    requirement: Requirement
    marked: str
    self_ok: bool = False
    others_only: bool = True

    @property
    def description(self) -> str:
        return _(self.marked)


@dataclass(frozen=True, slots=True)
class VampireRecord:
    """One Vampire role: card name, side, when it wakes, its action, how a Doppelganger plays
    it, and the texts (`does`: the rules page's line; `message`: the role message; `wins`)."""

    role: VampireRole
    title: str
    side: Side
    section: str
    phase: Phase
    does: str
    wins: str
    message: str
    action: VampireAction | None = None
    copy: Copy = Copy.NOTHING
    vampire: bool = False  # a Vampire card: the Vampire, the Master, the Count


_VILLAGE_WINS = N_("With the village: the village wins if a vampire (or werewolf) dies.")
_VAMPIRE_WINS = N_("With the vampires: they win if no vampire dies.")
_VAMPIRE_PICK = VampireAction(
    Aim.VAMPIRE_PICK,
    Requirement.MANDATORY,
    N_("The vampires give the Mark of the Vampire to a player who is not a vampire."),
)

_RECORDS: tuple[VampireRecord, ...] = (
    VampireRecord(
        VampireRole.COPYCAT,
        N_("Copycat"),
        Side.TOWN,
        "[VC] Copycat; [VR] Special Cases",
        Phase.DUSK,
        N_("Looks at a centre card first of all and is that role from then on."),
        N_("With the team of the card it copied."),
        N_("At dusk you look at one centre card: you become that role and act as it."),
        VampireAction(Aim.CENTRE, Requirement.MANDATORY, N_("A copycat looks at one centre card.")),
        copy=Copy.NOTHING,
    ),
    VampireRecord(
        VampireRole.VAMPIRE,
        N_("Vampire"),
        Side.VAMPIRE,
        "[VC] Vampire",
        Phase.DUSK,
        N_("Wakes with the vampires; together they give the Mark of the Vampire."),
        _VAMPIRE_WINS,
        N_("At dusk you and the other vampires pick a player to turn into a vampire."),
        _VAMPIRE_PICK,
        copy=Copy.WITH_THEM,
        vampire=True,
    ),
    VampireRecord(
        VampireRole.THE_MASTER,
        N_("The Master"),
        Side.VAMPIRE,
        "[VC] The Master",
        Phase.DUSK,
        N_("A vampire; cannot be killed if another vampire votes for it."),
        _VAMPIRE_WINS,
        N_("You are a vampire. If another vampire votes for you tomorrow, you cannot be killed."),
        _VAMPIRE_PICK,
        copy=Copy.WITH_THEM,
        vampire=True,
    ),
    VampireRecord(
        VampireRole.THE_COUNT,
        N_("The Count"),
        Side.VAMPIRE,
        "[VC] The Count",
        Phase.DUSK,
        N_("A vampire; then gives the Mark of Fear to a player who is not a vampire."),
        _VAMPIRE_WINS,
        N_("You are a vampire. After the vampires' pick you frighten another player."),
        VampireAction(
            Aim.VAMPIRE_PICK,
            Requirement.MANDATORY,
            N_("The count names the vampires' pick, then a player for the Mark of Fear."),
        ),
        copy=Copy.WITH_THEM,
        vampire=True,
    ),
    VampireRecord(
        VampireRole.RENFIELD,
        N_("Renfield"),
        Side.VAMPIRE,
        "[VC] Renfield",
        Phase.DUSK,
        N_("Sees the vampires and their pick; takes the Mark of the Bat."),
        N_("With the vampires (not one of them) if no vampire dies; alone, with the village."),
        N_("At dusk you see the vampires and whom they picked. You win if no vampire dies."),
        VampireAction(
            Aim.NOTHING, Requirement.MANDATORY, N_("Renfield takes the Mark of the Bat.")
        ),
        copy=Copy.OWN_STEP,
    ),
    VampireRecord(
        VampireRole.DISEASED,
        N_("Diseased"),
        Side.TOWN,
        "[VR] Marks; [VC] Diseased",
        Phase.DUSK,
        N_("Gives the Mark of Disease to a neighbour: whoever votes for them cannot win."),
        _VILLAGE_WINS,
        N_("At dusk you pass your disease to the player on your left or right."),
        VampireAction(Aim.NEIGHBOUR, Requirement.MANDATORY, N_("The diseased names a neighbour.")),
        copy=Copy.AT_ONCE,
    ),
    VampireRecord(
        VampireRole.CUPID,
        N_("Cupid"),
        Side.TOWN,
        "[VR] Marks; [VC] Cupid",
        Phase.DUSK,
        N_("May make two players fall in love: if one dies, so does the other."),
        _VILLAGE_WINS,
        N_("At dusk you may make two players lovers, yourself allowed."),
        VampireAction(
            Aim.TWO_PLAYERS,
            Requirement.OPTIONAL,
            N_("Cupid names two players, or nobody."),
            self_ok=True,
            others_only=False,
        ),
        copy=Copy.AT_ONCE,
    ),
    VampireRecord(
        VampireRole.INSTIGATOR,
        N_("Instigator"),
        Side.TOWN,
        "[VR] Marks; [VC] Instigator",
        Phase.DUSK,
        N_("May make a player a traitor: they win only if a teammate dies."),
        _VILLAGE_WINS,
        N_("At dusk you may make any player a traitor to their team."),
        VampireAction(
            Aim.PLAYER,
            Requirement.OPTIONAL,
            N_("The instigator names one player, or nobody."),
            self_ok=True,
            others_only=False,
        ),
        copy=Copy.AT_ONCE,
    ),
    VampireRecord(
        VampireRole.PRIEST,
        N_("Priest"),
        Side.TOWN,
        "[VC] Priest",
        Phase.DUSK,
        N_("Takes a Mark of Clarity and may give one to another player."),
        _VILLAGE_WINS,
        N_("At dusk you clear your own mark, and may clear one other player's."),
        VampireAction(
            Aim.PLAYER, Requirement.OPTIONAL, N_("The priest names one other player, or nobody.")
        ),
        copy=Copy.OWN_STEP,
    ),
    VampireRecord(
        VampireRole.ASSASSIN,
        N_("Assassin"),
        Side.ASSASSIN,
        "[VR] Marks; [VC] Assassin",
        Phase.DUSK,
        N_("Marks a player; wins if a player with the Mark of the Assassin dies."),
        N_("Alone: if a marked player dies, whoever else wins."),
        N_("At dusk you mark your target. You win if a marked player dies."),
        VampireAction(
            Aim.PLAYER,
            Requirement.MANDATORY,
            N_("The assassin names any player."),
            self_ok=True,
            others_only=False,
        ),
        copy=Copy.OWN_STEP,
    ),
    VampireRecord(
        VampireRole.APPRENTICE_ASSASSIN,
        N_("Apprentice Assassin"),
        Side.APPRENTICE_ASSASSIN,
        "[VC] Apprentice Assassin",
        Phase.DUSK,
        N_("Sees the Assassin and wins if the Assassin dies; with none, marks a player."),
        N_("Alone: if the Assassin dies (with no Assassin, a marked player)."),
        N_("At dusk you meet the Assassin. You win if the Assassin dies."),
        VampireAction(
            Aim.PLAYER,
            Requirement.MANDATORY,
            N_("With no assassin, the apprentice names any player."),
            self_ok=True,
            others_only=False,
        ),
        copy=Copy.OWN_STEP,
    ),
    VampireRecord(
        VampireRole.MARKSMAN,
        N_("Marksman"),
        Side.TOWN,
        "[VC] Marksman",
        Phase.NIGHT,
        N_("May look at one player's card and another player's mark."),
        _VILLAGE_WINS,
        N_("Tonight you may look at one player's card and another player's mark."),
        VampireAction(
            Aim.CARD_AND_MARK,
            Requirement.OPTIONAL,
            N_('The marksman names a card and a mark ("-" for none), of two other players.'),
        ),
        copy=Copy.OWN_STEP,
    ),
    VampireRecord(
        VampireRole.PICKPOCKET,
        N_("Pickpocket"),
        Side.TOWN,
        "[VC] Pickpocket",
        Phase.NIGHT,
        N_("May swap marks with another player, then sees the new one."),
        _VILLAGE_WINS,
        N_("Tonight you may swap your mark with another player's and look at it."),
        VampireAction(
            Aim.PLAYER, Requirement.OPTIONAL, N_("The pickpocket names one other player.")
        ),
        copy=Copy.OWN_STEP,
    ),
    VampireRecord(
        VampireRole.GREMLIN,
        N_("Gremlin"),
        Side.TOWN,
        "[VC] Gremlin",
        Phase.NIGHT,
        N_("May swap two players' marks, or their cards, without looking."),
        _VILLAGE_WINS,
        N_("Tonight you may swap two players' marks, or their cards, unseen."),
        VampireAction(
            Aim.MARKS_OR_CARDS,
            Requirement.OPTIONAL,
            N_('The gremlin says "marks" or "cards" and names two players.'),
            self_ok=True,
            others_only=False,
        ),
        copy=Copy.OWN_STEP,
    ),
)

VAMPIRE_ROLES: Mapping[VampireRole, VampireRecord] = MappingProxyType({r.role: r for r in _RECORDS})
VAMPIRE_CARDS: frozenset[Card] = frozenset(r.role for r in _RECORDS if r.vampire)


@dataclass(frozen=True, slots=True)
class VampireStep:
    """One step of the combined order of [VR] (8b.3): its `label`, the card that wakes (None:
    the lovers), the resolver's name in `dusk.VAMPIRE_RESOLVERS`, and for a Doppelganger's own
    step, the role it `copied`."""

    label: str
    role: Card | None
    handler: str
    phase: Phase
    copied: VampireRole | None = None


_D = Phase.DUSK
_N = Phase.NIGHT
_DOPP = Role.DOPPELGANGER

VAMPIRE_STEPS: tuple[VampireStep, ...] = (
    VampireStep("-8", VampireRole.COPYCAT, "copycat", _D),
    VampireStep("-7", _DOPP, "copy", _D),
    VampireStep("-6", VampireRole.VAMPIRE, "vampires", _D),
    VampireStep("-6b", VampireRole.THE_COUNT, "count", _D),
    VampireStep("-6ba", _DOPP, "count", _D, VampireRole.THE_COUNT),
    VampireStep("-6c", VampireRole.RENFIELD, "renfield", _D),
    VampireStep("-6ca", _DOPP, "renfield", _D, VampireRole.RENFIELD),
    VampireStep("-5", VampireRole.DISEASED, "diseased", _D),
    VampireStep("-4", VampireRole.CUPID, "cupid", _D),
    VampireStep("-3", VampireRole.INSTIGATOR, "instigator", _D),
    VampireStep("-2", VampireRole.PRIEST, "priest", _D),
    VampireStep("-2a", _DOPP, "priest", _D, VampireRole.PRIEST),
    VampireStep("-1", VampireRole.ASSASSIN, "assassin", _D),
    VampireStep("-1a", _DOPP, "assassin", _D, VampireRole.ASSASSIN),
    VampireStep("-1b", VampireRole.APPRENTICE_ASSASSIN, "apprentice", _D),
    VampireStep("-1ba", _DOPP, "apprentice", _D, VampireRole.APPRENTICE_ASSASSIN),
    VampireStep("00", None, "lovers", _N),
    VampireStep("5d", VampireRole.MARKSMAN, "marksman", _N),
    VampireStep("5da", _DOPP, "marksman", _N, VampireRole.MARKSMAN),
    VampireStep("6c", VampireRole.PICKPOCKET, "pickpocket", _N),
    VampireStep("6ca", _DOPP, "pickpocket", _N, VampireRole.PICKPOCKET),
    VampireStep("7d", VampireRole.GREMLIN, "gremlin", _N),
    VampireStep("7da", _DOPP, "gremlin", _N, VampireRole.GREMLIN),
)


def side_of_card(card: Card) -> Side:
    """The side a card plays for by itself (the marks and the table may change it: dusk.py)."""
    if isinstance(card, VampireRole):
        return VAMPIRE_ROLES[card].side
    return SIDE_OF_TEAM[ROLES[card].team]


def is_vampire_card(card: Card) -> bool:
    return card in VAMPIRE_CARDS
