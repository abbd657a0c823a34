"""The catalogue's records for One Night's Daybreak and the Bonus Pack's Prince (docs/rules.md
8a; in the house rules too when the host adds them, 8a.8): registered into `roles.ROLES` with
the base game's records."""

from __future__ import annotations

from games.words import N_

from .role_types import (
    CENTRE_AND_PLAYER,
    NO_CARDS,
    ONE_CENTRE,
    ONE_PLAYER,
    TOWN_GOAL,
    TOWN_WINS,
    TWO_PLAYERS,
    WEREWOLF_GOAL,
    ActionRule,
    Calls,
    Copy,
    Requirement,
    Role,
    RoleRecord,
    Ruleset,
    Team,
    both,
)

# One card each, in both rulesets: the house tables deal them only when the host adds them
# (docs/rules.md 8a.8).
_ONE = {Ruleset.HOUSE: 1, Ruleset.OFFICIAL: 1}

DAYBREAK_RECORDS: tuple[RoleRecord, ...] = (
    RoleRecord(
        Role.SENTINEL,
        N_("Sentinel"),
        Team.TOWN,
        "Daybreak: Sentinel",
        limits=_ONE,
        does=N_(
            "Wakes before everyone and may put a shield on another player's card: nobody may"
            " look at that card or move it for the rest of the night, not even its holder."
        ),
        wins=both(TOWN_WINS),
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
        limits=_ONE,
        does=N_(
            "Wakes with the werewolves, then again alone: swaps the centre werewolf card with"
            " the card of another player who is not a werewolf, making them one."
        ),
        wins=both(N_("With the werewolves.")),
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
        # [DR] "Doppelgänger and Daybreak": the copy swaps at once, then wakes with the
        # werewolves, not at the Alpha Wolf's call (docs/rules.md 8a.3).
        copy=Copy.AT_ONCE,
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
    ),
    RoleRecord(
        Role.MYSTIC_WOLF,
        N_("Mystic Wolf"),
        Team.WEREWOLF,
        "Daybreak: Mystic Wolf",
        limits=_ONE,
        does=N_(
            "Wakes with the werewolves, then again alone and may look at another player's card."
        ),
        wins=both(N_("With the werewolves.")),
        told="mystic_wolf",
        action=ActionRule(
            Role.MYSTIC_WOLF,
            Requirement.OPTIONAL,
            (ONE_PLAYER,),
            N_("A mystic wolf looks at one other player's card."),
        ),
        # [DR]: the copy looks at once, then wakes with the werewolves (docs/rules.md 8a.3).
        copy=Copy.AT_ONCE,
        werewolf=True,
        wakes_with=Role.WEREWOLF,
        calls=Calls(
            "mystic-wolf",
            N_("Mystic Wolf, wake up. You may look at another player's card."),
            N_("Mystic Wolf, close your eyes."),
            10,
        ),
    ),
    RoleRecord(
        Role.DREAM_WOLF,
        N_("Dream Wolf"),
        Team.WEREWOLF,
        "Daybreak: Dream Wolf",
        limits=_ONE,
        does=N_(
            "A werewolf who sleeps through the night: the other werewolves and the minion see"
            " who it is, but it does not learn who they are."
        ),
        wins=both(N_("With the werewolves.")),
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
        limits=_ONE,
        does=N_("May look at one of the three centre cards."),
        wins=both(TOWN_WINS),
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
        limits=_ONE,
        does=N_(
            "May look at up to two other players' cards, one after the other. On seeing a"
            " werewolf or the tanner they stop and become one: their card plays as it at dawn."
        ),
        wins=both(
            N_(
                "With the town, unless they saw a werewolf (then with the werewolves) or the"
                " tanner (then only if they die)."
            )
        ),
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
        limits=_ONE,
        does=N_(
            "May look at one centre card; having looked, must swap it with any player's card,"
            " their own included."
        ),
        wins=both(TOWN_WINS),
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
        limits=_ONE,
        does=N_(
            "May pass every other player's card one seat to the left or to the right, without"
            " looking; their own card and shielded cards stay where they are."
        ),
        wins=both(TOWN_WINS),
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
        limits=_ONE,
        does=N_(
            "May turn another player's card face up for the day; a werewolf or the tanner is"
            " turned face down again, seen by the revealer alone."
        ),
        wins=both(TOWN_WINS),
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
        limits=_ONE,
        does=N_(
            "Wakes last and may put an artifact, face down and unseen, on any player's card"
            " (their own too); its holder looks at it at dawn."
        ),
        wins=both(TOWN_WINS),
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
        limits=_ONE,
        does=N_(
            "Nothing at night. The player the bodyguard votes for cannot be killed; if they"
            " had the most votes, the next most voted die instead (with two votes or more)."
        ),
        wins=both(TOWN_WINS),
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
        limits=_ONE,
        does=N_(
            "Nothing at night. The prince cannot be killed: with the most votes, the next most"
            " voted die instead (with two votes or more)."
        ),
        wins=both(TOWN_WINS),
        message=(
            N_(
                "You cannot be killed tomorrow. If you get the most votes, the players with the"
                " next most votes die instead."
            ),
            TOWN_GOAL,
        ),
    ),
)
