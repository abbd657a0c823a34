"""The Django admin for hosts and staff: find tables, look inside them, cancel a game.

Everything is read-only: a table changes only through games/tables/services/, here as on the
pages. While a game runs, its state and the moves sent stay hidden until a staff user asks to
see them (the "show the hidden state" link); each such look is recorded on the table, so a host
who also plays never sees a secret by accident, and the others can tell if someone looked.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from games.tables import services
from games.tables.models import ChatLine, Move, Seat, Stage, Table

SHOW_SECRETS = "show_secrets"


def _secrets_visible(request: HttpRequest, table: Table | None) -> bool:
    """The hidden state is visible once a game is over, or on an explicit (recorded) request."""
    if table is None:
        return False
    if table.stage != Stage.PLAYING:
        return True
    return request.GET.get(SHOW_SECRETS) == "1"


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False
    public_fields: tuple[str, ...] = ()
    secret_fields: tuple[str, ...] = ()

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        if _secrets_visible(request, obj):
            return (*self.public_fields, *self.secret_fields)
        return self.public_fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return self.get_fields(request, obj)


class SeatInline(ReadOnlyInline):
    model = Seat
    fk_name = "table"
    public_fields = ("position", "name", "is_host", "alive", "joined_at")


class MoveInline(ReadOnlyInline):
    """The moves sent: who acted, when and how is a secret while the game runs."""

    model = Move
    secret_fields = ("version", "seat", "kind", "fields", "made_at")

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _secrets_visible(request, obj) and super().has_view_permission(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        # Django asks for the rows without the table (obj=None); whether the inline is shown
        # at all is decided above, with the table.
        return self.model._default_manager.get_queryset()


class ChatInline(ReadOnlyInline):
    model = ChatLine
    public_fields = ("sent_at", "channel", "author", "note", "text")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        # Private channels (a werewolves' night chat) are secrets while the game runs: only
        # the public one is listed here; the hidden state shows the rest after the recorded look.
        return super().get_queryset(request).filter(channel="public")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = (
        "code",
        "family",
        "ruleset",
        "phase_label",
        "stage",
        "player_count",
        "created_at",
    )
    list_filter = ("family", "stage", "ruleset")
    search_fields = ("code", "seats__name")
    ordering = ("-created_at",)
    actions = ("move_on", "cancel_tables")
    inlines = (SeatInline, MoveInline, ChatInline)
    public_fields = (
        "code",
        "family",
        "ruleset",
        "options",
        "stage",
        "phase_label",
        "round",
        "version",
        "deadline",
        "joins_locked",
        "created_at",
        "started_at",
        "finished_at",
        "previous",
        "secrets_opened_at",
        "secrets_opened_by",
        "secrets_link",
    )
    secret_fields = ("state",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).prefetch_related("seats")

    @admin.display(description="players")
    def player_count(self, table: Table) -> int:
        return len(table.seats.all())

    @admin.display(description="hidden state")
    def secrets_link(self, table: Table) -> str:
        if table.stage != Stage.PLAYING:
            return "shown: the game is not running"
        return format_html(
            '<a href="?{}=1">Show the hidden state and the moves</a>'
            " (your look is recorded on the table)",
            SHOW_SECRETS,
        )

    def get_fields(self, request: HttpRequest, obj: Table | None = None) -> tuple[str, ...]:
        if _secrets_visible(request, obj):
            return (*self.public_fields, *self.secret_fields)
        return self.public_fields

    def get_readonly_fields(
        self, request: HttpRequest, obj: Table | None = None
    ) -> tuple[str, ...]:
        return self.get_fields(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tables are opened from the home page, where the host takes a seat

    def has_change_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        # The list's actions (move on, cancel) go through the services; a table's own page is
        # read-only, with no Save that could write back a row read before a move.
        return obj is None and super().has_change_permission(request, obj)

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> Any:
        if request.method == "GET" and request.GET.get(SHOW_SECRETS) == "1":
            table = self.get_object(request, object_id)
            if (
                table is not None
                and self.has_view_permission(request, table)
                and table.stage == Stage.PLAYING
            ):
                services.secrets_open(table=table, user=request.user)
                messages.warning(request, "You are looking at this game's hidden state.")
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.action(description="Move on now, as if the time were up")
    def move_on(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            try:
                services.table_move_on(table=table)
            except services.ServiceError as error:
                self.message_user(request, f"{table.code}: {error}", messages.WARNING)
            else:
                self.message_user(request, f"{table.code}: moved on.")

    @admin.action(description="Cancel the selected games")
    def cancel_tables(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        for table in queryset:
            try:
                services.table_cancel(table=table)
            except services.ServiceError as error:
                self.message_user(request, f"{table.code}: {error}", messages.WARNING)
            else:
                self.message_user(request, f"{table.code}: cancelled.")
