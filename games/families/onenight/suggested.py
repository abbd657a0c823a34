"""The rulebooks' suggested sets for the expansions, offered in the official lobby (issue 42).

Data only, in one place: each set's cards, the table sizes it is meant for and where the
rulebook gives it (docs/rules.md 8a "Suggested sets", 8b "Suggested sets"). Only sets the
sources give are here; the host picks one with one tap (`set=<key>`, options.parse) and it
fills the deck counters. A house table offers the sets whose every card it may deal (Daybreak's,
not Vampire's: docs/rules.md 8a.8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.tables.family import FamilyError

from .engine import Role, RuleError, Ruleset, role_limits, validate_deck

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class SuggestedSet:
    key: str  # what the lobby posts as `set`
    title: StrOrPromise
    players: tuple[int, ...]  # the table sizes the source gives it for
    cards: tuple[Role, ...]
    source: str  # where the rulebook gives it (not shown to players; docs/rules.md cites it)

    def fits(self, players: int) -> bool:
        return players in self.players


SETS: tuple[SuggestedSet, ...] = (
    # docs/rules.md 8a "Suggested sets": the Daybreak Getting Started Guide's "First Game
    # Setup", a 3-player game. The guide's list misses the Witch, which its script wakes and
    # its count of cards needs; its centre werewolf card is the Dream Wolf, a plain Werewolf
    # here (8a.1: only a Werewolf card is set apart for the Alpha Wolf).
    SuggestedSet(
        key="daybreak_first_game",
        title=gettext_lazy("Daybreak: first game"),
        players=(3,),
        cards=(
            Role.ALPHA_WOLF,
            Role.MYSTIC_WOLF,
            Role.APPRENTICE_SEER,
            Role.WITCH,
            Role.VILLAGE_IDIOT,
            Role.REVEALER,
            Role.WEREWOLF,
        ),
        source="upandatom96/fake-fan-adam src/assets/werewolf/transcript/daybreak_started.md,"
        " First Game Setup",
    ),
    # docs/rules.md 8b "Suggested sets": the Vampire Getting Started Guide's "First Game
    # Setup", a 4-player game, seven cards as the guide lists them.
    SuggestedSet(
        key="vampire_first_game",
        title=gettext_lazy("Vampire: first game"),
        players=(4,),
        cards=(
            Role.COPYCAT,
            Role.VAMPIRE,
            Role.THE_COUNT,
            Role.PRIEST,
            Role.MARKSMAN,
            Role.PICKPOCKET,
            Role.GREMLIN,
        ),
        source="upandatom96/fake-fan-adam src/assets/werewolf/transcript/vampire_started.md,"
        " First Game Setup",
    ),
)
BY_KEY = {s.key: s for s in SETS}


def offered(ruleset: str) -> tuple[SuggestedSet, ...]:
    """The sets a lobby of this ruleset lists: those whose every card it may deal (a house
    table deals Daybreak's cards, not Vampire's: docs/rules.md 8a.8)."""
    limits = role_limits(Ruleset(ruleset))
    return tuple(s for s in SETS if all(card in limits for card in s.cards))


def sizes(suggested: SuggestedSet) -> str:
    """The table sizes a set is for, as digits ("3", or "4, 5")."""
    return ", ".join(str(n) for n in suggested.players)


def does_not_fit(suggested: SuggestedSet, players: int) -> str:
    """Why a set cannot be used at a table of this size."""
    return ngettext(
        "%(set)s is for %(sizes)s players, and this table has %(players)d player.",
        "%(set)s is for %(sizes)s players, and this table has %(players)d players.",
        players,
    ) % {"set": suggested.title, "sizes": sizes(suggested), "players": players}


def pick(ruleset: str, key: str, players: int) -> list[str]:
    """The deck of the set `key` for a table of `players`, or FamilyError (nothing stored)."""
    suggested = BY_KEY.get(key) if key in {s.key for s in offered(ruleset)} else None
    if suggested is None:
        if key in BY_KEY:
            raise FamilyError(
                _("%(set)s is for tables with the official rules.") % {"set": BY_KEY[key].title}
            )
        raise FamilyError(_("%(key)s is not one of the suggested sets.") % {"key": repr(key[:40])})
    if not suggested.fits(players):
        raise FamilyError(does_not_fit(suggested, players))
    try:
        validate_deck(Ruleset(ruleset), suggested.cards, players)
    except RuleError as error:  # a set that no longer fits the engine's rules: say so
        raise FamilyError(str(error)) from None
    return [role.value for role in suggested.cards]
