"""A second, deliberately plain reading of the rules, to check the engine against.

Written straight from rules/000 s2, s4, s6, s8 and rules/002 s5, s6 with the engine rulings of
docs/rules.md (lone werewolf judged on the deal; the copied role stays with the Doppelganger
card; the house Tanner rule judged on werewolves only). Input: a LEGAL scenario dict (FORMAT.md);
output: the FORMAT.md result dict. No validation, no messages, no log.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

TOWN = {"seer", "robber", "troublemaker", "drunk", "insomniac", "hunter", "villager", "mason"}


def play(scenario: dict[str, Any]) -> dict[str, Any]:
    house = scenario.get("ruleset", "house") == "house"
    players: list[str] = scenario["players"]
    dealt: dict[str, str] = scenario["deal"]
    acts = {p: list(scenario.get("night", {}).get(p, [])) for p in players}
    cards = dict(dealt)
    seen: dict[str, dict[str, str]] = {p: {} for p in players}
    copied: str | None = None
    doppel = next((p for p in players if dealt[p] == "doppelganger"), None)

    def dealt_as(role: str) -> list[str]:
        return [p for p in players if dealt[p] == role]

    def swap(a: str, b: str) -> None:
        cards[a], cards[b] = cards[b], cards[a]

    def act(role: str, who: str, targets: list[str]) -> None:
        if role == "seer":
            for t in targets:
                seen[who][t] = cards[t]
        elif role == "robber" and targets:
            swap(who, targets[0])
            seen[who][who] = cards[who]
        elif role == "troublemaker" and targets:
            swap(targets[0], targets[1])
        elif role == "drunk":
            swap(who, targets[0])

    # rules/002 s5 step 1: the Doppelganger copies and acts at once.
    if doppel is not None and acts[doppel]:
        model = acts[doppel][0]
        copied = cards[model]
        seen[doppel][model] = copied
        act(copied, doppel, acts[doppel][1:])

    def awake(role: str) -> list[str]:
        return dealt_as(role) + ([doppel] if doppel and copied == role else [])

    wolves = awake("werewolf")
    for w in wolves:
        for o in wolves:
            if o != w:
                seen[w][o] = "werewolf"
    if len(dealt_as("werewolf")) == 1:
        lone = dealt_as("werewolf")[0]
        for t in acts[lone]:
            seen[lone][t] = cards[t]
    for m in awake("minion"):
        for w in wolves:
            seen[m][w] = "werewolf"
    masons = awake("mason")
    for m in masons:
        for o in masons:
            if o != m:
                seen[m][o] = "mason"
    for role in ("seer", "robber", "troublemaker", "drunk"):
        for p in dealt_as(role):
            act(role, p, acts[p])
    for p in awake("insomniac"):  # the Doppelganger-insomniac last (rules/002 s5 step 9a)
        seen[p][p] = cards[p]

    out: dict[str, Any] = {"final": dict(cards), "seen": seen}
    if not house:
        out["copied"] = copied
    votes = scenario.get("votes")
    if votes is None:
        return out

    def plays(p: str) -> str:
        return copied if cards[p] == "doppelganger" and copied else cards[p]

    role = {p: plays(p) for p in players}
    counts = Counter(v for v in votes.values() if v is not None)
    top = max(counts.values(), default=0)
    lynched = [p for p in players if counts[p] == top] if top >= 2 else []
    if lynched and house and "werewolf" not in role.values():
        tanners = {p for p in players if role[p] == "tanner"}
        rest = Counter(v for k, v in votes.items() if v is not None and k not in tanners)
        if tanners and max(rest.values(), default=0) <= 1:
            lynched = []
    dead = set(lynched)
    queue = list(lynched)
    while queue:
        p = queue.pop(0)
        if role[p] == "hunter" and votes[p] is not None and votes[p] not in dead:
            dead.add(votes[p])
            queue.append(votes[p])

    wolf_players = [p for p in players if role[p] == "werewolf"]
    minions = [p for p in players if role[p] == "minion"]
    tanner_died = any(role[p] == "tanner" for p in dead)
    if house and not wolf_players and minions:
        wolf_players = minions
    win_town = win_wolf = False
    if wolf_players:
        win_town = bool(dead & set(wolf_players))
        win_wolf = not win_town and not tanner_died
    else:
        win_town = not dead
        if not house and minions:
            win_wolf = bool(dead - set(minions)) and not dead & set(minions) and not tanner_died

    def team(p: str) -> str:
        r = role[p]
        if r in ("werewolf", "minion"):
            return "werewolf"
        if r == "tanner":
            return "tanner"
        return "town"  # town roles, and a Doppelganger that copied nothing

    winners = [
        p
        for p in players
        if (team(p) == "town" and win_town)
        or (team(p) == "werewolf" and win_wolf)
        or (team(p) == "tanner" and p in dead)
    ]
    out["dead"] = [p for p in players if p in dead]
    out["winners"] = winners
    return out
