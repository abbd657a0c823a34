"""One Night by chat: the night actions the engine reads by their aim (docs/rules.md 8b.3, "What
they send"; issue 42), and the Copycat's two steps.

Vampire's marking roles send more than "a player or a centre card": the Count two names in
order (the vampires' pick, then the Mark of Fear), the Marksman a card then a mark with "-" for
none, the Gremlin "marks" or "cards" and two players, the Copycat a centre card first and then
the copied role's action. The seat's page posts them as fixed fields; here a `!target`'s words
are read into the same fields, and each step's syntax is written out for the night letter. The
step is the seat's own rule (engine `action_rule` and the copiers' rules), so the reading does
not depend on how a page draws its form. Anything else keeps the form's reading (chat.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.tables.family import SeatInfo, TableInfo
from games.tables.said import SEPARATORS
from games.words import listing

from .engine import CENTRE_POSITIONS, ActionRule, Requirement, Role, action_rule
from .engine.dusk import neighbours
from .hold import copy_held
from .play import NOBODY, TARGET_WORDS, OneNightState, copier, step_rule

# The words a player types besides names are the page's own (play.py: the Marksman's "-", the
# Gremlin's "marks" or "cards"), not translated, as the centre cards' left, middle and right.


@dataclass(frozen=True, slots=True)
class Step:
    """What a seat's `!target` answers now: `kind` "copy" (the Copycat's centre card) or
    "action"; the rule it is read by; and the players it may name, by name, in seat order."""

    kind: str
    rule: ActionRule
    players: tuple[str, ...] = ()

    @property
    def may_abstain(self) -> bool:
        return self.rule.requirement is not Requirement.MANDATORY


class Wrong(Exception):
    """Words that do not fit the step (nothing is sent): why, in the bot's words."""


def copycat_card(table: TableInfo, seat: SeatInfo) -> tuple[str, Role] | None:
    """The centre card this seat's Copycat looked at (its position and card), once it has."""
    if table.state is None or "players" not in table.state:
        return None
    state = OneNightState(table.state)
    me = state.name_of(seat.id)
    if me is None or state.deal.cards.get(me) is not Role.COPYCAT:
        return None
    mine = state.actions.get(me)
    if not mine or not mine["targets"] or mine["targets"][0] not in CENTRE_POSITIONS:
        return None
    position = mine["targets"][0]
    return position, state.deal.cards[position]


def step_now(table: TableInfo, seat: SeatInfo) -> Step | None:
    """The seat's step when its words are read here: the Copycat's first step, or a rule with
    an aim (a Vampire card, or one copied by the Doppelganger or the Copycat). None: the form's
    own reading applies (or the seat has nothing to send)."""
    if table.state is None or table.state.get("phase") != "night" or "players" not in table.state:
        return None
    state = OneNightState(table.state)
    me = state.name_of(seat.id)
    if me is None:
        return None
    mine = state.actions.get(me)
    if (mine is not None and mine["complete"]) or copy_held(state, me):
        return None  # docs/rules.md 8a.10: a held copy's role is not read yet
    deal = state.deal
    sent = list(mine["targets"]) if mine else []
    card = copier(deal, me)
    if card is Role.COPYCAT and not sent:
        return Step("copy", action_rule(deal, me))
    if card is Role.DOPPELGANGER and not sent:
        return None  # the Doppelganger's copy is read as the form's (chat.py)
    rule = step_rule(deal, me, sent)
    if rule.aim is None or rule.requirement is Requirement.NONE:
        return None
    names = [n for _i, n in state.players]
    if rule.aim == "neighbour":
        players = tuple(dict.fromkeys(neighbours(deal.players, me)))
    else:
        players = tuple(n for n in names if rule.self_ok or n != me)
    return Step("action", rule, players)


def extra_words(step: Step) -> dict[str, str]:
    """The words this step reads besides players' names: the centre cards always (a centre
    card named where a player is wanted is answered, not taken for an unknown name), "-" for
    the Marksman."""
    words = {p: p for p in CENTRE_POSITIONS}
    if step.rule.aim == "card_and_mark":
        words[NOBODY] = NOBODY
    return words


def gremlin_word(text: str) -> tuple[str, str] | None:
    """A Gremlin's leading "marks" or "cards" and the words after it, if the text starts so."""
    head, *rest = SEPARATORS.split(text.strip(), maxsplit=1)
    return (head.lower(), " ".join(rest)) if head.lower() in TARGET_WORDS else None


def targets(step: Step, values: Sequence[str], word: str | None = None) -> list[str]:
    """The move's targets, as the page posts them, from the values the words named (seat ids,
    centre positions, "-") and the Gremlin's word. Raises Wrong when they do not fit."""
    aim = step.rule.aim
    players = [v for v in values if v.isdigit()]
    if step.kind == "copy":
        if len(values) != 1 or values[0] not in CENTRE_POSITIONS:
            raise Wrong(_("The Copycat first looks at one centre card:"))
        return list(values)
    if any(v in CENTRE_POSITIONS for v in values):
        raise Wrong(_("Your card names players, not centre cards:"))
    if aim == "card_and_mark":
        if not 1 <= len(values) <= 2 or all(v == NOBODY for v in values):
            raise Wrong(_("Name a card to look at, a mark, or both:"))
        return list(values) if len(values) == 2 else [values[0], NOBODY]
    wanted = 2 if aim in ("count", "marks_or_cards") else step.rule.shapes[0].players
    if len(players) != wanted or len(values) != wanted:
        raise Wrong(_("Your card takes a different number of players:"))
    if aim == "marks_or_cards":
        return [word or "cards", *players]
    return players


def syntax(step: Step, code: str) -> list[str]:
    """The lines of the night letter that say what to send for this step: the command's shape
    in one line, then the players (or centre cards) to name, then how to send no action."""
    args = {"code": code}
    lines = [_syntax_line(step) % args]
    if step.kind == "copy":
        cards = ", ".join(CENTRE_POSITIONS)
        lines.append(
            # Translators: %(cards)s are the centre cards' words as typed: left, middle, right.
            pgettext("the centre cards to pick from", "Centre cards: %(cards)s.") % {"cards": cards}
        )
    else:
        lines.append(_("Players: %(players)s.") % {"players": listing(list(step.players))})
    if step.may_abstain:
        lines.append(
            # Translators: keep `!target` and `nobody` as they are: they are what a player types.
            _("Or send `!target %(code)s nobody` for no action.") % args
        )
    return lines


def _syntax_line(step: Step) -> str:
    """One line per card: what its `!target` takes. Text in backticks is what a player types."""
    if step.kind == "copy":
        return _(
            # Translators: the Copycat's first step. Keep `!target`, `left`, `middle` and
            # `right` as they are; <centre card> describes what to type and is translated.
            "Send `!target %(code)s <centre card>` (`left`, `middle` or `right`): you become"
            " that card, then send its action with another `!target` if it has one."
        )
    aim, role = step.rule.aim, step.rule.role
    if aim == "count":
        return _(
            "Send `!target %(code)s <pick> <fear>`: the player the vampires mark first, then the"
            " player you give the Mark of Fear (neither may be a vampire)."
        )
    if aim == "vampire_pick":
        return _(
            "Send `!target %(code)s <player>`: your pick for the Mark of the Vampire (not a"
            " vampire; the name the vampires send most wins)."
        )
    if aim == "neighbour":
        return _(
            "Send `!target %(code)s <player>`: your left or right neighbour, who gets the Mark"
            " of Disease."
        )
    if aim == "card_and_mark":
        return _(
            # Translators: keep `-` as it is: it is what a player types for "none".
            "Send `!target %(code)s <player> <player>`: whose card you look at, then whose mark"
            " (two different players; `-` for none: `!target %(code)s Ann -`)."
        )
    if aim == "marks_or_cards":
        return _(
            # Translators: keep `marks` and `cards` as they are: they are what a player types.
            "Send `!target %(code)s marks <player> <player>` to swap two players' marks, or"
            " `!target %(code)s cards <player> <player>` (or the two names alone) to swap their"
            " cards."
        )
    if role is Role.CUPID:
        return _("Send `!target %(code)s <player> <player>`: the two lovers (you may be one).")
    if role is Role.INSTIGATOR:
        return _(
            "Send `!target %(code)s <player>`: who gets the Mark of the Traitor (you may name"
            " yourself)."
        )
    if role is Role.PRIEST:
        return _(
            "Send `!target %(code)s <player>`: another player who gets a Mark of Clarity too"
            " (yours is cleared either way)."
        )
    if role is Role.PICKPOCKET:
        return _(
            "Send `!target %(code)s <player>`: whose mark you take for yours (you then see it)."
        )
    if role in (Role.ASSASSIN, Role.APPRENTICE_ASSASSIN):
        return _(
            "Send `!target %(code)s <player>`: who gets the Mark of the Assassin (you may name"
            " yourself)."
        )
    if step.rule.shapes and step.rule.shapes[0].players == 2:
        return _("Send `!target %(code)s <player> <player>`.")
    return _("Send `!target %(code)s <player>`.")
