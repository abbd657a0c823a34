"""Night actions: what each start role may send in, and the night played out in order.

Rulings (see docs/rules.md for the reasoning):
- Actions belong to the card a player was dealt, never the card they hold later (rules/000 s3b
  and s4; rules/002 s7 "Robber steals a role that wakes later").
- House order, rules/000 s8: 0 werewolves, minion, masons (told in the role message, the lone
  werewolf's peek with it), 1 seer, 2 robber, 3 troublemaker, 4 drunk then insomniac.
- Official order, rules/002 s5: Doppelganger (and the copied seer/robber/troublemaker/drunk action
  at once), werewolves, minion, masons, seer, robber, troublemaker, drunk, insomniac,
  Doppelganger-insomniac.
- "May" actions can be declined with no targets; the drunk must act (rules/000 s4, rules/002 s7).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from games.words import N_, _, listing

from .deck import Deal
from .errors import IllegalActionError, shown
from .roles import CENTRE_POSITIONS, Role, Ruleset, centre_card


class Requirement(StrEnum):
    """Whether a start role's night action is absent, optional or compulsory."""

    NONE = "none"
    OPTIONAL = "optional"
    MANDATORY = "mandatory"


@dataclass(frozen=True, slots=True)
class TargetShape:
    """One allowed form of an action: how many other players and how many centre cards."""

    players: int
    centre: int


@dataclass(frozen=True, slots=True)
class ActionRule:
    """What a player's start role lets them send in tonight.

    `shapes` lists the allowed target forms; an empty target list is allowed unless
    `requirement` is MANDATORY. For the Doppelganger the first target is always the player to
    copy and the copied role's own rule applies to the rest (see `copied_action_rule`).
    `marked` is the rule in words as marked for translation; `description` is what a player
    reads.
    """

    role: Role
    requirement: Requirement
    shapes: tuple[TargetShape, ...]
    marked: str

    @property
    def description(self) -> str:
        """The rule in the reader's language."""
        text = _(self.marked)
        if self.marked == _COPIED_ACTS_NO_FURTHER:
            return text % {"role": self.role.title}
        return text


_ONE_PLAYER = TargetShape(players=1, centre=0)
_TWO_PLAYERS = TargetShape(players=2, centre=0)
_ONE_CENTRE = TargetShape(players=0, centre=1)
_TWO_CENTRE = TargetShape(players=0, centre=2)

_NO_ACTION = N_("You have nothing to do tonight: send in “no action” so the night can go on.")
# Translators: %(role)s is the name of the card the Doppelganger copied.
_COPIED_ACTS_NO_FURTHER = N_("A Doppelganger who copies the %(role)s acts no further.")

_ROLE_ACTIONS: dict[Role, ActionRule] = {
    Role.SEER: ActionRule(
        Role.SEER,
        Requirement.OPTIONAL,
        (_ONE_PLAYER, _TWO_CENTRE),
        N_("A seer looks at one other player or two centre cards."),
    ),
    Role.ROBBER: ActionRule(
        Role.ROBBER,
        Requirement.OPTIONAL,
        (_ONE_PLAYER,),
        N_("A robber swaps cards with one other player and looks at the new card."),
    ),
    Role.TROUBLEMAKER: ActionRule(
        Role.TROUBLEMAKER,
        Requirement.OPTIONAL,
        (_TWO_PLAYERS,),
        N_("A troublemaker swaps the cards of two other players without looking."),
    ),
    Role.DRUNK: ActionRule(
        Role.DRUNK,
        Requirement.MANDATORY,
        (_ONE_CENTRE,),
        N_("A drunk must swap their card with one centre card, without looking."),
    ),
}

# rules/002 s5: these copied roles act at once, during the Doppelganger's turn.
ACTS_AT_ONCE: frozenset[Role] = frozenset(_ROLE_ACTIONS)

_LONE_WEREWOLF_RULE = ActionRule(
    Role.WEREWOLF,
    Requirement.OPTIONAL,
    (_ONE_CENTRE,),
    N_("A lone werewolf may look at one centre card."),
)
_DOPPELGANGER_RULE = ActionRule(
    Role.DOPPELGANGER,
    Requirement.OPTIONAL,
    (_ONE_PLAYER,),
    N_("The Doppelganger copies one other player's card first, then acts as that role."),
)


def is_lone_werewolf(deal: Deal, player: str) -> bool:
    """True when `player` was dealt the only werewolf card among the players (rules/000 s6b).

    Judged on the deal, because every action is chosen before the night is played: a werewolf
    cannot know whether a Doppelganger will join them (docs/rules.md, "Lone werewolf").
    """
    return deal.cards[player] is Role.WEREWOLF and len(deal.players_dealt(Role.WEREWOLF)) == 1


def action_rule(deal: Deal, player: str) -> ActionRule:
    """The action `player`'s start card allows tonight."""
    role = deal.cards[player]
    if role is Role.DOPPELGANGER:
        return _DOPPELGANGER_RULE
    if role is Role.WEREWOLF and is_lone_werewolf(deal, player):
        return _LONE_WEREWOLF_RULE
    rule = _ROLE_ACTIONS.get(role)
    if rule is not None:
        return rule
    return ActionRule(role, Requirement.NONE, (), _NO_ACTION)


def copied_action_rule(copied: Role) -> ActionRule:
    """The rule for the targets a Doppelganger sends after the copy (rules/002 s5).

    Seer, robber, troublemaker and drunk act at once; every other copied role takes no targets.
    """
    rule = _ROLE_ACTIONS.get(copied)
    if rule is not None:
        return rule
    return ActionRule(copied, Requirement.NONE, (), _COPIED_ACTS_NO_FURTHER)


def _for(player: str, problem: str) -> str:
    """A refusal naming whose action it is: "Ann: A seer looks at..." (the web app drops the
    name on Ann's own page)."""
    # Translators: a refused night action: the player's name, then the rule it broke. Keep
    # "%(player)s: " at the start (a player's own page leaves it out).
    return _("%(player)s: %(problem)s") % {"player": player, "problem": problem}


def _check_shape(deal: Deal, actor: str, rule: ActionRule, targets: tuple[str, ...]) -> None:
    """Raise unless `targets` fits one of the rule's shapes (or is empty where that is allowed)."""
    if not targets:
        if rule.requirement is Requirement.MANDATORY:
            raise IllegalActionError(_for(actor, rule.description))
        return
    if rule.requirement is Requirement.NONE:
        raise IllegalActionError(_for(actor, rule.description))
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
        elif target in deal.cards:
            if target == actor:
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
    if rule.role is not Role.DOPPELGANGER:
        _check_shape(deal, player, rule, chosen)
        return chosen
    if not chosen:
        return chosen
    _check_shape(deal, player, rule, chosen[:1])
    copied = deal.cards[chosen[0]]
    _check_shape(deal, player, copied_action_rule(copied), chosen[1:])
    return chosen


def validate_copy(deal: Deal, player: str, target: str) -> Role:
    """Check the Doppelganger's first step alone and return the card it copies (rules/002 s5).

    The copied role's own action (a drunk's compulsory swap, say) is sent afterwards.
    """
    if player not in deal.players or deal.cards[player] is not Role.DOPPELGANGER:
        raise IllegalActionError(
            _("%(player)s: only the Doppelganger copies another card.") % {"player": player}
        )
    if not isinstance(target, str):
        raise IllegalActionError(_for(player, _DOPPELGANGER_RULE.description))
    _check_shape(deal, player, _DOPPELGANGER_RULE, (target,))
    return deal.cards[target]


def validate_night(deal: Deal, actions: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """Every player's checked action; a player left out did nothing.

    Raises IllegalActionError for a stranger, a bad target or a compulsory action left out.
    """
    for actor in actions:
        if actor not in deal.cards or actor in CENTRE_POSITIONS:
            raise IllegalActionError(not_a_player(actor))
    return {p: validate_action(deal, p, actions.get(p, ())) for p in deal.players}


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
class NightResult:
    """The night played out.

    `final`: the card at every position at dawn. `seen`: what each player learned, as
    position → card face (fellow werewolves and masons as their role). `copied`: the role the
    Doppelganger took, or None. `log`: the steps in the order they happened.
    """

    deal: Deal
    final: Mapping[str, Role]
    seen: Mapping[str, Mapping[str, Role]]
    copied: Role | None
    log: tuple[NightStep, ...]
    actions: Mapping[str, tuple[str, ...]]

    def plays_as(self, player: str) -> Role:
        """The role `player` plays as for the day: their final card, or what it copied."""
        card = self.final[player]
        if card is Role.DOPPELGANGER and self.copied is not None:
            return self.copied
        return card


def where(position: str) -> str:
    """ "the left centre card" or "Ann's card", in the reader's language."""
    if position in CENTRE_POSITIONS:
        return centre_card(position)
    # Translators: a player's card, by the player's name.
    return _("%(player)s's card") % {"player": position}


class _Night:
    """The mutable table while the night is played; used only inside `resolve_night`."""

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
        dealt = deal.players_dealt(Role.DOPPELGANGER)
        self.doppelganger: str | None = dealt[0] if dealt else None

    def note(self, order: int, role: Role, actors: Sequence[str], text: Callable[[], str]) -> None:
        """Log a step; the sentence is only written when a log is wanted (see resolve_night).

        `text` is called here and now, so a lambda reading a loop variable sees its current
        value (hence the B023 exemptions at the call sites).
        """
        if self.with_log:
            self.log.append(NightStep(order, role, tuple(actors), text()))

    def swap(self, a: str, b: str) -> None:
        self.cards[a], self.cards[b] = self.cards[b], self.cards[a]

    def woke_as(self, role: Role) -> list[str]:
        """Players who wake as `role`: dealt it, plus a Doppelganger that copied it."""
        players = list(self.deal.players_dealt(role))
        if self.copied is role and self.doppelganger is not None:
            players.append(self.doppelganger)
        return players

    # Each step below takes the acting player and their targets (already validated).

    def seer(self, order: int, actor: str, targets: tuple[str, ...]) -> None:
        if not targets:
            self.note(
                order,
                Role.SEER,
                [actor],
                lambda: _("%(actor)s (seer) chose not to look at any card.") % {"actor": actor},
            )
            return
        for target in targets:
            self.seen[actor][target] = self.cards[target]
        self.note(order, Role.SEER, [actor], lambda: self._seer_looked(actor, targets))

    def _seer_looked(self, actor: str, targets: tuple[str, ...]) -> str:
        first = targets[0]
        if len(targets) == 1:
            # Translators: %(card)s is "Ann's card" or "the left centre card"; %(role)s what it is.
            return _("%(actor)s (seer) looked at %(card)s (%(role)s).") % {
                "actor": actor,
                "card": where(first),
                "role": self.cards[first].title,
            }
        second = targets[1]
        # Translators: %(first)s and %(second)s are "the left centre card" and the like;
        # %(first_role)s and %(second_role)s the cards they turned out to be.
        return _(
            "%(actor)s (seer) looked at %(first)s (%(first_role)s)"
            " and %(second)s (%(second_role)s)."
        ) % {
            "actor": actor,
            "first": where(first),
            "first_role": self.cards[first].title,
            "second": where(second),
            "second_role": self.cards[second].title,
        }

    def robber(self, order: int, actor: str, targets: tuple[str, ...]) -> None:
        if not targets:
            self.note(
                order,
                Role.ROBBER,
                [actor],
                lambda: _("%(actor)s (robber) chose not to rob anyone.") % {"actor": actor},
            )
            return
        (victim,) = targets
        self.swap(actor, victim)
        self.seen[actor][actor] = self.cards[actor]
        self.note(
            order,
            Role.ROBBER,
            [actor],
            lambda: (
                _(
                    "%(actor)s (robber) took %(victim)s's card and became the %(role)s;"
                    " %(victim)s got the %(victim_role)s."
                )
                % {
                    "actor": actor,
                    "victim": victim,
                    "role": self.cards[actor].title,
                    "victim_role": self.cards[victim].title,
                }
            ),
        )

    def troublemaker(self, order: int, actor: str, targets: tuple[str, ...]) -> None:
        if not targets:
            self.note(
                order,
                Role.TROUBLEMAKER,
                [actor],
                lambda: _("%(actor)s (troublemaker) swapped nobody.") % {"actor": actor},
            )
            return
        a, b = targets
        self.swap(a, b)
        self.note(
            order,
            Role.TROUBLEMAKER,
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
                    "a_role": self.cards[a].title,
                    "b_role": self.cards[b].title,
                }
            ),
        )

    def drunk(self, order: int, actor: str, targets: tuple[str, ...]) -> None:
        (position,) = targets
        self.swap(actor, position)
        self.note(
            order,
            Role.DRUNK,
            [actor],
            lambda: (
                # Translators: %(card)s is "the left centre card" or the like.
                _(
                    "%(actor)s (drunk) swapped with %(card)s without looking"
                    " and became the %(role)s."
                )
                % {"actor": actor, "card": centre_card(position), "role": self.cards[actor].title}
            ),
        )

    def insomniac(self, order: int, actor: str) -> None:
        card = self.cards[actor]
        self.seen[actor][actor] = card
        if card is Role.INSOMNIAC:
            text = N_("%(actor)s (insomniac) checked and is still the %(role)s.")
        else:
            text = N_("%(actor)s (insomniac) checked and is now the %(role)s.")
        self.note(
            order,
            Role.INSOMNIAC,
            [actor],
            lambda: _(text) % {"actor": actor, "role": card.title},
        )

    def doppelganger_copy(self, order: int) -> None:
        """rules/002 s5 step 1: copy a card, and act at once as a seer/robber/troublemaker/drunk."""
        actor = self.doppelganger
        if actor is None:
            return
        targets = self.actions[actor]
        if not targets:
            self.note(
                order,
                Role.DOPPELGANGER,
                [actor],
                lambda: _("%(actor)s (Doppelganger) chose not to copy anyone.") % {"actor": actor},
            )
            return
        model, rest = targets[0], targets[1:]
        self.copied = self.cards[model]
        self.seen[actor][model] = self.copied
        self.note(
            order,
            Role.DOPPELGANGER,
            [actor],
            lambda: (
                _("%(actor)s (Doppelganger) looked at %(model)s's card and became a %(role)s.")
                % {"actor": actor, "model": model, "role": self.copied.title}
            ),
        )
        act = {
            Role.SEER: self.seer,
            Role.ROBBER: self.robber,
            Role.TROUBLEMAKER: self.troublemaker,
            Role.DRUNK: self.drunk,
        }.get(self.copied)
        if act is not None:
            act(order, actor, rest)

    def werewolves(self, order: int) -> None:
        """The werewolves see each other; a lone werewolf may peek at one centre card (s6b)."""
        wolves = self.woke_as(Role.WEREWOLF)
        for wolf in wolves:
            for other in wolves:
                if other != wolf:
                    self.seen[wolf][other] = Role.WEREWOLF
        if len(wolves) > 1:
            self.note(
                order,
                Role.WEREWOLF,
                wolves,
                lambda: _("The werewolves %(names)s saw each other.") % {"names": listing(wolves)},
            )
        for wolf in wolves:
            if not is_lone_werewolf(self.deal, wolf):
                continue
            peek = self.actions[wolf]
            if peek:
                (position,) = peek
                card = self.cards[position]
                self.seen[wolf][position] = card
                self.note(
                    order,
                    Role.WEREWOLF,
                    [wolf],
                    lambda: (
                        # Translators: %(card)s is "the left centre card" or the like.
                        _("%(wolf)s, the lone werewolf, looked at %(card)s (%(role)s).")
                        % {"wolf": wolf, "card": centre_card(position), "role": card.title}  # noqa: B023
                    ),
                )
            else:
                self.note(
                    order,
                    Role.WEREWOLF,
                    [wolf],
                    lambda: (
                        _("%(wolf)s, the lone werewolf, did not look at the centre.")
                        % {"wolf": wolf}  # noqa: B023
                    ),
                )

    def minion(self, order: int) -> None:
        wolves = self.woke_as(Role.WEREWOLF)
        for minion in self.woke_as(Role.MINION):
            for wolf in wolves:
                self.seen[minion][wolf] = Role.WEREWOLF
            self.note(order, Role.MINION, [minion], lambda: self._minion_saw(minion, wolves))  # noqa: B023

    @staticmethod
    def _minion_saw(minion: str, wolves: list[str]) -> str:
        if wolves:
            return _("%(minion)s (minion) saw the werewolves: %(names)s.") % {
                "minion": minion,
                "names": listing(wolves),
            }
        return _("%(minion)s (minion) found that no player is a werewolf.") % {"minion": minion}

    def masons(self, order: int) -> None:
        masons = self.woke_as(Role.MASON)
        for mason in masons:
            for other in masons:
                if other != mason:
                    self.seen[mason][other] = Role.MASON
        if len(masons) > 1:
            self.note(
                order,
                Role.MASON,
                masons,
                lambda: _("The masons %(names)s saw each other.") % {"names": listing(masons)},
            )
        elif masons:
            self.note(
                order,
                Role.MASON,
                masons,
                lambda: _("%(mason)s was the only mason.") % {"mason": masons[0]},
            )

    def each_dealt(self, order: int, role: Role, act) -> None:
        for player in self.deal.players_dealt(role):
            act(order, player, self.actions[player])

    def play(self) -> None:
        if self.deal.ruleset is Ruleset.OFFICIAL:
            self.doppelganger_copy(1)
            self.werewolves(2)
            self.minion(3)
            self.masons(4)
            self.each_dealt(5, Role.SEER, self.seer)
            self.each_dealt(6, Role.ROBBER, self.robber)
            self.each_dealt(7, Role.TROUBLEMAKER, self.troublemaker)
            self.each_dealt(8, Role.DRUNK, self.drunk)
            for player in self.deal.players_dealt(Role.INSOMNIAC):
                self.insomniac(9, player)
            if self.copied is Role.INSOMNIAC and self.doppelganger is not None:
                self.insomniac(9, self.doppelganger)  # step 9a, after the real insomniac
        else:
            self.werewolves(0)
            self.minion(0)
            self.masons(0)
            self.each_dealt(1, Role.SEER, self.seer)
            self.each_dealt(2, Role.ROBBER, self.robber)
            self.each_dealt(3, Role.TROUBLEMAKER, self.troublemaker)
            self.each_dealt(4, Role.DRUNK, self.drunk)
            for player in self.deal.players_dealt(Role.INSOMNIAC):
                self.insomniac(4, player)


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
    night = _Night(deal, checked, with_log=with_log)
    night.play()
    return NightResult(
        deal=deal,
        final=night.cards,
        seen=night.seen,
        copied=night.copied,
        log=tuple(night.log),
        actions=checked,
    )
