"""The slash commands on Discord (issue 40 item 3; slash.py): registered on the bot's command
tree, each answered to the member alone, its public part (a player sat down, a game opened)
posted in the channel as the typed command's would be."""

from __future__ import annotations

from typing import Any, Protocol

import discord
from asgiref.sync import sync_to_async
from discord import app_commands

from . import commands, slash
from .splitting import chunks

SERVICE = "discord"


class WerewolfBot(Protocol):
    """What a slash command needs of the bot (discord_bot.WerewolfBot)."""

    async def post(
        self, target: discord.abc.Messageable, text: str, *, view: discord.ui.View | None = None
    ) -> discord.Message: ...

    async def relay_once(self) -> int: ...


async def to_member_alone(interaction: discord.Interaction, text: str) -> None:
    """Answer an interaction (a slash command, a tap) to its member alone, cut into as many
    messages as Discord needs: the first answers it, the rest follow it (`/help` and `/role`
    can be longer than one message)."""
    parts = chunks(text) or ["…"]
    await interaction.response.send_message(parts[0], ephemeral=True)
    for part in parts[1:]:
        await interaction.followup.send(part, ephemeral=True)


def _sender(user: discord.User | discord.Member) -> commands.Sender:
    return commands.Sender(SERVICE, str(user.id), user.display_name)


async def answer(
    bot: WerewolfBot, interaction: discord.Interaction, name: str, game: str, words: str
) -> None:
    """Run slash command `name` as its typed form; the answer to the member alone."""
    private = interaction.channel is None or isinstance(interaction.channel, discord.DMChannel)
    channel_id = None if private else str(interaction.channel_id)
    reply = await sync_to_async(slash.run)(_sender(interaction.user), name, game, words, channel_id)
    texts = [*reply.private] if reply is not None else []
    await to_member_alone(interaction, "\n".join(texts) or "✓")
    channel = interaction.channel
    for text in reply.public if reply is not None else ():
        if isinstance(channel, discord.abc.Messageable):
            await bot.post(channel, text)
    await bot.relay_once()


async def _games(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await sync_to_async(slash.game_choices)(_sender(interaction.user), current)
    return [app_commands.Choice(name=shown, value=code) for shown, code in found]


async def _players(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    game = str(getattr(interaction.namespace, "game", "") or "")
    found = await sync_to_async(slash.player_choices)(_sender(interaction.user), game, current)
    return [app_commands.Choice(name=shown, value=value) for shown, value in found]


def register(bot: WerewolfBot, tree: app_commands.CommandTree[Any]) -> list[str]:
    """Add a slash command for every command the bot takes; their names."""
    names = sorted(slash.command_names())
    for name in names:
        tree.add_command(_command(bot, name))
    return names


def _command(bot: WerewolfBot, name: str) -> app_commands.Command[Any, ..., None]:
    async def callback(interaction: discord.Interaction, game: str = "", words: str = "") -> None:
        await answer(bot, interaction, name, game, words)

    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name,
        description=f"!{name}",
        callback=callback,
    )
    command.autocomplete("game")(_games)
    command.autocomplete("words")(_players)
    return command
