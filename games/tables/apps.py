from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The table core: tables, seats, moves, chat, the clock, the pages and the pushes. It
    knows no game; each family registers itself (games/tables/family.py)."""

    name = "games.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"
