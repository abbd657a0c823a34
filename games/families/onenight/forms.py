"""The night-action form each seat's page offers (templates/onenight/panel.html), built from
its start card's rule (engine/actions.py) and what it sent so far: every choice one the night
accepts. Players are offered by seat id and centre cards by their place, never by name (issue
25); Vampire's forms add the Gremlin's "marks" or "cards" and the Marksman's "-" (docs/rules.md
8b.7). `panels` puts the form in the seat's view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .engine import (
    CENTRE_POSITIONS,
    ActionRule,
    Requirement,
    Role,
    RuleError,
)
from .engine.actions import CHECKS
from .engine.dusk import neighbours
from .hold import copy_held
from .play import NOBODY, OneNightState, copier, named_targets, step_rule


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a night-action form: `value` is posted, `label` is shown."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class Select:
    """One select of a "selects" form, posted as a `targets` value in its order. `blank`: it
    starts empty and must be picked; else its first choice is picked already (the Marksman's
    "-")."""

    label: str
    choices: tuple[Choice, ...]
    blank: bool = True


@dataclass(frozen=True, slots=True)
class ActionForm:
    """The night-action form for this seat. `kind`: "choice" (one radio list), "pair" (two
    selects of other players), "selects" (Vampire's: a radio list of `words` first if any, then
    each of `selects` in order, sent with `button`), "copy" (a copier's first step: the
    Doppelganger's player, the Copycat's centre card) or "none" (acknowledge). `layout`: what a
    "choice" form's values are where they are not one card each (the bot's night letter says
    how to type them): "direction" (the Village Idiot's `left` or `right`), "centre_then_player"
    (the Witch's "left,12") or "looks" (the Paranormal Investigator's one player or "12,15").
    """

    kind: str
    prompt: str
    choices: tuple[Choice, ...] = ()
    allow_none: bool = True
    copied: Role | None = None
    words: tuple[Choice, ...] = ()
    selects: tuple[Select, ...] = ()
    button: str = ""
    layout: str = ""


# A centre card offered in the night-action form.
CENTRE_CHOICES = {
    "left": gettext_lazy("The left centre card"),
    "middle": gettext_lazy("The middle centre card"),
    "right": gettext_lazy("The right centre card"),
}
CENTRE_PAIRS = {
    ("left", "middle"): gettext_lazy("The left and middle centre cards"),
    ("left", "right"): gettext_lazy("The left and right centre cards"),
    ("middle", "right"): gettext_lazy("The middle and right centre cards"),
}


# Vampire's Gremlin swaps two players' marks or their cards (docs/rules.md 8b.4).
GREMLIN_WORDS = {
    # Translators: the gremlin's choice: what it swaps between the two players it names.
    "marks": gettext_lazy("their marks"),
    "cards": gettext_lazy("their cards"),
}

# Daybreak's village idiot moves the cards one way or the other.
DIRECTIONS = {
    # Translators: the village idiot's choice: every other card moves one seat that way.
    "left": gettext_lazy("every other card one seat to the left"),
    "right": gettext_lazy("every other card one seat to the right"),
}


def _passes(state: OneNightState, me: str, rule: ActionRule, value: str) -> bool:
    targets = tuple(named_targets(state, [value]))
    try:
        CHECKS[rule.check or ""](state.deal, me, rule, targets)
    except RuleError:
        return False
    return True


def _card_of(name: str, own: bool) -> str:
    # Translators: a player's card, by the player's name.
    return _("your own card") if own else _("%(player)s's card") % {"player": name}


def action_form(
    state: OneNightState, me: str, action: Mapping[str, Any] | None
) -> ActionForm | None:
    """The form for this seat's start role (None: its action is in). Players are offered by
    seat id and centre cards by position: a name is never posted (issue 25)."""
    if action is not None and action["complete"]:
        return None
    if copy_held(state, me):
        # docs/rules.md 8a.10: the copied card is not shown yet, nor its role's form.
        return None
    deal = state.deal
    others = [(i, n) for i, n in state.players if n != me]
    card = copier(deal, me)
    if card is Role.DOPPELGANGER and action is None:
        return ActionForm(
            kind="copy",
            prompt=_("Choose the player whose card you copy."),
            choices=tuple(Choice(str(i), n) for i, n in others),
        )
    if card is Role.COPYCAT and action is None:
        # Vampire (8b.4): a centre card first, which it must look at; then the copy's action.
        return ActionForm(
            kind="copy",
            prompt=_("Choose the centre card you look at: you become that role."),
            choices=tuple(Choice(c, str(CENTRE_CHOICES[c])) for c in CENTRE_POSITIONS),
            allow_none=False,
        )
    sent = list(action["targets"]) if action else []
    # A copier's second step shows the card it copied, and its form is the copy's.
    copied = deal.cards[sent[0]] if card is not None and sent else None
    rule = step_rule(deal, me, sent)
    if rule.requirement is Requirement.NONE:
        if card is Role.COPYCAT:
            # The engine's words for a copy that acts no further are the Doppelganger's.
            prompt = _("The role you copied has nothing to do tonight. Send “no action”.")
            return ActionForm(kind="none", prompt=prompt, copied=copied)
        return ActionForm(kind="none", prompt=rule.description, copied=copied)
    if rule.aim is not None:
        return _aim_form(state, me, rule, copied)
    choices: list[Choice] = []
    pair = False
    layout = ""
    me_id = next(i for i, n in state.players if n == me)
    for shape in rule.shapes:
        if rule.words:
            # Daybreak's village idiot: a direction, not a card.
            choices += [Choice(w, str(DIRECTIONS[w])) for w in rule.words]
            layout = "direction"
        elif shape.players == 1 and shape.centre == 1:
            # Daybreak's witch: a centre card, then the player whose card it swaps with.
            layout = "centre_then_player"
            choices += [
                Choice(f"{c},{i}", _("%(centre)s, swapped with %(card)s")
                       % {"centre": CENTRE_CHOICES[c], "card": _card_of(n, n == me)})
                for c in CENTRE_POSITIONS
                for i, n in [*others, (me_id, me)]
            ]  # fmt: skip
        elif shape.players == 2 and rule.role is Role.PARANORMAL_INVESTIGATOR:
            # Daybreak: two looks, in order (the second only if the first is no werewolf).
            layout = "looks"
            choices += [
                Choice(f"{i},{j}", _("%(first)s, then %(second)s")
                       % {"first": _card_of(n, False), "second": _card_of(m, False)})
                for i, n in others
                for j, m in others
                if i != j
            ]  # fmt: skip
        elif shape.players == 1:
            # Translators: a player's card, by the player's name.
            choices += [Choice(str(i), _("%(player)s's card") % {"player": n}) for i, n in others]
            if rule.self_ok:
                choices.append(Choice(str(me_id), _("your own card")))
        elif shape.players == 2:
            pair = True
        elif shape.centre == 1:
            choices += [Choice(c, str(CENTRE_CHOICES[c])) for c in CENTRE_POSITIONS]
        elif shape.centre == 2:
            choices += [
                Choice(f"{a},{b}", str(CENTRE_PAIRS[a, b]))
                for a, b in combinations(CENTRE_POSITIONS, 2)
            ]
        else:
            # A new shape in a role record needs its form here (no silent empty list).
            raise LookupError(f"no night-action form for {shape} ({rule.role.value})")
    if rule.check is not None:
        # A rule with a further check (Daybreak's alpha wolf spares the werewolves): offer
        # only what passes it.
        choices = [c for c in choices if _passes(state, me, rule, c.value)]
    allow_none = rule.requirement is not Requirement.MANDATORY
    if pair:
        return ActionForm(
            kind="pair",
            prompt=rule.description,
            choices=tuple(Choice(str(i), n) for i, n in others),
            allow_none=allow_none,
            copied=copied,
        )
    return ActionForm(
        kind="choice",
        prompt=rule.description,
        choices=tuple(choices),
        allow_none=allow_none,
        copied=copied,
        layout=layout,
    )


def _aim_form(state: OneNightState, me: str, rule: ActionRule, copied: Role | None) -> ActionForm:
    """Vampire's forms (docs/rules.md 8b.7), by the rule's `aim` (`actions.check_aim`): players
    by seat id, in the order the engine reads them; "-" the Marksman's "nobody", "marks" or
    "cards" the Gremlin's word. Every choice is one the night accepts."""
    everyone = [(i, n) for i, n in state.players]
    others = [(i, n) for i, n in everyone if n != me]
    pool = everyone if rule.self_ok else others

    def players(seats: list[tuple[int, str]]) -> tuple[Choice, ...]:
        return tuple(Choice(str(i), _("yourself") if n == me else n) for i, n in seats)

    allow_none = rule.requirement is not Requirement.MANDATORY
    selects: tuple[Select, ...] = ()
    words: tuple[Choice, ...] = ()
    button = _("Send my choices")
    if rule.aim == "count":
        # The Count: the vampires' pick, then the player for the Mark of Fear.
        selects = (
            Select(_("The vampires' pick"), players(others)),
            Select(_("The Mark of Fear"), players(others)),
        )
    elif rule.aim == "card_and_mark":
        # The Marksman: one player's card, another player's mark; "-" for none of either.
        nobody = (Choice(NOBODY, _("nobody")),)
        selects = (
            Select(_("Look at the card of"), nobody + players(others), blank=False),
            Select(_("Look at the mark of"), nobody + players(others), blank=False),
        )
        button = _("Look")
    elif rule.aim == "marks_or_cards":
        # The Gremlin: "marks" or "cards" first, then two players (himself allowed).
        words = tuple(Choice(w, str(GREMLIN_WORDS[w])) for w in rule.words)
        selects = (
            Select(_("First player"), players(pool)),
            Select(_("Second player"), players(pool)),
        )
        button = _("Swap them")
    elif rule.shapes[0].players == 2:
        # Cupid: two players or none, himself allowed.
        selects = (
            Select(_("First player"), players(pool)),
            Select(_("Second player"), players(pool)),
        )
        button = _("Make them lovers") if rule.role is Role.CUPID else button
    else:
        # One player: the vampires' pick, the Diseased's neighbour, the Instigator, Priest,
        # Pickpocket, Assassin and Apprentice Assassin.
        if rule.aim == "neighbour":
            near = neighbours(state.deal.players, me)
            pool = [(i, n) for i, n in everyone if n in near]
        return ActionForm(
            kind="choice",
            prompt=rule.description,
            choices=players(pool),
            allow_none=allow_none,
            copied=copied,
        )
    return ActionForm(
        kind="selects",
        prompt=rule.description,
        allow_none=allow_none,
        copied=copied,
        words=words,
        selects=selects,
        button=button,
    )
