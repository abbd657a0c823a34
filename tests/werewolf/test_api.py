"""The engine's API as the app will use it (issue 24, item 6): the forms each seat has now with
their legal targets, one move at a time, a phase closed at its deadline with the documented
defaults, what one seat may know, and undo."""

from __future__ import annotations

import random

import pytest

from games.families.werewolf.engine import (
    Advance,
    Decide,
    Game,
    IllegalMoveError,
    NightAction,
    OutOfTurnError,
    SheriffVote,
    UseAbility,
    Vote,
    apply,
    make_setup,
    start,
    undo,
)
from games.families.werewolf.engine.autoplay import play_randomly, random_setup
from games.families.werewolf.engine.forms import forms_for
from games.families.werewolf.engine.view import view_for

from .helpers import table

CLASSIC = table(
    "werewolf", "werewolf", "seer", "witch", "guardian", "hunter", "villager", "villager"
)


def classic(**options: object) -> Game:
    return start(make_setup("classic", list(CLASSIC), CLASSIC, options))


def test_forms_at_night_name_the_legal_targets() -> None:
    game = classic()
    (seer,) = forms_for(game.state, "Cat")
    assert (seer.kind, seer.key) == ("night", "check")
    assert "Cat" not in seer.targets and len(seer.targets) == 7
    assert seer.section.startswith("004 II")
    (kill,) = forms_for(game.state, "Ann")
    assert kill.key == "kill" and "Ann" in kill.targets
    assert forms_for(game.state, "Gus") == ()  # a villager sleeps


def test_the_witch_is_offered_the_antidote_once_the_pack_agrees() -> None:
    game = classic()
    assert [f.targets for f in forms_for(game.state, "Dan") if f.key == "save"] == [()]
    game = apply(game, NightAction("Ann", {"kill": "Gus"}))
    save = next(f for f in forms_for(game.state, "Dan") if f.key == "save")
    assert save.targets == ("Gus",)


def test_a_night_choice_may_change_until_the_night_ends() -> None:
    game = classic()
    game = apply(game, NightAction("Ann", {"kill": "Gus"}))
    game = apply(game, NightAction("Ann", {"kill": "Hal"}))
    game = apply(game, Advance())
    assert "Hal" in game.state.deaths and "Gus" not in game.state.deaths


def test_at_the_deadline_a_split_pack_attacks_its_majority_or_nobody() -> None:
    """docs/rules.md 10: the documented default for a pack still split at the deadline."""
    game = classic()
    game = apply(game, NightAction("Ann", {"kill": "Gus"}))
    game = apply(game, NightAction("Ben", {"kill": "Hal"}))
    with pytest.raises(IllegalMoveError):
        apply(game, Advance())
    after = apply(game, Advance(at_deadline=True))
    assert after.state.deaths == {}
    three = table("werewolf", "werewolf", "werewolf", "seer", "villager", "villager", "villager")
    game = start(make_setup("classic", list(three), three))
    for wolf, target in (("Ann", "Eve"), ("Ben", "Eve"), ("Cat", "Fay")):
        game = apply(game, NightAction(wolf, {"kill": target}))
    assert list(apply(game, Advance(at_deadline=True)).state.deaths) == ["Eve"]


def test_a_pending_shot_waits_for_the_hunter_and_the_deadline_declines_it() -> None:
    game = apply(apply(classic(), NightAction("Ann", {"kill": "Fay"})), Advance())
    assert game.state.awaited is not None and game.state.awaited.player == "Fay"
    (shot,) = forms_for(game.state, "Fay")
    assert shot.kind == "decide" and shot.optional and "Fay" not in shot.targets
    assert forms_for(game.state, "Cat") == ()
    with pytest.raises(OutOfTurnError):
        apply(game, Vote("Cat", "Ann"))
    declined = apply(game, Advance(at_deadline=True))
    assert declined.state.phase.label == "day 1" and declined.state.awaited is None
    shot_game = apply(game, Decide("Fay", "shoot", "Ann"))
    assert "Ann" in shot_game.state.deaths


def test_day_steps_election_speeches_vote() -> None:
    game = apply(classic(), Advance())
    assert (game.state.phase.label, game.state.step) == ("day 1", "election")
    assert [f.kind for f in forms_for(game.state, "Gus")] == ["sheriff_vote"]
    game = apply(game, SheriffVote("Gus", "Gus"))
    game = apply(game, Advance())
    assert game.state.sheriff == "Gus" and game.state.step == "speech"
    with pytest.raises(OutOfTurnError):
        apply(game, Vote("Gus", "Ann"))
    assert [f.key for f in forms_for(game.state, "Ann")] == ["explode"]
    game = apply(game, Advance())
    assert [f.kind for f in forms_for(game.state, "Ann")] == ["vote"]


def test_a_day_ability_is_refused_out_of_turn() -> None:
    game = classic()
    with pytest.raises(OutOfTurnError):
        apply(game, UseAbility("Ann", "explode"))


def test_what_each_seat_may_know() -> None:
    """A seat sees its own role and what its role knows, never another seat's secret."""
    game = classic()
    game = apply(game, NightAction("Ann", {"kill": "Gus"}))
    game = apply(game, NightAction("Cat", {"check": "Ben"}))
    wolf = view_for(game, "Ben")
    assert wolf.known == {"Ann": "werewolf", "Ben": "werewolf"}
    assert wolf.pack == {"Ann": "Gus"}
    villager = view_for(game, "Gus")
    assert villager.known == {"Gus": "villager"} and villager.pack == {}
    game = apply(game, Advance())
    seer = view_for(game, "Cat")
    assert seer.told[-1][1] == {"seen": {"Ben": "werewolf"}}
    assert view_for(game, "Hal").told == ()
    spectator = view_for(game, None)
    assert spectator.known == {} and spectator.role is None
    assert spectator.thread[0].dead == ("Gus",)


def test_the_forum_reveals_the_dead_and_the_end_reveals_everyone() -> None:
    seven = table("werewolf", "werewolf", "lunatic", "seer", "protector", "villager", "villager")
    game = start(make_setup("forum", list(seven), seven))
    game = apply(game, NightAction("Ann", {"kill": "Fay"}))
    game = apply(game, Advance())
    assert view_for(game, None).known == {"Fay": "villager"}
    assert view_for(game, "Ann").known["Cat"] == "lunatic"  # 001: the wolves know the lunatic
    finished = play_randomly(start(random_setup("forum", random.Random(4), 7)), random.Random(4))
    assert finished.state.over
    assert len(view_for(finished, None).known) == 7


def test_undo_from_a_stored_log() -> None:
    """A game restored from its log (as the app stores it) undoes by replaying."""
    game = apply(apply(classic(), NightAction("Ann", {"kill": "Gus"})), Advance())
    restored = Game.from_log(game.setup, game.log)
    back = undo(restored)
    assert back.state.signature() == undo(game).state.signature()
    assert back.state.phase.label == "night 1"
    assert undo(start(game.setup)).log == start(game.setup).log


def test_a_game_stored_as_json_plays_again_to_the_same_state() -> None:
    """codec.py: the deal and the moves, as JSON, are the whole game (a table stores them)."""
    import json

    from games.families.werewolf.engine import codec
    from games.families.werewolf.engine.events import MoveMade

    for ruleset in ("forum", "oxford", "classic"):
        rng = random.Random(ruleset)
        game = play_randomly(start(random_setup(ruleset, rng, 10)), rng)
        stored = json.loads(
            json.dumps(
                {
                    "setup": codec.setup_to_json(game.setup),
                    "moves": [
                        codec.move_to_json(e.move) for e in game.log if isinstance(e, MoveMade)
                    ],
                }
            )
        )
        again = codec.load(stored["setup"], stored["moves"])
        assert again.state.signature() == game.state.signature()
