"""The night played out: every action checked, then the ruleset's wake steps in order.

The order is the ruleset's night table (`roles.NIGHTS`): rules/000 s8 for the house rules
(0 werewolves, minion, masons, told in the role message, the lone werewolf's peek with it; 1 seer,
2 robber, 3 troublemaker, 4 drunk then insomniac), rules/002 s5 for the official rules
(Doppelganger, with a copied seer/robber/troublemaker/drunk acting at once; werewolves, minion,
masons, seer, robber, troublemaker, drunk, insomniac, Doppelganger-insomniac). Each step's
handler is a resolver of `resolvers.py`; what each role may send in is `actions.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .actions import ACTS_AT_ONCE, validate_night
from .artifacts import ARTIFACTS, Artifact
from .deck import Deal
from .resolvers import RESOLVERS
from .roles import NIGHTS, ROLES, Copy, Role, WakeStep, plays_as
from .tonight import NightStep, Tonight, Turn

# ACTS_AT_ONCE lives in actions.py; it is named here too for the callers that read it here.
__all__ = ["ACTS_AT_ONCE", "NightResult", "NightStep", "resolve_night"]


@dataclass(frozen=True, slots=True)
class NightResult:
    """The night played out.

    `final`: the card at every position at dawn. `seen`: what each player learned, as
    position → card face (fellow werewolves and masons as their role). `copied`: the role the
    Doppelganger took, or None. `log`: the steps in the order they happened.
    Daybreak (docs/rules.md): `shields`, the shielded players' cards in the order shielded;
    `artifacts`, the artifact on each player's card; `revealed`, the cards turned face up;
    `became`, what a card plays as at dawn when a role changed it (the Doppelganger card's
    copy, the paranormal investigator's werewolf or tanner).
    """

    deal: Deal
    final: Mapping[str, Role]
    seen: Mapping[str, Mapping[str, Role]]
    copied: Role | None
    log: tuple[NightStep, ...]
    actions: Mapping[str, tuple[str, ...]]
    shields: tuple[str, ...] = ()
    artifacts: Mapping[str, Artifact] = field(default_factory=dict)
    revealed: tuple[str, ...] = ()
    became: Mapping[Role, Role] = field(default_factory=dict)

    def plays_as(self, player: str) -> Role:
        """The role `player` plays as for the day: an artifact's role (Daybreak's claw, brand,
        cudgel), else what their final card became (the Doppelganger's copy), else the card."""
        artifact = self.artifacts.get(player)
        if artifact is not None and ARTIFACTS[artifact].plays_as is not None:
            role = ARTIFACTS[artifact].plays_as
            assert role is not None
            return role
        card = self.final[player]
        if card in self.became:
            return self.became[card]
        return plays_as(card, self.copied)


def _woken(night: Tonight, step: WakeStep) -> tuple[str, ...]:
    """Who wakes at `step`: the players dealt its role (with a Doppelganger that copied it, for
    a role it wakes with), or, for a Doppelganger's own step as a copied role, that player."""
    if step.copied is None:
        return night.woke_as(step.role)
    if night.doppelganger is not None and night.copied is step.copied:
        return (night.doppelganger,)
    return ()


def _play(night: Tonight) -> None:
    """The ruleset's wake steps in order, each by its handler."""
    for step in NIGHTS[night.deal.ruleset]:
        if step.handler is None:
            # A step only the narrator calls: rules/002 s5's Doppelganger-minion, told at the
            # minion's own step (its role wakes WITH_THEM: roles.RoleRecord.copy).
            assert step.copied is not None and ROLES[step.copied].copy is Copy.WITH_THEM, step
            continue
        resolver = RESOLVERS[step.handler]
        woken = _woken(night, step)
        turn = Turn(step.order, step.copied or step.role)
        if resolver.together is not None:
            resolver.together(night, turn, woken)
            continue
        assert resolver.each is not None, step.handler
        for player in woken:
            targets = night.actions[player]
            # A Doppelganger's own step as a copied role: its targets after the copy.
            resolver.each(night, turn, player, targets[1:] if step.copied else targets)


def resolve_night(
    deal: Deal, actions: Mapping[str, Sequence[str]], *, with_log: bool = True
) -> NightResult:
    """Play the night: validate every action, then carry them out in the ruleset's wake order.

    `actions` maps players to their targets; a player left out, or with no targets, did nothing.
    Raises IllegalActionError (and changes nothing) if any action breaks the rules.
    `with_log=False` skips writing the step-by-step sentences (the scenario runner has no use
    for them); everything else is the same.
    """
    checked = validate_night(deal, actions)
    night = Tonight(deal, checked, with_log=with_log)
    _play(night)
    return NightResult(
        deal=deal,
        final=night.cards,
        seen=night.seen,
        copied=night.copied,
        log=tuple(night.log),
        actions=checked,
        shields=tuple(night.shields),
        artifacts=dict(night.artifacts),
        revealed=tuple(night.revealed),
        became=dict(night.became),
    )
