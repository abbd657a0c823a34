"""The night played out, role by role and in wake order.

House order, rules/000 s8: 0 werewolves/minion/masons (with the role message; the lone werewolf's
peek, s6b), 1 seer, 2 robber, 3 troublemaker, 4 drunk then insomniac.
Official order, rules/002 s5: 1 Doppelganger (a copied seer/robber/troublemaker/drunk acts at
once), 2 werewolves, 3 minion, 4 masons, 5 seer, 6 robber, 7 troublemaker, 8 drunk,
9 insomniac, 9a Doppelganger-insomniac.
Actions belong to the START card (rules/000 s3b and s4; rules/002 s7).
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.families.onenight.engine import NightResult, Role

from .builders import deal, night

R = Role
RULESETS = ["house", "official"]


def finals(result: NightResult, *positions: str) -> tuple[str, ...]:
    return tuple(result.final[p].value for p in positions)


def seen(result: NightResult, player: str) -> dict[str, str]:
    return {pos: card.value for pos, card in result.seen[player].items()}


# ---------------------------------------------------------------------------------------------
# Each role, in both rulesets


@pytest.mark.parametrize("ruleset", RULESETS)
def test_seer_views_one_player_or_two_centre_cards(ruleset: str) -> None:
    """rules/000 s4 Seer, rules/002 s5: the seer sees card faces and moves nothing."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="seer",
        Cat="villager",
        left="robber",
        middle="villager",
        right="drunk",
    )
    one = night(d, Ben=["Ann"])
    assert seen(one, "Ben") == {"Ann": "werewolf"}
    assert dict(one.final) == dict(d.cards)
    two = night(d, Ben=["right", "left"])
    assert seen(two, "Ben") == {"right": "drunk", "left": "robber"}
    none = night(d, Ben=[])
    assert seen(none, "Ben") == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_robber_swaps_and_sees_the_new_card(ruleset: str) -> None:
    """rules/000 s4 Robber: swap with one player and see the role taken."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="robber",
        Cat="villager",
        left="seer",
        middle="villager",
        right="drunk",
    )
    r = night(d, Ben=["Ann"])
    assert finals(r, "Ann", "Ben", "Cat") == ("robber", "werewolf", "villager")
    assert seen(r, "Ben") == {"Ben": "werewolf"}
    assert seen(r, "Ann") == {}
    idle = night(d, Ben=[])
    assert dict(idle.final) == dict(d.cards)
    assert seen(idle, "Ben") == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_troublemaker_swaps_two_others_without_looking(ruleset: str) -> None:
    """rules/000 s4 Troublemaker: two other players swap; the troublemaker sees nothing."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="troublemaker",
        Cat="villager",
        left="seer",
        middle="villager",
        right="drunk",
    )
    r = night(d, Ben=["Cat", "Ann"])
    assert finals(r, "Ann", "Ben", "Cat") == ("villager", "troublemaker", "werewolf")
    assert seen(r, "Ben") == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_drunk_swaps_with_a_centre_card_without_looking(ruleset: str) -> None:
    """rules/000 s4 Drunk: swap with one centre location, not seeing the new role."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="drunk",
        Cat="villager",
        left="seer",
        middle="tanner",
        right="villager",
    )
    r = night(d, Ben=["middle"])
    assert finals(r, "Ben", "middle", "left") == ("tanner", "drunk", "seer")
    assert seen(r, "Ben") == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_insomniac_sees_own_card_at_the_end(ruleset: str) -> None:
    """rules/000 s4 Insomniac: at the end of the night, sees what their role now is."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="insomniac",
        Cat="villager",
        left="seer",
        middle="tanner",
        right="villager",
    )
    assert seen(night(d), "Ben") == {"Ben": "insomniac"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_werewolves_see_each_other_and_the_minion_sees_them(ruleset: str) -> None:
    """rules/000 s4 Werewolf/Minion, rules/002 s5: the wolves see each other; the minion sees
    the wolves, who do not see the minion."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="minion",
        Cat="werewolf",
        Dan="villager",
        left="seer",
        middle="tanner",
        right="villager",
    )
    r = night(d)
    assert seen(r, "Ann") == {"Cat": "werewolf"}
    assert seen(r, "Cat") == {"Ann": "werewolf"}
    assert seen(r, "Ben") == {"Ann": "werewolf", "Cat": "werewolf"}
    assert seen(r, "Dan") == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_minion_with_no_werewolf_dealt_sees_nobody(ruleset: str) -> None:
    """rules/000 s6c / rules/002 s5: with no werewolf among the players the minion sees no one."""
    d = deal(
        ruleset,
        Ann="villager",
        Ben="minion",
        Cat="seer",
        left="werewolf",
        middle="werewolf",
        right="villager",
    )
    assert seen(night(d), "Ben") == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_masons_see_each_other(ruleset: str) -> None:
    """rules/000 s4 Mason, rules/002 s5: the two masons know each other."""
    d = deal(
        ruleset,
        Ann="mason",
        Ben="villager",
        Cat="mason",
        left="werewolf",
        middle="seer",
        right="villager",
    )
    r = night(d)
    assert seen(r, "Ann") == {"Cat": "mason"}
    assert seen(r, "Cat") == {"Ann": "mason"}
    assert seen(r, "Ben") == {}


def test_lone_house_mason_sees_nobody() -> None:
    """rules/000 s4: a mason dealt alone (the other in the centre) sees no other mason."""
    d = deal(
        "house",
        Ann="mason",
        Ben="villager",
        Cat="seer",
        left="mason",
        middle="werewolf",
        right="villager",
    )
    assert seen(night(d), "Ann") == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_lone_werewolf_may_peek_at_one_centre_card(ruleset: str) -> None:
    """rules/000 s6b: a werewolf alone among the players may view one centre card."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="villager",
        Cat="seer",
        left="werewolf",
        middle="tanner",
        right="villager",
    )
    assert seen(night(d, Ann=["middle"]), "Ann") == {"middle": "tanner"}
    assert seen(night(d, Ann=["left"]), "Ann") == {"left": "werewolf"}
    assert seen(night(d), "Ann") == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_villager_hunter_tanner_do_nothing(ruleset: str) -> None:
    """rules/000 s4: villager, hunter and tanner have no night action."""
    d = deal(
        ruleset,
        Ann="villager",
        Ben="hunter",
        Cat="tanner",
        left="werewolf",
        middle="seer",
        right="villager",
    )
    r = night(d, Ann=[], Ben=[], Cat=[])
    assert dict(r.final) == dict(d.cards)
    assert all(not seen(r, p) for p in d.players)


# ---------------------------------------------------------------------------------------------
# Order effects (rules/000 s8 and rules/002 s5 agree on seer < robber < troublemaker < drunk <
# insomniac)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_seer_looks_before_the_robber_steals(ruleset: str) -> None:
    """rules/000 s8: 1 seer before 2 robber - the seer sees the card before it is stolen."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="seer",
        Cat="robber",
        Dan="villager",
        left="villager",
        middle="drunk",
        right="insomniac",
    )
    r = night(d, Ben=["Ann"], Cat=["Ann"])
    assert seen(r, "Ben") == {"Ann": "werewolf"}
    assert seen(r, "Cat") == {"Cat": "werewolf"}
    assert finals(r, "Ann", "Cat") == ("robber", "werewolf")
    # The seer looking at the robber sees the robber card, not what it will become.
    assert seen(night(d, Ben=["Cat"], Cat=["Ann"]), "Ben") == {"Cat": "robber"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_robber_steals_before_the_troublemaker_swaps(ruleset: str) -> None:
    """rules/000 s8: 2 robber before 3 troublemaker - the robber saw a card that then moved."""
    d = deal(
        ruleset,
        Ann="werewolf",
        Ben="robber",
        Cat="troublemaker",
        Dan="villager",
        Eve="seer",
        left="villager",
        middle="villager",
        right="drunk",
    )
    r = night(d, Ben=["Ann"], Cat=["Ben", "Dan"])
    assert seen(r, "Ben") == {"Ben": "werewolf"}
    want = ("robber", "villager", "troublemaker", "werewolf")
    assert finals(r, "Ann", "Ben", "Cat", "Dan") == want


@pytest.mark.parametrize("ruleset", RULESETS)
def test_troublemaker_swaps_before_the_drunk(ruleset: str) -> None:
    """rules/000 s8: 3 troublemaker before 4 drunk - the drunk sends the swapped-in card to the
    centre."""
    d = deal(
        ruleset,
        Ann="drunk",
        Ben="troublemaker",
        Cat="werewolf",
        Dan="villager",
        left="seer",
        middle="villager",
        right="villager",
    )
    r = night(d, Ann=["left"], Ben=["Ann", "Cat"])
    assert finals(r, "Ann", "Cat", "left") == ("seer", "drunk", "werewolf")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_insomniac_sees_the_card_after_robber_and_troublemaker(ruleset: str) -> None:
    """rules/000 s8 step 4 / rules/002 s5 step 9: the insomniac looks last."""
    d = deal(
        ruleset,
        Ann="insomniac",
        Ben="robber",
        Cat="troublemaker",
        Dan="werewolf",
        Eve="drunk",
        left="villager",
        middle="seer",
        right="villager",
    )
    robbed = night(d, Ben=["Ann"], Eve=["left"])
    assert seen(robbed, "Ann") == {"Ann": "robber"}
    swapped = night(d, Ben=["Ann"], Cat=["Ann", "Dan"], Eve=["left"])
    assert seen(swapped, "Ann") == {"Ann": "werewolf"}
    assert finals(swapped, "Ann", "Ben", "Dan") == ("werewolf", "insomniac", "robber")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_actions_belong_to_the_start_card(ruleset: str) -> None:
    """rules/000 s4 ("done by whoever has that role at the START of the night"), rules/002 s7
    ("Robber does not wake again"): a robbed troublemaker or drunk still acts; the robber does
    not act as the card they took."""
    d = deal(
        ruleset,
        Ann="robber",
        Ben="troublemaker",
        Cat="villager",
        Dan="werewolf",
        Eve="drunk",
        left="seer",
        middle="villager",
        right="villager",
    )
    r = night(d, Ann=["Ben"], Ben=["Cat", "Dan"], Eve=["left"])
    want = ("troublemaker", "robber", "werewolf", "villager")
    assert finals(r, "Ann", "Ben", "Cat", "Dan") == want
    assert seen(r, "Ann") == {"Ann": "troublemaker"}
    # A robbed drunk still has to swap: the robber card goes to the centre.
    r = night(d, Ann=["Eve"], Eve=["middle"])
    assert finals(r, "Ann", "Eve", "middle") == ("drunk", "villager", "robber")


def test_house_lone_werewolf_peeks_before_the_drunk() -> None:
    """rules/000 s8 step 0: the lone werewolf's peek comes with the role message, before the
    drunk (step 4) moves a centre card."""
    d = deal(
        "house",
        Ann="werewolf",
        Ben="drunk",
        Cat="villager",
        left="seer",
        middle="villager",
        right="tanner",
    )
    r = night(d, Ann=["left"], Ben=["left"])
    assert seen(r, "Ann") == {"left": "seer"}
    assert finals(r, "Ben", "left") == ("seer", "drunk")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_seer_looks_at_the_centre_before_the_drunk(ruleset: str) -> None:
    """rules/000 s8: the seer (1) sees a centre card before the drunk (4) takes it."""
    d = deal(
        ruleset,
        Ann="seer",
        Ben="drunk",
        Cat="werewolf",
        left="tanner",
        middle="villager",
        right="villager",
    )
    r = night(d, Ann=["left", "middle"], Ben=["left"])
    assert seen(r, "Ann") == {"left": "tanner", "middle": "villager"}
    assert finals(r, "Ben", "left") == ("tanner", "drunk")


def test_house_log_follows_section_8() -> None:
    """rules/000 s8: the log's wake steps go 0, 1, 2, 3, 4 with the insomniac after the drunk."""
    d = deal(
        "house",
        Ann="werewolf",
        Ben="minion",
        Cat="mason",
        Dan="mason",
        Eve="seer",
        Fay="robber",
        Gus="troublemaker",
        Hal="drunk",
        Ivy="insomniac",
        left="villager",
        middle="villager",
        right="werewolf",
    )
    r = night(d, Ann=["left"], Eve=["Ann"], Fay=["Ben"], Gus=["Cat", "Dan"], Hal=["middle"])
    steps = [(s.order, s.role) for s in r.log]
    assert steps == [
        (0, R.WEREWOLF),
        (0, R.MINION),
        (0, R.MASON),
        (1, R.SEER),
        (2, R.ROBBER),
        (3, R.TROUBLEMAKER),
        (4, R.DRUNK),
        (4, R.INSOMNIAC),
    ]
    assert r.copied is None


# ---------------------------------------------------------------------------------------------
# The Doppelganger (official only, rules/002 s5 and s7)


def test_doppelganger_seer_looks_first() -> None:
    """rules/002 s5: a Doppelganger-seer looks at once, before the robber moves anything."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="seer",
        Cat="robber",
        Dan="werewolf",
        left="villager",
        middle="villager",
        right="tanner",
    )
    r = night(d, Ann=["Ben", "Dan"], Ben=["Ann"], Cat=["Dan"])
    assert r.copied is R.SEER
    assert seen(r, "Ann") == {"Ben": "seer", "Dan": "werewolf"}
    assert seen(r, "Ben") == {"Ann": "doppelganger"}  # card faces
    assert seen(r, "Cat") == {"Cat": "werewolf"}
    centre = night(d, Ann=["Ben", "left", "right"])
    assert seen(centre, "Ann") == {"Ben": "seer", "left": "villager", "right": "tanner"}


def test_doppelganger_robber_robs_before_everyone_wakes() -> None:
    """rules/002 s5: a Doppelganger-robber robs at once (step 1); the robbed werewolf still
    wakes as a werewolf (actions belong to the start card) and the seer then sees the stolen
    card at the Doppelganger's seat."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="seer",
        Cat="robber",
        Dan="werewolf",
        Eve="minion",
        left="villager",
        middle="villager",
        right="tanner",
    )
    r = night(d, Ann=["Cat", "Dan"], Ben=["Ann"], Cat=["Ann"], Dan=["right"])
    assert r.copied is R.ROBBER
    assert seen(r, "Ann") == {"Cat": "robber", "Ann": "werewolf"}
    assert seen(r, "Dan") == {"right": "tanner"}  # still the lone werewolf by the deal
    assert seen(r, "Eve") == {"Dan": "werewolf"}
    assert seen(r, "Ben") == {"Ann": "werewolf"}
    assert seen(r, "Cat") == {"Cat": "werewolf"}
    assert finals(r, "Ann", "Cat", "Dan") == ("robber", "werewolf", "doppelganger")
    assert r.plays_as("Dan") is R.ROBBER


def test_doppelganger_troublemaker_swaps_before_the_robber() -> None:
    """rules/002 s5: a Doppelganger-troublemaker swaps at once, so the robber (step 6) takes a
    card that has already moved."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="robber",
        Cat="werewolf",
        Dan="troublemaker",
        Eve="villager",
        left="villager",
        middle="seer",
        right="villager",
    )
    r = night(d, Ann=["Dan", "Cat", "Eve"], Ben=["Eve"])
    assert r.copied is R.TROUBLEMAKER
    assert seen(r, "Ann") == {"Dan": "troublemaker"}
    assert seen(r, "Ben") == {"Ben": "werewolf"}
    want = ("doppelganger", "werewolf", "villager", "robber")
    assert finals(r, "Ann", "Ben", "Cat", "Eve") == want


def test_lone_werewolf_peeks_after_the_doppelganger_drunk() -> None:
    """rules/002 s5: the Doppelganger-drunk swaps at step 1, before the werewolves (step 2), so
    the lone werewolf peeking at that centre card sees the Doppelganger card; the real drunk
    (step 8) comes after the peek."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="drunk",
        Cat="werewolf",
        Dan="villager",
        left="seer",
        middle="villager",
        right="villager",
    )
    r = night(d, Ann=["Ben", "left"], Ben=["middle"], Cat=["left"])
    assert r.copied is R.DRUNK
    assert seen(r, "Ann") == {"Ben": "drunk"}  # the copy is seen; the new card is not
    assert seen(r, "Cat") == {"left": "doppelganger"}
    want = ("seer", "villager", "doppelganger", "drunk")
    assert finals(r, "Ann", "Ben", "left", "middle") == want
    # The real drunk's swap (step 8) comes after the peek (step 2).
    r = night(d, Ann=["Dan"], Ben=["middle"], Cat=["middle"])
    assert seen(r, "Cat") == {"middle": "villager"}
    assert r.final["middle"] is R.DRUNK


def test_doppelganger_werewolf_wakes_with_the_werewolves() -> None:
    """rules/002 s5: a Doppelganger-werewolf wakes with the werewolves; the minion sees it too.
    The dealt werewolf is still the lone werewolf (judged on the deal) and may peek."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="werewolf",
        Cat="minion",
        Dan="villager",
        left="seer",
        middle="villager",
        right="werewolf",
    )
    r = night(d, Ann=["Ben"], Ben=["middle"])
    assert r.copied is R.WEREWOLF
    assert seen(r, "Ann") == {"Ben": "werewolf"}
    assert seen(r, "Ben") == {"Ann": "werewolf", "middle": "villager"}
    assert seen(r, "Cat") == {"Ben": "werewolf", "Ann": "werewolf"}
    assert r.plays_as("Ann") is R.WEREWOLF


def test_doppelganger_werewolf_with_two_werewolves() -> None:
    """rules/002 s5: three players wake as werewolves and all see each other."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="werewolf",
        Cat="werewolf",
        Dan="villager",
        left="seer",
        middle="villager",
        right="villager",
    )
    r = night(d, Ann=["Cat"])
    assert seen(r, "Ann") == {"Cat": "werewolf", "Ben": "werewolf"}
    assert seen(r, "Ben") == {"Cat": "werewolf", "Ann": "werewolf"}
    assert seen(r, "Cat") == {"Ben": "werewolf", "Ann": "werewolf"}


def test_doppelganger_minion_sees_the_werewolves() -> None:
    """rules/002 s5: "If becomes Minion: stays awake ... to see Werewolves"."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="werewolf",
        Cat="minion",
        Dan="villager",
        left="seer",
        middle="villager",
        right="werewolf",
    )
    r = night(d, Ann=["Cat"])
    assert r.copied is R.MINION
    assert seen(r, "Ann") == {"Cat": "minion", "Ben": "werewolf"}
    assert seen(r, "Ben") == {}
    assert seen(r, "Cat") == {"Ben": "werewolf"}


def test_doppelganger_mason_wakes_with_the_masons() -> None:
    """rules/002 s5: a Doppelganger-mason wakes with the masons; all three see each other."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="mason",
        Cat="mason",
        Dan="werewolf",
        left="seer",
        middle="villager",
        right="villager",
    )
    r = night(d, Ann=["Cat"])
    assert r.copied is R.MASON
    assert seen(r, "Ann") == {"Cat": "mason", "Ben": "mason"}
    assert seen(r, "Ben") == {"Cat": "mason", "Ann": "mason"}
    assert seen(r, "Cat") == {"Ben": "mason", "Ann": "mason"}


def test_doppelganger_insomniac_looks_after_the_insomniac() -> None:
    """rules/002 s5 step 9a: the Doppelganger-insomniac checks its own card after the insomniac,
    and sees the card it holds at the end (here the robber's)."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="insomniac",
        Cat="robber",
        Dan="troublemaker",
        Eve="werewolf",
        left="seer",
        middle="villager",
        right="villager",
    )
    r = night(d, Ann=["Ben"], Cat=["Ann"], Dan=["Ben", "Eve"])
    assert r.copied is R.INSOMNIAC
    assert seen(r, "Ann") == {"Ben": "insomniac", "Ann": "robber"}
    assert seen(r, "Ben") == {"Ben": "werewolf"}
    assert seen(r, "Cat") == {"Cat": "doppelganger"}
    looks = [s.actors for s in r.log if s.role is R.INSOMNIAC]
    assert looks == [("Ben",), ("Ann",)]
    assert r.log[-1].actors == ("Ann",)


@pytest.mark.parametrize("model_role", ["villager", "hunter", "tanner"])
def test_doppelganger_copying_a_sleeping_role(model_role: str) -> None:
    """rules/002 s5: copying a role with no night action changes no card."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben=model_role,
        Cat="werewolf",
        left="seer",
        middle="villager" if model_role != "villager" else "robber",
        right="drunk",
    )
    r = night(d, Ann=["Ben"])
    assert r.copied is R(model_role)
    assert seen(r, "Ann") == {"Ben": model_role}
    assert dict(r.final) == dict(d.cards)
    assert r.plays_as("Ann") is R(model_role)


def test_doppelganger_copying_nobody() -> None:
    """rules/002 s7: the Doppelganger's action is optional; copying nobody copies nothing."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="seer",
        Cat="werewolf",
        left="villager",
        middle="villager",
        right="drunk",
    )
    r = night(d, Ann=[])
    assert r.copied is None
    assert seen(r, "Ann") == {}
    assert r.plays_as("Ann") is R.DOPPELGANGER


def test_official_log_follows_section_5() -> None:
    """rules/002 s5: Doppelganger, werewolves, minion, masons, seer, robber, troublemaker,
    drunk, insomniac, Doppelganger-insomniac."""
    d = deal(
        "official",
        Ann="doppelganger",
        Ben="werewolf",
        Cat="minion",
        Dan="mason",
        Eve="mason",
        Fay="seer",
        Gus="robber",
        Hal="troublemaker",
        Ivy="drunk",
        Jon="insomniac",
        left="villager",
        middle="werewolf",
        right="villager",
    )
    r = night(
        d, Ann=["Jon"], Ben=["left"], Fay=["Ben"], Gus=["Cat"], Hal=["Dan", "Eve"], Ivy=["right"]
    )
    steps = [(s.order, s.role, s.actors) for s in r.log]
    assert [o for o, _, _ in steps] == sorted(o for o, _, _ in steps)
    assert [role for _, role, _ in steps] == [
        R.DOPPELGANGER,
        R.WEREWOLF,
        R.MINION,
        R.MASON,
        R.SEER,
        R.ROBBER,
        R.TROUBLEMAKER,
        R.DRUNK,
        R.INSOMNIAC,
        R.INSOMNIAC,
    ]
    assert steps[-1][2] == ("Ann",)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cards_are_only_moved(ruleset: str) -> None:
    """rules/000 s3a: the night moves cards, never creates or loses one."""
    d = deal(
        ruleset,
        Ann="robber",
        Ben="troublemaker",
        Cat="drunk",
        Dan="werewolf",
        Eve="seer",
        left="villager",
        middle="insomniac",
        right="tanner",
    )
    r = night(d, Ann=["Dan"], Ben=["Ann", "Cat"], Cat=["right"], Eve=["left", "right"])
    assert Counter(r.final.values()) == Counter(d.cards.values())
    assert list(r.final) == list(d.positions)
