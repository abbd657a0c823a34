from django.apps import AppConfig


class GamesConfig(AppConfig):
    """The One Night game: models, services, pages, websockets and the rules engine."""

    name = "games"
    default_auto_field = "django.db.models.BigAutoField"
