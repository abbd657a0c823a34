"""The night's ledger: what the night's actions add up to before anyone dies.

The night is a fold (night.py): every action, in its ruleset's precedence bands, is applied by
its resolver to one `Ledger`; the ruleset's daybreak rule then reads the ledger to decide who
dies. The ledger is a working value of one night and is never stored.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .roles import Ability
from .state import State


@dataclass(frozen=True, slots=True)
class Act:
    """One action of the night: `actor` uses `ability` on `target` (None: no target)."""

    actor: str
    ability: Ability
    target: str | None = None
    by: tuple[str, ...] = ()  # a pack's choice: every werewolf who chose it


@dataclass(slots=True)
class Ledger:
    """Attacks, protections, hits and information of one night, from the state at nightfall."""

    state: State
    attacked: str | None = None  # the pack's one victim (rules/001, rules/004)
    attackers: tuple[str, ...] = ()
    mauls: list[tuple[str, str]] = field(default_factory=list)  # rules/003: (werewolf, target)
    shields: dict[str, set[str]] = field(default_factory=dict)  # target -> kinds of protection
    traps: dict[str, list[str]] = field(default_factory=dict)  # target -> trappers
    hits: Counter[str] = field(default_factory=Counter)
    poisoned: dict[str, str] = field(default_factory=dict)  # target -> witch
    checked: dict[str, list[str]] = field(default_factory=dict)  # target -> seers who checked
    told: dict[str, dict[str, object]] = field(default_factory=dict)
    deaths: list[tuple[str, str, str | None]] = field(default_factory=list)  # (who, cause, by)
    silenced: str | None = None
    charms: list[tuple[str, str]] = field(default_factory=list)
    used: list[tuple[str, str, str | None]] = field(default_factory=list)

    def tell(self, player: str, **info: object) -> None:
        self.told.setdefault(player, {}).update(info)

    def shield(self, target: str, kind: str) -> None:
        self.shields.setdefault(target, set()).add(kind)

    def shielded(self, target: str, kind: str) -> bool:
        return kind in self.shields.get(target, ())
