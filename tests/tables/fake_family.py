"""A toy game family for the tests of the table core: rock, paper, scissors for two or more.

It knows nothing of One Night or Werewolf and uses only the family interface
(games/tables/family.py), so the tests that play it exercise the core alone: options, the
deal's chance, moves accepted and refused, a deadline, per-seat panels, two chat channels, the
outcome and "play again". It fills in only the required members and the optional ones it
needs, as docs/architecture.md's "Adding a family" says.

The game: every player still in throws a sign in secret. When all have thrown, a round with
exactly two signs thrown is won by the players of the sign that beats the other; any other
round is a draw and is played again. The clock (the `minutes` option, none by default) puts
out whoever has not thrown when it runs out. A player who is out reads and writes the
"sideline" chat, which the players still in do not read and watchers do.

Not user-facing text of the app: its strings are the tests' (not marked for translation).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from games.tables.family import (
    PUBLIC,
    Change,
    Channel,
    Family,
    FamilyError,
    Fields,
    Note,
    NotNow,
    Panel,
    SeatInfo,
    TableInfo,
    register,
    unregister,
)

NAME = "rps"
SIGNS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
SIDELINE = "sideline"
MAX_MINUTES = 60
TEMPLATES = Path(__file__).parent / "templates"


@dataclass(frozen=True, slots=True)
class Round:
    """The state between two deadlines, as stored (JSON): who is in, what each threw."""

    number: int
    players: tuple[int, ...]  # seat ids still in
    throws: Mapping[str, str]  # seat id (as text, JSON keys) -> sign
    winners: tuple[int, ...] = ()
    history: tuple[str, ...] = ()  # one public line per round played
    over: bool = False

    @classmethod
    def of(cls, state: Any) -> Round:
        return cls(
            number=state["number"],
            players=tuple(state["players"]),
            throws=dict(state["throws"]),
            winners=tuple(state["winners"]),
            history=tuple(state["history"]),
            over=state["over"],
        )

    def stored(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "players": list(self.players),
            "throws": dict(self.throws),
            "winners": list(self.winners),
            "history": list(self.history),
            "over": self.over,
        }


def _names(table: TableInfo, ids: tuple[int, ...]) -> str:
    return ", ".join(s.name for s in table.seats if s.id in ids) or "nobody"


class RockPaperScissors(Family):
    """Rock, paper, scissors: the tests' game."""

    name = NAME
    title = "Rock, paper, scissors"
    rulesets: Mapping[str, str] = {"classic": "Classic (rock beats scissors)"}
    reserved_names = ("Rock", "Paper", "Scissors")

    # --- Required -----------------------------------------------------------------------------

    def seat_limits(self, ruleset: str) -> tuple[int, int]:
        return 2, 5

    def rules_path(self, ruleset: str) -> str:
        return reverse("home") + "#rules-" + NAME

    def start(self, table: TableInfo, rng: random.Random, now: datetime) -> Change:
        # The order players are named in is the deal's chance, so that `rng` is used.
        players = [s.id for s in table.seats]
        rng.shuffle(players)
        first = Round(number=1, players=tuple(players), throws={})
        return self._change(table, first, now, notes=("Round 1: throw!",))

    def move(
        self, table: TableInfo, seat: SeatInfo, kind: str, fields: Fields, now: datetime
    ) -> Change:
        if kind != "throw":
            raise NotNow("That can't be done in this game.")
        game = Round.of(table.state)
        if seat.id not in game.players:
            raise NotNow("You are out of this game.")
        if str(seat.id) in game.throws:
            raise NotNow("You have thrown already this round.")
        sign = (fields.get("sign") or [""])[0]
        if sign not in SIGNS:
            raise FamilyError("Throw rock, paper or scissors.")
        game = Round(
            game.number, game.players, {**game.throws, str(seat.id): sign}, history=game.history
        )
        if len(game.throws) < len(game.players):
            # Only a count changed for the others: their pages get the public status.
            change = self._change(table, game, now, keep_deadline=True)
            return replace(change, redraw=frozenset({seat.id}))
        return self._settle(table, game, now)

    def panel(self, table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
        if table.state is None:  # a table cancelled in its lobby
            return Panel("rps/panel.html", {"rps": None})
        game = Round.of(table.state)
        mine = game.throws.get(str(viewer.id)) if viewer is not None else None
        playing = viewer is not None and viewer.id in game.players and not game.over
        return Panel(
            "rps/panel.html",
            {
                "rps": {
                    "number": game.number,
                    "mine": mine,
                    "may_throw": playing and mine is None,
                    "signs": SIGNS,
                    "history": game.history,
                    "over": game.over,
                    "winners": _names(table, game.winners),
                    "out": viewer is not None and viewer.id not in game.players,
                }
            },
            progress=self.public_status(table)[0],
            clock_label="Throw within",
            attention=playing and mine is None,
        )

    # --- Optional, overridden ---------------------------------------------------------------

    def default_options(self, ruleset: str) -> dict[str, Any]:
        return {"minutes": None}

    def set_options(self, table: TableInfo, fields: Fields) -> dict[str, Any]:
        raw = (fields.get("minutes") or [""])[0].strip()
        if not raw:
            return {"minutes": None}
        if not raw.isdigit() or not 1 <= int(raw) <= MAX_MINUTES:
            raise FamilyError(f"Give the round 1 to {MAX_MINUTES} minutes, or no limit.")
        return {"minutes": int(raw)}

    def lobby(self, table: TableInfo, viewer: SeatInfo | None) -> Panel:
        host = viewer is not None and viewer.is_host
        return Panel("rps/lobby.html", {"rps": {"minutes": table.options["minutes"], "host": host}})

    def on_deadline(self, table: TableInfo, now: datetime) -> Change:
        """Whoever has not thrown is out; the round is settled among the others."""
        game = Round.of(table.state)
        thrown = tuple(p for p in game.players if str(p) in game.throws)
        late = tuple(p for p in game.players if p not in thrown)
        line = f"Time is up: {_names(table, late)} did not throw and are out."
        game = Round(game.number, thrown, game.throws, history=(*game.history, line))
        if len(thrown) < 2:
            ended = Round(game.number, thrown, {}, thrown, game.history, over=True)
            change = self._change(table, ended, now, notes=(line,))
            return replace(change, dead=frozenset(late))
        change = self._settle(table, game, now, notes=(line,))
        return replace(change, dead=change.dead | frozenset(late))

    def public_status(self, table: TableInfo) -> tuple[str, str]:
        game = Round.of(table.state) if table.state is not None else None
        if game is None or game.over:
            return "", ""
        return f"{len(game.throws)} of {len(game.players)} have thrown.", "Throw within"

    def channels(self, table: TableInfo, viewer: SeatInfo | None) -> tuple[Channel, ...]:
        public = Channel(PUBLIC, "Chat", read=True, write=viewer is not None)
        out = viewer is None or not viewer.alive
        if table.state is None or not out:
            return (public,)
        return (public, Channel(SIDELINE, "Sideline", read=True, write=viewer is not None))

    def chat_problem(self, table: TableInfo, seat: SeatInfo, channel: str, text: str) -> str | None:
        if channel == PUBLIC and any(sign in text.lower() for sign in SIGNS):
            return "No telling your sign in the chat."
        return None

    # --- The game's own helpers ---------------------------------------------------------------

    def _settle(
        self, table: TableInfo, game: Round, now: datetime, notes: tuple[str, ...] = ()
    ) -> Change:
        """Every player in has thrown: the round's winners, or a draw and the next round."""
        signs = set(game.throws[str(p)] for p in game.players)
        shown = ", ".join(
            f"{s.name} {game.throws[str(s.id)]}" for s in table.seats if s.id in game.players
        )
        if len(signs) == 2:
            best = next(s for s in signs if BEATS[s] in signs)
            winners = tuple(p for p in game.players if game.throws[str(p)] == best)
            losers = frozenset(p for p in game.players if p not in winners)
            line = f"Round {game.number}: {shown}. {_names(table, winners)} won."
            ended = Round(game.number, winners, {}, winners, (*game.history, line), over=True)
            change = self._change(table, ended, now, notes=(*notes, line))
            return replace(change, dead=losers)
        line = f"Round {game.number}: {shown}. A draw: throw again."
        following = Round(game.number + 1, game.players, {}, history=(*game.history, line))
        return self._change(table, following, now, notes=(*notes, line))

    def _change(
        self,
        table: TableInfo,
        game: Round,
        now: datetime,
        notes: tuple[str, ...] = (),
        keep_deadline: bool = False,
    ) -> Change:
        minutes = table.options.get("minutes")
        if game.over:
            deadline = None
        elif keep_deadline:
            deadline = table.deadline
        else:
            deadline = now + timedelta(minutes=minutes) if minutes else None
        return Change(
            state=game.stored(),
            phase="over" if game.over else "throwing",
            phase_label="Over" if game.over else f"Round {game.number}",
            round=game.number,
            deadline=deadline,
            notes=tuple(Note(n) for n in notes),
            finished=game.over,
        )


@contextmanager
def playable() -> Iterator[RockPaperScissors]:
    """The toy family registered, and its templates found, for the length of a test only."""
    family = RockPaperScissors()
    register(family)
    try:
        with override_settings(TEMPLATES=_templates_with_ours()):
            yield family
    finally:
        unregister(NAME)


def _templates_with_ours() -> list[dict[str, Any]]:
    engines = [dict(engine) for engine in settings.TEMPLATES]
    engines[0]["DIRS"] = [*engines[0]["DIRS"], TEMPLATES]
    return engines
