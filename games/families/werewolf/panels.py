"""What one seat may see of a multi-night game, built from the engine's `view_for` and nothing
else: its role card, whom its role knows, what it was told each night, the forms it has now,
its pack's choices if it hunts with one, and the public story of the game. At the end,
everything: every role and every move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.tables.family import Panel, SeatInfo, TableInfo

from . import options as table_options
from .engine import NOBODY, RULESETS, Role
from .engine.causes import described
from .engine.forms import Form
from .engine.report import PhaseReport, phase_reports
from .engine.view import PublicPhase, SeatView, view_for
from .play import asked, game_of, label, name_of

FORM_TITLES = {
    "kill": "The pack's victim",
    "see": "Investigate",
    "protect": "Protect",
    "maul": "Maul",
    "trap": "Set a trap",
    "charm": "Charm",
    "save": "Use the antidote",
    "poison": "Poison",
    "check": "Check",
    "guard": "Guard",
    "silence": "Silence",
}


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class FormView:
    """One form of the seat, with its targets as the page posts them (seat ids)."""

    kind: str
    key: str
    title: str
    summary: str
    section: str
    options: tuple[Option, ...]
    optional: bool


@dataclass(frozen=True, slots=True)
class WerewolfView:
    label: str
    me: SeatInfo | None
    role: Role | None
    alive: bool
    known: tuple[tuple[str, str], ...]
    told: tuple[tuple[str, tuple[str, ...]], ...]
    night: tuple[FormView, ...] = ()
    forms: tuple[FormView, ...] = ()
    pack: tuple[tuple[str, str], ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()  # rules/003: your lover or your rival
    done: bool = False
    waiting_for: str = ""
    accusation: Mapping[str, str] | None = None
    can_second: bool = False
    thread: tuple[tuple[str, tuple[str, ...]], ...] = ()
    sheriff: str | None = None
    outcome: Any = None
    reveal: tuple[tuple[str, str, bool, bool], ...] = ()
    record: tuple[tuple[str, tuple[str, ...]], ...] = ()
    is_host: bool = False
    ruleset: str = ""
    step: str = ""
    phase_kind: str = ""


def _told_lines(info: Mapping[str, object]) -> list[str]:
    """A night's private result in words."""
    lines = []
    seen = info.get("seen")
    if isinstance(seen, dict):
        lines += [f"{who} shows as: {what.replace('_', ' ')}." for who, what in seen.items()]
    if "protected" in info:
        hit = (
            "and they were attacked: you saved them"
            if info.get("attacked")
            else "who was not attacked"
        )
        lines.append(f"You protected {info['protected']}, {hit}.")
    if info.get("saved_from_attack"):
        lines.append("The werewolves attacked you, but someone protected you.")
    if "attack_blocked" in info:
        lines.append(f"The attack on {info['attack_blocked']} was blocked by a protector.")
    if "werewolves" in info:
        pack = ", ".join(info["werewolves"])  # type: ignore[arg-type]
        dark = info.get("dark_villager")
        lines.append(
            f"The werewolves are {pack}." + (f" The dark villager is {dark}." if dark else "")
        )
    if "cultists" in info:
        lines.append(f"The cultists are {', '.join(info['cultists'])}.")  # type: ignore[arg-type]
    if "attacked" in info and "protected" not in info:
        victim = info["attacked"]
        lines.append(
            f"The werewolves attacked {victim} tonight."
            if victim
            else "The werewolves attacked nobody tonight."
        )
    return lines


def _public_lines(phase: PublicPhase) -> list[str]:
    lines = []
    if phase.dead:
        lines.append(
            "Died: "
            + ", ".join(
                f"{p} ({phase.revealed[p].replace('_', ' ')})" if p in phase.revealed else p
                for p in phase.dead
            )
            + "."
        )
    if phase.injured:
        lines.append(f"Injured: {', '.join(phase.injured)}.")
    if phase.silenced:
        lines.append(f"Silenced: {phase.silenced}.")
    if phase.tally is not None:
        tally = ", ".join(
            f"{k} {int(v) if float(v).is_integer() else v}" for k, v in phase.tally.items()
        )
        lines.append(
            f"Votes: {tally or 'none'}; "
            + (f"{phase.eliminated} voted out." if phase.eliminated else "nobody voted out.")
        )
    for accused, yes, no, executed in phase.calls:
        lines.append(
            f"Call on {accused}: {yes} yes, {no} no, {'executed' if executed else 'acquitted'}."
        )
    if phase.idiot_revealed:
        lines.append(f"{phase.idiot_revealed} was revealed as the idiot.")
    return lines


def _options(form: Form, seats: Mapping[str, int]) -> tuple[Option, ...]:
    return tuple(
        Option(NOBODY, "Nobody") if t == NOBODY else Option(str(seats[t]), t)
        for t in form.targets
        if t == NOBODY or t in seats
    )


def _form_view(form: Form, seats: Mapping[str, int]) -> FormView:
    return FormView(
        kind=form.kind,
        key=form.key,
        title=FORM_TITLES.get(form.key, form.key.replace("_", " ").capitalize()),
        summary=form.summary,
        section=form.section,
        options=_options(form, seats),
        optional=form.optional,
    )


def view_of(table: TableInfo, viewer: SeatInfo | None) -> WerewolfView:
    raw = table.state
    game = game_of(raw)
    seats: Mapping[str, int] = raw["seats"]
    player = name_of(raw, viewer.id) if viewer is not None else None
    seat: SeatView = view_for(game, player)
    state = game.state
    role = game.setup.roles[player] if player else None
    awaited = state.awaited
    view: dict[str, Any] = {
        "label": label(game),
        "me": viewer,
        "role": role,
        "alive": player is not None and player in state.alive,
        "known": tuple((p, r.replace("_", " ")) for p, r in seat.known.items() if p != player),
        "told": tuple((str(phase), tuple(_told_lines(info))) for phase, info in seat.told),
        "thread": tuple((str(p.phase), tuple(_public_lines(p))) for p in seat.thread),
        "sheriff": state.sheriff,
        "outcome": state.outcome,
        "is_host": viewer is not None and viewer.is_host,
        "ruleset": game.setup.ruleset.name,
        "step": state.step,
        "phase_kind": state.phase.kind if state.phase else "",
        "waiting_for": f"{awaited.player}'s {awaited.kind.replace('_', ' ')}" if awaited else "",
        "done": player is not None and player in (raw.get("done") or ()),
        "pack": tuple(sorted(seat.pack.items())),
        "pairs": tuple(sorted(seat.pairs.items())),
    }
    forms = [_form_view(f, seats) for f in seat.forms]
    view["night"] = tuple(f for f in forms if f.kind == "night")
    view["forms"] = tuple(f for f in forms if f.kind != "night")
    accusation = raw.get("accusation")
    if accusation:
        view["accusation"] = accusation
        view["can_second"] = (
            player is not None
            and player != accusation["by"]
            and any(f.kind == "accuse" for f in seat.forms)
        )
    if state.over:
        winners = set(state.outcome.winners) if state.outcome else set()
        view["reveal"] = tuple(
            (p, game.setup.roles[p].title, p in state.alive, p in winners)
            for p in game.setup.players
        )
        view["record"] = tuple(
            (str(r.phase), tuple(_record_lines(r))) for r in phase_reports(game.setup, game.log)
        )
    return WerewolfView(**view)


def _choice(choice: Mapping[str, object]) -> str:
    return ", ".join("save the victim" if k == "save" else f"{k} {v}" for k, v in choice.items())


def _record_lines(report: PhaseReport) -> list[str]:
    """Everything that happened in a phase, for the end: each player's choices, what each was
    told, each vote, and each death with the rule behind it."""
    lines = [f"{player}: {_choice(choice)}." for player, choice in report.actions.items()]
    for player, info in report.told.items():
        lines += [f"{player} learned: {line}" for line in _told_lines(info)]
    if report.sheriff_votes:
        votes = ", ".join(f"{v} for {c}" for v, c in report.sheriff_votes.items())
        lines.append(f"Sheriff votes: {votes}.")
    if report.votes:
        lines.append("Votes: " + ", ".join(f"{v} for {t}" for v, t in report.votes.items()) + ".")
    for player in report.dead:
        text, section = described(report.deaths[player].cause)
        lines.append(f"{player} {text}" + (f" ({section})." if section else "."))
    return lines


def public_status(table: TableInfo) -> tuple[str, str]:
    """The public progress line: who the game waits for, the votes so far where the documents
    have them cast openly (001's thread, 004's show of hands; Oxford's fists are counted only),
    or how many have done their part."""
    raw = table.state
    game = game_of(raw)
    state = game.state
    if state.over or table.options.get("table_mode"):
        # At a table the count of who is done would tell a watcher which roles still act.
        return "", ""
    awaited = state.awaited
    if awaited is not None:
        return (
            f"Waiting for {awaited.player}'s {awaited.kind.replace('_', ' ')}.",
            "Waiting ends in",
        )
    parts = []
    if state.call is not None:
        parts.append(f"{len(state.votes)} fist{'s' if len(state.votes) != 1 else ''} shown.")
    elif state.phase is not None and state.phase.kind == "day":
        votes = state.sheriff_votes if state.step == "election" else state.votes
        if votes:
            tally = ", ".join(f"{voter} → {target}" for voter, target in sorted(votes.items()))
            parts.append(f"Votes so far: {tally}.")
    active = [p for p in state.living() if asked(state, p)]
    done = [p for p in active if p in (raw.get("done") or ())]
    if active:
        parts.append(f"{len(done)} of {len(active)} players have done their part.")
    return " ".join(parts), "This step ends in"


def panel(table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
    moderating = table.options.get("table_mode") and table.stage != "cancelled"
    if moderating and viewer is not None and viewer.is_host:
        from .moderating import moderator_view

        mod = moderator_view(table)
        return Panel("werewolf/moderator.html", {"mod": mod}, attention=False)
    view = view_of(table, viewer)
    progress, clock = public_status(table)
    attention = bool(view.night or view.forms) and not view.done
    return Panel(
        "werewolf/panel.html",
        {"wolf": view},
        progress=progress,
        clock_label=clock,
        attention=attention,
    )


@dataclass(frozen=True, slots=True)
class RoleRow:
    name: str
    title: str
    side: str
    count: int
    limit: int | None
    summary: str
    section: str


@dataclass(frozen=True, slots=True)
class LobbyView:
    ruleset: str
    ruleset_title: str
    is_host: bool
    roles: tuple[RoleRow, ...]
    total: int
    needed: int
    chosen: bool
    rules: tuple[tuple[str, object, tuple[object, ...], str, str], ...]
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
        ruleset_title=rules.title,
        is_host=viewer is not None and viewer.is_host,
        roles=tuple(
            RoleRow(r.name, r.title, r.side, roles.get(r.name, 0), r.limit, r.summary, r.section)
            for r in rules.roles.values()
        ),
        total=sum(roles.values()),
        needed=players,
        chosen=bool(table.options.get("roles")),
        rules=tuple(
            (o.name, chosen_rules.get(o.name, o.default), o.choices, o.section, o.summary)
            for o in rules.options
        ),
        pace=table.options.get("pace", "live"),
        minutes=tuple((s, table_options.STEP_TITLES[s], int(minutes[s])) for s in steps),
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
