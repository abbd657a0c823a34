"""Taps on Discord (issue 40 item 3): a letter's menus (games.tables.family.Letter.menus) as
buttons, or a select menu where there are more choices than a row of buttons holds; a tap runs
the command it stands for, exactly as if the player had typed it to the bot privately."""

from __future__ import annotations

import discord

from . import relay

BUTTONS = 5  # the most buttons in one row of a Discord message
ROWS = 5  # the most rows in one message
TAP = "tap:"  # a button's id: the command it stands for
MENU = "menu:"  # a select menu's id; each option's value is a command
LIMIT = 100  # the longest id or value Discord takes
OPTIONS = 25  # the most choices in one select menu


def view_for(item: relay.Outgoing) -> discord.ui.View | None:
    """The buttons and menus of a letter, or None if it offers none."""
    if not item.menus:
        return None
    view = discord.ui.View(timeout=None)
    row = 0
    for menu in item.menus:
        taps = [t for t in menu if len(TAP + t.command) <= LIMIT]
        if len(taps) <= BUTTONS and row < ROWS:
            for tap in taps:
                view.add_item(
                    discord.ui.Button(label=tap.label[:80], custom_id=TAP + tap.command, row=row)
                )
            row += 1
            continue
        # A long menu takes as many rows as it needs, OPTIONS choices each (typing still works
        # for a choice past the message's last row).
        for start in range(0, len(taps), OPTIONS):
            if row >= ROWS:
                break
            options = [
                discord.SelectOption(label=t.label[:100], value=t.command)
                for t in taps[start : start + OPTIONS]
            ]
            view.add_item(discord.ui.Select(custom_id=f"{MENU}{row}", options=options, row=row))
            row += 1
    return view


def command_of(data: dict[str, object]) -> str | None:
    """The command a tap stands for, from an interaction's data; None if it is not ours."""
    custom_id = str(data.get("custom_id", ""))
    if custom_id.startswith(TAP):
        return custom_id[len(TAP) :]
    values = data.get("values")
    if custom_id.startswith(MENU) and isinstance(values, list) and values:
        return str(values[0])
    return None
