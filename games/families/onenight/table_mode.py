"""One Night in table mode (issue 28): the narrator's pages, offered to games/tablemode through
the family interface (`Family.narrator`).

The set-up form read into a deck (the rules, the players, the cards, the day's length), the
night's script for it (narrator.py: the wake steps in the ruleset's order), and the reveal
sheet's answer. Nothing is stored: the page carries the whole night.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.tables.family import FamilyError, Page
from games.tables.names import RefusedName, clean_name

from .engine import (
    ARTIFACTS,
    CENTRE_POSITIONS,
    MIN_PLAYERS,
    Artifact,
    Mark,
    Role,
    RuleError,
    Ruleset,
    default_deck,
    max_players,
    validate_deck,
)
from .engine.roles import has_marks
from .narrator import CLOSING, INVESTIGATOR_BECOMES, OPENING, narration, reveal_sheet
from .online import online_limits
from .options import parse_deck

DAY_MINUTES = 5  # at a table; the host changes it (rules/000's 30 minutes is for online play)
MOST_PLAYERS_ON_A_SHEET = 20  # the reveal sheet reads no more rows than this
# The sheet's answer for a Doppelganger card that copied no one: it began in the centre and came
# to a player in the night (the select's empty choice is "not said yet", and is refused).
COPIED_NOTHING = "nothing"

Fields = Mapping[str, Sequence[str]]


@dataclass(frozen=True, slots=True)
class NarratorSetup:
    ruleset: Ruleset
    players: tuple[str, ...]
    deck: tuple[Role, ...]
    day_minutes: int


class SetupError(Exception):
    """The form cannot make a game; the message says what to fix."""


def _last(fields: Fields, name: str) -> str:
    """A field's value as a page's `QueryDict.get` reads it: the last one sent, or ""."""
    values = fields.get(name)
    return values[-1] if values else ""


def read_setup(fields: Fields) -> NarratorSetup:
    """The set-up the host's form asks for; SetupError says what to fix. No counter above zero
    takes the suggested deck for the number of players."""
    try:
        ruleset = Ruleset(_last(fields, "ruleset") or Ruleset.HOUSE.value)
    except ValueError:
        raise SetupError(_("Choose the house rules or the official rules.")) from None
    names: list[str] = []
    for raw in _last(fields, "players").replace(",", "\n").splitlines():
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
    raw_minutes = _last(fields, "day_minutes") or str(DAY_MINUTES)
    if not raw_minutes.strip().isdigit() or not 1 <= int(raw_minutes) <= 120:
        raise SetupError(
            _("The day lasts a whole number of minutes, from 1 to %(most)d.") % {"most": 120}
        )
    return NarratorSetup(ruleset, tuple(names), tuple(deck), int(raw_minutes))


def deck_rows(ruleset: Ruleset, counts: Mapping[Role, int]) -> list[tuple[Role, int, int]]:
    """Each role of the ruleset played online with its count and limit, for the deck picker."""
    return [(role, counts.get(role, 0), limit) for role, limit in online_limits(ruleset).items()]


def _ruleset(fields: Fields) -> Ruleset:
    return Ruleset.OFFICIAL if _last(fields, "ruleset") == "official" else Ruleset.HOUSE


class OneNightNarrator:
    """The narrator's two pages (games.tables.family.Narrator)."""

    def setup(self, fields: Fields) -> Page:
        """The set-up form; once sent (`go`), the night's script and the reveal sheet."""
        counts: Counter[Role] = Counter()
        for role in Role:
            raw = _last(fields, f"count_{role.value}")
            if raw.strip().isdigit():
                counts[role] = int(raw)
        context = {
            "ruleset": _ruleset(fields).value,
            "players": _last(fields, "players"),
            "day_minutes": _last(fields, "day_minutes") if "day_minutes" in fields else DAY_MINUTES,
            "rows": {r.value: deck_rows(r, counts) for r in Ruleset},
            # The Doppelganger and Vampire's cards (docs/rules.md 8a.8): marked on the picker.
            "official_only": [
                r.value
                for r in online_limits(Ruleset.OFFICIAL)
                if r not in online_limits(Ruleset.HOUSE)
            ],
            "error": "",
        }
        if not _last(fields, "go"):
            return Page("onenight/narrator_setup.html", context)
        try:
            setup = read_setup(fields)
        except SetupError as error:
            context["error"] = str(error)
            return Page("onenight/narrator_setup.html", context, status=400)
        calls = narration(setup.ruleset, setup.deck)
        script = {
            "opening": OPENING,
            "closing": CLOSING,
            "calls": [
                {"key": c.key, "wake": c.wake, "sleep": c.sleep, "seconds": c.seconds}
                for c in calls
            ],
            "day_seconds": setup.day_minutes * 60,
        }
        roles = sorted(set(setup.deck), key=list(Role).index)
        return Page(
            "onenight/narrator.html",
            {
                "setup": setup,
                "calls": calls,
                "script": script,
                "roles": roles,
                # Daybreak's part of the reveal sheet (docs/rules.md 8a.9): with the Curator
                # in the deck, each card's artifact; with the investigator, what it became.
                "artifacts": list(ARTIFACTS) if Role.CURATOR in setup.deck else [],
                "investigator": (
                    INVESTIGATOR_BECOMES if Role.PARANORMAL_INVESTIGATOR in setup.deck else ()
                ),
                # Vampire's (docs/rules.md 8b.7): with a Vampire card, each player's mark at the
                # end (a Mark of Clarity unless the table says otherwise); with the Copycat, the
                # role it copied.
                "marks": list(Mark) if has_marks(setup.deck) else [],
                "copycat": Role.COPYCAT in setup.deck,
            },
        )

    def verdict(self, fields: Fields) -> Page:
        """The reveal sheet: the final cards and the votes in, the dead and the winners out."""
        ruleset = _ruleset(fields)
        players = tuple(p for p in fields.get("player", ()) if p)[:MOST_PLAYERS_ON_A_SHEET]
        final: dict[str, Role] = {}
        votes: dict[str, str | None] = {}
        artifacts: dict[str, Artifact] = {}
        # Vampire (docs/rules.md 8b.7): a sheet with a mark field is a game with marks; a mark
        # left empty or unknown is missing, and the sheet says whose.
        marked = any(f"mark_{index}" in fields for index in range(len(players)))
        marks: dict[str, Mark] = {}
        error = ""
        for index, name in enumerate(players):
            card = _last(fields, f"final_{index}")
            if card in Role._value2member_map_:
                final[name] = Role(card)
            target = _last(fields, f"vote_{index}")
            votes[name] = target if target in players and target != name else None
            artifact = _last(fields, f"artifact_{index}")
            if artifact in Artifact._value2member_map_:
                artifacts[name] = Artifact(artifact)
            mark = _last(fields, f"mark_{index}")
            if mark in Mark._value2member_map_:
                marks[name] = Mark(mark)
        copied_raw = _last(fields, "copied")
        copied = Role(copied_raw) if copied_raw in Role._value2member_map_ else None
        became_raw = _last(fields, "investigator")
        became = Role(became_raw) if became_raw in Role._value2member_map_ else None
        copycat_raw = _last(fields, "copycat")
        copycat = Role(copycat_raw) if copycat_raw in Role._value2member_map_ else None
        verdict = None
        try:
            verdict = reveal_sheet(
                ruleset,
                players,
                final,
                votes,
                copied,
                artifacts=artifacts,
                investigator=became,
                marks=marks if marked else None,
                copycat=copycat,
                copied_nothing=copied_raw == COPIED_NOTHING,
            )
        except RuleError as error_:
            error = str(error_)
        return Page(
            "onenight/narrator_verdict.html",
            {"verdict": verdict, "error": error},
            status=200 if verdict else 400,
        )
