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

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import names
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
    # Translators: a day ability used in front of everyone: a crossbow or a dying hunter's shot.
    "shoot": gettext_lazy("%(player)s shoots %(target)s."),
    "duel": gettext_lazy("%(player)s challenges %(target)s to a duel."),
    "explode": gettext_lazy("%(player)s reveals themselves as a werewolf and explodes."),
}


def announce(events: Iterable[Event], game: Game) -> list[str]:
    """The public notes for `events`, in order (in the language active: the caller makes it
    the site's, `language.shared()`, as the notes are stored once for every reader)."""
    ruleset = game.setup.ruleset.name
    notes: list[str] = []
    revealed: dict[str, str] = {}
    events = list(events)
    for event in events:
        if isinstance(event, RoleRevealed):
            revealed[event.player] = names.role(event.role)
    for event in _deaths_in_seat_order(events, game):
        match event:
            case PhaseBegan(phase=phase):
                if phase.kind == "night":
                    notes.append(_("Night %(number)d begins.") % {"number": phase.number})
                else:
                    notes.append(_("Day %(number)d begins.") % {"number": phase.number})
            case Died(player=player, cause="smite"):
                notes.append(_("Fate strikes %(player)s down.") % {"player": player})
            case Died(player=player):
                role = revealed.get(player)
                if role:
                    notes.append(
                        _("%(player)s died: they were the %(role)s.")
                        % {"player": player, "role": role}
                    )
                else:
                    notes.append(_("%(player)s died.") % {"player": player})
            case Injured(players=players) if players:
                notes.append(
                    _("Injured this morning: %(players)s.") % {"players": names.joined(players)}
                )
            case Silenced(target=target) if target and ruleset == "classic":
                notes.append(_("%(player)s is silenced today.") % {"player": target})
            case AbilityUsed(player=player, ability=ability, target=target) if (
                ability in PUBLIC_ACTS
            ):
                # Acts done in front of everyone: a crossbow or a dead hunter's shot, a duel,
                # an explosion (no night ability has these names).
                notes.append(str(PUBLIC_ACTS[ability]) % {"player": player, "target": target})
            case VotesCounted(tally=tally, eliminated=eliminated):
                votes = names.tally(dict(tally)) or _("no votes")
                if eliminated:
                    notes.append(
                        _("The vote: %(votes)s. %(player)s is voted out.")
                        % {"votes": votes, "player": eliminated}
                    )
                else:
                    notes.append(_("The vote: %(votes)s. Nobody is voted out.") % {"votes": votes})
            case CallDecided(accused=accused, yes=yes, no=no, executed=executed):
                words = {"player": accused, "yes": yes, "no": no}
                if executed:
                    notes.append(
                        _("The call on %(player)s: %(yes)s yes, %(no)s no: executed.") % words
                    )
                else:
                    notes.append(
                        _("The call on %(player)s: %(yes)s yes, %(no)s no: acquitted.") % words
                    )
            case SheriffElected(player=player):
                if player:
                    notes.append(_("%(player)s is elected sheriff.") % {"player": player})
                else:
                    notes.append(_("No sheriff is elected."))
            case BadgePassed(to=to):
                if to:
                    notes.append(_("The badge passes to %(player)s.") % {"player": to})
                else:
                    notes.append(_("The badge is lost."))
            case IdiotRevealed(player=player):
                notes.append(
                    _("%(player)s is the idiot: still in the game, without a vote.")
                    % {"player": player}
                )
            case GameWon(outcome=outcome):
                words = {"side": names.side(outcome.winner)}
                if outcome.winners:
                    words["winners"] = names.joined(outcome.winners)
                    notes.append(_("The game is over. Winner: %(side)s (%(winners)s).") % words)
                else:
                    notes.append(_("The game is over. Winner: %(side)s (nobody).") % words)
    return notes


def _deaths_in_seat_order(events: list[Event], game: Game) -> list[Event]:
    """`events` with each run of deaths told in seat order, as the story shows them: the
    engine emits a death that follows from another (a lover's grief, the wolf beauty's charm)
    after it, so announcing them as they come would tell the table which death caused which,
    and with it a role (rules/004 announces "the death list without revealing cause"). Fate's
    smite is an act in front of everyone and keeps its place; a role shown at death (rules/001)
    is read before (it is public with its death)."""
    seats = game.setup.seats

    def in_seat_order(deaths: list[Died]) -> list[Died]:
        return sorted(deaths, key=lambda died: seats[died.player])

    out: list[Event] = []
    run: list[Died] = []
    for event in events:
        if isinstance(event, Died) and event.cause != "smite":
            run.append(event)
            continue
        if isinstance(event, RoleRevealed):
            continue
        out += in_seat_order(run)
        run = []
        out.append(event)
    return out + in_seat_order(run)
