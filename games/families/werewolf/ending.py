"""The end of a multi-night game in words (issue 38 item 4): one sentence saying who won and
why, then the story night by night and day by day (story.py's lines), and, while the game goes
on, what a dead seat is told of its own death.

Who won follows each document's win check (engine/victory.py: 001 "The game continues until",
003 "Winning & Losing", 004 V); the sentence names the deaths of the phase that decided it.
What a dead seat reads of its death is what its page showed everyone (the thread: a vote, an
execution, a death at daybreak): rules/004 announces deaths without causes, so a night's cause
is not told before the end (docs/rules.md, "The end and the dead").
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.tables.citing import Cited

from . import names
from .engine import Game
from .engine.causes import described
from .engine.report import PhaseReport, phase_reports
from .engine.view import PublicPhase
from .story import story_lines

# The section of each document that says when its game ends.
WIN_SECTIONS = {"forum": "001 (the end of the game)", "oxford": "003 Winning & Losing"}


def _win_section(game: Game) -> str:
    ruleset = game.setup.ruleset.name
    if ruleset == "classic":
        return "004 V.2" if game.state.option("victory") == "total" else "004 V.1"
    return WIN_SECTIONS.get(ruleset, "")


def _deaths(report: PhaseReport, players: list[str], ruleset: str) -> str:
    """ "Bo, on day 3 (voted out by the village)", for each of `players` who died then."""
    parts = []
    for player in players:
        cause, _section = described(report.deaths[player].cause, ruleset)
        parts.append(
            # Translators: a death in the end's sentence: who, when, and how.
            _("%(player)s, on %(phase)s (%(cause)s)")
            % {"player": player, "phase": names.phase(report.phase), "cause": names.text(cause)}
        )
    return names.joined(parts)


def end_sentence(game: Game) -> Cited:
    """Who won and why, in one sentence, with the rule that ends the game."""
    state = game.state
    outcome = state.outcome
    section = _win_section(game)
    if outcome is None:
        return Cited(_("The game was stopped before anyone won."))
    setup = game.setup
    ruleset = setup.ruleset.name
    reports = phase_reports(setup, game.log)
    last = next((r for r in reversed(reports) if r.outcome is not None), None)
    died = last.dead if last is not None else []
    winner = outcome.winner
    if winner == "none":
        return Cited(_("Nobody wins: nobody is left alive."), section)
    if winner == "lovers":
        return Cited(
            _("The lovers win: %(players)s are the last two alive, and in love.")
            % {"players": names.joined(list(outcome.winners))},
            section,
        )
    if winner == "lunatic":
        lunatics = [p for p in died if setup.side(p) == "lunatic"]
        if last is not None and lunatics:
            return Cited(
                _("The lunatic wins: the lunatic died — %(deaths)s.")
                % {"deaths": _deaths(last, lunatics, ruleset)},
                section,
            )
        return Cited(_("The lunatic wins: the lunatic died."), section)
    if winner in ("village", "good"):
        wolves = [p for p in died if setup.side(p) == "werewolves"]
        if last is not None and wolves:
            deaths = {"deaths": _deaths(last, wolves, ruleset)}
            if winner == "good":  # rules/004's name for the side
                return Cited(
                    ngettext(
                        "The good camp wins: the last werewolf died — %(deaths)s.",
                        "The good camp wins: the last werewolves died — %(deaths)s.",
                        len(wolves),
                    )
                    % deaths,
                    section,
                )
            return Cited(
                ngettext(
                    "The village wins: the last werewolf died — %(deaths)s.",
                    "The village wins: the last werewolves died — %(deaths)s.",
                    len(wolves),
                )
                % deaths,
                section,
            )
        if winner == "good":
            return Cited(_("The good camp wins: no werewolf is left alive."), section)
        return Cited(_("The village wins: no werewolf is left alive."), section)
    # The werewolves: the reason their document gives.
    if ruleset == "forum":
        reason = _("they are now as many as everyone else alive")
    elif ruleset == "oxford":
        reason = _("their votes now match everyone else's, and no loaded crossbow is left")
    elif state.option("victory") == "total":
        reason = _("the whole good camp is out")
    elif _all_out(game, "divine"):
        reason = _("every divine role is out")
    elif _all_out(game, "commoner"):
        reason = _("every commoner is out")
    else:
        reason = _("every divine role or every commoner is out")
    if last is not None and died:
        return Cited(
            _("The werewolves win: %(reason)s, after %(deaths)s.")
            % {"reason": reason, "deaths": _deaths(last, died, ruleset)},
            section,
        )
    return Cited(_("The werewolves win: %(reason)s.") % {"reason": reason}, section)


def _all_out(game: Game, group: str) -> bool:
    """Whether a group of rules/004's good camp was dealt and is all out (004 V.1)."""
    dealt = game.setup.dealt(group=group)
    return bool(dealt) and not any(p in game.state.alive for p in dealt)


def story(game: Game) -> tuple[tuple[str, tuple[Cited, ...]], ...]:
    """Everything that happened, night by night and day by day, each death with its cause and
    its rule (shown at the end only)."""
    ruleset = game.setup.ruleset.name
    quiet = (Cited(_("Nobody died.")),)  # a phase where nothing was chosen nor happened
    return tuple(
        (names.phase(r.phase), tuple(story_lines(r, ruleset)) or quiet)
        for r in phase_reports(game.setup, game.log)
    )


def own_death(player: str, thread: tuple[PublicPhase, ...]) -> str:
    """What a dead seat is told of its death while the game goes on: when, and how only where
    the whole table saw it (a vote, an execution)."""
    for phase in thread:
        if player not in phase.dead:
            continue
        when = {"phase": names.phase(phase.phase)}
        if phase.eliminated == player:
            return _("You were voted out by the village on %(phase)s.") % when
        if any(accused == player and executed for accused, _y, _n, executed in phase.calls):
            return _("You were executed by the village on %(phase)s.") % when
        if phase.phase.kind == "night":
            return _("You died during %(phase)s.") % when
        return _("You died on %(phase)s.") % when
    return _("You have died.")
