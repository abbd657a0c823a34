"""The shapes of the role catalogue (roles.py): the cards, teams and rulesets, and what a role's
record, action rule and wake step are made of. The records themselves are data in roles.py
(the base game), roles_daybreak.py and roles_vampire.py; roles.py joins them into `ROLES`.

Sources: rules/000 sections 2, 4, 8 and rules/002 sections 2, 5, 6, 7; the expansions as
docs/rules.md 8a and 8b cite them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from games.words import N_, _

# The catalogue, role by role: filled by roles.py (which joins the base, Daybreak and Vampire
# records) so that a card can name itself.
CATALOGUE: dict[Role, RoleRecord] = {}


class Ruleset(StrEnum):
    """Which rule document the engine applies."""

    HOUSE = "house"  # rules/000: the group's own rules, the default
    OFFICIAL = "official"  # rules/002: the published rules, with the Doppelganger


class Team(StrEnum):
    """The three teams of rules/000 section 2 (rules/002 section 6 has the same three), and the
    Vampire expansion's sides (docs/rules.md 8b.1): the vampires, and the Assassin and the
    Apprentice Assassin, each on a side of their own."""

    TOWN = "town"
    WEREWOLF = "werewolf"
    TANNER = "tanner"
    VAMPIRE = "vampire"
    ASSASSIN = "assassin"
    APPRENTICE_ASSASSIN = "apprentice_assassin"


class Role(StrEnum):
    """A card. The value is the lower-case name used in scenarios, forms and the database.

    Each member has one `RoleRecord` in `ROLES` below (the role walk test checks it)."""

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
    # One Night's Daybreak (both rulesets, the house one when the host adds them; docs/rules.md 8a).
    SENTINEL = "sentinel"
    ALPHA_WOLF = "alpha_wolf"
    MYSTIC_WOLF = "mystic_wolf"
    DREAM_WOLF = "dream_wolf"
    APPRENTICE_SEER = "apprentice_seer"
    PARANORMAL_INVESTIGATOR = "paranormal_investigator"
    WITCH = "witch"
    VILLAGE_IDIOT = "village_idiot"
    REVEALER = "revealer"
    CURATOR = "curator"
    BODYGUARD = "bodyguard"
    # The Bonus Pack's Prince, cited by rules/002 s7.
    PRINCE = "prince"
    # One Night Ultimate Vampire (official ruleset only; docs/rules.md 8b).
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

    # A property in place of str.title (Role is a StrEnum): the card's name, on purpose.
    @property
    def title(self) -> str:  # type: ignore[override]
        """The name as a player reads it ("Doppelganger", "Werewolf"), in the reader's language.

        The scenario runner never shows it: it prints `value`, the format's own word."""
        return _(CATALOGUE[self].title)

    @property
    def team(self) -> Team:
        """The team this card plays for at the end of the night (rules/000 s2, rules/002 s6).

        A Doppelganger that copied nothing has no role of its own; it is counted with the town
        (see docs/rules.md, "Doppelganger that copies nothing"). Use `team_of` for a held card,
        which knows what the Doppelganger copied.
        """
        return CATALOGUE[self].team


class CentrePosition(StrEnum):
    """The three centre cards keep fixed positions (rules/000 section 3a)."""

    LEFT = "left"
    MIDDLE = "middle"
    RIGHT = "right"


CENTRE_POSITIONS: tuple[str, ...] = tuple(p.value for p in CentrePosition)

# Daybreak's centre werewolf card: a fourth card set apart in the centre, dealt only with the
# Alpha Wolf, that only the Alpha Wolf may move (docs/rules.md, "The centre werewolf card").
CENTRE_WOLF = "centre_wolf"

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


def where(position: str) -> str:
    """ "the left centre card" or "Ann's card", in the reader's language."""
    if position == CENTRE_WOLF:
        # Translators: Daybreak's extra werewolf card, set apart in the centre.
        return _("the centre werewolf card")
    if position in CENTRE_POSITIONS:
        return centre_card(position)
    # Translators: a player's card, by the player's name.
    return _("%(player)s's card") % {"player": position}


# --- What a record is made of ---------------------------------------------------------------


class Requirement(StrEnum):
    """Whether a start role's night action is absent, optional or compulsory."""

    NONE = "none"
    OPTIONAL = "optional"
    MANDATORY = "mandatory"


@dataclass(frozen=True, slots=True)
class TargetShape:
    """One allowed form of an action: how many other players and how many centre cards."""

    players: int
    centre: int


# Translators: %(role)s is the name of the card the Doppelganger copied.
COPIED_ACTS_NO_FURTHER = N_("A Doppelganger who copies the %(role)s acts no further.")


@dataclass(frozen=True, slots=True)
class ActionRule:
    """What a player's start role lets them send in tonight.

    `shapes` lists the allowed target forms; an empty target list is allowed unless
    `requirement` is MANDATORY. For the Doppelganger the first target is always the player to
    copy and the copied role's own rule applies to the rest (see `actions.copied_action_rule`).
    `marked` is the rule in words as marked for translation; `description` is what a player
    reads.
    """

    role: Role
    requirement: Requirement
    shapes: tuple[TargetShape, ...]
    marked: str
    # The player may name their own card (Daybreak's witch, curator).
    self_ok: bool = False
    # The action is one of these words instead of cards (the village idiot's direction).
    words: tuple[str, ...] = ()
    # A further check by name, in `actions.CHECKS` (the alpha wolf spares the werewolves).
    check: str | None = None
    # Vampire's marking roles (docs/rules.md 8b.4): what the targets name, checked by
    # `actions.check_aim` instead of the shapes ("players", "vampire_pick", "count",
    # "neighbour", "card_and_mark", "marks_or_cards"); the shapes stay for the forms. A "must"
    # left unsent is done by the engine on the first legal target (8b.3), so an empty action is
    # allowed.
    aim: str | None = None

    @property
    def description(self) -> str:
        """The rule in the reader's language."""
        text = _(self.marked)
        if self.marked == COPIED_ACTS_NO_FURTHER:
            return text % {"role": self.role.title}
        return text


ONE_PLAYER = TargetShape(players=1, centre=0)
TWO_PLAYERS = TargetShape(players=2, centre=0)
ONE_CENTRE = TargetShape(players=0, centre=1)
TWO_CENTRE = TargetShape(players=0, centre=2)
CENTRE_AND_PLAYER = TargetShape(players=1, centre=1)
NO_CARDS = TargetShape(players=0, centre=0)


class Copy(StrEnum):
    """How a Doppelganger that copies this role plays it (rules/002 s5)."""

    AT_ONCE = "at_once"  # does the role's action at once, in the Doppelganger's own step
    WITH_THEM = "with_them"  # wakes with the role's players at their step
    OWN_STEP = "own_step"  # wakes at a step of its own in the night table (step 9a)
    NOTHING = "nothing"  # the role does nothing at night: neither does its copy
    # Vampire's Copycat ([VC] "Doppelganger and Vampire Roles"): the copy becomes the role the
    # Copycat saw and does nothing more.
    BECOMES = "becomes"


@dataclass(frozen=True, slots=True)
class Calls:
    """What the narrator says aloud at a real table for one wake step (rules/002 s3: the
    companion app's announcements). `key` names the step for its pause setting; `seconds` is
    the default pause while the role acts. `wake_with_doppelganger` replaces `wake` when a
    Doppelganger card is in the deck (it may have become this role and wake with it). A
    Doppelganger's step that follows its first step at once (the Doppelganger-minion, rules/002
    s5: "stays awake") has `stays_awake`: the words that end the Doppelganger's first step
    instead of its `sleep`, so the narrator never says "close your eyes" and then "keep them
    open" (docs/rules.md, One Night at a table)."""

    key: str
    wake: str
    sleep: str
    seconds: int
    wake_with_doppelganger: str | None = None
    stays_awake: str | None = None


@dataclass(frozen=True, slots=True)
class RoleRecord:
    """One role: its card, team, limits, night and texts. Texts are English marked with `N_`;
    the pages translate them with `_()` where they are shown.

    - `limits`: how many a deck may hold, by ruleset; a ruleset left out does not deal it.
    - `action`: what it may send in (None: nothing), when `action_if` holds for the player
      (a condition of `actions.CONDITIONS`: "always", or "alone" for the lone werewolf).
    - `copy`: how a Doppelganger plays it; `copies`: the card copies another (its team is
      the copied role's, and the town's "no werewolf" paragraph is not its own).
    - `message`: the role message's paragraphs; or `told`, the name of a function of
      `messages.TOLD` that writes them from the deal (who the fellow werewolves are).
    - `does`, `wins`: the rules page's lines (what it does at night; whom it wins with, by
      ruleset). When it wakes is the wake step's own `wakes` line in `NIGHTS`.
    - `calls`: the narrator's calls for its wake step (None: it never wakes); `copy_calls`:
      for a Doppelganger's step of its own as this role (`NIGHTS` steps with `copied`).
    """

    role: Role
    title: str
    team: Team
    section: str
    limits: Mapping[Ruleset, int]
    does: str
    wins: Mapping[Ruleset, str]
    message: tuple[str, ...] = ()
    told: str | None = None
    action: ActionRule | None = None
    action_if: str = "always"
    copy: Copy = Copy.NOTHING
    copies: bool = False
    calls: Calls | None = None
    copy_calls: Calls | None = None
    # A werewolf card (Daybreak's wolves too): counted as a werewolf at dawn, seen by the minion.
    werewolf: bool = False
    # Wakes with the players of another role's step too (the Alpha and Mystic Wolves wake with
    # the werewolves before their own step).
    wakes_with: Role | None = None
    # A Vampire card (the Vampire, the Master, the Count): its holder is a vampire at dawn.
    vampire: bool = False


@dataclass(frozen=True, slots=True)
class WakeStep:
    """One step of a ruleset's night, in the document's order.

    `label` is the step as the document numbers it ("0", "4", "9a"); `role` the card that
    wakes (with a Doppelganger that copied it, for a role whose `copy` is WITH_THEM); `copied`,
    when given, makes it the Doppelganger's own step as that copied role. `handler` names the
    action in `resolvers.RESOLVERS` (None: a step the narrator calls, whose effect the engine
    applies at the copied role's own step). `wakes` is the rules page's line on when the role
    wakes (on the role's own step only).
    """

    label: str
    role: Role
    handler: str | None
    wakes: str | None = None
    copied: Role | None = None
    # Played only for some decks (docs/rules.md 8b.3): "vampire", with a Vampire card in the
    # deck; "no_vampire", without one (the Doppelganger wakes at -7 or at 1).
    deck: str | None = None

    @property
    def order(self) -> int:
        """The step's number in the night's log (step 9a is logged as 9, dusk's -6b as -6)."""
        match = re.match(r"-?\d+", self.label)
        assert match is not None, self.label
        return int(match.group())


def both(text: str) -> Mapping[Ruleset, str]:
    """The same line for both rulesets."""
    return MappingProxyType({Ruleset.HOUSE: text, Ruleset.OFFICIAL: text})


# --- The records ------------------------------------------------------------------------------

TOWN_GOAL = N_("You play for the town: you win if at least one werewolf dies tomorrow.")
WEREWOLF_GOAL = N_(
    "You play for the werewolf team: you win if no werewolf dies tomorrow"
    " (and the Tanner stays alive)."
)
TOWN_WINS = N_("With the town: the town wins if at least one werewolf dies.")
TANNER_WINS = N_("Alone: only if the tanner dies. Then the werewolves cannot win.")
