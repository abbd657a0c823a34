from django.apps import AppConfig


class ChatbotConfig(AppConfig):
    """The chat bot of rules/000: One Night played from a chat service (Discord), by commands
    sent to a bot. An edge like the pages: it parses, calls the table services, and words what
    a seat may know as private messages."""

    name = "games.chatbot"
    label = "chatbot"
    default_auto_field = "django.db.models.BigAutoField"
