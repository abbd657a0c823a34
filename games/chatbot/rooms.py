"""A game's other chat channels on the chat service (issue 40 item 2): the family's `channels`
besides the public one (multi-night Werewolf's pack and graveyard), each mirrored by a channel
whose permissions say, member by member, exactly what the family says each seat may do there
now: read and write, read only, or nothing (a werewolf's pack closed at death, the graveyard
opened to the dead). Members who play no seat get what the family gives a watcher.

Worked out from the database like the rest of the relay: `owed` lists the channels to open and
the permissions to change; the adapter applies them and records them with `applied`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db import transaction

from games.tables.family import PUBLIC, chat_of, family_named
from games.tables.models import Stage
from games.tables.reads import seat_info, table_info

from .models import GameChannel, SeatLink, SideChannel

WATCHERS = "*"  # in `access`: every member who plays no seat of the game
WRITE, READ, NONE = "write", "read", ""


@dataclass(frozen=True, slots=True)
class Room:
    """A side channel to open (`channel_id` "") or whose permissions changed. `access` maps
    each member's id (and WATCHERS) to WRITE, READ or NONE; `home` is the game's channel (its
    server and category are the room's)."""

    pk: int
    code: str
    name: str
    title: str
    home: str
    channel_id: str
    access: Mapping[str, str] = field(default_factory=dict)
    applied: Mapping[str, str] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        """The channel's name on the chat service ("abcd-pack")."""
        return f"{self.code}-{self.name}".lower()


def _level(read: bool, write: bool) -> str:
    return WRITE if write else READ if read else NONE


def wanted(game: GameChannel) -> dict[str, tuple[str, dict[str, str]]]:
    """For each of the game's side channels: its title and who may do what there now."""
    table = game.table
    family = family_named(table.family)
    if chat_of(family) is None or table.stage not in (Stage.PLAYING, Stage.OVER):
        return {}
    info = table_info(table)
    links = SeatLink.objects.filter(seat__table=table, account__service=game.service)
    rooms: dict[str, tuple[str, dict[str, str]]] = {}
    viewers = [(WATCHERS, None)] + [
        (link.account.user_id, seat_info(link.seat))
        for link in links.select_related("account", "seat")
    ]
    for who, seat in viewers:
        for channel in family.channels(info, seat):
            if channel.name == PUBLIC:
                continue
            _title, access = rooms.setdefault(channel.name, (str(channel.title), {}))
            access[who] = _level(channel.read, channel.write)
    for _title, access in rooms.values():
        for who, _seat in viewers:
            access.setdefault(who, NONE)  # not offered to this seat now: closed to it
    return rooms


def owed(service: str) -> list[Room]:
    """The side channels to open, and those whose permissions must change."""
    out: list[Room] = []
    games = GameChannel.objects.filter(service=service, done=False).exclude(
        table__stage__in=(Stage.LOBBY, Stage.CANCELLED)
    )
    for game in games.select_related("table"):
        for name, (title, access) in wanted(game).items():
            side, _created = SideChannel.objects.get_or_create(
                table=game.table, name=name, defaults={"service": service}
            )
            if side.channel_id and side.access == access:
                continue
            out.append(
                Room(
                    side.pk,
                    game.table.code,
                    name,
                    title,
                    game.channel_id,
                    side.channel_id,
                    access,
                    dict(side.access),
                )
            )
    return out


@transaction.atomic
def applied(room: Room, channel_id: str, access: Mapping[str, str]) -> None:
    """Record the channel opened for `room` and the permissions now set there."""
    SideChannel.objects.filter(pk=room.pk).update(channel_id=channel_id, access=dict(access))


def side_channel(service: str, channel_id: str) -> SideChannel | None:
    """The game's side channel a chat-service channel is, if any."""
    return (
        SideChannel.objects.filter(service=service, channel_id=channel_id)
        .select_related("table")
        .first()
    )
