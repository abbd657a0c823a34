"""Property tests (hypothesis) over random Vampire games: marks and cards are only moved, never
created or lost ([VR] Marks: a mark given sends the old one back to the pool); the order the
actions and votes were sent in changes nothing; the Epic Battle and love rules hold
(docs/rules.md 8b)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.families.onenight.engine.dusk import (
    VampireDeal,
    resolve_vampire_night,
    validate_vampire_actions,
)
from games.families.onenight.engine.epic import decide_vampire_outcome, tally_vampire_votes
from games.families.onenight.engine.errors import RuleError
from games.families.onenight.engine.marks import POOL, Mark
from games.families.onenight.engine.roles import CENTRE_POSITIONS, Role
from games.families.onenight.engine.vampire_roles import Card, VampireRole

from .builders import NAMES

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BASE: tuple[Card, ...] = (
    Role.VILLAGER,
    Role.VILLAGER,
    Role.WEREWOLF,
    Role.WEREWOLF,
    Role.SEER,
    Role.TANNER,
    Role.HUNTER,
    Role.MINION,
    Role.PRINCE,
    Role.BODYGUARD,
    Role.DOPPELGANGER,
)


def _shapes(players: list[str]) -> list[tuple[str, ...]]:
    shapes: list[tuple[str, ...]] = [()]
    shapes += [(c,) for c in CENTRE_POSITIONS]
    shapes += [(p,) for p in players]
    shapes += [(a, b) for a in players for b in players]
    shapes += [(a, "-") for a in players] + [("-", b) for b in players]
    shapes += [(w, a, b) for w in ("marks", "cards") for a in players for b in players]
    return shapes


def _legal(
    deal: VampireDeal, player: str, sent: dict[str, tuple[str, ...]]
) -> list[tuple[str, ...]]:
    players = list(deal.players)
    rests = _shapes(players)
    heads: list[tuple[str, ...]] = [()]
    card = deal.cards[player]
    if card is VampireRole.COPYCAT:
        heads = [(c,) for c in CENTRE_POSITIONS]
    elif card is Role.DOPPELGANGER:
        heads = [()] + [(p,) for p in players if p != player]
    legal = []
    for head in heads:
        for rest in rests if head else [()] if card is Role.DOPPELGANGER else rests:
            try:
                validate_vampire_actions(deal, {**sent, player: head + rest})
            except RuleError:
                continue
            legal.append(head + rest)
    return legal


@st.composite
def vampire_games(
    draw: st.DrawFn,
) -> tuple[VampireDeal, dict[str, tuple[str, ...]], dict[str, str | None]]:
    count = draw(st.integers(3, 6))
    players = list(NAMES[:count])
    pool = list(VampireRole) + list(BASE)
    cards = draw(st.permutations(pool))[: count + 3]
    table: dict[str, Card] = dict(zip(players + list(CENTRE_POSITIONS), cards, strict=True))
    deal = VampireDeal(tuple(players), table)
    sent: dict[str, tuple[str, ...]] = {}
    # The Copycat first: what a Doppelganger copying it may send depends on its copy.
    for player in sorted(players, key=lambda p: deal.cards[p] is not VampireRole.COPYCAT):
        choices = _legal(deal, player, sent)
        sent[player] = draw(st.sampled_from(choices))
    votes: dict[str, str | None] = {
        p: draw(st.sampled_from([q for q in players if q != p])) for p in players
    }
    return deal, sent, votes


def _shuffled(mapping: dict, seed: int) -> dict:  # type: ignore[type-arg]
    items = list(mapping.items())
    random.Random(seed).shuffle(items)
    return dict(items)


@FAST
@given(vampire_games())
def test_marks_and_cards_are_only_moved(game: tuple) -> None:  # type: ignore[type-arg]
    deal, actions, _votes = game
    result = resolve_vampire_night(deal, actions)
    assert set(result.marks) == set(deal.players)  # one mark each, always
    total = Counter(result.marks.values())
    total.update(result.pool)
    expected = Counter(POOL)
    expected[Mark.CLARITY] += len(deal.players)
    assert +total == +expected
    assert Counter(result.cards.values()) == Counter(deal.cards.values())
    assert all(n >= 0 for n in result.pool.values())


@FAST
@given(vampire_games(), st.integers(0, 2**16))
def test_the_order_things_were_sent_in_changes_nothing(game: tuple, seed: int) -> None:  # type: ignore[type-arg]
    deal, actions, votes = game
    first = resolve_vampire_night(deal, actions)
    again = resolve_vampire_night(deal, _shuffled(actions, seed))
    assert first == again
    vote = tally_vampire_votes(first, votes)
    vote_again = tally_vampire_votes(again, _shuffled(votes, seed))
    assert vote == vote_again
    assert decide_vampire_outcome(first, vote) == decide_vampire_outcome(again, vote_again)


@FAST
@given(vampire_games())
def test_the_vote_keeps_its_rules(game: tuple) -> None:  # type: ignore[type-arg]
    deal, actions, votes = game
    night = resolve_vampire_night(deal, actions)
    vote = tally_vampire_votes(night, votes)
    outcome = decide_vampire_outcome(night, vote)
    dead = set(vote.dead)
    lovers = {p for p in deal.players if night.marks[p] is Mark.LOVE}
    if dead & lovers:
        assert lovers <= dead  # [VR] Love: they die together
    assert set(vote.lynched) <= dead
    protectors = {Role.PRINCE, Role.BODYGUARD, VampireRole.THE_MASTER}
    others_voted = [p for p, n in vote.counts.items() if n and p not in vote.lynched]
    unprotected = not protectors & {night.plays_as(p) for p in deal.players}
    if vote.epic and vote.lynched and others_voted and unprotected:
        assert len(vote.lynched) >= 2  # rules/002 s6: at least two die
    diseased = {p for p in deal.players if night.marks[p] is Mark.DISEASE}
    for winner in outcome.winners:
        assert vote.votes[winner] not in diseased  # [VR] Disease
