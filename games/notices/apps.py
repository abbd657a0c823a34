from django.apps import AppConfig


class NoticesConfig(AppConfig):
    """Notices that reach a player with no page open (issue 41): e-mails a seat asks for, a
    calendar of its deadlines, and "since you last looked" when the page is opened again. An
    edge like the pages: it reads a seat's view through the family interface, never the state."""

    name = "games.notices"
    label = "notices"
    default_auto_field = "django.db.models.BigAutoField"
