"""Django's makemessages, which also finds the engines' `N_` marker (games/words.py)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    # xgettext knows `_`, `gettext` and `ngettext` already; Django adds its own lazy names.
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
