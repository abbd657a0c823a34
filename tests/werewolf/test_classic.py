"""rules/004, the 1.7.0 game, as FORMAT.md reads it: the killers, every divine role, the
special werewolves, the sheriff, reactions on death, the victory modes and the day's order.
Section IV's key interactions are one parametrised table below."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import day, night, play, refused, table

EIGHT = table(
    "werewolf", "werewolf", "seer", "witch", "guardian", "hunter", "villager", "villager"
)  # Ann Ben (wolves) Cat seer, Dan witch, Eve guardian, Fay hunter, Gus Hal villagers


def nights(**actions: Any) -> dict[str, Any]:
    return night(**actions)


# --- 004 IV: the key interactions, one row each -----------------------------------------------

IV_TABLE = [
    pytest.param(
        table("werewolf", "witch", "guardian", "villager", "villager", "seer"),
        [night(Ann={"kill": "Dan"}, Ben={"save": True}, Cat={"guard": "Dan"})],
        {"dead": ["Dan"]},
        id="guardian-and-witch-on-the-same-player-dies",
    ),
    pytest.param(
        table("wraith_rider", "witch", "villager", "villager", "seer", "werewolf"),
        [night(Ben={"poison": "Ann"})],
        {"dead": ["Ben"]},
        id="witch-poisons-wraith-rider-witch-dies",
    ),
    pytest.param(
        table("wraith_rider", "seer", "villager", "villager", "villager", "werewolf"),
        [night(Ben={"check": "Ann"})],
        {"dead": ["Ben"], "told": {}},
        id="seer-checks-wraith-rider-dies-without-information",
    ),
    pytest.param(
        table("werewolf", "knight", "villager", "villager", "seer", "werewolf"),
        [night(), day(events=[{"duel": {"by": "Ben", "target": "Ann"}}])],
        {"dead": ["Ann"]},
        id="knight-duels-werewolf-it-dies",
    ),
    pytest.param(
        table("hidden_wolf", "knight", "villager", "villager", "seer", "werewolf"),
        [night(), day(events=[{"duel": {"by": "Ben", "target": "Ann"}}])],
        {"dead": ["Ann"]},
        id="knight-duel-ignores-disguise",
    ),
    pytest.param(
        table("wraith_rider", "knight", "villager", "villager", "seer", "werewolf"),
        [night(), day(events=[{"duel": {"by": "Ben", "target": "Ann"}}])],
        {"dead": ["Ann"]},
        id="knight-duel-ignores-counter-injury",
    ),
    pytest.param(
        table("wolf_beauty", "werewolf", "villager", "villager", "seer", "villager", "witch"),
        [night(Ann={"charm": "Cat"}), day(votes={"Dan": "Ann", "Eve": "Ann", "Fay": "Ann"})],
        {"dead": ["Ann", "Cat"]},
        id="wolf-beauty-voted-out-charmed-dies-with-her",
    ),
    pytest.param(
        table("wolf_beauty", "werewolf", "villager", "villager", "seer", "villager", "witch"),
        [night(Ann={"charm": "Cat"}, Gus={"poison": "Ann"})],
        {"dead": ["Ann", "Cat"]},
        id="wolf-beauty-poisoned-charmed-dies-with-her",
    ),
    pytest.param(
        table("white_wolf_king", "werewolf", "villager", "villager", "seer", "villager"),
        [night(), day(events=[{"explode": {"by": "Ann", "target": "Ben"}}])],
        {"dead": ["Ann", "Ben"]},
        id="white-wolf-king-explodes-and-takes-anyone",
    ),
]


@pytest.mark.parametrize(("roles", "phases", "want"), IV_TABLE)
def test_004_section_IV(roles: dict[str, str], phases: list[dict], want: dict[str, Any]) -> None:
    """004 IV, "Key Interaction Rules": each row of the table."""
    entry = play("classic", roles, *phases)["phases"][-1]
    for key, value in want.items():
        assert entry[key] == value


# --- the killers ---------------------------------------------------------------------------


def test_killers_must_agree() -> None:
    """004 III: the werewolves open their eyes together; FORMAT: different names are an error."""
    message = refused("classic", EIGHT, night(Ann={"kill": "Gus"}, Ben={"kill": "Hal"}))
    assert "night 1" in message and "Ann" in message and "Ben" in message


def test_killers_cannot_name_nobody_and_may_hold_off() -> None:
    """FORMAT classic: sending no kill is holding off."""
    assert refused("classic", EIGHT, night(Ann={"kill": "nobody"}))
    entry = play("classic", EIGHT, night())["phases"][0]
    assert entry == {
        "phase": "night 1",
        "dead": [],
        "told": {"Dan": {"attacked": None}},
        "attacked": None,
        "silenced": None,
    }


def test_the_hidden_wolf_wakes_when_the_killers_are_gone() -> None:
    """004 II Hidden Werewolf: out of the kill and "good" to the seer while ordinary werewolves
    live; after that it kills and shows as a werewolf."""
    roles = table("werewolf", "hidden_wolf", "seer", "villager", "villager", "villager", "hunter")
    assert refused("classic", roles, night(Ben={"kill": "Dan"}))
    out = play(
        "classic",
        roles,
        night(Cat={"check": "Ben"}),
        day(votes={"Cat": "Ann", "Dan": "Ann", "Eve": "Ann"}),
        night(Ben={"kill": "Dan"}, Cat={"check": "Ben"}),
    )
    assert out["phases"][0]["told"]["Cat"] == {"seen": {"Ben": "good"}}
    assert out["phases"][2]["told"]["Cat"] == {"seen": {"Ben": "werewolf"}}
    assert out["phases"][2]["dead"] == ["Dan"]


def test_the_stone_ghost_checks_roles_then_kills_alone() -> None:
    """004 II Stone Statue Ghost: investigation while others live; alone, it kills."""
    roles = table("werewolf", "stone_ghost", "seer", "villager", "villager", "villager", "hunter")
    out = play("classic", roles, night(Ben={"check": "Cat"}))
    assert out["phases"][0]["told"]["Ben"] == {"seen": {"Cat": "seer"}}
    assert refused("classic", roles, night(Ben={"kill": "Cat"}))
    out = play(
        "classic",
        roles,
        night(),
        day(votes={"Cat": "Ann", "Dan": "Ann"}),
        night(Ben={"kill": "Dan"}),
    )
    assert out["phases"][2]["dead"] == ["Dan"]
    assert refused(
        "classic", roles, night(), day(votes={"Cat": "Ann"}), night(Ben={"check": "Cat"})
    )


# --- the witch -------------------------------------------------------------------------------


def test_witch_is_told_the_victim_while_she_holds_the_antidote() -> None:
    """004 III: "Witch -> Learns kill target"; FORMAT: while she holds the antidote."""
    out = play(
        "classic",
        EIGHT,
        night(Ann={"kill": "Gus"}, Dan={"save": True}),
        day(),
        night(Ann={"kill": "Hal"}),
    )
    assert out["phases"][0]["told"]["Dan"] == {"attacked": "Gus"}
    assert out["phases"][0]["dead"] == []
    assert "Dan" not in out["phases"][2]["told"]
    assert out["phases"][2]["dead"] == ["Hal"]


def test_each_potion_once_and_one_a_night() -> None:
    """004 II Witch: antidote once, poison once; FORMAT: one potion a night."""
    assert refused(
        "classic", EIGHT, night(Ann={"kill": "Gus"}, Dan={"save": True, "poison": "Ann"})
    )
    twice = [night(Dan={"poison": "Gus"}), day(), night(Dan={"poison": "Hal"})]
    assert refused("classic", EIGHT, *twice)


@pytest.mark.parametrize("value", [False, 1, "Gus"])
def test_save_takes_only_true(value: object) -> None:
    assert refused("classic", EIGHT, night(Ann={"kill": "Gus"}, Dan={"save": value}))


def test_a_save_without_an_attack_is_an_error() -> None:
    assert "nobody was attacked" in refused("classic", EIGHT, night(Dan={"save": True}))


@pytest.mark.parametrize(
    ("option", "night_number", "allowed"),
    [(True, 1, True), (False, 1, False), (True, 2, False)],
)
def test_witch_self_save(option: bool, night_number: int, allowed: bool) -> None:
    """004 House Rule Tips; FORMAT: herself on night 1 only, if the table allows it."""
    phases = [night(), day()] if night_number == 2 else []
    phases.append(night(Ann={"kill": "Dan"}, Dan={"save": True}))
    options = {"witch_self_save_first_night": option}
    if allowed:
        assert play("classic", EIGHT, *phases, options=options)["phases"][-1]["dead"] == []
    else:
        assert refused("classic", EIGHT, *phases, options=options)


def test_witch_cannot_poison_herself() -> None:
    assert refused("classic", EIGHT, night(Dan={"poison": "Dan"}))


def test_poison_kills_through_the_guard() -> None:
    """004 II Guardian: "Doesn't protect from poison"."""
    out = play("classic", EIGHT, night(Dan={"poison": "Gus"}, Eve={"guard": "Gus"}))
    assert out["phases"][0]["dead"] == ["Gus"]


# --- the guardian ----------------------------------------------------------------------------


def test_guard_saves_from_the_attack_and_may_guard_self() -> None:
    out = play("classic", EIGHT, night(Ann={"kill": "Eve"}, Eve={"guard": "Eve"}))
    assert out["phases"][0]["dead"] == []


@pytest.mark.parametrize(("repeat", "allowed"), [(False, False), (True, True)])
def test_guardian_repeat_option(repeat: bool, allowed: bool) -> None:
    """004 II Guardian: not the same person consecutively, unless the house rule allows it."""
    phases = [night(Eve={"guard": "Gus"}), day(), night(Eve={"guard": "Gus"})]
    options = {"guardian_repeat": repeat}
    if allowed:
        assert play("classic", EIGHT, *phases, options=options)
    else:
        assert "guarded Gus the night before" in refused("classic", EIGHT, *phases, options=options)


# --- reactions on death ---------------------------------------------------------------------


def test_hunter_shoots_when_killed_by_the_wolves() -> None:
    out = play(
        "classic",
        EIGHT,
        {"night": {"actions": {"Ann": {"kill": "Fay"}}, "on_death": {"Fay": {"shoot": "Ann"}}}},
    )
    assert out["phases"][0]["dead"] == ["Ann", "Fay"]


def test_poisoned_hunter_cannot_shoot() -> None:
    """004 II Hunter: "Cannot shoot when poisoned"."""
    message = refused(
        "classic",
        EIGHT,
        {"night": {"actions": {"Dan": {"poison": "Fay"}}, "on_death": {"Fay": {"shoot": "Ann"}}}},
    )
    assert "Fay" in message and "poison" in message


def test_a_player_who_may_react_and_has_no_entry_does_not() -> None:
    out = play("classic", EIGHT, night(Ann={"kill": "Fay"}))
    assert out["phases"][0]["dead"] == ["Fay"]


def test_a_reaction_of_someone_who_did_not_die_is_an_error() -> None:
    assert refused("classic", EIGHT, {"night": {"on_death": {"Fay": {"shoot": "Ann"}}}})


@pytest.mark.parametrize(("option", "may_shoot"), [(True, True), (False, False)])
def test_wolf_king_killed_by_the_pack(option: bool, may_shoot: bool) -> None:
    """004 House Rule Tips: whether the werewolf king may shoot when killed by werewolves."""
    roles = table("wolf_king", "werewolf", "seer", "villager", "villager", "villager", "witch")
    phase = {
        "night": {
            "actions": {"Ben": {"kill": "Ann"}, "Ann": {"kill": "Ann"}},
            "on_death": {"Ann": {"shoot": "Cat"}},
        }
    }
    options = {"wolf_king_shoots_if_killed_by_wolves": option}
    if may_shoot:
        assert play("classic", roles, phase, options=options)["phases"][0]["dead"] == ["Ann", "Cat"]
    else:
        assert refused("classic", roles, phase, options=options)


def test_wolf_king_cannot_shoot_after_exploding() -> None:
    roles = table("wolf_king", "werewolf", "seer", "villager", "villager", "villager", "witch")
    explode = {
        "day": {"events": [{"explode": {"by": "Ann"}}], "on_death": {"Ann": {"shoot": "Cat"}}}
    }
    assert refused("classic", roles, night(), explode)


def test_shots_chain_in_seat_order_each_resolved_whole() -> None:
    """FORMAT: the shots in seat order; a player shot this way who may shoot, shoots too."""
    roles = table(
        "wolf_king", "werewolf", "hunter", "villager", "villager", "villager", "witch", "seer"
    )
    vote = {"Cat": "Ann", "Dan": "Ann", "Eve": "Ann", "Fay": "Ann"}
    out = play(
        "classic",
        roles,
        night(),
        {"day": {"votes": vote, "on_death": {"Ann": {"shoot": "Cat"}, "Cat": {"shoot": "Ben"}}}},
    )
    assert out["phases"][1]["dead"] == ["Ann", "Ben", "Cat"]
    assert out["winner"] == "good"


def test_a_shot_after_the_win_is_an_error() -> None:
    """FORMAT Readings: a reaction that could only take effect after the game was won."""
    roles = table("werewolf", "hunter", "villager", "seer")
    assert refused(
        "classic",
        roles,
        night(),
        {"day": {"votes": {"Ann": "Ann", "Ben": "Ann"}, "on_death": {"Ann": {"shoot": "Ben"}}}},
    )


# --- the sheriff --------------------------------------------------------------------------------


def test_sheriff_elected_on_day_one_and_weighs_one_and_a_half() -> None:
    """004 III: "sheriff has 1.5 vote power"."""
    out = play(
        "classic",
        EIGHT,
        night(),
        day(
            sheriff_votes={"Ann": "Cat", "Cat": "Cat", "Dan": "Eve"},
            votes={"Cat": "Ann", "Ann": "Gus", "Ben": "Gus"},
        ),
    )
    entry = out["phases"][1]
    assert entry["sheriff"] == "Cat"
    assert entry["tally"] == {"Ann": 1.5, "Gus": 2}
    assert entry["eliminated"] == "Gus"


def test_a_tie_in_the_election_elects_no_one() -> None:
    out = play("classic", EIGHT, night(), day(sheriff_votes={"Ann": "Cat", "Cat": "Ann"}))
    assert out["phases"][1]["sheriff"] is None


def test_sheriff_breaks_a_tie_or_no_one_is_eliminated() -> None:
    """004 III: "if there is a tie, the sheriff has the final say"."""
    base = {
        "sheriff_votes": {"Cat": "Cat"},
        "votes": {"Ann": "Gus", "Ben": "Hal", "Gus": "Hal", "Hal": "Gus"},
    }
    out = play("classic", EIGHT, night(), day(**base, tie_break="Hal"))
    assert out["phases"][1]["eliminated"] == "Hal"
    out = play("classic", EIGHT, night(), day(**base))
    assert out["phases"][1]["eliminated"] is None
    assert out["phases"][1]["tally"] == {"Gus": 2, "Hal": 2}
    out = play("classic", EIGHT, night(), day(**base, tie_break=None))
    assert out["phases"][1]["eliminated"] is None
    assert refused("classic", EIGHT, night(), day(**base, tie_break="Ann"))


def test_a_tie_break_without_a_tie_or_a_sheriff_is_an_error() -> None:
    assert refused("classic", EIGHT, night(), day(votes={"Ann": "Gus"}, tie_break="Gus"))
    tie = {"Ann": "Gus", "Ben": "Hal"}
    assert refused("classic", EIGHT, night(), day(votes=tie, tie_break="Gus"))


def test_the_sheriff_election_is_on_day_one_only() -> None:
    assert refused("classic", EIGHT, night(), day(), night(), day(sheriff_votes={"Ann": "Cat"}))


def test_the_badge_passes_on_death_or_is_lost() -> None:
    """004 III Daybreak: "Sheriff election/transfer"; FORMAT: {"badge": NAME} or lost."""
    elected = day(sheriff_votes={"Gus": "Gus"})
    out = play(
        "classic",
        EIGHT,
        night(),
        elected,
        {"night": {"actions": {"Ann": {"kill": "Gus"}}, "on_death": {"Gus": {"badge": "Hal"}}}},
        day(),
    )
    assert out["phases"][3]["sheriff"] == "Hal"
    out = play("classic", EIGHT, night(), elected, night(Ann={"kill": "Gus"}), day())
    assert out["phases"][3]["sheriff"] is None
    assert refused(
        "classic",
        EIGHT,
        night(),
        elected,
        {"night": {"actions": {"Ann": {"kill": "Hal"}}, "on_death": {"Hal": {"badge": "Gus"}}}},
    )


def test_a_new_sheriff_weighs_in_the_same_day() -> None:
    """FORMAT: the badge passes at once, before the next events and the vote."""
    roles = table("werewolf", "knight", "villager", "villager", "villager", "seer", "werewolf")
    out = play(
        "classic",
        roles,
        night(),
        {
            "day": {
                "sheriff_votes": {"Ben": "Ben"},
                "events": [{"duel": {"by": "Ben", "target": "Cat"}}],
                "votes": {"Dan": "Ann"},
                "on_death": {"Ben": {"badge": "Dan"}},
            }
        },
    )
    entry = out["phases"][1]
    assert entry["dead"] == ["Ann", "Ben"]
    assert entry["tally"] == {"Ann": 1.5}
    assert entry["sheriff"] == "Dan"


# --- the idiot, the grave keeper, the silencer --------------------------------------------------


def test_idiot_survives_the_first_elimination_and_votes_no_more() -> None:
    """004 II Idiot: when voted out, retains the game but loses voting rights."""
    roles = table("werewolf", "idiot", "villager", "villager", "seer", "villager", "werewolf")
    vote_idiot = {"Ann": "Ben", "Cat": "Ben"}
    out = play("classic", roles, night(), day(votes=vote_idiot))
    entry = out["phases"][1]
    assert entry["idiot_revealed"] == "Ben" and entry["eliminated"] == "Ben"
    assert entry["dead"] == []
    assert refused(
        "classic", roles, night(), day(votes=vote_idiot), night(), day(votes={"Ben": "Ann"})
    )
    out = play("classic", roles, night(), day(votes=vote_idiot), night(), day(votes=vote_idiot))
    assert out["phases"][3]["dead"] == ["Ben"]
    assert "idiot_revealed" not in out["phases"][3]


def test_grave_keeper_reads_yesterdays_eliminated() -> None:
    """004 II Grave Keeper; FORMAT: the hidden wolf shows "werewolf" there, a revealed idiot
    counts."""
    roles = table(
        "hidden_wolf", "werewolf", "grave_keeper", "idiot", "villager", "villager", "seer"
    )
    out = play(
        "classic",
        roles,
        night(),
        day(votes={"Cat": "Ann", "Dan": "Ann"}),
        night(),
        day(votes={"Cat": "Dan"}),
        night(),
        day(),
        night(),
    )
    assert out["phases"][0]["told"] == {}
    assert out["phases"][2]["told"]["Cat"] == {"seen": {"Ann": "werewolf"}}
    assert out["phases"][4]["told"]["Cat"] == {"seen": {"Dan": "good"}}
    assert "Cat" not in out["phases"][6]["told"]


def test_silencer_silences_another_player() -> None:
    roles = table("werewolf", "silencer", "villager", "villager", "seer")
    assert play("classic", roles, night(Ben={"silence": "Cat"}))["phases"][0]["silenced"] == "Cat"
    assert refused("classic", roles, night(Ben={"silence": "Ben"}))


# --- the day's order ----------------------------------------------------------------------------


def test_explosion_ends_the_day_with_no_vote() -> None:
    """004 II Common Werewolf: "immediately ending speech and entering night"."""
    roles = table("werewolf", "werewolf", "villager", "villager", "seer", "villager", "hunter")
    boom = [{"explode": {"by": "Ann"}}]
    out = play("classic", roles, night(), day(events=boom))
    assert out["phases"][1]["dead"] == ["Ann"]
    assert out["phases"][1]["tally"] == {} and out["phases"][1]["eliminated"] is None
    assert refused("classic", roles, night(), day(events=boom, votes={"Cat": "Ben"}))
    assert refused("classic", roles, night(), day(events=[*boom, *boom]))
    assert refused(
        "classic", roles, night(), day(events=[{"explode": {"by": "Ann", "target": "Cat"}}])
    )


@pytest.mark.parametrize(("ends", "eliminated"), [(True, None), (False, "Cat")])
def test_knight_duel_may_end_the_day(ends: bool, eliminated: str | None) -> None:
    """004 House Rule Tips: "Process after Knight duel (continue voting/directly to night)"."""
    roles = table("werewolf", "knight", "villager", "villager", "seer", "villager", "werewolf")
    phase = day(events=[{"duel": {"by": "Ben", "target": "Ann"}}], votes={"Dan": "Cat"})
    options = {"knight_duel_ends_day": ends}
    if ends:
        assert refused("classic", roles, night(), phase, options=options)
    else:
        out = play("classic", roles, night(), phase, options=options)
        assert out["phases"][1]["eliminated"] == eliminated


def test_knight_duelling_a_good_player_dies_once_a_game() -> None:
    roles = table("werewolf", "knight", "villager", "villager", "seer", "villager", "werewolf")
    out = play("classic", roles, night(), day(events=[{"duel": {"by": "Ben", "target": "Cat"}}]))
    assert out["phases"][1]["dead"] == ["Ben"]
    assert refused(
        "classic", roles, night(), day(events=[{"duel": {"by": "Ben", "target": "Ben"}}])
    )


# --- victory ------------------------------------------------------------------------------------


def test_side_victory_when_every_divine_is_out() -> None:
    """004 V.1: "Good-Clergy faction all eliminated" wins for the werewolves."""
    roles = table("werewolf", "werewolf", "seer", "villager", "villager", "villager")
    out = play("classic", roles, night(Ann={"kill": "Cat"}))
    assert out["winner"] == "werewolves"
    assert out["winners"] == ["Ann", "Ben"]
    out = play("classic", roles, night(Ann={"kill": "Cat"}), options={"victory": "total"})
    assert out["winner"] is None


def test_a_group_never_dealt_does_not_count() -> None:
    """FORMAT classic: with no commoner dealt, only the divines' loss wins for the werewolves."""
    roles = table("werewolf", "seer", "witch", "guardian", "hunter")
    assert play("classic", roles, night(Ann={"kill": "Ben"}))["winner"] is None


def test_nobody_left_alive_means_nobody_wins() -> None:
    roles = table("werewolf", "hunter", "villager", "seer")
    out = play(
        "classic",
        roles,
        night(Ann={"kill": "Cat"}),
        {
            "day": {
                "votes": {"Ann": "Ben", "Ben": "Ben", "Dan": "Ben"},
                "on_death": {"Ben": {"shoot": "Ann"}},
            }
        },
        options={"victory": "total"},
    )
    assert out["phases"][1]["dead"] == ["Ann", "Ben"]
    assert out["winner"] == "good"
    roles = table("werewolf", "witch", "villager", "villager")
    out = play(
        "classic",
        roles,
        night(Ann={"kill": "Cat"}),
        day(votes={"Ann": "Dan", "Ben": "Dan"}),
        night(Ann={"kill": "Ben"}, Ben={"poison": "Ann"}),
        options={"victory": "total"},
    )
    assert out["winner"] == "none"
    assert out["winners"] == []


def test_win_in_the_night_forbids_the_day() -> None:
    roles = table("werewolf", "werewolf", "seer", "villager", "villager", "villager")
    assert refused("classic", roles, night(Ann={"kill": "Cat"}), day())


@pytest.mark.parametrize(
    "options",
    [{"victory": "all"}, {"guardian_repeat": 1}, {"moon": True}],
    ids=["bad-value", "number-for-bool", "unknown"],
)
def test_bad_options(options: dict) -> None:
    assert refused("classic", EIGHT, options=options)


@pytest.mark.parametrize(
    "roles",
    [
        table("werewolf", "seer", "seer", "villager"),
        table("werewolf", "werewolf", "wolf_king", "wolf_king", "villager"),
        table("villager", "villager", "seer", "witch"),
        table("werewolf", "werewolf", "hidden_wolf", "stone_ghost"),
    ],
    ids=["two-seers", "two-wolf-kings", "no-werewolf", "no-good"],
)
def test_illegal_classic_deals(roles: dict[str, str]) -> None:
    assert refused("classic", roles)
