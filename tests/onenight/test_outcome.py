"""Who wins, from the FINAL roles and the dead.

House: rules/000 s2 (town, werewolf team, Tanner; the minion is on the werewolf team), s2b (a
dead Tanner makes the werewolf team lose), s6c (no werewolf at dawn: the minion counts as one;
no werewolf and no minion: the town wins only if nobody dies).
Official: rules/002 s6 (no werewolf: the town wins only if nobody dies; the minion wins if
another player dies while the minion and the Tanner survive).
"""

from __future__ import annotations

import pytest

from games.families.onenight.engine import NightResult, Team, decide_outcome

from .builders import deal, game, night

RULESETS = ["house", "official"]


def winners(result: NightResult, *dead: str) -> tuple[str, ...]:
    return decide_outcome(result, tuple(p for p in result.deal.players if p in dead)).winners


def teams(result: NightResult, *dead: str) -> set[Team]:
    return set(decide_outcome(result, tuple(p for p in result.deal.players if p in dead)).teams)


def _wolves(ruleset: str) -> NightResult:
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="werewolf",
        Cat="minion",
        Dan="tanner",
        Eve="seer",
        Fay="villager",
        left="villager",
        middle="robber",
        right="troublemaker",
    )
    return night(d)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_werewolf_dies_town_wins(ruleset: str) -> None:
    """rules/000 s2a, rules/002 s6: a dead werewolf means the town wins, dead townsfolk too."""
    r = _wolves(ruleset)
    assert winners(r, "Ann") == ("Eve", "Fay")
    assert winners(r, "Ann", "Eve") == ("Eve", "Fay")
    assert teams(r, "Ben", "Cat") == {Team.TOWN}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_werewolf_dies_werewolf_team_wins(ruleset: str) -> None:
    """rules/000 s2b, rules/002 s6: no werewolf dies -> werewolves and minion win; the minion
    wins even if he dies."""
    r = _wolves(ruleset)
    assert winners(r) == ("Ann", "Ben", "Cat")
    assert winners(r, "Eve") == ("Ann", "Ben", "Cat")
    assert winners(r, "Cat") == ("Ann", "Ben", "Cat")
    assert teams(r, "Fay") == {Team.WEREWOLF}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_dead_tanner_wins_and_werewolf_team_loses(ruleset: str) -> None:
    """rules/000 s2b/s2c, rules/002 s6: the Tanner wins by dying; the werewolf team then loses
    no matter what, but the town still needs a dead werewolf."""
    r = _wolves(ruleset)
    assert winners(r, "Dan") == ("Dan",)
    assert teams(r, "Dan") == {Team.TANNER}
    assert winners(r, "Dan", "Eve") == ("Dan",)
    assert winners(r, "Ann", "Dan") == ("Dan", "Eve", "Fay")
    assert teams(r, "Ann", "Dan") == {Team.TANNER, Team.TOWN}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_living_tanner_never_wins(ruleset: str) -> None:
    """rules/000 s2c: the Tanner wins only if the Tanner dies."""
    r = _wolves(ruleset)
    for dead in [(), ("Ann",), ("Eve",), ("Cat",)]:
        assert "Dan" not in winners(r, *dead)


def _minion_no_wolf(ruleset: str) -> NightResult:
    d = deal(
        ruleset,
        Ann="minion",
        Ben="tanner",
        Cat="seer",
        Dan="villager",
        left="werewolf",
        middle="werewolf",
        right="villager",
    )
    return night(d)


def test_house_minion_counts_as_werewolf_when_none_at_dawn() -> None:
    """rules/000 s6c (house rule): with no werewolf after the night, the minion counts as a
    werewolf: the town must kill the minion; otherwise the minion wins, even if nobody dies."""
    r = _minion_no_wolf("house")
    assert winners(r) == ("Ann",)
    assert winners(r, "Cat") == ("Ann",)
    assert winners(r, "Ann") == ("Cat", "Dan")
    assert winners(r, "Ann", "Cat") == ("Cat", "Dan")


def test_house_minion_as_werewolf_loses_to_a_dead_tanner() -> None:
    """rules/000 s2b with s6c: a dead Tanner makes the werewolf team (here the minion) lose."""
    r = _minion_no_wolf("house")
    assert winners(r, "Ben") == ("Ben",)
    assert winners(r, "Ann", "Ben") == ("Ben", "Cat", "Dan")


def test_official_minion_without_werewolves() -> None:
    """rules/002 s6: no werewolf in play - town wins only if nobody dies; the minion wins if
    another player dies and the minion and the Tanner survive."""
    r = _minion_no_wolf("official")
    assert winners(r) == ("Cat", "Dan")
    assert teams(r) == {Team.TOWN}
    assert winners(r, "Cat") == ("Ann",)
    assert teams(r, "Cat") == {Team.WEREWOLF}
    assert winners(r, "Ann") == ()
    assert winners(r, "Ann", "Cat") == ()
    assert winners(r, "Ben") == ("Ben",)
    assert winners(r, "Ben", "Cat") == ("Ben",)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_werewolf_no_minion_town_wins_only_if_nobody_dies(ruleset: str) -> None:
    """rules/000 s6c ("If there are no werewolves or minion, the town now wins by ensuring that
    noone dies"), rules/002 s6."""
    d = deal(
        ruleset,
        Ann="tanner",
        Ben="seer",
        Cat="villager",
        Dan="villager",
        left="werewolf",
        middle="werewolf",
        right="minion",
    )
    r = night(d)
    assert winners(r) == ("Ben", "Cat", "Dan")
    assert winners(r, "Cat") == ()
    assert teams(r, "Cat") == set()
    assert winners(r, "Ann") == ("Ann",)
    assert winners(r, "Ann", "Ben") == ("Ann",)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_teams_go_by_the_final_card(ruleset: str) -> None:
    """rules/000 s2: players are the role they have at the END of the night. The robber who
    took the werewolf card is the werewolf; the robbed werewolf is town."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="robber",
        Cat="villager",
        Dan="seer",
        left="villager",
        middle="villager",
        right="tanner",
    )
    r = night(d, Ben=["Ann"])
    assert winners(r, "Ann") == ("Ben",)
    assert winners(r, "Ben") == ("Ann", "Cat", "Dan")


def test_house_minion_counts_as_werewolf_only_if_no_werewolf_at_dawn() -> None:
    """rules/000 s6c: a werewolf that turns up in the night (here the drunk takes it from the
    centre) means the minion is NOT counted as a werewolf; killing the minion does not win."""
    d = deal(
        "house",
        Ann="minion",
        Ben="troublemaker",
        Cat="villager",
        Dan="drunk",
        left="werewolf",
        middle="villager",
        right="villager",
    )
    r = night(d, Dan=["left"])  # Dan takes the werewolf from the centre
    assert r.final["Dan"].value == "werewolf"
    assert winners(r, "Ann") == ("Ann", "Dan")
    assert winners(r, "Dan") == ("Ben", "Cat")


def test_doppelganger_werewolf_is_a_werewolf() -> None:
    """rules/002 s5/s6: the Doppelganger plays as the role it copied."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="werewolf",
        Cat="troublemaker",
        Dan="villager",
        left="seer",
        middle="villager",
        right="villager",
    )
    r = night(d, Ann=["Ben"])
    assert winners(r, "Ann") == ("Cat", "Dan")
    assert winners(r) == ("Ann", "Ben")
    # The troublemaker moves the Doppelganger card to Dan: Dan now plays as the werewolf
    # (engine ruling: the copied role stays with the card), Ann as the villager.
    moved = night(d, Ann=["Ben"], Cat=["Ann", "Dan"])
    assert moved.final["Dan"].value == "doppelganger"
    assert winners(moved, "Dan") == ("Ann", "Cat")
    assert winners(moved, "Ann") == ("Ben", "Dan")


def test_doppelganger_that_copied_nothing_is_town() -> None:
    """Engine ruling (roles.team_of): a Doppelganger that copied nothing counts as town."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="werewolf",
        Cat="seer",
        left="villager",
        middle="villager",
        right="tanner",
    )
    r = night(d, Ann=[])
    assert winners(r, "Ben") == ("Ann", "Cat")
    assert winners(r, "Cat") == ("Ben",)


def test_each_tanner_wins_only_by_their_own_death() -> None:
    """rules/000 s2c ("if the Tanner dies they win") per player: a Doppelganger-tanner and the
    Tanner each need their own death (rules/002 s6 "Wins only if the Tanner dies")."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="tanner",
        Cat="werewolf",
        Dan="seer",
        left="villager",
        middle="villager",
        right="robber",
    )
    r = night(d, Ann=["Ben"])
    assert winners(r, "Ann") == ("Ann",)
    assert winners(r, "Ben") == ("Ben",)
    assert winners(r, "Ann", "Ben") == ("Ann", "Ben")
    assert winners(r, "Ann", "Cat") == ("Ann", "Dan")


def test_official_doppelganger_minion_without_werewolves() -> None:
    """rules/002 s6 with a Doppelganger-minion: with no werewolf, both minions win when another
    player dies and no minion or tanner does."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="minion",
        Cat="seer",
        Dan="villager",
        left="werewolf",
        middle="werewolf",
        right="villager",
    )
    r = night(d, Ann=["Ben"])
    assert winners(r, "Cat") == ("Ann", "Ben")
    assert winners(r) == ("Cat", "Dan")


def test_full_game_examples() -> None:
    """A whole game through play_game: the hunter takes a werewolf and the town wins
    (rules/000 s4 Hunter with s2a)."""
    d = deal(
        "house",
        Ann="hunter",
        Ben="werewolf",
        Cat="seer",
        Dan="villager",
        left="villager",
        middle="robber",
        right="tanner",
    )
    result = game(d, {"Cat": ["Ben"]}, {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ann"})
    assert result.vote is not None and result.outcome is not None
    assert result.vote.dead == ("Ann", "Ben")
    assert result.outcome.winners == ("Ann", "Cat", "Dan")
    assert result.outcome.reason
