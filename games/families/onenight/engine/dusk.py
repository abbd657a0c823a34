"""One Night Ultimate Vampire's steps in the one night (docs/rules.md 8b.3-8b.5): the Copycat,
the vampires, the marking roles, the end of dusk (marks seen, lovers), and the Marksman,
Pickpocket and Gremlin; one small named resolver per step of `roles.NIGHTS`, registered in
`VAMPIRE_RESOLVERS` like Daybreak's (tonight.py has their shape).

They play on the same `Tonight` as every other role: the Gremlin's card swap moves the same
cards as the Robber's and the Witch's, in the wake order. The marks are `Tonight.marks` (a
`marks.MarkTable`, present only with a Vampire card in the deck). What a player learns is
written at the step into `Tonight.told` (their report: messages.night_report), from what that
player saw; the reports of these resolvers add nothing more. A "must" left unsent is done on the
first legal player in seat order (8b.3). Everything is read in seat order, never in the order
the actions came in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType

from games.words import _, listing

from .marks import Mark, MarkTable
from .roles import Role, where
from .tonight import Learned, Resolver, Tonight, Turn


def _nothing(learned: Learned) -> list[str]:
    """The lines were told at the step (`Tonight.told`)."""
    return []


def _table(night: Tonight) -> MarkTable:
    # The Vampire steps are played only with a Vampire card in the deck (WakeStep.deck), or
    # are the marks' night roles themselves, which are Vampire cards: the marks are out.
    assert night.marks is not None
    return night.marks


def _did(night: Tonight, turn: Turn, actor: str, text: str) -> None:
    """The reveal's line for a Vampire step: who, as what, and what they did."""
    night.note(
        turn,
        [actor],
        lambda: (
            _("%(actor)s (%(role)s): %(what)s")
            % {"actor": actor, "role": turn.role.title, "what": text}
        ),
    )


# --- The Copycat ([VC] Copycat; [VR] Special Cases) --------------------------------------------


def _copycat(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """Must look at a centre card and is that role from then on (it wakes as it). A copy of
    the Doppelganger is a villager (8b.4, Choice)."""
    position = targets[0] if targets else "left"
    card = night.cards[position]
    copy = Role.VILLAGER if card is Role.DOPPELGANGER else card
    night.copycats[actor] = copy
    night.became[Role.COPYCAT] = copy
    night.seen[actor][position] = card
    _did(night, turn, actor, _("became the %(role)s.") % {"role": copy.title})


def copied_line(position: str, card: Role) -> str:
    """The first line of the Copycat's report (its own and the reveal's wording), then the
    copied role's report follows (`resolvers.RESOLVERS["copycat"]`)."""
    copy = Role.VILLAGER if card is Role.DOPPELGANGER else card
    return _("You copied %(card)s: you are the %(role)s.") % {
        "card": where(position),
        "role": copy.title,
    }


# --- The vampires ------------------------------------------------------------------------------


def _vampires(night: Tonight, turn: Turn, actors: tuple[str, ...]) -> None:
    """[VC] Vampire, Master, Count (and their copies): they see each other and mark a
    non-vampire. The name sent most wins; a tie goes to the first vampire in seat order among
    the tied (8b.3, Choice). The Master's step is the same waking: played once."""
    if night.vampires is not None:
        return
    players = tuple(p for p in night.deal.players if night.is_vampire_tonight(p))
    night.vampires = players
    if not players:
        return
    prey = tuple(p for p in night.deal.players if p not in players)
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
    _table(night).give(Mark.VAMPIRE, pick)
    for vampire in players:
        night.tell(vampire, _("You gave the Mark of the Vampire to %(player)s.") % {"player": pick})
    night.note(
        turn,
        players,
        lambda: (
            _("The vampires %(names)s gave the Mark of the Vampire to %(player)s.")
            % {"names": listing(list(players)), "player": pick}
        ),
    )


def _count(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VC] The Count: the Mark of Fear to a non-vampire who did not just become one."""
    vampires = night.vampires or ()
    prey = [p for p in night.deal.players if p not in vampires and p != night.pick]
    wanted = targets[1] if len(targets) > 1 else None
    target = wanted if wanted in prey else (prey[0] if prey else None)
    if target is None:
        night.tell(actor, _("Nobody was left to frighten."))
        return
    _table(night).give(Mark.FEAR, target)
    night.tell(actor, _("You gave the Mark of Fear to %(player)s.") % {"player": target})
    _did(night, turn, actor, _("gave the Mark of Fear to %(player)s.") % {"player": target})


def _renfield(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VC] Renfield: sees the vampires and their pick; takes the Mark of the Bat."""
    if night.vampires:
        night.tell(actor, _("The vampires: %(names)s.") % {"names": listing(list(night.vampires))})
    else:
        night.tell(actor, _("No player is a vampire."))
    if night.pick is not None:
        night.tell(actor, _("They marked %(player)s.") % {"player": night.pick})
    _table(night).give(Mark.BAT, actor)
    night.tell(actor, _("You took the Mark of the Bat."))
    _did(night, turn, actor, _("took the Mark of the Bat."))


# --- The marking roles -------------------------------------------------------------------------


def neighbours(players: tuple[str, ...], player: str) -> tuple[str, str]:
    """The players on either side of `player` (the Diseased's choice)."""
    i = players.index(player)
    return (players[(i - 1) % len(players)], players[(i + 1) % len(players)])


def _diseased(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VR], [VC] Diseased: the Mark of Disease to the player on the left or the right."""
    near = neighbours(night.deal.players, actor)
    target = targets[0] if targets and targets[0] in near else near[1]
    _table(night).give(Mark.DISEASE, target)
    night.tell(actor, _("You gave the Mark of Disease to %(player)s.") % {"player": target})
    _did(night, turn, actor, _("gave the Mark of Disease to %(player)s.") % {"player": target})


def _cupid(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VR], [VC] Cupid: two Marks of Love, or none (8b.4, Choice)."""
    if len(targets) != 2:
        night.tell(actor, _("You made nobody fall in love."))
        return
    for lover in targets:
        _table(night).give(Mark.LOVE, lover)
    a, b = targets
    night.tell(actor, _("You made %(a)s and %(b)s lovers.") % {"a": a, "b": b})
    _did(night, turn, actor, _("made %(a)s and %(b)s lovers.") % {"a": a, "b": b})


def _instigator(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VR], [VC] Instigator: the Mark of the Traitor to any player, or nobody."""
    if not targets:
        night.tell(actor, _("You made nobody a traitor."))
        return
    _table(night).give(Mark.TRAITOR, targets[0])
    night.tell(actor, _("You made %(player)s a traitor.") % {"player": targets[0]})
    _did(night, turn, actor, _("made %(player)s a traitor.") % {"player": targets[0]})


def _priest(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VC] Priest: a Mark of Clarity on himself, and maybe on one other player."""
    _table(night).give(Mark.CLARITY, actor)
    if targets:
        _table(night).give(Mark.CLARITY, targets[0])
        night.tell(actor, _("You cleared your mark and %(player)s's.") % {"player": targets[0]})
    else:
        night.tell(actor, _("You cleared your own mark."))
    _did(night, turn, actor, _("gave out Marks of Clarity."))


def _assassin(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VR], [VC] Assassin: the Mark of the Assassin on any player, himself too."""
    others = [p for p in night.deal.players if p != actor]
    target = targets[0] if targets else others[0]
    _table(night).give(Mark.ASSASSIN, target)
    night.tell(actor, _("You marked %(player)s as your target.") % {"player": target})
    _did(night, turn, actor, _("gave the Mark of the Assassin to %(player)s.") % {"player": target})


def _apprentice(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VC] Apprentice Assassin: sees the Assassin (who sees her); with none, marks a player.
    She does not know a Doppelganger-Assassin ([VC])."""
    assassins = tuple(
        p
        for p in night.deal.players
        if p != night.doppelganger and night.acting(p) is Role.ASSASSIN
    )
    if assassins:
        night.tell(actor, _("The assassin: %(names)s.") % {"names": listing(list(assassins))})
        for assassin in assassins:
            night.tell(assassin, _("Your apprentice: %(player)s.") % {"player": actor})
        return
    _assassin(night, turn, actor, targets)


# --- The end of dusk, and the marks' night -------------------------------------------------------


def _lovers(night: Tonight, turn: Turn, actors: tuple[str, ...]) -> None:
    """[VR]: at the end of dusk everyone looks at their mark; then the lovers see each other.
    Fear is read here: a frightened player does nothing tonight (8b.2), so their action sent
    for the night is dropped."""
    table = _table(night)
    for player in night.deal.players:
        night.tell(
            player,
            _("At the end of dusk your mark was the %(mark)s.")
            % {"mark": table.held[player].title},
        )
    night.frightened = frozenset(table.holders(Mark.FEAR))
    for player in night.frightened:
        night.actions[player] = ()
    lovers = table.holders(Mark.LOVE)
    for lover in lovers:
        others = [p for p in lovers if p != lover]
        if others:
            night.tell(lover, _("You are in love with %(names)s.") % {"names": listing(others)})


def _marksman(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VC] Marksman: one player's card and another player's mark, either or both. A shield
    stops the look at the card, not at the mark ([VR] Special Cases)."""
    card_of, mark_of = (*targets, "-", "-")[:2]
    if card_of != "-":
        if night.shielded(card_of):
            night.tell(actor, _("A shield lay on %(card)s.") % {"card": where(card_of)})
        else:
            card = night.cards[card_of]
            night.seen[actor][card_of] = card
            night.tell(
                actor,
                _("%(player)s's card is the %(role)s.") % {"player": card_of, "role": card.title},
            )
    if mark_of != "-":
        night.tell(
            actor,
            _("%(player)s's mark is the %(mark)s.")
            % {"player": mark_of, "mark": _table(night).held[mark_of].title},
        )
    if card_of == "-" and mark_of == "-":
        night.tell(actor, _("You chose not to look."))
    else:
        _did(night, turn, actor, _("looked."))


def _pickpocket(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VC] Pickpocket: swaps marks with another player, then looks at the new one."""
    if not targets:
        night.tell(actor, _("You took nobody's mark."))
        return
    table = _table(night)
    table.swap(actor, targets[0])
    night.tell(
        actor,
        _("You took %(player)s's mark: it is the %(mark)s.")
        % {"player": targets[0], "mark": table.held[actor].title},
    )
    _did(night, turn, actor, _("swapped marks with %(player)s.") % {"player": targets[0]})


def gremlin_move(targets: tuple[str, ...]) -> tuple[str, str, str] | None:
    """The Gremlin's action as (what, a, b): two players are their cards; "marks" or "cards"
    first names which (8b.4)."""
    if len(targets) == 2:
        return ("cards", targets[0], targets[1])
    if len(targets) == 3:
        return (targets[0], targets[1], targets[2])
    return None


def _gremlin(night: Tonight, turn: Turn, actor: str, targets: tuple[str, ...]) -> None:
    """[VC] Gremlin: swaps two players' marks, or their cards, unseen. Shields keep cards,
    not marks, in place ([VR] Special Cases)."""
    move = gremlin_move(targets)
    if move is None:
        night.tell(actor, _("You swapped nothing."))
        return
    what, a, b = move
    if what == "marks":
        _table(night).swap(a, b)
        night.tell(actor, _("You swapped the marks of %(a)s and %(b)s.") % {"a": a, "b": b})
    elif night.shielded(a, b):
        night.tell(actor, _("A shield kept those cards in place."))
        return
    else:
        night.swap(a, b)
        night.tell(actor, _("You swapped the cards of %(a)s and %(b)s.") % {"a": a, "b": b})
    _did(
        night,
        turn,
        actor,
        _("swapped the %(what)s of %(a)s and %(b)s.") % {"what": what, "a": a, "b": b},
    )


VAMPIRE_RESOLVERS: Mapping[str, Resolver] = MappingProxyType(
    {
        "copycat": Resolver(_nothing, each=_copycat),
        "vampires": Resolver(_nothing, together=_vampires),
        "count": Resolver(_nothing, each=_count),
        "renfield": Resolver(_nothing, each=_renfield),
        "diseased": Resolver(_nothing, each=_diseased),
        "cupid": Resolver(_nothing, each=_cupid),
        "instigator": Resolver(_nothing, each=_instigator),
        "priest": Resolver(_nothing, each=_priest),
        "assassin": Resolver(_nothing, each=_assassin),
        "apprentice_assassin": Resolver(_nothing, each=_apprentice),
        "lovers": Resolver(_nothing, together=_lovers),
        "marksman": Resolver(_nothing, each=_marksman),
        "pickpocket": Resolver(_nothing, each=_pickpocket),
        "gremlin": Resolver(_nothing, each=_gremlin),
    }
)
