"""The game's story in words: what a seat was told each night, what each phase showed the
table, and the record at the end (each player's choices, what each was told, each vote, each
death with the rule behind it). The seats' pages and the moderator's screen read them alike.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.tables.citing import Cited

from . import names
from .engine.causes import described
from .engine.report import PhaseReport
from .engine.view import PublicPhase


def told_lines(info: Mapping[str, object]) -> list[str]:
    """A night's private result in words."""
    lines = []
    seen = info.get("seen")
    if isinstance(seen, dict):
        lines += [
            _("%(player)s shows as: %(appearance)s.")
            % {"player": who, "appearance": names.appearance(what)}
            for who, what in seen.items()
        ]
    if "protected" in info:
        protected = {"player": info["protected"]}
        if info.get("attacked"):
            lines.append(
                _("You protected %(player)s, and they were attacked: you saved them.") % protected
            )
        else:
            lines.append(_("You protected %(player)s, who was not attacked.") % protected)
    if info.get("saved_from_attack"):
        lines.append(_("The werewolves attacked you, but someone protected you."))
    if "attack_blocked" in info:
        lines.append(
            _("The attack on %(player)s was blocked by a protector.")
            % {"player": info["attack_blocked"]}
        )
    if "werewolves" in info:
        werewolves = info["werewolves"]
        assert isinstance(werewolves, list | tuple)  # names (abilities._meet_pack)
        pack = names.joined(werewolves)
        dark = info.get("dark_villager")
        if dark:
            lines.append(
                _("The werewolves are %(players)s. The dark villager is %(player)s.")
                % {"players": pack, "player": dark}
            )
        else:
            lines.append(_("The werewolves are %(players)s.") % {"players": pack})
    if "cultists" in info:
        cultists = info["cultists"]
        assert isinstance(cultists, list | tuple)  # names (abilities._meet_cult)
        cult = names.joined(cultists)
        lines.append(_("The cultists are %(players)s.") % {"players": cult})
    if "attacked" in info and "protected" not in info:
        victim = info["attacked"]
        lines.append(
            _("The werewolves attacked %(player)s tonight.") % {"player": victim}
            if victim
            else _("The werewolves attacked nobody tonight.")
        )
    return lines


def public_lines(phase: PublicPhase) -> list[str]:
    lines = []
    if phase.dead:
        dead = [
            # Translators: a dead player and the role shown at their death.
            _("%(player)s (%(role)s)") % {"player": p, "role": names.role(phase.revealed[p])}
            if p in phase.revealed
            else p
            for p in phase.dead
        ]
        lines.append(_("Died: %(players)s.") % {"players": names.joined(dead)})
    if phase.injured:
        lines.append(_("Injured: %(players)s.") % {"players": names.joined(phase.injured)})
    if phase.silenced:
        lines.append(_("Silenced: %(player)s.") % {"player": phase.silenced})
    if phase.tally is not None:
        # Translators: a vote's tally had no votes at all.
        tally = names.tally(phase.tally) or pgettext("votes", "none")
        if phase.eliminated:
            lines.append(
                _("Votes: %(votes)s; %(player)s voted out.")
                % {"votes": tally, "player": phase.eliminated}
            )
        else:
            lines.append(_("Votes: %(votes)s; nobody voted out.") % {"votes": tally})
    for accused, yes, no, executed in phase.calls:
        words = {"player": accused, "yes": yes, "no": no}
        if executed:
            lines.append(_("Call on %(player)s: %(yes)s yes, %(no)s no, executed.") % words)
        else:
            lines.append(_("Call on %(player)s: %(yes)s yes, %(no)s no, acquitted.") % words)
    if phase.idiot_revealed:
        lines.append(_("%(player)s was revealed as the idiot.") % {"player": phase.idiot_revealed})
    return lines


# What a seat's night choice was, for the record at the end ("kill Ann").
CHOICES = {
    "kill": gettext_lazy("kill %(player)s"),
    "see": gettext_lazy("see %(player)s"),
    "protect": gettext_lazy("protect %(player)s"),
    "maul": gettext_lazy("maul %(player)s"),
    "trap": gettext_lazy("trap %(player)s"),
    "charm": gettext_lazy("charm %(player)s"),
    "poison": gettext_lazy("poison %(player)s"),
    "check": gettext_lazy("check %(player)s"),
    "guard": gettext_lazy("guard %(player)s"),
    "silence": gettext_lazy("silence %(player)s"),
}


def _choice(choice: Mapping[str, object]) -> str:
    parts = []
    for key, target in choice.items():
        if key == "save":
            parts.append(_("save the victim"))
        elif key in CHOICES:
            parts.append(str(CHOICES[key]) % {"player": names.player(str(target))})
        else:
            # Translators: a night's choice for the record: the ability's key and its target.
            parts.append(_("%(ability)s %(player)s") % {"ability": key, "player": target})
    return names.joined(parts)


def record_lines(report: PhaseReport, ruleset: str) -> list[Cited]:
    """Everything that happened in a phase (the moderator's log): each player's choices, what
    each was told, each vote, and each death, its rule kept apart for the log's "why?"."""
    return _record(report, ruleset)


def story_lines(report: PhaseReport, ruleset: str) -> list[Cited]:
    """A phase of the story told at the end (issue 38 item 4): who the werewolves attacked and
    who was saved, then each player's choices and what each was told, the votes as they fell
    and their result, and each death with its cause; each line's rule kept apart (`Cited`), the
    section of the game's own document."""
    return _headline(report) + _record(report, ruleset, story=True)


def _headline(report: PhaseReport) -> list[Cited]:
    """The night's attack and whether it failed; the day's vote result."""
    lines: list[Cited] = []
    victim = report.attacked
    if report.phase.kind == "night" and victim:
        lines.append(Cited(_("The werewolves attacked %(player)s.") % {"player": victim}))
        if victim not in report.dead:
            savers = [
                p
                for p, info in report.told.items()
                if info.get("protected") == victim and info.get("attacked")
            ] + [p for p, choice in report.actions.items() if choice.get("save")]
            if savers:
                lines.append(
                    Cited(
                        _("%(savers)s saved %(player)s: the attack failed.")
                        % {"savers": names.joined(savers), "player": victim}
                    )
                )
            else:
                lines.append(Cited(_("%(player)s survived the attack.") % {"player": victim}))
    if report.tally is not None:
        if report.eliminated:
            lines.append(Cited(_("%(player)s was voted out.") % {"player": report.eliminated}))
        else:
            lines.append(Cited(_("Nobody was voted out.")))
    for call in report.calls:
        words = {"player": call.accused, "yes": call.yes, "no": call.no}
        if call.executed:
            lines.append(Cited(_("Call on %(player)s: %(yes)s yes, %(no)s no, executed.") % words))
        else:
            lines.append(Cited(_("Call on %(player)s: %(yes)s yes, %(no)s no, acquitted.") % words))
    return lines


def _record(report: PhaseReport, ruleset: str, *, story: bool = False) -> list[Cited]:
    lines = [
        # Translators: a player's night choices, for the record at the end ("Ann: kill Ben.").
        _("%(player)s: %(choices)s.") % {"player": player, "choices": _choice(choice)}
        for player, choice in report.actions.items()
    ]
    for player, info in report.told.items():
        lines += [
            _("%(player)s learned: %(line)s") % {"player": player, "line": line}
            for line in told_lines(info)
        ]
    if report.sheriff_votes:
        lines.append(_("Sheriff votes: %(votes)s.") % {"votes": _ballots(report.sheriff_votes)})
    if report.votes:
        lines.append(_("Votes: %(votes)s.") % {"votes": _ballots(report.votes)})
    cited = [Cited(line) for line in lines]
    for player in report.dead:
        text, section = described(report.deaths[player].cause, ruleset)
        words = {"player": player, "cause": names.text(text)}
        if story:
            # Translators: a death in the story at the end ("Cat died: attacked by the
            # werewolves.").
            cited.append(Cited(_("%(player)s died: %(cause)s.") % words, section))
        else:
            # Translators: how a player died ("attacked by the werewolves").
            cited.append(Cited(_("%(player)s %(cause)s.") % words, section))
    return cited


def _ballots(votes: Mapping[str, str | None]) -> str:
    """Each voter and their vote ("Ann for Ben, Cat for nobody")."""
    return names.joined(
        [
            # Translators: one voter and the player they voted for.
            _("%(voter)s for %(player)s") % {"voter": v, "player": names.player(t)}
            for v, t in votes.items()
        ]
    )
