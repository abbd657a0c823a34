from django.apps import AppConfig


class WerewolfConfig(AppConfig):
    """Multi-night Werewolf: its engine, its table play and pages, and its scenario runner."""

    name = "games.families.werewolf"
    label = "werewolf"

    def ready(self) -> None:
        from games.tables.family import register

        from .family import Werewolf

        register(Werewolf())
