"""Roles as data: what each role is, which side it plays for, what it shows to investigators
and what it can do.

A role is a `Role` record; each of its abilities is an `Ability` record whose behaviour is one
function in `abilities.py`, found by the ability's `resolver` name. Adding a role is adding one
record here (to its ruleset's table in `rulesets.py`) and, if it does something new, one function.
Nothing about a particular role is written anywhere else.

Sections: "001" is rules/001 (the forum game), "003 <heading>" rules/003 (Oxford), "004 <part>"
rules/004 (the 1.7.0 manual); "FORMAT" is ../shared/scenarios/werewolf/FORMAT.md, whose readings
decide where a document is vague.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from games.words import N_


class Timing(StrEnum):
    """When an ability is used."""

    NIGHT = "night"  # chosen during the night, resolved at its end
    DAY = "day"  # used during the day, at once (an event)
    ON_DEATH = "on_death"  # when its holder dies: a reaction (a shot) or a trigger (a charm)
    ON_ELIMINATION = "on_elimination"  # when its holder is voted out (the idiot)
    PASSIVE = "passive"  # acts by itself at night: information, a curse


class Targets(StrEnum):
    """Whom an ability may name."""

    NONE = "none"  # no target
    ANY = "any"  # any living player, the user included
    OTHER = "other"  # another living player
    OPTIONAL_OTHER = "optional_other"  # another living player, or nobody
    ATTACKED = "attacked"  # the player attacked tonight (the witch's antidote)


@dataclass(frozen=True, slots=True)
class Ability:
    """One thing a role can do. `resolver` names its function in `abilities.RESOLVERS`.

    `band` orders a night's actions in the fold (lower first, as the ruleset's document orders
    its night); `when` names the condition under which the holder has it now
    (`abilities.CONDITIONS`); `checks` name extra rules on the target (`abilities.CHECKS`).
    `summary` is English, marked with `N_`: a page shows `_(ability.summary)`.
    """

    key: str
    timing: Timing
    resolver: str
    section: str
    summary: str
    targets: Targets = Targets.NONE
    band: int = 0
    uses: int | None = None  # per game; None is unlimited
    group: str | None = None  # "pack": the werewolves choose together
    nobody: bool = False  # may name "nobody" to forgo (rules/001)
    when: str = "always"
    checks: tuple[str, ...] = ()
    decides: bool = True  # False for triggers that need no choice (the charm's death)


@dataclass(frozen=True, slots=True)
class Role:
    """A role card of one ruleset.

    `side` is the team it wins with; `group` is rules/004's divine/commoner split of the good
    camp; `shows` is what each investigator learns about it (a value, or the name of a rule in
    `abilities.APPEARANCES`); `knows` names what the role is told of the others at the start.
    `title` and `summary` are English, marked with `N_`: a page shows `_(role.title)`; `name` is
    the key the scenario format and the code use.
    """

    name: str
    title: str
    side: str
    section: str
    summary: str
    abilities: tuple[Ability, ...] = ()
    shows: Mapping[str, str] = field(default_factory=dict)
    group: str | None = None
    limit: int | None = None  # at most this many in a deal
    vote_weight: int = 1  # execution calls (rules/003: the mayor's vote counts twice)
    one_ability_a_night: bool = False  # the witch: one potion a night
    knows: tuple[str, ...] = ()  # sides or roles this role learns at the start
    _by_timing: Mapping[Timing, tuple[Ability, ...]] = field(init=False, repr=False, compare=False)

    pack: Ability | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_timing = {t: tuple(a for a in self.abilities if a.timing is t) for t in Timing}
        object.__setattr__(self, "_by_timing", by_timing)
        pack = [a for a in self.abilities if a.group == "pack"]
        object.__setattr__(self, "pack", pack[0] if pack else None)

    def ability(self, key: str) -> Ability | None:
        """The ability of this role with `key`, if it has one."""
        for ability in self.abilities:
            if ability.key == key:
                return ability
        return None

    def at(self, timing: Timing) -> tuple[Ability, ...]:
        """The abilities used at `timing`, in the order the role lists them."""
        return self._by_timing[timing]


# --- rules/001: the forum game --------------------------------------------------------------

FORUM_KILL = Ability(
    "kill",
    Timing.NIGHT,
    "pack_vote",
    "001 night phase",
    N_("Vote with the other werewolves for the player to eliminate, or to forgo a kill."),
    targets=Targets.ANY,
    band=10,
    group="pack",
    nobody=True,
)
FORUM_SEE = Ability(
    "see",
    Timing.NIGHT,
    "see_affiliation",
    "001 night phase",
    N_("Investigate another player and learn their affiliation."),
    targets=Targets.OTHER,
    band=30,
)
FORUM_PROTECT = Ability(
    "protect",
    Timing.NIGHT,
    "protect_from_pack",
    "001 night phase",
    N_(
        "Protect one player (yourself included) from the werewolves; not the same player on "
        "consecutive nights."
    ),
    targets=Targets.ANY,
    band=20,
    checks=("not_last_nights_target",),
)

FORUM_ROLES: tuple[Role, ...] = (
    Role(
        "werewolf",
        N_("Werewolf"),
        "werewolves",
        "001",
        N_(
            "Each night, vote with the other werewolves on whom to eliminate. You know the other "
            "werewolves and the lunatic."
        ),
        abilities=(FORUM_KILL,),
        shows={"seer": "werewolf"},
        knows=("werewolves", "lunatic"),
    ),
    Role(
        "lunatic",
        N_("Lunatic"),
        "lunatic",
        "001",
        N_("You win alone if you are eliminated. The werewolves know who you are."),
        shows={"seer": "lunatic"},
    ),
    Role(
        "seer",
        N_("Seer"),
        "village",
        "001",
        N_("A villager who investigates one player each night and learns their affiliation."),
        abilities=(FORUM_SEE,),
        shows={"seer": "villager"},
    ),
    Role(
        "protector",
        N_("Protector"),
        "village",
        "001",
        N_("A villager who protects one player each night from the werewolves."),
        abilities=(FORUM_PROTECT,),
        shows={"seer": "villager"},
    ),
    Role(
        "villager",
        N_("Villager"),
        "village",
        "001",
        N_("No night ability: find the werewolves and vote them out."),
        shows={"seer": "villager"},
    ),
)

# --- rules/003: the Oxford game ---------------------------------------------------------------

OXFORD_MEET_PACK = Ability(
    "meet_pack",
    Timing.PASSIVE,
    "meet_pack",
    "003 Werewolf, Dark Villager",
    N_("On the first night, the werewolves and the dark villager learn each other."),
    band=90,
    when="first_night",
)
OXFORD_MAUL = Ability(
    "maul",
    Timing.NIGHT,
    "maul",
    "003 Werewolf",
    N_(
        "From the second night, maul any player (yourself and other werewolves included): one maul "
        "injures, two kill; the last werewolf alive kills alone."
    ),
    targets=Targets.ANY,
    band=30,
    group="pack",
    when="after_first_night",
)
OXFORD_CROSSBOW = Ability(
    "shoot",
    Timing.DAY,
    "crossbow",
    "003 Villager Vigilante, Werewolf Vigilante",
    N_("Once a game, during the day, shoot another player dead with your one arrow."),
    targets=Targets.OTHER,
    uses=1,
)
OXFORD_WOLFSBANE = Ability(
    "protect",
    Timing.NIGHT,
    "wolfsbane",
    "003 Wolfsbane",
    N_(
        "Each night from the second, protect another player from the werewolves (not from traps). "
        "A lone wolfsbane may protect itself, but not two nights in a row."
    ),
    targets=Targets.ANY,
    band=10,
    when="after_first_night",
    checks=("wolfsbane_self",),
)
OXFORD_TRAP = Ability(
    "trap",
    Timing.NIGHT,
    "trap",
    "003 Trapper",
    N_(
        "Each night from the second, set a trap at any player's door (your own included): a "
        "werewolf who mauls that player is injured."
    ),
    targets=Targets.ANY,
    band=20,
    when="after_first_night",
)
OXFORD_MEET_CULT = Ability(
    "meet_cult",
    Timing.PASSIVE,
    "meet_cult",
    "003 Cultists",
    N_("On the first night, the cultists learn each other."),
    band=90,
    when="first_night",
)

OXFORD_ROLES: tuple[Role, ...] = (
    Role(
        "werewolf",
        N_("Werewolf"),
        "werewolves",
        "003 Werewolf",
        N_("Meet the pack on the first night; from the second, maul a player each night."),
        abilities=(OXFORD_MEET_PACK, OXFORD_MAUL),
    ),
    Role(
        "dark_villager",
        N_("Dark Villager"),
        "werewolves",
        "003 Dark Villager",
        N_(
            "No night action: you know the werewolves and they know you; help them win. If they "
            "are all killed, you lose with them."
        ),
        abilities=(OXFORD_MEET_PACK,),
        limit=1,
    ),
    Role(
        "wolfsbane",
        N_("Wolfsbane"),
        "village",
        "003 Wolfsbane",
        N_("Each night from the second, shield another player from the werewolves."),
        abilities=(OXFORD_WOLFSBANE,),
        limit=2,
    ),
    Role(
        "trapper",
        N_("Trapper"),
        "village",
        "003 Trapper",
        N_("Each night from the second, trap a player's door: a werewolf who mauls them is hurt."),
        abilities=(OXFORD_TRAP,),
        limit=2,
    ),
    Role(
        "vigilante",
        N_("Villager Vigilante"),
        "village",
        "003 Villager Vigilante",
        N_("You carry a crossbow with one arrow, to fire during a day."),
        abilities=(OXFORD_CROSSBOW,),
        limit=1,
    ),
    Role(
        "mayor",
        N_("Mayor"),
        "village",
        "003 Mayor",
        N_("Your vote counts twice in execution calls."),
        limit=1,
        vote_weight=2,
    ),
    Role(
        "cultist",
        N_("Cultist"),
        "village",
        "003 Cultists",
        N_("Meet the other cultists on the first night; never mention the cult."),
        abilities=(OXFORD_MEET_CULT,),
    ),
    Role(
        "villager",
        N_("Innocent Villager"),
        "village",
        "003 Innocent Villager",
        N_("No active role: sleep tight and survive."),
    ),
)

# --- rules/004: the 1.7.0 game ----------------------------------------------------------------

CLASSIC_KILL = Ability(
    "kill",
    Timing.NIGHT,
    "pack_kill",
    "004 II Common Werewolf, III Night Phase",
    N_("Each night, agree with the other werewolves on one player to attack."),
    targets=Targets.ANY,
    band=10,
    group="pack",
    when="killer",
)
CLASSIC_EXPLODE = Ability(
    "explode",
    Timing.DAY,
    "explode",
    "004 II Common Werewolf",
    N_("During the day's speeches, reveal yourself and die: the day ends at once, with no vote."),
)
WOLF_BEAUTY_CHARM = Ability(
    "charm",
    Timing.NIGHT,
    "charm",
    "004 II Wolf Beauty",
    N_("After the kill, charm another player: when you die, your newest charm dies with you."),
    targets=Targets.OTHER,
    band=20,
)
WOLF_BEAUTY_LOVE_DEATH = Ability(
    "love_death",
    Timing.ON_DEATH,
    "love_death",
    "004 II Wolf Beauty, IV",
    N_("When the wolf beauty dies, by any cause, her charmed player dies with her."),
    decides=False,
)
WHITE_WOLF_KING_EXPLODE = Ability(
    "explode",
    Timing.DAY,
    "explode",
    "004 II White Werewolf King, IV",
    N_("During the day's speeches, explode and take any other player with you; the day ends."),
    targets=Targets.OPTIONAL_OTHER,
)
HIDDEN_WOLF_KILL = Ability(
    "kill",
    Timing.NIGHT,
    "pack_kill",
    "004 II Hidden Werewolf",
    N_("Once every other killing werewolf is out, wake up and join the kill."),
    targets=Targets.ANY,
    band=10,
    group="pack",
    when="pack_gone",
)
HUNTER_SHOT = Ability(
    "shoot",
    Timing.ON_DEATH,
    "shoot_on_death",
    "004 II Hunter",
    N_("When you are out, take one living player with you (not if poisoned or counter-injured)."),
    targets=Targets.OTHER,
    when="shot_allowed",
)
WOLF_KING_SHOT = Ability(
    "shoot",
    Timing.ON_DEATH,
    "shoot_on_death",
    "004 II Werewolf King, House Rule Tips",
    N_(
        "When you are out, take one living player with you (not if poisoned, counter-injured, "
        "after your own explosion, or, if the table says so, when the pack killed you)."
    ),
    targets=Targets.OTHER,
    when="wolf_king_shot_allowed",
)
WRAITH_RIDER_CURSE = Ability(
    "counter_injury",
    Timing.PASSIVE,
    "counter_injury",
    "004 II Wraith Rider, IV",
    N_(
        "A seer who checks you or a witch who poisons you dies at daybreak; the poison does not "
        "touch you and the check tells nothing."
    ),
    band=90,
)
STONE_GHOST_CHECK = Ability(
    "check",
    Timing.NIGHT,
    "learn_role",
    "004 II Stone Statue Ghost",
    N_("While another werewolf lives, learn one player's exact role each night."),
    targets=Targets.OTHER,
    band=60,
    when="not_last_of_camp",
)
STONE_GHOST_KILL = Ability(
    "kill",
    Timing.NIGHT,
    "pack_kill",
    "004 II Stone Statue Ghost",
    N_("Once you are the last of the werewolf camp, you attack alone."),
    targets=Targets.ANY,
    band=10,
    group="pack",
    when="last_of_camp",
)
SEER_CHECK = Ability(
    "check",
    Timing.NIGHT,
    "check_camp",
    "004 II Seer",
    N_('Each night, check another player: you learn "good" or "werewolf".'),
    targets=Targets.OTHER,
    band=40,
)
WITCH_SENSE = Ability(
    "sense_attack",
    Timing.PASSIVE,
    "sense_attack",
    "004 III Night Phase",
    N_("While you still hold the antidote, you learn whom the werewolves attacked."),
    band=25,
    when="holds_antidote",
)
WITCH_SAVE = Ability(
    "save",
    Timing.NIGHT,
    "save",
    "004 II Witch",
    N_("Once a game, save the player the werewolves attacked tonight."),
    targets=Targets.ATTACKED,
    band=30,
    uses=1,
    checks=("witch_self_save",),
)
WITCH_POISON = Ability(
    "poison",
    Timing.NIGHT,
    "poison",
    "004 II Witch",
    N_("Once a game, poison another player: they die at daybreak, guarded or not."),
    targets=Targets.OTHER,
    band=30,
    uses=1,
)
GUARDIAN_GUARD = Ability(
    "guard",
    Timing.NIGHT,
    "guard",
    "004 II Guardian",
    N_("Each night, guard one player (yourself included) from the werewolves' attack."),
    targets=Targets.ANY,
    band=50,
    checks=("guardian_repeat",),
)
KNIGHT_DUEL = Ability(
    "duel",
    Timing.DAY,
    "duel",
    "004 II Knight, IV",
    N_(
        "Once a game, during the day, duel another player: a werewolf dies, anyone else survives "
        "and you die."
    ),
    targets=Targets.OTHER,
    uses=1,
)
IDIOT_REVEAL = Ability(
    "reveal",
    Timing.ON_ELIMINATION,
    "idiot_reveal",
    "004 II Idiot",
    N_("The first time you are voted out, you stay in the game but lose your vote."),
    decides=False,
    uses=1,
)
SILENCER_SILENCE = Ability(
    "silence",
    Timing.NIGHT,
    "silence",
    "004 II Silencer Elder",
    N_("Each night, silence another player for the next day."),
    targets=Targets.OTHER,
    band=70,
)
GRAVE_KEEPER_READ = Ability(
    "read_grave",
    Timing.PASSIVE,
    "read_grave",
    "004 II Grave Keeper",
    N_('Each night, learn whether the player voted out the day before was "good" or "werewolf".'),
    band=80,
)

_WOLF_LOOK = {"seer": "werewolf", "grave_keeper": "werewolf"}
_GOOD_LOOK = {"seer": "good", "grave_keeper": "good"}

CLASSIC_ROLES: tuple[Role, ...] = (
    Role(
        "werewolf",
        N_("Werewolf"),
        "werewolves",
        "004 II Common Werewolf",
        N_("Attack with the pack every night; you may explode during the day."),
        abilities=(CLASSIC_KILL, CLASSIC_EXPLODE),
        shows=_WOLF_LOOK,
    ),
    Role(
        "wolf_beauty",
        N_("Wolf Beauty"),
        "werewolves",
        "004 II Wolf Beauty",
        N_("Attack with the pack and charm a player each night; your charm dies with you."),
        abilities=(CLASSIC_KILL, WOLF_BEAUTY_CHARM, CLASSIC_EXPLODE, WOLF_BEAUTY_LOVE_DEATH),
        shows=_WOLF_LOOK,
        limit=1,
    ),
    Role(
        "white_wolf_king",
        N_("White Werewolf King"),
        "werewolves",
        "004 II White Werewolf King",
        N_("Attack with the pack; during the day, explode and take a player with you."),
        abilities=(CLASSIC_KILL, WHITE_WOLF_KING_EXPLODE),
        shows=_WOLF_LOOK,
        limit=1,
    ),
    Role(
        "hidden_wolf",
        N_("Hidden Werewolf"),
        "werewolves",
        "004 II Hidden Werewolf",
        N_(
            'Seen as "good" by the seer and out of the kill until the killing werewolves are out; '
            "then you wake and attack."
        ),
        abilities=(HIDDEN_WOLF_KILL, CLASSIC_EXPLODE),
        shows={"seer": "disguised", "grave_keeper": "werewolf"},
        limit=1,
    ),
    Role(
        "wolf_king",
        N_("Werewolf King"),
        "werewolves",
        "004 II Werewolf King",
        N_(
            "Attack with the pack; when you are out, shoot a player (not if poisoned or after your "
            "own explosion)."
        ),
        abilities=(CLASSIC_KILL, CLASSIC_EXPLODE, WOLF_KING_SHOT),
        shows=_WOLF_LOOK,
        limit=1,
    ),
    Role(
        "wraith_rider",
        N_("Wraith Rider"),
        "werewolves",
        "004 II Wraith Rider",
        N_("Attack with the pack; a seer who checks you or a witch who poisons you dies instead."),
        abilities=(CLASSIC_KILL, CLASSIC_EXPLODE, WRAITH_RIDER_CURSE),
        shows=_WOLF_LOOK,
        limit=1,
    ),
    Role(
        "stone_ghost",
        N_("Stone Statue Ghost"),
        "werewolves",
        "004 II Stone Statue Ghost",
        N_("Learn a player's exact role each night while another werewolf lives; alone, attack."),
        abilities=(STONE_GHOST_CHECK, STONE_GHOST_KILL, CLASSIC_EXPLODE),
        shows=_WOLF_LOOK,
        limit=1,
    ),
    Role(
        "seer",
        N_("Seer"),
        "good",
        "004 II Seer",
        N_('Check a player each night: "good" or "werewolf". Checking the wraith rider kills you.'),
        abilities=(SEER_CHECK,),
        shows=_GOOD_LOOK,
        group="divine",
        limit=1,
    ),
    Role(
        "witch",
        N_("Witch"),
        "good",
        "004 II Witch",
        N_(
            "One antidote and one poison a game, one potion a night; you learn the attacked player "
            "while you hold the antidote."
        ),
        abilities=(WITCH_SENSE, WITCH_SAVE, WITCH_POISON),
        shows=_GOOD_LOOK,
        group="divine",
        limit=1,
        one_ability_a_night=True,
    ),
    Role(
        "hunter",
        N_("Hunter"),
        "good",
        "004 II Hunter",
        N_("When you are out, shoot a player (not if poisoned)."),
        abilities=(HUNTER_SHOT,),
        shows=_GOOD_LOOK,
        group="divine",
        limit=1,
    ),
    Role(
        "guardian",
        N_("Guardian"),
        "good",
        "004 II Guardian",
        N_("Guard a player each night from the werewolves (not from poison, shots or duels)."),
        abilities=(GUARDIAN_GUARD,),
        shows=_GOOD_LOOK,
        group="divine",
        limit=1,
    ),
    Role(
        "knight",
        N_("Knight"),
        "good",
        "004 II Knight",
        N_("Once a game, duel a player during the day: a werewolf dies, otherwise you do."),
        abilities=(KNIGHT_DUEL,),
        shows=_GOOD_LOOK,
        group="divine",
        limit=1,
    ),
    Role(
        "idiot",
        N_("Idiot"),
        "good",
        "004 II Idiot",
        N_("Voted out the first time, you stay in the game without a vote."),
        abilities=(IDIOT_REVEAL,),
        shows=_GOOD_LOOK,
        group="divine",
        limit=1,
    ),
    Role(
        "silencer",
        N_("Silencer Elder"),
        "good",
        "004 II Silencer Elder",
        N_("Each night, silence a player for the next day."),
        abilities=(SILENCER_SILENCE,),
        shows=_GOOD_LOOK,
        group="divine",
        limit=1,
    ),
    Role(
        "grave_keeper",
        N_("Grave Keeper"),
        "good",
        "004 II Grave Keeper",
        N_(
            "Each night, learn whether the player voted out the day before was "
            '"good" or "werewolf".'
        ),
        abilities=(GRAVE_KEEPER_READ,),
        shows=_GOOD_LOOK,
        group="divine",
        limit=1,
    ),
    Role(
        "villager",
        N_("Villager"),
        "good",
        "004 II Commoner",
        N_("No skill: speak, reason and vote."),
        shows=_GOOD_LOOK,
        group="commoner",
    ),
)
