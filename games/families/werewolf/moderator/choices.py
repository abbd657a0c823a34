"""What the moderator may pick in a form: a player (by seat id, as the page posts it) or
"Nobody" where the rules allow it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ..engine import NOBODY
from ..engine.forms import Form


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str


def choices(form: Form, seats: Mapping[str, int]) -> tuple[Choice, ...]:
    return tuple(
        Choice(NOBODY, _("Nobody")) if t == NOBODY else Choice(str(seats[t]), t)
        for t in form.targets
        if t == NOBODY or t in seats
    )
