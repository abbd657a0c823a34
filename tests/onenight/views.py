"""What a player's private texts may mention: used by the message tests and the properties.

A night report may name only positions the player saw, the player's own targets and the player
themself, and may name a card ("the Seer") only if the player saw that card somewhere
(rules/000 s3b: "players will not receive what role they are at the end of the night phase"
unless their role says so; rules/000 s4 for what each role learns).
"""

from __future__ import annotations

import re

from games.families.onenight.engine import CENTRE_POSITIONS, NightResult, Role
from games.families.onenight.engine.messages import night_report


def mentioned(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text) is not None


def report_leaks(result: NightResult, player: str) -> list[str]:
    """Everything `player`'s night report says that the rules did not show them."""
    text = " ".join(night_report(result, player))
    seen = result.seen[player]
    allowed = {player, *seen, *result.actions.get(player, ())}
    leaks = [
        f"position {pos}"
        for pos in (*result.deal.players, *CENTRE_POSITIONS)
        if pos not in allowed and mentioned(text, pos)
    ]
    leaks += [
        f"card {role.title}"
        for role in Role
        if role not in seen.values() and mentioned(text, f"the {role.title}")
    ]
    return leaks
