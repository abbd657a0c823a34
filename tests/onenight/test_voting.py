"""The vote: who is lynched, the tie rules, the Tanner house rule and the Hunter.

rules/000 s3d (everyone votes for another player), s6a (ties), s6c (the Tanner's vote cannot
break a one-vote tie when no werewolf is left), s4 Hunter; rules/002 s5 and s7 (Hunter), with the
same tie rule in the official rules (rules/002 is silent on ties).
"""

from __future__ import annotations

import pytest

from games.families.onenight.engine import IllegalVoteError, NightResult, tally_votes
from games.families.onenight.engine.game import play_game

from .builders import deal, night, ring_votes, votes_for

RULESETS = ["house", "official"]


def _table(ruleset: str = "house") -> NightResult:
    """Five players, a werewolf among them, nobody acts (cards stay where they were dealt)."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="seer",
        Cat="villager",
        Dan="villager",
        Eve="troublemaker",
        left="villager",
        middle="robber",
        right="tanner",
    )
    return night(d)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_most_votes_is_lynched(ruleset: str) -> None:
    """rules/000 s3d: whoever has the most votes is killed."""
    v = tally_votes(
        _table(ruleset), {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ann", "Eve": "Ben"}
    )
    assert v.lynched == ("Ann",)
    assert v.dead == ("Ann",)
    assert v.hunted == ()
    assert dict(v.counts) == {"Ann": 3, "Ben": 2}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_tie_at_two_or_more_kills_all_tied(ruleset: str) -> None:
    """rules/000 s6a: if the people with the most votes have more than 1 vote each, all die."""
    v = tally_votes(
        _table(ruleset), {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ben", "Eve": "Cat"}
    )
    assert v.lynched == ("Ann", "Ben")
    assert v.dead == ("Ann", "Ben")


def test_dead_are_in_seat_order() -> None:
    """FORMAT.md: "dead" lists who died in seat order, whoever was named first in the votes."""
    v = tally_votes(
        _table(), {"Eve": "Dan", "Dan": "Eve", "Cat": "Dan", "Ben": "Eve", "Ann": "Cat"}
    )
    assert v.dead == ("Dan", "Eve")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_everyone_one_vote_nobody_dies(ruleset: str) -> None:
    """rules/000 s6a: if all players have exactly 1 vote, nobody dies."""
    players = _table(ruleset).deal.players
    v = tally_votes(_table(ruleset), ring_votes(players))
    assert v.lynched == ()
    assert v.dead == ()


def test_nobody_above_one_vote_with_missing_votes_nobody_dies() -> None:
    """rules/000 s6a extended to "no vote" entries (a passed deadline): when no player has more
    than one vote, nobody dies."""
    v = tally_votes(_table(), {"Ann": None, "Ben": "Ann", "Cat": None, "Dan": "Cat", "Eve": "Dan"})
    assert v.dead == ()
    v = tally_votes(_table(), dict.fromkeys(_table().deal.players))
    assert v.dead == ()
    assert dict(v.counts) == {}


def test_missing_votes_do_not_stop_a_lynch() -> None:
    """A null vote is simply not counted (FORMAT.md "votes")."""
    v = tally_votes(_table(), {"Ann": None, "Ben": "Ann", "Cat": "Ann", "Dan": None, "Eve": None})
    assert v.dead == ("Ann",)
    assert dict(v.votes)["Ann"] is None


def test_vote_errors() -> None:
    """rules/000 s3d: everyone must vote for ANOTHER player; FORMAT.md: every player needs an
    entry; strangers are refused. Every message names the player."""
    t = _table()
    base = {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ann", "Eve": "Ben"}
    with pytest.raises(IllegalVoteError, match="Cat: you cannot vote for yourself"):
        tally_votes(t, base | {"Cat": "Cat"})
    missing = dict(base)
    del missing["Dan"]
    with pytest.raises(IllegalVoteError, match="Dan has no vote entry"):
        tally_votes(t, missing)
    with pytest.raises(IllegalVoteError, match="'Zed' is not a player"):
        tally_votes(t, base | {"Zed": "Ann"})
    with pytest.raises(IllegalVoteError, match="Cat: 'Zed' is not a player"):
        tally_votes(t, base | {"Cat": "Zed"})
    with pytest.raises(IllegalVoteError, match="Cat: 'left' is not a player"):
        tally_votes(t, base | {"Cat": "left"})
    with pytest.raises(IllegalVoteError, match="Cat: a vote names one other player"):
        tally_votes(t, base | {"Cat": ["Ann"]})  # type: ignore[dict-item]
    with pytest.raises(IllegalVoteError, match="must map every player"):
        tally_votes(t, ["Ann"])  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# rules/000 s6c house rule: the Tanner's vote does not break a one-vote tie (no werewolf left)


def _tanner_table(ruleset: str, wolf_at_table: bool = False) -> NightResult:
    d = deal(
        ruleset,
        Ann="tanner",
        Ben="villager",
        Cat="seer",
        Dan="werewolf" if wolf_at_table else "robber",
        left="werewolf",
        middle="villager" if wolf_at_table else "werewolf",
        right="villager",
    )
    return night(d)


# Without Ann's vote (the Tanner) everybody has one vote; with it, Ben has two.
TANNER_BREAKS_TIE = {"Ann": "Ben", "Ben": "Cat", "Cat": "Ben", "Dan": "Ann"}


def test_house_tanner_cannot_break_a_one_vote_tie() -> None:
    """rules/000 s6c (house rule): with no werewolf after the night, the Tanner's vote does not
    break a one-vote tie: nobody dies."""
    v = tally_votes(_tanner_table("house"), TANNER_BREAKS_TIE)
    assert dict(v.counts)["Ben"] == 2
    assert v.dead == ()
    assert "Tanner" in v.reason


def test_tanner_rule_is_house_only() -> None:
    """rules/002 has no such rule: in the official rules Ben's two votes kill him."""
    assert tally_votes(_tanner_table("official"), TANNER_BREAKS_TIE).dead == ("Ben",)


def test_tanner_rule_needs_no_werewolf_at_dawn() -> None:
    """rules/000 s6c applies only when no werewolf is in play after the night."""
    assert tally_votes(_tanner_table("house", wolf_at_table=True), TANNER_BREAKS_TIE).dead == (
        "Ben",
    )


def test_tanner_rule_uses_the_final_tanner() -> None:
    """rules/000 s2: roles at the END of the night. Dan robs the Tanner card: Dan's vote is the
    one left out, Ann's (now the robber) counts."""
    d = _tanner_table("house").deal
    robbed = night(d, Dan=["Ann"])
    assert robbed.final["Dan"].value == "tanner"
    # Ann's vote now counts: Ben has two votes without the Tanner's (Dan's) vote.
    assert tally_votes(robbed, TANNER_BREAKS_TIE).dead == ("Ben",)
    # Dan's vote is the tie-breaker this time, and Dan is the Tanner: nobody dies.
    dan_breaks = {"Ann": "Cat", "Ben": "Dan", "Cat": "Ben", "Dan": "Ben"}
    assert tally_votes(robbed, dan_breaks).dead == ()
    assert tally_votes(night(d), dan_breaks).dead == ("Ben",)


def test_tanner_rule_only_for_one_vote_ties() -> None:
    """rules/000 s6c speaks of a one-vote tie: if others already give someone two votes, the
    normal tie rule (s6a) applies, Tanner vote included."""
    votes = {"Ann": "Ben", "Ben": "Cat", "Cat": "Ben", "Dan": "Cat"}
    assert tally_votes(_tanner_table("house"), votes).dead == ("Ben", "Cat")


def test_tanner_rule_with_a_minion_but_no_werewolf() -> None:
    """Engine ruling (voting._tanner_cannot_break_tie): the rule is judged on werewolves only,
    so it also applies when a minion (who counts as a werewolf for the outcome, rules/000 s6c)
    is at the table. See the report: arguably the house text ties this rule to the case with no
    werewolf AND no minion."""
    d = deal(
        "house",
        Ann="tanner",
        Ben="minion",
        Cat="seer",
        Dan="villager",
        left="werewolf",
        middle="werewolf",
        right="villager",
    )
    votes = {"Ann": "Ben", "Ben": "Cat", "Cat": "Ben", "Dan": "Ann"}
    assert tally_votes(night(d), votes).dead == ()


# ---------------------------------------------------------------------------------------------
# The Hunter (rules/000 s4, rules/002 s5 and s7)


def _hunter_table(ruleset: str = "house") -> NightResult:
    d = deal(
        ruleset,
        Ann="hunter",
        Ben="robber",
        Cat="werewolf",
        Dan="villager",
        Eve="seer",
        left="villager",
        middle="villager",
        right="tanner",
    )
    return night(d)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_dead_hunter_takes_the_player_they_voted_for(ruleset: str) -> None:
    """rules/000 s4 Hunter: if killed, whoever they were voting for also dies (rules/002 s7:
    regardless of vote count)."""
    players = _hunter_table(ruleset).deal.players
    v = tally_votes(_hunter_table(ruleset), votes_for(players, "Ann", "Cat"))
    assert v.lynched == ("Ann",)
    assert v.hunted == ("Cat",)
    assert v.dead == ("Ann", "Cat")
    assert "hunter" in v.reason


def test_living_hunter_takes_nobody() -> None:
    """rules/000 s4: only a killed hunter shoots."""
    players = _hunter_table().deal.players
    v = tally_votes(_hunter_table(), votes_for(players, "Dan", "Ann"))
    assert v.dead == ("Dan",)


def test_hunter_is_judged_on_the_final_card() -> None:
    """rules/000 s4: effects in the day go by the role at the END of the night. Ben robs the
    hunter card: Ben shoots, Ann does not."""
    d = _hunter_table().deal
    robbed = night(d, Ben=["Ann"])
    players = d.players
    assert tally_votes(robbed, votes_for(players, "Ben", "Cat")).dead == ("Ben", "Cat")
    assert tally_votes(robbed, votes_for(players, "Ann", "Cat")).dead == ("Ann",)


def test_hunter_with_no_vote_takes_nobody() -> None:
    """FORMAT.md: a null vote names nobody, so a dead hunter without a vote shoots nobody."""
    players = _hunter_table().deal.players
    votes = votes_for(players, "Ann") | {"Ann": None}
    v = tally_votes(_hunter_table(), votes)
    assert v.dead == ("Ann",)
    assert v.hunted == ()


def test_hunter_shooting_someone_already_dead() -> None:
    """Two lynched in a tie, the hunter voted for the other: nobody extra dies."""
    v = tally_votes(
        _hunter_table(), {"Ann": "Cat", "Ben": "Ann", "Cat": "Ann", "Dan": "Cat", "Eve": "Ben"}
    )
    assert v.lynched == ("Ann", "Cat")
    assert v.hunted == ()
    assert v.dead == ("Ann", "Cat")


def test_hunter_chain_through_a_doppelganger_hunter() -> None:
    """rules/002 s5 and s7: a Doppelganger-hunter is a hunter too; shot, it shoots in turn."""
    d = deal(
        "official",
        Ann="hunter",
        Ben="doppelganger",
        Cat="werewolf",
        Dan="villager",
        Eve="seer",
        left="villager",
        middle="villager",
        right="tanner",
    )
    r = night(d, Ben=["Ann"])
    votes = {"Ann": "Ben", "Ben": "Cat", "Cat": "Ann", "Dan": "Ann", "Eve": "Dan"}
    v = tally_votes(r, votes)
    assert v.lynched == ("Ann",)
    assert v.hunted == ("Ben", "Cat")
    assert v.dead == ("Ann", "Ben", "Cat")
    # A chain that comes back to a dead hunter stops.
    back = {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ann", "Eve": "Dan"}
    v = tally_votes(r, back)
    assert v.hunted == ("Ben",)
    assert v.dead == ("Ann", "Ben")
    # Without the copy, Ben is a plain Doppelganger and does not shoot.
    assert tally_votes(night(d), votes).dead == ("Ann", "Ben")


def test_hunted_player_is_not_in_the_lynched_tie_rule() -> None:
    """rules/002 s7: the hunter's target dies regardless of vote count, even with one vote."""
    v = tally_votes(
        _hunter_table(), {"Ann": "Eve", "Ben": "Ann", "Cat": "Ann", "Dan": "Cat", "Eve": "Ben"}
    )
    assert dict(v.counts)["Eve"] == 1
    assert v.dead == ("Ann", "Eve")


def test_play_game_without_votes_stops_after_the_night() -> None:
    """FORMAT.md: without "votes" the result stops after the night."""
    result = play_game(_table().deal, {})
    assert result.vote is None
    assert result.outcome is None
    full = play_game(_table().deal, {}, ring_votes(_table().deal.players))
    assert full.vote is not None and full.outcome is not None
