"""The vote and the winners with Vampire's marks and the Epic Battle (docs/rules.md 8b.6).

- Who cannot be killed: the Prince, the Bodyguard's choice (8a.7), and the Master when another
  vampire votes for it ([VC] The Master); the next most voted die in their place.
- The Epic Battle (rules/002 s6; [VR], [TA]): with werewolves, vampires and village players
  all at the table, the most voted die and, unless several tie for the most, everyone with the
  second-most votes too (one vote is enough there). Otherwise the usual count (voting.py): the
  most voted, with two votes or more. **Choice:** the first place needs two votes in an Epic
  Battle too, so a table where everyone has one vote kills nobody, as always.
- Then the Hunter's shot and the lovers, until nobody else falls ([VR] Love, 8b.6).
- Sides from the final card and mark (`VampireNightResult`); then each player's marks: a
  Disease voter cannot win, a Traitor wins only if a teammate died, the assassins by their own
  rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from games.words import _, listing

from .dusk import VampireNightResult
from .marks import Mark
from .roles import Role, is_werewolf
from .vampire_roles import Card, Side, VampireRole, side_of_card
from .voting import validate_votes


def is_werewolf_player(night: VampireNightResult, player: str) -> bool:
    """A werewolf card whose holder does not bear the Mark of the Vampire ([VR] Special Cases:
    such a werewolf "is a Vampire"; 8b.2, Choice)."""
    role = night.plays_as(player)
    return isinstance(role, Role) and is_werewolf(role) and not night.is_vampire(player)


def side_of(night: VampireNightResult, player: str) -> Side:
    """A player's side at dawn (8b.1, 8b.2): the Mark of the Vampire first, then the card;
    Renfield with no vampire at the table and the Assassin with no Mark of the Assassin out
    play for the village."""
    if night.is_vampire(player):
        return Side.VAMPIRE
    role: Card = night.plays_as(player)
    if role is VampireRole.RENFIELD and not any(night.is_vampire(p) for p in night.deal.players):
        return Side.TOWN
    if role is VampireRole.ASSASSIN and Mark.ASSASSIN not in night.marks.values():
        return Side.TOWN
    return side_of_card(role)


def is_epic(night: VampireNightResult) -> bool:
    """rules/002 s6: werewolves, vampires and village players all in front of players."""
    players = night.deal.players
    return (
        any(is_werewolf_player(night, p) for p in players)
        and any(night.is_vampire(p) for p in players)
        and any(side_of(night, p) is Side.TOWN for p in players)
    )


@dataclass(frozen=True, slots=True)
class VampireVote:
    """The tally and the dead: `lynched` by the vote, `hunted` by a hunter, `lovers` who died
    of love, `dead` all of them in seat order; `epic` whether the Epic Battle count applied."""

    votes: Mapping[str, str | None]
    counts: Mapping[str, int]
    epic: bool
    lynched: tuple[str, ...]
    hunted: tuple[str, ...]
    lovers: tuple[str, ...]
    dead: tuple[str, ...]
    reason: str


def _safe(night: VampireNightResult, votes: Mapping[str, str | None]) -> set[str]:
    safe: set[str] = set()
    for player in night.deal.players:
        role = night.plays_as(player)
        target = votes.get(player)
        if role is Role.PRINCE:
            safe.add(player)
        if role is Role.BODYGUARD and target is not None:
            safe.add(target)
        if (
            target is not None
            and night.plays_as(target) is VampireRole.THE_MASTER
            and night.is_vampire(player)
        ):
            safe.add(target)  # [VC]: another vampire's vote keeps the Master alive
    return safe


def tally_vampire_votes(night: VampireNightResult, votes: Mapping[str, str | None]) -> VampireVote:
    players = night.deal.players
    checked = validate_votes(players, votes)
    counts = Counter(c for c in checked.values() if c is not None)
    safe = _safe(night, checked)
    epic = is_epic(night)
    open_counts = sorted({counts[p] for p in players if p not in safe and counts[p]}, reverse=True)
    top = open_counts[0] if open_counts else 0
    lynched: tuple[str, ...] = ()
    if top >= 2:
        first = tuple(p for p in players if p not in safe and counts[p] == top)
        second_count = open_counts[1] if len(open_counts) > 1 else 0
        if epic and len(first) == 1 and second_count >= 1:
            lynched = tuple(
                p for p in players if p not in safe and counts[p] in (top, second_count)
            )
        else:
            lynched = first
    dead = set(lynched)
    hunted: list[str] = []
    lovers: list[str] = []
    love = set(p for p in players if night.marks[p] is Mark.LOVE)
    changed = True
    while changed:
        changed = False
        for shooter in players:
            target = checked[shooter]
            if (
                shooter in dead
                and night.plays_as(shooter) is Role.HUNTER
                and target is not None
                and target not in dead
                and target not in safe
            ):
                dead.add(target)
                hunted.append(target)
                changed = True
        if dead & love and not love <= dead:
            for lover in players:
                if lover in love and lover not in dead:
                    dead.add(lover)  # [VR]: even if protected
                    lovers.append(lover)
            changed = True
    if lynched:
        reason = _("%(names)s had the most votes and died.") % {"names": listing(list(lynched))}
        if epic:
            reason = _("Epic battle: %(names)s had the most votes and died.") % {
                "names": listing(list(lynched))
            }
    else:
        reason = _("Nobody had more than one vote, so nobody was killed.")
    if hunted:
        reason += " " + _("The hunter took %(names)s.") % {"names": listing(hunted)}
    if lovers:
        reason += " " + _("%(names)s died of love.") % {"names": listing(lovers)}
    return VampireVote(
        votes=checked,
        counts=dict(counts),
        epic=epic,
        lynched=lynched,
        hunted=tuple(hunted),
        lovers=tuple(lovers),
        dead=tuple(p for p in players if p in dead),
        reason=reason,
    )


@dataclass(frozen=True, slots=True)
class VampireOutcome:
    """The sides that won, the winning players in seat order, and one line per reason."""

    sides: frozenset[Side]
    winners: tuple[str, ...]
    reason: str


def _sides_won(night: VampireNightResult, vote: VampireVote) -> tuple[set[Side], list[str]]:
    players = night.deal.players
    died = set(vote.dead)
    wolves = {p for p in players if is_werewolf_player(night, p)}
    vampires = {p for p in players if night.is_vampire(p)}
    tanner_died = any(night.plays_as(p) is Role.TANNER for p in died)
    won: set[Side] = set()
    why: list[str] = []
    if vote.epic:
        # rules/002 s6, [TA]: each side needs both of its conditions.
        if died & wolves and died & vampires:
            won.add(Side.TOWN)
            why.append(_("A werewolf and a vampire died: the village won."))
        if died & vampires and not died & wolves and not tanner_died:
            won.add(Side.WEREWOLF)
            why.append(_("A vampire died and no werewolf: the werewolves won."))
        if died & wolves and not died & vampires and not tanner_died:
            won.add(Side.VAMPIRE)
            why.append(_("A werewolf died and no vampire: the vampires won."))
    elif wolves or vampires:
        if died & (wolves | vampires):
            won.add(Side.TOWN)
            why.append(_("A monster died: the village won."))
        for side, monsters in ((Side.WEREWOLF, wolves), (Side.VAMPIRE, vampires)):
            if monsters and not died & monsters and not tanner_died:
                won.add(side)
                why.append(
                    _("No werewolf died: the werewolves won.")
                    if side is Side.WEREWOLF
                    else _("No vampire died: the vampires won.")
                )
    elif not died:
        won.add(Side.TOWN)
        why.append(_("No monster was at the table and nobody died: the village won."))
    else:
        why.append(_("No monster was at the table, yet someone died: the village lost."))
        minions = {p for p in players if night.plays_as(p) is Role.MINION}
        if minions and died - minions and not died & minions and not tanner_died:
            won.add(Side.WEREWOLF)  # rules/002 s6: the minion alone
            why.append(_("The minion survived while another player died: the minion won."))
    if tanner_died:
        won.add(Side.TANNER)
        why.insert(0, _("The Tanner died and won."))
    return won, why


def _own_rule(night: VampireNightResult, vote: VampireVote, player: str, side: Side) -> bool:
    """The assassins' sides (8b.4): whether this player's own condition holds."""
    died = set(vote.dead)
    players = night.deal.players
    if side is Side.ASSASSIN:
        return any(night.marks[p] is Mark.ASSASSIN for p in died)
    assassins = [p for p in players if night.plays_as(p) is VampireRole.ASSASSIN]
    if assassins:
        return bool(died & set(assassins))
    return any(night.marks[p] is Mark.ASSASSIN for p in died)


def decide_vampire_outcome(night: VampireNightResult, vote: VampireVote) -> VampireOutcome:
    players = night.deal.players
    won, why = _sides_won(night, vote)
    died = set(vote.dead)
    side = {p: side_of(night, p) for p in players}
    winners: list[str] = []
    for player in players:
        mine = side[player]
        if mine in (Side.ASSASSIN, Side.APPRENTICE_ASSASSIN):
            wins = _own_rule(night, vote, player, mine)
        elif mine is Side.TANNER:
            wins = player in died
        else:
            wins = mine in won
        mark = night.marks[player]
        mates = [p for p in players if p != player and side[p] is mine]
        if mark is Mark.TRAITOR and mates and mine not in (Side.TANNER,):
            wins = any(p in died for p in mates)  # [VR]: only if a teammate dies
        diseased = [p for p in players if night.marks[p] is Mark.DISEASE]
        if vote.votes.get(player) in diseased:
            wins = False  # [VR]: a vote for the Mark of Disease
        if wins:
            winners.append(player)
    if not why and not winners:
        why.append(_("Nobody won."))
    sides = frozenset(side[p] for p in winners) | frozenset(won)
    return VampireOutcome(sides=sides, winners=tuple(winners), reason=" ".join(why))
