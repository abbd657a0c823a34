"""A game's side channels on Discord (issue 40 item 2; rooms.py): each opened as a text channel
next to the game's channel, in its category, with one permission overwrite per member saying
what the family lets that seat do there now, one for @everyone (the watchers) and one for the
bot. Missing permissions are said once in the game's channel, in plain words, with what to grant
(issue 40 item 5)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord
from asgiref.sync import sync_to_async
from django.utils.translation import gettext as _

from . import relay, rooms

log = logging.getLogger(__name__)

NEEDS = "rooms"  # the key of the notice about missing permissions, posted once per game


def overwrite(level: str) -> discord.PermissionOverwrite:
    """What a level of access (rooms.WRITE, READ, NONE) is as a Discord overwrite."""
    if level == rooms.WRITE:
        return discord.PermissionOverwrite(
            view_channel=True, send_messages=True, read_message_history=True
        )
    if level == rooms.READ:
        return discord.PermissionOverwrite(
            view_channel=True, send_messages=False, read_message_history=True
        )
    return discord.PermissionOverwrite(view_channel=False, send_messages=False)


def missing_permissions_text(code: str) -> str:
    return _(
        # Translators: "Manage Channels" and "Manage Roles" are Discord's names of permissions.
        "I cannot open game %(code)s's private channels (the pack, the graveyard): grant my"
        " role the Manage Channels and Manage Roles permissions (Server Settings, Roles), and"
        " I will open them at once. Until then those channels are on the game's web pages only."
    ) % {"code": code}


async def _target(guild: discord.Guild, who: str) -> discord.Member | discord.Role | None:
    if who == rooms.WATCHERS:
        return guild.default_role
    member = guild.get_member(int(who))
    if member is None:
        try:
            member = await guild.fetch_member(int(who))
        except discord.HTTPException:
            return None  # not on this server: nothing to allow or deny
    return member


async def _overwrites(
    guild: discord.Guild, access: Mapping[str, str]
) -> dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite]:
    found: dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite] = {}
    for who, level in access.items():
        target = await _target(guild, who)
        if target is not None:
            found[target] = overwrite(level)
    found[guild.me] = overwrite(rooms.WRITE)
    return found


async def sync(client: discord.Client, service: str) -> int:
    """Open the side channels owed and set the permissions that changed; how many rooms were
    brought up to date."""
    done = 0
    for room in await sync_to_async(rooms.owed)(service):
        try:
            home = client.get_channel(int(room.home)) or await client.fetch_channel(int(room.home))
        except discord.HTTPException:
            continue
        if not isinstance(home, discord.TextChannel):
            continue  # a game opened by private message has no server to open channels on
        guild = home.guild
        try:
            if not room.channel_id:
                channel = await guild.create_text_channel(
                    room.slug,
                    category=home.category,
                    topic=room.title,
                    overwrites=await _overwrites(guild, room.access),
                )
            else:
                channel = guild.get_channel(int(room.channel_id))  # type: ignore[assignment]
                if not isinstance(channel, discord.TextChannel):
                    continue
                changed = {
                    who: level
                    for who, level in room.access.items()
                    if room.applied.get(who) != level
                }
                for who, level in changed.items():
                    target = await _target(guild, who)
                    if target is not None:
                        await channel.set_permissions(target, overwrite=overwrite(level))
        except discord.Forbidden:
            await _say_missing(home, room)
            continue
        except discord.HTTPException as error:
            log.warning("room %s of %s: %s (tried again next pass)", room.name, room.code, error)
            continue
        await sync_to_async(rooms.applied)(room, str(channel.id), room.access)
        done += 1
    return done


async def _say_missing(home: discord.TextChannel, room: rooms.Room) -> None:
    """Once per game: what to grant, in the game's channel."""
    if not await sync_to_async(relay.first_time)(room.home, f"{NEEDS}:{room.code}"):
        return
    try:
        await home.send(missing_permissions_text(room.code))
    except discord.HTTPException:
        log.warning("could not tell channel %s what permissions are missing", room.home)
