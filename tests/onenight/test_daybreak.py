"""One Night's Daybreak in the official ruleset: each role, the shields, the artifacts, the
centre werewolf card, the wake order and the vote (docs/rules.md, "Daybreak", which names each
ruling's source: the onenightultimate.com role pages, the howdoyouplayit.com and
thegioiboardgame.vn rule summaries, and our choices where they are silent)."""

from __future__ import annotations

import pytest

from games.families.onenight.engine import (
    CENTRE_WOLF,
    IllegalActionError,
    InvalidDeckError,
    InvalidPlayersError,
    Role,
    Ruleset,
    action_rule,
    deal_cards,
    make_deal,
    play_game,
    resolve_night,
    role_limits,
    validate_deck,
    validate_players,
)
from games.families.onenight.engine.artifacts import Artifact
from games.families.onenight.engine.messages import night_report, role_message
from games.families.onenight.engine.roles import EXPANSION_ROLES, NIGHTS, own_step
from games.families.onenight.engine.roles_vampire import VAMPIRE_ROLES

R = Role
OFFICIAL = Ruleset.OFFICIAL


def deal(artifacts: list[Artifact] | None = None, **cards: str):  # type: ignore[no-untyped-def]
    players = [n for n in cards if n not in ("left", "middle", "right", CENTRE_WOLF)]
    return make_deal(OFFICIAL, players, cards, artifacts=artifacts)


def final(result, *positions: str) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    return tuple(result.final[p].value for p in positions)


def seen(result, player: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {pos: card.value for pos, card in result.seen[player].items()}


BASE = dict(left="villager", middle="hunter", right="villager")

# --- The deck -------------------------------------------------------------------------------


@pytest.mark.parametrize("role", sorted(EXPANSION_ROLES))
def test_expansion_roles_are_one_each_and_vampire_s_official_only(role: Role) -> None:
    """The expansions' cards are single cards. A house table may add Daybreak's and the
    Prince (docs/rules.md 8a.8), not Vampire's (they change how the game is won)."""
    assert role_limits(OFFICIAL)[role] == 1
    if role in VAMPIRE_ROLES:
        assert role not in role_limits(Ruleset.HOUSE)
    else:
        assert role_limits(Ruleset.HOUSE)[role] == 1


def test_alpha_wolf_brings_the_centre_werewolf_card() -> None:
    """Daybreak, Alpha Wolf (howdoyouplayit.com): one more werewolf card, set apart."""
    cards = [R.ALPHA_WOLF, R.WEREWOLF, R.SEER, R.ROBBER, R.VILLAGER, R.TANNER, R.DRUNK]
    assert sum(validate_deck(OFFICIAL, cards, 3).values()) == 7
    with pytest.raises(InvalidDeckError, match="3 players need 7 cards"):
        validate_deck(OFFICIAL, cards[:-1], 3)
    no_wolf = [R.ALPHA_WOLF, R.VILLAGER, R.SEER, R.ROBBER, R.VILLAGER, R.TANNER, R.DRUNK]
    with pytest.raises(InvalidDeckError, match="werewolf card set apart"):
        validate_deck(OFFICIAL, no_wolf, 3)
    dealt = deal_cards(OFFICIAL, ["Ann", "Ben", "Cat"], cards)
    assert dealt.cards[CENTRE_WOLF] is R.WEREWOLF
    assert sorted(dealt.cards.values()) == sorted(cards)
    with pytest.raises(InvalidDeckError, match="centre_wolf"):
        deal(Ann="alpha_wolf", Ben="seer", Cat="villager", **BASE)
    with pytest.raises(InvalidDeckError, match="must be a werewolf"):
        deal(Ann="alpha_wolf", Ben="seer", Cat="villager", centre_wolf="tanner", **BASE)
    with pytest.raises(InvalidPlayersError, match="centre card"):
        validate_players(["Ann", "Ben", "centre_wolf"])


# --- Each role ------------------------------------------------------------------------------


def test_sentinel_shield_stops_looks_and_moves() -> None:
    """Daybreak, Sentinel (onenightultimate.com/?p=43; thegioiboardgame.vn): a shielded card is
    neither looked at nor moved: the seer sees nothing, the robber and troublemaker swap
    nothing."""
    d = deal(Ann="sentinel", Ben="werewolf", Cat="seer", Dan="robber", Eve="troublemaker", **BASE)
    r = resolve_night(d, {"Ann": ["Ben"], "Cat": ["Ben"], "Dan": ["Ben"], "Eve": ["Ben", "Ann"]})
    assert r.shields == ("Ben",)
    assert seen(r, "Cat") == {} and seen(r, "Dan") == {}
    assert dict(r.final) == dict(d.cards)
    assert "shield" in night_report(r, "Cat")[0]
    assert "shield" in night_report(r, "Dan")[0]
    assert "shield" in night_report(r, "Eve")[0]


def test_shield_stops_the_drunk_and_the_insomniac_on_their_own_card() -> None:
    """thegioiboardgame.vn (Daybreak rules): a shield on the drunk's card stops the compulsory
    swap; a shielded insomniac cannot look at their own card."""
    d = deal(Ann="sentinel", Ben="drunk", Cat="insomniac", **BASE)
    r = resolve_night(d, {"Ann": ["Ben"], "Ben": ["left"]})
    assert final(r, "Ben", "left") == ("drunk", "villager")
    r = resolve_night(d, {"Ann": ["Cat"], "Ben": ["left"]})
    assert seen(r, "Cat") == {}
    assert "shield" in night_report(r, "Cat")[0]


def test_the_doppelganger_cannot_copy_a_shielded_card() -> None:
    """Our ruling (docs/rules.md): the sentinel wakes first, so the shield is down when the
    Doppelganger looks; a shielded card cannot be looked at: it copies nothing."""
    d = deal(Ann="sentinel", Ben="seer", Cat="doppelganger", **BASE)
    r = resolve_night(d, {"Ann": ["Ben"], "Cat": ["Ben"]})
    assert r.copied is None and r.plays_as("Cat") is R.DOPPELGANGER


def test_alpha_wolf_makes_a_werewolf_of_a_non_werewolf() -> None:
    """Daybreak, Alpha Wolf (howdoyouplayit.com): wakes with the werewolves, then swaps the
    centre werewolf card with a non-werewolf's card."""
    d = deal(Ann="alpha_wolf", Ben="werewolf", Cat="seer", centre_wolf="werewolf", **BASE)
    r = resolve_night(d, {"Ann": ["Cat"]})
    assert final(r, "Cat", CENTRE_WOLF) == ("werewolf", "seer")
    assert seen(r, "Ann") == {"Ben": "werewolf"} and seen(r, "Ben") == {"Ann": "werewolf"}
    with pytest.raises(IllegalActionError, match="werewolf already"):
        resolve_night(d, {"Ann": ["Ben"]})
    with pytest.raises(IllegalActionError):
        resolve_night(d, {"Ann": []})  # the swap is compulsory
    with pytest.raises(IllegalActionError):
        resolve_night(d, {"Cat": [CENTRE_WOLF]})  # only the alpha wolf moves it


def test_mystic_wolf_wakes_with_the_werewolves_then_looks() -> None:
    """Daybreak, Mystic Wolf (howdoyouplayit.com): with the werewolves, then one look."""
    d = deal(Ann="mystic_wolf", Ben="werewolf", Cat="seer", **BASE)
    r = resolve_night(d, {"Ann": ["Cat"]})
    assert seen(r, "Ann") == {"Ben": "werewolf", "Cat": "seer"}
    assert seen(r, "Ben") == {"Ann": "werewolf"}
    assert "werewolves tonight" in night_report(r, "Ann")[0]


def test_dream_wolf_sleeps_but_is_seen() -> None:
    """Daybreak, Dream Wolf (howdoyouplayit.com): does not wake; shows its thumb to the
    werewolves (and the minion); a werewolf with a dream wolf is not alone (our ruling)."""
    d = deal(Ann="dream_wolf", Ben="werewolf", Cat="minion", **BASE)
    r = resolve_night(d, {})
    assert seen(r, "Ann") == {}
    assert seen(r, "Ben") == {"Ann": "werewolf"}
    assert seen(r, "Cat") == {"Ann": "werewolf", "Ben": "werewolf"}
    assert action_rule(d, "Ben").requirement.value == "none"
    assert night_report(r, "Ann") == ("You slept through the night.",)


def test_apprentice_seer_looks_at_one_centre_card() -> None:
    """Daybreak, Apprentice Seer: one centre card."""
    d = deal(
        Ann="apprentice_seer",
        Ben="werewolf",
        Cat="villager",
        left="villager",
        middle="hunter",
        right="insomniac",
    )
    assert seen(resolve_night(d, {"Ann": ["right"]}), "Ann") == {"right": "insomniac"}
    with pytest.raises(IllegalActionError):
        resolve_night(d, {"Ann": ["Ben"]})


def test_investigator_stops_at_a_werewolf_and_becomes_one() -> None:
    """Daybreak, Paranormal Investigator: up to two looks, stopping at a werewolf or the
    tanner and becoming it; the card carries it (onenightultimate.com/?p=46, comments)."""
    d = deal(Ann="paranormal_investigator", Ben="werewolf", Cat="villager", Dan="tanner", **BASE)
    r = resolve_night(d, {"Ann": ["Ben", "Cat"]})
    assert seen(r, "Ann") == {"Ben": "werewolf"}
    assert r.plays_as("Ann") is R.WEREWOLF
    r = resolve_night(d, {"Ann": ["Cat", "Dan"]})
    assert seen(r, "Ann") == {"Cat": "villager", "Dan": "tanner"}
    assert r.plays_as("Ann") is R.TANNER
    r = resolve_night(d, {"Ann": ["Cat"]})
    assert r.plays_as("Ann") is R.PARANORMAL_INVESTIGATOR


def test_witch_swaps_the_centre_card_she_saw_even_to_herself() -> None:
    """Daybreak, Witch: look at a centre card, then swap it with any player's, her own too."""
    d = deal(Ann="witch", Ben="werewolf", Cat="villager", **BASE)
    r = resolve_night(d, {"Ann": ["middle", "Ben"]})
    assert final(r, "Ben", "middle") == ("hunter", "werewolf")
    assert seen(r, "Ann") == {"middle": "hunter"}
    r = resolve_night(d, {"Ann": ["Ann", "left"]})
    assert final(r, "Ann", "left") == ("villager", "witch")
    assert seen(r, "Ann") == {"left": "villager", "Ann": "villager"}


def test_village_idiot_moves_every_other_unshielded_card() -> None:
    """Daybreak, Village Idiot (onenightultimate.com/?p=64): everyone's card but his own moves
    one seat; shielded cards stay (our reading, with the peers')."""
    d = deal(Ann="village_idiot", Ben="werewolf", Cat="seer", Dan="tanner", Eve="sentinel", **BASE)
    r = resolve_night(d, {"Ann": ["left"]})
    assert final(r, "Ann", "Ben", "Cat", "Dan", "Eve") == (
        "village_idiot",
        "sentinel",
        "werewolf",
        "seer",
        "tanner",
    )
    r = resolve_night(d, {"Ann": ["right"], "Eve": ["Cat"]})
    assert final(r, "Ann", "Ben", "Cat", "Dan", "Eve") == (
        "village_idiot",
        "tanner",
        "seer",
        "sentinel",
        "werewolf",
    )
    with pytest.raises(IllegalActionError):
        resolve_night(d, {"Ann": ["middle"]})


def test_revealer_turns_up_all_but_werewolves_and_the_tanner() -> None:
    """Daybreak, Revealer: the card stays face up, unless a werewolf or the tanner."""
    d = deal(Ann="revealer", Ben="mystic_wolf", Cat="seer", Dan="tanner", **BASE)
    assert resolve_night(d, {"Ann": ["Cat"]}).revealed == ("Cat",)
    hidden = resolve_night(d, {"Ann": ["Ben"]})
    assert hidden.revealed == () and seen(hidden, "Ann") == {"Ben": "mystic_wolf"}
    assert resolve_night(d, {"Ann": ["Dan"]}).revealed == ()


def test_curator_artifacts_change_the_holder() -> None:
    """Daybreak, Curator: an unseen artifact on any card; the claw makes a werewolf, the
    cudgel a tanner, the brand a villager; the void, mask and shroud change no team."""
    d = deal([Artifact.CLAW], Ann="curator", Ben="seer", Cat="werewolf", **BASE)
    r = resolve_night(d, {"Ann": ["Ben"]})
    assert r.artifacts == {"Ben": Artifact.CLAW}
    assert r.plays_as("Ben") is R.WEREWOLF
    assert "Claw of the Werewolf" in " ".join(night_report(r, "Ben"))
    assert "Claw" not in " ".join(night_report(r, "Ann"))
    g = play_game(d, {"Ann": ["Ben"]}, {"Ann": "Ben", "Ben": "Ann", "Cat": "Ben"})
    assert g.outcome is not None and g.outcome.winners == ("Ann",)
    d = deal([Artifact.CUDGEL], Ann="curator", Ben="seer", Cat="werewolf", **BASE)
    assert resolve_night(d, {"Ann": ["Ann"]}).plays_as("Ann") is R.TANNER
    d = deal([Artifact.VOID], Ann="curator", Ben="seer", Cat="werewolf", **BASE)
    assert resolve_night(d, {"Ann": ["Cat"]}).plays_as("Cat") is R.WEREWOLF


def test_bodyguard_protects_the_player_voted_for() -> None:
    """Daybreak, Bodyguard: the player the bodyguard votes for cannot be killed; with the most
    votes, the next most voted die instead, if they have two votes or more."""
    d = deal(Ann="bodyguard", Ben="werewolf", Cat="villager", Dan="seer", Eve="robber", **BASE)
    votes = {"Ann": "Cat", "Ben": "Cat", "Cat": "Ben", "Dan": "Cat", "Eve": "Ben"}
    g = play_game(d, {}, votes)
    assert g.vote is not None and g.vote.dead == ("Ben",)
    votes = {"Ann": "Cat", "Ben": "Cat", "Cat": "Ben", "Dan": "Cat", "Eve": "Dan"}
    g = play_game(d, {}, votes)
    assert g.vote is not None and g.vote.dead == ()


def test_prince_cannot_be_killed() -> None:
    """rules/002 s7 (the Prince cannot be killed); onenightultimate.com/?p=87: the next most
    voted die instead, with at least two votes."""
    d = deal(Ann="prince", Ben="werewolf", Cat="villager", Dan="seer", **BASE)
    g = play_game(d, {}, {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ben"})
    assert g.vote is not None and g.vote.dead == ("Ben",)
    assert "passed over" in g.vote.reason


# --- The Doppelganger and the wake order ---------------------------------------------------


def test_a_doppelganger_alpha_wolf_swaps_at_once_before_the_alpha_wolf() -> None:
    """[DR] "Doppelgänger and Daybreak": the Doppelganger-Alpha Wolf exchanges the centre
    werewolf card at once (step 1), so the Alpha Wolf's own swap at 2b moves what then lies
    at the centre werewolf place: Cat's old card, no werewolf."""
    d = deal(
        Ann="doppelganger",
        Ben="alpha_wolf",
        Cat="villager",
        Dan="seer",
        Eve="robber",
        centre_wolf="werewolf",
        **BASE,
    )
    r = resolve_night(d, {"Ann": ["Ben", "Cat"], "Ben": ["Dan"]})
    assert final(r, "Cat", "Dan", CENTRE_WOLF) == ("werewolf", "villager", "seer")
    assert r.plays_as("Ann") is R.ALPHA_WOLF
    # It wakes with the werewolves (they see it), not at the Alpha Wolf's call.
    assert seen(r, "Ben") == {"Ann": "werewolf"}
    assert [s.order for s in r.log if "Ann" in s.actors][:2] == [1, 1]


def test_doppelganger_copies_act_at_once_or_after_the_original() -> None:
    """Our ruling (docs/rules.md): a copied sentinel shields at once (a second shield); a
    copied revealer acts right after the revealer (10a), a copied mystic wolf after the mystic
    wolf and with the werewolves."""
    d = deal(Ann="doppelganger", Ben="sentinel", Cat="villager", Dan="seer", **BASE)
    r = resolve_night(d, {"Ann": ["Ben", "Dan"], "Ben": ["Cat"]})
    assert r.shields == ("Cat", "Dan")
    d = deal(Ann="doppelganger", Ben="mystic_wolf", Cat="villager", Dan="seer", **BASE)
    r = resolve_night(d, {"Ann": ["Ben", "Dan"], "Ben": ["Cat"]})
    assert seen(r, "Ann") == {"Ben": "mystic_wolf", "Dan": "seer"}
    assert seen(r, "Ben") == {"Ann": "werewolf", "Cat": "villager"}
    assert r.plays_as("Ann") is R.MYSTIC_WOLF


def test_official_wake_order_with_daybreak() -> None:
    """Daybreak's combined order (docs/rules.md, the wake order)."""
    # Vampire's steps (docs/rules.md 8b.3) take their places around these: test_vampire.py.
    labels = [
        (s.label, s.role.value)
        for s in NIGHTS[OFFICIAL]
        if s.copied is None and s.role not in VAMPIRE_ROLES and s.deck != "vampire"
    ]
    assert labels == [
        ("0", "sentinel"),
        ("1", "doppelganger"),
        ("2", "werewolf"),
        ("2b", "alpha_wolf"),
        ("2c", "mystic_wolf"),
        ("3", "minion"),
        ("4", "mason"),
        ("5", "seer"),
        ("5b", "apprentice_seer"),
        ("5c", "paranormal_investigator"),
        ("6", "robber"),
        ("6b", "witch"),
        ("7", "troublemaker"),
        ("7b", "village_idiot"),
        ("8", "drunk"),
        ("9", "insomniac"),
        ("10", "revealer"),
        ("11", "curator"),
    ]
    assert own_step(OFFICIAL, R.DREAM_WOLF) is None


def test_every_expansion_role_has_its_message() -> None:
    """Each new card's role message names it."""
    for role in EXPANSION_ROLES:
        cards = {"Ann": role.value, "Ben": "werewolf", "Cat": "villager", **BASE}
        if role is R.WEREWOLF or role is R.ALPHA_WOLF:
            cards[CENTRE_WOLF] = "werewolf"
        message = role_message(deal(**cards), "Ann")
        assert role.title in message.heading


def test_the_runner_prints_daybreak_tokens_only_for_daybreak() -> None:
    """docs/scenarios.md: the extension's example, and no new key for a base game."""
    from games.families.onenight.engine.scenario import run_scenario

    scenario = {
        "ruleset": "official",
        "players": ["Ann", "Ben", "Cat", "Dan"],
        "deal": {
            "Ann": "sentinel",
            "Ben": "paranormal_investigator",
            "Cat": "alpha_wolf",
            "Dan": "curator",
            "left": "villager",
            "middle": "seer",
            "right": "tanner",
            "centre_wolf": "werewolf",
        },
        "artifacts": ["cudgel", "void"],
        "night": {"Ann": ["Cat"], "Ben": ["Cat", "Dan"], "Cat": ["Dan"], "Dan": ["Ann"]},
        "votes": {"Ann": "Ben", "Ben": "Ann", "Cat": "Ann", "Dan": "Ben"},
    }
    out = run_scenario(scenario)
    assert out["shields"] == ["Cat"] and out["artifacts"] == {"Ann": "cudgel"}
    assert out["plays_as"] == {"Ann": "tanner", "Ben": "werewolf", "Cat": "alpha_wolf",
                               "Dan": "werewolf"}  # fmt: skip
    assert out["dead"] == ["Ann", "Ben"] and out["winners"] == ["Ann"]
    assert out["final"]["centre_wolf"] == "curator"
    base = {
        "ruleset": "official",
        "players": ["Ann", "Ben", "Cat"],
        "deal": {"Ann": "seer", "Ben": "werewolf", "Cat": "villager", **BASE},
    }
    assert "shields" not in run_scenario(base)


def test_the_narrator_calls_every_wake_role_in_order() -> None:
    """Table mode's narrator (docs/rules.md 8a.2): a deck of every official role that wakes,
    Daybreak's with them, is called in the combined order, the Doppelganger's own steps
    right after the originals."""
    from games.families.onenight import narrator

    # Vampire's cards have their own order test (test_vampire.py).
    deck = [r for r in role_limits(OFFICIAL) if r is not R.DREAM_WOLF and r not in VAMPIRE_ROLES]
    keys = [c.key for c in narrator.narration(OFFICIAL, deck)]
    assert keys == [
        "sentinel",
        "doppelganger",
        "doppelganger-minion",
        "werewolves",
        "alpha-wolf",
        "mystic-wolf",
        "minion",
        "masons",
        "seer",
        "apprentice-seer",
        "paranormal-investigator",
        "robber",
        "witch",
        "troublemaker",
        "village-idiot",
        "drunk",
        "insomniac",
        "doppelganger-insomniac",
        "revealer",
        "doppelganger-revealer",
        "curator",
        "doppelganger-curator",
    ]
    # The werewolves wake for a mystic wolf even without a plain werewolf card.
    mystic = [c.key for c in narrator.narration(OFFICIAL, [R.MYSTIC_WOLF, R.SEER, R.VILLAGER])]
    assert mystic == ["werewolves", "mystic-wolf", "seer"]


def test_a_doppelganger_alpha_wolf_with_no_prey_acts_no_further() -> None:
    """Our ruling (docs/rules.md 8a.5): the alpha wolf's swap is compulsory only while another
    player was dealt no werewolf card; a Doppelganger that copies it is held to the same."""
    from games.families.onenight.engine import copied_action_rule

    d = deal(Ann="doppelganger", Ben="alpha_wolf", Cat="werewolf", centre_wolf="werewolf", **BASE)
    assert copied_action_rule(R.ALPHA_WOLF, d, "Ann").requirement.value == "none"
    r = resolve_night(d, {"Ann": ["Ben"], "Ben": ["Ann"]})
    assert r.copied is R.ALPHA_WOLF and final(r, "Ann", CENTRE_WOLF) == ("werewolf", "doppelganger")


def test_doppelganger_message_names_the_decks_at_once_roles() -> None:
    """8a.3: in a Daybreak deck the Doppelganger's role message names the deck's at-once roles
    (the records' `copy`), Daybreak's with the base game's, in wake order."""
    d = deal(Ann="doppelganger", Ben="sentinel", Cat="witch", Dan="seer", Eve="werewolf", **BASE)
    text = role_message(d, "Ann").text
    assert "Sentinel, Seer and Witch" in text
    assert "troublemaker" not in text and "drunk" not in text


def test_doppelganger_message_of_a_base_deck_is_unchanged() -> None:
    """A deck of base cards keeps the record's words (rules/002 s5)."""
    d = deal(Ann="doppelganger", Ben="seer", Cat="werewolf", Dan="villager", **BASE)
    text = role_message(d, "Ann").text
    assert "If you copy a seer, robber, troublemaker or drunk, you do that role's action" in text


def test_the_night_log_names_every_role_as_its_card() -> None:
    """The reveal's night, step by step: the acting role is named as its card ("(Seer)",
    "(Sentinel)"), base and Daybreak alike, whether the role acted or not."""
    import re

    acted = deal(
        Ann="sentinel", Ben="seer", Cat="robber", Dan="troublemaker", Eve="drunk",
        Fay="insomniac", Gus="minion", Hal="witch", left="werewolf", middle="villager",
        right="revealer",
    )  # fmt: skip
    idle = deal(
        Ann="sentinel", Ben="seer", Cat="robber", Dan="troublemaker", Eve="witch",
        Fay="werewolf", left="villager", middle="villager", right="hunter",
    )  # fmt: skip
    moves = {
        "Ann": ["Ben"], "Ben": ["left", "middle"], "Cat": ["Gus"], "Dan": ["Fay", "Gus"],
        "Eve": ["left"], "Hal": ["middle", "Ann"],
    }  # fmt: skip
    # The roles of two words, the optional ones choosing to do nothing.
    wolves = deal(
        Ann="alpha_wolf", Ben="mystic_wolf", Cat="apprentice_seer", Dan="paranormal_investigator",
        Eve="village_idiot", Fay="villager", Gus="villager", Hal="villager", left="werewolf",
        middle="tanner", right="hunter", centre_wolf="werewolf",
    )  # fmt: skip
    texts = [s.text for s in resolve_night(acted, moves).log]
    texts += [s.text for s in resolve_night(idle, {}).log]
    texts += [s.text for s in resolve_night(wolves, {"Ann": ["Fay"]}).log]
    assert texts
    for text in texts:
        assert not re.search(r"\([a-z][a-z ]*\)", text), text


def test_the_runner_prints_vampires_marks_only_for_a_vampire_deal() -> None:
    """docs/scenarios.md, "Vampire's cards and marks": the example word for word, and no
    `marks` key for a Daybreak deal."""
    from games.families.onenight.engine.scenario import run_scenario

    scenario = {
        "ruleset": "official",
        "players": ["Ann", "Ben", "Cat", "Dan", "Eve"],
        "deal": {"Ann": "the_count", "Ben": "werewolf", "Cat": "cupid", "Dan": "gremlin",
                 "Eve": "copycat", "left": "seer", "middle": "villager", "right": "marksman"},
        "night": {"Ann": ["Cat", "Dan"], "Ben": [], "Cat": ["Ann", "Eve"],
                  "Dan": ["marks", "Cat", "Ben"], "Eve": ["left", "Ann"]},
        "votes": {"Ann": "Ben", "Ben": "Ann", "Cat": "Ben", "Dan": "Ann", "Eve": "Cat"},
    }  # fmt: skip
    out = run_scenario(scenario)
    assert out["marks"] == {
        "Ann": "love", "Ben": "clarity", "Cat": "vampire", "Dan": "fear", "Eve": "love",
    }  # fmt: skip
    assert out["copycat"] == "seer"
    assert out["plays_as"]["Eve"] == "seer"
    assert out["seen"]["Eve"] == {"left": "seer", "Ann": "the_count"}
    assert out["dead"] == ["Ann", "Ben", "Eve"] and out["winners"] == ["Dan", "Eve"]
    assert list(out)[-4:] == ["marks", "copycat", "dead", "winners"]
    daybreak = {**scenario, "deal": {**scenario["deal"], "Ann": "sentinel", "Cat": "witch",
                                     "Dan": "revealer", "Eve": "villager",
                                     "right": "tanner"},
                "night": {}}  # fmt: skip
    assert "marks" not in run_scenario(daybreak)
