"""The no-quoting rule's reading (rules/000 s5c, docs/rules.md): a faked quote of any private
message the moderator could send, whoever's it would be, is caught; talk about the game in the
players' own words, even in the rules' words, is not."""

from __future__ import annotations

import pytest

from games.families.onenight.engine import Ruleset
from games.families.onenight.quoting import fake_patterns, fakes_one

FAKES = (
    # Role messages, whole or in part.
    "Tonight you must swap your card with one of the centre cards (left, middle or right).",
    "You are the Drunk. Tonight you must swap your card with one of the centre cards (left,"
    " middle or right). You will not see the card you get, and you play for its team.",
    "You are the Werewolf. You are the only werewolf among the players tonight.",
    "Your fellow werewolf is Ben. The two of you know each other; nobody else does.",
    "The werewolf is Ann. They do not know that you are the minion.",
    "If you die, the player you voted for dies with you.",
    # Night reports, with any names.
    "You looked at Ben's card: it is the Werewolf.",
    "You looked at the left centre card: it is the Villager.",
    "the seer said: you looked at Cat's card - it is the Minion",
    "you looked at mary jo's card - it is the tanner!!",
    "You swapped cards with Mary Jo. You are now the Tanner.",
    "You woke at the end of the night: you are now the Seer.",
    "You swapped your card with the middle centre card. You do not know what you are now.",
)
TALK = (
    "I am the seer",
    "I am the seer and I looked at Ben's card, he is the werewolf",
    "I'm the robber, I swapped with Cat and now I am the tanner",
    "we win if at least one werewolf dies tomorrow so let's vote Ben",
    "If you die, the player you voted for dies too, right? that's the hunter",
    "I was the troublemaker and I swapped the cards of Ann and Ben",
    "the drunk has to swap with a centre card and won't know what he is",
    "I am the only mason, the other mason card must be in the centre",
    "I'm the insomniac, I woke at the end of the night and I am still the insomniac",
    "I looked at the left centre card and it was the villager",
    "cards may move in the night so anything can happen",
    "Ben, you looked at my card? it is the villager, trust me",
    # Rules-like sentences of the role messages (the rules page says the same): without a name,
    # a centre card's place or the "You are the X." heading, and not whole, they are not PMs.
    "Remember Ben, as the tanner you win only if you die tomorrow by the vote.",
    "The minion plays for the werewolf team, you win if no werewolf dies tomorrow, right?",
    "Drunk: you do not know what you are now, so just tell us which card you took",
    "If I say no player was a werewolf when you woke, would you believe me?",
    "drunk, you will not see the card you get, and you play for its team",
)


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_fakes_are_caught_and_talk_is_not(ruleset: Ruleset) -> None:
    patterns = fake_patterns(ruleset, "en")
    assert [line for line in FAKES if not fakes_one(line, patterns)] == []
    assert [line for line in TALK if fakes_one(line, patterns)] == []


def test_a_copied_role_message_of_the_official_rules_only() -> None:
    doppelganger = "Tonight you first look at another player's card and become that role."
    assert fakes_one(doppelganger, fake_patterns(Ruleset.OFFICIAL, "en"))
    assert not fakes_one(doppelganger, fake_patterns(Ruleset.HOUSE, "en"))


# Vampire's texts (docs/rules.md 8b.7): checked at a table whose deck holds an expansion card.
VAMPIRE_FAKES = (
    "At dusk you and the other vampires pick a player to turn into a vampire.",
    "At the end of dusk your mark was the Mark of Fear.",
    "You took Cat's mark: it is the Mark of the Vampire.",
    "You copied the left centre card: you are the Seer.",
    "You copied the middle centre card: you are the Gremlin.",
)
VAMPIRE_TALK = (
    "I think the vampires gave Ben the mark of the vampire",
    "my mark was clarity at the end of dusk, I promise",
    "I am the copycat and I copied the seer in the centre",
    "the gremlin swapped our marks, Ann, so watch out",
)


def test_vampires_fakes_are_caught_at_an_expansion_table_only() -> None:
    patterns = fake_patterns(Ruleset.OFFICIAL, "en", True)
    assert [line for line in VAMPIRE_FAKES if not fakes_one(line, patterns)] == []
    assert [line for line in VAMPIRE_TALK if fakes_one(line, patterns)] == []
    assert [line for line in FAKES if not fakes_one(line, patterns)] == []
    assert [line for line in TALK if fakes_one(line, patterns)] == []
    base = fake_patterns(Ruleset.OFFICIAL, "en")
    assert not fakes_one(VAMPIRE_FAKES[1], base)
