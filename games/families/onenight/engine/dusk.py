"""One Night Ultimate Vampire's dusk and its marks at night (docs/rules.md 8b.3-8b.5): the
Copycat's and the Doppelganger's copies, the marking roles, the lovers, and the Marksman,
Pickpocket and Gremlin; one small named resolver per step of `vampire_roles.VAMPIRE_STEPS`.

What a player sends in (`actions`, by seat; checked by `validate_vampire_actions`):
- Copycat: a centre card, then the copied role's own targets; Doppelganger: a player, then the
  copied role's targets (a Diseased, Cupid or Instigator copy acts at once).
- Vampire, Master: the player to mark; Count: that player, then the player for the Mark of
  Fear; Renfield: nothing; Diseased: a neighbour; Cupid: two players or none; Instigator,
  Priest, Pickpocket: one player or none; Assassin: one player; Apprentice Assassin: one
  player (used only with no Assassin at the table); Marksman: a player's card and another
  player's mark, "-" for none; Gremlin: "marks" or "cards" and two players.
A "must" left unsent is done on the first legal player in seat order (8b.3). Everything is read
in seat order, never in the order the actions came in, so the result does not depend on it.

Each player's lines (`VampireNight.lines`) are written at the step from what that player saw:
they are the player's report. The base and Daybreak roles of the same night are played by
night.py; joining the two nights is the web step's (8b.7).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from games.words import _, listing, ngettext

from .errors import IllegalActionError, InvalidDeckError, shown
from .marks import Mark, MarkTable
from .roles import CENTRE_POSITIONS, Copy, Requirement, Role, where
from .vampire_roles import (
    VAMPIRE_ROLES,
    VAMPIRE_STEPS,
    Aim,
    Card,
    VampireRole,
    VampireStep,
    is_vampire_card,
)


@dataclass(frozen=True, slots=True)
class VampireDeal:
    """The seats and the cards dealt: each player's and the three centre cards'."""

    players: tuple[str, ...]
    cards: Mapping[str, Card]

    def __post_init__(self) -> None:
        expected = set(self.players) | set(CENTRE_POSITIONS)
        if set(self.cards) != expected or len(set(self.players)) != len(self.players):
            raise InvalidDeckError(_("A deal names every player's card and the centre's."))


def _copied_at_deal(deal: VampireDeal, actions: Mapping[str, Sequence[str]], target: str) -> Card:
    """What a copier becomes, known from the deal (no card moves before -6): the Copycat's
    centre card; the Doppelganger's player card, or the Copycat's copy if it copied the
    Copycat ([VC]). A copy of the Doppelganger is a villager (8b.4, Choice)."""
    card = deal.cards[target]
    if card is VampireRole.COPYCAT and target in deal.players:
        sent = actions.get(target, ())
        card = deal.cards[sent[0] if sent else CENTRE_POSITIONS[0]]
    if card in (VampireRole.COPYCAT, Role.DOPPELGANGER):
        return Role.VILLAGER
    return card


class VampireNight:
    """The table while dusk and the marks' night are played (like tonight.Tonight)."""

    __slots__ = (
        "actions",
        "cards",
        "copied",
        "deal",
        "frightened",
        "lines",
        "marks",
        "pick",
        "vampires",
    )

    def __init__(self, deal: VampireDeal, actions: Mapping[str, tuple[str, ...]]) -> None:
        self.deal = deal
        self.actions = actions
        self.cards: dict[str, Card] = dict(deal.cards)
        self.marks = MarkTable(deal.players)
        self.copied: dict[str, Card] = {}
        self.lines: dict[str, list[str]] = {p: [] for p in deal.players}
        self.pick: str | None = None
        self.vampires: tuple[str, ...] = ()
        self.frightened: frozenset[str] = frozenset()

    def acting(self, player: str) -> Card:
        """The role a player acts as at dusk and tonight: their dealt card, or its copy."""
        return self.copied.get(player, self.deal.cards[player])

    def own(self, player: str) -> tuple[str, ...]:
        """The targets a player sent for their role's own action (after a copier's copy)."""
        sent = self.actions.get(player, ())
        if self.deal.cards[player] in (VampireRole.COPYCAT, Role.DOPPELGANGER):
            return sent[1:]
        return sent

    def tell(self, player: str, line: str) -> None:
        self.lines[player].append(line)

    def others(self, player: str) -> tuple[str, ...]:
        return tuple(p for p in self.deal.players if p != player)


# --- The copies --------------------------------------------------------------------------


def _copycat(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VC] Copycat: must look at a centre card and is that role from then on."""
    sent = night.actions.get(player, ())
    position = sent[0] if sent else CENTRE_POSITIONS[0]
    card = night.cards[position]
    night.copied[player] = _copied_at_deal(night.deal, night.actions, position)
    night.tell(
        player,
        _("You copied %(card)s: you are the %(role)s.")
        % {"card": where(position), "role": card.title},
    )


def _copy(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VC] Doppelganger and Vampire: copies a player's card at -7; a Diseased, Cupid or
    Instigator copy acts at once, a copy of the Copycat does nothing further."""
    sent = night.actions.get(player, ())
    if not sent:
        return
    target = sent[0]
    copied = _copied_at_deal(night.deal, night.actions, target)
    night.copied[player] = copied
    night.tell(
        player,
        _("You copied %(player)s's card: you are the %(role)s.")
        % {"player": target, "role": copied.title},
    )
    if night.deal.cards[target] is VampireRole.COPYCAT:
        return  # [VC]: the Doppelganger-Copycat becomes the copy and does nothing
    if isinstance(copied, VampireRole) and VAMPIRE_ROLES[copied].copy is Copy.AT_ONCE:
        RESOLVERS[_HANDLER_OF[copied]](night, step, player)


# --- The vampires ------------------------------------------------------------------------


def _non_vampires(night: VampireNight) -> tuple[str, ...]:
    return tuple(p for p in night.deal.players if p not in night.vampires)


def _vampires(night: VampireNight, step: VampireStep, players: tuple[str, ...]) -> None:
    """[VC] Vampire, Master, Count: they see each other and mark a non-vampire. The name sent
    most wins; a tie goes to the first vampire in seat order among the tied (8b.3, Choice)."""
    night.vampires = players
    prey = _non_vampires(night)
    names = [night.own(v)[0] for v in players if night.own(v) and night.own(v)[0] in prey]
    counts = Counter(names)
    top = max(counts.values(), default=0)
    pick = next((n for n in names if counts[n] == top), prey[0] if prey else None)
    for vampire in players:
        others = [v for v in players if v != vampire]
        if others:
            night.tell(
                vampire, _("The vampires tonight: you and %(names)s.") % {"names": listing(others)}
            )
        else:
            night.tell(vampire, _("You are the only vampire."))
    if pick is None:
        return
    night.pick = pick
    night.marks.give(Mark.VAMPIRE, pick)
    for vampire in players:
        night.tell(vampire, _("You gave the Mark of the Vampire to %(player)s.") % {"player": pick})


def _count(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VC] The Count: the Mark of Fear to a non-vampire who did not just become one."""
    prey = [p for p in _non_vampires(night) if p != night.pick]
    own = night.own(player)
    target = own[1] if len(own) > 1 and own[1] in prey else (prey[0] if prey else None)
    if target is None:
        night.tell(player, _("Nobody was left to frighten."))
        return
    night.marks.give(Mark.FEAR, target)
    night.tell(player, _("You gave the Mark of Fear to %(player)s.") % {"player": target})


def _renfield(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VC] Renfield: sees the vampires and their pick; takes the Mark of the Bat."""
    if night.vampires:
        night.tell(player, _("The vampires: %(names)s.") % {"names": listing(list(night.vampires))})
    else:
        night.tell(player, _("No player is a vampire."))
    if night.pick is not None:
        night.tell(player, _("They marked %(player)s.") % {"player": night.pick})
    night.marks.give(Mark.BAT, player)
    night.tell(player, _("You took the Mark of the Bat."))


# --- The marking roles -------------------------------------------------------------------


def _neighbours(night: VampireNight, player: str) -> tuple[str, ...]:
    seats = night.deal.players
    i = seats.index(player)
    return (seats[(i - 1) % len(seats)], seats[(i + 1) % len(seats)])


def _diseased(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VR], [VC] Diseased: the Mark of Disease to the player on the left or the right."""
    own = night.own(player)
    near = _neighbours(night, player)
    target = own[0] if own and own[0] in near else near[1]
    night.marks.give(Mark.DISEASE, target)
    night.tell(player, _("You gave the Mark of Disease to %(player)s.") % {"player": target})


def _cupid(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VR], [VC] Cupid: two Marks of Love, or none (8b.4, Choice)."""
    own = night.own(player)
    if len(own) != 2:
        night.tell(player, _("You made nobody fall in love."))
        return
    for lover in own:
        night.marks.give(Mark.LOVE, lover)
    night.tell(player, _("You made %(a)s and %(b)s lovers.") % {"a": own[0], "b": own[1]})


def _instigator(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VR], [VC] Instigator: the Mark of the Traitor to any player, or nobody."""
    own = night.own(player)
    if not own:
        night.tell(player, _("You made nobody a traitor."))
        return
    night.marks.give(Mark.TRAITOR, own[0])
    night.tell(player, _("You made %(player)s a traitor.") % {"player": own[0]})


def _priest(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VC] Priest: a Mark of Clarity on himself, and maybe on one other player."""
    night.marks.give(Mark.CLARITY, player)
    own = night.own(player)
    if own:
        night.marks.give(Mark.CLARITY, own[0])
        night.tell(player, _("You cleared your mark and %(player)s's.") % {"player": own[0]})
    else:
        night.tell(player, _("You cleared your own mark."))


def _assassin(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VR], [VC] Assassin: the Mark of the Assassin on any player, himself too."""
    own = night.own(player)
    target = own[0] if own else night.others(player)[0]
    night.marks.give(Mark.ASSASSIN, target)
    night.tell(player, _("You marked %(player)s as your target.") % {"player": target})


def _assassins(night: VampireNight) -> tuple[str, ...]:
    """The assassins the apprentice sees: players acting as the Assassin, not the
    Doppelganger ([VC]: she does not know the Doppelganger-Assassin)."""
    return tuple(
        p
        for p in night.deal.players
        if night.acting(p) is VampireRole.ASSASSIN and night.deal.cards[p] is not Role.DOPPELGANGER
    )


def _apprentice(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VC] Apprentice Assassin: sees the Assassin (who sees her); with none, marks a player."""
    assassins = _assassins(night)
    if assassins:
        night.tell(player, _("The assassin: %(names)s.") % {"names": listing(list(assassins))})
        for assassin in assassins:
            night.tell(assassin, _("Your apprentice: %(player)s.") % {"player": player})
        return
    _assassin(night, step, player)


# --- Dawn of the marks and the night -----------------------------------------------------


def _lovers(night: VampireNight) -> None:
    """[VR]: at the end of dusk everyone looks at their mark; then the lovers see each other.
    Fear is read here: a frightened player does nothing tonight (8b.2)."""
    for player in night.deal.players:
        mark = night.marks.held[player]
        night.tell(
            player, _("At the end of dusk your mark was the %(mark)s.") % {"mark": mark.title}
        )
    night.frightened = frozenset(night.marks.holders(Mark.FEAR))
    lovers = night.marks.holders(Mark.LOVE)
    for lover in lovers:
        others = [p for p in lovers if p != lover]
        if others:
            night.tell(lover, _("You are in love with %(names)s.") % {"names": listing(others)})


def _marksman(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VC] Marksman: one player's card and another player's mark, either or both."""
    own = night.own(player)
    card_of, mark_of = (*own, "-", "-")[:2]
    if card_of != "-":
        night.tell(
            player,
            _("%(player)s's card is the %(role)s.")
            % {"player": card_of, "role": night.cards[card_of].title},
        )
    if mark_of != "-":
        night.tell(
            player,
            _("%(player)s's mark is the %(mark)s.")
            % {"player": mark_of, "mark": night.marks.held[mark_of].title},
        )
    if card_of == "-" and mark_of == "-":
        night.tell(player, _("You chose not to look."))


def _pickpocket(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VC] Pickpocket: swaps marks with another player, then looks at the new one."""
    own = night.own(player)
    if not own:
        night.tell(player, _("You took nobody's mark."))
        return
    night.marks.swap(player, own[0])
    night.tell(
        player,
        _("You took %(player)s's mark: it is the %(mark)s.")
        % {"player": own[0], "mark": night.marks.held[player].title},
    )


def _gremlin(night: VampireNight, step: VampireStep, player: str) -> None:
    """[VC] Gremlin: swaps two players' marks, or their cards, unseen."""
    own = night.own(player)
    if len(own) != 3:
        night.tell(player, _("You swapped nothing."))
        return
    what, a, b = own
    if what == "marks":
        night.marks.swap(a, b)
        night.tell(player, _("You swapped the marks of %(a)s and %(b)s.") % {"a": a, "b": b})
    else:
        night.cards[a], night.cards[b] = night.cards[b], night.cards[a]
        night.tell(player, _("You swapped the cards of %(a)s and %(b)s.") % {"a": a, "b": b})


Each = Callable[[VampireNight, VampireStep, str], None]

RESOLVERS: Mapping[str, Each] = MappingProxyType(
    {
        "copycat": _copycat,
        "copy": _copy,
        "count": _count,
        "renfield": _renfield,
        "diseased": _diseased,
        "cupid": _cupid,
        "instigator": _instigator,
        "priest": _priest,
        "assassin": _assassin,
        "apprentice": _apprentice,
        "marksman": _marksman,
        "pickpocket": _pickpocket,
        "gremlin": _gremlin,
    }
)
_HANDLER_OF: Mapping[VampireRole, str] = MappingProxyType(
    {
        s.role: s.handler
        for s in VAMPIRE_STEPS
        if isinstance(s.role, VampireRole) and s.copied is None
    }
)


def _woken(night: VampireNight, step: VampireStep) -> tuple[str, ...]:
    """Who acts at a step, in seat order: the role's players (a copier acting as it, at the
    role's own step), or the Doppelganger at its own step as the role it copied."""
    players = night.deal.players
    dopp = Role.DOPPELGANGER
    if step.copied is not None:
        return tuple(
            p for p in players if night.deal.cards[p] is dopp and night.copied.get(p) is step.copied
        )
    if step.role is dopp or step.role is VampireRole.COPYCAT:
        return tuple(p for p in players if night.deal.cards[p] is step.role)
    if step.handler == "vampires":
        return tuple(p for p in players if _wakes_as_vampire(night, p))
    return tuple(
        p for p in players if night.acting(p) is step.role and night.deal.cards[p] is not dopp
    )


def _wakes_as_vampire(night: VampireNight, player: str) -> bool:
    """A vampire card, or a copy of one (the Doppelganger wakes with them; a copy of the
    Copycat does not act: [VC])."""
    card = night.deal.cards[player]
    if card is Role.DOPPELGANGER:
        sent = night.actions.get(player, ())
        if sent and night.deal.cards.get(sent[0]) is VampireRole.COPYCAT:
            return False
    return is_vampire_card(night.acting(player))


@dataclass(frozen=True, slots=True)
class VampireNightResult:
    """After dusk and the marks' night: the cards (the Gremlin may swap two), each player's
    mark and the pool, what each copier became (travelling with its card), who the vampires
    marked, who was frightened, and each player's report lines."""

    deal: VampireDeal
    cards: Mapping[str, Card]
    marks: Mapping[str, Mark]
    pool: Mapping[Mark, int]
    copies: Mapping[Card, Card]
    pick: str | None
    frightened: frozenset[str]
    lines: Mapping[str, tuple[str, ...]]

    def plays_as(self, player: str) -> Card:
        """The role a player's card plays at dawn: a copier card plays its copy; a Copycat
        card that started in the centre is a villager ([VR] Special Cases)."""
        card = self.cards[player]
        if card in (VampireRole.COPYCAT, Role.DOPPELGANGER):
            return self.copies.get(card, Role.VILLAGER)
        return card

    def is_vampire(self, player: str) -> bool:
        """[VR]: a Vampire card (or its copy) or the Mark of the Vampire."""
        return self.marks[player] is Mark.VAMPIRE or is_vampire_card(self.plays_as(player))


def resolve_vampire_night(
    deal: VampireDeal, actions: Mapping[str, Sequence[str]]
) -> VampireNightResult:
    """Play dusk, the lovers and the marks' night steps in the order of 8b.3."""
    checked = validate_vampire_actions(deal, actions)
    night = VampireNight(deal, checked)
    for step in VAMPIRE_STEPS:
        if step.handler == "lovers":
            _lovers(night)
            continue
        players = _woken(night, step)
        if step.handler == "vampires":
            if players:
                _vampires(night, step, players)
            continue
        for player in players:
            if step.phase.value == "night" and player in night.frightened:
                night.tell(player, _("The Mark of Fear kept you from acting tonight."))
                continue
            RESOLVERS[step.handler](night, step, player)
    copies = {night.deal.cards[p]: c for p, c in night.copied.items()}
    return VampireNightResult(
        deal=deal,
        cards=MappingProxyType(dict(night.cards)),
        marks=night.marks.snapshot(),
        pool=MappingProxyType(dict(night.marks.pool)),
        copies=MappingProxyType(copies),
        pick=night.pick,
        frightened=night.frightened,
        lines=MappingProxyType({p: tuple(ls) for p, ls in night.lines.items()}),
    )


# --- Checking what was sent ----------------------------------------------------------------


def _fail(player: str, problem: str) -> IllegalActionError:
    return IllegalActionError(_("%(player)s: %(problem)s") % {"player": player, "problem": problem})


def _players_ok(deal: VampireDeal, player: str, names: Sequence[str], *, self_ok: bool) -> None:
    for name in names:
        if name not in deal.players:
            raise _fail(player, _("%(name)s is not a player here.") % {"name": shown(name)})
        if name == player and not self_ok:
            raise _fail(player, _("you cannot name yourself."))
    if len(set(names)) != len(names):
        raise _fail(player, _("name two different players."))


def _check_own(deal: VampireDeal, player: str, role: Card, own: tuple[str, ...]) -> None:
    """The copied or dealt role's own targets against its record's aim."""
    if not isinstance(role, VampireRole):
        return  # a base role's action: night.py checks and plays it
    action = VAMPIRE_ROLES[role].action
    assert action is not None
    aim = action.aim
    if not own and action.requirement is not Requirement.MANDATORY:
        return
    if aim is Aim.CENTRE:
        if len(own) < 1 or own[0] not in CENTRE_POSITIONS:
            raise _fail(player, _("name one centre card."))
        return
    if aim is Aim.NOTHING:
        return
    if aim is Aim.MARKS_OR_CARDS:
        if len(own) != 3 or own[0] not in ("marks", "cards"):
            raise _fail(player, _('say "marks" or "cards" and name two players.'))
        _players_ok(deal, player, own[1:], self_ok=True)
        return
    if aim is Aim.CARD_AND_MARK:
        named = [n for n in own if n != "-"]
        if len(own) != 2:
            raise _fail(player, _('name a card and a mark ("-" for none).'))
        _players_ok(deal, player, named, self_ok=False)
        return
    wanted = {Aim.TWO_PLAYERS: 2, Aim.VAMPIRE_PICK: 2 if role is VampireRole.THE_COUNT else 1}
    count = wanted.get(aim, 1)
    if not own:
        return  # a "must" left unsent: the engine plays the default (8b.3)
    if len(own) != count:
        raise _fail(
            player,
            ngettext("this role names %(n)d player.", "this role names %(n)d players.", count)
            % {"n": count},
        )
    _players_ok(deal, player, own, self_ok=action.self_ok)


def validate_vampire_actions(
    deal: VampireDeal, actions: Mapping[str, Sequence[str]]
) -> dict[str, tuple[str, ...]]:
    """Every action sent, checked against the sender's dealt role (or its copy)."""
    checked: dict[str, tuple[str, ...]] = {}
    for player in deal.players:
        sent = tuple(actions.get(player, ()))
        for word in sent:
            if not isinstance(word, str):
                raise _fail(player, _("an action is a list of names."))
        card = deal.cards[player]
        if card is VampireRole.COPYCAT:
            if sent and sent[0] not in CENTRE_POSITIONS:
                raise _fail(player, _("a copycat copies one centre card."))
            target = sent[0] if sent else CENTRE_POSITIONS[0]
            _check_own(deal, player, _copied_at_deal(deal, actions, target), sent[1:])
        elif card is Role.DOPPELGANGER:
            if sent:
                _players_ok(deal, player, sent[:1], self_ok=False)
                _check_own(deal, player, _copied_at_deal(deal, actions, sent[0]), sent[1:])
        else:
            _check_own(deal, player, card, sent)
        checked[player] = sent
    unknown = [p for p in actions if p not in deal.players]
    if unknown:
        raise IllegalActionError(_("%(name)s is not a player here.") % {"name": shown(unknown[0])})
    return checked
