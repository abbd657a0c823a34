"""The seat page's notice boxes: "Notify me" (e-mail, reminders, quiet hours, the calendar
link; the host's defaults too) and "Since you last looked" (games/notices/since.py)."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings

from games.notices.links import calendar_path
from games.notices.models import Subscription, TableDefaults
from games.notices.since import since_last_looked
from games.notices.views import REMIND_CHOICES

register = template.Library()


@register.inclusion_tag("notices/box.html", takes_context=True)
def notices_box(context: Any, page: Any) -> dict[str, Any]:
    me, table = page.me, page.table
    if me is None or table.ended:
        return {"show": False}
    mine = Subscription.objects.filter(seat=me).first()
    defaults = TableDefaults.objects.filter(table=table).first() or TableDefaults(table=table)
    return {
        "show": True,
        "page": page,
        "csrf_token": context.get("csrf_token"),
        "email_offered": settings.NOTICES_EMAIL,
        "mine": mine,
        "email": mine.email if mine else "",
        "remind": mine.remind_minutes if mine else defaults.remind_minutes,
        "quiet_from": mine.quiet_from if mine else defaults.quiet_from,
        "quiet_to": mine.quiet_to if mine else defaults.quiet_to,
        "time_zone": mine.time_zone if mine else "",
        "defaults": defaults,
        "remind_choices": [(m, m // 60) for m in REMIND_CHOICES],
        "hours": range(24),
        "site_root": context.get("site_root", ""),
        "calendar_path": calendar_path(me.pk),
    }


@register.inclusion_tag("notices/since.html")
def since_box(page: Any) -> dict[str, Any]:
    return {"since": since_last_looked(page)}
