"""Roles as data: every card of One Night is one record here, and each ruleset's night is one
table of wake steps here.

A `RoleRecord` holds everything about one role: its card's name, its team, how many a deck of
each ruleset may hold, what it may send in at night, how a Doppelganger plays it, and every text
a player reads about it (its role message, the rules page's lines, the narrator's calls). The
night tables `NIGHTS` list the wake steps of each ruleset in the document's order (rules/000 s8,
rules/002 s5); each step names its handler, one small function pair in `resolvers.py` or
`daybreak.py` (what the
action does, what the player learns). The engine's night, the Doppelganger's copies, the
narrator and the rules page all read these tables; nothing about a particular role's night is
written anywhere else. Adding a role: docs/architecture.md, "Adding a role".

Sources: rules/000 sections 2, 4, 6 and 8 (house roles, limits, edge cases, night order) and
rules/002 sections 2, 5, 6 and 7 (official roles, Doppelganger, teams, wake order).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

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
    # One Night's Daybreak (the official ruleset only; docs/rules.md, Daybreak).
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

    # A property in place of str.title (Role is a StrEnum): the card's name, on purpose.
    @property
    def title(self) -> str:  # type: ignore[override]
        """The name as a player reads it ("Doppelganger", "Werewolf"), in the reader's language.

        The scenario runner never shows it: it prints `value`, the format's own word."""
        return _(ROLES[self].title)

    @property
    def team(self) -> Team:
        """The team this card plays for at the end of the night (rules/000 s2, rules/002 s6).

        A Doppelganger that copied nothing has no role of its own; it is counted with the town
        (see docs/rules.md, "Doppelganger that copies nothing"). Use `team_of` for a held card,
        which knows what the Doppelganger copied.
        """
        return ROLES[self].team


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

    @property
    def order(self) -> int:
        """The step's number in the night's log (step 9a is logged as 9)."""
        match = re.match(r"\d+", self.label)
        assert match is not None, self.label
        return int(match.group())


def _both(text: str) -> Mapping[Ruleset, str]:
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
        wins=_both(TOWN_WINS),
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
        wins=_both(TOWN_WINS),
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
        wins=_both(TOWN_WINS),
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
        wins=_both(TOWN_WINS),
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
        wins=_both(TOWN_WINS),
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
        wins=_both(TOWN_WINS),
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
        wins=_both(TOWN_WINS),
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
        wins=_both(TOWN_WINS),
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
        wins=_both(TANNER_WINS),
        message=(
            N_(
                "You hate your job. You win only if you die tomorrow, by the vote or by the hunter."
            ),
            N_("If you die, the werewolves lose too."),
        ),
    ),
    # --- One Night's Daybreak (official ruleset only; docs/rules.md, "Daybreak") -------------
    RoleRecord(
        Role.SENTINEL,
        N_("Sentinel"),
        Team.TOWN,
        "Daybreak: Sentinel",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "Wakes before everyone and may put a shield on another player's card: nobody may"
            " look at that card or move it for the rest of the night, not even its holder."
        ),
        wins={Ruleset.OFFICIAL: TOWN_WINS},
        message=(
            N_(
                "Tonight, before anyone else wakes, you may put a shield on another player's"
                " card. Nobody can look at a shielded card or move it until dawn."
            ),
            TOWN_GOAL,
        ),
        action=ActionRule(
            Role.SENTINEL,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("A sentinel shields one other player's card."),
        ),
        copy=Copy.AT_ONCE,
        calls=Calls(
            "sentinel",
            N_("Sentinel, wake up. You may put a shield on another player's card."),
            N_("Sentinel, close your eyes."),
            8,
        ),
    ),
    RoleRecord(
        Role.ALPHA_WOLF,
        N_("Alpha Wolf"),
        Team.WEREWOLF,
        "Daybreak: Alpha Wolf",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "Wakes with the werewolves, then again alone: swaps the centre werewolf card with"
            " the card of another player who is not a werewolf, making them one."
        ),
        wins={Ruleset.OFFICIAL: N_("With the werewolves.")},
        told="alpha_wolf",
        action=ActionRule(
            Role.ALPHA_WOLF,
            Requirement.MANDATORY,
            (ONE_PLAYER,),
            N_(
                "An alpha wolf swaps the centre werewolf card with one other player who was not"
                " dealt a werewolf."
            ),
            check="not_a_werewolf",
        ),
        action_if="has_prey",
        copy=Copy.OWN_STEP,
        werewolf=True,
        wakes_with=Role.WEREWOLF,
        calls=Calls(
            "alpha-wolf",
            N_(
                "Alpha Wolf, wake up. Swap the centre werewolf card with the card of another"
                " player who is not a werewolf."
            ),
            N_("Alpha Wolf, close your eyes."),
            10,
        ),
        copy_calls=Calls(
            "doppelganger-alpha-wolf",
            N_(
                "Doppelganger, if you copied the Alpha Wolf, wake up and swap the centre"
                " werewolf card with the card of a player who is not a werewolf."
            ),
            N_("Doppelganger, close your eyes."),
            10,
        ),
    ),
    RoleRecord(
        Role.MYSTIC_WOLF,
        N_("Mystic Wolf"),
        Team.WEREWOLF,
        "Daybreak: Mystic Wolf",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "Wakes with the werewolves, then again alone and may look at another player's card."
        ),
        wins={Ruleset.OFFICIAL: N_("With the werewolves.")},
        told="mystic_wolf",
        action=ActionRule(
            Role.MYSTIC_WOLF,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("A mystic wolf looks at one other player's card."),
        ),
        copy=Copy.OWN_STEP,
        werewolf=True,
        wakes_with=Role.WEREWOLF,
        calls=Calls(
            "mystic-wolf",
            N_("Mystic Wolf, wake up. You may look at another player's card."),
            N_("Mystic Wolf, close your eyes."),
            10,
        ),
        copy_calls=Calls(
            "doppelganger-mystic-wolf",
            N_(
                "Doppelganger, if you copied the Mystic Wolf, wake up. You may look at another"
                " player's card."
            ),
            N_("Doppelganger, close your eyes."),
            10,
        ),
    ),
    RoleRecord(
        Role.DREAM_WOLF,
        N_("Dream Wolf"),
        Team.WEREWOLF,
        "Daybreak: Dream Wolf",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "A werewolf who sleeps through the night: the other werewolves and the minion see"
            " who it is, but it does not learn who they are."
        ),
        wins={Ruleset.OFFICIAL: N_("With the werewolves.")},
        message=(
            N_(
                "You are a werewolf, but you dream through the night: you do not wake with the"
                " werewolves and do not learn who they are. They (and a minion) learn who you are."
            ),
            WEREWOLF_GOAL,
        ),
        werewolf=True,
    ),
    RoleRecord(
        Role.APPRENTICE_SEER,
        N_("Apprentice Seer"),
        Team.TOWN,
        "Daybreak: Apprentice Seer",
        limits={Ruleset.OFFICIAL: 1},
        does=N_("May look at one of the three centre cards."),
        wins={Ruleset.OFFICIAL: TOWN_WINS},
        message=(N_("Tonight you may look at one of the three centre cards."), TOWN_GOAL),
        action=ActionRule(
            Role.APPRENTICE_SEER,
            Requirement.OPTIONAL,
            (ONE_CENTRE,),
            N_("An apprentice seer looks at one centre card."),
        ),
        copy=Copy.AT_ONCE,
        calls=Calls(
            "apprentice-seer",
            N_("Apprentice Seer, wake up. You may look at one centre card."),
            N_("Apprentice Seer, close your eyes."),
            8,
        ),
    ),
    RoleRecord(
        Role.PARANORMAL_INVESTIGATOR,
        N_("Paranormal Investigator"),
        Team.TOWN,
        "Daybreak: Paranormal Investigator",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "May look at up to two other players' cards, one after the other. On seeing a"
            " werewolf or the tanner they stop and become one: their card plays as it at dawn."
        ),
        wins={
            Ruleset.OFFICIAL: N_(
                "With the town, unless they saw a werewolf (then with the werewolves) or the"
                " tanner (then only if they die)."
            )
        },
        message=(
            N_(
                "Tonight you may look at up to two other players' cards, one after the other. If"
                " you see a werewolf or the tanner, you stop looking and become one yourself."
            ),
            TOWN_GOAL,
        ),
        action=ActionRule(
            Role.PARANORMAL_INVESTIGATOR,
            Requirement.OPTIONAL,
            (ONE_PLAYER, TWO_PLAYERS),
            N_("A paranormal investigator looks at one or two other players' cards, in order."),
        ),
        copy=Copy.AT_ONCE,
        calls=Calls(
            "paranormal-investigator",
            N_(
                "Paranormal Investigator, wake up. You may look at up to two other players'"
                " cards, one at a time. If you see a werewolf or the tanner, stop: you are now"
                " that role."
            ),
            N_("Paranormal Investigator, close your eyes."),
            14,
        ),
    ),
    RoleRecord(
        Role.WITCH,
        N_("Witch"),
        Team.TOWN,
        "Daybreak: Witch",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "May look at one centre card; having looked, must swap it with any player's card,"
            " their own included."
        ),
        wins={Ruleset.OFFICIAL: TOWN_WINS},
        message=(
            N_(
                "Tonight you may look at one centre card. If you do, you must swap it with a"
                " player's card: anyone's, your own included."
            ),
            TOWN_GOAL,
        ),
        action=ActionRule(
            Role.WITCH,
            Requirement.OPTIONAL,
            (CENTRE_AND_PLAYER,),
            N_(
                "A witch names one centre card, then the player (herself allowed) whose card it"
                " swaps with."
            ),
            self_ok=True,
        ),
        copy=Copy.AT_ONCE,
        calls=Calls(
            "witch",
            N_(
                "Witch, wake up. You may look at one centre card. If you do, swap it with any"
                " player's card, yours included."
            ),
            N_("Witch, close your eyes."),
            12,
        ),
    ),
    RoleRecord(
        Role.VILLAGE_IDIOT,
        N_("Village Idiot"),
        Team.TOWN,
        "Daybreak: Village Idiot",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "May pass every other player's card one seat to the left or to the right, without"
            " looking; their own card and shielded cards stay where they are."
        ),
        wins={Ruleset.OFFICIAL: TOWN_WINS},
        message=(
            N_(
                "Tonight you may move every other player's card one seat to the left or to the"
                " right, all the same way. Your own card stays put."
            ),
            TOWN_GOAL,
        ),
        action=ActionRule(
            Role.VILLAGE_IDIOT,
            Requirement.OPTIONAL,
            (NO_CARDS,),
            N_('A village idiot moves the cards "left" or "right".'),
            words=("left", "right"),
        ),
        copy=Copy.AT_ONCE,
        calls=Calls(
            "village-idiot",
            N_(
                "Village Idiot, wake up. You may move everyone else's card one seat to the left"
                " or to the right."
            ),
            N_("Village Idiot, close your eyes."),
            10,
        ),
    ),
    RoleRecord(
        Role.REVEALER,
        N_("Revealer"),
        Team.TOWN,
        "Daybreak: Revealer",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "May turn another player's card face up for the day; a werewolf or the tanner is"
            " turned face down again, seen by the revealer alone."
        ),
        wins={Ruleset.OFFICIAL: TOWN_WINS},
        message=(
            N_(
                "Near the end of the night you may turn another player's card face up, for"
                " everyone to see. If it is a werewolf or the tanner, you turn it back down and"
                " only you saw it."
            ),
            TOWN_GOAL,
        ),
        action=ActionRule(
            Role.REVEALER,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("A revealer turns one other player's card face up."),
        ),
        copy=Copy.OWN_STEP,
        calls=Calls(
            "revealer",
            N_(
                "Revealer, wake up. You may turn another player's card face up. If it is a"
                " werewolf or the tanner, turn it back face down."
            ),
            N_("Revealer, close your eyes."),
            10,
        ),
        copy_calls=Calls(
            "doppelganger-revealer",
            N_(
                "Doppelganger, if you copied the Revealer, wake up. You may turn another"
                " player's card face up; a werewolf or the tanner goes back face down."
            ),
            N_("Doppelganger, close your eyes."),
            10,
        ),
    ),
    RoleRecord(
        Role.CURATOR,
        N_("Curator"),
        Team.TOWN,
        "Daybreak: Curator",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "Wakes last and may put an artifact, face down and unseen, on any player's card"
            " (their own too); its holder looks at it at dawn."
        ),
        wins={Ruleset.OFFICIAL: TOWN_WINS},
        message=(
            N_(
                "At the end of the night you may put an artifact, face down, on any player's"
                " card, your own included. You do not see which one; its holder does, at dawn."
            ),
            TOWN_GOAL,
        ),
        action=ActionRule(
            Role.CURATOR,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("A curator puts an artifact on one player's card (their own allowed)."),
            self_ok=True,
        ),
        copy=Copy.OWN_STEP,
        calls=Calls(
            "curator",
            N_("Curator, wake up. You may put an artifact face down on any player's card."),
            N_("Curator, close your eyes."),
            10,
        ),
        copy_calls=Calls(
            "doppelganger-curator",
            N_(
                "Doppelganger, if you copied the Curator, wake up. You may put an artifact face"
                " down on any player's card."
            ),
            N_("Doppelganger, close your eyes."),
            10,
        ),
    ),
    RoleRecord(
        Role.BODYGUARD,
        N_("Bodyguard"),
        Team.TOWN,
        "Daybreak: Bodyguard (the vote: voting.tally_votes)",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "Nothing at night. The player the bodyguard votes for cannot be killed; if they"
            " had the most votes, the next most voted die instead (with two votes or more)."
        ),
        wins={Ruleset.OFFICIAL: TOWN_WINS},
        message=(
            N_(
                "The player you vote for tomorrow cannot be killed. If they get the most votes,"
                " the players with the next most votes die instead."
            ),
            TOWN_GOAL,
        ),
    ),
    RoleRecord(
        Role.PRINCE,
        N_("Prince"),
        Team.TOWN,
        "002 s7; Bonus Pack: Prince (the vote: voting.tally_votes)",
        limits={Ruleset.OFFICIAL: 1},
        does=N_(
            "Nothing at night. The prince cannot be killed: with the most votes, the next most"
            " voted die instead (with two votes or more)."
        ),
        wins={Ruleset.OFFICIAL: TOWN_WINS},
        message=(
            N_(
                "You cannot be killed tomorrow. If you get the most votes, the players with the"
                " next most votes die instead."
            ),
            TOWN_GOAL,
        ),
    ),
)

_BY_ROLE = {record.role: record for record in _RECORDS}
# Every card has its record (a card without one fails here, when the engine is imported).
ROLES: Mapping[Role, RoleRecord] = MappingProxyType({role: _BY_ROLE[role] for role in Role})


# --- The nights: each ruleset's wake steps, in the document's order -----------------------------

_TOLD_AT_DEAL = N_("Told with the role message (step 0).")

# rules/000 s8: "0 (in role PM) - Werewolves, Minion, Masons", then 1 seer, 2 robber,
# 3 troublemaker, 4 drunk and insomniac ("technically insomniac happens after drunk").
HOUSE_NIGHT: tuple[WakeStep, ...] = (
    WakeStep(
        "0",
        Role.WEREWOLF,
        "werewolves",
        N_("Told with the role message (step 0); a lone werewolf's look comes then."),
    ),
    WakeStep("0", Role.MINION, "minion", _TOLD_AT_DEAL),
    WakeStep("0", Role.MASON, "masons", _TOLD_AT_DEAL),
    WakeStep("1", Role.SEER, "seer", N_("Step 1.")),
    WakeStep("2", Role.ROBBER, "robber", N_("Step 2.")),
    WakeStep("3", Role.TROUBLEMAKER, "troublemaker", N_("Step 3.")),
    WakeStep("4", Role.DRUNK, "drunk", N_("Step 4, before the insomniac.")),
    WakeStep("4", Role.INSOMNIAC, "insomniac", N_("Step 4, last of all.")),
)

# rules/002 s5: 1 Doppelganger (a copied seer, robber, troublemaker or drunk acts at once; a
# copied minion stays awake to see the werewolves), 2 werewolves, 3 minion, 4 masons, 5 seer,
# 6 robber, 7 troublemaker, 8 drunk, 9 insomniac, 9a Doppelganger-insomniac. Daybreak's roles
# take their places in the published combined order (docs/rules.md, "Daybreak: the wake
# order"): 0 sentinel first; 2b alpha wolf and 2c mystic wolf after the werewolves; 5b
# apprentice seer and 5c paranormal investigator after the seer; 6b witch after the robber; 7b
# village idiot after the troublemaker; 10 revealer and 11 curator after the insomniac. A
# Doppelganger copy of a role that wakes late acts right after the role (2b, 2c, 10a, 11a).
OFFICIAL_NIGHT: tuple[WakeStep, ...] = (
    WakeStep("0", Role.SENTINEL, "sentinel", N_("First of all, before the Doppelganger.")),
    WakeStep(
        "1",
        Role.DOPPELGANGER,
        "copy",
        N_("First; again after the insomniac if it copied the insomniac."),
    ),
    WakeStep("1", Role.DOPPELGANGER, None, copied=Role.MINION),
    WakeStep("2", Role.WEREWOLF, "werewolves", N_("Second.")),
    WakeStep("2b", Role.ALPHA_WOLF, "alpha", N_("With the werewolves, then alone after them.")),
    WakeStep("2b", Role.DOPPELGANGER, "alpha", copied=Role.ALPHA_WOLF),
    WakeStep(
        "2c", Role.MYSTIC_WOLF, "mystic", N_("With the werewolves, then after the alpha wolf.")
    ),
    WakeStep("2c", Role.DOPPELGANGER, "mystic", copied=Role.MYSTIC_WOLF),
    WakeStep("3", Role.MINION, "minion", N_("Third.")),
    WakeStep("4", Role.MASON, "masons", N_("Fourth.")),
    WakeStep("5", Role.SEER, "seer", N_("Fifth.")),
    WakeStep("5b", Role.APPRENTICE_SEER, "apprentice", N_("After the seer.")),
    WakeStep("5c", Role.PARANORMAL_INVESTIGATOR, "investigator", N_("After the apprentice seer.")),
    WakeStep("6", Role.ROBBER, "robber", N_("Sixth.")),
    WakeStep("6b", Role.WITCH, "witch", N_("After the robber.")),
    WakeStep("7", Role.TROUBLEMAKER, "troublemaker", N_("Seventh.")),
    WakeStep("7b", Role.VILLAGE_IDIOT, "idiot", N_("After the troublemaker.")),
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


# The expansions' roles (official ruleset only): Daybreak's eleven and the Bonus Pack's Prince.
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
EXPANSION_ROLES: frozenset[Role] = DAYBREAK_ROLES | {Role.PRINCE}


def is_werewolf(role: Role) -> bool:
    """A werewolf card: the werewolf and Daybreak's alpha, mystic and dream wolves."""
    return ROLES[role].werewolf


WEREWOLF_CARDS: frozenset[Role] = frozenset(r for r in Role if ROLES[r].werewolf)


def plays_as(card: Role, copied: Role | None) -> Role:
    """The role a held card plays as for the day: the copied role for a Doppelganger card."""
    if ROLES[card].copies and copied is not None:
        return copied
    return card
