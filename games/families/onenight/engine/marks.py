"""One Night Ultimate Vampire's marks (docs/rules.md 8b.2): one face-down token in front of
every player, and the pool ("the marks boards") the roles take them from.

Every player starts with a Mark of Clarity. A mark is only ever moved: giving one to a player
sends that player's old mark back to the pool, unseen, and two players' marks may be swapped
(the Pickpocket, the Gremlin). Nothing here creates or destroys a mark, so the seats and the
pool together always hold the box's contents; `MarkTable.contents` is that multiset, and the
property tests check it never changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from enum import StrEnum
from types import MappingProxyType

from games.words import N_, _


class Mark(StrEnum):
    """A mark; the value is the word used in scenarios and forms."""

    VAMPIRE = "vampire"
    FEAR = "fear"
    BAT = "bat"
    DISEASE = "disease"
    LOVE = "love"
    TRAITOR = "traitor"
    ASSASSIN = "assassin"
    CLARITY = "clarity"

    @property
    def title(self) -> str:  # type: ignore[override]
        """The mark's name as a player reads it ("Mark of Fear")."""
        return _(MARK_TITLES[self])


MARK_TITLES: Mapping[Mark, str] = MappingProxyType(
    {
        Mark.VAMPIRE: N_("Mark of the Vampire"),
        Mark.FEAR: N_("Mark of Fear"),
        Mark.BAT: N_("Mark of the Bat"),
        Mark.DISEASE: N_("Mark of Disease"),
        Mark.LOVE: N_("Mark of Love"),
        Mark.TRAITOR: N_("Mark of the Traitor"),
        Mark.ASSASSIN: N_("Mark of the Assassin"),
        Mark.CLARITY: N_("Mark of Clarity"),
    }
)

# The pool before the players' Marks of Clarity are dealt (8b.2): one Mark of the Vampire, and
# two sets of the others, the second for a Doppelganger (there is no Doppelganger Mark of the
# Vampire). Love comes in pairs: two per Cupid. Clarity: two per Priest.
POOL: Mapping[Mark, int] = MappingProxyType(
    {
        Mark.VAMPIRE: 1,
        Mark.FEAR: 2,
        Mark.BAT: 2,
        Mark.DISEASE: 2,
        Mark.LOVE: 4,
        Mark.TRAITOR: 2,
        Mark.ASSASSIN: 2,
        Mark.CLARITY: 4,
    }
)


class MarkTable:
    """The marks while dusk and night are played: each player's mark and the pool."""

    __slots__ = ("held", "pool")

    def __init__(self, players: Iterable[str]) -> None:
        self.held: dict[str, Mark] = {p: Mark.CLARITY for p in players}
        self.pool: Counter[Mark] = Counter(POOL)

    def give(self, mark: Mark, player: str) -> bool:
        """Put a mark from the pool in front of `player`; their old mark goes back to the pool.

        False (and nothing moves) when the pool has no such mark left."""
        if self.pool[mark] <= 0:
            return False
        self.pool[mark] -= 1
        self.pool[self.held[player]] += 1
        self.held[player] = mark
        return True

    def swap(self, a: str, b: str) -> None:
        """Two players' marks change places (the Pickpocket, the Gremlin)."""
        self.held[a], self.held[b] = self.held[b], self.held[a]

    def holders(self, mark: Mark) -> tuple[str, ...]:
        """The players holding `mark`, in seat order."""
        return tuple(p for p, m in self.held.items() if m is mark)

    def contents(self) -> Counter[Mark]:
        """Every mark on the table: in front of a player or in the pool."""
        total = Counter(self.held.values())
        total.update(self.pool)
        return +total

    def snapshot(self) -> Mapping[str, Mark]:
        return MappingProxyType(dict(self.held))
