"""The Django admin for hosts and staff: find games, look inside them, end a day or cancel.

Everything is read-only: a game changes only through games/services, here as on the pages.
While a game is running its roles, actions and votes stay hidden until a staff user asks to see
them (the "show hidden roles" link); each such look is recorded on the game, so a host who
also plays never sees a secret by accident, and the others can tell if someone looked.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from games import services
from games.models import CentreCard, ChatMessage, Game, NightAction, Seat, Vote

SHOW_SECRETS = "show_secrets"
HIDDEN = "hidden"


def _secrets_visible(request: HttpRequest, game: Game | None) -> bool:
    """Roles are visible once a game is over, or on an explicit (recorded) request."""
    if game is None:
        return False
    if not game.in_progress:
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

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if _secrets_visible(request, obj):
            return [*self.public_fields, *self.secret_fields]
        return list(self.public_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return self.get_fields(request, obj)


class SeatInline(ReadOnlyInline):
    model = Seat
    public_fields = ("position", "name", "is_host", "ready_to_vote", "joined_at")
    secret_fields = ("start_role", "final_role")


class CentreCardInline(ReadOnlyInline):
    model = CentreCard
    public_fields = ("position",)
    secret_fields = ("start_role", "final_role")


class SecretInline(ReadOnlyInline):
    """Rows whose very existence is a secret while the game runs (who has acted, who has
    voted; an unfinished action marks the Doppelganger): hidden until the recorded look."""

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _secrets_visible(request, obj) and super().has_view_permission(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        # Django asks for the rows without the game (obj=None), which would hide them always;
        # whether the inline is shown at all is decided above, with the game.
        return self.model._default_manager.get_queryset()


class NightActionInline(SecretInline):
    model = NightAction
    fk_name = "game"
    secret_fields = ("seat", "targets", "complete", "by_deadline", "sent_at")


class VoteInline(SecretInline):
    model = Vote
    fk_name = "game"
    secret_fields = ("voter", "target", "by_deadline", "cast_at")


class ChatInline(ReadOnlyInline):
    model = ChatMessage
    public_fields = ("sent_at", "seat", "phase", "text")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("code", "phase", "ruleset", "player_count", "created_at", "secrets_opened_at")
    list_filter = ("phase", "ruleset")
    search_fields = ("code", "seats__name")
    ordering = ("-created_at",)
    actions = ("end_day", "cancel_games")
    inlines = (SeatInline, CentreCardInline, NightActionInline, VoteInline, ChatInline)
    public_fields = (
        "code",
        "phase",
        "ruleset",
        "deadline",
        "day_seconds",
        "night_seconds",
        "vote_seconds",
        "require_rules_phrase",
        "created_at",
        "started_at",
        "day_started_at",
        "finished_at",
        "previous_game",
        "secrets_opened_at",
        "secrets_opened_by",
        "secrets_link",
    )
    secret_fields = ("deck", "copied_role", "result")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).prefetch_related("seats")

    @admin.display(description="players")
    def player_count(self, game: Game) -> int:
        return len(game.seats.all())

    @admin.display(description="hidden roles")
    def secrets_link(self, game: Game) -> str:
        if not game.in_progress:
            return "shown: the game is not running"
        return format_html(
            '<a href="?{}=1">Show the hidden roles, actions and votes</a>'
            " (your look is recorded on the game)",
            SHOW_SECRETS,
        )

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        if _secrets_visible(request, obj):
            return [*self.public_fields, *self.secret_fields]
        return list(self.public_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        return self.get_fields(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are created from the home page, where the host takes a seat

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> Any:
        if request.method == "GET" and request.GET.get(SHOW_SECRETS) == "1":
            game = self.get_object(request, object_id)
            allowed = game is not None and self.has_view_permission(request, game)
            if allowed and game.in_progress:
                services.game_secrets_open(game=game, user=request.user)
                messages.warning(request, "You are looking at this game's hidden roles.")
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.action(description="End the day now (voting begins)")
    def end_day(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            try:
                services.game_end_day_by_staff(game=game)
            except services.ServiceError as error:
                self.message_user(request, f"{game.code}: {error}", messages.WARNING)
            else:
                self.message_user(request, f"{game.code}: the day is over; voting has begun.")

    @admin.action(description="Cancel the selected games")
    def cancel_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            try:
                services.game_cancel(game=game)
            except services.ServiceError as error:
                self.message_user(request, f"{game.code}: {error}", messages.WARNING)
            else:
                self.message_user(request, f"{game.code}: cancelled.")


__all__ = ["GameAdmin"]
