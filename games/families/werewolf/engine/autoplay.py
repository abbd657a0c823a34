"""Random legal games through the public API: for the property tests and the benchmark.

`random_setup` deals a table along the documents' recommended line-ups; `play_randomly` plays
it to its end (or to `max_phases`) choosing every move from `forms_for`, so every game it makes
is legal by construction and exercises the same code a table does.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .forms import Form, forms_for
from .game import Game, apply, start
from .moves import (
    Accuse,
    Advance,
    CallVote,
    Decide,
    Move,
    NightAction,
    SheriffVote,
    Smite,
    UseAbility,
    Vote,
)
from .night import killers
from .roles import Timing
from .rulesets import RULESETS
from .setup import NOBODY, Setup, make_setup

NAMES = tuple(f"P{i:02d}" for i in range(1, 31))
CLASSIC_WOLVES = (
    "wolf_beauty",
    "white_wolf_king",
    "hidden_wolf",
    "wolf_king",
    "wraith_rider",
    "stone_ghost",
)
CLASSIC_DIVINES = (
    "seer",
    "witch",
    "hunter",
    "guardian",
    "knight",
    "idiot",
    "silencer",
    "grave_keeper",
)


def random_setup(ruleset: str, rng: random.Random, players: int = 12) -> Setup:
    """A legal deal for `players` seats, shuffled, with random options and extras."""
    names = list(NAMES[:players])
    roles = _line_up(ruleset, rng, players)
    rng.shuffle(roles)
    dealt = dict(zip(names, roles, strict=True))
    options: dict[str, object] = {}
    extras: dict[str, object] = {}
    if ruleset == "classic":
        for option in RULESETS["classic"].options:
            options[option.name] = rng.choice(option.choices)
    if ruleset == "oxford":
        wolves = [p for p in names if dealt[p] in ("werewolf", "dark_villager")]
        extras["crossbows"] = [p for p in wolves if rng.random() < 0.2]
        free = names[:]
        rng.shuffle(free)
        pairs = [free[i : i + 2] for i in range(0, len(free) - 1, 2)]
        lovers = rng.randint(0, min(2, len(pairs)))
        rivals = rng.randint(0, min(1, len(pairs) - lovers))
        extras["lovers"] = pairs[:lovers]
        extras["rivals"] = pairs[lovers : lovers + rivals]
    opens = "day" if ruleset == "forum" and rng.random() < 0.3 else "night"
    return make_setup(ruleset, names, dealt, options, opens_with=opens, **extras)


def _line_up(ruleset: str, rng: random.Random, n: int) -> list[str]:
    if ruleset == "forum":  # 001: two werewolves and a lunatic at 7-8 players
        wolves = max(1, round(n / 4))
        return (
            ["werewolf"] * wolves
            + ["lunatic", "seer", "protector"]
            + ["villager"] * (n - wolves - 3)
        )
    if ruleset == "oxford":  # 003 Premise: about a third are werewolves
        wolves = max(1, n // 3)
        cast = ["werewolf"] * wolves
        if rng.random() < 0.5 and wolves > 1:
            cast[-1] = "dark_villager"
        extra = ["wolfsbane", "wolfsbane", "trapper", "trapper", "vigilante", "mayor", "cultist"]
        rng.shuffle(extra)
        cast += extra[: max(0, n - wolves - 2)]
        return cast + ["villager"] * (n - len(cast))
    # 004 VI: 2 werewolves at 6-8 players, 3 at 9-11, 4 at 12-15, 5 from 16
    wolves = 1 if n < 6 else 2 if n < 9 else 3 if n < 12 else 4 if n < 16 else 5
    specials = rng.sample(CLASSIC_WOLVES, rng.randint(0, min(wolves, 3)))
    cast = specials + ["werewolf"] * (wolves - len(specials))
    divines = ["seer", "witch", "hunter", *rng.sample(CLASSIC_DIVINES[3:], 3)]
    cast += divines[: max(1, n - wolves - 2)]
    return cast + ["villager"] * (n - len(cast))


def play_randomly(game: Game, rng: random.Random, max_phases: int = 60) -> Game:
    """Play random legal moves until the game ends or `max_phases` phases have begun."""
    phases = 0
    while not game.state.over and phases < max_phases:
        before = game.state.phase
        game = step_randomly(game, rng)
        if game.state.phase != before:
            phases += 1
    return game


def step_randomly(game: Game, rng: random.Random) -> Game:
    """One batch of `next_moves`, applied until it ends or a death changes the table."""
    before = game.state.phase
    for move in next_moves(game, rng):
        game = apply(game, move)
        now = game.state
        if now.over:
            break
        if not isinstance(move, Advance) and (now.pending or now.day_over or now.phase != before):
            break  # a death changed the table: choose the next moves afresh
    return game


def random_game(ruleset: str, rng: random.Random, players: int = 12) -> Game:
    return play_randomly(start(random_setup(ruleset, rng, players)), rng)


def next_moves(game: Game, rng: random.Random) -> Iterator[Move]:
    """The next few moves: a decision, or a night's actions, or a step of the day's business,
    then Advance. Made lazily from the state they start from: apply them in order and stop
    when a death changes the table (as `play_randomly` does)."""
    state = game.state
    if state.pending:
        awaited = state.awaited
        assert awaited is not None
        (form,) = forms_for(state, awaited.player)
        yield Decide(awaited.player, awaited.kind, _pick(form, rng, rest=0.2))
        return
    assert state.phase is not None
    if state.phase.kind == "night":
        yield from _night(game, rng)
    else:
        yield from _day(game, rng)
    yield Advance()


def _pick(form: Form, rng: random.Random, rest: float = 0.0) -> str | None:
    if not form.targets or rng.random() < rest:
        return None
    return rng.choice(form.targets)


def _night(game: Game, rng: random.Random) -> Iterator[Move]:
    """The pack mostly agrees on one victim, as packs that talk in the day do; the others use
    their abilities most nights."""
    state = game.state
    setup = state.setup
    pack = killers(state)
    living = state.living()
    prey = [p for p in living if p not in pack] or living
    victim = rng.choice(prey) if rng.random() < 0.85 else None
    agreed = setup.ruleset.pack == "agreed"
    for wolf in pack:
        forms = [f for f in forms_for(state, wolf) if f.kind == "night"]
        (kill,) = [f for f in forms if f.group_key]
        if victim is not None and rng.random() < 0.9:
            target = victim
        elif agreed:
            continue  # 004: a killer who cannot agree holds off
        else:
            target = rng.choice(kill.targets)
        choice: dict[str, object] = {kill.key: target}
        for form in forms:  # a killer's other night abilities (the wolf beauty's charm)
            if not form.group_key and form.targets and rng.random() < 0.8:
                choice[form.key] = rng.choice(form.targets)
        yield NightAction(wolf, choice)
    for player in living:
        if player in pack or not setup.roles[player].at(Timing.NIGHT):
            continue
        choice = {}
        for form in forms_for(game.state, player):
            if form.kind == "night" and form.targets and rng.random() < 0.85:
                choice[form.key] = True if form.key == "save" else rng.choice(form.targets)
                if setup.roles[player].one_ability_a_night:
                    break
        if choice:
            yield NightAction(player, choice)


def _day(game: Game, rng: random.Random) -> Iterator[Move]:
    state = game.state
    living = state.living()
    if state.step == "election":
        for voter in living:
            if rng.random() < 0.8:
                yield SheriffVote(voter, rng.choice(living))
        return
    if state.step == "speech":
        yield from _speeches(game, rng)
        return
    for voter in living:
        forms = [f for f in forms_for(state, voter) if f.kind == "vote"]
        if forms and rng.random() < 0.9:
            targets = forms[0].targets
            if rng.random() < 0.6:  # the village tends to agree: a few candidates get most votes
                targets = targets[: max(2, len(targets) // 3)]
            yield Vote(voter, rng.choice(targets))


def _speeches(game: Game, rng: random.Random) -> Iterator[Move]:
    """Now and then a day ability; in rules/003, an execution call most days, and rarely a
    smite."""
    state = game.state
    living = state.living()
    if rng.random() < 0.3:
        player = rng.choice(living)
        for form in forms_for(state, player):
            if form.kind == "day":
                rest = 0.3 if form.optional else 0.0
                yield UseAbility(player, form.key, _pick(form, rng, rest=rest))
                return
    if state.setup.ruleset.day != "execution_calls" or len(living) < 3:
        return
    if rng.random() < 0.7:
        accused, by, second = rng.sample(living, 3)
        yield Accuse(accused, by, second)
        for voter in living:
            if rng.random() < 0.5:
                yield CallVote(voter, True)
        yield Advance()
    elif rng.random() < 0.05:
        yield Smite(rng.choice(living))


__all__ = ["NOBODY", "next_moves", "play_randomly", "random_game", "random_setup", "step_randomly"]
