"""What each start role may send in tonight, and the checks on what was sent.

Rulings (see docs/rules.md for the reasoning):
- Actions belong to the card a player was dealt, never the card they hold later (rules/000 s3b
  and s4; rules/002 s7 "Robber steals a role that wakes later").
- Each role's rule is its record's `action` (roles.py); a lone werewolf's peek (rules/000 s6b)
  holds only for a werewolf dealt alone among the players.
- The Doppelganger copies first, then a copied role whose `copy` is AT_ONCE acts at once with
  its own rule (rules/002 s5); any other copied role acts no further.
- "May" actions can be declined with no targets; the drunk must act (rules/000 s4, rules/002 s7).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from games.words import N_, _

from .deck import Deal
from .dusk import neighbours
from .errors import IllegalActionError, shown
from .roles import (
    CENTRE_POSITIONS,
    COPIED_ACTS_NO_FURTHER,
    ROLES,
    ActionRule,
    Copy,
    Requirement,
    Role,
    TargetShape,
    is_werewolf,
)

_NO_ACTION = N_("You have nothing to do tonight: send in “no action” so the night can go on.")

# rules/002 s5 (and Daybreak, docs/rules.md): these copied roles act at once, during the
# Doppelganger's turn.
ACTS_AT_ONCE: frozenset[Role] = frozenset(r for r, rec in ROLES.items() if rec.copy is Copy.AT_ONCE)


def is_lone_werewolf(deal: Deal, player: str) -> bool:
    """True when `player` was dealt the only werewolf card among the players (rules/000 s6b).

    Judged on the deal, because every action is chosen before the night is played: a werewolf
    cannot know whether a Doppelganger will join them (docs/rules.md, "Lone werewolf").
    """
    if deal.cards[player] is not Role.WEREWOLF:
        return False
    # Daybreak's wolves (the dream wolf shows its thumb) are partners too: docs/rules.md.
    return sum(1 for p in deal.players if is_werewolf(deal.cards[p])) == 1


def _has_prey(deal: Deal, player: str) -> bool:
    """Daybreak's Alpha Wolf must act while another player was dealt no werewolf card."""
    return any(not is_werewolf(deal.cards[p]) for p in deal.players if p != player)


def _alone(deal: Deal, player: str) -> bool:
    """The only player dealt this card (rules/000 s6b's lone werewolf)."""
    return len(deal.players_dealt(deal.cards[player])) == 1


# When a record's `action` holds for the player dealt it (`RoleRecord.action_if`).
CONDITIONS: Mapping[str, Callable[[Deal, str], bool]] = MappingProxyType(
    {
        "always": lambda deal, player: True,
        "alone": _alone,
        "lone_wolf": is_lone_werewolf,
        "has_prey": _has_prey,
    }
)


def _not_a_werewolf(deal: Deal, actor: str, rule: ActionRule, targets: tuple[str, ...]) -> None:
    """Daybreak's Alpha Wolf gives the centre werewolf card to a player who is not a werewolf
    (one dealt no werewolf card: the werewolves saw each other)."""
    for target in targets:
        if is_werewolf(deal.cards[target]):
            raise IllegalActionError(
                _("%(player)s: %(target)s is a werewolf already. %(rule)s")
                % {"player": actor, "target": target, "rule": rule.description}
            )


# Further checks an `ActionRule.check` names.
CHECKS: Mapping[str, Callable[[Deal, str, ActionRule, tuple[str, ...]], None]] = MappingProxyType(
    {"not_a_werewolf": _not_a_werewolf}
)


def action_rule(deal: Deal, player: str) -> ActionRule:
    """The action `player`'s start card allows tonight."""
    role = deal.cards[player]
    record = ROLES[role]
    if record.action is not None and CONDITIONS[record.action_if](deal, player):
        return record.action
    return ActionRule(role, Requirement.NONE, (), _NO_ACTION)


def copied_action_rule(
    copied: Role, deal: Deal | None = None, player: str | None = None
) -> ActionRule:
    """The rule for the targets a Doppelganger sends after the copy (rules/002 s5).

    A copied role whose `copy` is AT_ONCE (seer, robber, troublemaker, drunk; Daybreak's at-once
    roles, the alpha and mystic wolves among them) acts at once with its own rule, and one whose
    `copy` is OWN_STEP (the revealer, the curator) later with it; every other copied role takes
    no targets.
    """
    record = ROLES[copied]
    if record.copy is Copy.WITH_THEM and record.vampire and record.action is not None:
        # Vampire ([VC]): a Doppelganger-vampire names the vampires' pick with them.
        return record.action
    if record.copy is Copy.AT_ONCE and record.action is None:
        raise LookupError(f"{copied.value} acts at once when copied but has no action rule")
    if record.copy in (Copy.AT_ONCE, Copy.OWN_STEP) and record.action is not None:
        # At once or at its own step (Daybreak: a copied revealer or curator), when its
        # condition holds for the Doppelganger (a copied alpha wolf needs a non-werewolf).
        holds = CONDITIONS[record.action_if]
        if deal is not None and player is not None and not holds(deal, player):
            return ActionRule(copied, Requirement.NONE, (), COPIED_ACTS_NO_FURTHER)
        return record.action
    return ActionRule(copied, Requirement.NONE, (), COPIED_ACTS_NO_FURTHER)


def copycat_action_rule(deal: Deal, player: str, position: str) -> ActionRule:
    """The rule for the targets a Copycat sends after its centre card ([VC] Copycat): the
    copied role's own action, when its condition holds for the Copycat (a copied werewolf is
    not the lone werewolf of the deal). A copied Doppelganger is a villager (8b.4)."""
    copied = deal.cards[position]
    record = ROLES[copied]
    if (
        copied is not Role.DOPPELGANGER
        and record.action is not None
        and CONDITIONS[record.action_if](deal, player)
    ):
        return record.action
    return ActionRule(copied, Requirement.NONE, (), COPIED_ACTS_NO_FURTHER)


def _for(player: str, problem: str) -> str:
    """A refusal naming whose action it is: "Ann: A seer looks at..." (the web app drops the
    name on Ann's own page)."""
    # Translators: a refused night action: the player's name, then the rule it broke. Keep
    # "%(player)s: " at the start (a player's own page leaves it out).
    return _("%(player)s: %(problem)s") % {"player": player, "problem": problem}


def check_aim(deal: Deal, actor: str, rule: ActionRule, targets: tuple[str, ...]) -> None:
    """Vampire's marking roles (docs/rules.md 8b.4): what their names mean, by `rule.aim`.
    Nothing sent is allowed: a "must" is then done on the first legal player (8b.3)."""
    if not targets:
        return
    named = list(targets)
    if rule.aim == "marks_or_cards" and len(named) == 3:
        if named[0] not in rule.words:
            raise IllegalActionError(_for(actor, rule.description))
        named = named[1:]
    if rule.aim == "card_and_mark":
        if len(named) > 2:
            raise IllegalActionError(_for(actor, rule.description))
        named = [n for n in named if n != "-"]
        wanted = len(named)
    else:
        wanted = {"count": 2, "marks_or_cards": 2}.get(rule.aim or "", rule.shapes[0].players)
    if len(named) != wanted or len(set(named)) != len(named):
        raise IllegalActionError(_for(actor, rule.description))
    for name in named:
        if name not in deal.players:
            raise IllegalActionError(
                _("%(player)s: %(target)s is not a player or a centre card.")
                % {"player": actor, "target": shown(name)}
            )
        if name == actor and not rule.self_ok:
            raise IllegalActionError(
                _("%(player)s: you cannot target yourself. %(rule)s")
                % {"player": actor, "rule": rule.description}
            )
    if rule.aim == "neighbour" and named[0] not in neighbours(deal.players, actor):
        raise IllegalActionError(_for(actor, rule.description))


def _check_shape(deal: Deal, actor: str, rule: ActionRule, targets: tuple[str, ...]) -> None:
    """Raise unless `targets` fits one of the rule's shapes (or is empty where that is allowed)."""
    if rule.aim is not None:
        check_aim(deal, actor, rule, targets)
        return
    if not targets:
        if rule.requirement is Requirement.MANDATORY:
            raise IllegalActionError(_for(actor, rule.description))
        return
    if rule.requirement is Requirement.NONE:
        raise IllegalActionError(_for(actor, rule.description))
    if rule.words:
        # Daybreak's village idiot: one word, not cards.
        if len(targets) != 1 or targets[0] not in rule.words:
            raise IllegalActionError(_for(actor, rule.description))
        return
    if len(set(targets)) != len(targets):
        raise IllegalActionError(
            # Translators: keep "%(player)s: " at the start (a player's own page leaves it out).
            _("%(player)s: pick different targets. %(rule)s")
            % {"player": actor, "rule": rule.description}
        )
    players = 0
    centre = 0
    for target in targets:
        if target in CENTRE_POSITIONS:
            centre += 1
        elif target in deal.players:
            if target == actor and not rule.self_ok:
                raise IllegalActionError(
                    _("%(player)s: you cannot target yourself. %(rule)s")
                    % {"player": actor, "rule": rule.description}
                )
            players += 1
        else:
            raise IllegalActionError(
                _("%(player)s: %(target)s is not a player or a centre card.")
                % {"player": actor, "target": shown(target)}
            )
    if TargetShape(players, centre) not in rule.shapes:
        raise IllegalActionError(_for(actor, rule.description))
    if rule.check is not None:
        CHECKS[rule.check](deal, actor, rule, targets)


def not_a_player(name: object) -> str:
    """The refusal of a stranger's move ("'Zed' is not a player in this game.")."""
    return _("%(name)s is not a player in this game.") % {"name": shown(name)}


def validate_action(deal: Deal, player: str, targets: Sequence[str]) -> tuple[str, ...]:
    """Check one player's night action and return it as a tuple of targets.

    Precondition: `player` sits at the table. Raises IllegalActionError with a readable message.
    """
    if player not in deal.players:
        raise IllegalActionError(not_a_player(player))
    if not isinstance(targets, list | tuple):
        raise IllegalActionError(
            _("%(player)s: the targets must be a list of names.") % {"player": player}
        )
    if not all(isinstance(t, str) for t in targets):
        raise IllegalActionError(
            _("%(player)s: every target must be a name or a centre position.") % {"player": player}
        )
    chosen = tuple(targets)
    rule = action_rule(deal, player)
    if rule.role is Role.COPYCAT and chosen:
        # Vampire (8b.4): the Copycat's centre card, then the copied role's own action.
        _check_shape(deal, player, rule, chosen[:1])
        _check_shape(deal, player, copycat_action_rule(deal, player, chosen[0]), chosen[1:])
        return chosen
    if not ROLES[rule.role].copies:
        _check_shape(deal, player, rule, chosen)
        return chosen
    if not chosen:
        return chosen
    _check_shape(deal, player, rule, chosen[:1])
    copied = deal.cards[chosen[0]]
    _check_shape(deal, player, copied_action_rule(copied, deal, player), chosen[1:])
    return chosen


def validate_copy(deal: Deal, player: str, target: str) -> Role:
    """Check the Doppelganger's first step alone and return the card it copies (rules/002 s5).

    The copied role's own action (a drunk's compulsory swap, say) is sent afterwards.
    """
    if player not in deal.players or not ROLES[deal.cards[player]].copies:
        raise IllegalActionError(
            _("%(player)s: only the Doppelganger copies another card.") % {"player": player}
        )
    rule = action_rule(deal, player)
    if not isinstance(target, str):
        raise IllegalActionError(_for(player, rule.description))
    _check_shape(deal, player, rule, (target,))
    return deal.cards[target]


def validate_night(deal: Deal, actions: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """Every player's checked action; a player left out did nothing.

    Raises IllegalActionError for a stranger, a bad target or a compulsory action left out.
    """
    for actor in actions:
        if actor not in deal.cards or actor in CENTRE_POSITIONS:
            raise IllegalActionError(not_a_player(actor))
    return {p: validate_action(deal, p, actions.get(p, ())) for p in deal.players}
