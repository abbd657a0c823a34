"""Properties over random legal games (issue 24, item 7): nobody acts after death, every
finished game has exactly the winners its ruleset names, a night's result does not depend on
the order its actions were sent in, replaying the log gives the same state, and undo restores
the state before the last move."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.families.werewolf.engine import (
    Advance,
    Game,
    NightAction,
    apply,
    replay,
    start,
    undo,
)
from games.families.werewolf.engine.autoplay import (
    next_moves,
    play_randomly,
    random_setup,
    step_randomly,
)
from games.families.werewolf.engine.events import (
    AbilityUsed,
    ActionChosen,
    CallVoted,
    SheriffVoted,
    Voted,
)
from games.families.werewolf.engine.forms import forms_for
from games.families.werewolf.engine.state import State

RULESETS = st.sampled_from(["forum", "oxford", "classic"])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SIZES = st.integers(min_value=4, max_value=16)


def random_finished_game(ruleset: str, seed: int, players: int) -> Game:
    rng = random.Random(seed)
    return play_randomly(start(random_setup(ruleset, rng, players)), rng)


@settings(max_examples=150, deadline=None)
@given(ruleset=RULESETS, seed=SEEDS, players=SIZES)
def test_nobody_acts_after_death(ruleset: str, seed: int, players: int) -> None:
    """FORMAT: "The dead take no actions" (a dead hunter's shot is a reaction on death)."""
    game = random_finished_game(ruleset, seed, players)
    state = State(game.setup)
    for event in game.log:
        actor = None
        if isinstance(event, ActionChosen | AbilityUsed):
            actor = event.player
            if (
                isinstance(event, AbilityUsed)
                and event.ability == "shoot"
                and (event.player in state.deaths)
            ):
                actor = None  # 004 II: the hunter's and the werewolf king's shot on death
        elif isinstance(event, Voted | SheriffVoted | CallVoted):
            actor = event.voter
        if actor is not None:
            assert actor in state.alive, f"{actor} acted after death: {event}"
        event.apply(state)
    for player in game.setup.players:
        if player not in state.alive and (state.awaited is None or state.awaited.player != player):
            assert forms_for(state, player) == ()


def expected_winners(game: Game) -> tuple[str, tuple[str, ...]] | None:
    """The winners by FORMAT's words, written again plainly from the final state."""
    setup, state = game.setup, game.state
    outcome = state.outcome
    if outcome is None:
        return None
    side_of = {p: setup.roles[p].side for p in setup.players}
    if setup.ruleset.name in ("forum", "classic"):
        if outcome.winner == "none":
            return "none", ()
        members = tuple(p for p in setup.players if side_of[p] == outcome.winner)
        return outcome.winner, members
    living = [p for p in setup.players if p in state.alive]
    if outcome.winner == "lovers":
        return "lovers", tuple(living)
    star = {p for a, b in setup.lovers if side_of[a] != side_of[b] for p in (a, b)}
    duelling = {p for a, b in setup.rivals if a in state.alive and b in state.alive for p in (a, b)}
    return outcome.winner, tuple(
        p for p in living if side_of[p] == outcome.winner and p not in star | duelling
    )


@settings(max_examples=200, deadline=None)
@given(ruleset=RULESETS, seed=SEEDS, players=SIZES)
def test_finished_games_have_the_winners_their_ruleset_names(
    ruleset: str, seed: int, players: int
) -> None:
    game = random_finished_game(ruleset, seed, players)
    outcome = game.state.outcome
    if outcome is None:
        return
    assert outcome.winner in game.setup.ruleset.sides
    assert (outcome.winner, outcome.winners) == expected_winners(game)


@settings(max_examples=100, deadline=None)
@given(ruleset=RULESETS, seed=SEEDS, players=SIZES, order=st.randoms(use_true_random=False))
def test_a_night_does_not_depend_on_the_order_of_its_actions(
    ruleset: str, seed: int, players: int, order: random.Random
) -> None:
    """FORMAT: all of a night's actions take effect together."""
    rng = random.Random(seed)
    game = start(random_setup(ruleset, rng, players))
    for _ in range(12):
        if game.state.over:
            return
        if game.state.phase.kind == "night" and not game.state.pending:
            actions = [m for m in next_moves(game, rng) if isinstance(m, NightAction)]
            shuffled = actions[:]
            order.shuffle(shuffled)
            one, other = game, game
            for move in actions:
                one = apply(one, move)
            for move in shuffled:
                other = apply(other, move)
            one, other = apply(one, Advance()), apply(other, Advance())
            assert one.state.signature() == other.state.signature()
            game = one
        else:
            game = step_randomly(game, rng)


@settings(max_examples=100, deadline=None)
@given(ruleset=RULESETS, seed=SEEDS, players=SIZES)
def test_replaying_the_log_gives_the_same_state(ruleset: str, seed: int, players: int) -> None:
    game = random_finished_game(ruleset, seed, players)
    assert replay(game.setup, game.log).signature() == game.state.signature()


@settings(max_examples=60, deadline=None)
@given(ruleset=RULESETS, seed=SEEDS, players=SIZES)
def test_undo_restores_the_state_before_the_last_move(
    ruleset: str, seed: int, players: int
) -> None:
    """Table mode's undo (issue 24, item 3): dropping the last step's events."""
    rng = random.Random(seed)
    game = start(random_setup(ruleset, rng, players))
    for _ in range(40):
        if game.state.over:
            break
        for move in next_moves(game, rng):
            after = apply(game, move)
            back = undo(after)
            assert back.log == game.log
            assert back.state.signature() == game.state.signature()
            game = after
            if game.state.over or game.state.pending:
                break
