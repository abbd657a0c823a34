"""Multi-night Werewolf as a game family of the table core (games/tables/family.py): the forum
game (rules/001), the Oxford game (rules/003) and the 1.7.0 game (rules/004).

The wiring only: the options are options.py's (the lobby's forms, lobby.py's page), the play is
play.py's, what a seat sees is panels.py's (the moderator's screen at a table, moderator/), and
every ruling is the engine's (games/families/werewolf/engine).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.tables.family import PUBLIC, Change, Channel, Family, Panel, SeatInfo, TableInfo

from . import lobby, panels, play, steps, stored
from . import options as table_options
from .chat_play import WerewolfChat
from .engine import NOBODY, RULESETS
from .engine.abilities import has_now

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

PACK = "pack"  # the werewolves' private chat (rules/001: "a private group message")
GRAVEYARD = "graveyard"  # the dead and the watchers


# Each ruleset's game by the name its pages carry (issue 38: its own title and accent).
GAME_TITLES: Mapping[str, StrOrPromise] = {
    "forum": gettext_lazy("Werewolf — the forum game"),
    "oxford": gettext_lazy("Werewolf — Oxford rules"),
    "classic": gettext_lazy("Werewolf 1.7.0"),
}


class Werewolf(Family):
    """Multi-night Werewolf, played over minutes or over days."""

    name = "werewolf"
    title = gettext_lazy("Werewolf")
    rulesets: Mapping[str, StrOrPromise] = {
        "forum": gettext_lazy("Forum game"),
        "oxford": gettext_lazy("Oxford game"),
        "classic": gettext_lazy("1.7.0 game"),
    }
    reserved_names: tuple[str, ...] = (NOBODY,)
    # Offered to table mode: a game moderated at a table, the host's screen playing every seat
    # (issue 28); the roles dealt by the app or typed in from real cards, no clock.
    moderated_options: Mapping[str, Any] = {"table_mode": True, "deal": "app", "pace": "table"}
    narrator = None  # no narrator at a table: the moderator's assistant plays the night
    chat = WerewolfChat()  # by chat: the game's channel, the pack's, the graveyard (issue 40)

    def seat_limits(self, ruleset: str) -> tuple[int, int]:
        rules = RULESETS[ruleset]
        return rules.min_players, rules.max_players

    def default_options(self, ruleset: str) -> dict[str, Any]:
        return table_options.defaults(ruleset)

    def set_options(self, table: TableInfo, fields: Mapping[str, Sequence[str]]) -> dict[str, Any]:
        options = table_options.parse(table.ruleset, table.options, fields)
        if table.options.get("table_mode"):
            options = table_options.parse_cards(table, options, fields)
        return options

    def rules_path(self, ruleset: str) -> str:
        return reverse("werewolf_roles", args=[ruleset])

    def game_title(self, ruleset: str) -> StrOrPromise:
        return GAME_TITLES.get(ruleset, self.title)

    def accent(self, ruleset: str) -> str:
        return ruleset if ruleset in GAME_TITLES else self.name

    def lobby(self, table: TableInfo, viewer: SeatInfo | None) -> Panel:
        return lobby.lobby(table, viewer)

    def start_problem(self, table: TableInfo) -> str | None:
        players = table_options.players_of(table)
        problem = table_options.start_problem(table.ruleset, table.options, len(players))
        if problem is None and table.options.get("deal") == "cards":
            return table_options.cards_problem(table.ruleset, table.options, players)
        return problem

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
        return play.move(table, seat, kind, fields, now)

    def takes_back_end(self, table: TableInfo, kind: str) -> bool:
        """At a table the moderator may undo the mis-tap that ended the game."""
        return kind == "undo" and bool(table.options.get("table_mode"))

    def players_have_screens(self, table: TableInfo) -> bool:
        """At a table the moderator's screen plays for every seat: none has its own."""
        return not table.options.get("table_mode")

    def on_deadline(self, table: TableInfo, now: datetime) -> Change:
        return play.on_deadline(table, now)

    def panel(self, table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
        return panels.panel(table, viewer, now)

    def public_status(self, table: TableInfo) -> tuple[str, str]:
        return panels.public_status(table)

    def clock_sentence(self, table: TableInfo) -> str | None:
        if table.options.get("table_mode") or not table.state or "setup" not in table.state:
            return None
        return steps.clock_sentence(stored.game_of(table.state))

    def channels(self, table: TableInfo, viewer: SeatInfo | None) -> tuple[Channel, ...]:
        """The village's chat (the living, by day), the pack's (its living members, by
        night), the graveyard (the dead, and the watchers who read it)."""
        if table.state is None or "setup" not in (table.state or {}):
            return (Channel(PUBLIC, _("Village"), read=True, write=viewer is not None),)
        game = stored.game_of(table.state)
        state = game.state
        player = stored.name_of(table.state, viewer.id) if viewer is not None else None
        over = state.over or table.stage == "cancelled"
        alive = player is not None and player in state.alive
        night = state.phase is not None and state.phase.kind == "night"
        if over:
            closed = ""
        elif not alive:
            closed = _("The dead do not speak in the village: use the graveyard.")
        elif night:
            closed = _("Night: the village sleeps.")
        else:
            closed = ""
        public = Channel(
            PUBLIC, _("Village"), read=True, write=player is not None and not closed, closed=closed
        )
        channels = [public]
        if player is not None and (over or self._in_pack(game, player)):
            open_now = over or (alive and night)
            channels.append(
                Channel(
                    PACK,
                    _("The pack"),
                    read=True,
                    write=open_now,
                    closed="" if open_now else _("The pack speaks at night."),
                )
            )
        dead = player is not None and not alive
        if over or dead or player is None:
            channels.append(
                Channel(
                    GRAVEYARD,
                    _("Graveyard"),
                    read=True,
                    write=dead or (over and player is not None),
                )
            )
        return tuple(channels)

    @staticmethod
    def _in_pack(game: Any, player: str) -> bool:
        """The pack: the werewolves who hunt together now (rules/004's hidden wolf and stone
        ghost once they join the kill), and rules/003's dark villager, who knows them."""
        state = game.state
        if player not in state.alive:
            return False
        role = game.setup.roles[player]
        if role.pack is not None:
            return has_now(state, player, role.pack) or game.setup.ruleset.name != "classic"
        return role.name == "dark_villager"

    def chat_problem(self, table: TableInfo, seat: SeatInfo, channel: str, text: str) -> str | None:
        """rules/004 Silencer Elder: the silenced player may not speak in the village today."""
        if channel != PUBLIC or table.state is None or "setup" not in table.state:
            return None
        game = stored.game_of(table.state)
        state = game.state
        player = stored.name_of(table.state, seat.id)
        if state.phase is None or state.phase.kind != "day" or player is None:
            return None
        from .engine.report import phase_reports

        reports = phase_reports(game.setup, game.log)
        night = next((r for r in reversed(reports) if r.phase.kind == "night"), None)
        if night is not None and night.silenced == player:
            return _("You are silenced today (the silencer elder chose you): listen, and vote.")
        return None

    def cancel(self, table: TableInfo, now: datetime) -> Change:
        return play.cancel(table, now)
