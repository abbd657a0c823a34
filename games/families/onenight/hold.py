"""docs/rules.md 8a.10: online, a Doppelganger's copy the Sentinel may yet shield is held back
from the seat's page, letters and moves until every other player's action is in (8a.3: at a
table the Sentinel wakes first, and a copy of a shielded card fails unseen). One reading for
every reader: play.py (the moves and the release), family.py (the release's redraw), forms.py
and panels.py (the page), chat.py, chat_aims.py and letters.py (the bot)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from django.utils.translation import gettext_lazy

from .engine import Deal, Role, has_marks


class OneNightState(Protocol):
    """What the hold reads of play.OneNightState (play.py imports this module)."""

    @property
    def phase(self) -> str: ...
    @property
    def players(self) -> list[tuple[int, str]]: ...
    @property
    def deal(self) -> Deal: ...
    @property
    def actions(self) -> Mapping[str, Mapping[str, Any]]: ...


# docs/rules.md 8a.10: what the Doppelganger is told while its copy is held (`copy_held`).
HELD_MESSAGE = gettext_lazy(
    "Your copy is made. You will see the card you copied once every other player's action is"
    " in; then send its action, if it has one."
)


def copy_waits(state: OneNightState, name: str) -> bool:
    """Whether `name`'s Doppelganger copy is one the hold applies to (docs/rules.md 8a.10): a
    copy of a player's card, in a deck with the Sentinel card (at a player or in the centre)
    and no Vampire expansion card, so that the Doppelganger wakes after the Sentinel (8a.3; with
    one it wakes at dusk, 8b.3: `has_marks`, as the night's steps decide it)."""
    deal = state.deal
    if deal.cards.get(name) is not Role.DOPPELGANGER:
        return False
    mine = state.actions.get(name)
    if not mine or not mine["targets"]:
        return False
    cards = deal.cards.values()
    return Role.SENTINEL in cards and not has_marks(cards)


def _others_in(state: OneNightState, name: str) -> bool:
    return all(
        state.actions.get(n, {}).get("complete", False) for _i, n in state.players if n != name
    )


def copy_held(state: OneNightState, name: str) -> bool:
    """docs/rules.md 8a.10: online, the Doppelganger's copied card is kept from `name`'s page,
    letters and moves until every other player's action is in, when the Sentinel may yet
    shield it (8a.3: at a table the Sentinel wakes first). Waiting for everyone, not for the
    Sentinel alone, tells nothing of where the Sentinel card is."""
    return state.phase == "night" and copy_waits(state, name) and not _others_in(state, name)


def copy_shielded(state: OneNightState, name: str) -> str | None:
    """The player whose card `name`'s Doppelganger copied, if a complete Sentinel action
    shields it: the copy failed (docs/rules.md 8a.3, 8a.10) and the Doppelganger sees nothing;
    else None. Only after the hold (`copy_held`); the dawn's report says the same."""
    if not copy_waits(state, name) or copy_held(state, name):
        return None
    model = state.actions[name]["targets"][0]
    for _i, other in state.players:
        action = state.actions.get(other)
        if state.deal.cards[other] is not Role.SENTINEL or not action or not action["complete"]:
            continue
        if action["targets"][:1] == [model]:
            return model
    return None


def let_go(before: OneNightState, after: OneNightState) -> frozenset[int]:
    """The seats whose held copy a move let go (docs/rules.md 8a.10): their page must be
    redrawn, to show the copied card and its role's form, though the night goes on."""
    return frozenset(
        i
        for i, name in after.players
        if after.phase == "night" and copy_held(before, name) and not copy_held(after, name)
    )
