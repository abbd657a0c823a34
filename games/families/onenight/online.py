"""Which cards the web game deals: the one gate between the engine's catalogue and the decks a
user can choose (docs/rules.md 8b.7).

The engine plays every card it has records for; the web layer plays those whose forms, pages
and checks are built. `NOT_YET_ONLINE` names the rest: the lobby's picker, a posted deck, table
mode's set-up and reveal sheet, the start (the Discord bot's `!start` too), the rules page's
cards and the fake-quote walk all read it, through `online_limits` and `not_online`. It is
empty now: every card of the engine plays online (Vampire's since their web step, issue 42).
A card added to the engine before its forms and pages would wait here.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from .engine import Role, Ruleset, role_limits
from .engine.deck import not_in_rules

# Every card plays online: Vampire's fourteen since their web step (night forms for the marks,
# the Count's two names, the Marksman's "-", the Gremlin's word and the Copycat's two steps;
# marks in the reports and the reveal; docs/rules.md 8b.7).
NOT_YET_ONLINE: frozenset[Role] = frozenset()


def online_limits(ruleset: Ruleset) -> dict[Role, int]:
    """The ruleset's per-role limits (engine `role_limits`) for the cards played online, in the
    catalogue's order."""
    return {r: n for r, n in role_limits(ruleset).items() if r not in NOT_YET_ONLINE}


def _waits(role: Role) -> str:
    # Translators: %(role)s is a card's name ("Vampire").
    return _("The %(role)s card cannot be played here yet.") % {"role": role.title}


def not_online(cards: Iterable[Role]) -> str | None:
    """Why a deck holding these cards cannot be played here (the first card not yet online),
    or None."""
    waiting = next((card for card in cards if card in NOT_YET_ONLINE), None)
    return _waits(waiting) if waiting is not None else None


def not_dealt(role: Role, ruleset: Ruleset) -> str:
    """Why a deck of this ruleset here cannot hold `role`: not in the ruleset at all, or not
    played online yet."""
    if role in role_limits(ruleset):
        return _waits(role)
    return not_in_rules(role, ruleset)


__all__ = ["NOT_YET_ONLINE", "not_dealt", "not_online", "online_limits"]
