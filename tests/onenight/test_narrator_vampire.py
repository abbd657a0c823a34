"""Table mode's narrator and reveal sheet with Vampire's cards (docs/rules.md 8b.3, 8b.5, 8b.7):
the order for a deck of every official role that wakes, the whole script for a Vampire deck
word for word, a deck without a Vampire card unchanged, and the reveal sheet scoring with the
marks (the lovers, the Mark of Disease, the Epic Battle)."""

from __future__ import annotations

import pytest

from games.families.onenight import narrator
from games.families.onenight.engine import VAMPIRE_ROLES, Mark, Role, RuleError, Ruleset
from games.families.onenight.engine.roles import role_limits
from tests.onenight.test_narrator_daybreak import EVERY_CARD_SCRIPT

R = Role
M = Mark
OFFICIAL = Ruleset.OFFICIAL
DOPPELGANGER_CLOSES = "Doppelganger, close your eyes."
PLACE = "it takes the place of their mark, which goes back to the pool."


def keys(deck: list[Role]) -> list[str]:
    return [c.key for c in narrator.narration(OFFICIAL, deck)]


def script(deck: list[Role]) -> list[tuple[str, str, str]]:
    return [(c.key, c.wake, c.sleep) for c in narrator.narration(OFFICIAL, deck)]


def test_the_order_for_a_deck_of_every_role_that_wakes() -> None:
    """8b.3's combined order: dusk (each Doppelganger copy right after its role), the end of
    dusk and the lovers, then 8a.2's night with the Marksman, Pickpocket and Gremlin after the
    investigator, the witch and the village idiot."""
    assert keys(list(role_limits(OFFICIAL))) == [
        "copycat",
        "doppelganger",
        "vampires",
        "the-count",
        "doppelganger-the-count",
        "renfield",
        "doppelganger-renfield",
        "diseased",
        "cupid",
        "instigator",
        "priest",
        "doppelganger-priest",
        "assassin",
        "doppelganger-assassin",
        "apprentice-assassin",
        "doppelganger-apprentice-assassin",
        "end-of-dusk",
        "lovers",
        "sentinel",
        "doppelganger-minion",
        "werewolves",
        "alpha-wolf",
        "mystic-wolf",
        "minion",
        "masons",
        "seer",
        "apprentice-seer",
        "paranormal-investigator",
        "marksman",
        "doppelganger-marksman",
        "robber",
        "witch",
        "pickpocket",
        "doppelganger-pickpocket",
        "troublemaker",
        "village-idiot",
        "gremlin",
        "doppelganger-gremlin",
        "drunk",
        "insomniac",
        "doppelganger-insomniac",
        "revealer",
        "doppelganger-revealer",
        "curator",
        "doppelganger-curator",
    ]


# Every Vampire card with the Doppelganger, and the base cards that show what changes with dusk
# (the Doppelganger-minion wakes again; the werewolves' call is the base game's).
VAMPIRE_DECK = [
    *sorted(VAMPIRE_ROLES, key=list(Role).index),
    R.DOPPELGANGER,
    R.WEREWOLF,
    R.MINION,
    R.SEER,
    R.ROBBER,
]
VAMPIRE_SCRIPT = [
    (
        "copycat",
        "Copycat, wake up. You must look at one card in the centre: you are now that role, and"
        " you wake up and act with it when it is called. If it is the Doppelganger, you are a"
        " Villager.",
        "Copycat, close your eyes.",
    ),
    (
        # 8b.3: at -7 with a Vampire card; 8b.5: the Diseased, Cupid and Instigator at once;
        # 8b.7: the Copycat shows its centre card to a Doppelganger that copied it.
        "doppelganger",
        "Doppelganger, wake up and look at another player's card: you are now that role. If it"
        " is one of these, do that role's action now: Diseased, Cupid, Instigator, Seer, Robber."
        " If it is the Copycat, tap that player on the shoulder. Copycat, if you feel the tap,"
        " point with your eyes closed at the centre card you looked at. Doppelganger, look at"
        " that card: you are now that role, and you do nothing more tonight.",
        "Copycat, put your hand away. Doppelganger, close your eyes.",
    ),
    (
        # The Vampire, the Master and the Count wake once (8b.3).
        "vampires",
        "Vampires, and the Doppelganger if it became one, wake up and look for each other."
        " Together, you must give the Mark of the Vampire to one player who is not a vampire: "
        + PLACE,
        "Vampires, close your eyes.",
    ),
    (
        "the-count",
        "The Count, wake up. You must give the Mark of Fear to a player who is not a vampire and"
        " did not just get the Mark of the Vampire: " + PLACE,
        "The Count, close your eyes.",
    ),
    (
        "doppelganger-the-count",
        "Doppelganger, if you copied the Count, wake up. You must give the second Mark of Fear"
        " to a player who is not a vampire and did not just get the Mark of the Vampire: " + PLACE,
        DOPPELGANGER_CLOSES,
    ),
    (
        "renfield",
        "Renfield, wake up. Vampires, with your eyes closed, stick out your thumb and point at"
        " the player you gave the Mark of the Vampire. Renfield, you must take the Mark of the"
        " Bat: it takes the place of your mark, which goes back to the pool.",
        "Vampires, put your hands away. Renfield, close your eyes.",
    ),
    (
        "doppelganger-renfield",
        "Doppelganger, if you copied Renfield, wake up. Vampires, with your eyes closed, stick"
        " out your thumb and point at the player you gave the Mark of the Vampire. Doppelganger,"
        " you must take the second Mark of the Bat: it takes the place of your mark, which goes"
        " back to the pool.",
        "Vampires, put your hands away. Doppelganger, close your eyes.",
    ),
    (
        "diseased",
        "Diseased, wake up. You must give the Mark of Disease to the player on your left or on"
        " your right: " + PLACE,
        "Diseased, close your eyes.",
    ),
    (
        "cupid",
        "Cupid, wake up. You may give a Mark of Love to each of two players, yourself allowed:"
        " each takes the place of that player's mark, which goes back to the pool.",
        "Cupid, close your eyes.",
    ),
    (
        "instigator",
        "Instigator, wake up. You may give the Mark of the Traitor to any player, yourself"
        " allowed: " + PLACE,
        "Instigator, close your eyes.",
    ),
    (
        "priest",
        "Priest, wake up. You must give yourself a Mark of Clarity, and you may give another to"
        " one other player: each takes the place of that player's mark, which goes back to the"
        " pool.",
        "Priest, close your eyes.",
    ),
    (
        "doppelganger-priest",
        "Doppelganger, if you copied the Priest, wake up. You must give yourself a Mark of"
        " Clarity, and you may give another to one other player: each takes the place of that"
        " player's mark, which goes back to the pool.",
        DOPPELGANGER_CLOSES,
    ),
    (
        "assassin",
        "Assassin, wake up. You must give the Mark of the Assassin to any player, yourself"
        " allowed: " + PLACE,
        "Assassin, close your eyes.",
    ),
    (
        "doppelganger-assassin",
        "Doppelganger, if you copied the Assassin, wake up. You must give the second Mark of the"
        " Assassin to any player, yourself allowed: " + PLACE,
        DOPPELGANGER_CLOSES,
    ),
    (
        # [VC]: the Apprentice does not meet a Doppelganger-Assassin.
        "apprentice-assassin",
        "Apprentice Assassin and Assassin (not a Doppelganger that copied it), wake up and look"
        " at each other. Apprentice Assassin, if no Assassin is awake, you must give the Mark of"
        " the Assassin to any player, yourself allowed: " + PLACE,
        "Assassin and Apprentice Assassin, close your eyes.",
    ),
    (
        "doppelganger-apprentice-assassin",
        "Doppelganger, if you copied the Apprentice Assassin, wake up. Assassin, wake up too, and"
        " look at each other. Doppelganger, if no Assassin is awake, you must give the second"
        " Mark of the Assassin to any player, yourself allowed: " + PLACE,
        "Assassin and Doppelganger, close your eyes.",
    ),
    (
        # 8b.2: the end of dusk, everyone's own call; Fear said with the Count in the deck.
        "end-of-dusk",
        "Everyone, wake up and look at your own mark without showing it, then put it back face"
        " down. If it is the Mark of Fear, you do nothing tonight, even when your role is"
        " called.",
        "Everyone, close your eyes.",
    ),
    (
        "lovers",
        "Whoever has a Mark of Love, wake up and look for the other lovers.",
        "Lovers, close your eyes.",
    ),
    (
        # The copy was made at -7: the Doppelganger-minion wakes again for its look.
        "doppelganger-minion",
        "Doppelganger, if you are now the minion, wake up. Werewolves, stick out your thumb,"
        " eyes closed, so the Doppelganger who is now the minion can see who you are.",
        "Werewolves, put your thumbs away. Doppelganger, close your eyes.",
    ),
    (
        "werewolves",
        "Werewolves, and the Doppelganger if it became one, wake up and look for the other"
        " werewolves. If you are the only one, you may look at one card in the centre.",
        "Werewolves, close your eyes.",
    ),
    (
        "minion",
        "Minion, wake up. Werewolves, stick out your thumb so the minion can see who you are.",
        "Werewolves, put your thumbs away. Minion, close your eyes.",
    ),
    (
        "seer",
        "Seer, wake up. You may look at another player's card, or at two centre cards.",
        "Seer, close your eyes.",
    ),
    (
        "marksman",
        "Marksman, wake up. You may look at the card of one other player and at the mark of"
        " another, or at only one of them.",
        "Marksman, close your eyes.",
    ),
    (
        "doppelganger-marksman",
        "Doppelganger, if you copied the Marksman, wake up. You may look at the card of one"
        " other player and at the mark of another, or at only one of them.",
        DOPPELGANGER_CLOSES,
    ),
    (
        "robber",
        "Robber, wake up. You may swap your card with another player's, then look at it.",
        "Robber, close your eyes.",
    ),
    (
        "pickpocket",
        "Pickpocket, wake up. You may swap your mark with another player's, then look at your"
        " new mark.",
        "Pickpocket, close your eyes.",
    ),
    (
        "doppelganger-pickpocket",
        "Doppelganger, if you copied the Pickpocket, wake up. You may swap your mark with"
        " another player's, then look at your new mark.",
        DOPPELGANGER_CLOSES,
    ),
    (
        "gremlin",
        "Gremlin, wake up. You may swap the marks of any two players, or their cards (not"
        " both), without looking at them.",
        "Gremlin, close your eyes.",
    ),
    (
        "doppelganger-gremlin",
        "Doppelganger, if you copied the Gremlin, wake up. You may swap the marks of any two"
        " players, or their cards (not both), without looking at them.",
        DOPPELGANGER_CLOSES,
    ),
]


def test_the_script_of_a_vampire_deck() -> None:
    assert script(VAMPIRE_DECK) == VAMPIRE_SCRIPT
    calls = narrator.narration(OFFICIAL, VAMPIRE_DECK)
    # Each step is called once, with the pause of its own setting; the end of dusk is no
    # role's call.
    assert len({c.key for c in calls}) == len(calls)
    assert all(c.seconds == narrator.PAUSES[c.key] for c in calls)
    assert [c.role for c in calls if c.key == "end-of-dusk"] == [None]


def test_a_deck_without_a_vampire_card_is_unchanged() -> None:
    """Every card but Vampire's: 8a's script word for word (test_narrator_daybreak.py), no
    dusk, the Doppelganger at 1 and its minion copy kept awake."""
    deck = [r for r in role_limits(OFFICIAL) if r not in VAMPIRE_ROLES]
    assert script(deck) == EVERY_CARD_SCRIPT
    base = keys([R.DOPPELGANGER, R.WEREWOLF, R.MINION, R.SEER, R.VILLAGER])
    assert base == ["doppelganger", "doppelganger-minion", "werewolves", "minion", "seer"]


def test_the_dusk_follows_the_deck() -> None:
    """The vampires wake once whichever vampire cards the deck holds; the end of dusk is called
    with any Vampire card, the lovers only with Cupid, Fear only with the Count; without a
    Doppelganger nobody is told about one."""
    for vampires in ([R.VAMPIRE], [R.THE_MASTER], [R.THE_COUNT], [R.VAMPIRE, R.THE_MASTER]):
        assert keys([*vampires, R.SEER, R.VILLAGER]).count("vampires") == 1, vampires
    assert keys([R.THE_MASTER, R.SEER]) == ["vampires", "end-of-dusk", "seer"]
    assert keys([R.DISEASED, R.SEER]) == ["diseased", "end-of-dusk", "seer"]
    assert keys([R.CUPID, R.SEER]) == ["cupid", "end-of-dusk", "lovers", "seer"]
    plain = dict((k, w) for k, w, _s in script([R.VAMPIRE, R.COPYCAT, R.APPRENTICE_ASSASSIN]))
    assert "Doppelganger" not in " ".join(plain.values())
    assert "Mark of Fear" not in plain["end-of-dusk"]
    assert plain["vampires"].startswith("Vampires, wake up and look for each other.")
    # A Doppelganger with Vampire cards copies at -7, before the sentinel, naming only the
    # deck's roles it plays at once.
    steps = script([R.DOPPELGANGER, R.SENTINEL, R.CUPID, R.VILLAGER])
    assert [k for k, _w, _s in steps] == ["doppelganger", "cupid", "end-of-dusk", "lovers",
                                          "sentinel"]  # fmt: skip
    assert steps[0][1].endswith("do that role's action now: Cupid, Sentinel.")
    assert steps[0][2] == DOPPELGANGER_CLOSES


# --- The reveal sheet with marks (docs/rules.md 8b.6, 8b.7) -------------------------------------

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve"]
CLEAR = dict.fromkeys(PLAYERS, M.CLARITY)


def sheet(
    cards: list[Role], votes: list[str], marks: dict[str, Mark] | None = None, **more: object
) -> narrator.Verdict:
    return narrator.reveal_sheet(
        OFFICIAL,
        PLAYERS,
        dict(zip(PLAYERS, cards, strict=True)),
        dict(zip(PLAYERS, votes, strict=True)),
        marks={**CLEAR, **(marks or {})},
        **more,  # type: ignore[arg-type]
    )


VAMPIRE_TABLE = [R.VAMPIRE, R.CUPID, R.SEER, R.VILLAGER, R.ROBBER]


def test_a_lover_dies_and_takes_the_other() -> None:
    """8b.2 Love: Cat dies by the vote, Dan of love; no vampire died: the vampires win."""
    verdict = sheet(
        VAMPIRE_TABLE, ["Cat", "Cat", "Ben", "Eve", "Cat"], {"Cat": M.LOVE, "Dan": M.LOVE}
    )
    assert verdict.dead == ("Cat", "Dan")
    assert verdict.vote_reason == "Cat had the most votes and died. Dan died of love."
    assert verdict.winners == ("Ann",)
    assert verdict.marked and not verdict.epic
    assert verdict.notes == ("Cat held the Mark of Love.", "Dan held the Mark of Love.")


def test_a_vote_for_the_mark_of_disease_cannot_win() -> None:
    """8b.2 Disease: the vampire dies and the village wins, but not Dan, who voted for the
    Disease's holder (nor Ann, who lost anyway)."""
    cards = [R.VAMPIRE, R.DISEASED, R.SEER, R.VILLAGER, R.ROBBER]
    verdict = sheet(cards, ["Cat", "Ann", "Ann", "Cat", "Ann"], {"Cat": M.DISEASE})
    assert verdict.dead == ("Ann",)
    assert verdict.winners == ("Ben", "Cat", "Eve")
    assert verdict.notes == (
        "Ann voted for Cat, who held the Mark of Disease, and cannot win.",
        "Cat held the Mark of Disease.",
        "Dan voted for Cat, who held the Mark of Disease, and cannot win.",
    )
    # The same sheet with Clarity everywhere: Dan wins with the village.
    assert "Dan" in sheet(cards, ["Cat", "Ann", "Ann", "Cat", "Ann"]).winners


def test_the_epic_battle() -> None:
    """8b.6: a werewolf, a vampire and the village at the table: the most voted and the
    second-most die. A werewolf and a vampire die: the village wins; a werewolf alone: the
    vampires."""
    cards = [R.WEREWOLF, R.VAMPIRE, R.SEER, R.VILLAGER, R.ROBBER]
    both = sheet(cards, ["Ben", "Ann", "Ann", "Ann", "Ben"])
    assert both.epic and both.dead == ("Ann", "Ben")
    assert both.vote_reason == "Epic battle: Ann and Ben had the most votes and died."
    assert both.winners == ("Cat", "Dan", "Eve")
    wolf = sheet(cards, ["Dan", "Cat", "Ann", "Ann", "Ann"])
    assert wolf.epic and wolf.dead == ("Ann", "Cat", "Dan")
    assert wolf.winners == ("Ben",)
    # The Mark of the Vampire on the werewolf makes it a vampire (8b.2): no Epic Battle.
    marked = sheet(cards, ["Ben", "Ann", "Ann", "Ann", "Ben"], {"Ann": M.VAMPIRE})
    assert not marked.epic and marked.dead == ("Ann",)
    assert "Ann held the Mark of the Vampire." in marked.notes


def test_the_copycat_plays_as_what_it_copied() -> None:
    """8b.4: the copy travels with the Copycat card; 8b.5: a Doppelganger that copied the
    Copycat plays as its copy."""
    cards = [R.COPYCAT, R.DOPPELGANGER, R.SEER, R.VILLAGER, R.ROBBER]
    votes = ["Cat", "Ann", "Ann", "Ann", "Ben"]
    verdict = sheet(cards, votes, copycat=R.VAMPIRE, copied=R.COPYCAT)
    assert verdict.dead == ("Ann",)
    assert verdict.winners == ("Cat", "Dan", "Eve")
    assert "Ann held the Copycat, which copied the Vampire." in verdict.notes
    # Copied nothing (it began in the centre): a villager, and nobody is a monster.
    plain = sheet(cards, votes, copied=R.SEER)
    assert plain.winners == ()


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"marks": {"Ann": M.LOVE}}, "Choose Ben's mark."),
        (
            {"marks": {**CLEAR, "Ann": M.VAMPIRE, "Ben": M.VAMPIRE}},
            "only 1 Mark of the Vampire token, not 2",
        ),
        (
            {"marks": {**CLEAR, **dict.fromkeys(PLAYERS, M.FEAR)}},
            "only 2 Mark of Fear tokens, not 5",
        ),
        ({"marks": None}, "Choose each player's mark"),
        ({"copycat": R.COPYCAT}, "not itself"),
        ({"ruleset": Ruleset.HOUSE}, "for the official rules"),
    ],
)
def test_a_wrong_sheet_is_refused(change: dict[str, object], problem: str) -> None:
    fields: dict[str, object] = {
        "ruleset": OFFICIAL,
        "players": PLAYERS,
        "final": dict(zip(PLAYERS, VAMPIRE_TABLE, strict=True)),
        "votes": dict(zip(PLAYERS, ["Cat", "Cat", "Ben", "Eve", "Cat"], strict=True)),
        "marks": CLEAR,
        **change,
    }
    with pytest.raises(RuleError, match=problem):
        narrator.reveal_sheet(**fields)  # type: ignore[arg-type]
