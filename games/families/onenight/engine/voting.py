"""The vote, who dies, and which teams win.

Rulings (docs/rules.md has the reasoning):
- Everyone votes for another player; votes are secret and final (rules/000 s3d). A missing vote
  ("no vote") exists only when a voting deadline passed.
- Ties, rules/000 s6a: when the top count is 2 or more, every player with it dies; when nobody
  has more than one vote, nobody dies. rules/002 is silent on ties and the same rule is used.
- House rule, rules/000 s6c: when no player ends the night as a werewolf, the vote of whoever
  ends as the Tanner cannot break a one-vote tie.
- Hunter (rules/000 s4, rules/002 s5 and s7): a dead hunter (by final role) takes whoever they
  voted for, and again if that player is a hunter too.
- Teams by FINAL role (rules/000 s2); house: with no werewolf, the minion counts as one (s6c);
  official: rules/002 s6.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from games.words import _, listing, ngettext

from .actions import not_a_player
from .epic import count_with_marks, is_epic, outcome_with_marks
from .errors import IllegalVoteError, shown
from .night import NightResult
from .roles import ROLES, Role, Ruleset, Team, is_werewolf


def validate_vote(players: tuple[str, ...], voter: str, choice: object) -> str:
    """Check one vote: `voter` sits at the table and votes for another player there."""
    if voter not in players:
        raise IllegalVoteError(not_a_player(voter))
    if not isinstance(choice, str):
        raise IllegalVoteError(_("%(voter)s: a vote names one other player.") % {"voter": voter})
    if choice == voter:
        raise IllegalVoteError(_("%(voter)s: you cannot vote for yourself.") % {"voter": voter})
    if choice not in players:
        raise IllegalVoteError(
            _("%(voter)s: %(choice)s is not a player in this game.")
            % {"voter": voter, "choice": shown(choice)}
        )
    return choice


def validate_votes(
    players: tuple[str, ...], votes: Mapping[str, str | None]
) -> dict[str, str | None]:
    """Every player's vote, checked; None means "no vote" (a deadline passed).

    Every player needs an entry: leaving one out is a mistake, not an abstention.
    """
    if not isinstance(votes, Mapping):
        raise IllegalVoteError(_("The votes must map every player to the player they vote for."))
    for voter in votes:
        if voter not in players:
            raise IllegalVoteError(not_a_player(voter))
    checked: dict[str, str | None] = {}
    for voter in players:
        if voter not in votes:
            raise IllegalVoteError(
                _("%(voter)s has no vote entry (use null for no vote).") % {"voter": voter}
            )
        choice = votes[voter]
        checked[voter] = None if choice is None else validate_vote(players, voter, choice)
    return checked


@dataclass(frozen=True, slots=True)
class VoteResult:
    """The tally and who died.

    `counts`: votes received per player (zeros left out). `lynched`: killed by the vote, in
    seat order. `hunted`: killed by a hunter's shot, in the order they fell. `dead`: everyone
    who died, in seat order. `reason`: one sentence on why the vote went as it did.
    """

    votes: Mapping[str, str | None]
    counts: Mapping[str, int]
    lynched: tuple[str, ...]
    hunted: tuple[str, ...]
    dead: tuple[str, ...]
    reason: str
    # Vampire (docs/rules.md 8b.6): who died of love, and whether the Epic Battle count applied.
    lovers: tuple[str, ...] = ()
    epic: bool = False


def _tanner_cannot_break_tie(
    night: NightResult, votes: Mapping[str, str | None], safe: set[str]
) -> bool:
    """House rule of rules/000 s6c: no werewolf at dawn and, without the Tanner's vote, nobody
    who can be killed has more than one vote. Then the Tanner's vote does not make a death.
    (`safe`: Daybreak's Prince and the Bodyguard's choice, passed over by the count; docs/
    rules.md 8a.8.)"""
    if night.deal.ruleset is not Ruleset.HOUSE:
        return False
    players = night.deal.players
    if any(is_werewolf(night.plays_as(p)) for p in players):
        return False
    tanners = {p for p in players if night.plays_as(p) is Role.TANNER}
    if not tanners:
        return False
    without = Counter(
        c for v, c in votes.items() if c is not None and v not in tanners and c not in safe
    )
    return max(without.values(), default=0) <= 1


def _both(names: tuple[str, ...] | list[str]) -> str:
    """The dead as the reasons name them: "Ann and Ben", "Ann and Ben and Cat"."""
    text = names[0]
    for name in names[1:]:
        text = listing([text, name])
    return text


def _unkillable(night: NightResult, votes: Mapping[str, str | None]) -> set[str]:
    """Who cannot die today: a Prince (rules/002 s7, the Bonus Pack) and whoever a Bodyguard
    votes for (Daybreak), by the roles played at dawn (docs/rules.md, Daybreak: the vote)."""
    safe: set[str] = set()
    for player in night.deal.players:
        role = night.plays_as(player)
        if role is Role.PRINCE:
            safe.add(player)
        elif role is Role.BODYGUARD and votes.get(player) is not None:
            target = votes[player]
            assert target is not None
            safe.add(target)
    return safe


def tally_votes(night: NightResult, votes: Mapping[str, str | None]) -> VoteResult:
    """Count the votes and apply the tie, Tanner and Hunter rules to find the dead (and
    Daybreak's Bodyguard and the Prince: the protected are passed over)."""
    players = night.deal.players
    checked = validate_votes(players, votes)
    counts = Counter(c for c in checked.values() if c is not None)
    if night.marks:
        # Vampire's cards (docs/rules.md 8b.6): the Master, the Epic Battle, the lovers.
        count = count_with_marks(night, checked)
        return VoteResult(
            votes=checked,
            counts=dict(counts),
            lynched=count.lynched,
            hunted=count.hunted,
            dead=count.dead,
            reason=count.reason,
            lovers=count.lovers,
            epic=count.epic,
        )
    safe = _unkillable(night, checked)
    most = max(counts.values(), default=0)
    passed_over = [p for p in players if p in safe and counts[p] == most]
    top = max((n for p, n in counts.items() if p not in safe), default=0)
    if top <= 1:
        lynched: tuple[str, ...] = ()
        reason = _("Nobody had more than one vote, so nobody was lynched.")
        if passed_over and most > 1:
            reason = _(
                "The most voted cannot be killed and nobody else had more than one vote,"
                " so nobody was lynched."
            )
    elif _tanner_cannot_break_tie(night, checked, safe):
        lynched = ()
        reason = _(
            "No werewolf was at the table and only the Tanner's vote broke the tie,"
            " which the house rules do not allow: nobody was lynched."
        )
    else:
        lynched = tuple(p for p in players if counts[p] == top and p not in safe)
        # Translators: %(names)s are the players lynched, %(count)d the votes each had.
        reason = ngettext(
            "%(names)s had the most votes (%(count)d) and was lynched.",
            "%(names)s had the most votes (%(count)d) and were lynched.",
            len(lynched),
        ) % {"names": _both(lynched), "count": top}
    if passed_over and most > 1:
        # Translators: precedes the sentence on who was lynched (Daybreak's Bodyguard, Prince).
        spared = _("%(names)s could not be killed and was passed over.") % {
            "names": _both(passed_over)
        }
        reason = f"{spared} {reason}"
    dead = set(lynched)
    hunted: list[str] = []
    queue = list(lynched)
    while queue:
        shooter = queue.pop(0)
        target = checked[shooter]
        if (
            night.plays_as(shooter) is Role.HUNTER
            and target is not None
            and target not in dead
            and target not in safe
        ):
            dead.add(target)
            hunted.append(target)
            queue.append(target)
    if hunted:
        # Translators: follows the sentence on who was lynched; %(names)s who the shot killed.
        shot = _("The hunter's shot took %(names)s too.") % {"names": _both(hunted)}
        reason = f"{reason} {shot}"
    return VoteResult(
        votes=checked,
        counts=dict(counts),
        lynched=lynched,
        hunted=tuple(hunted),
        dead=tuple(p for p in players if p in dead),
        reason=reason,
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won. `teams`: the winning teams; `winners`: the winning players in seat order;
    `reason`: one line from the rules saying why."""

    teams: frozenset[Team]
    winners: tuple[str, ...]
    reason: str


def decide_outcome(
    night: NightResult, dead: tuple[str, ...], votes: Mapping[str, str | None] | None = None
) -> Outcome:
    """The winners from the FINAL roles and the dead (rules/000 s2 and s6c, rules/002 s6).

    With Vampire's cards (the night has marks) the teams and marks of docs/rules.md 8b.6
    decide, the Epic Battle included, and `votes` names who voted for the Mark of Disease."""
    if night.marks:
        teams, winners, reason = outcome_with_marks(night, dead, votes or {}, is_epic(night))
        return Outcome(teams=teams, winners=winners, reason=reason)
    players = night.deal.players
    house = night.deal.ruleset is Ruleset.HOUSE
    role = {p: night.plays_as(p) for p in players}
    # Teams by the role played at dawn (a Doppelganger that copied nothing: the town's).
    team = {p: ROLES[role[p]].team for p in players}
    died = set(dead)
    tanner_died = any(role[p] is Role.TANNER for p in died)
    wolves = [p for p in players if is_werewolf(role[p])]
    minions = [p for p in players if role[p] is Role.MINION]
    reasons: list[str] = []
    won: set[Team] = set()

    if house and not wolves and minions:
        # rules/000 s6c (house): with no werewolf at dawn the minion counts as one.
        wolves = minions
        reasons.append(_("No player ended the night as a werewolf, so the minion counted as one."))

    if wolves:
        if died & set(wolves):
            won.add(Team.TOWN)
            reasons.append(_("A werewolf died, so the town won."))
        elif tanner_died:
            reasons.append(_("The Tanner died, so the werewolf team lost."))
        else:
            won.add(Team.WEREWOLF)
            reasons.append(_("No werewolf died, so the werewolf team won."))
    else:
        if not died:
            won.add(Team.TOWN)
            reasons.append(_("No player was a werewolf and nobody died, so the town won."))
        else:
            reasons.append(_("No player was a werewolf, yet someone died, so the town lost."))
        if not house and minions:
            # rules/002 s6: with no werewolf, the minion wins if another player dies while the
            # minion and the Tanner survive.
            minion_alive = not died & set(minions)
            if died - set(minions) and minion_alive and not tanner_died:
                won.add(Team.WEREWOLF)
                reasons.append(
                    _("The minion survived while another player died, so the minion won.")
                )
    if tanner_died:
        won.add(Team.TANNER)
        reasons.insert(0, _("The Tanner died and won."))

    # Each Tanner wins only by their own death (a Doppelganger-tanner is a second, separate one).
    winners = tuple(
        p for p in players if team[p] in won and (team[p] is not Team.TANNER or p in died)
    )
    if not won:
        reasons.append(_("Nobody won."))
    return Outcome(teams=frozenset(won), winners=winners, reason=" ".join(reasons))
