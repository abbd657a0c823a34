from django.apps import AppConfig


class WerewolfConfig(AppConfig):
    """Multi-night Werewolf: its engine and its scenario runner (the pages: issue 27)."""

    name = "games.families.werewolf"
    label = "werewolf"
