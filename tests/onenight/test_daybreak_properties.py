"""Property tests (hypothesis) over random Daybreak games of the official ruleset and of the
house rules with Daybreak's cards added (docs/rules.md 8a.8): cards and tokens are only moved,
never created or lost; the order the actions (and votes) were sent in changes nothing
(docs/rules.md, Daybreak)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.families.onenight.engine import (
    CENTRE_POSITIONS,
    CENTRE_WOLF,
    Role,
    RuleError,
    Ruleset,
    deal_cards,
    play_game,
    role_limits,
    validate_action,
)
from games.families.onenight.engine.artifacts import ARTIFACT_PILE
from games.families.onenight.engine.deck import Deal

from .builders import NAMES

OFFICIAL = Ruleset.OFFICIAL
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _candidates(deal: Deal, player: str) -> list[tuple[str, ...]]:
    players = list(deal.players)
    centre = list(CENTRE_POSITIONS)
    shapes: list[tuple[str, ...]] = [(), ("left",), ("right",)]
    shapes += [(p,) for p in players]
    shapes += [(a, b) for a in players for b in players if a != b]
    shapes += [(a, b) for a in centre for b in centre if a < b]
    shapes += [(c, p) for c in centre for p in players]
    legal = []
    for shape in shapes:
        try:
            legal.append(validate_action(deal, player, shape))
        except RuleError:
            continue
    if deal.cards[player] is Role.DOPPELGANGER:
        for model in players:
            for rest in [(), *shapes[1:]]:
                try:
                    legal.append(validate_action(deal, player, (model, *rest)))
                except RuleError:
                    continue
    return legal


@st.composite
def daybreak_games(draw: st.DrawFn) -> tuple[Deal, dict[str, tuple[str, ...]], dict[str, Any]]:
    """A legal game with Daybreak's roles in the deck, official or house: a deal, every
    player's action and every player's vote."""
    ruleset = draw(st.sampled_from([OFFICIAL, Ruleset.HOUSE]))
    count = draw(st.integers(3, 9))
    players = list(draw(st.permutations(NAMES))[:count])
    pool = [r for r, n in role_limits(ruleset).items() for _ in range(n)]
    shuffled = list(draw(st.permutations(pool)))
    hand = shuffled[: count + 3]
    if ruleset is OFFICIAL and hand.count(Role.MASON) == 1:  # rules/002 s5: masons in pairs
        spare = (Role.MASON, Role.WEREWOLF)
        hand = [r for r in hand if r is not Role.MASON]
        hand.append(next(r for r in shuffled[count + 3 :] if r not in spare))
    if Role.ALPHA_WOLF in hand:  # Daybreak: the centre werewolf card
        hand.append(Role.WEREWOLF)
        if hand.count(Role.WEREWOLF) > 3:
            return draw(daybreak_games())
    seed = draw(st.integers(0, 2**16))
    try:
        deal = deal_cards(ruleset, players, hand, random.Random(seed))
    except RuleError:
        return draw(daybreak_games())
    actions = {}
    for player in players:
        legal = _candidates(deal, player)
        if legal:
            actions[player] = draw(st.sampled_from(legal))
    votes = {p: draw(st.sampled_from([o for o in players if o != p])) for p in players}
    return deal, actions, votes


@FAST
@given(daybreak_games())
def test_cards_and_tokens_are_only_moved(game: Any) -> None:
    """Daybreak: every card dealt is somewhere at dawn (the centre werewolf card too), each
    shield lies on a player's card, each artifact is one of the pile, used at most once."""
    deal, actions, votes = game
    result = play_game(deal, actions, votes)
    night = result.night
    assert Counter(night.final.values()) == Counter(deal.cards.values())
    assert list(night.final) == list(deal.positions)
    assert len(night.shields) <= 2 and set(night.shields) <= set(deal.players)
    placed = list(night.artifacts.values())
    assert len(placed) == len(set(placed)) <= 2
    assert placed == list(deal.artifacts[: len(placed)])
    assert set(night.artifacts) <= set(deal.players)
    assert set(night.revealed) <= set(deal.players)
    assert set(deal.artifacts) <= set(ARTIFACT_PILE)
    if CENTRE_WOLF in deal.cards:
        assert CENTRE_WOLF in night.final


@FAST
@given(daybreak_games(), st.randoms(use_true_random=False))
def test_daybreak_result_does_not_depend_on_the_order_sent(game: Any, rnd: Any) -> None:
    """Actions are sent in at once and played in the wake order: their order changes nothing."""
    deal, actions, votes = game
    items = list(actions.items())
    rnd.shuffle(items)
    vote_items = list(votes.items())
    rnd.shuffle(vote_items)
    a = play_game(deal, actions, votes)
    b = play_game(deal, dict(items), dict(vote_items))
    assert dict(a.night.final) == dict(b.night.final)
    assert a.night.seen == b.night.seen
    assert a.night.shields == b.night.shields
    assert a.night.artifacts == b.night.artifacts
    assert a.night.revealed == b.night.revealed
    assert a.night.log == b.night.log
    assert a.vote == b.vote and a.outcome == b.outcome
