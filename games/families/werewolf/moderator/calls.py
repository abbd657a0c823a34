"""The night's calls on the moderator's screen: the pack's choice and each role's, in the
ruleset's calling order, with what is chosen so far and what to show the player (a seer's
answer); the roles whose players are dead, or have nothing left to do, are called all the
same."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from .. import names
from ..engine import NOBODY, Advance, Game, RuleError, apply
from ..engine.forms import Form, forms_for
from ..engine.night import current_victim
from ..engine.report import phase_reports
from ..engine.roles import Timing
from .choices import Choice, choices
from .night import pack_chooses_once

# The order the moderator calls the night's roles in, after the pack's shared choice. rules/004
# III: "Werewolf kill -> Witch use medicine -> Seer check -> Other role skills", then its list;
# rules/001 and rules/003 name no calling order, so the document's order of the roles.
CALL_ORDER: Mapping[str, tuple[str, ...]] = {
    "forum": ("werewolf", "seer", "protector"),
    "oxford": ("werewolf", "wolfsbane", "trapper"),
    "classic": (
        "wolf_beauty",
        "witch",
        "seer",
        "guardian",
        "stone_ghost",
        "silencer",
        "grave_keeper",
    ),
}


@dataclass(frozen=True, slots=True)
class Call:
    """One step of the night as the moderator calls it: a role (or the pack) and one choice."""

    title: str
    players: tuple[str, ...]
    as_seat: int
    key: str
    summary: str
    section: str
    choices: tuple[Choice, ...]
    chosen: str  # the label of the current choice, "" if none
    done: bool
    save: bool = False  # the witch's antidote: yes or no on the victim
    dead: bool = False  # a role called for secrecy only: nothing to enter
    result: str = ""  # what the moderator shows the player (a seer's answer), once chosen
    role: str = ""  # the role called (a call for secrecy is marked done by it)
    victim: str = ""  # for the antidote: whom the pack attacked, even if she may not save them
    chosen_value: str = ""  # the current choice as the form posts it
    skip: str = ""  # the button that leaves the choice unmade ("" where "Nobody" is a choice)
    # What the moderator reads aloud: the role called by its name alone, no player, no rule
    # (issue 38 item 5); "" when the same role is still awake from the call before (the
    # witch's antidote, then her poison) or stays awake for the next.
    role_name: str = ""  # the role's card name, as the table may hear it
    wake: str = ""
    sleep: str = ""


def _label(game: Game, player: str) -> str:
    role = game.setup.roles[player]
    # Translators: a player and their role ("Ann (Seer)").
    return _("%(player)s (%(role)s)") % {"player": player, "role": names.title(role)}


# The button that leaves a night choice unmade, named for what it leaves out: every night
# ability may go unused (docs/rules.md 10 and 13a: no night action is no action).
SKIPS = {
    # Translators: the witch's antidote is not used tonight (table mode).
    "save": gettext_lazy("Do not save"),
    # Translators: the witch's poison is not used tonight (table mode).
    "poison": gettext_lazy("No poison tonight"),
    # Translators: the werewolves kill nobody tonight (table mode).
    "kill": gettext_lazy("No kill tonight"),
}


def _skip(form: Form) -> str:
    """The label of the button that leaves `form` unused ("" where "Nobody" is one of its
    choices: rules/001's pack may forgo its kill, a choice like any other)."""
    if NOBODY in form.targets:
        return ""
    return str(SKIPS.get(form.key, _("Nothing tonight")))


def _seen_now(game: Game, player: str) -> str:
    """What `player` learns tonight with the choices made so far (a seer's answer, shown at
    once at a table): the night played out on a copy, as if it ended now."""
    try:
        after = apply(game, Advance(at_deadline=True))
    except RuleError:
        return ""
    reports = phase_reports(after.setup, after.log)
    night = next((r for r in reversed(reports) if r.phase == game.state.phase), None)
    if night is None:
        return ""
    seen = night.told.get(player, {}).get("seen")
    if not isinstance(seen, dict):
        return ""
    return " ".join(
        _("%(player)s shows as %(appearance)s.")
        % {"player": who, "appearance": names.appearance(what)}
        for who, what in seen.items()
    )


def calls(game: Game, raw: Mapping[str, Any]) -> list[Call]:
    """Tonight's calls in the ruleset's calling order: the pack's choice, each role's, and the
    roles called for secrecy (their players dead, or with nothing left to do: the moderator
    calls them all the same, or the table would learn it)."""
    state = game.state
    setup = game.setup
    seats = raw["seats"]
    addressed = raw.get("addressed") or {}
    called = set(raw.get("called") or ())
    order = CALL_ORDER.get(setup.ruleset.name, ())
    calls: list[tuple[tuple[int, int, int], Call]] = []
    shared_done: set[str] = set()
    roles_called: set[str] = set()
    for player in state.living():
        role = setup.roles[player]
        for index, form in enumerate(forms_for(state, player)):
            if form.kind != "night":
                continue
            shared = pack_chooses_once(game, form)
            if shared:
                if form.key in shared_done:
                    continue
                shared_done.add(form.key)
                members = tuple(
                    p
                    for p in state.living()
                    if any(f.key == form.key and f.group_key for f in forms_for(state, p))
                )
                title = _("The werewolves")
            else:
                members = (player,)
                title = _label(game, player)
                roles_called.add(role.name)
            chosen = state.choices.get(player, {}).get(form.key)
            if form.key == "save":
                # Translators: the witch's antidote is used tonight.
                label, value = (pgettext("antidote", "yes"), "yes") if chosen else ("", "")
            elif chosen == NOBODY:
                label, value = _("Nobody"), NOBODY
            else:
                label = str(chosen or "")
                value = str(seats.get(chosen, "")) if chosen else ""
            done = all(form.key in addressed.get(m, []) for m in members)
            investigates = form.key in ("see", "check") and done and chosen
            victim = current_victim(state) if form.key == "save" else None
            call = Call(
                title=title,
                players=members,
                as_seat=seats[player],
                key=form.key,
                summary=names.text(form.summary),
                section=form.section,
                choices=choices(form, seats),
                chosen=label,
                done=done,
                save=form.key == "save",
                result=_seen_now(game, player) if investigates else "",
                role=role.name,
                victim=victim or "",
                chosen_value=value,
                skip=_skip(form),
                # Translators: the pack as the moderator calls it aloud ("Werewolves, wake up.").
                role_name=_("Werewolves") if shared or form.group_key else names.title(role),
            )
            rank = order.index(role.name) if role.name in order else len(order)
            calls.append(((0 if shared else 1, rank, index), call))
    quiet = (
        state.phase is not None
        and state.phase.number == 1
        and not setup.ruleset.first_night_actions
    )
    for player in () if quiet else setup.players:  # rules/003's first night: nobody acts
        role = setup.roles[player]
        if role.name in roles_called or role.pack is not None:
            continue
        night = [a for a in role.abilities if a.timing is Timing.NIGHT]
        if not night:
            continue
        roles_called.add(role.name)
        living = [p for p in setup.players if setup.roles[p] is role and p in state.alive]
        result = _seen_now(game, living[0]) if living else ""
        summary = (
            names.text(night[0].summary) if living else _("Nobody answers: their players are dead.")
        )
        rank = order.index(role.name) if role.name in order else len(order)
        call = Call(
            title=names.title(role),
            players=tuple(living),
            as_seat=0,
            key="",
            summary=summary,
            section=night[0].section,
            choices=(),
            chosen="",
            done=role.name in called,
            dead=True,
            result=result,
            role=role.name,
            role_name=names.title(role),
        )
        calls.append(((1, rank, 0), call))
    calls.sort(key=lambda ranked: ranked[0])
    return _read_aloud([call for _rank, call in calls])


def _read_aloud(ordered: list[Call]) -> list[Call]:
    """Each call with the words the moderator reads aloud to the table: "Seer, wake up." and
    "Seer, close your eyes.", the role by its card's name only, so the table hears which role
    is called and nothing else (not who holds it, not whether they are alive: the calls for
    secrecy sound the same). A role with two choices in a row wakes once and sleeps once."""
    named = [c.role_name for c in ordered]
    out = []
    for index, call in enumerate(ordered):
        again = index > 0 and named[index - 1] == named[index]
        more = index + 1 < len(ordered) and named[index + 1] == named[index]
        words = {"role": named[index]}
        # Translators: read aloud by the moderator at a table: a role's card name, then this.
        wake = "" if again else _("%(role)s, wake up.") % words
        # Translators: read aloud by the moderator at a table.
        sleep = "" if more else _("%(role)s, close your eyes.") % words
        out.append(replace(call, wake=wake, sleep=sleep))
    return out
