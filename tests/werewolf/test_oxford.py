"""rules/003, the Oxford game, as FORMAT.md reads it: hits and injuries, the super werewolf,
wolfsbane and traps, crossbows, execution calls with the mayor, lovers and rivals, and the
winning conditions with their living winners."""

from __future__ import annotations

import pytest

from .helpers import day, night, play, refused, table

FIRST = night()  # 003: the first night is for meeting only
VILLAGE = table(
    "werewolf",
    "werewolf",
    "wolfsbane",
    "trapper",
    "mayor",
    "cultist",
    "cultist",
    "villager",
    "vigilante",
)


def second_night(**actions: object) -> list[dict]:
    return [FIRST, day(), night(**actions)]


def test_first_night_tells_the_pack_and_the_cult() -> None:
    """003 Werewolf, Cultists, Dark Villager: they identify each other on the first night."""
    roles = table("werewolf", "dark_villager", "cultist", "villager", "werewolf", "cultist")
    out = play("oxford", roles, FIRST)
    pack = {"werewolves": ["Ann", "Eve"], "dark_villager": "Ben"}
    assert out["phases"][0]["told"] == {
        "Ann": pack,
        "Ben": pack,
        "Eve": pack,
        "Cat": {"cultists": ["Cat", "Fay"]},
        "Fay": {"cultists": ["Cat", "Fay"]},
    }
    assert "injured" not in out["phases"][0]


def test_no_actions_on_the_first_night() -> None:
    assert "night 1" in refused("oxford", VILLAGE, night(Cat={"protect": "Eve"}))


def test_one_maul_injures_and_two_kill() -> None:
    """003 Werewolf: one werewolf's attack is a telltale injury, two kill."""
    out = play("oxford", VILLAGE, *second_night(Ann={"maul": "Hal"}, Ben={"maul": "Fay"}))
    assert out["phases"][2]["injured"] == ["Fay", "Hal"]
    assert out["phases"][2]["dead"] == []
    out = play("oxford", VILLAGE, *second_night(Ann={"maul": "Hal"}, Ben={"maul": "Hal"}))
    assert out["phases"][2]["dead"] == ["Hal"]
    assert out["phases"][2]["injured"] == []
    assert out["phases"][2]["told"] == {}


def test_the_lone_werewolf_is_a_super_werewolf() -> None:
    """003 Werewolf: "the sole surviving lone wolf ... gets one hit kills"."""
    roles = table("werewolf", "villager", "villager", "villager", "villager", "villager")
    out = play("oxford", roles, *second_night(Ann={"maul": "Cat"}))
    assert out["phases"][2]["dead"] == ["Cat"]


def test_a_werewolf_may_maul_a_fellow_werewolf_or_itself() -> None:
    out = play("oxford", VILLAGE, *second_night(Ann={"maul": "Ben"}, Ben={"maul": "Ben"}))
    assert out["phases"][2]["dead"] == ["Ben"]


def test_wolfsbane_blocks_the_maul_but_not_the_trap() -> None:
    """003 Wolfsbane, Trapper: a protected player cannot be attacked, but the trap at their
    door still hurts the werewolf."""
    out = play(
        "oxford",
        VILLAGE,
        *second_night(
            Ann={"maul": "Hal"}, Ben={"maul": "Hal"}, Cat={"protect": "Hal"}, Dan={"trap": "Hal"}
        ),
    )
    entry = out["phases"][2]
    assert entry["dead"] == []
    assert entry["injured"] == ["Ann", "Ben"]


def test_two_traps_kill_the_werewolf() -> None:
    roles = table("werewolf", "werewolf", "trapper", "trapper", "villager", "villager", "mayor")
    out = play(
        "oxford",
        roles,
        *second_night(Ann={"maul": "Eve"}, Cat={"trap": "Eve"}, Dan={"trap": "Eve"}),
    )
    entry = out["phases"][2]
    assert entry["dead"] == ["Ann"]
    assert entry["injured"] == ["Eve"]


def test_a_trap_and_a_maul_on_a_werewolf_kill_it() -> None:
    out = play(
        "oxford",
        VILLAGE,
        *second_night(Ann={"maul": "Ben"}, Ben={"maul": "Hal"}, Dan={"trap": "Hal"}),
    )
    assert out["phases"][2]["dead"] == ["Ben"]
    assert out["phases"][2]["injured"] == ["Hal"]


def test_wolfsbane_protects_another_player() -> None:
    """003 Wolfsbane: "you cannot protect yourself" while another wolfsbane lives."""
    roles = table("werewolf", "werewolf", "wolfsbane", "wolfsbane", "villager", "villager", "mayor")
    assert "Cat" in refused("oxford", roles, *second_night(Cat={"protect": "Cat"}))


def test_a_lone_wolfsbane_protects_itself_on_alternate_nights() -> None:
    """003 Wolfsbane: "the lone wolfsbane will be allowed to protect zirself on alternating
    night phases"; FORMAT: not on two nights in a row."""
    phases = [*second_night(Cat={"protect": "Cat"}), day()]
    assert refused("oxford", VILLAGE, *phases, night(Cat={"protect": "Cat"}))
    out = play(
        "oxford",
        VILLAGE,
        *phases,
        night(Cat={"protect": "Eve"}),
        day(),
        night(Cat={"protect": "Cat"}),
    )
    assert out["phases"][-1]["dead"] == []


def test_the_wolfsbane_may_shield_the_same_other_player_every_night() -> None:
    phases = [*second_night(Cat={"protect": "Eve"}), day(), night(Cat={"protect": "Eve"})]
    assert play("oxford", VILLAGE, *phases)["phases"][-1]["dead"] == []


def test_the_vigilante_fires_once() -> None:
    """003 Villager Vigilante: one arrow."""
    shot = {"shoot": {"by": "Ivy", "target": "Ann"}}
    out = play("oxford", VILLAGE, FIRST, day(events=[shot]))
    assert out["phases"][1]["dead"] == ["Ann"]
    again = {"shoot": {"by": "Ivy", "target": "Ben"}}
    assert "Ivy" in refused("oxford", VILLAGE, FIRST, day(events=[shot, again]))


def test_crossbows_go_to_the_werewolf_side_only() -> None:
    """003 Werewolf Vigilante, Dark Villager: Fate may arm a werewolf or the dark villager."""
    assert refused("oxford", VILLAGE, crossbows=["Hal"])
    out = play(
        "oxford",
        VILLAGE,
        FIRST,
        day(events=[{"shoot": {"by": "Ben", "target": "Ann"}}]),
        crossbows=["Ben"],
    )
    assert out["phases"][1]["dead"] == ["Ann"]
    assert refused(
        "oxford", VILLAGE, FIRST, day(events=[{"shoot": {"by": "Ann", "target": "Hal"}}])
    )


def test_execution_call_counts_the_mayor_twice_and_a_tie_acquits() -> None:
    """003 The Local Justice System: a majority is needed, "a tie goes to the runner"; 003
    Mayor: the vote counts double."""
    # Nine alive, the mayor (Eve) counts two: ten votes. Five yes against five no acquits.
    call = {"accused": "Hal", "by": "Ann", "second": "Ben", "yes": ["Ann", "Ben", "Cat", "Eve"]}
    out = play("oxford", VILLAGE, FIRST, day(events=[{"call": call}]))
    assert out["phases"][1]["calls"] == [{"accused": "Hal", "yes": 5, "no": 5, "executed": False}]
    call["yes"] = ["Ann", "Ben", "Cat", "Eve", "Hal"]  # the accused may open their fist
    out = play("oxford", VILLAGE, FIRST, day(events=[{"call": call}]))
    assert out["phases"][1]["calls"][0] == {"accused": "Hal", "yes": 6, "no": 4, "executed": True}
    assert out["phases"][1]["dead"] == ["Hal"]


@pytest.mark.parametrize(
    "call",
    [
        {"accused": "Hal", "by": "Hal", "second": "Ben", "yes": []},
        {"accused": "Hal", "by": "Ann", "second": "Ann", "yes": []},
        {"accused": "Hal", "by": "Ann", "second": "Ben", "yes": ["Zed"]},
        {"accused": "Hal", "by": "Ann", "second": "Ben", "yes": ["Ann", "Ann"]},
        {"accused": "Hal", "by": "Ann", "second": "Ben"},
    ],
    ids=["accuses-self", "seconds-self", "stranger-votes", "votes-twice", "no-yes"],
)
def test_malformed_calls_are_errors(call: dict) -> None:
    assert refused("oxford", VILLAGE, FIRST, day(events=[{"call": call}]))


def test_lovers_die_together() -> None:
    """003 Lovers: "If your lover dies ... you will kill yourself too"."""
    out = play("oxford", VILLAGE, FIRST, day(events=[{"smite": "Hal"}]), lovers=[["Hal", "Cat"]])
    assert out["phases"][1]["dead"] == ["Cat", "Hal"]


def test_star_crossed_lovers_win_alone_when_the_last_two() -> None:
    """003 Star-Crossed Lovers: "The only way you two can be together ... is if everyone else
    is dead"."""
    roles = table("werewolf", "villager", "villager", "villager")
    out = play(
        "oxford",
        roles,
        FIRST,
        day(events=[{"smite": "Cat"}, {"smite": "Dan"}]),
        lovers=[["Ann", "Ben"]],
    )
    assert out["winner"] == "lovers"
    assert out["winners"] == ["Ann", "Ben"]


def test_star_crossed_lovers_do_not_win_with_their_side() -> None:
    """FORMAT oxford: winners leave out any star-crossed lover (here the dark villager's)."""
    roles = table("werewolf", "dark_villager", "villager", "villager", "villager", "mayor")
    out = play(
        "oxford",
        roles,
        FIRST,
        day(events=[{"smite": "Ann"}]),
        lovers=[["Ben", "Cat"]],
    )
    assert out["winner"] == "village"
    assert out["winners"] == ["Dan", "Eve", "Fay"]
    assert out["alive"] == ["Ben", "Cat", "Dan", "Eve", "Fay"]


def test_living_rivals_duel_instead_of_winning() -> None:
    """003 Rivals: both alive at the end, they duel as Fate decides (FORMAT "duel")."""
    roles = table("werewolf", "villager", "villager", "villager", "villager", "mayor")
    out = play("oxford", roles, FIRST, day(events=[{"smite": "Ann"}]), rivals=[["Eve", "Cat"]])
    assert out["winner"] == "village"
    assert out["winners"] == ["Ben", "Dan", "Fay"]
    assert out["duel"] == [["Cat", "Eve"]]


def test_no_duel_key_while_the_game_goes_on() -> None:
    out = play("oxford", VILLAGE, FIRST, rivals=[["Eve", "Cat"]])
    assert "duel" not in out


def test_winners_are_the_living_members_and_the_dark_villager_loses_alive() -> None:
    """003 Objective (survival first), Dark Villager (executed when the werewolves are gone);
    FORMAT: not listed as dead."""
    roles = table("werewolf", "dark_villager", "villager", "villager", "mayor", "villager")
    out = play("oxford", roles, FIRST, day(events=[{"smite": "Cat"}, {"smite": "Ann"}]))
    assert out["winner"] == "village"
    assert out["winners"] == ["Dan", "Eve", "Fay"]
    assert "Ben" in out["alive"]


def test_werewolves_win_when_they_hold_the_votes_and_no_crossbow_is_loaded() -> None:
    """003 Winning & Losing, FORMAT: the village can no longer stop them."""
    roles = table("werewolf", "werewolf", "villager", "villager", "villager", "vigilante")
    shot = {"shoot": {"by": "Fay", "target": "Eve"}}
    out = play("oxford", roles, FIRST, day(events=[{"smite": "Cat"}]))
    assert out["winner"] is None  # 2 against 3
    out = play("oxford", roles, FIRST, day(events=[{"smite": "Cat"}, {"smite": "Dan"}]))
    assert out["winner"] is None  # 2 against 2, but the vigilante's crossbow is loaded
    out = play("oxford", roles, FIRST, day(events=[{"smite": "Cat"}, shot]))
    assert out["winner"] == "werewolves"
    assert out["winners"] == ["Ann", "Ben"]


def test_the_mayor_counts_twice_against_the_werewolves() -> None:
    roles = table("werewolf", "werewolf", "mayor", "villager")
    assert play("oxford", roles, FIRST)["winner"] is None  # 2 votes against 3
    out = play("oxford", table("werewolf", "werewolf", "villager", "villager"), FIRST)
    assert out["winner"] == "werewolves"  # checked after night 1 as after every night


def test_the_win_is_checked_after_each_event() -> None:
    """FORMAT oxford: checked after each day event; an event after the win is an error."""
    roles = table("werewolf", "villager", "villager", "villager", "mayor")
    assert refused("oxford", roles, FIRST, day(events=[{"smite": "Ann"}, {"smite": "Ben"}]))


@pytest.mark.parametrize(
    ("roles", "extra"),
    [
        (table("werewolf", "mayor", "mayor", "villager"), {}),
        (table("werewolf", "trapper", "trapper", "trapper"), {}),
        (table("werewolf", "villager", "villager", "villager"), {"lovers": [["Ann", "Ann"]]}),
        (
            table("werewolf", "villager", "villager", "villager", "villager", "villager"),
            {"lovers": [["Ann", "Ben"]], "rivals": [["Ben", "Cat"]]},
        ),
        (
            table(
                "werewolf", "villager", "villager", "villager", "villager", "villager", "cultist"
            ),
            {"lovers": [["Ann", "Ben"], ["Cat", "Dan"], ["Eve", "Fay"]]},
        ),
        (table("villager", "villager", "villager", "villager"), {}),
    ],
    ids=["two-mayors", "three-trappers", "self-lover", "two-pairs", "three-lover-pairs", "no-wolf"],
)
def test_illegal_oxford_deals(roles: dict[str, str], extra: dict) -> None:
    assert refused("oxford", roles, **extra)
