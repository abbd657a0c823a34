"""The words players read, marked for translation: pure Python, so the engines may use it.

The engines cannot import Django, yet every sentence they build (a role message, a refusal, a
night report) is read by a player and must be translatable. They mark their text here:

- `_("...")` where a sentence is built: it is translated there and then, into the language of
  the request (or socket) being served.
- `N_("...")` for a constant made when the module is imported (a role's name, a section's
  title): marked for the catalogue, returned as it is; `_()` translates it where it is shown.
- `ngettext(singular, plural, n)` for words that depend on a count.

Placeholders are named, and a sentence is never glued from pieces, so that a translator may
reorder its words: `_("%(player)s shoots %(target)s.") % {"player": p, "target": t}`.

Until a translator is installed these return the English text: what the scenario runners print
and the engine tests read. When Django starts, games/tables/apps.py installs Django's own
gettext functions with `use`; `manage.py makemessages` finds all three markers (its `N_` comes
from games/tables/management/commands/makemessages.py).
"""

from __future__ import annotations

from collections.abc import Callable


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, number: int) -> str:
    return singular if number == 1 else plural


_gettext: Callable[[str], str] = _english
_ngettext: Callable[[str, str, int], str] = _english_plural


def use(gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> None:
    """Translate with these from now on (Django's, installed once when the app is ready)."""
    global _gettext, _ngettext
    _gettext, _ngettext = gettext, ngettext


def _(message: str) -> str:
    """`message` in the reader's language."""
    return _gettext(message)


def N_(message: str) -> str:
    """`message` as it is: marked for the catalogue, translated later with `_()`."""
    return message


def ngettext(singular: str, plural: str, number: int) -> str:
    """The singular or plural form for `number`, in the reader's language."""
    return _ngettext(singular, plural, number)


def listing(items: list[str] | tuple[str, ...]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cat" in the reader's language."""
    if len(items) <= 1:
        return "".join(items)
    # Translators: the separator between the names of a list, all but the last.
    separator = _(", ")
    # Translators: a list of names: %(names)s is all but the last, joined by the separator.
    return _("%(names)s and %(last)s") % {"names": separator.join(items[:-1]), "last": items[-1]}
