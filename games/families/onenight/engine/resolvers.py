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
from .deck import Deal
from .roles import CENTRE_POSITIONS, ROLES, Copy, Role, centre_card, own_step, where


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

    __slots__ = ("actions", "cards", "copied", "deal", "doppelganger", "log", "seen", "with_log")

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

    def note(self, turn: Turn, actors: Sequence[str], text: Callable[[], str]) -> None:
        """Log a step; the sentence is only written when a log is wanted (see resolve_night).

        `text` is called here and now, so a lambda reading a loop variable sees its current
        value (hence the B023 exemptions at the call sites).
        """
        if self.with_log:
            self.log.append(NightStep(turn.order, turn.role, tuple(actors), text()))

    def swap(self, a: str, b: str) -> None:
        self.cards[a], self.cards[b] = self.cards[b], self.cards[a]

    def woke_as(self, role: Role) -> tuple[str, ...]:
        """Players who wake as `role`: dealt it, plus a Doppelganger that copied it and wakes
        with them (the role's `copy` is WITH_THEM, rules/002 s5)."""
        players = self.deal.players_dealt(role)
        if (
            self.copied is role
            and self.doppelganger is not None
            and ROLES[role].copy is Copy.WITH_THEM
        ):
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
    copied = night.cards[model]
    night.copied = copied
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
    copied = learned.seen[model]
    lines = [
        _("You looked at %(player)s's card and became the %(role)s.")
        % {"player": model, "role": copied.title}
    ]
    step = own_step(learned.deal.ruleset, copied)
    if step is not None and step.handler is not None:
        rest = Learned(learned.deal, learned.player, learned.targets[1:], learned.seen, model)
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
    """The werewolves see each other; a lone werewolf may peek at one centre card (s6b)."""
    for wolf in wolves:
        for other in wolves:
            if other != wolf:
                night.seen[wolf][other] = Role.WEREWOLF
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
        if peek:
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
    wolves = list(night.woke_as(Role.WEREWOLF))
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
    if learned.targets:
        return [
            _("You swapped the cards of %(first)s and %(second)s.")
            % {"first": learned.targets[0], "second": learned.targets[1]}
        ]
    return [_("You chose not to swap anyone's cards.")]


def _drunk(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    (position,) = targets
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
    return [
        # Translators: %(card)s is "the left centre card" or the like.
        _("You swapped your card with %(card)s. You do not know what you are now.")
        % {"card": centre_card(learned.targets[0])}
    ]


def _insomniac(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    card = night.cards[actor]
    night.seen[actor][actor] = card
    if card is Role.INSOMNIAC:
        text = N_("%(actor)s (insomniac) checked and is still the %(role)s.")
    else:
        text = N_("%(actor)s (insomniac) checked and is now the %(role)s.")
    night.note(turn, [actor], lambda: _(text) % {"actor": actor, "role": card.title})


def _insomniac_report(learned: Learned) -> list[str]:
    card = learned.seen[learned.player]
    if card is Role.INSOMNIAC and not learned.as_copy:
        return [_("You woke at the end of the night: you are still the Insomniac.")]
    return [_("You woke at the end of the night: you are now the %(role)s.") % {"role": card.title}]


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
    }
)
