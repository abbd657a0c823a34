from django.apps import AppConfig


class TableModeConfig(AppConfig):
    """Table mode (issue 28): the moderator's assistant for games played in person. An edge
    like the pages and the bot: One Night's narrator and reveal sheet, and the multi-night
    moderator's entry; the rules are the families' engines."""

    name = "games.tablemode"
    label = "tablemode"
