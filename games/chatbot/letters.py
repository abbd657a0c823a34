"""What the bot owes one seat, and a game's channel, in plain text: asked of the game's family
through the family interface (games.tables.family.ChatPlay: a seat's view as text), never
built here. Each letter has a key; the relay sends a key once (models.SeatLink.told)."""

from __future__ import annotations

from games.tables.family import Letter, SeatInfo, TableInfo, chat_of, family_named


def due(table: TableInfo, seat: SeatInfo) -> list[tuple[str, str]]:
    """The letters `seat` should have by now, in order, each with its key (none if the game
    cannot be played by chat)."""
    chat = chat_of(family_named(table.family))
    if chat is None:
        return []
    return [(letter.key, letter.text) for letter in chat.letters(table, seat)]


def due_letters(table: TableInfo, seat: SeatInfo) -> tuple[Letter, ...]:
    """The letters `seat` should have by now, whole (with the taps that answer them)."""
    chat = chat_of(family_named(table.family))
    return chat.letters(table, seat) if chat is not None else ()


def reveal_for_all(table: TableInfo) -> str | None:
    """What the game's channel is told once the game is over (the reveal), if anything."""
    chat = chat_of(family_named(table.family))
    return chat.channel_letter(table) if chat is not None else None
