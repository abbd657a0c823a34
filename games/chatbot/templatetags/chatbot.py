"""The seat's "Play from Discord" box on its game page (issue 29): the `!link` command that ties
this seat to a chat account. Shown only where the bot can play the game (a family that offers
it its commands: One Night) and a bot runs (settings.DISCORD_BOT_NAME)."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from games.chatbot.finding import playable
from games.chatbot.linking import link_code
from games.chatbot.models import SeatLink

register = template.Library()


@register.inclusion_tag("chatbot/link_box.html")
def chat_link_box(page: Any) -> dict[str, Any]:
    me, table = page.me, page.table
    bot = getattr(settings, "DISCORD_BOT_NAME", "")
    show = bool(bot) and me is not None and playable(table) and not table.ended
    if not show:
        return {"show": False}
    linked = SeatLink.objects.filter(seat_id=me.pk).select_related("account").first()
    return {
        "show": True,
        "bot": bot,
        "command": f"!link {table.code} {link_code(me)}",
        "linked": linked.account.name if linked else "",
    }
