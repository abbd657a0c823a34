from django.apps import AppConfig


class OneNightConfig(AppConfig):
    """One Night: its engine, its table play and pages, and its scenario runner."""

    name = "games.families.onenight"
    label = "onenight"

    def ready(self) -> None:
        from games.tables.family import register

        from .family import OneNight

        register(OneNight())
