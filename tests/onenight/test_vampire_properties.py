"""Property tests (hypothesis) over random games of the one engine whose decks mix base,
Daybreak and Vampire cards, with random legal actions: cards and marks are only moved, never
created or lost ([VR] Marks: a mark given sends the old one back to the pool); the order the
actions and votes were sent in changes nothing; every game ends with an outcome; the Epic
Battle, love and disease rules hold (docs/rules.md 8b)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.families.onenight.engine.actions import validate_action
from games.families.onenight.engine.deck import Deal, make_deal
from games.families.onenight.engine.errors import RuleError
from games.families.onenight.engine.game import finish_game
from games.families.onenight.engine.marks import POOL, Mark
from games.families.onenight.engine.messages import night_report
from games.families.onenight.engine.night import resolve_night
from games.families.onenight.engine.roles import (
    CENTRE_POSITIONS,
    Role,
    Ruleset,
    has_marks,
    role_limits,
)
from games.families.onenight.engine.roles_vampire import VAMPIRE_ROLES

from .builders import NAMES

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OFFICIAL = Ruleset.OFFICIAL
# Every official card as many times as its limit, but the Alpha Wolf (its centre werewolf card
# is tested in test_daybreak.py) and the masons (a pair or none: rules/002 s5).
POOL_OF_CARDS: tuple[Role, ...] = tuple(
    role
    for role, limit in role_limits(OFFICIAL).items()
    if role not in (Role.ALPHA_WOLF, Role.MASON)
    for _copy in range(limit)
)
WORDS = ("left", "right", "marks", "cards", "-")


def _targets(players: list[str]) -> list[tuple[str, ...]]:
    """Every target list worth trying: nothing, one or two cards or players, a word."""
    places = [*players, *CENTRE_POSITIONS]
    shapes: list[tuple[str, ...]] = [()]
    shapes += [(p,) for p in places] + [(w,) for w in ("left", "right")]
    shapes += [(a, b) for a in places for b in places if a != b]
    shapes += [(a, "-") for a in players] + [("-", b) for b in players]
    shapes += [(w, a, b) for w in ("marks", "cards") for a in players for b in players]
    return shapes


def _legal(deal: Deal, player: str) -> list[tuple[str, ...]]:
    """The legal actions of `player`, as the engine checks them."""
    players = list(deal.players)
    rests = _targets(players)
    card = deal.cards[player]
    heads: list[tuple[str, ...]] = [()]
    if card is Role.COPYCAT:
        heads = [(c,) for c in CENTRE_POSITIONS]
    elif card is Role.DOPPELGANGER:
        heads += [(p,) for p in players if p != player]
    legal = []
    for head in heads:
        for rest in rests if head or card not in (Role.DOPPELGANGER,) else [()]:
            try:
                validate_action(deal, player, head + rest)
            except RuleError:
                continue
            legal.append(head + rest)
    return legal


Game = tuple[Deal, dict[str, tuple[str, ...]], dict[str, str | None]]


@st.composite
def mixed_games(draw: st.DrawFn, *, vampire: bool = False) -> Game:
    """A random legal deck of base, Daybreak and Vampire cards (with `vampire`, at least one
    Vampire card), dealt, with a random legal action and a vote for every player."""
    count = draw(st.integers(3, 6))
    players = list(NAMES[:count])
    shuffled = draw(st.permutations(POOL_OF_CARDS))
    cards = list(shuffled[: count + 3])
    if vampire and not has_marks(cards):
        chosen = draw(st.sampled_from(sorted(VAMPIRE_ROLES)))
        cards = [chosen, *[c for c in shuffled if c is not chosen][: count + 2]]
    places = [*players, *CENTRE_POSITIONS]
    deal = make_deal(OFFICIAL, players, dict(zip(places, cards, strict=True)), strict=False)
    sent = {p: draw(st.sampled_from(_legal(deal, p))) for p in players}
    votes: dict[str, str | None] = {
        p: draw(st.sampled_from([q for q in players if q != p])) for p in players
    }
    return deal, sent, votes


def _shuffled(mapping: dict, seed: int) -> dict:  # type: ignore[type-arg]
    items = list(mapping.items())
    random.Random(seed).shuffle(items)
    return dict(items)


def _only_moved(game: Game) -> None:
    deal, actions, _votes = game
    result = resolve_night(deal, actions)
    assert Counter(result.final.values()) == Counter(deal.cards.values())
    if not has_marks(deal.cards.values()):
        assert result.marks == {} and result.told == {}  # a game with no marks, unchanged
        return
    assert set(result.marks) == set(deal.players)  # one mark each, always
    total = Counter(result.marks.values())
    total.update(result.pool)
    expected = Counter(POOL)
    expected[Mark.CLARITY] += len(deal.players)
    assert +total == +expected
    assert all(n >= 0 for n in result.pool.values())


@FAST
@given(mixed_games())
def test_cards_and_marks_are_only_moved(game: Game) -> None:
    _only_moved(game)


@FAST
@given(mixed_games(vampire=True))
def test_cards_and_marks_are_only_moved_with_vampire_cards(game: Game) -> None:
    _only_moved(game)


@FAST
@given(mixed_games(), st.integers(0, 2**16))
def test_the_order_things_were_sent_in_changes_nothing(game: Game, seed: int) -> None:
    deal, actions, votes = game
    first = resolve_night(deal, actions)
    again = resolve_night(deal, _shuffled(actions, seed))
    assert first == again
    assert all(night_report(first, p) == night_report(again, p) for p in deal.players)
    one = finish_game(first, votes)
    other = finish_game(again, _shuffled(votes, seed))
    assert one.vote == other.vote and one.outcome == other.outcome


@FAST
@given(mixed_games(vampire=True))
def test_every_game_ends_with_an_outcome_and_keeps_the_vote_rules(game: Game) -> None:
    deal, actions, votes = game
    night = resolve_night(deal, actions)
    result = finish_game(night, votes)
    vote, outcome = result.vote, result.outcome
    assert vote is not None and outcome is not None
    assert set(outcome.winners) <= set(deal.players) and outcome.reason
    assert all(night_report(night, p) for p in deal.players)
    dead = set(vote.dead)
    lovers = {p for p in deal.players if night.marks[p] is Mark.LOVE}
    if dead & lovers:
        assert lovers <= dead  # [VR] Love: they die together
    assert set(vote.lynched) <= dead
    protectors = {Role.PRINCE, Role.BODYGUARD, Role.THE_MASTER}
    others_voted = [p for p, n in vote.counts.items() if n and p not in vote.lynched]
    unprotected = not protectors & {night.plays_as(p) for p in deal.players}
    if vote.epic and vote.lynched and others_voted and unprotected:
        assert len(vote.lynched) >= 2  # rules/002 s6: at least two die
    diseased = {p for p in deal.players if night.marks[p] is Mark.DISEASE}
    for winner in outcome.winners:
        assert vote.votes[winner] not in diseased  # [VR] Disease
