"""The rulebooks' suggested sets for the expansions, offered in the lobby (issue 42).

Data only, in one place: each set's cards, the table sizes it is meant for and where the
rulebook gives it (docs/rules.md 8a.11, 8b.9). Only sets the sources give are here; the host
picks one with one tap (`set=<key>`, options.parse) and it fills the deck counters. A lobby
offers the sets whose every card its ruleset may deal (a house table: Daybreak's, not the
Doppelganger's nor Vampire's: docs/rules.md 8a.8).

A set is for an exact table size (the Getting Started Guides' first games) or for its minimum
and up (Daybreak's "Fun Scenarios"): at a larger table `deck_for` tops the set up with the
lobby's own suggested cards for that size (docs/rules.md 8a.11, Choice).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.tables.family import FamilyError

from .engine import (
    Role,
    RuleError,
    Ruleset,
    default_deck,
    max_players,
    role_limits,
    validate_deck,
)
from .engine.deck import CENTRE_SIZE, wolf_card_count

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class SuggestedSet:
    key: str  # what the lobby posts as `set`
    title: StrOrPromise
    least: int  # the smallest table it is for: the deck is then exactly `cards`
    most: int | None  # the largest (None: up to the ruleset's largest table, max_players)
    cards: tuple[Role, ...]  # with the Alpha Wolf, its centre werewolf card included
    source: str  # where the rulebook gives it (not shown to players; docs/rules.md cites it)

    def fits(self, ruleset: Ruleset | str, players: int) -> bool:
        most = max_players(Ruleset(ruleset)) if self.most is None else self.most
        return self.least <= players <= most

    def deck_for(self, ruleset: Ruleset | str, players: int) -> list[Role]:
        """The set's cards, topped up to players + 3 (+1 with the Alpha Wolf) with the lobby's
        suggested deck for this size (engine `default_deck`), in its order, each card only while
        its role's limit allows (docs/rules.md 8a.11, Choice). Official masons come as a pair.
        Precondition: `fits(ruleset, players)`. Every set fills up this way at every size it
        fits (tests/onenight/test_suggested_sets.py); the caller still checks the result.
        """
        rules = Ruleset(ruleset)
        deck = list(self.cards)
        counts = Counter(deck)
        wanted = players + CENTRE_SIZE + wolf_card_count(counts)
        limits = role_limits(rules)
        for role in default_deck(rules, players):
            room = wanted - len(deck)
            if room <= 0:
                break
            limit = limits.get(role, 0)
            if role is Role.WEREWOLF and limit:
                limit += wolf_card_count(counts)
            if counts[role] >= limit:
                continue
            if role is Role.MASON and rules is Ruleset.OFFICIAL:
                # Both Mason cards or neither (rules/002 s5): add the pair, or skip it.
                if counts[role] or limit < 2 or room < 2:
                    continue
                deck.append(role)
                counts[role] += 1
            deck.append(role)
            counts[role] += 1
        return deck


_FUN = "upandatom96/fake-fan-adam src/assets/werewolf/transcript/daybreak_content.md, Fun Scenarios"

SETS: tuple[SuggestedSet, ...] = (
    # docs/rules.md 8a.11: the Daybreak Getting Started Guide's "First Game
    # Setup", a 3-player game. The guide's list misses the Witch, which its script wakes and
    # its count of cards needs; its centre werewolf card is the Dream Wolf, a plain Werewolf
    # here (8a.1: only a Werewolf card is set apart for the Alpha Wolf).
    SuggestedSet(
        key="daybreak_first_game",
        title=gettext_lazy("Daybreak: first game"),
        least=3,
        most=3,
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
    # docs/rules.md 8b.9: the Vampire Getting Started Guide's "First Game
    # Setup", a 4-player game, seven cards as the guide lists them.
    SuggestedSet(
        key="vampire_first_game",
        title=gettext_lazy("Vampire: first game"),
        least=4,
        most=4,
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
    # docs/rules.md 8a.11: the Daybreak rulebook's "Fun Scenarios", each for its minimum of
    # players and up ("you can add other roles to these sets to match the number of players").
    # The sets with the Alpha Wolf add a plain Werewolf as its centre werewolf card (8a.1), as
    # the first game does: the rulebook counts its sets without it.
    SuggestedSet(
        key="daybreak_evil_transformation",
        title=gettext_lazy("Daybreak: Evil Transformation"),
        least=3,
        most=None,
        cards=(
            Role.DOPPELGANGER,
            Role.ALPHA_WOLF,
            Role.MYSTIC_WOLF,
            Role.MINION,
            Role.ROBBER,
            Role.WITCH,
            Role.WEREWOLF,
        ),
        source=_FUN,
    ),
    SuggestedSet(
        key="daybreak_trust_no_one",
        title=gettext_lazy("Daybreak: Trust No One"),
        least=3,
        most=None,
        cards=(
            Role.DOPPELGANGER,
            Role.ALPHA_WOLF,
            Role.DREAM_WOLF,
            Role.ROBBER,
            Role.WITCH,
            Role.TANNER,
            Role.WEREWOLF,
        ),
        source=_FUN,
    ),
    SuggestedSet(
        key="daybreak_cautionary_tale",
        title=gettext_lazy("Daybreak: Cautionary Tale"),
        least=4,
        most=None,
        cards=(
            Role.WEREWOLF,
            Role.MYSTIC_WOLF,
            Role.SEER,
            Role.APPRENTICE_SEER,
            Role.REVEALER,
            Role.HUNTER,
            Role.BODYGUARD,
        ),
        source=_FUN,
    ),
    # The transcription writes "Witch Insomniac": a comma lost, as eight cards for five
    # players need both.
    SuggestedSet(
        key="daybreak_information_society",
        title=gettext_lazy("Daybreak: Information Society"),
        least=5,
        most=None,
        cards=(
            Role.WEREWOLF,
            Role.MYSTIC_WOLF,
            Role.SEER,
            Role.APPRENTICE_SEER,
            Role.PARANORMAL_INVESTIGATOR,
            Role.WITCH,
            Role.INSOMNIAC,
            Role.REVEALER,
        ),
        source=_FUN,
    ),
    SuggestedSet(
        key="daybreak_total_chaos",
        title=gettext_lazy("Daybreak: Total Chaos"),
        least=5,
        most=None,
        cards=(
            Role.DOPPELGANGER,
            Role.ALPHA_WOLF,
            Role.WEREWOLF,
            Role.ROBBER,
            Role.WITCH,
            Role.TROUBLEMAKER,
            Role.VILLAGE_IDIOT,
            Role.CURATOR,
            Role.WEREWOLF,
        ),
        source=_FUN,
    ),
)
BY_KEY = {s.key: s for s in SETS}


def offered(ruleset: str) -> tuple[SuggestedSet, ...]:
    """The sets a lobby of this ruleset lists: those whose every card it may deal (a house
    table deals Daybreak's cards, not the Doppelganger nor Vampire's: docs/rules.md 8a.8)."""
    limits = role_limits(Ruleset(ruleset))
    return tuple(s for s in SETS if all(card in limits for card in s.cards))


def for_players(suggested: SuggestedSet) -> str:
    """The table sizes a set is for, as the lobby labels it ("for 3 players:")."""
    if suggested.most is None:
        return ngettext(
            "for %(least)d player or more:", "for %(least)d players or more:", suggested.least
        ) % {"least": suggested.least}
    if suggested.most == suggested.least:
        return ngettext("for %(sizes)s player:", "for %(sizes)s players:", suggested.least) % {
            "sizes": suggested.least
        }
    return _("for %(least)d to %(most)d players:") % {
        "least": suggested.least,
        "most": suggested.most,
    }


def does_not_fit(suggested: SuggestedSet, ruleset: Ruleset | str, players: int) -> str:
    """Why a set cannot be used at a table of this size ("... is for 5 players or more, and
    this table has 3 players.")."""
    least, most = suggested.least, suggested.most
    values = {"set": suggested.title, "sizes": least, "least": least, "players": players}
    if most == least:
        return (
            ngettext(
                "%(set)s is for %(sizes)s players, and this table has %(players)d player.",
                "%(set)s is for %(sizes)s players, and this table has %(players)d players.",
                players,
            )
            % values
        )
    if players < least:
        return (
            ngettext(
                "%(set)s is for %(least)d players or more, and this table has %(players)d player.",
                "%(set)s is for %(least)d players or more, and this table has %(players)d players.",
                players,
            )
            % values
        )
    most = max_players(Ruleset(ruleset)) if most is None else most
    return ngettext(
        "%(set)s is for %(least)d to %(most)d players, and this table has %(players)d player.",
        "%(set)s is for %(least)d to %(most)d players, and this table has %(players)d players.",
        players,
    ) % {**values, "most": most}


def pick(ruleset: str, key: str, players: int) -> list[str]:
    """The deck of the set `key` for a table of `players` (`SuggestedSet.deck_for`), or
    FamilyError (nothing stored)."""
    suggested = BY_KEY.get(key) if key in {s.key for s in offered(ruleset)} else None
    if suggested is None:
        if key in BY_KEY:
            raise FamilyError(
                _("%(set)s is for tables with the official rules.") % {"set": BY_KEY[key].title}
            )
        raise FamilyError(_("%(key)s is not one of the suggested sets.") % {"key": repr(key[:40])})
    if not suggested.fits(ruleset, players):
        raise FamilyError(does_not_fit(suggested, ruleset, players))
    deck = suggested.deck_for(ruleset, players)
    try:
        validate_deck(Ruleset(ruleset), deck, players)
    except RuleError as error:  # a set that no longer fits the engine's rules: say so
        raise FamilyError(str(error)) from None
    return [role.value for role in deck]
