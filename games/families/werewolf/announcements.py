"""What the whole table is told as a game goes on: the app's notes in the public chat.

Only public facts: a phase begins, who died (with the role where the ruleset reveals it:
rules/001; never the cause in rules/004, which announces "the death list without revealing
cause"), the morning's injuries (rules/003), the silenced player, a day ability used in front
of everyone (a crossbow, a duel, an explosion, a hunter's shot), the votes' results, the
sheriff, the idiot's reveal, the end. Private facts (night actions, what a seer learned) are
never here.
"""

from __future__ import annotations

from collections.abc import Iterable

from .engine import Game
from .engine.events import (
    AbilityUsed,
    BadgePassed,
    CallDecided,
    Died,
    Event,
    GameWon,
    IdiotRevealed,
    Injured,
    PhaseBegan,
    RoleRevealed,
    SheriffElected,
    Silenced,
    VotesCounted,
)

PUBLIC_ACTS = {
    "shoot": "{player} shoots {target}.",
    "duel": "{player} challenges {target} to a duel.",
    "explode": "{player} reveals themselves as a werewolf and explodes.",
}


def _tally(tally: dict[str, float]) -> str:
    parts = [f"{name} {int(n) if float(n).is_integer() else n}" for name, n in tally.items()]
    return ", ".join(parts) or "no votes"


def announce(events: Iterable[Event], game: Game) -> list[str]:
    """The public notes for `events`, in order."""
    ruleset = game.setup.ruleset.name
    notes: list[str] = []
    revealed: dict[str, str] = {}
    events = list(events)
    for event in events:
        if isinstance(event, RoleRevealed):
            revealed[event.player] = event.role.replace("_", " ")
    for event in events:
        match event:
            case PhaseBegan(phase=phase):
                notes.append(f"{phase.kind.capitalize()} {phase.number} begins.")
            case Died(player=player, cause="smite"):
                notes.append(f"Fate strikes {player} down.")
            case Died(player=player):
                role = revealed.get(player)
                notes.append(f"{player} died" + (f": they were the {role}." if role else "."))
            case Injured(players=players) if players:
                notes.append(f"Injured this morning: {', '.join(players)}.")
            case Silenced(target=target) if target and ruleset == "classic":
                notes.append(f"{target} is silenced today.")
            case AbilityUsed(player=player, ability=ability, target=target) if (
                ability in PUBLIC_ACTS
            ):
                # Acts done in front of everyone: a crossbow or a dead hunter's shot, a duel,
                # an explosion (no night ability has these names).
                notes.append(PUBLIC_ACTS[ability].format(player=player, target=target))
            case VotesCounted(tally=tally, eliminated=eliminated):
                result = f"{eliminated} is voted out." if eliminated else "Nobody is voted out."
                notes.append(f"The vote: {_tally(dict(tally))}. {result}")
            case CallDecided(accused=accused, yes=yes, no=no, executed=executed):
                verdict = "executed" if executed else "acquitted"
                notes.append(f"The call on {accused}: {yes} yes, {no} no: {verdict}.")
            case SheriffElected(player=player):
                notes.append(
                    f"{player} is elected sheriff." if player else "No sheriff is elected."
                )
            case BadgePassed(to=to):
                notes.append(f"The badge passes to {to}." if to else "The badge is lost.")
            case IdiotRevealed(player=player):
                notes.append(f"{player} is the idiot: still in the game, without a vote.")
            case GameWon(outcome=outcome):
                winners = ", ".join(outcome.winners) or "nobody"
                notes.append(f"The game is over. Winner: {outcome.winner} ({winners}).")
    return notes
