"""The icons and each game's identity in templates (issue 38 item 2): `{% load art %}`.

    {% role_icon "seer" %}        the role's icon, inline, beside the role's name
    {% team_icon side %}          a team's icon (a family's side name: "town", "werewolves"...)
    <span class="team-{{ side|team }}">   the team (village, werewolf, neutral, vampire)
    {% game_title table %}        "Werewolf 1.7.0": the table's family and ruleset
    {% game_accent table %}       the accent key of art.css (data-accent)
    {% game_title_for "werewolf" ruleset %}, {% game_accent_for ... %}: the same without a table

An icon is drawn inline (so it takes the text's colour, currentColor, and the team's colour
applies) and hidden from screen readers: the name beside it says what it is. A key without an
icon draws nothing.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from django import template
from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games.art.icons import role_file, team_file, team_key
from games.tables.family import family_named

register = template.Library()


@cache
def _svg(path: str) -> str:
    """The SVG's markup without its opening tag's attributes, or "" if there is no such file."""
    for folder in settings.STATICFILES_DIRS:
        file = Path(folder) / path
        if file.is_file():
            text = file.read_text(encoding="utf-8").strip()
            return text[text.index(">") + 1 : text.rindex("</svg>")]
    return ""


def _icon(path: str, kind: str, key: str) -> SafeString:
    inner = _svg(path)
    if not inner:
        return mark_safe("")
    return format_html(
        '<svg class="icon {}-icon" data-icon="{}" viewBox="0 0 512 512" aria-hidden="true" '
        'focusable="false">{}</svg>',
        kind,
        key,
        mark_safe(inner),  # the vendored file's drawing (bin/vendor-icons), not user input
    )


@register.simple_tag
def role_icon(role: Any) -> SafeString:
    """The icon of the role whose key is `role` (a role's key or a StrEnum)."""
    key = str(getattr(role, "value", role))
    return _icon(role_file(key), "role", key)


@register.simple_tag
def team_icon(side: Any) -> SafeString:
    """The icon of the team `side` plays for."""
    team = team_key(getattr(side, "value", side))
    return _icon(team_file(team), "team", team)


@register.filter(name="team")
def team_filter(side: Any) -> str:
    """The team (village, werewolf, neutral, vampire) a side name wears, for a CSS class."""
    return team_key(getattr(side, "value", side))


@register.simple_tag
def game_title_for(family_name: str, ruleset: Any) -> str:
    """The game of `family_name` under `ruleset` ("Werewolf 1.7.0"); "" for no such family."""
    try:
        family = family_named(family_name)
    except KeyError:
        return ""
    return str(family.game_title(str(getattr(ruleset, "value", ruleset))))


@register.simple_tag
def game_accent_for(family_name: str, ruleset: Any) -> str:
    """The accent of that game (art.css's `data-accent` values); "" for no such family."""
    try:
        family = family_named(family_name)
    except KeyError:
        return ""
    return family.accent(str(getattr(ruleset, "value", ruleset)))


@register.simple_tag
def game_title(table: Any) -> str:
    """The game a table plays, by its family and ruleset."""
    return game_title_for(table.family, table.ruleset)


@register.simple_tag
def game_accent(table: Any) -> str:
    """The accent of the game a table plays."""
    return game_accent_for(table.family, table.ruleset)
