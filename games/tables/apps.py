from django.apps import AppConfig


class TablesConfig(AppConfig):
    """The table core: tables, seats, moves, chat, the clock, the pages and the pushes. It
    knows no game; each family registers itself (games/tables/family.py)."""

    name = "games.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The engines mark their sentences with games/words.py, which cannot import Django:
        # give it Django's translation, so they speak the reader's language (docs/i18n.md).
        from django.utils.translation import gettext, ngettext

        from games import words

        words.use(gettext, ngettext)
