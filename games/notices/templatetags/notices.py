"""The seat page's notice boxes: "Notify me" (e-mail, reminders, quiet hours, the calendar
link; the host's defaults too) and "Since you last looked" (games/notices/since.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.conf import settings

from games.notices import push
from games.notices.links import calendar_path
from games.notices.models import TableDefaults
from games.notices.since import since_last_looked
from games.notices.views import REMIND_CHOICES
from games.tables.models import Seat

register = template.Library()
CHAT_SERVICES = {"discord": "Discord"}  # a chat service's name as players know it


@register.inclusion_tag("notices/box.html", takes_context=True)
def notices_box(context: Any, page: Any) -> dict[str, Any]:
    me, table = page.me, page.table
    if me is None or table.ended:
        return {"show": False}
    # One query: the seat's choice and the table's defaults, each joined if there is one.
    row: Mapping[str, Any] = (
        Seat.objects.filter(pk=me.pk)
        .values(
            "notices__id",
            "notices__email",
            "notices__remind_minutes",
            "notices__quiet_from",
            "notices__quiet_to",
            "notices__time_zone",
            "notices__chat_dm",
            "chat_link__account__service",
            "table__notice_defaults__id",
            "table__notice_defaults__remind_minutes",
            "table__notice_defaults__quiet_from",
            "table__notice_defaults__quiet_to",
        )
        .first()
    ) or {}
    fallback = TableDefaults()
    if row.get("table__notice_defaults__id") is not None:
        fallback = TableDefaults(
            remind_minutes=row["table__notice_defaults__remind_minutes"],
            quiet_from=row["table__notice_defaults__quiet_from"],
            quiet_to=row["table__notice_defaults__quiet_to"],
        )
    mine = row.get("notices__id") is not None
    service = row.get("chat_link__account__service") or ""
    return {
        "show": True,
        "page": page,
        "csrf_token": context.get("csrf_token"),
        "email_offered": settings.NOTICES_EMAIL,
        "push_offered": push.offered(),
        "vapid_key": settings.VAPID_PUBLIC_KEY,
        "email": row["notices__email"] if mine else "",
        "remind": row["notices__remind_minutes"] if mine else fallback.remind_minutes,
        "quiet_from": row["notices__quiet_from"] if mine else fallback.quiet_from,
        "quiet_to": row["notices__quiet_to"] if mine else fallback.quiet_to,
        "time_zone": row["notices__time_zone"] if mine else "",
        # Direct messages from the chat bot: offered to a seat linked to a chat account.
        "chat_service": CHAT_SERVICES.get(service, service) if service else "",
        "chat_dm": bool(row["notices__chat_dm"]) if mine else False,
        "defaults": fallback,
        "remind_choices": [(m, m // 60) for m in REMIND_CHOICES],
        "hours": range(24),
        "site_root": context.get("site_root", ""),
        "calendar_path": calendar_path(me.pk),
    }


@register.inclusion_tag("notices/since.html")
def since_box(page: Any) -> dict[str, Any]:
    return {"since": since_last_looked(page)}
