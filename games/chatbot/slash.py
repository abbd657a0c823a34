"""Slash commands on Discord (issue 40 item 3), next to the `!` commands: one per command the bot
takes (its own and every game's moves by name), each with the game and the rest of the command
as options, the game and the players offered as the member types (autocomplete).

A slash command is the typed command in another form: `run` builds the same text and hands it
to `commands.handle`. Its answer is seen by the member alone (Discord's ephemeral reply), so a
secret move (`/night`, `/vote`) may be sent from any channel without giving the player away.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.tables.family import chat_of, family_named
from games.tables.models import Stage, Table

from . import commands
from .finding import account_of, my_seats
from .replies import Reply, Sender

CHOICES = 25  # the most choices Discord shows for an option


def command_names() -> dict[str, bool]:
    """Every command the bot takes, with whether it is secret."""
    names = {name: secret for name, (_function, secret) in commands.COMMANDS.items()}
    names.update(commands._moves())
    return names


def run(sender: Sender, name: str, game: str, words: str, channel_id: str | None) -> Reply | None:
    """Slash command `name` with its options, as the typed command; a secret one is taken as
    if sent privately (its answer is the member's alone)."""
    secret = command_names().get(name, False)
    text = " ".join(part for part in (commands.PREFIX + name, game.strip(), words.strip()) if part)
    return commands.handle(sender, text, channel_id=None if secret else channel_id)


def game_choices(sender: Sender, current: str) -> list[tuple[str, str]]:
    """The member's games on the go, as (what is shown, the game's id), for the game option."""
    account = account_of(sender)
    found = []
    for seat in my_seats(account, Stage.LOBBY, Stage.PLAYING):
        table = seat.table
        if table.code.lower().startswith(current.lower().strip()):
            shown = f"{table.code}: {table.phase_label or _('lobby')} ({seat.name})"
            found.append((shown[:100], table.code))
    return found[:CHOICES]


def player_choices(sender: Sender, game: str, current: str) -> list[tuple[str, str]]:
    """The players of the game (the one named, or the member's only one on the go) whose name
    starts the last word typed, each as the whole option with that name completed."""
    table = Table.objects.filter(code=game.strip().upper()).first() if game.strip() else None
    if table is None:
        mine = my_seats(account_of(sender), Stage.PLAYING)
        table = mine[0].table if len(mine) == 1 else None
    if table is None or chat_of(family_named(table.family)) is None:
        return []
    head, _space, last = current.rpartition(" ")
    prefix = f"{head} " if head else ""
    names = [s.name for s in table.seats.order_by("position")]
    return [(prefix + n, prefix + n) for n in names if n.lower().startswith(last.lower())][:CHOICES]
