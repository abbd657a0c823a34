"""One multi-night game walked through the pages by every seat and a watcher, for the tests
that read what those pages say: tests/i18n/test_pages.py (no unmarked English word) and
tests/web/test_plain_words.py (no rule citation outside a "why?"). Each test brings its own
reader; the walk is the same for both, so a change to how a game is played through the pages
is made once."""

from __future__ import annotations

import random
from typing import Protocol

from django.test import Client
from django.urls import reverse

from games.families.werewolf.stored import game_of
from games.tables import services
from games.tables.models import Seat, Table
from games.tables.watching import watch_path
from tests.factories import fixed_shuffle, new_client
from tests.werewolf.test_table_play import NAMES, fields_for, open_table

# Line-ups of nine that together deal every role of each ruleset (dealt in seat order); the
# ruleset is the name's part before any "-".
LINE_UPS = {
    "forum": {"werewolf": 2, "lunatic": 1, "seer": 1, "protector": 1, "villager": 4},
    "oxford": {
        "werewolf": 2, "dark_villager": 1, "wolfsbane": 1, "trapper": 1, "vigilante": 1,
        "mayor": 1, "cultist": 1, "villager": 1,
    },
    "classic": {
        "werewolf": 1, "wolf_beauty": 1, "white_wolf_king": 1, "wolf_king": 1, "seer": 1,
        "witch": 1, "hunter": 1, "guardian": 1, "knight": 1,
    },
    "classic-others": {
        "werewolf": 1, "hidden_wolf": 1, "wraith_rider": 1, "stone_ghost": 1, "idiot": 1,
        "silencer": 1, "grave_keeper": 1, "villager": 2,
    },
}  # fmt: skip


class Reader(Protocol):
    """What a walk hands its pages to: a page fetched by a client, or an answer's body."""

    def page(self, where: str, client: Client, path: str) -> str: ...

    def read(self, where: str, body: str) -> None: ...


class Walk:
    """A table of nine in its lobby with `line_up` set, each seat in its own browser
    (`clients`); `play(reader)` starts it and plays it to its end."""

    def __init__(self, line_up: str) -> None:
        self.line_up = line_up
        self.ruleset = line_up.partition("-")[0]
        self.table, self.seats = open_table(self.ruleset, players=len(NAMES))
        services.options_set(
            host=self.seats["Ann"],
            fields={f"count_{role}": [str(n)] for role, n in LINE_UPS[line_up].items()},
        )
        self.clients: dict[str, Client] = {}
        for name, seat in self.seats.items():
            client = new_client()
            client.get(reverse("rejoin", args=[self.table.code, seat.token]))
            self.clients[name] = client
        self.watcher = new_client()

    def play(self, reader: Reader) -> Table:
        """The lobby read by the host and a guest; then, until the game ends, each step's page
        (phase and step within it) read once by every seat and the watcher, every seat's
        random legal form posted (seeded by the line-up), preceded every third round by a
        refusal (a form naming nobody), whose answer is read too; the table moved on when
        nobody could move. The last pages are read by every seat and the watcher."""
        table, seats, clients = self.table, self.seats, self.clients
        path = reverse("table", args=[table.code])
        rng = random.Random(self.line_up)
        reader.page("lobby host", clients["Ann"], path)
        reader.page("lobby guest", clients["Ben"], path)
        with fixed_shuffle():
            services.table_start(host=seats["Ann"])
        table.refresh_from_db()
        # The game's watch link: a living host is not shown it (the watcher rules), so it comes
        # as a host whose seat reads the graveyard would hand it out.
        self.watcher.get(watch_path(table))
        seen: set[str] = set()
        for step in range(400):
            table.refresh_from_db()
            if table.stage != "playing":
                break
            state = game_of(table.state).state
            where = f"{state.phase.kind} {state.phase.number} {state.step}"
            if where not in seen:
                seen.add(where)
                for name in seats:
                    reader.page(f"{where} {name}", clients[name], path)
                reader.page(f"{where} watcher", self.watcher, path)
            moved = False
            for name in rng.sample(list(seats), len(seats)):
                seat = Seat.objects.get(pk=seats[name].pk)
                found = fields_for(table, seat, rng)
                if found is None:
                    continue
                kind, fields = found
                move = reverse("move", args=[table.code, kind])
                if step % 3 == 0:
                    wrong = {key: ["0"] for key in fields} or {"target": ["0"]}
                    answer = clients[name].post(move, wrong, HTTP_HX_REQUEST="1")
                    reader.read(f"{where} refusal {name} {kind}", answer.content.decode())
                    table.refresh_from_db()
                    if table.stage != "playing":
                        break
                answer = clients[name].post(move, fields, HTTP_HX_REQUEST="1")
                reader.read(f"{where} answer {name} {kind}", answer.content.decode())
                moved = moved or answer.status_code == 200
                table.refresh_from_db()
                if table.stage != "playing":
                    break
            table.refresh_from_db()
            if not moved and table.stage == "playing":
                services.table_move_on(table=table)
        table.refresh_from_db()
        for name in seats:
            reader.page(f"end {name}", clients[name], path)
        reader.page("end watcher", self.watcher, path)
        return table
