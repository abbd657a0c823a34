"""What a page posted, read before the engine sees it: a field's value, a player named by seat
id (a name is only ever shown), and a choice checked against the form the page offered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.tables.family import FamilyError

from .engine import NOBODY, Game
from .engine.forms import Form, forms_for
from .stored import name_of


def field(fields: Mapping[str, Sequence[str]], name: str) -> str | None:
    """A posted field's value (the last one sent), None when not posted."""
    values = fields.get(name)
    return values[-1] if values else None


def trimmed(fields: Mapping[str, Sequence[str]], name: str) -> str:
    """A posted field's value, trimmed ("" when not posted)."""
    return (field(fields, name) or "").strip()


def player(state: Mapping[str, Any], raw: str | None, *, nobody: bool = False) -> str | None:
    """A posted target: a seat id (a name is only ever shown), "nobody" where allowed, or ""
    for none."""
    raw = (raw or "").strip()
    if not raw:
        return None
    if nobody and raw == NOBODY:
        return NOBODY
    name = name_of(state, int(raw)) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None
    if name is None:
        raise FamilyError(_("Choose a player from the list on the page."))
    return name


def offered(game: Game, player: str, kind: str, key: str | None = None) -> Form | None:
    """The form of `kind` (and `key`) `player` has now, as their page shows it."""
    return next(
        (
            f
            for f in forms_for(game.state, player)
            if f.kind == kind and (key is None or f.key == key)
        ),
        None,
    )


def chosen(raw: Mapping[str, Any], form: Form, value: str | None, missing: str = "") -> str | None:
    """The target posted for `form`, checked against the choices its page offered, before the
    engine sees it (its refusals are in its own words, for the scenario files): a player on
    the form's list, NOBODY where the list has it, None for "no one" on a form that may be
    sent without a target. Nothing chosen: None, or the refusal `missing` when given (a vote
    is always a deliberate choice). A player no longer on the list (a page drawn before a
    death) is refused in words that say so."""
    value = (value or "").strip()
    if value == NOBODY and (NOBODY in form.targets or form.optional):
        return NOBODY if NOBODY in form.targets else None
    if not value:
        if missing:
            raise FamilyError(missing)
        return None
    name = player(raw, value)
    if name not in form.targets:
        raise FamilyError(_("%(player)s can't be chosen now: choose again.") % {"player": name})
    return name
