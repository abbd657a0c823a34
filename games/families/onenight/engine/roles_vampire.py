"""The catalogue's records for One Night Ultimate Vampire (official ruleset only; docs/rules.md
8b), registered into `roles.ROLES` with the base and Daybreak records, and their wake steps,
which roles.py places in the one official night (8b.3's combined order).

Each record says what the role sends in (`action`, with an `aim` for what its names mean:
`actions.check_aim`), how a Doppelganger plays it, its team and the texts a player reads; each
step names its resolver in `dusk.VAMPIRE_RESOLVERS`.

Sources: [VR] the Vampire rulebook and [VC] its compendium, as docs/rules.md 8b lists them.
"""

from __future__ import annotations

from games.words import N_

from .role_types import (
    ONE_CENTRE,
    ONE_PLAYER,
    TWO_PLAYERS,
    ActionRule,
    Calls,
    Copy,
    Requirement,
    Role,
    RoleRecord,
    Ruleset,
    Team,
    WakeStep,
)

_VILLAGE_WINS = {
    Ruleset.OFFICIAL: N_("With the village: the village wins if a vampire (or werewolf) dies.")
}
_VAMPIRE_WINS = {Ruleset.OFFICIAL: N_("With the vampires: they win if no vampire dies.")}
_ONE = {Ruleset.OFFICIAL: 1}  # [VR] contents: "14 unique roles"
_PICK = N_("The vampires give the Mark of the Vampire to a player who is not a vampire.")
_DOPP_SLEEPS = N_("Doppelganger, close your eyes.")
# The vampires' role messages, each followed by the fellow vampires dealt (messages.py, the
# record's `told`): what each vampire card does, in a sentence.
VAMPIRE_MESSAGES = {
    Role.VAMPIRE: N_("At dusk you and the other vampires pick a player to turn into a vampire."),
    Role.THE_MASTER: N_(
        "You are a vampire. If another vampire votes for you tomorrow, you cannot be killed."
    ),
    Role.THE_COUNT: N_("You are a vampire. After the vampires' pick you frighten another player."),
}


def _calls(
    key: str, wake: str, sleep: str, seconds: int = 10, with_doppelganger: str | None = None
) -> Calls:
    return Calls(key, wake, sleep, seconds, wake_with_doppelganger=with_doppelganger)


# The narrator's calls at a table (docs/rules.md 8b.7): who wakes, what they may or must do, which
# marks move, who closes their eyes. A mark given takes the place of the receiver's, which goes
# back to the pool (8b.2). The vampires wake once, the Master with them: one call for both cards.
_VAMPIRES_CALLS = _calls(
    "vampires",
    # Translators: the narrator's words, read aloud to the players at a real table.
    N_(
        "Vampires, wake up and look for each other. Together, you must give the Mark of the"
        " Vampire to one player who is not a vampire: it takes the place of their mark, which goes"
        " back to the pool."
    ),
    N_("Vampires, close your eyes."),
    12,
    with_doppelganger=N_(
        "Vampires, and the Doppelganger if it became one, wake up and look for each other."
        " Together, you must give the Mark of the Vampire to one player who is not a vampire: it"
        " takes the place of their mark, which goes back to the pool."
    ),
)


VAMPIRE_RECORDS: tuple[RoleRecord, ...] = (
    RoleRecord(
        Role.COPYCAT,
        N_("Copycat"),
        Team.TOWN,
        "[VC] Copycat; [VR] Special Cases",
        limits=_ONE,
        does=N_("Looks at a centre card first of all and is that role from then on."),
        wins={Ruleset.OFFICIAL: N_("With the team of the card it copied.")},
        message=(N_("At dusk you look at one centre card: you become that role and act as it."),),
        action=ActionRule(
            Role.COPYCAT,
            Requirement.MANDATORY,
            (ONE_CENTRE,),
            N_("A copycat looks at one centre card, then acts as that role."),
        ),
        copy=Copy.BECOMES,
        calls=_calls(
            "copycat",
            N_(
                "Copycat, wake up. You must look at one card in the centre: you are now that role,"
                " and you wake up and act with it when it is called."
            ),
            N_("Copycat, close your eyes."),
            # A Copycat that sees the Doppelganger card is a villager (docs/rules.md 8b.4).
            with_doppelganger=N_(
                "Copycat, wake up. You must look at one card in the centre: you are now that role,"
                " and you wake up and act with it when it is called. If it is the Doppelganger,"
                " you are a Villager."
            ),
        ),
    ),
    RoleRecord(
        Role.VAMPIRE,
        N_("Vampire"),
        Team.VAMPIRE,
        "[VC] Vampire",
        limits=_ONE,
        does=N_("Wakes with the vampires; together they give the Mark of the Vampire."),
        wins=_VAMPIRE_WINS,
        # The role message: `VAMPIRE_MESSAGES` below, then the fellow vampires (messages.py).
        action=ActionRule(
            Role.VAMPIRE, Requirement.MANDATORY, (ONE_PLAYER,), _PICK, aim="vampire_pick"
        ),
        copy=Copy.WITH_THEM,
        vampire=True,
        told="vampire",
        calls=_VAMPIRES_CALLS,
    ),
    RoleRecord(
        Role.THE_MASTER,
        # The card reads "The Master"; its name goes after "the" in every sentence ("You are
        # the Master.", "it is the Master."), so it is named without its article (8b.1).
        N_("Master"),
        Team.VAMPIRE,
        "[VC] The Master",
        limits=_ONE,
        does=N_("A vampire; cannot be killed if another vampire votes for it."),
        wins=_VAMPIRE_WINS,
        # The role message: `VAMPIRE_MESSAGES` below, then the fellow vampires (messages.py).
        action=ActionRule(
            Role.THE_MASTER, Requirement.MANDATORY, (ONE_PLAYER,), _PICK, aim="vampire_pick"
        ),
        copy=Copy.WITH_THEM,
        vampire=True,
        told="vampire",
        wakes_with=Role.VAMPIRE,
        calls=_VAMPIRES_CALLS,
    ),
    RoleRecord(
        Role.THE_COUNT,
        N_("Count"),  # "The Count" on the card: named without its article, as the Master
        Team.VAMPIRE,
        "[VC] The Count",
        limits=_ONE,
        does=N_("A vampire; then gives the Mark of Fear to a player who is not a vampire."),
        wins=_VAMPIRE_WINS,
        # The role message: `VAMPIRE_MESSAGES` below, then the fellow vampires (messages.py).
        action=ActionRule(
            Role.THE_COUNT,
            Requirement.MANDATORY,
            (TWO_PLAYERS,),
            N_("The count names the vampires' pick, then a player for the Mark of Fear."),
            aim="count",
        ),
        copy=Copy.OWN_STEP,
        vampire=True,
        told="vampire",
        wakes_with=Role.VAMPIRE,
        calls=_calls(
            "the-count",
            N_(
                "The Count, wake up. You must give the Mark of Fear to a player who is not a"
                " vampire and did not just get the Mark of the Vampire: it takes the place of their"
                " mark, which goes back to the pool."
            ),
            N_("The Count, close your eyes."),
        ),
        copy_calls=_calls(
            "doppelganger-the-count",
            N_(
                "Doppelganger, if you copied the Count, wake up. You must give the second Mark of"
                " Fear to a player who is not a vampire and did not just get the Mark of the"
                " Vampire: it takes the place of their mark, which goes back to the pool."
            ),
            _DOPP_SLEEPS,
        ),
    ),
    RoleRecord(
        Role.RENFIELD,
        N_("Renfield"),
        Team.VAMPIRE,
        "[VC] Renfield",
        limits=_ONE,
        does=N_("Sees the vampires and their pick; takes the Mark of the Bat."),
        wins={
            Ruleset.OFFICIAL: N_(
                "With the vampires (not one of them) if no vampire dies; alone, with the village."
            )
        },
        message=(
            N_("At dusk you see the vampires and whom they picked. You win if no vampire dies."),
        ),
        copy=Copy.OWN_STEP,
        calls=_calls(
            "renfield",
            N_(
                "Renfield, wake up. Vampires, with your eyes closed, stick out your thumb and point"
                " at the player you gave the Mark of the Vampire. Renfield, you must take the Mark"
                " of the Bat: it takes the place of your mark, which goes back to the pool."
            ),
            N_("Vampires, put your hands away. Renfield, close your eyes."),
            12,
        ),
        copy_calls=_calls(
            "doppelganger-renfield",
            N_(
                "Doppelganger, if you copied Renfield, wake up. Vampires, with your eyes closed,"
                " stick out your thumb and point at the player you gave the Mark of the Vampire."
                " Doppelganger, you must take the second Mark of the Bat: it takes the place of"
                " your mark, which goes back to the pool."
            ),
            N_("Vampires, put your hands away. Doppelganger, close your eyes."),
            12,
        ),
    ),
    RoleRecord(
        Role.DISEASED,
        N_("Diseased"),
        Team.TOWN,
        "[VR] Marks; [VC] Diseased",
        limits=_ONE,
        does=N_("Gives the Mark of Disease to a neighbour: whoever votes for them cannot win."),
        wins=_VILLAGE_WINS,
        message=(N_("At dusk you pass your disease to the player on your left or right."),),
        action=ActionRule(
            Role.DISEASED,
            Requirement.MANDATORY,
            (ONE_PLAYER,),
            N_("The diseased names a neighbour."),
            aim="neighbour",
        ),
        copy=Copy.AT_ONCE,
        calls=_calls(
            "diseased",
            N_(
                "Diseased, wake up. You must give the Mark of Disease to the player on your left or"
                " on your right: it takes the place of their mark, which goes back to the pool."
            ),
            N_("Diseased, close your eyes."),
        ),
    ),
    RoleRecord(
        Role.CUPID,
        N_("Cupid"),
        Team.TOWN,
        "[VR] Marks; [VC] Cupid",
        limits=_ONE,
        does=N_("May make two players fall in love: if one dies, so does the other."),
        wins=_VILLAGE_WINS,
        message=(N_("At dusk you may make two players lovers, yourself allowed."),),
        action=ActionRule(
            Role.CUPID,
            Requirement.OPTIONAL,
            (TWO_PLAYERS,),
            N_("Cupid names two players, or nobody."),
            self_ok=True,
            aim="players",
        ),
        copy=Copy.AT_ONCE,
        calls=_calls(
            "cupid",
            N_(
                "Cupid, wake up. You may give a Mark of Love to each of two players, yourself"
                " allowed: each takes the place of that player's mark, which goes back to the pool."
            ),
            N_("Cupid, close your eyes."),
        ),
    ),
    RoleRecord(
        Role.INSTIGATOR,
        N_("Instigator"),
        Team.TOWN,
        "[VR] Marks; [VC] Instigator",
        limits=_ONE,
        does=N_("May make a player a traitor: they win only if a teammate dies."),
        wins=_VILLAGE_WINS,
        message=(N_("At dusk you may make any player a traitor to their team."),),
        action=ActionRule(
            Role.INSTIGATOR,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("The instigator names one player, or nobody."),
            self_ok=True,
            aim="players",
        ),
        copy=Copy.AT_ONCE,
        calls=_calls(
            "instigator",
            N_(
                "Instigator, wake up. You may give the Mark of the Traitor to any player, yourself"
                " allowed: it takes the place of their mark, which goes back to the pool."
            ),
            N_("Instigator, close your eyes."),
        ),
    ),
    RoleRecord(
        Role.PRIEST,
        N_("Priest"),
        Team.TOWN,
        "[VC] Priest",
        limits=_ONE,
        does=N_("Takes a Mark of Clarity and may give one to another player."),
        wins=_VILLAGE_WINS,
        message=(N_("At dusk you clear your own mark, and may clear one other player's."),),
        action=ActionRule(
            Role.PRIEST,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("The priest names one other player, or nobody."),
            aim="players",
        ),
        copy=Copy.OWN_STEP,
        calls=_calls(
            "priest",
            N_(
                "Priest, wake up. You must give yourself a Mark of Clarity, and you may give"
                " another to one other player: each takes the place of that player's mark, which"
                " goes back to the pool."
            ),
            N_("Priest, close your eyes."),
        ),
        copy_calls=_calls(
            "doppelganger-priest",
            N_(
                "Doppelganger, if you copied the Priest, wake up. You must give yourself a Mark of"
                " Clarity, and you may give another to one other player: each takes the place of"
                " that player's mark, which goes back to the pool."
            ),
            _DOPP_SLEEPS,
        ),
    ),
    RoleRecord(
        Role.ASSASSIN,
        N_("Assassin"),
        Team.ASSASSIN,
        "[VR] Marks; [VC] Assassin",
        limits=_ONE,
        does=N_("Marks a player; wins if a player with the Mark of the Assassin dies."),
        wins={Ruleset.OFFICIAL: N_("Alone: if a marked player dies, whoever else wins.")},
        message=(N_("At dusk you mark your target. You win if a marked player dies."),),
        action=ActionRule(
            Role.ASSASSIN,
            Requirement.MANDATORY,
            (ONE_PLAYER,),
            N_("The assassin names any player."),
            self_ok=True,
            aim="players",
        ),
        copy=Copy.OWN_STEP,
        calls=_calls(
            "assassin",
            N_(
                "Assassin, wake up. You must give the Mark of the Assassin to any player, yourself"
                " allowed: it takes the place of their mark, which goes back to the pool."
            ),
            N_("Assassin, close your eyes."),
        ),
        copy_calls=_calls(
            "doppelganger-assassin",
            N_(
                "Doppelganger, if you copied the Assassin, wake up. You must give the second Mark"
                " of the Assassin to any player, yourself allowed: it takes the place of their"
                " mark, which goes back to the pool."
            ),
            _DOPP_SLEEPS,
        ),
    ),
    RoleRecord(
        Role.APPRENTICE_ASSASSIN,
        N_("Apprentice Assassin"),
        Team.APPRENTICE_ASSASSIN,
        "[VC] Apprentice Assassin",
        limits=_ONE,
        does=N_("Sees the Assassin and wins if the Assassin dies; with none, marks a player."),
        wins={
            Ruleset.OFFICIAL: N_("Alone: if the Assassin dies (with no Assassin, a marked player).")
        },
        message=(N_("At dusk you meet the Assassin. You win if the Assassin dies."),),
        action=ActionRule(
            Role.APPRENTICE_ASSASSIN,
            Requirement.MANDATORY,
            (ONE_PLAYER,),
            N_("With no assassin, the apprentice names any player."),
            self_ok=True,
            aim="players",
        ),
        copy=Copy.OWN_STEP,
        calls=_calls(
            "apprentice-assassin",
            N_(
                "Apprentice Assassin and Assassin, wake up and look at each other. Apprentice"
                " Assassin, if no Assassin is awake, you must give the Mark of the Assassin to any"
                " player, yourself allowed: it takes the place of their mark, which goes back to"
                " the pool."
            ),
            N_("Assassin and Apprentice Assassin, close your eyes."),
            # [VC]: the Apprentice does not meet a Doppelganger-Assassin.
            with_doppelganger=N_(
                "Apprentice Assassin and Assassin (not a Doppelganger that copied it), wake up and"
                " look at each other. Apprentice Assassin, if no Assassin is awake, you must give"
                " the Mark of the Assassin to any player, yourself allowed: it takes the place of"
                " their mark, which goes back to the pool."
            ),
        ),
        copy_calls=_calls(
            "doppelganger-apprentice-assassin",
            N_(
                "Doppelganger, if you copied the Apprentice Assassin, wake up. Assassin, wake up"
                " too, and look at each other. Doppelganger, if no Assassin is awake, you must give"
                " the second Mark of the Assassin to any player, yourself allowed: it takes the"
                " place of their mark, which goes back to the pool."
            ),
            N_("Assassin and Doppelganger, close your eyes."),
        ),
    ),
    RoleRecord(
        Role.MARKSMAN,
        N_("Marksman"),
        Team.TOWN,
        "[VC] Marksman",
        limits=_ONE,
        does=N_("May look at one player's card and another player's mark."),
        wins=_VILLAGE_WINS,
        message=(N_("Tonight you may look at one player's card and another player's mark."),),
        action=ActionRule(
            Role.MARKSMAN,
            Requirement.OPTIONAL,
            (ONE_PLAYER, TWO_PLAYERS),
            N_('The marksman names a card, then a mark ("-" for none), of two other players.'),
            aim="card_and_mark",
        ),
        copy=Copy.OWN_STEP,
        calls=_calls(
            "marksman",
            N_(
                "Marksman, wake up. You may look at the card of one other player and at the mark"
                " of another, or at only one of them."
            ),
            N_("Marksman, close your eyes."),
        ),
        copy_calls=_calls(
            "doppelganger-marksman",
            N_(
                "Doppelganger, if you copied the Marksman, wake up. You may look at the card of one"
                " other player and at the mark of another, or at only one of them."
            ),
            _DOPP_SLEEPS,
        ),
    ),
    RoleRecord(
        Role.PICKPOCKET,
        N_("Pickpocket"),
        Team.TOWN,
        "[VC] Pickpocket",
        limits=_ONE,
        does=N_("May swap marks with another player, then sees the new one."),
        wins=_VILLAGE_WINS,
        message=(N_("Tonight you may swap your mark with another player's and look at it."),),
        action=ActionRule(
            Role.PICKPOCKET,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("The pickpocket names one other player."),
            aim="players",
        ),
        copy=Copy.OWN_STEP,
        calls=_calls(
            "pickpocket",
            N_(
                "Pickpocket, wake up. You may swap your mark with another player's, then look at"
                " your new mark."
            ),
            N_("Pickpocket, close your eyes."),
        ),
        copy_calls=_calls(
            "doppelganger-pickpocket",
            N_(
                "Doppelganger, if you copied the Pickpocket, wake up. You may swap your mark with"
                " another player's, then look at your new mark."
            ),
            _DOPP_SLEEPS,
        ),
    ),
    RoleRecord(
        Role.GREMLIN,
        N_("Gremlin"),
        Team.TOWN,
        "[VC] Gremlin",
        limits=_ONE,
        does=N_("May swap two players' marks, or their cards, without looking."),
        wins=_VILLAGE_WINS,
        message=(N_("Tonight you may swap two players' marks, or their cards, unseen."),),
        action=ActionRule(
            Role.GREMLIN,
            Requirement.OPTIONAL,
            (TWO_PLAYERS,),
            N_('The gremlin names two players (their cards), or "marks" and two players.'),
            self_ok=True,
            words=("marks", "cards"),
            aim="marks_or_cards",
        ),
        copy=Copy.OWN_STEP,
        calls=_calls(
            "gremlin",
            N_(
                "Gremlin, wake up. You may swap the marks of any two players, or their cards (not"
                " both), without looking at them."
            ),
            N_("Gremlin, close your eyes."),
        ),
        copy_calls=_calls(
            "doppelganger-gremlin",
            N_(
                "Doppelganger, if you copied the Gremlin, wake up. You may swap the marks of any"
                " two players, or their cards (not both), without looking at them."
            ),
            _DOPP_SLEEPS,
        ),
    ),
)

VAMPIRE_ROLES: frozenset[Role] = frozenset(r.role for r in VAMPIRE_RECORDS)

_D = Role.DOPPELGANGER
_V = "vampire"  # played only with a Vampire card in the deck (WakeStep.deck)

# [VR]'s combined order, dusk (8b.3): -8 Copycat, -7 Doppelganger, -6 vampires (the Master
# with them), -6b Count, -6c Renfield, -5 Diseased, -4 Cupid, -3 Instigator, -2 Priest,
# -1 Assassin, -1b Apprentice Assassin, each Doppelganger copy right after its role; then 00,
# the end of dusk: everyone looks at their mark and the lovers see each other.
DUSK_STEPS: tuple[WakeStep, ...] = (
    WakeStep("-8", Role.COPYCAT, "copycat", N_("Dusk, first of all."), deck=_V),
    WakeStep(
        "-7",
        _D,
        "copy",
        N_("First; at dusk after the copycat with Vampire cards; again later for some copies."),
        deck=_V,
    ),
    WakeStep("-6", Role.VAMPIRE, "vampires", N_("Dusk, with the other vampires."), deck=_V),
    WakeStep("-6", Role.THE_MASTER, "vampires", N_("Dusk, with the other vampires."), deck=_V),
    WakeStep("-6b", Role.THE_COUNT, "count", N_("Dusk, with the vampires, then alone."), deck=_V),
    WakeStep("-6ba", _D, "count", copied=Role.THE_COUNT, deck=_V),
    WakeStep("-6c", Role.RENFIELD, "renfield", N_("Dusk, after the vampires."), deck=_V),
    WakeStep("-6ca", _D, "renfield", copied=Role.RENFIELD, deck=_V),
    WakeStep("-5", Role.DISEASED, "diseased", N_("Dusk, after Renfield."), deck=_V),
    WakeStep("-4", Role.CUPID, "cupid", N_("Dusk, after the diseased."), deck=_V),
    WakeStep("-3", Role.INSTIGATOR, "instigator", N_("Dusk, after Cupid."), deck=_V),
    WakeStep("-2", Role.PRIEST, "priest", N_("Dusk, after the instigator."), deck=_V),
    WakeStep("-2a", _D, "priest", copied=Role.PRIEST, deck=_V),
    WakeStep("-1", Role.ASSASSIN, "assassin", N_("Dusk, after the priest."), deck=_V),
    WakeStep("-1a", _D, "assassin", copied=Role.ASSASSIN, deck=_V),
    WakeStep("-1b", Role.APPRENTICE_ASSASSIN, "apprentice_assassin", N_("Dusk, last."), deck=_V),
    WakeStep("-1ba", _D, "apprentice_assassin", copied=Role.APPRENTICE_ASSASSIN, deck=_V),
    # The end of dusk: not a role's own step (the Cupid's own is -4); every player and the
    # lovers wake here.
    WakeStep("00", Role.CUPID, "lovers", deck=_V),
)
# The night's three (8b.3): 5d after the paranormal investigator, 6c after the witch, 7d after
# the village idiot.
MARKSMAN_STEPS: tuple[WakeStep, ...] = (
    WakeStep("5d", Role.MARKSMAN, "marksman", N_("After the paranormal investigator.")),
    WakeStep("5da", _D, "marksman", copied=Role.MARKSMAN),
)
PICKPOCKET_STEPS: tuple[WakeStep, ...] = (
    WakeStep("6c", Role.PICKPOCKET, "pickpocket", N_("After the witch.")),
    WakeStep("6ca", _D, "pickpocket", copied=Role.PICKPOCKET),
)
GREMLIN_STEPS: tuple[WakeStep, ...] = (
    WakeStep("7d", Role.GREMLIN, "gremlin", N_("After the village idiot.")),
    WakeStep("7da", _D, "gremlin", copied=Role.GREMLIN),
)
