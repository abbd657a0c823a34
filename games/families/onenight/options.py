"""One Night's table options: the deck, the day's length, the time limits, the rules phrase.

The host changes them in the lobby; `parse` checks a posted form (FamilyError on anything a
player can fix, nothing stored), `deck_of` gives the deck a table plays with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.tables.family import FamilyError

from .engine import Role, RuleError, Ruleset, default_deck, max_players, validate_deck
from .engine.deck import MIN_PLAYERS
from .online import not_dealt, not_online, online_limits
from .suggested import pick

# rules/000 s5e: players show they read the rules by typing this phrase. It is the document's
# own words, compared letter by letter (a-z): it is not translated.
RULES_PHRASE = "The Ocean Chose Me"
DAY_MINUTES = 30  # rules/000 s3c: "a 30 minute time limit" on the day's discussion
NIGHT_MINUTES = 5  # the default limits: the host may lengthen or clear them
VOTE_MINUTES = 5
MAX_DAY_MINUTES = 24 * 60
MAX_LIMIT_MINUTES = 24 * 60


def defaults(ruleset: str) -> dict[str, Any]:
    """A new table's options: the suggested deck (an empty list follows the table's size), a
    30-minute day, five minutes for the night and for the vote (so nobody stalls the table;
    issue 30, docs/rules.md 7), and the rules phrase for the house rules only (rules/000 s5e)."""
    return {
        "deck": [],
        "day_minutes": DAY_MINUTES,
        "night_minutes": NIGHT_MINUTES,
        "vote_minutes": VOTE_MINUTES,
        "rules_phrase": ruleset == Ruleset.HOUSE.value,
    }


def deck_of(ruleset: str, options: Mapping[str, Any], players: int) -> list[Role]:
    """The host's cards, or the suggested deck for this many players if none were chosen."""
    rules = Ruleset(ruleset)
    if options.get("deck"):
        return [Role(r) for r in options["deck"]]
    count = min(max(players, MIN_PLAYERS), max_players(rules))
    return default_deck(rules, count)


def start_problem(ruleset: str, options: Mapping[str, Any], players: int) -> str | None:
    """Why this table cannot be dealt yet, or None."""
    if players < MIN_PLAYERS:
        return ngettext(
            "At least %(count)d player is needed to start.",
            "At least %(count)d players are needed to start.",
            MIN_PLAYERS,
        ) % {"count": MIN_PLAYERS}
    deck = deck_of(ruleset, options, players)
    # A deck stored before a card's web step was built is not dealt (online.py).
    problem = not_online(deck)
    if problem:
        return problem
    try:
        validate_deck(Ruleset(ruleset), deck, players)
    except RuleError as error:
        return str(error)
    return None


def _one(fields: Mapping[str, Sequence[str]], name: str) -> str | None:
    values = fields.get(name)
    return values[-1] if values else None


# What the settings form may get wrong, for each time it asks for: (no value given, not a
# whole number, out of range). Whole sentences, so that each reads well in every language.
_MINUTES_PROBLEMS = {
    "day_minutes": (
        gettext_lazy("Please give the day length in minutes."),
        gettext_lazy("The day length must be a whole number of minutes."),
        gettext_lazy("The day length must be a whole number of minutes from 1 to %(most)d."),
    ),
    "night_minutes": (
        gettext_lazy("Please give the night time limit in minutes."),
        gettext_lazy("The night time limit must be a whole number of minutes."),
        gettext_lazy("The night time limit must be a whole number of minutes from 1 to %(most)d."),
    ),
    "vote_minutes": (
        gettext_lazy("Please give the vote limit in minutes."),
        gettext_lazy("The vote limit must be a whole number of minutes."),
        gettext_lazy("The vote limit must be a whole number of minutes from 1 to %(most)d."),
    ),
}


def _minutes(raw: str | None, name: str, *, maximum: int, optional: bool) -> int | None:
    missing, not_whole, out_of_range = _MINUTES_PROBLEMS[name]
    if raw is None or raw.strip() == "":
        if optional:
            return None
        raise FamilyError(str(missing))
    try:
        value = int(raw.strip())
    except ValueError:
        raise FamilyError(str(not_whole)) from None
    if not 1 <= value <= maximum:
        raise FamilyError(str(out_of_range) % {"most": maximum})
    return value


def parse_deck(ruleset: str, fields: Mapping[str, Sequence[str]]) -> list[str]:
    """The deck from the form's counters (`count_<role>`), checked against the per-role limits
    (rules/000 s4), and against the cards played online (online.py). The table's size is
    checked when the game starts."""
    rules = Ruleset(ruleset)
    limits = online_limits(rules)
    deck: list[str] = []
    for key in fields:
        if not key.startswith("count_"):
            continue
        name = key.removeprefix("count_")
        try:
            role = Role(name)
        except ValueError:
            raise FamilyError(
                _("%(name)s is not a role of this game.") % {"name": repr(name)}
            ) from None
        raw = _one(fields, key) or "0"
        try:
            count = int(raw.strip() or "0")
        except ValueError:
            raise FamilyError(
                # Translators: %(role)s is a card's name.
                _("The number of %(role)s cards must be a whole number.") % {"role": role.title}
            ) from None
        limit = limits.get(role, 0)
        if (
            role is Role.WEREWOLF
            and limit
            and _one(fields, f"count_{Role.ALPHA_WOLF.value}") in ("1",)
        ):
            limit += 1  # Daybreak: the Alpha Wolf's centre werewolf card
        if count and limit == 0:
            # A forged post: the picker offers only the ruleset's cards played online.
            raise FamilyError(not_dealt(role, rules))
        if not 0 <= count <= limit:
            raise FamilyError(
                ngettext(
                    "The deck may hold 0 to %(most)d %(role)s cards.",
                    "The deck may hold 0 to %(most)d %(role)s cards.",
                    limit,
                )
                % {"most": limit, "role": role.title}
            )
        deck.extend([role.value] * count)
    return deck


def parse(
    ruleset: str,
    current: Mapping[str, Any],
    fields: Mapping[str, Sequence[str]],
    *,
    players: int = 0,
) -> dict[str, Any]:
    """The options a host's form asks for. Each part of the lobby posts its own fields: the
    deck picker its counters (or "suggested" to go back to the suggestion, or "set" for one of
    the rulebooks' suggested sets, checked against the table's `players`: suggested.py), the
    settings form the day's length, the time limits and the rules phrase; fields not posted
    keep their value.
    """
    options = dict(current)
    chosen_set = _one(fields, "set")
    if _one(fields, "suggested"):
        options["deck"] = []
    elif chosen_set is not None:
        options["deck"] = pick(ruleset, chosen_set, players)
    elif any(key.startswith("count_") for key in fields):
        options["deck"] = parse_deck(ruleset, fields)
    if "day_minutes" in fields:
        options["day_minutes"] = _minutes(
            _one(fields, "day_minutes"), "day_minutes", maximum=MAX_DAY_MINUTES, optional=False
        )
    for name in ("night_minutes", "vote_minutes"):
        if name in fields:
            options[name] = _minutes(
                _one(fields, name), name, maximum=MAX_LIMIT_MINUTES, optional=True
            )
    if "rules_phrase" in fields:
        options["rules_phrase"] = _one(fields, "rules_phrase") in ("yes", "on", "1", "true")
    return options


def phrase_matches(text: str) -> bool:
    """Case, spacing and punctuation do not matter when typing the rules phrase."""

    def simplify(value: str) -> str:
        return "".join(c for c in value.lower() if "a" <= c <= "z")

    return simplify(text or "") == simplify(RULES_PHRASE)
