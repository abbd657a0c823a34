"""The vote and the winners of a game with Vampire's cards (docs/rules.md 8b.6); voting.py calls
these when the night has marks, and is unchanged for base and Daybreak games.

- Who cannot be killed: the Prince, the Bodyguard's choice (8a.7), and the Master when another
  vampire votes for it ([VC] The Master); the next most voted die in their place.
- The Epic Battle (rules/002 s6; [VR], [TA]): with werewolves, vampires and village players
  all at the table, the most voted die and, unless several tie for the most, everyone with the
  second-most votes too (one vote is enough there). Otherwise the usual count: the most voted,
  with two votes or more. **Choice:** the first place needs two votes in an Epic Battle too.
- Then the Hunter's shot and the lovers, until nobody else falls ([VR] Love, 8b.6).
- Teams from the role played at dawn and the mark; then each player's marks: a Disease voter
  cannot win, a Traitor wins only if a teammate died, the assassins by their own rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from games.words import _, listing

from .marks import Mark
from .night import NightResult
from .roles import ROLES, Role, Team, is_werewolf


def is_werewolf_player(night: NightResult, player: str) -> bool:
    """A werewolf card whose holder does not bear the Mark of the Vampire ([VR] Special Cases:
    such a werewolf "is a Vampire"; 8b.2, Choice)."""
    return is_werewolf(night.plays_as(player)) and not night.is_vampire(player)


def team_at_dawn(night: NightResult, player: str) -> Team:
    """A player's team at dawn (8b.1, 8b.2): the Mark of the Vampire first, then the role;
    Renfield with no vampire at the table and the Assassin with no Mark of the Assassin out
    play for the village."""
    if night.is_vampire(player):
        return Team.VAMPIRE
    role = night.plays_as(player)
    if role is Role.RENFIELD and not any(night.is_vampire(p) for p in night.deal.players):
        return Team.TOWN
    if role is Role.ASSASSIN and Mark.ASSASSIN not in night.marks.values():
        return Team.TOWN
    return ROLES[role].team


def is_epic(night: NightResult) -> bool:
    """rules/002 s6: werewolves, vampires and village players all in front of players."""
    players = night.deal.players
    return (
        any(is_werewolf_player(night, p) for p in players)
        and any(night.is_vampire(p) for p in players)
        and any(team_at_dawn(night, p) is Team.TOWN for p in players)
    )


@dataclass(frozen=True, slots=True)
class EpicCount:
    """The dead of a vote with marks: `lynched` by the vote, `hunted` by a hunter, `lovers` who
    died of love, `dead` all of them in seat order; `epic` whether the Epic Battle applied."""

    epic: bool
    lynched: tuple[str, ...]
    hunted: tuple[str, ...]
    lovers: tuple[str, ...]
    dead: tuple[str, ...]
    reason: str


def _safe(night: NightResult, votes: Mapping[str, str | None]) -> set[str]:
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
            and night.plays_as(target) is Role.THE_MASTER
            and night.is_vampire(player)
        ):
            safe.add(target)  # [VC]: another vampire's vote keeps the Master alive
    return safe


def count_with_marks(night: NightResult, votes: Mapping[str, str | None]) -> EpicCount:
    """The dead, from checked votes (voting.validate_votes)."""
    players = night.deal.players
    counts = Counter(c for c in votes.values() if c is not None)
    safe = _safe(night, votes)
    epic = is_epic(night)
    open_counts = sorted({counts[p] for p in players if p not in safe and counts[p]}, reverse=True)
    top = open_counts[0] if open_counts else 0
    lynched: tuple[str, ...] = ()
    if top >= 2:
        first = tuple(p for p in players if p not in safe and counts[p] == top)
        second = open_counts[1] if len(open_counts) > 1 else 0
        if epic and len(first) == 1 and second >= 1:
            lynched = tuple(p for p in players if p not in safe and counts[p] in (top, second))
        else:
            lynched = first
    dead = set(lynched)
    hunted: list[str] = []
    lovers: list[str] = []
    love = {p for p in players if night.marks.get(p) is Mark.LOVE}
    changed = True
    while changed:
        changed = False
        for shooter in players:
            target = votes[shooter]
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
    names = listing(list(lynched))
    if lynched and epic:
        reason = _("Epic battle: %(names)s had the most votes and died.") % {"names": names}
    elif lynched:
        reason = _("%(names)s had the most votes and died.") % {"names": names}
    else:
        reason = _("Nobody had more than one vote, so nobody was killed.")
    if hunted:
        reason += " " + _("The hunter took %(names)s.") % {"names": listing(hunted)}
    if lovers:
        reason += " " + _("%(names)s died of love.") % {"names": listing(lovers)}
    return EpicCount(
        epic=epic,
        lynched=lynched,
        hunted=tuple(hunted),
        lovers=tuple(lovers),
        dead=tuple(p for p in players if p in dead),
        reason=reason,
    )


def _teams_won(
    night: NightResult, dead: tuple[str, ...], epic: bool
) -> tuple[set[Team], list[str]]:
    players = night.deal.players
    died = set(dead)
    wolves = {p for p in players if is_werewolf_player(night, p)}
    vampires = {p for p in players if night.is_vampire(p)}
    tanner_died = any(night.plays_as(p) is Role.TANNER for p in died)
    won: set[Team] = set()
    why: list[str] = []
    if epic:
        # rules/002 s6, [TA]: each side needs both of its conditions.
        if died & wolves and died & vampires:
            won.add(Team.TOWN)
            why.append(_("A werewolf and a vampire died: the village won."))
        if died & vampires and not died & wolves and not tanner_died:
            won.add(Team.WEREWOLF)
            why.append(_("A vampire died and no werewolf: the werewolves won."))
        if died & wolves and not died & vampires and not tanner_died:
            won.add(Team.VAMPIRE)
            why.append(_("A werewolf died and no vampire: the vampires won."))
    elif wolves or vampires:
        if died & (wolves | vampires):
            won.add(Team.TOWN)
            why.append(_("A monster died: the village won."))
        if wolves and not died & wolves and not tanner_died:
            won.add(Team.WEREWOLF)
            why.append(_("No werewolf died: the werewolves won."))
        if vampires and not died & vampires and not tanner_died:
            won.add(Team.VAMPIRE)
            why.append(_("No vampire died: the vampires won."))
    elif not died:
        won.add(Team.TOWN)
        why.append(_("No monster was at the table and nobody died: the village won."))
    else:
        why.append(_("No monster was at the table, yet someone died: the village lost."))
        minions = {p for p in players if night.plays_as(p) is Role.MINION}
        if minions and died - minions and not died & minions and not tanner_died:
            won.add(Team.WEREWOLF)  # rules/002 s6: the minion alone
            why.append(_("The minion survived while another player died: the minion won."))
    if tanner_died:
        won.add(Team.TANNER)
        why.insert(0, _("The Tanner died and won."))
    return won, why


def _own_rule(night: NightResult, died: set[str], team: Team) -> bool:
    """The assassins' teams (8b.4): whether this player's own condition holds."""
    marked_died = any(night.marks.get(p) is Mark.ASSASSIN for p in died)
    if team is Team.ASSASSIN:
        return marked_died
    assassins = {p for p in night.deal.players if night.plays_as(p) is Role.ASSASSIN}
    return bool(died & assassins) if assassins else marked_died


def outcome_with_marks(
    night: NightResult, dead: tuple[str, ...], votes: Mapping[str, str | None], epic: bool
) -> tuple[frozenset[Team], tuple[str, ...], str]:
    """The winning teams, the winners in seat order and the reason (8b.6)."""
    players = night.deal.players
    won, why = _teams_won(night, dead, epic)
    died = set(dead)
    team = {p: team_at_dawn(night, p) for p in players}
    diseased = {p for p in players if night.marks.get(p) is Mark.DISEASE}
    winners: list[str] = []
    for player in players:
        mine = team[player]
        if mine in (Team.ASSASSIN, Team.APPRENTICE_ASSASSIN):
            wins = _own_rule(night, died, mine)
        elif mine is Team.TANNER:
            wins = player in died
        else:
            wins = mine in won
        mates = [p for p in players if p != player and team[p] is mine]
        if night.marks.get(player) is Mark.TRAITOR and mates and mine is not Team.TANNER:
            wins = any(p in died for p in mates)  # [VR]: only if a teammate dies
        if votes.get(player) in diseased:
            wins = False  # [VR]: a vote for the Mark of Disease
        if wins:
            winners.append(player)
    if not won:
        why.append(_("No team won."))
    if not winners:
        why.append(_("Nobody won."))
    teams = frozenset(team[p] for p in winners) | frozenset(won)
    return teams, tuple(winners), " ".join(why)
