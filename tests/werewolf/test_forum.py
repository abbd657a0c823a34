"""rules/001, the forum game, as FORMAT.md reads it: plurality kills and votes, the seer and
the protector, notification rules, the three winning conditions and their precedence."""

from __future__ import annotations

import pytest

from .helpers import day, night, play, refused, table

SEVEN = table("werewolf", "werewolf", "lunatic", "seer", "protector", "villager", "villager")


def test_two_wolves_agreeing_kill_and_the_role_is_revealed() -> None:
    """001 night phase: a strict plurality of the werewolves' votes eliminates; 001: the
    affiliation and special role are revealed on elimination."""
    out = play("forum", SEVEN, night(Ann={"kill": "Dan"}, Ben={"kill": "Dan"}))
    (entry,) = out["phases"]
    assert entry["dead"] == ["Dan"]
    assert entry["revealed"] == {"Dan": "seer"}
    assert entry["told"] == {}


@pytest.mark.parametrize(
    ("ann", "ben"),
    [("Dan", "Eve"), ("Dan", "nobody"), ("nobody", "nobody")],
    ids=["split", "one-forgoes", "both-forgo"],
)
def test_no_strict_plurality_kills_nobody(ann: str, ben: str) -> None:
    """001: "otherwise, no one is eliminated"; "nobody" counts as a choice (FORMAT)."""
    out = play("forum", SEVEN, night(Ann={"kill": ann}, Ben={"kill": ben}))
    assert out["phases"][0]["dead"] == []


def test_one_wolf_voting_alone_kills() -> None:
    """FORMAT forum: a werewolf who sends nothing does not count; one vote is a plurality."""
    out = play("forum", SEVEN, night(Ann={"kill": "Fay"}))
    assert out["phases"][0]["dead"] == ["Fay"]


def test_protection_of_someone_else_tells_only_the_protector() -> None:
    """001: "If that player was not selected ... the protector is only told that their
    selection was not targeted"."""
    out = play(
        "forum", SEVEN, night(Ann={"kill": "Fay"}, Ben={"kill": "Fay"}, Eve={"protect": "Gus"})
    )
    assert out["phases"][0]["told"] == {"Eve": {"protected": "Gus", "attacked": False}}
    assert out["phases"][0]["dead"] == ["Fay"]


def test_protector_may_protect_themselves() -> None:
    """001: "possibly their self"."""
    out = play(
        "forum", SEVEN, night(Ann={"kill": "Eve"}, Ben={"kill": "Eve"}, Eve={"protect": "Eve"})
    )
    entry = out["phases"][0]
    assert entry["dead"] == []
    assert entry["told"]["Eve"] == {"protected": "Eve", "attacked": True, "saved_from_attack": True}


def test_protector_cannot_protect_the_same_player_two_nights_running() -> None:
    """001: "The protector may not protect the same person on consecutive nights"."""
    message = refused(
        "forum",
        SEVEN,
        night(Eve={"protect": "Gus"}),
        day(),
        night(Eve={"protect": "Gus"}),
    )
    assert "night 2" in message and "Eve" in message


def test_protector_may_return_to_a_player_after_a_night_away() -> None:
    out = play(
        "forum",
        SEVEN,
        night(Eve={"protect": "Gus"}),
        day(),
        night(Eve={"protect": "Fay"}),
        day(),
        night(Eve={"protect": "Gus"}),
    )
    assert out["phases"][4]["told"]["Eve"]["protected"] == "Gus"


@pytest.mark.parametrize(
    ("target", "shown"),
    [("Ann", "werewolf"), ("Cat", "lunatic"), ("Eve", "villager"), ("Fay", "villager")],
)
def test_seer_learns_affiliation(target: str, shown: str) -> None:
    """001: the seer is told the affiliation; FORMAT: the protector is a villager."""
    out = play("forum", SEVEN, night(Dan={"see": target}))
    assert out["phases"][0]["told"]["Dan"] == {"seen": {target: shown}}


def test_seer_killed_that_night_still_learns() -> None:
    """FORMAT forum: all actions take effect together, from the state at nightfall."""
    out = play("forum", SEVEN, night(Ann={"kill": "Dan"}, Ben={"kill": "Dan"}, Dan={"see": "Ben"}))
    entry = out["phases"][0]
    assert entry["dead"] == ["Dan"]
    assert entry["told"]["Dan"] == {"seen": {"Ben": "werewolf"}}


def test_seer_cannot_see_themselves() -> None:
    assert "Dan" in refused("forum", SEVEN, night(Dan={"see": "Dan"}))


def test_day_vote_strict_plurality_with_self_votes() -> None:
    """001 day phase: "A player may vote for their self"; a strict plurality eliminates."""
    out = play("forum", SEVEN, day(votes={"Fay": "Fay", "Gus": "Fay", "Ann": "Gus"}))
    entry = out["phases"][0]
    assert entry["tally"] == {"Fay": 2, "Gus": 1}
    assert entry["eliminated"] == "Fay"
    assert entry["phase"] == "day 1"


@pytest.mark.parametrize(
    "votes",
    [
        {"Ann": "Fay", "Ben": "Gus"},
        {"Ann": "nobody", "Ben": "nobody", "Cat": "Fay"},
        {"Ann": "nobody", "Cat": "Fay"},
        {},
    ],
    ids=["tie", "nobody-leads", "tie-with-nobody", "no-votes"],
)
def test_day_without_strict_plurality_eliminates_nobody(votes: dict[str, str]) -> None:
    out = play("forum", SEVEN, day(votes=votes))
    assert out["phases"][0]["eliminated"] is None
    assert out["phases"][0]["dead"] == []


def test_a_forum_game_opening_with_a_day_numbers_day_1_then_night_1() -> None:
    """FORMAT: "a forum game that opens with a day starts at day 1, then night 1"."""
    out = play("forum", SEVEN, day(), night(), day())
    assert [e["phase"] for e in out["phases"]] == ["day 1", "night 1", "day 2"]


def test_lunatic_killed_at_night_wins_over_the_werewolves() -> None:
    """001: condition 2 (a lunatic eliminated) takes precedence over condition 3; FORMAT: a
    night kill counts."""
    five = table("werewolf", "werewolf", "lunatic", "villager", "villager")
    out = play("forum", five, night(Ann={"kill": "Cat"}, Ben={"kill": "Cat"}))
    assert out["winner"] == "lunatic"
    assert out["winners"] == ["Cat"]
    assert out["phases"][0]["winner"] == "lunatic"


def test_village_wins_with_its_dead_members() -> None:
    """001 condition 1; FORMAT: winners are every member of the side, alive or dead."""
    roles = table("werewolf", "seer", "villager", "villager", "lunatic")
    out = play(
        "forum",
        roles,
        night(Ann={"kill": "Cat"}),
        day(votes={"Ben": "Ann", "Dan": "Ann", "Eve": "Ben"}),
    )
    assert out["winner"] == "village"
    assert out["winners"] == ["Ben", "Cat", "Dan"]
    assert out["alive"] == ["Ben", "Dan", "Eve"]


def test_werewolves_win_at_parity() -> None:
    """001 condition 3: werewolves equal to or more than the others."""
    roles = table("werewolf", "villager", "werewolf", "seer", "villager")
    out = play("forum", roles, night(Ann={"kill": "Ben"}))
    assert out["winner"] == "werewolves"
    assert out["winners"] == ["Ann", "Cat"]


def test_a_dead_player_cannot_act_or_vote() -> None:
    """FORMAT: "The dead take no actions"."""
    assert "dead" in refused(
        "forum", SEVEN, night(Ann={"kill": "Dan"}), day(), night(Dan={"see": "Ann"})
    )
    assert "dead" in refused("forum", SEVEN, night(Ann={"kill": "Dan"}), day(votes={"Dan": "Ann"}))
    assert "dead" in refused("forum", SEVEN, night(Ann={"kill": "Dan"}), day(votes={"Eve": "Dan"}))


def test_nothing_after_the_end() -> None:
    """FORMAT: "Anything sent after the game has ended is an error"."""
    five = table("werewolf", "werewolf", "lunatic", "villager", "villager")
    assert refused("forum", five, night(Ann={"kill": "Cat"}), day())


@pytest.mark.parametrize(
    "roles",
    [
        table("villager", "seer", "protector", "villager"),
        table("werewolf", "werewolf", "villager", "seer"),
    ],
    ids=["no-werewolf", "half-werewolves"],
)
def test_minimum_deal(roles: dict[str, str]) -> None:
    """FORMAT Minimum deals: at least one werewolf, fewer werewolves than other players."""
    assert refused("forum", roles)


def test_a_deal_may_hold_two_seers() -> None:
    """FORMAT: "Only the limits written in this file are enforced"."""
    roles = table("werewolf", "seer", "seer", "villager")
    out = play("forum", roles, night(Ben={"see": "Ann"}, Cat={"see": "Ann"}))
    assert out["phases"][0]["told"]["Cat"] == {"seen": {"Ann": "werewolf"}}


def test_forum_has_no_reactions() -> None:
    """FORMAT Readings: "forum and oxford have no reactions: on_death there is absent or {}"."""
    assert refused(
        "forum",
        SEVEN,
        {"night": {"actions": {"Ann": {"kill": "Dan"}}, "on_death": {"Dan": {"shoot": "Ann"}}}},
    )
    out = play("forum", SEVEN, {"night": {"on_death": {}}})
    assert out["phases"][0]["dead"] == []
