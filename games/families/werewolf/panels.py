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

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from games.tables.family import Panel, SeatInfo, TableInfo

from . import names
from . import options as table_options
from .engine import NOBODY, RULESETS, Role
from .engine.causes import described
from .engine.forms import Form
from .engine.report import PhaseReport, phase_reports
from .engine.view import PublicPhase, SeatView, view_for
from .play import asked, can_smite, done_players, game_of, label, name_of, sleeping, unsettled

FORM_TITLES = {
    "kill": gettext_lazy("The pack's victim"),
    "see": gettext_lazy("Investigate"),
    "protect": gettext_lazy("Protect"),
    "maul": gettext_lazy("Maul"),
    "trap": gettext_lazy("Set a trap"),
    "charm": gettext_lazy("Charm"),
    "save": gettext_lazy("Use the antidote"),
    "poison": gettext_lazy("Poison"),
    "check": gettext_lazy("Check"),
    "guard": gettext_lazy("Guard"),
    "silence": gettext_lazy("Silence"),
    # By day, or on death: a form's title, what its button does.
    "shoot": gettext_lazy("Shoot"),
    "explode": gettext_lazy("Explode"),
    "duel": gettext_lazy("Duel"),
    "tie_break": gettext_lazy("Tie break"),
    # Translators: the sheriff's badge, passed on by a dying sheriff (rules/004).
    "badge": gettext_lazy("Badge"),
    # Translators: an open fist in an execution call (rules/003): a vote to execute.
    "yes": pgettext_lazy("fist", "Yes"),
    # Translators: the vote that elects a sheriff (rules/004).
    "sheriff": gettext_lazy("Sheriff"),
    # Translators: an execution call (rules/003): accusing a player.
    "call": pgettext_lazy("execution", "Call"),
    "vote": gettext_lazy("Vote"),
}
# What a seat's night choice was, for the record at the end ("kill Ann").
CHOICES = {
    "kill": gettext_lazy("kill %(player)s"),
    "see": gettext_lazy("see %(player)s"),
    "protect": gettext_lazy("protect %(player)s"),
    "maul": gettext_lazy("maul %(player)s"),
    "trap": gettext_lazy("trap %(player)s"),
    "charm": gettext_lazy("charm %(player)s"),
    "poison": gettext_lazy("poison %(player)s"),
    "check": gettext_lazy("check %(player)s"),
    "guard": gettext_lazy("guard %(player)s"),
    "silence": gettext_lazy("silence %(player)s"),
}
# A decision the game waits for: whose, and what.
AWAITED = {
    # Translators: a dead hunter's (or werewolf king's) shot that the game waits for.
    "shoot": gettext_lazy("%(player)s's shoot"),
    "badge": gettext_lazy("%(player)s's badge"),
    "tie_break": gettext_lazy("%(player)s's tie break"),
}
WAITING = {
    "shoot": gettext_lazy("Waiting for %(player)s's shoot."),
    "badge": gettext_lazy("Waiting for %(player)s's badge."),
    "tie_break": gettext_lazy("Waiting for %(player)s's tie break."),
}


def form_title(key: str) -> str:
    if key in FORM_TITLES:
        return str(FORM_TITLES[key])
    return key.replace("_", " ").capitalize()


def awaited_phrase(player: str, kind: str, *, sentence: bool = False) -> str:
    """What the game waits for ("Ann's shoot"; "Waiting for Ann's shoot." as a sentence)."""
    words = AWAITED if not sentence else WAITING
    if kind in words:
        return str(words[kind]) % {"player": player}
    what = kind.replace("_", " ")
    if sentence:
        return _("Waiting for %(player)s's %(what)s.") % {"player": player, "what": what}
    return _("%(player)s's %(what)s") % {"player": player, "what": what}


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
    sleep: bool = False  # alive tonight without a night form: "Done for tonight"
    unsettled: str = ""  # why the seat's choices keep the night from ending (a split pack)
    waiting_for: str = ""
    accusation: Mapping[str, str] | None = None
    can_second: bool = False
    thread: tuple[tuple[str, tuple[str, ...]], ...] = ()
    sheriff: str | None = None
    outcome: Any = None
    winner: str = ""  # the winning side, in words
    role_title: str = ""  # the seat's role card, in words (`role` is the engine's record)
    role_side: str = ""
    role_summary: str = ""
    reveal: tuple[tuple[str, str, bool, bool], ...] = ()
    record: tuple[tuple[str, tuple[str, ...]], ...] = ()
    is_host: bool = False
    can_smite: bool = False  # rules/003: the host, as Fate, may smite now
    ruleset: str = ""
    step: str = ""
    phase_kind: str = ""


def _told_lines(info: Mapping[str, object]) -> list[str]:
    """A night's private result in words."""
    lines = []
    seen = info.get("seen")
    if isinstance(seen, dict):
        lines += [
            _("%(player)s shows as: %(appearance)s.")
            % {"player": who, "appearance": names.appearance(what)}
            for who, what in seen.items()
        ]
    if "protected" in info:
        protected = {"player": info["protected"]}
        if info.get("attacked"):
            lines.append(
                _("You protected %(player)s, and they were attacked: you saved them.") % protected
            )
        else:
            lines.append(_("You protected %(player)s, who was not attacked.") % protected)
    if info.get("saved_from_attack"):
        lines.append(_("The werewolves attacked you, but someone protected you."))
    if "attack_blocked" in info:
        lines.append(
            _("The attack on %(player)s was blocked by a protector.")
            % {"player": info["attack_blocked"]}
        )
    if "werewolves" in info:
        pack = names.joined(info["werewolves"])  # type: ignore[arg-type]
        dark = info.get("dark_villager")
        if dark:
            lines.append(
                _("The werewolves are %(players)s. The dark villager is %(player)s.")
                % {"players": pack, "player": dark}
            )
        else:
            lines.append(_("The werewolves are %(players)s.") % {"players": pack})
    if "cultists" in info:
        cult = names.joined(info["cultists"])  # type: ignore[arg-type]
        lines.append(_("The cultists are %(players)s.") % {"players": cult})
    if "attacked" in info and "protected" not in info:
        victim = info["attacked"]
        lines.append(
            _("The werewolves attacked %(player)s tonight.") % {"player": victim}
            if victim
            else _("The werewolves attacked nobody tonight.")
        )
    return lines


def _public_lines(phase: PublicPhase) -> list[str]:
    lines = []
    if phase.dead:
        dead = [
            # Translators: a dead player and the role shown at their death.
            _("%(player)s (%(role)s)") % {"player": p, "role": names.role(phase.revealed[p])}
            if p in phase.revealed
            else p
            for p in phase.dead
        ]
        lines.append(_("Died: %(players)s.") % {"players": names.joined(dead)})
    if phase.injured:
        lines.append(_("Injured: %(players)s.") % {"players": names.joined(phase.injured)})
    if phase.silenced:
        lines.append(_("Silenced: %(player)s.") % {"player": phase.silenced})
    if phase.tally is not None:
        # Translators: a vote's tally had no votes at all.
        tally = names.tally(phase.tally) or pgettext("votes", "none")
        if phase.eliminated:
            lines.append(
                _("Votes: %(votes)s; %(player)s voted out.")
                % {"votes": tally, "player": phase.eliminated}
            )
        else:
            lines.append(_("Votes: %(votes)s; nobody voted out.") % {"votes": tally})
    for accused, yes, no, executed in phase.calls:
        words = {"player": accused, "yes": yes, "no": no}
        if executed:
            lines.append(_("Call on %(player)s: %(yes)s yes, %(no)s no, executed.") % words)
        else:
            lines.append(_("Call on %(player)s: %(yes)s yes, %(no)s no, acquitted.") % words)
    if phase.idiot_revealed:
        lines.append(_("%(player)s was revealed as the idiot.") % {"player": phase.idiot_revealed})
    return lines


def _options(form: Form, seats: Mapping[str, int]) -> tuple[Option, ...]:
    return tuple(
        Option(NOBODY, _("Nobody")) if t == NOBODY else Option(str(seats[t]), t)
        for t in form.targets
        if t == NOBODY or t in seats
    )


def _form_view(form: Form, seats: Mapping[str, int]) -> FormView:
    return FormView(
        kind=form.kind,
        key=form.key,
        title=form_title(form.key),
        summary=names.text(form.summary),
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
        "known": tuple((p, names.role(r)) for p, r in seat.known.items() if p != player),
        "told": tuple((names.phase(phase), tuple(_told_lines(info))) for phase, info in seat.told),
        "thread": tuple((names.phase(p.phase), tuple(_public_lines(p))) for p in seat.thread),
        "sheriff": state.sheriff,
        "outcome": state.outcome,
        "is_host": viewer is not None and viewer.is_host,
        "can_smite": viewer is not None and viewer.is_host and can_smite(game),
        "ruleset": game.setup.ruleset.name,
        "step": state.step,
        "phase_kind": state.phase.kind if state.phase else "",
        "waiting_for": awaited_phrase(awaited.player, awaited.kind) if awaited else "",
        "done": player is not None and player in done_players(raw, game),
        "sleep": player is not None and sleeping(state, player),
        "unsettled": unsettled(game).get(player, "") if player is not None else "",
        "pack": tuple((p, names.player(t)) for p, t in sorted(seat.pack.items())),
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
            and player not in (accusation["by"], accusation["accused"])  # 003: three players
            and any(f.kind == "accuse" for f in seat.forms)
        )
    if state.over:
        winners = set(state.outcome.winners) if state.outcome else set()
        view["reveal"] = tuple(
            (p, names.title(game.setup.roles[p]), p in state.alive, p in winners)
            for p in game.setup.players
        )
        view["record"] = tuple(
            (names.phase(r.phase), tuple(_record_lines(r)))
            for r in phase_reports(game.setup, game.log)
        )
        view["winner"] = names.side(state.outcome.winner) if state.outcome else ""
    if role is not None:
        view["role_title"] = names.title(role)
        view["role_side"] = names.side(role.side)
        view["role_summary"] = names.text(role.summary)
    return WerewolfView(**view)


def _choice(choice: Mapping[str, object]) -> str:
    parts = []
    for key, target in choice.items():
        if key == "save":
            parts.append(_("save the victim"))
        elif key in CHOICES:
            parts.append(str(CHOICES[key]) % {"player": names.player(str(target))})
        else:
            # Translators: a night's choice for the record: the ability's key and its target.
            parts.append(_("%(ability)s %(player)s") % {"ability": key, "player": target})
    return names.joined(parts)


def _record_lines(report: PhaseReport) -> list[str]:
    """Everything that happened in a phase, for the end: each player's choices, what each was
    told, each vote, and each death with the rule behind it."""
    lines = [
        # Translators: a player's night choices, for the record at the end ("Ann: kill Ben.").
        _("%(player)s: %(choices)s.") % {"player": player, "choices": _choice(choice)}
        for player, choice in report.actions.items()
    ]
    for player, info in report.told.items():
        lines += [
            _("%(player)s learned: %(line)s") % {"player": player, "line": line}
            for line in _told_lines(info)
        ]
    if report.sheriff_votes:
        lines.append(_("Sheriff votes: %(votes)s.") % {"votes": _ballots(report.sheriff_votes)})
    if report.votes:
        lines.append(_("Votes: %(votes)s.") % {"votes": _ballots(report.votes)})
    for player in report.dead:
        text, section = described(report.deaths[player].cause)
        words = {"player": player, "cause": names.text(text), "section": section}
        if section:
            # Translators: how a player died ("attacked by the werewolves") and the rule's
            # section of the document that makes it so.
            lines.append(_("%(player)s %(cause)s (%(section)s).") % words)
        else:
            # Translators: how a player died ("attacked by the werewolves").
            lines.append(_("%(player)s %(cause)s.") % words)
    return lines


def _ballots(votes: Mapping[str, str | None]) -> str:
    """Each voter and their vote ("Ann for Ben, Cat for nobody")."""
    return names.joined(
        [
            # Translators: one voter and the player they voted for.
            _("%(voter)s for %(player)s") % {"voter": v, "player": names.player(t)}
            for v, t in votes.items()
        ]
    )


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
            awaited_phrase(awaited.player, awaited.kind, sentence=True),
            # Translators: followed by the time left on the clock.
            _("Waiting ends in"),
        )
    parts = []
    if state.call is not None:
        shown = len(state.votes)
        parts.append(
            ngettext("%(count)d fist shown.", "%(count)d fists shown.", shown) % {"count": shown}
        )
    elif state.phase is not None and state.phase.kind == "day":
        votes = state.sheriff_votes if state.step == "election" else state.votes
        if votes:
            tally = names.joined(
                [
                    # Translators: a voter and whom they vote for, in the votes so far.
                    _("%(voter)s → %(player)s") % {"voter": voter, "player": names.player(target)}
                    for voter, target in sorted(votes.items())
                ]
            )
            parts.append(_("Votes so far: %(votes)s.") % {"votes": tally})
    # At night every living player is asked (those without a power say they are done), so the
    # count tells nothing of who holds one; a killer whose own choice split the pack is not
    # done (docs/security.md, "What each public line may reveal").
    active = [p for p in state.living() if asked(state, p)]
    finished = done_players(raw, game)
    done = [p for p in active if p in finished]
    if active:
        parts.append(
            ngettext(
                "%(done)d of %(count)d player has done their part.",
                "%(done)d of %(count)d players have done their part.",
                len(active),
            )
            % {"done": len(done), "count": len(active)}
        )
    # Translators: followed by the time left on the clock.
    return " ".join(parts), _("This step ends in")


def panel(table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
    moderating = table.options.get("table_mode") and table.stage != "cancelled"
    if moderating and viewer is not None and viewer.is_host:
        from .moderating import moderator_view

        mod = moderator_view(table)
        return Panel(
            "werewolf/moderator.html", {"mod": mod}, attention=False, phase_label=_label(table)
        )
    view = view_of(table, viewer)
    progress, clock = public_status(table)
    attention = bool(view.night or view.forms or view.sleep) and not view.done
    return Panel(
        "werewolf/panel.html",
        {"wolf": view},
        progress=progress,
        clock_label=clock,
        attention=attention,
        phase_label=_label(table),
    )


def _label(table: TableInfo) -> str:
    """The phase's name in the reader's language (the table stores it in the site's)."""
    return label(game_of(table.state)) if table.stage == "playing" or table.stage == "over" else ""


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
    return str(CHOICE_LABELS.get(choice, choice))  # type: ignore[call-overload]


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
