"""Table mode's narrator with Daybreak's cards (docs/rules.md 8a.2, 8a.3, 8a.5): the whole
script, word for word, for a deck of every official card table mode deals, and what changes
with the deck."""

from __future__ import annotations

from games.families.onenight import narrator
from games.families.onenight.engine import VAMPIRE_ROLES, Role, Ruleset
from games.families.onenight.online import online_limits

R = Role
OFFICIAL = Ruleset.OFFICIAL
DOPPELGANGER_CLOSES = "Doppelganger, close your eyes."

# Every official card (each role that wakes, the Dream Wolf's thumb, and the Doppelganger whose
# copies wake after the originals): the steps in 8a.2's order, as the narrator reads them.
EVERY_CARD_SCRIPT = [
    (
        "sentinel",
        "Sentinel, wake up. You may put a shield on another player's card.",
        "Sentinel, close your eyes.",
    ),
    (
        # 8a.3: the Daybreak roles a Doppelganger plays at once, with the base game's.
        "doppelganger",
        "Doppelganger, wake up and look at another player's card: you are now that role. If it"
        " is one of these, do that role's action now: Sentinel, Alpha Wolf, Mystic Wolf, Seer,"
        " Apprentice Seer, Paranormal Investigator, Robber, Witch, Troublemaker, Village Idiot,"
        " Drunk.",
        "Doppelganger, if you are now the minion, keep your eyes open. If not, close your eyes.",
    ),
    (
        "doppelganger-minion",
        "Werewolves, stick out your thumb, eyes closed, so the Doppelganger who is now the"
        " minion can see who you are.",
        "Werewolves, put your thumbs away. Doppelganger, close your eyes.",
    ),
    (
        # 8a.2: the dream wolf shows its thumb; 8a.5: only a plain werewolf looks alone.
        "werewolves",
        "Werewolves, and the Doppelganger if it became one, wake up and look for the other"
        " werewolves. Dream Wolf, and the Doppelganger if it became the Dream Wolf, stick out"
        " your thumb, eyes closed, so they can see you. If you are the only werewolf and your"
        " card is a plain Werewolf, you may look at one card in the centre.",
        "Dream Wolf, put your thumb away. Werewolves, close your eyes.",
    ),
    (
        "alpha-wolf",
        "Alpha Wolf, wake up. Swap the centre werewolf card with the card of another player"
        " who is not a werewolf.",
        "Alpha Wolf, close your eyes.",
    ),
    (
        "mystic-wolf",
        "Mystic Wolf, wake up. You may look at another player's card.",
        "Mystic Wolf, close your eyes.",
    ),
    (
        "minion",
        "Minion, wake up. Werewolves, stick out your thumb so the minion can see who you are.",
        "Werewolves, put your thumbs away. Minion, close your eyes.",
    ),
    (
        "masons",
        "Masons, and the Doppelganger if it became a mason, wake up and look for the other masons.",
        "Masons, close your eyes.",
    ),
    (
        "seer",
        "Seer, wake up. You may look at another player's card, or at two centre cards.",
        "Seer, close your eyes.",
    ),
    (
        "apprentice-seer",
        "Apprentice Seer, wake up. You may look at one centre card.",
        "Apprentice Seer, close your eyes.",
    ),
    (
        "paranormal-investigator",
        "Paranormal Investigator, wake up. You may look at up to two other players' cards, one"
        " at a time. If you see a werewolf or the tanner, stop: you are now that role.",
        "Paranormal Investigator, close your eyes.",
    ),
    (
        "robber",
        "Robber, wake up. You may swap your card with another player's, then look at it.",
        "Robber, close your eyes.",
    ),
    (
        "witch",
        "Witch, wake up. You may look at one centre card. If you do, swap it with any player's"
        " card, yours included.",
        "Witch, close your eyes.",
    ),
    (
        "troublemaker",
        "Troublemaker, wake up. You may swap two other players' cards, unseen.",
        "Troublemaker, close your eyes.",
    ),
    (
        "village-idiot",
        "Village Idiot, wake up. You may move everyone else's card one seat to the left or to"
        " the right.",
        "Village Idiot, close your eyes.",
    ),
    (
        "drunk",
        "Drunk, wake up. Swap your card with a centre card, without looking at it.",
        "Drunk, close your eyes.",
    ),
    ("insomniac", "Insomniac, wake up. Look at your card.", "Insomniac, close your eyes."),
    (
        "doppelganger-insomniac",
        "Doppelganger, if you copied the insomniac, wake up and look at your card.",
        DOPPELGANGER_CLOSES,
    ),
    (
        "revealer",
        "Revealer, wake up. You may turn another player's card face up. If it is a werewolf or"
        " the tanner, turn it back face down.",
        "Revealer, close your eyes.",
    ),
    (
        "doppelganger-revealer",
        "Doppelganger, if you copied the Revealer, wake up. You may turn another player's card"
        " face up; a werewolf or the tanner goes back face down.",
        DOPPELGANGER_CLOSES,
    ),
    (
        "curator",
        "Curator, wake up. You may put an artifact face down on any player's card.",
        "Curator, close your eyes.",
    ),
    (
        "doppelganger-curator",
        "Doppelganger, if you copied the Curator, wake up. You may put an artifact face down on"
        " any player's card.",
        DOPPELGANGER_CLOSES,
    ),
]


def script(deck: list[Role]) -> list[tuple[str, str, str]]:
    return [(c.key, c.wake, c.sleep) for c in narrator.narration(OFFICIAL, deck)]


def test_the_script_of_a_deck_of_every_card() -> None:
    # Every card table mode deals but Vampire's, whose dusk has its own script
    # (test_narrator_vampire.py, docs/rules.md 8b.7).
    deck = [r for r in online_limits(OFFICIAL) if r not in VAMPIRE_ROLES]
    assert script(deck) == EVERY_CARD_SCRIPT
    calls = narrator.narration(OFFICIAL, deck)
    # Each step is called once, with the pause of its own setting.
    assert len({c.key for c in calls}) == len(calls)
    assert all(c.seconds == narrator.PAUSES[c.key] for c in calls)


def test_the_base_game_words_stay_without_an_expansion_card() -> None:
    """A deck of base cards hears the base game's calls (rules/002 s5), whatever 8a adds."""
    words = dict((k, w) for k, w, _s in script([R.DOPPELGANGER, R.WEREWOLF, R.SEER, R.VILLAGER]))
    assert words["doppelganger"] == (
        "Doppelganger, wake up and look at another player's card: you are now that role. If it"
        " is a seer, robber, troublemaker or drunk, do that role's action now."
    )
    assert words["werewolves"] == (
        "Werewolves, and the Doppelganger if it became one, wake up and look for the other"
        " werewolves. If you are the only one, you may look at one card in the centre."
    )


def test_the_daybreak_words_follow_the_deck() -> None:
    """Only the deck's cards are named: the Doppelganger's at-once roles, the dream wolf's
    thumb (without a Doppelganger, nobody else shows one), the plain werewolf's lone look."""
    steps = {k: (w, s) for k, w, s in script([R.DOPPELGANGER, R.WITCH, R.WEREWOLF, R.VILLAGER])}
    assert steps["doppelganger"][0].endswith("do that role's action now: Witch.")
    assert "Dream Wolf" not in steps["werewolves"][0]
    assert steps["werewolves"][0].endswith(
        "If you are the only one, you may look at one card in the centre."
    )
    steps = {k: (w, s) for k, w, s in script([R.DREAM_WOLF, R.WEREWOLF, R.SEER, R.VILLAGER])}
    assert steps["werewolves"] == (
        "Werewolves, wake up and look for the other werewolves. Dream Wolf, stick out your"
        " thumb, eyes closed, so they can see you. If you are the only one, you may look at one"
        " card in the centre.",
        "Dream Wolf, put your thumb away. Werewolves, close your eyes.",
    )
    steps = {k: (w, s) for k, w, s in script([R.MYSTIC_WOLF, R.SEER, R.VILLAGER])}
    assert steps["werewolves"][0] == (
        "Werewolves, wake up and look for the other werewolves. If you are the only werewolf"
        " and your card is a plain Werewolf, you may look at one card in the centre."
    )


# --- The reveal sheet: the artifacts and the investigator's change (docs/rules.md 8a.9) ----------

PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def test_the_reveal_sheet_plays_the_artifacts_and_the_investigators_change() -> None:
    from games.families.onenight.engine import Artifact, RuleError

    final = {"Ann": R.VILLAGER, "Ben": R.PARANORMAL_INVESTIGATOR, "Cat": R.SEER,
             "Dan": R.CURATOR}  # fmt: skip
    votes: dict[str, str | None] = {"Ann": "Ben", "Ben": "Ann", "Cat": "Ben", "Dan": "Ann"}
    # No artifact, no change: Ann and Ben die, tied on two votes each (rules/002 s6).
    plain = narrator.reveal_sheet(OFFICIAL, PLAYERS, final, votes)
    assert plain.dead == ("Ann", "Ben") and plain.notes == ()
    # The investigator saw a werewolf (8a.5): Ben's card plays as a Werewolf; the cudgel on
    # Ann's card makes her a tanner (8a.6).
    sheet = narrator.reveal_sheet(
        OFFICIAL, PLAYERS, final, votes,
        artifacts={"Ann": Artifact.CUDGEL, "Cat": Artifact.MASK},
        investigator=R.WEREWOLF,
    )  # fmt: skip
    assert sheet.dead == ("Ann", "Ben")
    # rules/002 s6: the tanner died (she wins) and a werewolf died (the town wins too).
    assert set(sheet.winners) == {"Ann", "Cat", "Dan"}
    assert sheet.notes == (
        "Ann held the Cudgel of the Tanner.",
        "Ann's card counts as a Tanner because of the Cudgel of the Tanner.",
        "Ben held the Paranormal Investigator, which became a Werewolf.",
        "Cat held the Mask of Muting.",
    )
    # A claw on a wolf's card: the card counts as a plain werewolf (8a.6), said as such.
    clawed = narrator.reveal_sheet(
        OFFICIAL, PLAYERS, {**final, "Ben": R.ALPHA_WOLF}, votes,
        artifacts={"Ben": Artifact.CLAW},
    )  # fmt: skip
    assert clawed.notes == (
        "Ben held the Claw of the Werewolf.",
        "Ben's card counts as a Werewolf because of the Claw of the Werewolf.",
    )
    # The investigator's change goes with the card (8a.5): only whoever holds it plays it.
    moved = {**final, "Ben": R.VILLAGER, "Ann": R.PARANORMAL_INVESTIGATOR}
    turned = narrator.reveal_sheet(OFFICIAL, PLAYERS, moved, votes, investigator=R.TANNER)
    assert turned.notes == ("Ann held the Paranormal Investigator, which became a Tanner.",)
    assert turned.winners == ("Ann",)
    # What cannot be: an artifact twice, an investigator that became a seer.
    for wrong in (
        {"artifacts": {"Ann": Artifact.CLAW, "Ben": Artifact.CLAW}},
        {"investigator": R.SEER},
    ):
        try:
            narrator.reveal_sheet(OFFICIAL, PLAYERS, final, votes, **wrong)  # type: ignore[arg-type]
        except RuleError:
            continue
        raise AssertionError(wrong)
    # A house table may add the Curator (docs/rules.md 8a.8): its sheet takes the artifacts.
    house = {p: R.VILLAGER if p != "Ann" else R.CURATOR for p in PLAYERS}
    clawed = narrator.reveal_sheet(
        Ruleset.HOUSE, PLAYERS, house, votes, artifacts={"Ben": Artifact.CLAW}
    )
    assert any("Ben" in note for note in clawed.notes)
