"""Reading a One Night `!target` at the family's level, with no move made: what the bot would
post for a seat's words (tests/chatbot/test_onenight_vampire.py, test_onenight_daybreak.py)."""

from __future__ import annotations

from games.families.onenight.chat import OneNightChat
from games.tables.family import ChatMove, Said
from games.tables.models import Table
from games.tables.reads import seat_info, table_info


def read_target(
    table: Table, name: str, text: str, mentions: dict[str, int | None] | None = None
) -> ChatMove:
    """The move `name`'s `!target <text>` is read into (no move is made)."""
    seat = table.seats.get(name=name)
    said = Said(text, mentions or {})
    return OneNightChat().move(table_info(table), seat_info(seat), "target", said)


def seat_ids(table: Table) -> dict[str, str]:
    """Each player's seat id as the forms post it, by name."""
    return {s.name: str(s.id) for s in table.seats.all()}
