"""What each night action does, and what its player learns: one small named resolver each.

A wake step of `roles.NIGHTS` names its handler here, in `RESOLVERS`. A `Resolver` is:
- `each(night, turn, actor, targets)`: one player's action (the seer's look), called for every
  player who wakes at the step, with their own targets; or
- `together(night, turn, actors)`: what everyone woken at the step does at once (the werewolves
  see each other);
- `report(learned)`: the lines that player reads after the night, written only from what that
  player saw (`learned.seen`) and sent (`learned.targets`), so it never tells more than the
  rules give them.

The night being played is a `Tonight`: the cards as they move, what each player saw, the log.
New kinds of night state (marks, artifacts) belong there, next to `cards` and `seen`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from games.words import N_, _, listing

from .actions import is_lone_werewolf
from .artifacts import Artifact
from .deck import Deal
from .roles import (
    CENTRE_POSITIONS,
    CENTRE_WOLF,
    ROLES,
    Copy,
    Role,
    centre_card,
    is_werewolf,
    own_step,
    where,
)


@dataclass(frozen=True, slots=True)
class NightStep:
    """One thing that happened in the night, in order, for the reveal page.

    `order` is the wake step of the ruleset (0 = told with the role message in the house rules),
    `role` the role that acted, `actor` the player (or players, for a group that woke together).
    """

    order: int
    role: Role
    actors: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Turn:
    """The step being played: its number in the log and the role the players act as (for a
    Doppelganger, the copied role)."""

    order: int
    role: Role


class Tonight:
    """The mutable table while the night is played; used only inside `night.resolve_night`."""

    __slots__ = (
        "actions",
        "artifacts",
        "became",
        "cards",
        "copied",
        "deal",
        "doppelganger",
        "drawn",
        "log",
        "revealed",
        "seen",
        "shields",
        "with_log",
    )

    def __init__(
        self, deal: Deal, actions: dict[str, tuple[str, ...]], *, with_log: bool = True
    ) -> None:
        self.with_log = with_log
        self.deal = deal
        self.actions = actions
        self.cards: dict[str, Role] = dict(deal.cards)
        self.seen: dict[str, dict[str, Role]] = {p: {} for p in deal.players}
        self.log: list[NightStep] = []
        self.copied: Role | None = None
        copiers = [p for p in deal.players if ROLES[deal.cards[p]].copies]
        self.doppelganger: str | None = copiers[0] if copiers else None
        # Daybreak's tokens and marks (docs/rules.md, Daybreak): the shielded players' cards,
        # in the order shielded; the artifacts on players' cards and how many were drawn; the
        # cards turned face up; what a card plays as at dawn when a role changed it (the
        # Doppelganger's copy, a paranormal investigator who saw a werewolf or the tanner).
        self.shields: list[str] = []
        self.artifacts: dict[str, Artifact] = {}
        self.drawn = 0
        self.revealed: list[str] = []
        self.became: dict[Role, Role] = {}

    def note(self, turn: Turn, actors: Sequence[str], text: Callable[[], str]) -> None:
        """Log a step; the sentence is only written when a log is wanted (see resolve_night).

        `text` is called here and now, so a lambda reading a loop variable sees its current
        value (hence the B023 exemptions at the call sites).
        """
        if self.with_log:
            self.log.append(NightStep(turn.order, turn.role, tuple(actors), text()))

    def swap(self, a: str, b: str) -> None:
        self.cards[a], self.cards[b] = self.cards[b], self.cards[a]

    def shielded(self, *positions: str) -> bool:
        """Daybreak: a shielded card may be neither looked at nor moved, by anyone."""
        return any(p in self.shields for p in positions)

    def blocked(self, turn: Turn, actor: str, position: str) -> None:
        """Log an action a shield stopped."""
        self.note(
            turn,
            [actor],
            lambda: (
                # Translators: %(role)s is the acting role's name; %(card)s "Ann's card".
                _("%(actor)s (%(role)s) was stopped by the shield on %(card)s.")
                % {"actor": actor, "role": turn.role.title, "card": where(position)}
            ),
        )

    def woke_as(self, role: Role) -> tuple[str, ...]:
        """Players who wake as `role`: dealt it (or a card that wakes with it, Daybreak's alpha
        and mystic wolves with the werewolves), in seat order, plus a Doppelganger that copied
        it and wakes with them (the role's `copy` is WITH_THEM, rules/002 s5)."""
        cards = self.deal.cards
        players = tuple(
            p for p in self.deal.players if cards[p] is role or ROLES[cards[p]].wakes_with is role
        )
        copied = self.copied
        joins = copied is not None and (
            (copied is role and ROLES[role].copy is Copy.WITH_THEM)
            or ROLES[copied].wakes_with is role
        )
        if joins and self.doppelganger is not None:
            players = (*players, self.doppelganger)
        return players

    def werewolves(self) -> tuple[str, ...]:
        """Every player who is a werewolf tonight: dealt a werewolf card (Daybreak's dream wolf
        too, who shows its thumb), in seat order, then a Doppelganger that copied one."""
        players = tuple(p for p in self.deal.players if is_werewolf(self.deal.cards[p]))
        if self.copied is not None and self.doppelganger is not None and is_werewolf(self.copied):
            players = (*players, self.doppelganger)
        return players


@dataclass(frozen=True, slots=True)
class Learned:
    """What one player may know after the night, for their report: the deal (their own start
    card, the table), the targets they sent (after the copy, for a Doppelganger), what they saw,
    and, for a Doppelganger acting as the copied role, whose card it copied (`model`)."""

    deal: Deal
    player: str
    targets: tuple[str, ...]
    seen: Mapping[str, Role]
    model: str | None = None
    # Daybreak: the shielded cards (the tokens lie in plain sight) and the cards turned up.
    shields: frozenset[str] = frozenset()
    revealed: frozenset[str] = frozenset()

    @property
    def as_copy(self) -> bool:
        return self.model is not None


Each = Callable[[Tonight, Turn, str, tuple[str, ...]], None]
Together = Callable[[Tonight, Turn, tuple[str, ...]], None]
Report = Callable[[Learned], list[str]]


@dataclass(frozen=True, slots=True)
class Resolver:
    """One night action: `each` or `together` (exactly one), and its `report`."""

    report: Report
    each: Each | None = None
    together: Together | None = None


def _looked(position: str, card: Role) -> str:
    # Translators: %(card)s is "Ann's card" or "the left centre card"; %(role)s a card's name.
    return _("You looked at %(card)s: it is the %(role)s.") % {
        "card": where(position),
        "role": card.title,
    }


def _wolves_are(wolves: list[str]) -> str:
    if len(wolves) == 1:
        return _("The werewolf is %(name)s.") % {"name": wolves[0]}
    return _("The werewolves are %(names)s.") % {"names": listing(wolves)}


# --- The Doppelganger (rules/002 s5, s7) -------------------------------------------------------


def _copy(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """rules/002 s5 step 1: copy a card; a copied role whose `copy` is AT_ONCE acts now."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (Doppelganger) chose not to copy anyone.") % {"actor": actor},
        )
        return
    model, rest = targets[0], targets[1:]
    if night.shielded(model):
        # Daybreak: the Doppelganger cannot look at a shielded card; it copies nothing.
        night.blocked(turn, actor, model)
        return
    copied = night.cards[model]
    night.copied = copied
    night.became[Role.DOPPELGANGER] = copied
    night.seen[actor][model] = copied
    night.note(
        turn,
        [actor],
        lambda: (
            _("%(actor)s (Doppelganger) looked at %(model)s's card and became a %(role)s.")
            % {"actor": actor, "model": model, "role": copied.title}
        ),
    )
    if ROLES[copied].copy is Copy.AT_ONCE:
        act = _handler(night.deal, copied).each
        assert act is not None, copied
        act(night, Turn(turn.order, copied), actor, rest)


def _copy_report(learned: Learned) -> list[str]:
    if not learned.targets:
        return [_("You chose not to copy anyone.")]
    model = learned.targets[0]
    if model not in learned.seen:
        return [_shield_stopped(model)]
    copied = learned.seen[model]
    lines = [
        _("You looked at %(player)s's card and became the %(role)s.")
        % {"player": model, "role": copied.title}
    ]
    step = own_step(learned.deal.ruleset, copied)
    if step is not None and step.handler is not None:
        rest = Learned(
            learned.deal,
            learned.player,
            learned.targets[1:],
            learned.seen,
            model,
            learned.shields,
            learned.revealed,
        )
        lines += RESOLVERS[step.handler].report(rest)
    return lines


def _handler(deal: Deal, role: Role) -> Resolver:
    """The resolver of `role`'s own wake step in the deal's ruleset."""
    step = own_step(deal.ruleset, role)
    if step is None or step.handler is None:
        raise LookupError(f"{role.value} has no wake step in the {deal.ruleset.value} night")
    return RESOLVERS[step.handler]


# --- Werewolves, minion, masons (rules/000 s4, s6b, s8 step 0; rules/002 s5 steps 2-4) ----------


def _werewolves(night: Tonight, turn: Turn, wolves: tuple[str, ...]) -> None:
    """The werewolves see each other; a lone werewolf may peek at one centre card (s6b).

    Daybreak: the dream wolf does not wake but shows its thumb, so the others see it too."""
    dreamers = [p for p in night.werewolves() if p not in wolves]
    for wolf in wolves:
        for other in (*wolves, *dreamers):
            if other != wolf:
                # A card face the Doppelganger saw when copying stays what it saw.
                night.seen[wolf].setdefault(other, Role.WEREWOLF)
    if len(wolves) > 1:
        night.note(
            turn,
            wolves,
            lambda: _("The werewolves %(names)s saw each other.") % {"names": listing(wolves)},
        )
    for wolf in wolves:
        if not is_lone_werewolf(night.deal, wolf):
            continue
        peek = night.actions[wolf]
        if peek and night.shielded(*peek):
            night.blocked(turn, wolf, peek[0])
        elif peek:
            (position,) = peek
            card = night.cards[position]
            night.seen[wolf][position] = card
            night.note(
                turn,
                [wolf],
                lambda: (
                    # Translators: %(card)s is "the left centre card" or the like.
                    _("%(wolf)s, the lone werewolf, looked at %(card)s (%(role)s).")
                    % {"wolf": wolf, "card": centre_card(position), "role": card.title}  # noqa: B023
                ),
            )
        else:
            night.note(
                turn,
                [wolf],
                lambda: (
                    _("%(wolf)s, the lone werewolf, did not look at the centre.") % {"wolf": wolf}  # noqa: B023
                ),
            )


def _werewolves_report(learned: Learned) -> list[str]:
    seen = learned.seen
    if learned.model is not None:
        others = [p for p, r in seen.items() if r is Role.WEREWOLF and p != learned.model]
        wolves = [learned.model, *others]
        return [_("You woke with the werewolves: %(names)s.") % {"names": listing(wolves)}]
    lines = []
    deal = learned.deal
    partners = [p for p, r in seen.items() if p in deal.players and r is Role.WEREWOLF]
    if partners:
        lines.append(_("The werewolves tonight: you and %(names)s.") % {"names": listing(partners)})
    if is_lone_werewolf(deal, learned.player):
        peeked = [p for p in seen if p in CENTRE_POSITIONS]
        if peeked:
            lines.append(_looked(peeked[0], seen[peeked[0]]))
        else:
            lines.append(_("You chose not to look at a centre card."))
    return lines


def _minion(night: Tonight, turn: Turn, minions: tuple[str, ...]) -> None:
    wolves = list(night.werewolves())
    for minion in minions:
        for wolf in wolves:
            night.seen[minion][wolf] = Role.WEREWOLF
        night.note(turn, [minion], lambda: _minion_saw(minion, wolves))  # noqa: B023


def _minion_saw(minion: str, wolves: list[str]) -> str:
    if wolves:
        return _("%(minion)s (minion) saw the werewolves: %(names)s.") % {
            "minion": minion,
            "names": listing(wolves),
        }
    return _("%(minion)s (minion) found that no player is a werewolf.") % {"minion": minion}


def _minion_report(learned: Learned) -> list[str]:
    wolves = [p for p, r in learned.seen.items() if r is Role.WEREWOLF]
    if learned.as_copy:
        return [_wolves_are(wolves) if wolves else _("No player is a werewolf.")]
    return [_wolves_are(wolves) if wolves else _("No player was a werewolf when you woke.")]


def _masons(night: Tonight, turn: Turn, masons: tuple[str, ...]) -> None:
    for mason in masons:
        for other in masons:
            if other != mason:
                night.seen[mason][other] = Role.MASON
    if len(masons) > 1:
        night.note(
            turn,
            masons,
            lambda: _("The masons %(names)s saw each other.") % {"names": listing(masons)},
        )
    elif masons:
        night.note(
            turn,
            masons,
            lambda: _("%(mason)s was the only mason.") % {"mason": masons[0]},
        )


def _masons_report(learned: Learned) -> list[str]:
    masons = [p for p, r in learned.seen.items() if r is Role.MASON]
    if learned.as_copy:
        return [_("You woke with the masons: %(names)s.") % {"names": listing(masons)}]
    return [
        _("The masons tonight: you and %(names)s.") % {"names": listing(masons)}
        if masons
        else _("You are the only mason.")
    ]


# --- Seer, robber, troublemaker, drunk, insomniac (rules/000 s4, s8; rules/002 s5 steps 5-9a) ---


def _seer(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (seer) chose not to look at any card.") % {"actor": actor},
        )
        return
    if night.shielded(*targets):
        night.blocked(turn, actor, targets[0])
        return
    for target in targets:
        night.seen[actor][target] = night.cards[target]
    night.note(turn, [actor], lambda: _seer_looked(night, actor, targets))


def _seer_looked(night: Tonight, actor: str, targets: tuple[str, ...]) -> str:
    first = targets[0]
    if len(targets) == 1:
        # Translators: %(card)s is "Ann's card" or "the left centre card"; %(role)s what it is.
        return _("%(actor)s (seer) looked at %(card)s (%(role)s).") % {
            "actor": actor,
            "card": where(first),
            "role": night.cards[first].title,
        }
    second = targets[1]
    # Translators: %(first)s and %(second)s are "the left centre card" and the like;
    # %(first_role)s and %(second_role)s the cards they turned out to be.
    return _(
        "%(actor)s (seer) looked at %(first)s (%(first_role)s) and %(second)s (%(second_role)s)."
    ) % {
        "actor": actor,
        "first": where(first),
        "first_role": night.cards[first].title,
        "second": where(second),
        "second_role": night.cards[second].title,
    }


def _seer_report(learned: Learned) -> list[str]:
    if learned.targets and learned.shields.intersection(learned.targets):
        return [_shield_stopped(learned.targets[0])]
    if learned.targets:
        return [_looked(target, learned.seen[target]) for target in learned.targets]
    return [_("You chose not to look at any card.")]


def _robber(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (robber) chose not to rob anyone.") % {"actor": actor},
        )
        return
    (victim,) = targets
    if night.shielded(actor, victim):
        night.blocked(turn, actor, actor if night.shielded(actor) else victim)
        return
    night.swap(actor, victim)
    night.seen[actor][actor] = night.cards[actor]
    night.note(
        turn,
        [actor],
        lambda: (
            _(
                "%(actor)s (robber) took %(victim)s's card and became the %(role)s;"
                " %(victim)s got the %(victim_role)s."
            )
            % {
                "actor": actor,
                "victim": victim,
                "role": night.cards[actor].title,
                "victim_role": night.cards[victim].title,
            }
        ),
    )


def _robber_report(learned: Learned) -> list[str]:
    if learned.targets and learned.player not in learned.seen:
        return [_shield_stopped(_first_shielded(learned, (learned.player, *learned.targets)))]
    if learned.targets:
        return [
            _("You swapped cards with %(player)s. You are now the %(role)s.")
            % {"player": learned.targets[0], "role": learned.seen[learned.player].title}
        ]
    return [_("You chose not to rob anyone.")]


def _troublemaker(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (troublemaker) swapped nobody.") % {"actor": actor},
        )
        return
    a, b = targets
    if night.shielded(a, b):
        night.blocked(turn, actor, a if night.shielded(a) else b)
        return
    night.swap(a, b)
    night.note(
        turn,
        [actor],
        lambda: (
            _(
                "%(actor)s (troublemaker) swapped the cards of %(a)s and %(b)s: %(a)s now"
                " holds the %(a_role)s, %(b)s the %(b_role)s."
            )
            % {
                "actor": actor,
                "a": a,
                "b": b,
                "a_role": night.cards[a].title,
                "b_role": night.cards[b].title,
            }
        ),
    )


def _troublemaker_report(learned: Learned) -> list[str]:
    if learned.shields.intersection(learned.targets):
        return [_shield_stopped(_first_shielded(learned, learned.targets))]
    if learned.targets:
        return [
            _("You swapped the cards of %(first)s and %(second)s.")
            % {"first": learned.targets[0], "second": learned.targets[1]}
        ]
    return [_("You chose not to swap anyone's cards.")]


def _drunk(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    (position,) = targets
    if night.shielded(actor):
        # Daybreak: a shield on the drunk's card stops the compulsory swap.
        night.blocked(turn, actor, actor)
        return
    night.swap(actor, position)
    night.note(
        turn,
        [actor],
        lambda: (
            # Translators: %(card)s is "the left centre card" or the like.
            _("%(actor)s (drunk) swapped with %(card)s without looking and became the %(role)s.")
            % {"actor": actor, "card": centre_card(position), "role": night.cards[actor].title}
        ),
    )


def _drunk_report(learned: Learned) -> list[str]:
    if learned.player in learned.shields:
        return [_shield_stopped(learned.player)]
    return [
        # Translators: %(card)s is "the left centre card" or the like.
        _("You swapped your card with %(card)s. You do not know what you are now.")
        % {"card": centre_card(learned.targets[0])}
    ]


def _insomniac(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    if night.shielded(actor):
        # Daybreak: not even its holder may look at a shielded card.
        night.blocked(turn, actor, actor)
        return
    card = night.cards[actor]
    night.seen[actor][actor] = card
    if card is Role.INSOMNIAC:
        text = N_("%(actor)s (insomniac) checked and is still the %(role)s.")
    else:
        text = N_("%(actor)s (insomniac) checked and is now the %(role)s.")
    night.note(turn, [actor], lambda: _(text) % {"actor": actor, "role": card.title})


def _insomniac_report(learned: Learned) -> list[str]:
    if learned.player not in learned.seen:
        return [_shield_stopped(learned.player)]
    card = learned.seen[learned.player]
    if card is Role.INSOMNIAC and not learned.as_copy:
        return [_("You woke at the end of the night: you are still the Insomniac.")]
    return [_("You woke at the end of the night: you are now the %(role)s.") % {"role": card.title}]


# --- Daybreak (docs/rules.md, "Daybreak"): shields, the wolves' own steps, the new looks and
# moves, the face-up card and the artifacts -----------------------------------------------------


def _shield_stopped(position: str) -> str:
    # Translators: %(card)s is "Ann's card", "your card" is not used here.
    return _("A shield lay on %(card)s: nobody could look at it or move it.") % {
        "card": where(position)
    }


def _first_shielded(learned: Learned, positions: Sequence[str]) -> str:
    return next(p for p in positions if p in learned.shields)


def _sentinel(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Sentinel: a shield on another player's card, before anyone else wakes."""
    if not targets:
        night.note(
            turn, [actor], lambda: _("%(actor)s (sentinel) placed no shield.") % {"actor": actor}
        )
        return
    (target,) = targets
    if target not in night.shields:
        night.shields.append(target)
    night.note(
        turn,
        [actor],
        lambda: (
            _("%(actor)s (%(role)s) put a shield on %(target)s's card.")
            % {"actor": actor, "role": turn.role.title, "target": target}
        ),
    )


def _sentinel_report(learned: Learned) -> list[str]:
    if not learned.targets:
        return [_("You chose not to place a shield.")]
    return [
        _("You put a shield on %(player)s's card: nobody could look at it or move it.")
        % {"player": learned.targets[0]}
    ]


def _pack(learned: Learned) -> list[str]:
    """The werewolves an alpha or mystic wolf woke with (the werewolves' step)."""
    deal = learned.deal
    partners = [
        p
        for p in deal.players
        if p != learned.player
        and (
            learned.seen.get(p) is Role.WEREWOLF
            or (p in learned.seen and is_werewolf(deal.cards[p]))
        )
    ]
    if learned.model is not None:
        return [
            _("You woke with the werewolves: %(names)s.")
            % {"names": listing([learned.model, *[p for p in partners if p != learned.model]])}
        ]
    if partners:
        return [_("The werewolves tonight: you and %(names)s.") % {"names": listing(partners)}]
    return [_("You are the only werewolf among the players.")]


def _alpha(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Alpha Wolf: the centre werewolf card goes to a player who is no werewolf."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: (
                _("%(actor)s (alpha wolf) left the centre werewolf card where it was.")
                % {"actor": actor}
            ),
        )
        return
    (target,) = targets
    if night.shielded(target):
        night.blocked(turn, actor, target)
        return
    night.swap(CENTRE_WOLF, target)
    night.note(
        turn,
        [actor],
        lambda: (
            _(
                "%(actor)s (%(role)s) swapped the centre werewolf card with %(target)s's card:"
                " %(target)s now holds the %(card)s."
            )
            % {
                "actor": actor,
                "role": turn.role.title,
                "target": target,
                "card": night.cards[target].title,
            }
        ),
    )


def _alpha_report(learned: Learned) -> list[str]:
    lines = _pack(learned)
    if not learned.targets:
        lines.append(_("You left the centre werewolf card where it was."))
    elif learned.targets[0] in learned.shields:
        lines.append(_shield_stopped(learned.targets[0]))
    else:
        lines.append(
            _("You gave the centre werewolf card to %(player)s, in exchange for theirs.")
            % {"player": learned.targets[0]}
        )
    return lines


def _mystic(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Mystic Wolf: after the werewolves, a look at another player's card."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (mystic wolf) chose not to look at any card.") % {"actor": actor},
        )
        return
    (target,) = targets
    if night.shielded(target):
        night.blocked(turn, actor, target)
        return
    card = night.cards[target]
    night.seen[actor][target] = card
    night.note(
        turn,
        [actor],
        lambda: (
            _("%(actor)s (%(role)s) looked at %(card)s (%(face)s).")
            % {"actor": actor, "role": turn.role.title, "card": where(target), "face": card.title}
        ),
    )


def _mystic_report(learned: Learned) -> list[str]:
    lines = _pack(learned)
    if not learned.targets:
        lines.append(_("You chose not to look at any card."))
    elif learned.targets[0] in learned.shields:
        lines.append(_shield_stopped(learned.targets[0]))
    else:
        lines.append(_looked(learned.targets[0], learned.seen[learned.targets[0]]))
    return lines


def _apprentice(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Apprentice Seer: a look at one centre card."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (apprentice seer) chose not to look.") % {"actor": actor},
        )
        return
    (position,) = targets
    card = night.cards[position]
    night.seen[actor][position] = card
    night.note(
        turn,
        [actor],
        lambda: (
            _("%(actor)s (%(role)s) looked at %(card)s (%(face)s).")
            % {"actor": actor, "role": turn.role.title, "card": where(position), "face": card.title}
        ),
    )


def _apprentice_report(learned: Learned) -> list[str]:
    if not learned.targets:
        return [_("You chose not to look at any card.")]
    return [_looked(learned.targets[0], learned.seen[learned.targets[0]])]


def _turns_into(card: Role) -> Role | None:
    """What a paranormal investigator becomes on seeing `card` (its face): a werewolf or the
    tanner, else None."""
    if is_werewolf(card):
        return Role.WEREWOLF
    if card is Role.TANNER:
        return Role.TANNER
    return None


def _investigator(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Paranormal Investigator: up to two looks, in order, stopping at a werewolf or
    the tanner and becoming it (the card carries it, like the Doppelganger's: docs/rules.md)."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (paranormal investigator) looked at nobody.") % {"actor": actor},
        )
        return
    for target in targets:
        if night.shielded(target):
            night.blocked(turn, actor, target)
            continue
        card = night.cards[target]
        night.seen[actor][target] = card
        night.note(
            turn,
            [actor],
            lambda: (
                _("%(actor)s (%(role)s) looked at %(card)s (%(face)s).")
                % {
                    "actor": actor,
                    "role": turn.role.title,
                    "card": where(target),  # noqa: B023
                    "face": card.title,  # noqa: B023
                }
            ),
        )
        becomes = _turns_into(card)
        if becomes is None:
            continue
        own = night.cards[actor]
        dealt = night.deal.cards[actor]
        if own is dealt and not ROLES[own].werewolf:
            night.became[own] = becomes
        night.note(
            turn,
            [actor],
            lambda: (
                _("%(actor)s stopped looking and became a %(role)s.")
                % {"actor": actor, "role": becomes.title}  # noqa: B023
            ),
        )
        return


def _investigator_report(learned: Learned) -> list[str]:
    if not learned.targets:
        return [_("You chose not to look at anyone's card.")]
    lines: list[str] = []
    for target in learned.targets:
        if target in learned.shields:
            lines.append(_shield_stopped(target))
            continue
        card = learned.seen[target]
        lines.append(_looked(target, card))
        becomes = _turns_into(card)
        if becomes is not None:
            lines.append(
                _("You stopped looking: you are now a %(role)s.") % {"role": becomes.title}
            )
            break
    return lines


def _witch_targets(targets: tuple[str, ...]) -> tuple[str, str]:
    """The witch's centre card and the player whose card it swaps with, in either order."""
    first, second = targets
    return (first, second) if first in CENTRE_POSITIONS else (second, first)


def _witch(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Witch: a look at a centre card, then its swap with any player's card."""
    if not targets:
        night.note(turn, [actor], lambda: _("%(actor)s (witch) did nothing.") % {"actor": actor})
        return
    position, player = _witch_targets(targets)
    card = night.cards[position]
    night.seen[actor][position] = card
    if night.shielded(player):
        night.blocked(turn, actor, player)
        return
    night.swap(position, player)
    if player == actor:
        night.seen[actor][actor] = card
    night.note(
        turn,
        [actor],
        lambda: (
            _(
                "%(actor)s (%(role)s) looked at %(card)s (%(face)s) and swapped it with"
                " %(player)s's card."
            )
            % {
                "actor": actor,
                "role": turn.role.title,
                "card": where(position),
                "face": card.title,
                "player": player,
            }
        ),
    )


def _witch_report(learned: Learned) -> list[str]:
    if not learned.targets:
        return [_("You chose not to look at a centre card.")]
    position, player = _witch_targets(learned.targets)
    lines = [_looked(position, learned.seen[position])]
    if player in learned.shields:
        lines.append(_shield_stopped(player))
    elif player == learned.player:
        lines.append(_("You swapped it with your own card: you are now that card."))
    else:
        lines.append(_("You swapped it with %(player)s's card.") % {"player": player})
    return lines


def idiot_moves(deal: Deal, actor: str, shields: Sequence[str]) -> tuple[str, ...]:
    """The seats whose cards the village idiot moves, in seat order: everyone but the idiot
    and the shielded cards (docs/rules.md, "The village idiot's rotation")."""
    return tuple(p for p in deal.players if p != actor and p not in shields)


def _idiot(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Village Idiot: every other unshielded card one seat on, all the same way.

    "left" passes each card to the next seat in seat order, "right" to the one before."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (village idiot) moved no cards.") % {"actor": actor},
        )
        return
    seats = idiot_moves(night.deal, actor, night.shields)
    cards = [night.cards[p] for p in seats]
    step = 1 if targets[0] == "left" else -1
    for index, card in enumerate(cards):
        night.cards[seats[(index + step) % len(seats)]] = card
    night.note(
        turn,
        [actor],
        lambda: (
            (
                _("%(actor)s (%(role)s) moved everyone else's card one seat to the left.")
                if step == 1
                else _("%(actor)s (%(role)s) moved everyone else's card one seat to the right.")
            )
            % {"actor": actor, "role": turn.role.title}
        ),
    )


def _idiot_report(learned: Learned) -> list[str]:
    if not learned.targets:
        return [_("You chose not to move any cards.")]
    if learned.targets[0] == "left":
        return [_("You moved everyone else's card one seat to the left, unseen.")]
    return [_("You moved everyone else's card one seat to the right, unseen.")]


def _stays_hidden(card: Role) -> bool:
    """A card the revealer turns back down: a werewolf (any of them) or the tanner."""
    return is_werewolf(card) or card is Role.TANNER


def _revealer(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Revealer: another player's card face up, unless a werewolf or the tanner."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (revealer) turned no card over.") % {"actor": actor},
        )
        return
    (target,) = targets
    if night.shielded(target):
        night.blocked(turn, actor, target)
        return
    card = night.cards[target]
    night.seen[actor][target] = card
    if not _stays_hidden(card) and target not in night.revealed:
        night.revealed.append(target)
    night.note(
        turn,
        [actor],
        lambda: (
            (
                _("%(actor)s (%(role)s) turned %(card)s over (%(face)s) and back down.")
                if _stays_hidden(card)
                else _("%(actor)s (%(role)s) turned %(card)s face up (%(face)s) for all to see.")
            )
            % {"actor": actor, "role": turn.role.title, "card": where(target), "face": card.title}
        ),
    )


def _revealer_report(learned: Learned) -> list[str]:
    if not learned.targets:
        return [_("You chose not to turn any card over.")]
    target = learned.targets[0]
    if target in learned.shields:
        return [_shield_stopped(target)]
    card = learned.seen[target]
    if _stays_hidden(card):
        return [
            _looked(target, card),
            _("You turned it back face down: only you saw it."),
        ]
    return [_looked(target, card), _("It lies face up for everyone to see.")]


def _curator(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Curator: the next artifact of the pile, face down on a player's card."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (curator) placed no artifact.") % {"actor": actor},
        )
        return
    (target,) = targets
    if night.shielded(target):
        night.blocked(turn, actor, target)
        return
    if target in night.artifacts or night.drawn >= len(night.deal.artifacts):
        # One artifact to a card; a second Curator's goes nowhere (docs/rules.md).
        night.note(
            turn,
            [actor],
            lambda: (
                _("%(actor)s (%(role)s) found no room for an artifact on %(target)s's card.")
                % {"actor": actor, "role": turn.role.title, "target": target}
            ),
        )
        return
    artifact = night.deal.artifacts[night.drawn]
    night.drawn += 1
    night.artifacts[target] = artifact
    night.note(
        turn,
        [actor],
        lambda: (
            _("%(actor)s (%(role)s) put the %(artifact)s on %(target)s's card.")
            % {
                "actor": actor,
                "role": turn.role.title,
                "artifact": artifact.title,
                "target": target,
            }
        ),
    )


def _curator_report(learned: Learned) -> list[str]:
    if not learned.targets:
        return [_("You chose not to place an artifact.")]
    target = learned.targets[0]
    if target in learned.shields:
        return [_shield_stopped(target)]
    if target == learned.player:
        return [_("You put an artifact face down on your own card, unseen.")]
    return [_("You put an artifact face down on %(player)s's card, unseen.") % {"player": target}]


RESOLVERS: Mapping[str, Resolver] = MappingProxyType(
    {
        "copy": Resolver(_copy_report, each=_copy),
        "werewolves": Resolver(_werewolves_report, together=_werewolves),
        "minion": Resolver(_minion_report, together=_minion),
        "masons": Resolver(_masons_report, together=_masons),
        "seer": Resolver(_seer_report, each=_seer),
        "robber": Resolver(_robber_report, each=_robber),
        "troublemaker": Resolver(_troublemaker_report, each=_troublemaker),
        "drunk": Resolver(_drunk_report, each=_drunk),
        "insomniac": Resolver(_insomniac_report, each=_insomniac),
        "sentinel": Resolver(_sentinel_report, each=_sentinel),
        "alpha": Resolver(_alpha_report, each=_alpha),
        "mystic": Resolver(_mystic_report, each=_mystic),
        "apprentice": Resolver(_apprentice_report, each=_apprentice),
        "investigator": Resolver(_investigator_report, each=_investigator),
        "witch": Resolver(_witch_report, each=_witch),
        "idiot": Resolver(_idiot_report, each=_idiot),
        "revealer": Resolver(_revealer_report, each=_revealer),
        "curator": Resolver(_curator_report, each=_curator),
    }
)
