"""What each night action of the base game does, and what its player learns: one small named
resolver each (the Daybreak roles' are in daybreak.py; their shape in tonight.py).

A wake step of `roles.NIGHTS` names its handler in `RESOLVERS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from games.words import N_, _, listing

from .actions import is_lone_werewolf
from .daybreak import DAYBREAK_RESOLVERS
from .deck import Deal
from .dusk import VAMPIRE_RESOLVERS, copied_line
from .roles import (
    CENTRE_POSITIONS,
    ROLES,
    Copy,
    Role,
    centre_card,
    own_step,
    where,
)
from .tonight import (
    Learned,
    Resolver,
    Tonight,
    Turn,
    first_shielded,
    looked,
    shield_stopped,
)


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
    if copied is Role.COPYCAT:
        # Vampire ([VC]): a Doppelganger copying the Copycat becomes what the Copycat became
        # (a villager if it copied nothing) and does nothing more.
        copied = night.copycats.get(model, Role.VILLAGER)
        night.idle_copy = True
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
    if ROLES[copied].copy is Copy.AT_ONCE and not night.idle_copy:
        act = _handler(night.deal, copied).each
        assert act is not None, copied
        act(night, Turn(turn.order, copied), actor, rest)


def _copy_report(learned: Learned) -> list[str]:
    if not learned.targets:
        return [_("You chose not to copy anyone.")]
    model = learned.targets[0]
    if model not in learned.seen:
        return [shield_stopped(model)]
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


def _copycat_report(learned: Learned) -> list[str]:
    """Vampire's Copycat ([VC]): the centre card it copied, then what it did as that role, read
    by the copied role's own report from the targets sent after the centre card (it wakes and
    acts as that role, 8b.4). A copy frightened by the Count did not act in the night (8b.2).
    Kept here beside the Doppelganger's `_copy_report`: both read the copied role's report."""
    if not learned.targets or learned.targets[0] not in learned.seen:
        return []
    position, rest = learned.targets[0], learned.targets[1:]
    card = learned.seen[position]
    lines = [copied_line(position, card)]
    step = own_step(learned.deal.ruleset, card)
    if card is Role.DOPPELGANGER or step is None or step.handler in (None, "copycat"):
        return lines
    if learned.frightened and step.order >= 0 and RESOLVERS[step.handler].each is not None:
        return lines
    # The centre card it copied is not one its copy saw at its own step (a mason's partner).
    seen = learned.seen if position in rest else {
        p: r for p, r in learned.seen.items() if p != position
    }  # fmt: skip
    copy = Learned(
        learned.deal,
        learned.player,
        rest,
        seen,
        shields=learned.shields,
        revealed=learned.revealed,
    )
    return lines + RESOLVERS[step.handler].report(copy)


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
            lines.append(looked(peeked[0], seen[peeked[0]]))
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
        return _("%(minion)s (Minion) saw the werewolves: %(names)s.") % {
            "minion": minion,
            "names": listing(wolves),
        }
    return _("%(minion)s (Minion) found that no player is a werewolf.") % {"minion": minion}


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
            lambda: _("%(actor)s (Seer) chose not to look at any card.") % {"actor": actor},
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
        return _("%(actor)s (Seer) looked at %(card)s (%(role)s).") % {
            "actor": actor,
            "card": where(first),
            "role": night.cards[first].title,
        }
    second = targets[1]
    # Translators: %(first)s and %(second)s are "the left centre card" and the like;
    # %(first_role)s and %(second_role)s the cards they turned out to be.
    return _(
        "%(actor)s (Seer) looked at %(first)s (%(first_role)s) and %(second)s (%(second_role)s)."
    ) % {
        "actor": actor,
        "first": where(first),
        "first_role": night.cards[first].title,
        "second": where(second),
        "second_role": night.cards[second].title,
    }


def _seer_report(learned: Learned) -> list[str]:
    if learned.targets and learned.shields.intersection(learned.targets):
        return [shield_stopped(learned.targets[0])]
    if learned.targets:
        return [looked(target, learned.seen[target]) for target in learned.targets]
    return [_("You chose not to look at any card.")]


def _robber(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (Robber) chose not to rob anyone.") % {"actor": actor},
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
                "%(actor)s (Robber) took %(victim)s's card and became the %(role)s;"
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
        return [shield_stopped(first_shielded(learned, (learned.player, *learned.targets)))]
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
            lambda: _("%(actor)s (Troublemaker) swapped nobody.") % {"actor": actor},
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
                "%(actor)s (Troublemaker) swapped the cards of %(a)s and %(b)s: %(a)s now"
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
        return [shield_stopped(first_shielded(learned, learned.targets))]
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
            _("%(actor)s (Drunk) swapped with %(card)s without looking and became the %(role)s.")
            % {"actor": actor, "card": centre_card(position), "role": night.cards[actor].title}
        ),
    )


def _drunk_report(learned: Learned) -> list[str]:
    if learned.player in learned.shields:
        return [shield_stopped(learned.player)]
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
        text = N_("%(actor)s (Insomniac) checked and is still the %(role)s.")
    else:
        text = N_("%(actor)s (Insomniac) checked and is now the %(role)s.")
    night.note(turn, [actor], lambda: _(text) % {"actor": actor, "role": card.title})


def _insomniac_report(learned: Learned) -> list[str]:
    if learned.player not in learned.seen:
        return [shield_stopped(learned.player)]
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
        **DAYBREAK_RESOLVERS,
        **VAMPIRE_RESOLVERS,
        "copycat": Resolver(_copycat_report, each=VAMPIRE_RESOLVERS["copycat"].each),
    }
)
