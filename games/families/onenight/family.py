"""One Night as a game family of the table core (games/tables/family.py).

The wiring only: the options are options.py's, the play is play.py's, what a seat sees is
panels.py's, the chat's no-quoting rule is quoting.py's, table mode's narrator is
table_mode.py's, a chat bot's commands are chat.py's (its letters letters.py's), and every
ruling is the engine's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from games.tables.family import (
    PUBLIC,
    Change,
    Channel,
    Family,
    NotNow,
    Panel,
    SeatInfo,
    TableInfo,
)

from . import options as table_options
from . import panels, play
from .chat import OneNightChat
from .engine import CENTRE_POSITIONS, EXPANSION_ROLES, Ruleset, max_players
from .engine.deck import MIN_PLAYERS
from .hold import let_go
from .quoting import can_quote, fake_patterns, fakes_one, quotes, word_runs
from .table_mode import OneNightNarrator

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

CHAT_PHASES = ("lobby", "day", "reveal")  # rules/000 s5b: no talk in the night or the vote
QUOTE_REFUSED = gettext_lazy(
    "That repeats the moderator's private message word for word, which the rules forbid"
    " (rules, section 5c). Say it in your own words."
)


class OneNight(Family):
    """One Night Ultimate Werewolf: the group's house rules (rules/000) or the official rules
    (rules/002)."""

    name = "onenight"
    title = gettext_lazy("One Night")
    rulesets: Mapping[str, StrOrPromise] = {
        Ruleset.HOUSE.value: gettext_lazy("House rules"),
        Ruleset.OFFICIAL.value: gettext_lazy("Official rules"),
    }
    reserved_names: tuple[str, ...] = CENTRE_POSITIONS  # rules/000 s3a: the centre cards
    # Offered to the other edges: table mode's narrator (table_mode.py) and the chat bot's
    # commands and letters (chat.py, letters.py).
    narrator = OneNightNarrator()
    chat = OneNightChat()
    moderated_options = None  # the narrator needs no table: nobody has a seat

    def seat_limits(self, ruleset: str) -> tuple[int, int]:
        return MIN_PLAYERS, max_players(Ruleset(ruleset))

    def game_title(self, ruleset: str) -> StrOrPromise:
        if ruleset == Ruleset.OFFICIAL.value:
            return gettext_lazy("One Night — official rules")
        return self.title

    def default_options(self, ruleset: str) -> dict[str, Any]:
        return table_options.defaults(ruleset)

    def set_options(self, table: TableInfo, fields: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        return table_options.parse(table.ruleset, table.options, fields, players=len(table.seats))

    def replay_options(self, table: TableInfo) -> dict[str, Any]:
        """Play again: the same options, but the players read the rules for the last game."""
        options = dict(table.options)
        if "rules_phrase" in options:
            options["rules_phrase"] = False
        return options

    def join_phrase(self, table: TableInfo) -> str | None:
        return table_options.RULES_PHRASE if table.options.get("rules_phrase") else None

    def rules_path(self, ruleset: str) -> str:
        return reverse("onenight_rules", args=[ruleset])

    def lobby(self, table: TableInfo, viewer: SeatInfo | None) -> Panel:
        return panels.lobby(table, viewer)

    def start_problem(self, table: TableInfo) -> str | None:
        return table_options.start_problem(table.ruleset, table.options, len(table.seats))

    def start(self, table: TableInfo, rng: random.Random, now: datetime) -> Change:
        return play.start(table, rng, now)

    def move(
        self,
        table: TableInfo,
        seat: SeatInfo,
        kind: str,
        fields: Mapping[str, Sequence[str]],
        now: datetime,
    ) -> Change:
        handler = play.MOVES.get(kind)
        if handler is None:
            raise NotNow(_("That can't be done in this game."))
        change = handler(table, seat, fields, now)
        if kind == "copy" and change.phase == "night":
            after = play.OneNightState(change.state).actions.get(seat.name)
            if after is not None and not after["complete"]:
                # The copy of a card that acts: the action follows in a second step, and no
                # other night move changes nothing public, so nobody else may see this one
                # (it would tell the table that the Doppelganger is a player's card).
                return replace(change, unseen=True, redraw=frozenset({seat.id}))
        before = play.OneNightState(table.state)
        if change.phase == before.phase:
            # An action, a "ready" or a vote changes nobody else's view but the count of them;
            # but the last action a Doppelganger's held copy waited for shows it its card
            # (docs/rules.md 8a.10).
            released = let_go(before, play.OneNightState(change.state))
            return replace(change, redraw=frozenset({seat.id}) | released)
        return change

    def on_deadline(self, table: TableInfo, now: datetime) -> Change:
        return play.on_deadline(table, now, random.SystemRandom())

    def panel(self, table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
        return panels.panel(table, viewer, now)

    def public_status(self, table: TableInfo) -> tuple[str, str]:
        return panels.public_status(table)

    def channels(self, table: TableInfo, viewer: SeatInfo | None) -> tuple[Channel, ...]:
        """One chat, open before the game, in the day and after the reveal (rules/000 s5b)."""
        phase = "lobby" if table.state is None else play.OneNightState(table.state).phase
        if phase == "cancelled":
            closed = _("This game was cancelled; its chat is closed.")
        elif phase not in CHAT_PHASES:
            closed = _("The chat is closed during the night and the vote.")
        else:
            closed = ""
        writable = viewer is not None and not closed
        # Translators: the title of a game's chat.
        return (Channel(PUBLIC, _("Chat"), read=True, write=writable, closed=closed),)

    def clock_sentence(self, table: TableInfo) -> str | None:
        """The day's and the vote's deadlines are told in the game's channel; the night's is
        not (the night is played by private message, and the channel is closed then)."""
        if table.phase == "day":
            # Translators: {when} is the deadline as the chat service shows it ("in 5 minutes
            # (21:30)"): keep it as it is.
            return _("The day ends {when}.")
        if table.phase == "voting":
            # Translators: {when} is the deadline as the chat service shows it: keep it.
            return _("Voting closes {when}.")
        return None

    def warm(self) -> None:
        """The fake-quote patterns of every ruleset in the active language (quoting.py): read
        from the derived cache, or built and kept there, before any day's first chat line."""
        for ruleset in Ruleset:
            for expansions in (False, True):
                fake_patterns(ruleset, get_language(), expansions)

    def chat_problem(self, table: TableInfo, seat: SeatInfo, channel: str, text: str) -> str | None:
        """rules/000 s5c: in the day, no quoting of a private message word for word, and no
        faked quote: not of one's own messages, nor of anyone's, nor of any text the moderator
        sends a role not dealt (quoting.py, docs/rules.md)."""
        if table.state is None or play.OneNightState(table.state).phase != "day":
            return None
        if not can_quote(text):
            return None
        own = word_runs(panels.private_texts(table, seat))
        state = play.OneNightState(table.state)
        expansions = any(card in EXPANSION_ROLES for card in state.deal.cards.values())
        fake = fake_patterns(Ruleset(table.ruleset), get_language(), expansions)
        if quotes(text, own) or fakes_one(text, fake):
            return str(QUOTE_REFUSED)
        return None

    def cancel(self, table: TableInfo, now: datetime) -> Change:
        return play.cancel(table, now)
