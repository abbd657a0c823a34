"""The One Night narrator's set-up, read from its form: the rules, the players, the deck."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.families.onenight.engine import (
    CENTRE_POSITIONS,
    Role,
    RuleError,
    Ruleset,
    default_deck,
    max_players,
    role_limits,
    validate_deck,
)
from games.families.onenight.engine.deck import MIN_PLAYERS
from games.families.onenight.options import _one as _field
from games.families.onenight.options import parse_deck
from games.tables.family import FamilyError
from games.tables.names import RefusedName, clean_name

DAY_MINUTES = 5  # at a table; the host changes it (rules/000's 30 minutes is for online play)


@dataclass(frozen=True, slots=True)
class NarratorSetup:
    ruleset: Ruleset
    players: tuple[str, ...]
    deck: tuple[Role, ...]
    day_minutes: int


class SetupError(Exception):
    """The form cannot make a game; the message says what to fix."""


def _one(fields: Mapping[str, Sequence[str]], name: str) -> str:
    return _field(fields, name) or ""


def read_setup(fields: Mapping[str, Sequence[str]]) -> NarratorSetup:
    """The set-up the host's form asks for; SetupError says what to fix. No counter above zero
    takes the suggested deck for the number of players."""
    try:
        ruleset = Ruleset(_one(fields, "ruleset") or Ruleset.HOUSE.value)
    except ValueError:
        raise SetupError(_("Choose the house rules or the official rules.")) from None
    names: list[str] = []
    for raw in _one(fields, "players").replace(",", "\n").splitlines():
        if not raw.strip():
            continue
        try:
            name = clean_name(raw, CENTRE_POSITIONS)
        except RefusedName as error:
            raise SetupError(str(error)) from None
        if name.lower() in (n.lower() for n in names):
            raise SetupError(
                _("%(name)s is on the list twice: give each player their own name.")
                % {"name": name}
            )
        names.append(name)
    most = max_players(ruleset)
    if not MIN_PLAYERS <= len(names) <= most:
        raise SetupError(
            _("Write %(least)d to %(most)d players' names, one per line.")
            % {"least": MIN_PLAYERS, "most": most}
        )
    try:
        chosen = parse_deck(ruleset.value, fields)
    except FamilyError as error:
        raise SetupError(str(error)) from None
    deck = [Role(r) for r in chosen] or default_deck(ruleset, len(names))
    try:
        validate_deck(ruleset, deck, len(names))
    except RuleError as error:
        raise SetupError(str(error)) from None
    raw_minutes = _one(fields, "day_minutes") or str(DAY_MINUTES)
    if not raw_minutes.strip().isdigit() or not 1 <= int(raw_minutes) <= 120:
        raise SetupError(
            _("The day lasts a whole number of minutes, from 1 to %(most)d.") % {"most": 120}
        )
    return NarratorSetup(ruleset, tuple(names), tuple(deck), int(raw_minutes))


def deck_rows(ruleset: Ruleset, counts: Mapping[Role, int]) -> list[tuple[Role, int, int]]:
    """Each role of the ruleset with its count and limit, for the deck picker."""
    return [(role, counts.get(role, 0), limit) for role, limit in role_limits(ruleset).items()]
