"""Multi-night Werewolf's table options: the roles dealt, the ruleset's options, the pace.

The host sets them in the lobby. The roles come with the documents' recommended line-ups as
presets (rules/001 for 7-8 players, rules/003's "about a third" werewolves, rules/004 VI); the
pace is a live one (minutes) or a forum one (hours: 48 hours a phase in rules/001). `parse`
checks a posted form (FamilyError on anything a host can fix, nothing stored); the deal itself
is checked by the engine when the game starts (`start_problem`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.tables.family import FamilyError, SeatInfo, TableInfo

from . import names
from .engine import RULESETS, RuleError
from .engine.setup import check_options, check_roles

# Minutes each step lasts, by pace. "forum": rules/001's 48 hours a phase.
PACES: dict[str, dict[str, int]] = {
    "live": {"night": 3, "day": 8, "election": 2, "vote": 2, "call": 2, "decide": 2},
    "forum": {"night": 2880, "day": 2880, "election": 720, "vote": 720, "call": 720, "decide": 720},
}
STEPS = ("night", "day", "election", "vote", "call", "decide")
STEP_TITLES = {
    "night": gettext_lazy("Night"),
    "day": gettext_lazy("Day (discussion)"),
    "election": gettext_lazy("Sheriff election (1.7.0)"),
    "vote": gettext_lazy("Vote (1.7.0)"),
    "call": gettext_lazy("Execution call (Oxford)"),
    "decide": gettext_lazy("A decision on death (shot, badge, tie)"),
}
# A step's length that is not a whole number of minutes, by step.
STEP_NOT_WHOLE = {
    "night": gettext_lazy("The night needs whole minutes."),
    "day": gettext_lazy("The day (discussion) needs whole minutes."),
    "election": gettext_lazy("The sheriff election (1.7.0) needs whole minutes."),
    "vote": gettext_lazy("The vote (1.7.0) needs whole minutes."),
    "call": gettext_lazy("The execution call (oxford) needs whole minutes."),
    "decide": gettext_lazy("The decision on death (shot, badge, tie) needs whole minutes."),
}
MAX_MINUTES = 14 * 24 * 60  # a fortnight


def line_up(ruleset: str, players: int) -> Counter[str]:
    """The documents' recommended roles for this many players."""
    n = max(players, 4)
    if ruleset == "forum":  # 001: two werewolves and a lunatic at 7-8 players
        wolves = max(1, round(n / 4))
        cast = Counter({"werewolf": wolves, "seer": 1, "protector": 1})
        if n >= 6:
            cast["lunatic"] = 1
    elif ruleset == "oxford":  # 003 Premise: about a third of the village are werewolves
        wolves = max(1, n // 3)
        cast = Counter({"werewolf": wolves})
        for role in ("wolfsbane", "trapper", "mayor", "vigilante", "cultist", "cultist"):
            if sum(cast.values()) < n - 1:
                cast[role] += 1
    else:  # 004 VI
        wolves = 1 if n < 6 else 2 if n < 9 else 3 if n < 12 else 4 if n < 16 else 5
        cast = Counter({"werewolf": wolves, "seer": 1, "witch": 1, "hunter": 1})
        if n >= 9:
            cast["guardian"] = 1
        if n >= 12:
            cast["knight"] = 1
            cast["idiot"] = 1
        if n >= 16:
            cast["werewolf"] -= 1
            cast["wolf_king"] = 1
    villagers = n - sum(cast.values())
    if villagers > 0:
        cast["villager"] += villagers
    return +cast


def defaults(ruleset: str) -> dict[str, Any]:
    pace = "forum" if ruleset == "forum" else "live"
    rules = RULESETS[ruleset]
    return {
        "roles": {},  # empty: the recommended line-up for the table's size
        "rules": {o.name: o.default for o in rules.options},
        "pace": pace,
        "minutes": dict(PACES[pace]),
        "opens_with": "night",
        "lovers": 0,
        "rivals": 0,
        "crossbows": 0,
    }


def players_of(table: TableInfo) -> list[SeatInfo]:
    """The seats that play, in seat order: all of them online; at a table (table mode), all
    but the host's, which is the moderator's device."""
    seats = sorted(table.seats, key=lambda s: s.position)
    if table.options.get("table_mode"):
        seats = [s for s in seats if not s.is_host]
    return seats


def roles_of(ruleset: str, options: Mapping[str, Any], players: int) -> Counter[str]:
    chosen = Counter({r: int(c) for r, c in (options.get("roles") or {}).items() if int(c)})
    return chosen or line_up(ruleset, players)


def start_problem(ruleset: str, options: Mapping[str, Any], players: int) -> str | None:
    """Why this table cannot be dealt yet, or None (the engine checks the deal)."""
    rules = RULESETS[ruleset]
    if players < rules.min_players:
        return ngettext(
            "At least %(count)d player is needed to start.",
            "At least %(count)d players are needed to start.",
            rules.min_players,
        ) % {"count": rules.min_players}
    roles = roles_of(ruleset, options, players)
    total = sum(roles.values())
    if total != players:
        # Translators: the players seated, the roles they need (as many), the roles chosen.
        return _("%(players)d players need %(players)d roles; %(total)d are chosen.") % {
            "players": players,
            "total": total,
        }
    names = [f"P{i}" for i in range(players)]
    cards = [role for role, count in sorted(roles.items()) for _copy in range(count)]
    try:
        check_roles(rules, tuple(names), dict(zip(names, cards, strict=True)))
    except RuleError as error:
        return str(error)
    pairs = int(options.get("lovers", 0)) + int(options.get("rivals", 0))
    if ruleset == "oxford" and 2 * pairs > players:
        return _("There are more lover and rival pairs than the players can make.")
    return None


def _one(fields: Mapping[str, Sequence[str]], name: str) -> str | None:
    values = fields.get(name)
    return values[-1].strip() if values else None


# What a host counts in the Oxford lobby: (not a whole number, out of range) for each.
EXTRAS = {
    "lovers": (
        gettext_lazy("The number of pairs of lovers must be a whole number."),
        gettext_lazy("The number of pairs of lovers must be from 0 to %(most)d."),
    ),
    "rivals": (
        gettext_lazy("The number of pairs of rivals must be a whole number."),
        gettext_lazy("The number of pairs of rivals must be from 0 to %(most)d."),
    ),
    "crossbows": (
        gettext_lazy("The number of crossbows for the werewolves must be a whole number."),
        gettext_lazy("The number of crossbows for the werewolves must be from 0 to %(most)d."),
    ),
}


ROLE_COUNT = (
    # Translators: %(role)s is a role card's title ("Seer").
    gettext_lazy("The number of %(role)s must be a whole number."),
    # Translators: %(role)s is a role card's title ("Seer").
    gettext_lazy("The number of %(role)s must be from 0 to %(most)d."),
)


def _count(raw: str | None, errors: tuple[Any, Any], maximum: int, role: str = "") -> int:
    """A posted count; `errors` say why not: (not a whole number, not from 0 to `maximum`)."""
    whole, ranged = errors
    words = {"role": role, "most": maximum}
    try:
        value = int(raw or "0")
    except ValueError:
        raise FamilyError(str(whole) % words) from None
    if not 0 <= value <= maximum:
        raise FamilyError(str(ranged) % words)
    return value


def parse(
    ruleset: str, current: Mapping[str, Any], fields: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """The options a host's form asks for; each lobby form posts only its own fields."""
    rules = RULESETS[ruleset]
    options = dict(current)
    if _one(fields, "suggested"):
        options["roles"] = {}
    elif any(key.startswith("count_") for key in fields):
        roles: dict[str, int] = {}
        for key in fields:
            if key.startswith("count_"):
                role = key.removeprefix("count_")
                if role not in rules.roles:
                    raise FamilyError(_("%(role)r is not a role of this game.") % {"role": role})
                count = _count(_one(fields, key), ROLE_COUNT, 30, names.title(rules.roles[role]))
                if count:
                    roles[role] = count
        options["roles"] = roles
    if any(key.startswith("rule_") for key in fields):
        given: dict[str, object] = {}
        for option in rules.options:
            raw = _one(fields, f"rule_{option.name}")
            if raw is None:
                continue
            value = next((c for c in option.choices if str(c).lower() == raw.lower()), None)
            if value is None:
                # Translators: %(option)s is the option's name as the form shows it ("victory").
                raise FamilyError(
                    _("Choose one of the values of %(option)s.") % {"option": option.name}
                )
            given[option.name] = value
        try:
            options["rules"] = dict(check_options(rules, {**options.get("rules", {}), **given}))
        except RuleError as error:
            raise FamilyError(str(error)) from None
    pace = _one(fields, "pace")
    if pace is not None:
        if pace not in PACES:
            raise FamilyError(_("Choose a live pace or a forum pace."))
        if pace != options.get("pace"):
            options["pace"] = pace
            options["minutes"] = dict(PACES[pace])
    if any(key.startswith("minutes_") for key in fields):
        minutes = dict(options.get("minutes") or PACES["live"])
        for step in STEPS:
            raw = _one(fields, f"minutes_{step}")
            if raw is None:
                continue
            try:
                value = int(raw)
            except ValueError:
                raise FamilyError(str(STEP_NOT_WHOLE[step])) from None
            if not 1 <= value <= MAX_MINUTES:
                raise FamilyError(
                    _("Each step lasts 1 to %(most)d minutes (a fortnight).")
                    % {"most": MAX_MINUTES}
                )
            minutes[step] = value
        options["minutes"] = minutes
    opens = _one(fields, "opens_with")
    if opens is not None:
        if opens not in rules.opens_with:
            # Translators: %(ruleset)s is the game's short name as the page's address has it
            # ("oxford", "classic").
            raise FamilyError(_("A %(ruleset)s game opens with a night.") % {"ruleset": ruleset})
        options["opens_with"] = opens
    if ruleset == "oxford":
        extras = (("lovers", 2), ("rivals", 7), ("crossbows", 5))
        for name, maximum in extras:
            if name in fields:
                options[name] = _count(_one(fields, name), EXTRAS[name], maximum)
    return options


# --- Table mode: the cards as dealt at the table ------------------------------------------------


def parse_cards(
    table: TableInfo, options: dict[str, Any], fields: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """Table mode (issue 28): whether the app deals (`deal` = "app") or the moderator types in
    the real cards (`deal` = "cards", each player's role as `card_<seat id>`)."""
    deal = _one(fields, "deal")
    if deal is not None:
        if deal not in ("app", "cards"):
            raise FamilyError(_("Choose whether the app deals or you enter the cards."))
        options["deal"] = deal
    if any(key.startswith("card_") for key in fields):
        rules = RULESETS[table.ruleset]
        dealt: dict[str, str] = dict(options.get("dealt") or {})
        for seat in players_of(table):
            role = _one(fields, f"card_{seat.id}")
            if role is None:
                continue
            if role and role not in rules.roles:
                raise FamilyError(_("%(role)r is not a role of this game.") % {"role": role})
            if role:
                dealt[seat.name] = role
            else:
                dealt.pop(seat.name, None)
        options["dealt"] = dealt
    if table.ruleset == "oxford" and "oxford_deal" in fields:
        names = {str(s.id): s.name for s in players_of(table)}
        pairs: dict[str, list[list[str]]] = {"lovers": [], "rivals": []}
        for kind, prefix in (("lovers", "lover"), ("rivals", "rival")):
            for index in range(8):
                a = names.get(_one(fields, f"{prefix}_{index}_a") or "")
                b = names.get(_one(fields, f"{prefix}_{index}_b") or "")
                if a and b:
                    pairs[kind].append([a, b])
        options["pairs"] = pairs
        options["crossbow_holders"] = [names[i] for i in fields.get("crossbow", ()) if i in names]
    return options


def cards_problem(
    ruleset: str, options: Mapping[str, Any], players: Sequence[SeatInfo]
) -> str | None:
    """Why the entered cards cannot start the game, or None."""
    dealt = options.get("dealt") or {}
    missing = [s.name for s in players if s.name not in dealt]
    if missing:
        return _("Enter %(player)s's card (or let the app deal).") % {"player": missing[0]}
    names = [s.name for s in players]
    try:
        check_roles(RULESETS[ruleset], tuple(names), {n: dealt[n] for n in names})
    except RuleError as error:
        return str(error)
    if ruleset == "oxford":
        pairs = options.get("pairs") or {}
        for kind in ("lovers", "rivals"):
            count = int(options.get(kind, 0))
            if len(pairs.get(kind, [])) != count:
                if kind == "lovers":
                    message = ngettext(
                        "Enter the lovers Fate dealt (%(count)d pair).",
                        "Enter the lovers Fate dealt (%(count)d pairs).",
                        count,
                    )
                else:
                    message = ngettext(
                        "Enter the rivals Fate dealt (%(count)d pair).",
                        "Enter the rivals Fate dealt (%(count)d pairs).",
                        count,
                    )
                return message % {"count": count}
        crossbows = int(options.get("crossbows", 0))
        if len(options.get("crossbow_holders") or []) != crossbows:
            return ngettext(
                "Tick the %(count)d player Fate gave a crossbow.",
                "Tick the %(count)d players Fate gave a crossbow.",
                crossbows,
            ) % {"count": crossbows}
    return None
