"""What the moderator reads out at daybreak, and tells each player privately."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .. import names
from ..engine import Game
from ..engine.causes import described
from ..engine.report import phase_reports
from ..story import told_lines


def read_out(game: Game, *, awaited: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What to announce at daybreak (the dead, without causes where rules/004 keeps them from
    the table) and what to tell each player privately (last night's results)."""
    reports = phase_reports(game.setup, game.log)
    night = next((r for r in reversed(reports) if r.phase.kind == "night"), None)
    if night is None or game.state.phase is None:
        return (), ()
    if game.state.phase.kind != "day" and not awaited:
        return (), ()
    lines = []
    hide_causes = game.setup.ruleset.name == "classic"  # 004 III: "without revealing cause"
    dead = names.joined(night.dead)
    if night.dead:
        if hide_causes:
            lines.append(_("Last night died: %(players)s.") % {"players": dead})
        else:
            for player in night.dead:
                text, _section = described(night.deaths[player].cause)
                role = night.revealed.get(player)
                words = {"player": player, "cause": names.text(text)}
                if role:
                    words["role"] = names.role(role)
                    # Translators: how a player died ("attacked by the werewolves"), and the
                    # role shown at their death.
                    lines.append(_("%(player)s %(cause)s. They were the %(role)s.") % words)
                else:
                    # Translators: how a player died ("attacked by the werewolves").
                    lines.append(_("%(player)s %(cause)s.") % words)
    else:
        lines.append(_("Nobody died last night."))
    if hide_causes and night.dead:
        # 004 III: "first night deceased must have last words, subsequent depends on rules".
        if night.phase.number == 1:
            lines.append(
                _("Last words: %(players)s (the first night's dead always speak).")
                % {"players": dead}
            )
        else:
            lines.append(_("Last words: %(players)s, if your table allows.") % {"players": dead})
    if night.injured:
        lines.append(
            _("Injured (a telltale wound): %(players)s.") % {"players": names.joined(night.injured)}
        )
    if night.silenced:
        lines.append(_("%(player)s is silenced today.") % {"player": night.silenced})
    tell = tuple(
        # Translators: what the moderator tells a player privately: the player, then the line.
        _("%(player)s: %(line)s") % {"player": player, "line": line}
        for player, info in night.told.items()
        for line in told_lines(info)
    )
    return tuple(lines), tell
