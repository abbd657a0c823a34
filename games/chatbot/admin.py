"""The bot's records in the admin: who plays which seat from a chat service, and which channel
carries which game. Staff may remove a link (the player then plays on the web only); nothing
here holds a secret (the letters' keys say what was sent, not what it said)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import ChatAccount, GameChannel, SeatLink


class NoAdding(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ChatAccount)
class ChatAccountAdmin(NoAdding):
    list_display = ("name", "service", "user_id")
    search_fields = ("name", "user_id")


@admin.register(SeatLink)
class SeatLinkAdmin(NoAdding):
    list_display = ("account", "seat", "table_code", "linked_at", "done")
    search_fields = ("account__name", "seat__name", "seat__table__code")
    list_select_related = ("account", "seat__table")

    @admin.display(description="Table")
    def table_code(self, link: SeatLink) -> str:
        return link.seat.table.code


@admin.register(GameChannel)
class GameChannelAdmin(NoAdding):
    list_display = ("table", "service", "channel_id", "done")
    search_fields = ("table__code", "channel_id")
    list_select_related = ("table",)
