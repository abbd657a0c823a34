"""Daybreak's night actions (docs/rules.md 8a): shields, the wolves' own steps, the new looks
and moves, the face-up card and the artifacts; one small named resolver each, in the shape
tonight.py gives, registered with the base game's in resolvers.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from games.words import _, listing

from .deck import Deal
from .roles import (
    CENTRE_POSITIONS,
    CENTRE_WOLF,
    ROLES,
    Role,
    is_werewolf,
    where,
)
from .tonight import Learned, Resolver, Tonight, Turn, looked, shield_stopped


def _sentinel(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Sentinel: a shield on another player's card, before anyone else wakes."""
    if not targets:
        night.note(
            turn, [actor], lambda: _("%(actor)s (Sentinel) placed no shield.") % {"actor": actor}
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
                _("%(actor)s (Alpha Wolf) left the centre werewolf card where it was.")
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
        lines.append(shield_stopped(learned.targets[0]))
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
            lambda: _("%(actor)s (Mystic Wolf) chose not to look at any card.") % {"actor": actor},
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
        lines.append(shield_stopped(learned.targets[0]))
    else:
        lines.append(looked(learned.targets[0], learned.seen[learned.targets[0]]))
    return lines


def _apprentice(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Apprentice Seer: a look at one centre card."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (Apprentice Seer) chose not to look.") % {"actor": actor},
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
    return [looked(learned.targets[0], learned.seen[learned.targets[0]])]


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
            lambda: _("%(actor)s (Paranormal Investigator) looked at nobody.") % {"actor": actor},
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
            lines.append(shield_stopped(target))
            continue
        card = learned.seen[target]
        lines.append(looked(target, card))
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
        night.note(turn, [actor], lambda: _("%(actor)s (Witch) did nothing.") % {"actor": actor})
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
    lines = [looked(position, learned.seen[position])]
    if player in learned.shields:
        lines.append(shield_stopped(player))
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
            lambda: _("%(actor)s (Village Idiot) moved no cards.") % {"actor": actor},
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
            lambda: _("%(actor)s (Revealer) turned no card over.") % {"actor": actor},
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
        return [shield_stopped(target)]
    card = learned.seen[target]
    if _stays_hidden(card):
        return [
            looked(target, card),
            _("You turned it back face down: only you saw it."),
        ]
    return [looked(target, card), _("It lies face up for everyone to see.")]


def _curator(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Daybreak, Curator: the next artifact of the pile, face down on a player's card."""
    if not targets:
        night.note(
            turn,
            [actor],
            lambda: _("%(actor)s (Curator) placed no artifact.") % {"actor": actor},
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
        return [shield_stopped(target)]
    if target == learned.player:
        return [_("You put an artifact face down on your own card, unseen.")]
    return [_("You put an artifact face down on %(player)s's card, unseen.") % {"player": target}]


DAYBREAK_RESOLVERS: Mapping[str, Resolver] = MappingProxyType(
    {
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
