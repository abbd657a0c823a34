"""The players (and other words) a chat command names, read from what a player typed: shared by
every family's chat moves (games.tables.family.ChatPlay), so each reads names the same way.

Names are read whole, in any case, with or without a leading @, and may hold spaces: the longest
name that fits wins. Words are separated by spaces, commas and " and " ("Ann, Ben and Cat").
A chat service's mention of a player (`Said.mentions`) names that player's seat.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from games.tables.family import Said, TableInfo

SEPARATORS = re.compile(r"[\s,]+")


class UnknownWord(Exception):
    """A word that names nobody (and nothing else the command takes): `word` as typed, without
    its @."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


class NotSeated(Exception):
    """A mention of someone with no seat at the table: `mention` as typed."""

    def __init__(self, mention: str) -> None:
        super().__init__(mention)
        self.mention = mention


def named(table: TableInfo, said: Said, extra: Mapping[str, str] | None = None) -> list[str]:
    """What `said` names, in order, as a seat's form posts it: a player's seat id (as text), or
    the value of one of the `extra` words (lower case: e.g. One Night's centre cards). Raises
    UnknownWord or NotSeated at the first word it cannot read."""
    by_name = {s.name.lower(): str(s.id) for s in table.seats}
    by_name.update(extra or {})
    words = [w for w in SEPARATORS.split(said.text.replace(" and ", " ")) if w]
    values: list[str] = []
    i = 0
    while i < len(words):
        if words[i] in said.mentions:
            seat = said.mentions[words[i]]
            if seat is None:
                raise NotSeated(words[i])
            values.append(str(seat))
            i += 1
            continue
        for length in range(len(words) - i, 0, -1):
            candidate = " ".join(words[i : i + length]).lstrip("@").lower()
            if candidate in by_name:
                values.append(by_name[candidate])
                i += length
                break
        else:
            raise UnknownWord(words[i].lstrip("@"))
    return values
