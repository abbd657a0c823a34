"""The lobby's game part for multi-night Werewolf: the ruleset's roles and how many of each
are dealt, its house rules, the pace of each step, the Oxford game's pairs and crossbows, and
at a table-mode game the cards as the moderator enters them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy, pgettext_lazy

from games.tables.family import Panel, SeatInfo, TableInfo

from . import names
from . import options as table_options
from .engine import RULESETS


@dataclass(frozen=True, slots=True)
class RoleRow:
    name: str
    title: str
    side: str  # the key (a style); side_title is the word shown
    side_title: str
    count: int
    limit: int | None
    summary: str
    section: str


@dataclass(frozen=True, slots=True)
class RuleRow:
    """A house rule of the lobby: its value and each choice as (value sent, words shown)."""

    name: str
    value: str
    choices: tuple[tuple[str, str], ...]
    section: str
    summary: str

    @property
    def shown(self) -> str:
        return next((label for value, label in self.choices if value == self.value), self.value)


# The words shown for a house rule's choices; the values are the engine's (rulesets.py).
CHOICE_LABELS = {
    True: gettext_lazy("Yes"),
    False: gettext_lazy("No"),
    # Translators: rules/004's side victory, as the option's summary names it.
    "side": pgettext_lazy("victory", "side"),
    # Translators: rules/004's total victory, as the option's summary names it.
    "total": pgettext_lazy("victory", "total"),
}


def _choice_label(choice: object) -> str:
    return str(CHOICE_LABELS.get(choice, choice))


@dataclass(frozen=True, slots=True)
class LobbyView:
    ruleset: str
    ruleset_title: str
    is_host: bool
    roles: tuple[RoleRow, ...]
    total: int
    needed: int
    chosen: bool
    rules: tuple[RuleRow, ...]
    pace: str
    minutes: tuple[tuple[str, str, int], ...]
    opens_with: str
    can_open_with_day: bool
    oxford: Mapping[str, int] = field(default_factory=dict)
    table_mode: bool = False
    deal: str = "app"
    cards: tuple[tuple[int, str, str], ...] = ()  # table mode: (seat id, name, role entered)
    pair_rows: tuple[tuple[str, int, str, str], ...] = ()  # Oxford, real cards: the pairs
    crossbows: tuple[str, ...] = ()


def lobby(table: TableInfo, viewer: SeatInfo | None) -> Panel:
    rules = RULESETS[table.ruleset]
    seated = table_options.players_of(table)
    players = len(seated)
    roles = table_options.roles_of(table.ruleset, table.options, players)
    dealt = table.options.get("dealt") or {}
    chosen_rules = table.options.get("rules") or {}
    minutes = {**table_options.PACES["live"], **(table.options.get("minutes") or {})}
    steps = [s for s in table_options.STEPS if _step_applies(table.ruleset, s)]
    view = LobbyView(
        ruleset=table.ruleset,
        ruleset_title=names.text(rules.title),
        is_host=viewer is not None and viewer.is_host,
        roles=tuple(
            RoleRow(
                r.name,
                names.title(r),
                r.side,
                names.side(r.side),
                roles.get(r.name, 0),
                r.limit,
                names.text(r.summary),
                r.section,
            )
            for r in rules.roles.values()
        ),
        total=sum(roles.values()),
        needed=players,
        chosen=bool(table.options.get("roles")),
        rules=tuple(
            RuleRow(
                o.name,
                str(chosen_rules.get(o.name, o.default)),
                tuple((str(c), _choice_label(c)) for c in o.choices),
                o.section,
                names.text(o.summary),
            )
            for o in rules.options
        ),
        pace=table.options.get("pace", "live"),
        minutes=tuple((s, str(table_options.STEP_TITLES[s]), int(minutes[s])) for s in steps),
        opens_with=table.options.get("opens_with", "night"),
        can_open_with_day="day" in rules.opens_with,
        oxford={k: int(table.options.get(k, 0)) for k in ("lovers", "rivals", "crossbows")},
        table_mode=bool(table.options.get("table_mode")),
        deal=table.options.get("deal") or "app",
        cards=tuple((s.id, s.name, dealt.get(s.name, "")) for s in seated),
        pair_rows=_pair_rows(table, seated),
        crossbows=tuple(table.options.get("crossbow_holders") or ()),
    )
    return Panel("werewolf/lobby.html", {"wolf_lobby": view})


def _pair_rows(table: TableInfo, seated: list[SeatInfo]) -> tuple[tuple[str, int, str, str], ...]:
    """Table mode, Oxford, real cards: a row per pair Fate dealt (kind, index, A, B), with what
    was entered so far."""
    if table.ruleset != "oxford" or table.options.get("deal") != "cards":
        return ()
    entered = table.options.get("pairs") or {}
    rows = []
    for kind, prefix in (("lovers", "lover"), ("rivals", "rival")):
        pairs = entered.get(kind, [])
        for index in range(int(table.options.get(kind, 0))):
            a, b = pairs[index] if index < len(pairs) else ("", "")
            rows.append((prefix, index, a, b))
    return tuple(rows)


def _step_applies(ruleset: str, step: str) -> bool:
    if step in ("election", "vote"):
        return ruleset == "classic"
    if step == "call":
        return ruleset == "oxford"
    if step == "decide":
        return ruleset == "classic"
    return True
