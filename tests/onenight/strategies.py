"""Hypothesis strategies for legal One Night scenarios (FORMAT.md), and for broken ones.

`scenarios()` draws a legal game: a ruleset, 3 to 12 (house) or 13 (official) players, a deck
within the limits of rules/000 s4 (official: masons in pairs, the Doppelganger allowed), a legal
night action for every start card (rules/000 s4 and s6b, rules/002 s5) and, usually, a vote for
every player (another player, or null).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from games.families.onenight.engine import (
    CENTRE_POSITIONS,
    EXPANSION_ROLES,
    Role,
    Ruleset,
    role_limits,
)

from .builders import NAMES

JSON = dict[str, Any]

MAX_TABLE = {"house": 12, "official": 13}
ROLE_NAMES = [r.value for r in Role]
SCENARIO_KEYS = ["ruleset", "players", "deal", "night", "votes"]


def full_pool(ruleset: str) -> list[str]:
    """Every base-game card the ruleset allows, each as many times as its limit (rules/000 s4).

    The expansions' roles have their own strategy (tests/onenight/test_daybreak_properties.py);
    the plain reading of the rules in reference.py is the base game's."""
    limits = role_limits(Ruleset(ruleset))
    return [r.value for r, n in limits.items() if r not in EXPANSION_ROLES for _ in range(n)]


def pick_deck(ruleset: str, shuffled: list[str], size: int) -> list[str]:
    """The first `size` cards of a shuffled full pool, fixed so official masons come in pairs
    (rules/002 s5). The result is still in a random order."""
    hand = shuffled[:size]
    rest = shuffled[size:]
    if ruleset == "official" and hand.count("mason") == 1:
        spare = [c for c in rest if c != "mason"]
        if spare:
            hand[hand.index("mason")] = spare[0]
        else:  # the other mason is the only card left out: bring it in for a non-mason
            i = next(i for i, c in enumerate(hand) if c != "mason")
            hand[i] = "mason"
    return hand


@st.composite
def targets_for(draw: st.DrawFn, role: str, actor: str, players: list[str], lone: bool) -> list:
    """A legal target list for `actor` acting as `role` (rules/000 s4, s6b; rules/002 s5)."""
    others = [p for p in players if p != actor]
    centre = list(CENTRE_POSITIONS)
    if role == "seer":
        return draw(
            st.one_of(
                st.just([]),
                st.sampled_from(others).map(lambda p: [p]),
                st.permutations(centre).map(lambda c: list(c[:2])),
            )
        )
    if role == "robber":
        return draw(st.one_of(st.just([]), st.sampled_from(others).map(lambda p: [p])))
    if role == "troublemaker":
        return draw(st.one_of(st.just([]), st.permutations(others).map(lambda o: list(o[:2]))))
    if role == "drunk":
        return [draw(st.sampled_from(centre))]
    if role == "werewolf" and lone:
        return draw(st.one_of(st.just([]), st.sampled_from(centre).map(lambda c: [c])))
    return []


@st.composite
def scenarios(draw: st.DrawFn, ruleset: str | None = None, with_votes: bool | None = None) -> JSON:
    """A legal scenario as a JSON-ready dict."""
    ruleset = ruleset or draw(st.sampled_from(["house", "official"]))
    count = draw(st.integers(3, MAX_TABLE[ruleset]))
    players = list(draw(st.permutations(NAMES))[:count])
    cards = pick_deck(ruleset, list(draw(st.permutations(full_pool(ruleset)))), count + 3)
    deal = dict(zip([*players, *CENTRE_POSITIONS], cards, strict=True))
    wolves = [p for p in players if deal[p] == "werewolf"]
    night: JSON = {}
    for player in players:
        role = deal[player]
        if role == "doppelganger":
            targets = []
            if draw(st.booleans()):
                model = draw(st.sampled_from([p for p in players if p != player]))
                rest = draw(targets_for(deal[model], player, players, lone=False))
                targets = [model, *rest]
        else:
            targets = draw(targets_for(role, player, players, lone=wolves == [player]))
        if targets or draw(st.booleans()):
            night[player] = targets
    scenario: JSON = {"ruleset": ruleset, "players": players, "deal": deal, "night": night}
    if with_votes is None:
        with_votes = draw(st.integers(0, 9)) > 0
    if with_votes:
        scenario["votes"] = {
            p: draw(st.sampled_from([*(o for o in players if o != p), None])) for p in players
        }
    return scenario


def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any JSON value, leaning on the words of the format so that deep paths get reached."""
    vocabulary = st.sampled_from(
        [*ROLE_NAMES, *CENTRE_POSITIONS, *NAMES, *SCENARIO_KEYS, "house", "official", ""]
    )
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False),
        st.text(max_size=8),
        vocabulary,
    )
    return st.recursive(
        leaves,
        lambda children: st.one_of(
            st.lists(children, max_size=5),
            st.dictionaries(st.one_of(vocabulary, st.text(max_size=5)), children, max_size=5),
        ),
        max_leaves=max_leaves,
    )


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indices) to a node of a JSON value, the root included."""
    out = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _paths(child, (*prefix, i))
    return out


WORDS = [*ROLE_NAMES, *CENTRE_POSITIONS, *NAMES, *SCENARIO_KEYS, "house", "official", "x", ""]


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> Any:
    """A legal scenario with one to three random edits: a node replaced by a word of the format
    (a role, a name, a position) or by any JSON value, a key or list item removed, or a key
    added."""
    scenario: Any = draw(scenarios())
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(scenario)[1:]  # the root itself: see test_runner_survives_any_json
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["word", "word", "replace", "delete", "add"]))
        new = draw(st.sampled_from(WORDS)) if action == "word" else draw(json_values(6))
        parent = scenario
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if action in ("word", "replace"):
            parent[last] = new
        elif action == "delete":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(WORDS))] = new
        else:
            parent.insert(last, new)
    return scenario
