"""One Night Ultimate Vampire in the pure engine: dusk, the marks, the Doppelganger's and the
Copycat's copies, the vote with the Master and the lovers, the Epic Battle and each mark's win
rule (docs/rules.md 8b). [VR] the rulebook, [VC] its compendium, [TA] the designer's post."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import pytest

from games.families.onenight.engine.artifacts import Artifact
from games.families.onenight.engine.deck import Deal, make_deal
from games.families.onenight.engine.epic import is_epic, team_at_dawn
from games.families.onenight.engine.errors import IllegalActionError, InvalidDeckError
from games.families.onenight.engine.marks import POOL, Mark
from games.families.onenight.engine.messages import night_report
from games.families.onenight.engine.night import NightResult, resolve_night
from games.families.onenight.engine.roles import NIGHTS, ROLES, Copy, Role, Ruleset, Team
from games.families.onenight.engine.roles_vampire import VAMPIRE_ROLES
from games.families.onenight.engine.voting import (
    Outcome,
    VoteResult,
    decide_outcome,
    tally_votes,
)

V = Role
R = Role
SEATS = ("Ann", "Ben", "Cat", "Dan", "Eve")
OFFICIAL = Ruleset.OFFICIAL


def deal(*cards: Role, centre: Sequence[Role] = (R.VILLAGER, R.VILLAGER, R.SEER)) -> Deal:
    """A deal as written, not checked against the deck's limits (a test may hold five
    villagers)."""
    players = SEATS[: len(cards)]
    table: dict[str, Role] = dict(zip(players, cards, strict=True))
    table.update(zip(("left", "middle", "right"), centre, strict=True))
    return Deal(OFFICIAL, players, table)


def night(d: Deal, actions: Mapping[str, Sequence[str]] | None = None) -> NightResult:
    return resolve_night(d, actions or {})


def votes(d: Deal, **cast: str) -> dict[str, str | None]:
    return {p: cast.get(p) for p in d.players}


def tally_vampire_votes(result: NightResult, cast: Mapping[str, str | None]) -> VoteResult:
    return tally_votes(result, cast)


def decide_vampire_outcome(result: NightResult, vote: VoteResult) -> Outcome:
    return decide_outcome(result, vote.dead, vote.votes)


# --- The records -----------------------------------------------------------------------------

OFFICIAL_NIGHT = NIGHTS[OFFICIAL]


def test_every_role_has_a_record_and_a_step() -> None:
    """[VR] contents: fourteen roles, in the one catalogue; each that acts has its step in the
    one official night, and each Doppelganger copy acting later a step of its own."""
    assert len(VAMPIRE_ROLES) == 14 and set(ROLES) >= VAMPIRE_ROLES
    stepped = {s.role for s in OFFICIAL_NIGHT if s.copied is None}
    assert stepped >= VAMPIRE_ROLES
    own_steps = {s.copied for s in OFFICIAL_NIGHT if s.copied in VAMPIRE_ROLES}
    assert own_steps == {r for r in VAMPIRE_ROLES if ROLES[r].copy is Copy.OWN_STEP}
    assert {r for r in VAMPIRE_ROLES if ROLES[r].vampire} == {
        V.VAMPIRE,
        V.THE_MASTER,
        V.THE_COUNT,
    }


def test_the_combined_order() -> None:
    """[VR] "Night Wake Order with Vampire, One Night, & Daybreak"; Pickpocket 6c from [VC]:
    dusk, the end of dusk, then the night with the three Vampire steps in their places."""
    labels = [s.label for s in OFFICIAL_NIGHT if s.copied is None]
    assert labels[:3] == ["-8", "-7", "-6"]
    order = ["-1b", "00", "0", "1", "2", "5c", "5d", "6", "6b", "6c", "7", "7b", "7d", "8"]
    assert [label for label in labels if label in order] == order


def test_cards_are_named_by_their_word() -> None:
    assert Role("the_count") is V.THE_COUNT
    assert Role("seer") is R.SEER
    with pytest.raises(ValueError):
        Role("ghost")


def test_the_house_rules_refuse_them() -> None:
    """docs/rules.md 8b: official ruleset only, as Daybreak's cards."""
    with pytest.raises(InvalidDeckError, match="house rules"):
        make_deal(Ruleset.HOUSE, ["Ann", "Ben", "Cat"], HOUSE_DEAL)


HOUSE_DEAL = {
    "Ann": "vampire",
    "Ben": "seer",
    "Cat": "villager",
    "left": "werewolf",
    "middle": "villager",
    "right": "robber",
}


def test_a_game_without_vampire_cards_has_no_marks() -> None:
    """Marks come with the Vampire cards: a base game's night is unchanged."""
    result = night(deal(R.WEREWOLF, R.SEER, R.VILLAGER))
    assert result.marks == {} and result.told == {}


def test_the_night_report_holds_what_dusk_told() -> None:
    """A player's report (messages.night_report) adds the lines of dusk and the marks."""
    d = deal(V.VAMPIRE, R.SEER, R.VILLAGER)
    report = night_report(night(d, {"Ann": ["Cat"], "Ben": ["Cat"]}), "Ann")
    assert "You gave the Mark of the Vampire to Cat." in report
    assert "At the end of dusk your mark was the Mark of Clarity." in report


# --- Marks and dusk ----------------------------------------------------------------------------


def test_everyone_starts_with_clarity() -> None:
    """[VR] Setup: one Mark of Clarity each, face down."""
    result = night(deal(V.MARKSMAN, R.VILLAGER, R.VILLAGER))
    assert set(result.marks.values()) == {Mark.CLARITY}
    assert dict(result.pool) == dict(POOL)


def test_vampires_mark_a_non_vampire_and_see_each_other() -> None:
    """[VC] Vampire: they wake together and give the Mark of the Vampire to a non-vampire."""
    d = deal(V.VAMPIRE, V.THE_MASTER, R.VILLAGER, R.SEER)
    result = night(d, {"Ann": ["Cat"], "Ben": ["Cat"]})
    assert result.marks["Cat"] is Mark.VAMPIRE
    assert result.pick == "Cat"
    assert "The vampires tonight: you and Ben." in result.told["Ann"]
    assert result.is_vampire("Cat") and team_at_dawn(result, "Cat") is Team.VAMPIRE


def test_vampires_cannot_mark_a_vampire() -> None:
    d = deal(V.VAMPIRE, V.THE_MASTER, R.VILLAGER)
    result = night(d, {"Ann": ["Ben"], "Ben": ["Ann"]})
    assert result.marks["Cat"] is Mark.VAMPIRE  # the default: first non-vampire


def test_vampires_split_vote_goes_to_the_first_vampire_in_seat_order() -> None:
    """docs/rules.md 8b.3, Choice: most named, ties to the first vampire's name."""
    d = deal(V.VAMPIRE, V.THE_MASTER, R.VILLAGER, R.SEER)
    result = night(d, {"Ann": ["Dan"], "Ben": ["Cat"]})
    assert result.pick == "Dan"


def test_count_frightens_another_non_vampire() -> None:
    """[VC] The Count: the Mark of Fear, never to the vampires' pick."""
    d = deal(V.THE_COUNT, V.VAMPIRE, R.VILLAGER, V.MARKSMAN, V.THE_MASTER)
    result = night(d, {"Ann": ["Cat", "Dan"], "Ben": ["Dan"], "Eve": ["Dan"], "Dan": ["Ann", "-"]})
    assert result.marks["Dan"] is Mark.VAMPIRE
    assert result.marks["Cat"] is Mark.FEAR  # Dan was the pick: the fear went elsewhere
    frightened = night(d, {"Ann": ["Dan", "Cat"], "Ben": ["Dan"], "Eve": ["Dan"]})
    assert frightened.marks["Cat"] is Mark.FEAR


def test_a_frightened_marksman_does_not_look() -> None:
    """[VR] Marks: the Mark of Fear stops the night action."""
    d = deal(V.THE_COUNT, R.VILLAGER, V.MARKSMAN)
    result = night(d, {"Ann": ["Ben", "Cat"], "Cat": ["Ann", "-"]})
    assert result.marks["Cat"] is Mark.FEAR
    assert "The Mark of Fear kept you from acting tonight." in result.told["Cat"]
    assert "Ann's card is the Count." not in result.told["Cat"]


def test_fear_stops_a_night_action_but_not_a_dusk_one() -> None:
    """[VR] Marks: fear stops the night action; the dusk action came before it was known."""
    d = deal(V.THE_COUNT, V.CUPID, V.PICKPOCKET)
    result = night(d, {"Ann": ["Cat", "Ben"], "Ben": ["Ann", "Cat"], "Cat": ["Ann"]})
    assert result.marks["Ben"] is Mark.FEAR
    assert result.marks["Cat"] is Mark.LOVE  # the cupid's lovers, Cupid frightened after
    d2 = deal(V.THE_COUNT, V.PICKPOCKET, R.VILLAGER)
    result2 = night(d2, {"Ann": ["Cat", "Ben"], "Ben": ["Ann"]})
    assert result2.marks["Ben"] is Mark.FEAR  # the pickpocket did not act
    assert result2.marks["Ann"] is Mark.CLARITY


def test_renfield_sees_the_vampires_and_takes_the_bat() -> None:
    """[VC] Renfield."""
    d = deal(V.VAMPIRE, V.RENFIELD, R.VILLAGER)
    result = night(d, {"Ann": ["Cat"]})
    assert result.marks["Ben"] is Mark.BAT
    assert "The vampires: Ann." in result.told["Ben"]
    assert "They marked Cat." in result.told["Ben"]
    assert team_at_dawn(result, "Ben") is Team.VAMPIRE
    alone = night(deal(V.RENFIELD, R.VILLAGER, R.VILLAGER))
    assert team_at_dawn(alone, "Ann") is Team.TOWN  # [VC]: no vampire, the village's


def test_diseased_marks_a_neighbour_only() -> None:
    """[VR], [VC] Diseased: left or right."""
    d = deal(V.DISEASED, R.VILLAGER, R.VILLAGER, R.VILLAGER)
    assert night(d, {"Ann": ["Dan"]}).marks["Dan"] is Mark.DISEASE
    assert night(d, {}).marks["Ben"] is Mark.DISEASE  # nothing sent: the default (8b.3)
    with pytest.raises(IllegalActionError):
        night(d, {"Ann": ["Cat"]})  # not a neighbour


def test_priest_clears_himself_and_one_other() -> None:
    """[VC] Priest."""
    d = deal(V.VAMPIRE, V.PRIEST, R.VILLAGER)
    result = night(d, {"Ann": ["Cat"], "Ben": ["Cat"]})
    assert result.marks["Cat"] is Mark.CLARITY
    assert not result.is_vampire("Cat")


def test_marks_are_given_from_the_pool_and_returned() -> None:
    """[VR] Marks: "the receiving player's Mark is returned to the empty spot"."""
    d = deal(V.VAMPIRE, V.INSTIGATOR, V.PRIEST)
    result = night(d, {"Ann": ["Cat"], "Ben": ["Cat"], "Cat": []})
    assert result.marks["Cat"] is Mark.CLARITY
    assert result.pool[Mark.VAMPIRE] == 1 and result.pool[Mark.TRAITOR] == 2


def test_apprentice_meets_the_assassin_or_marks_herself() -> None:
    """[VC] Apprentice Assassin."""
    d = deal(V.ASSASSIN, V.APPRENTICE_ASSASSIN, R.VILLAGER)
    result = night(d, {"Ann": ["Cat"]})
    assert "The assassin: Ann." in result.told["Ben"]
    assert "Your apprentice: Ben." in result.told["Ann"]
    alone = night(deal(R.VILLAGER, V.APPRENTICE_ASSASSIN, R.VILLAGER), {"Ben": ["Ann"]})
    assert alone.marks["Ann"] is Mark.ASSASSIN


def test_lovers_see_each_other() -> None:
    """[VR]: the lovers wake after dusk to see each other."""
    d = deal(V.CUPID, R.VILLAGER, R.VILLAGER)
    result = night(d, {"Ann": ["Ben", "Cat"]})
    assert "You are in love with Cat." in result.told["Ben"]


def test_pickpocket_swaps_and_sees() -> None:
    """[VC] Pickpocket."""
    d = deal(V.VAMPIRE, V.PICKPOCKET, R.VILLAGER)
    result = night(d, {"Ann": ["Cat"], "Ben": ["Cat"]})
    assert result.marks["Ben"] is Mark.VAMPIRE and result.marks["Cat"] is Mark.CLARITY
    assert "You took Cat's mark: it is the Mark of the Vampire." in result.told["Ben"]
    assert result.is_vampire("Ben")


def test_gremlin_swaps_marks_or_cards() -> None:
    """[VC] Gremlin: marks or cards, not both, unseen."""
    d = deal(V.VAMPIRE, V.GREMLIN, R.VILLAGER)
    marks = night(d, {"Ann": ["Cat"], "Ben": ["marks", "Ann", "Cat"]})
    assert marks.marks["Ann"] is Mark.VAMPIRE and marks.final["Ann"] is V.VAMPIRE
    cards = night(d, {"Ann": ["Cat"], "Ben": ["cards", "Ann", "Cat"]})
    assert cards.final["Cat"] is V.VAMPIRE and cards.marks["Cat"] is Mark.VAMPIRE


def test_marksman_sees_a_card_and_another_mark() -> None:
    """[VC] Marksman."""
    d = deal(V.VAMPIRE, V.MARKSMAN, R.VILLAGER)
    result = night(d, {"Ann": ["Cat"], "Ben": ["Ann", "Cat"]})
    assert "Ann's card is the Vampire." in result.told["Ben"]
    assert "Cat's mark is the Mark of the Vampire." in result.told["Ben"]
    with pytest.raises(IllegalActionError):
        night(d, {"Ben": ["Cat", "Cat"]})


def test_illegal_actions_are_refused() -> None:
    d = deal(V.CUPID, V.GREMLIN, V.DISEASED)
    for bad in ({"Ann": ["Ben"]}, {"Ben": ["both", "Ann", "Cat"]}, {"Zed": ["Ann"]}):
        with pytest.raises(IllegalActionError):
            night(d, bad)


# --- Copies ------------------------------------------------------------------------------------


def test_copycat_becomes_a_centre_card_and_acts_as_it() -> None:
    """[VC] Copycat: must look at a centre card, is that role and wakes with it."""
    d = deal(V.COPYCAT, R.VILLAGER, R.VILLAGER, centre=(V.CUPID, R.VILLAGER, R.SEER))
    result = night(d, {"Ann": ["left", "Ben", "Cat"]})
    assert result.plays_as("Ann") is V.CUPID
    assert result.marks["Ben"] is Mark.LOVE


def test_the_copycats_report_tells_what_it_did_as_its_copy() -> None:
    """[VC] Copycat: it acts as the copied role, so its report tells that role's action after
    the copy: a Copycat-Seer's look, a Copycat-Robber's swap; a lone Copycat-Mason did not see
    the centre card it copied as a partner."""
    d = deal(V.COPYCAT, R.WEREWOLF, R.VILLAGER, centre=(R.SEER, R.MASON, R.ROBBER))
    seer = night_report(night(d, {"Ann": ["left", "Ben"]}), "Ann")
    assert seer[:2] == (
        "You copied the left centre card: you are the Seer.",
        "You looked at Ben's card: it is the Werewolf.",
    )
    robber = night_report(night(d, {"Ann": ["right", "Ben"]}), "Ann")
    assert robber[:2] == (
        "You copied the right centre card: you are the Robber.",
        "You swapped cards with Ben. You are now the Werewolf.",
    )
    mason = night_report(night(d, {"Ann": ["middle"]}), "Ann")
    assert mason[:2] == (
        "You copied the middle centre card: you are the Mason.",
        "You are the only mason.",
    )


def test_a_frightened_copycat_is_told_its_copy_but_did_not_act() -> None:
    """8b.2 (Choice): a Copycat-Seer given the Mark of Fear by the Count at dusk copies (dusk
    comes first) but does not look in the night; its report does not say it looked."""
    d = deal(V.COPYCAT, V.THE_COUNT, R.VILLAGER, centre=(R.SEER, R.MASON, R.ROBBER))
    result = night(d, {"Ann": ["left", "Cat"], "Ben": ["Cat", "Ann"]})
    assert "Ann" in result.frightened
    report = night_report(result, "Ann")
    assert report[0] == "You copied the left centre card: you are the Seer."
    assert not any(line.startswith("You looked at Cat") for line in report), report


def test_a_centre_copycat_handed_out_is_a_villager() -> None:
    """[VR] Special Cases: the Copycat from the centre is a villager with no power."""
    d = deal(V.GREMLIN, R.VILLAGER, R.VILLAGER, centre=(V.COPYCAT, R.VILLAGER, R.SEER))
    result = night(d)
    assert result.plays_as("Ann") is V.GREMLIN
    fake = dataclasses.replace(result, final={**result.final, "Ann": V.COPYCAT})
    assert fake.plays_as("Ann") is R.VILLAGER


def test_doppelganger_copies_a_vampire_and_wakes_with_them() -> None:
    """[VC] Doppelganger and Vampire: wakes with the vampires."""
    d = deal(R.DOPPELGANGER, V.VAMPIRE, R.VILLAGER)
    result = night(d, {"Ann": ["Ben", "Cat"], "Ben": ["Cat"]})
    assert "The vampires tonight: you and Ben." in result.told["Ann"]
    assert result.is_vampire("Ann") and result.marks["Cat"] is Mark.VAMPIRE


def test_doppelganger_count_uses_the_second_fear() -> None:
    """[VC]: the Doppelganger-Count places the Doppelganger Mark of Fear after the Count."""
    d = deal(R.DOPPELGANGER, V.THE_COUNT, R.VILLAGER, R.SEER, R.VILLAGER)
    result = night(d, {"Ann": ["Ben", "Cat", "Dan"], "Ben": ["Cat", "Eve"]})
    assert result.marks["Eve"] is Mark.FEAR and result.marks["Dan"] is Mark.FEAR


def test_doppelganger_cupid_acts_at_once_four_lovers() -> None:
    """[VC]: a Doppelganger-Cupid may make more than two lovers; one dying kills them all."""
    d = deal(R.DOPPELGANGER, V.CUPID, R.VILLAGER, R.VILLAGER, R.WEREWOLF)
    result = night(d, {"Ann": ["Ben", "Ann", "Ben"], "Ben": ["Cat", "Dan"]})
    assert sorted(p for p, m in result.marks.items() if m is Mark.LOVE) == [
        "Ann",
        "Ben",
        "Cat",
        "Dan",
    ]
    vote = tally_vampire_votes(
        result, votes(d, Ann="Cat", Ben="Cat", Cat="Eve", Dan="Eve", Eve="Ann")
    )
    assert set(vote.lovers) == {"Ann", "Ben", "Dan"}


def test_doppelganger_copying_the_copycat_becomes_its_copy_and_does_nothing() -> None:
    """[VC]: the Doppelganger-Copycat becomes the role the Copycat viewed, no action."""
    d = deal(R.DOPPELGANGER, V.COPYCAT, R.VILLAGER, centre=(V.INSTIGATOR, R.VILLAGER, R.SEER))
    result = night(d, {"Ann": ["Ben"], "Ben": ["left", "Cat"]})
    assert result.became[R.DOPPELGANGER] is V.INSTIGATOR
    assert list(result.marks.values()).count(Mark.TRAITOR) == 1


def test_doppelganger_assassin_both_win_on_any_assassin_mark() -> None:
    """[VC]: either Assassin wins if any player with a Mark of the Assassin dies."""
    d = deal(R.DOPPELGANGER, V.ASSASSIN, R.VILLAGER, R.VILLAGER)
    result = night(d, {"Ann": ["Ben", "Cat"], "Ben": ["Dan"]})
    assert result.marks["Cat"] is Mark.ASSASSIN and result.marks["Dan"] is Mark.ASSASSIN
    vote = tally_vampire_votes(result, votes(d, Ann="Dan", Ben="Dan", Cat="Dan", Dan="Ann"))
    outcome = decide_vampire_outcome(result, vote)
    assert {"Ann", "Ben"} <= set(outcome.winners)


# --- The vote and the winners -----------------------------------------------------------------


def test_a_vampire_dying_wins_for_the_village() -> None:
    """[VR]: if any vampire is killed, the vampire team loses."""
    d = deal(V.VAMPIRE, R.VILLAGER, R.SEER)
    result = night(d, {"Ann": ["Ben"]})
    vote = tally_vampire_votes(result, votes(d, Ann="Cat", Ben="Cat", Cat="Ann"))
    outcome = decide_vampire_outcome(result, vote)
    assert vote.dead == ("Cat",)
    assert Team.VAMPIRE in outcome.teams and outcome.winners == ("Ann", "Ben")


def test_the_master_is_kept_alive_by_another_vampire() -> None:
    """[VC] The Master: another vampire's vote; the next most voted die instead."""
    d = deal(V.THE_MASTER, V.VAMPIRE, R.VILLAGER, R.SEER, R.VILLAGER)
    result = night(d, {"Ann": ["Cat"], "Ben": ["Cat"]})
    vote = tally_vampire_votes(
        result, votes(d, Ann="Dan", Ben="Ann", Cat="Dan", Dan="Ann", Eve="Ann")
    )
    assert vote.dead == ("Dan",)


def test_lovers_die_together_even_protected() -> None:
    """[VR] Love: the other lover dies too, even the protected Master."""
    d = deal(V.THE_MASTER, V.VAMPIRE, V.CUPID, R.VILLAGER, R.VILLAGER)
    result = night(d, {"Ann": ["Dan"], "Ben": ["Dan"], "Cat": ["Ann", "Eve"]})
    vote = tally_vampire_votes(
        result, votes(d, Ann="Eve", Ben="Ann", Cat="Eve", Dan="Eve", Eve="Cat")
    )
    assert vote.dead == ("Ann", "Eve") and vote.lovers == ("Ann",)


def test_disease_voters_cannot_win() -> None:
    """[VR] Disease: whoever votes for its holder cannot win; the holder can."""
    d = deal(V.VAMPIRE, V.DISEASED, R.VILLAGER, R.SEER)
    result = night(d, {"Ann": ["Cat"], "Ben": ["Ann"]})
    assert result.marks["Ann"] is Mark.DISEASE
    vote = tally_vampire_votes(result, votes(d, Ann="Ben", Ben="Ann", Cat="Dan", Dan="Ann"))
    outcome = decide_vampire_outcome(result, vote)
    assert vote.dead == ("Ann",)
    assert outcome.winners == ()  # the village won, but both its voters voted for Ann


def test_traitor_wins_only_if_a_teammate_dies() -> None:
    """[VR] Traitor."""
    d = deal(V.VAMPIRE, V.INSTIGATOR, R.VILLAGER, R.SEER)
    result = night(d, {"Ann": ["Cat"], "Ben": ["Dan"]})
    vote = tally_vampire_votes(result, votes(d, Ann="Dan", Ben="Dan", Cat="Dan", Dan="Ann"))
    outcome = decide_vampire_outcome(result, vote)
    assert vote.dead == ("Dan",)
    assert "Dan" not in outcome.winners  # Dan, a traitor, died himself: no teammate died
    vote2 = tally_vampire_votes(result, votes(d, Ann="Ben", Ben="Ann", Cat="Ben", Dan="Ben"))
    assert "Dan" in decide_vampire_outcome(result, vote2).winners


def test_assassin_wins_with_the_target_whoever_else_wins() -> None:
    """[VC] Assassin: wins if the marked player dies, alive or not, alongside others."""
    d = deal(V.ASSASSIN, V.VAMPIRE, R.VILLAGER)
    result = night(d, {"Ann": ["Ben"], "Ben": ["Cat"]})
    vote = tally_vampire_votes(result, votes(d, Ann="Ben", Ben="Ann", Cat="Ben"))
    outcome = decide_vampire_outcome(result, vote)
    assert vote.dead == ("Ben",)
    assert outcome.winners == ("Ann",)


def test_epic_battle_kills_the_first_and_second() -> None:
    """rules/002 s6, [TA]: at least two die; one vote is enough for second place."""
    d = deal(V.VAMPIRE, R.WEREWOLF, R.VILLAGER, R.SEER, R.VILLAGER)
    result = night(d, {"Ann": ["Eve"]})
    assert is_epic(result)
    vote = tally_vampire_votes(
        result, votes(d, Ann="Ben", Ben="Ann", Cat="Ben", Dan="Ben", Eve="Ben")
    )
    assert vote.epic and vote.dead == ("Ann", "Ben")
    outcome = decide_vampire_outcome(result, vote)
    assert outcome.teams == frozenset({Team.TOWN})
    # A tie for second place: all of them die with the first ([TA]).
    tied = tally_vampire_votes(
        result, votes(d, Ann="Ben", Ben="Ann", Cat="Ben", Dan="Ben", Eve="Cat")
    )
    assert tied.dead == ("Ann", "Ben", "Cat")


def test_epic_battle_tie_for_first_only_they_die() -> None:
    """[TA]: a tie for the most votes: only those tied die."""
    d = deal(V.VAMPIRE, R.WEREWOLF, R.VILLAGER, R.SEER, R.VILLAGER)
    result = night(d, {"Ann": ["Eve"]})
    vote = tally_vampire_votes(
        result, votes(d, Ann="Ben", Ben="Cat", Cat="Ben", Dan="Cat", Eve="Dan")
    )
    assert vote.dead == ("Ben", "Cat")
    outcome = decide_vampire_outcome(result, vote)
    assert outcome.teams == frozenset({Team.VAMPIRE})  # a werewolf died, no vampire


def test_epic_battle_werewolves_win_on_a_dead_vampire() -> None:
    """rules/002 s6: werewolves win if a vampire dies and all werewolves live."""
    d = deal(V.VAMPIRE, R.WEREWOLF, R.VILLAGER, R.SEER, R.VILLAGER)
    result = night(d, {"Ann": ["Eve"]})
    vote = tally_vampire_votes(
        result, votes(d, Ann="Cat", Ben="Ann", Cat="Ann", Dan="Ann", Eve="Cat")
    )
    assert vote.dead == ("Ann", "Cat")
    assert decide_vampire_outcome(result, vote).teams == frozenset({Team.WEREWOLF})


def test_no_epic_battle_when_werewolves_are_only_in_the_centre() -> None:
    """[VR] Special Cases: all werewolves in the centre (a minion at the table): one dies."""
    d = deal(V.VAMPIRE, R.MINION, R.VILLAGER, R.SEER, centre=(R.WEREWOLF, R.VILLAGER, R.SEER))
    result = night(d, {"Ann": ["Cat"]})
    assert not is_epic(result)


def test_a_werewolf_with_the_mark_of_the_vampire_is_a_vampire() -> None:
    """[VR] Special Cases: he wins with the vampires."""
    d = deal(V.VAMPIRE, R.WEREWOLF, R.VILLAGER)
    result = night(d, {"Ann": ["Ben"]})
    assert team_at_dawn(result, "Ben") is Team.VAMPIRE and not is_epic(result)


def test_a_dead_tanner_stops_the_vampires() -> None:
    """docs/rules.md 8b.6, Choice: as rules/002 s6 says for the werewolves."""
    d = deal(V.VAMPIRE, R.TANNER, R.VILLAGER)
    result = night(d, {"Ann": ["Cat"]})
    vote = tally_vampire_votes(result, votes(d, Ann="Ben", Ben="Cat", Cat="Ben"))
    outcome = decide_vampire_outcome(result, vote)
    assert outcome.winners == ("Ben",)


# --- Interactions with the base game and Daybreak ([VR] Special Cases; [VC]) ----------------


def test_the_doppelganger_master_and_the_master_keep_each_other_alive() -> None:
    """[VC]: a vampire's vote keeps the Doppelganger-Master alive, and its vote the Master."""
    d = deal(R.DOPPELGANGER, V.THE_MASTER, R.VILLAGER, R.SEER, R.VILLAGER)
    result = night(d, {"Ann": ["Ben", "Cat"], "Ben": ["Cat"]})
    vote = tally_vampire_votes(
        result, votes(d, Ann="Ben", Ben="Ann", Cat="Ann", Dan="Ben", Eve="Dan")
    )
    assert vote.dead == ()  # both masters protected; Dan has one vote


def test_a_prince_with_the_mark_of_the_vampire_cannot_die() -> None:
    """[VR] Special Cases: a vampire, on the vampire team, but he cannot die."""
    d = deal(V.VAMPIRE, R.PRINCE, R.VILLAGER, R.SEER)
    result = night(d, {"Ann": ["Ben"]})
    assert team_at_dawn(result, "Ben") is Team.VAMPIRE
    vote = tally_vampire_votes(result, votes(d, Ann="Cat", Ben="Ann", Cat="Ben", Dan="Ben"))
    assert "Ben" not in vote.dead


def test_a_bodyguard_with_the_mark_of_the_vampire_still_protects() -> None:
    """[VR] Special Cases: the player he points at still cannot be killed."""
    d = deal(V.VAMPIRE, R.BODYGUARD, R.VILLAGER, R.SEER)
    result = night(d, {"Ann": ["Ben"]})
    vote = tally_vampire_votes(result, votes(d, Ann="Cat", Ben="Ann", Cat="Ann", Dan="Ann"))
    assert vote.dead == ()


def test_lovers_fall_with_a_hunters_shot() -> None:
    """docs/rules.md 8b.6, Choice: the Hunter's target pulls its lover too."""
    d = deal(V.CUPID, R.HUNTER, R.VILLAGER, R.SEER)
    result = night(d, {"Ann": ["Cat", "Dan"]})
    vote = tally_vampire_votes(result, votes(d, Ann="Ben", Ben="Cat", Cat="Ben", Dan="Ann"))
    assert vote.hunted == ("Cat",) and vote.lovers == ("Dan",)


def test_doppelganger_priest_and_renfield_use_the_second_set() -> None:
    """[VC]: the Doppelganger-Priest clears itself after the Priest; -Renfield takes a bat."""
    priest = deal(R.DOPPELGANGER, V.PRIEST, V.CUPID)
    result = night(priest, {"Ann": ["Ben", "Cat"], "Cat": ["Ann", "Cat"]})
    assert result.marks["Ann"] is Mark.CLARITY and result.marks["Cat"] is Mark.CLARITY
    renfield = deal(R.DOPPELGANGER, V.RENFIELD, V.VAMPIRE)
    result = night(renfield, {"Ann": ["Ben"], "Cat": ["Ben"]})
    assert result.marks["Ann"] is Mark.BAT and result.marks["Ben"] is Mark.BAT


def test_copycat_count_frightens_at_the_counts_step() -> None:
    """[VC] Copycat: it wakes when the copied role is called."""
    d = deal(V.COPYCAT, R.VILLAGER, R.SEER, centre=(V.THE_COUNT, R.VILLAGER, R.SEER))
    result = night(d, {"Ann": ["left", "Ben", "Cat"]})
    assert result.is_vampire("Ann")
    assert result.marks["Ben"] is Mark.VAMPIRE and result.marks["Cat"] is Mark.FEAR


def test_an_assassin_without_a_mark_out_is_a_villager() -> None:
    """[VR] Special Cases: no Mark of the Assassin in the game, the Assassin is a villager."""
    d = deal(V.GREMLIN, R.VILLAGER, R.SEER, centre=(V.ASSASSIN, R.VILLAGER, R.SEER))
    result = night(d)
    fake = dataclasses.replace(result, final={**result.final, "Ann": V.ASSASSIN})
    assert team_at_dawn(fake, "Ann") is Team.TOWN


def test_a_deal_must_name_every_card() -> None:
    with pytest.raises(InvalidDeckError):
        make_deal(OFFICIAL, ("Ann", "Ben", "Cat"), {"Ann": "vampire", "left": "villager"})


def test_an_artifact_that_sets_the_role_overrides_the_mark_of_the_vampire() -> None:
    """[VR] "Artifacts & Vampire" (docs/rules.md 8b.2): the Cudgel of the Tanner beats the
    Mark of the Vampire; the Gremlin's card swap and the Robber's move the same cards."""
    cards = {"Ann": V.CURATOR, "Ben": V.VAMPIRE, "Cat": R.VILLAGER, "Dan": V.GREMLIN}
    table = {**cards, "left": R.VILLAGER, "middle": R.SEER, "right": R.TANNER}
    d = Deal(OFFICIAL, ("Ann", "Ben", "Cat", "Dan"), table, artifacts=(Artifact.CUDGEL,))
    result = night(d, {"Ben": ["Cat"], "Ann": ["Cat"], "Dan": ["Ann", "Ben"]})
    assert result.marks["Cat"] is Mark.VAMPIRE and result.plays_as("Cat") is R.TANNER
    assert not result.is_vampire("Cat") and team_at_dawn(result, "Cat") is Team.TANNER
    assert result.final["Ann"] is V.VAMPIRE and result.is_vampire("Ann")  # the Gremlin's swap


def test_card_moves_interleave_with_the_gremlins_swap() -> None:
    """One night (docs/rules.md 8b.3): robber 6, witch 6b, gremlin 7d, drunk 8 move the same
    cards, in that order."""
    cards = {"Ann": R.ROBBER, "Ben": V.GREMLIN, "Cat": R.DRUNK, "Dan": R.VILLAGER, "Eve": R.WITCH}
    table = {**cards, "left": R.SEER, "middle": R.VILLAGER, "right": R.TANNER}
    d = Deal(OFFICIAL, tuple(cards), table)
    actions = {
        "Ann": ["Dan"],  # 6: Ann takes the villager, Dan holds the robber
        "Eve": ["left", "Cat"],  # 6b: the seer to Cat, the drunk to the left
        "Ben": ["Ann", "Cat"],  # 7d: Ann's villager and Cat's seer change places
        "Cat": ["right"],  # 8: Cat's villager for the tanner
    }
    result = night(d, actions)
    assert {p: c.value for p, c in result.final.items()} == {
        "Ann": "seer",
        "Ben": "gremlin",
        "Cat": "tanner",
        "Dan": "robber",
        "Eve": "witch",
        "left": "drunk",
        "middle": "villager",
        "right": "villager",
    }
    assert result.seen["Ann"]["Ann"] is R.VILLAGER  # the robber saw what it took, at 6


def test_the_doppelganger_copies_at_dusk_with_vampire_cards_else_after_the_sentinel() -> None:
    """docs/rules.md 8b.3: with a Vampire card the Doppelganger wakes at -7, before the
    Sentinel; without one at 1, after it (a shielded card cannot be copied: 8a.3)."""
    for fourth, copied in ((V.MARKSMAN, R.SEER), (R.VILLAGER, None)):
        d = deal(R.DOPPELGANGER, R.SEER, R.SENTINEL, fourth)
        result = night(d, {"Ann": ["Ben", "Dan"], "Cat": ["Ben"]})
        assert result.copied is copied
        assert ("Dan" in result.seen["Ann"]) is (copied is not None)  # the copied seer's look
