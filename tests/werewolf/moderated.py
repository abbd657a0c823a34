"""A moderated table-mode game driven by random taps, for the generator tests (issue 35).

`Table` holds one table-mode game in memory and moves it with the family's own `play.move`
(the function the move view calls for the moderator's seat); `taps` lists what the moderator's
screen offers, read from `moderator_view` (what the page renders) the way the template turns it
into buttons and selects; `scenario_of` writes the moves the table stored as the scenario file
`play_werewolf` reads, so a game can be checked against the scenario runner.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import Any

from games.families.werewolf import play
from games.families.werewolf.engine import NOBODY, Advance, codec
from games.families.werewolf.engine.autoplay import random_setup
from games.families.werewolf.engine.game import apply, start
from games.families.werewolf.engine.moves import (
    Accuse,
    CallVote,
    Decide,
    NightAction,
    SheriffVote,
    Smite,
    UseAbility,
    Vote,
)
from games.families.werewolf.moderator.screen import ModeratorView
from games.tables.family import SeatInfo, TableInfo

NOW = datetime(2026, 1, 1, tzinfo=UTC)
HOST = SeatInfo(id=1000, name="Mo", position=0, is_host=True)


@dataclass(frozen=True)
class Tap:
    """One thing the moderator's screen lets them send: a button, or a form filled in."""

    kind: str
    fields: Mapping[str, Any]
    single: bool = True  # one tap on a button (not a form the moderator fills in)
    changes: bool = False  # a "Change" of a call already made (the night stays where it is)


def deal(ruleset: str, rng: random.Random) -> TableInfo:
    """A table-mode table dealt from real cards, as random as the engine's own generator
    (line-up, options, Oxford's pairs and crossbows, a forum game opening with a day)."""
    setup = random_setup(ruleset, rng, rng.randint(8, 12))
    players = [SeatInfo(id=i + 1, name=p, position=i + 1) for i, p in enumerate(setup.players)]
    seats = (HOST, *players)
    options: dict[str, Any] = {
        "table_mode": True,
        "pace": "table",
        "deal": "cards",
        "dealt": {p: setup.roles[p].name for p in setup.players},
        "rules": dict(setup.options),
        "opens_with": setup.opens_with,
    }
    if ruleset == "oxford":
        options["pairs"] = {
            "lovers": [list(p) for p in setup.lovers],
            "rivals": [list(p) for p in setup.rivals],
        }
        options["crossbow_holders"] = sorted(setup.crossbows)
    table = TableInfo("T", "werewolf", ruleset, options, "lobby", "", 0, 1, None, None, seats)
    change = play.start(table, rng, NOW)
    return replace(table, stage="playing", state=change.state, version=2)


def send(table: TableInfo, tap: Tap) -> TableInfo:
    """The table after the moderator's tap (FamilyError when it is refused)."""
    fields = {k: v if isinstance(v, list) else [str(v)] for k, v in tap.fields.items()}
    change = play.move(table, HOST, tap.kind, fields, NOW)
    stage = "over" if change.finished else "playing"
    return replace(table, state=change.state, version=table.version + 1, stage=stage)


def taps(view: ModeratorView, rng: random.Random) -> list[Tap]:
    """Every button the moderator's page shows now, and each form filled in as a moderator
    would (moderator.html, section by section)."""
    offered: list[Tap] = []
    if view.can_undo:
        offered.append(Tap("undo", {}))
    if view.over:
        return offered
    if view.awaited is not None:
        _what, _who, options, _no = view.awaited
        offered += [Tap("decide", {"target": o.value}) for o in options]
        offered.append(Tap("decide", {"target": ""}))  # "No shot", "No one"...
        return offered
    if view.phase_kind == "night":
        current = view.current
        if current is None:
            offered.append(Tap("advance", {}))
        elif current.dead:
            offered.append(Tap("called", {"role": current.role}))
        else:
            base = {"as": current.as_seat, "key": current.key}
            if current.save:
                offered += [Tap("night", {**base, "target": "yes"}) for _o in current.choices]
                offered.append(Tap("night", {**base, "target": "no"}))
            else:
                offered += [Tap("night", {**base, "target": o.value}) for o in current.choices]
                if current.skip:  # "Nothing tonight", "No poison tonight"...
                    offered.append(Tap("night", {**base, "target": ""}))
        for call in view.calls:  # the "Change" selects of the calls made
            if call.done and not call.dead:
                base = {"as": call.as_seat, "key": call.key}
                if call.save:  # "save" while someone is attacked whom she may save
                    values = ["", *("yes" for _o in call.choices)]
                else:
                    values = ["", *(o.value for o in call.choices)]
                offered += [Tap("night", {**base, "target": v}, changes=True) for v in values]
        return offered
    living = [c.value for c in view.living]
    if view.call is not None:
        opened = [v for v in living if rng.random() < 0.6]
        return [*offered, Tap("fists", {"open": opened}, single=False)]
    if view.voting:
        # The way of counting (a switch of the form, not a step of the game).
        offered.append(Tap("count", {"count": rng.choice(("normal", "advanced"))}, changes=True))
        if view.count == "normal":
            # Counting by hand: the accused tapped, then each voter's own button (a voter
            # voting for them now takes the vote back); the end of the vote is one button.
            for row in view.vote_rows:
                value = str(row.seat_id or NOBODY)
                offered.append(Tap("accused", {"accused": "" if value == view.accused else value}))
            for voter in view.voters:
                target = "" if voter.pressed else view.accused
                offered.append(Tap(view.voting, {"as": voter.seat_id, "target": target}))
            offered.append(Tap(f"{view.voting}s", {}))
        else:
            values = [t.value for t in view.targets] + [""]
            favourite = rng.choice(values[:-1])  # a table mostly agrees on someone
            ballots = {
                f"vote_{seat}": favourite if rng.random() < 0.6 else rng.choice(values)
                for _voter, seat, _now in view.ballots
            }
            offered.append(Tap(f"{view.voting}s", ballots, single=False))
    else:
        if view.accusing and len(living) >= 3:
            accused, by, second = rng.sample(living, 3)
            fields = {"accused": accused, "by": by, "second": second}
            offered.append(Tap("accuse", fields, single=False))
        offered.append(Tap("advance", {}))
    for _player, seat, key, _title, _summary, options, none in view.abilities:
        base = {"as": seat, "ability": key}
        offered += [Tap("ability", {**base, "target": o.value}) for o in options]
        if none or not options:
            offered.append(Tap("ability", {**base, "target": ""}))
    if view.smite and view.call is None:
        offered += [Tap("smite", {"target": v}) for v in living]
    return offered


def pick(offered: list[Tap], rng: random.Random) -> Tap:
    """A moderator's tap: now and then an undo, a change, a smite or a day ability; mostly the
    step's own choices, a night's victim more often than no victim."""
    main = [t for t in offered if t.kind not in ("undo", "smite", "ability", "count")]
    main = [t for t in main if not t.changes]
    rare = [t for t in offered if t not in main]
    if rare and (not main or rng.random() < 0.08):
        return rng.choice(rare)
    calls = [t for t in main if t.kind == "accuse"]
    if calls and rng.random() < 0.7:  # an Oxford day mostly ends with a call
        return calls[0]
    named = [t for t in main if t.fields.get("target") not in ("", "no", NOBODY)]
    if named and rng.random() < 0.7:
        return rng.choice(named)
    return rng.choice(main)


# --- The same game as a scenario file ---------------------------------------------------------


def scenario_of(raw: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """A table's stored moves written as FORMAT.md's scenario (what `play_werewolf` reads), and
    how many of its phases were played to their end."""
    setup = codec.setup_from_json(raw["setup"])
    game = start(setup)
    phases: list[tuple[str, dict[str, Any]]] = []
    current: Any = None
    for data in raw["moves"]:
        move = codec.move_from_json(data)
        phase = game.state.phase
        if phase != current:
            current = phase
            phases.append((phase.kind, {}))
        _write(phases[-1][1], phase.kind, setup.ruleset.name, move, game)
        game = apply(game, move)
    finished = len(phases) if game.state.over or game.state.phase != current else len(phases) - 1
    body = [{kind: _clean(kind, entry)} for kind, entry in phases]
    scenario: dict[str, Any] = {
        "ruleset": setup.ruleset.name,
        "players": list(setup.players),
        "roles": {p: setup.roles[p].name for p in setup.players},
        "phases": body[:finished],
    }
    if setup.options:
        scenario["options"] = dict(setup.options)
    if setup.ruleset.name == "oxford":
        scenario["lovers"] = [list(p) for p in setup.lovers]
        scenario["rivals"] = [list(p) for p in setup.rivals]
        scenario["crossbows"] = sorted(setup.crossbows)
    return scenario, finished


def _write(entry: dict[str, Any], kind: str, ruleset: str, move: Any, game: Any) -> None:
    if isinstance(move, NightAction):
        entry.setdefault("actions", {})[move.player] = dict(move.choice)
    elif isinstance(move, SheriffVote):
        entry.setdefault("sheriff_votes", {})[move.voter] = move.candidate
    elif isinstance(move, Vote):
        entry.setdefault("votes", {})[move.voter] = move.target
    elif isinstance(move, Decide):
        if move.kind == "tie_break":
            entry["tie_break"] = move.choice
        elif move.kind == "badge" or move.choice is not None:
            entry.setdefault("on_death", {}).setdefault(move.player, {})[move.kind] = move.choice
    elif isinstance(move, UseAbility):
        if move.ability == "shoot":
            event = {"shoot": {"by": move.player, "target": move.target}}
        elif move.ability == "duel":
            event = {"duel": {"by": move.player, "target": move.target}}
        else:
            blast = {"by": move.player}
            if move.target is not None:
                blast["target"] = move.target
            event = {move.ability: blast}
        entry.setdefault("events", []).append(event)
    elif isinstance(move, Smite):
        entry.setdefault("events", []).append({"smite": move.target})
    elif isinstance(move, Accuse):
        call = {"accused": move.accused, "by": move.by, "second": move.second, "yes": []}
        entry.setdefault("events", []).append({"call": call})
    elif isinstance(move, CallVote):
        if move.yes:
            entry["events"][-1]["call"]["yes"].append(move.voter)
    elif not isinstance(move, Advance):
        raise AssertionError(f"no scenario form for {move!r}")


def _clean(kind: str, entry: dict[str, Any]) -> dict[str, Any]:
    """The runner's reading of "nothing": no empty action, no vote taken back."""
    out = dict(entry)
    if "actions" in out:
        out["actions"] = {p: c for p, c in out["actions"].items() if c}
    for key in ("votes", "sheriff_votes"):
        if key in out:
            out[key] = {v: t for v, t in out[key].items() if t is not None}
    if out.get("tie_break", "") is None:
        del out["tie_break"]
    return {k: v for k, v in out.items() if v not in ({}, [])}


# --- The page itself: its forms as a browser would send them ---------------------------------


@dataclass
class PageForm:
    """One <form> of the moderator's page: where it posts, its hidden fields, its buttons and
    what the moderator may pick in it (selects without their disabled options, radios,
    checkboxes)."""

    action: str
    hidden: dict[str, str]
    buttons: list[tuple[str, str, str]]  # (name, value, formaction)
    selects: dict[str, list[str]]
    radios: dict[str, list[str]]
    boxes: dict[str, list[str]]


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[PageForm] = []
        self.form: PageForm | None = None
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.form = PageForm(a.get("action", ""), {}, [], {}, {}, {})
            return
        form = self.form
        if form is None:
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind == "hidden":
                form.hidden[a["name"]] = a.get("value", "")
            elif kind == "radio":
                form.radios.setdefault(a["name"], []).append(a.get("value", ""))
            elif kind == "checkbox":
                form.boxes.setdefault(a["name"], []).append(a.get("value", ""))
            elif kind == "submit":
                form.buttons.append((a.get("name", ""), a.get("value", ""), ""))
        elif tag == "button" and a.get("type", "submit") == "submit":
            form.buttons.append((a.get("name", ""), a.get("value", ""), a.get("formaction", "")))
        elif tag == "select":
            self.select = a["name"]
            form.selects[a["name"]] = []
        elif tag == "option" and self.select is not None and "disabled" not in a:
            form.selects[self.select].append(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.form is not None:
            self.forms.append(self.form)
            self.form = None
        elif tag == "select":
            self.select = None


def page_forms(page: str, prefix: str) -> list[PageForm]:
    """The forms of `page` that post a move (their action starts with `prefix`)."""
    parser = _Forms()
    parser.feed(page)
    return [f for f in parser.forms if f.action.startswith(prefix)]


def page_taps(forms: list[PageForm], rng: random.Random) -> list[tuple[str, dict[str, Any], bool]]:
    """Each button of each form, the form filled in at random as a moderator may: (where it
    posts, the fields, whether it is a single tap with nothing to pick)."""
    out = []
    for form in forms:
        fields: dict[str, Any] = dict(form.hidden)
        picks = bool(form.selects or form.radios or form.boxes)
        for name, values in form.selects.items():
            if values:
                fields[name] = rng.choice(values)
        for name, values in form.radios.items():
            if rng.random() < 0.9:
                fields[name] = rng.choice(values)
        for name, values in form.boxes.items():
            fields[name] = [v for v in values if rng.random() < 0.5]
        for name, value, formaction in form.buttons:
            sent = dict(fields)
            if name:
                sent[name] = value
            out.append((formaction or form.action, sent, not picks))
    return out
