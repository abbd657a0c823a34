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
from types import MappingProxyType
from typing import Any

from games.words import _

from .actions import ACTS_AT_ONCE, validate_night
from .artifacts import ARTIFACTS, Artifact
from .deck import Deal
from .marks import Mark
from .resolvers import RESOLVERS
from .roles import NIGHTS, ROLES, Copy, Role, WakeStep, has_marks, plays_as
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
    # Vampire (docs/rules.md 8b; empty without a Vampire card): each player's mark at dawn, the
    # pool left, who was frightened at the end of dusk, the player the vampires marked, and
    # each player's lines about the dusk and the marks (their report).
    marks: Mapping[str, Mark] = field(default_factory=dict)
    pool: Mapping[Mark, int] = field(default_factory=dict)
    frightened: frozenset[str] = frozenset()
    pick: str | None = None
    told: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def is_vampire(self, player: str) -> bool:
        """[VR]: a Vampire card played at dawn (a copy of one too) or the Mark of the Vampire;
        an artifact that sets the role (the Cudgel of the Tanner) overrides the mark
        ([VR] "Artifacts & Vampire", docs/rules.md 8b.2)."""
        artifact = self.artifacts.get(player)
        sets_role = artifact is not None and ARTIFACTS[artifact].plays_as is not None
        if not sets_role and self.marks.get(player) is Mark.VAMPIRE:
            return True
        return ROLES[self.plays_as(player)].vampire

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
        if card is Role.COPYCAT:
            # Vampire ([VR] Special Cases): a Copycat that copied nothing (it began in the
            # centre) is a villager with no power.
            return Role.VILLAGER
        return plays_as(card, self.copied)


def _woken(night: Tonight, step: WakeStep) -> tuple[str, ...]:
    """Who wakes at `step`: the players dealt its role (with a Doppelganger that copied it, for
    a role it wakes with), or, for a Doppelganger's own step as a copied role, that player."""
    if step.copied is None:
        return night.woke_as(step.role)
    if night.doppelganger is not None and night.copied is step.copied and not night.idle_copy:
        return (night.doppelganger,)
    return ()


def _played(night: Tonight, step: WakeStep) -> bool:
    """Whether the deck plays this step (`WakeStep.deck`, docs/rules.md 8b.3): Vampire's dusk
    only with a Vampire card, and the Doppelganger at -7 then, else at 1."""
    if step.deck is None:
        return True
    return (step.deck == "vampire") == has_marks(night.deal.cards.values())


def _targets(night: Tonight, step: WakeStep, player: str) -> tuple[str, ...]:
    """A player's targets at a step: after the copy for a Doppelganger's own step as a copied
    role, and for a Copycat acting as the role it copied (Vampire, 8b.4)."""
    targets = night.actions[player]
    if step.copied is not None or (player in night.copycats and step.handler != "copycat"):
        return targets[1:]
    return targets


def _play(night: Tonight) -> None:
    """The ruleset's wake steps in order, each by its handler."""
    for step in NIGHTS[night.deal.ruleset]:
        if not _played(night, step):
            continue
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
            if player in night.frightened:
                # Vampire (8b.2): the Mark of Fear, seen at the end of dusk, stops the night.
                night.tell(player, _("The Mark of Fear kept you from acting tonight."))
                continue
            resolver.each(night, turn, player, _targets(night, step, player))


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
        **_marks(night),
    )


def _marks(night: Tonight) -> dict[str, Any]:
    """The Vampire fields of the result (none without a Vampire card: the game unchanged)."""
    if night.marks is None:
        return {}
    return {
        "marks": night.marks.snapshot(),
        "pool": MappingProxyType(dict(+night.marks.pool)),
        "frightened": night.frightened,
        "pick": night.pick,
        "told": MappingProxyType({p: tuple(lines) for p, lines in night.told.items()}),
    }
