from django.apps import AppConfig


class ArtConfig(AppConfig):
    """The icons' template tags (`{% load art %}`) and the about page."""

    name = "games.art"
    default_auto_field = "django.db.models.BigAutoField"
