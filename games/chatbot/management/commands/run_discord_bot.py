"""python manage.py run_discord_bot: play One Night from Discord (issue 29; README, "Discord")."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Run the Discord bot of rules/000. The bot's token comes from DISCORD_TOKEN."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--poll", type=float, default=2.0, help="seconds between two looks at the database"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        token = os.environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise CommandError(
                "Set DISCORD_TOKEN to the bot's token (Discord developer portal, Bot page);"
                " the README's 'Discord' section says how to make the bot."
            )
        from games.chatbot import relay
        from games.chatbot.discord_bot import SERVICE, WerewolfBot

        # One process per token (issue 40 item 5): the database holds the lock, renewed on each
        # relay pass; a second process is refused while the first is alive.
        holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        if not relay.claim(SERVICE, holder):
            raise CommandError(
                "Another bot process already runs for this site (it renewed its lock in the last"
                f" {int(relay.LEASE.total_seconds())} seconds): stop it first, or wait that long"
                " after it stopped."
            )
        bot = WerewolfBot(poll_seconds=float(options["poll"]), holder=holder)
        try:
            bot.run(token, log_level=logging.INFO)
        finally:
            relay.release(SERVICE, holder)
