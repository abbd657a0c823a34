"""The private messages the moderator sends: each player's role message and night report.

The role messages carry what rules/000 section 4 gives each role (its goal, who the fellow
werewolves or masons are, what it may do tonight), with the variants of section 6: the lone
werewolf (6b), the minion when no player was dealt a werewolf (6c), and a mason dealt alone.
They are written in this project's own words. Only the player they are for may ever see them.

Each role's words are its record's (engine/roles.py): its `message`, or the `told` function
here that writes it from the deal; a night report is its wake step's resolver's `report`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from games.words import N_, _, listing, ngettext

from .actions import is_lone_werewolf
from .artifacts import ARTIFACTS
from .deck import Deal
from .night import NightResult
from .resolvers import RESOLVERS
from .roles import (
    DAYBREAK_ROLES,
    NIGHTS,
    ROLES,
    TOWN_GOAL,
    WEREWOLF_GOAL,
    Copy,
    Role,
    Ruleset,
    Team,
    is_werewolf,
    own_step,
)
from .roles_vampire import VAMPIRE_MESSAGES
from .tonight import Learned

TOWN_GOAL_NO_WOLF = {
    # rules/000 s6c: with no werewolf at dawn the minion counts as one.
    Ruleset.HOUSE: N_(
        "If no player is a werewolf at dawn, the minion counts as one; if there is no minion"
        " either, the town wins only if nobody dies."
    ),
    # rules/002 s6.
    Ruleset.OFFICIAL: N_("If no player is a werewolf at dawn, the town wins only if nobody dies."),
}


@dataclass(frozen=True, slots=True)
class RoleMessage:
    """A player's secret role message: a heading and a few short paragraphs."""

    role: Role
    heading: str
    paragraphs: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n\n".join((self.heading, *self.paragraphs))


def _others(deal: Deal, player: str, role: Role) -> list[str]:
    return [p for p in deal.players_dealt(role) if p != player]


def _werewolf_told(deal: Deal, player: str) -> list[str]:
    """rules/000 s4 and s8 step 0: the fellow werewolf, or the lone werewolf's peek (s6b).

    Daybreak's wolves are fellow werewolves too (the dream wolf shows its thumb)."""
    partners = [p for p in deal.players if p != player and is_werewolf(deal.cards[p])]
    if partners and not is_lone_werewolf(deal, player):
        # Daybreak's dream wolf shows its thumb but does not wake: it does not know the others.
        awake = [p for p in partners if deal.cards[p] is not Role.DREAM_WOLF]
        dreaming = [p for p in partners if deal.cards[p] is Role.DREAM_WOLF]
        body = []
        if len(awake) == 1:
            body.append(
                _(
                    "Your fellow werewolf is %(names)s. The two of you know each other;"
                    " nobody else does."
                )
                % {"names": awake[0]}
            )
        elif awake:
            body.append(
                _(
                    "Your fellow werewolves are %(names)s. You all know each other;"
                    " nobody else does."
                )
                % {"names": listing(awake)}
            )
        if dreaming:
            body.append(
                _(
                    "%(name)s is a werewolf too, the Dream Wolf: asleep all night, they do not"
                    " know who you are."
                )
                % {"name": dreaming[0]}
            )
        body.append(_(WEREWOLF_GOAL))
    elif deal.cards[player] is not Role.WEREWOLF:
        # Daybreak: only the plain werewolf card looks at the centre when alone.
        body = [_("You are the only werewolf among the players tonight."), _(WEREWOLF_GOAL)]
    else:
        body = [
            _("You are the only werewolf among the players tonight."),
            _(
                "Because you have no partner, you may look at one of the three centre cards"
                " (left, middle or right) to give yourself a believable cover story."
            ),
            _(WEREWOLF_GOAL),
        ]
    if deal.ruleset is Ruleset.OFFICIAL:
        body.append(
            _("If the Doppelganger copies a werewolf, they join you; you learn it at dawn.")
        )
    return body


def _minion_told(deal: Deal, player: str) -> list[str]:
    """rules/000 s4: the werewolves; with none dealt, s6c (house) or rules/002 s6."""
    wolves = [p for p in deal.players if is_werewolf(deal.cards[p])]
    if wolves:
        if len(wolves) == 1:
            told = _("The werewolf is %(name)s. They do not know that you are the minion.")
            told %= {"name": wolves[0]}
        else:
            told = _("The werewolves are %(names)s. They do not know that you are the minion.") % {
                "names": listing(wolves)
            }
        return [
            told,
            _(
                "You play for the werewolf team: you win if no werewolf dies, even if you die"
                " yourself (unless the Tanner dies, which makes the werewolves lose)."
            ),
        ]
    if deal.ruleset is Ruleset.OFFICIAL:
        return [
            _("No player was dealt a werewolf card, though one may still turn up in the night."),
            _(
                "If no player is a werewolf at dawn, you win if somebody else dies while you"
                " and the Tanner stay alive."
            ),
        ]
    return [
        _("No player was dealt a werewolf card tonight."),
        _(
            "If no werewolf turns up by dawn, you count as the werewolf yourself: you win"
            " if you survive the vote and the Tanner does not die. Remember that cards"
            " move in the night, so a werewolf may still appear."
        ),
    ]


def _mason_told(deal: Deal, player: str) -> list[str]:
    """rules/000 s4: the other mason, or that it lies in the centre."""
    partners = _others(deal, player, Role.MASON)
    if partners:
        return [
            _("The other mason is %(names)s. You both know you are on the town's side.")
            % {"names": listing(partners)},
            _(TOWN_GOAL),
        ]
    return [
        _(
            "You are the only mason at the table: the other mason card, if it is in the"
            " game, lies in the centre."
        ),
        _(TOWN_GOAL),
    ]


def _alpha_told(deal: Deal, player: str) -> list[str]:
    """Daybreak, Alpha Wolf: the werewolves' message after its own step."""
    return [
        _(
            "Tonight you wake with the werewolves, then again alone: you must swap the centre"
            " werewolf card with the card of another player who is not a werewolf."
        ),
        *_werewolf_told(deal, player),
    ]


def _mystic_told(deal: Deal, player: str) -> list[str]:
    """Daybreak, Mystic Wolf: the werewolves' message after its own step."""
    return [
        _(
            "Tonight you wake with the werewolves, then again alone: you may look at another"
            " player's card."
        ),
        *_werewolf_told(deal, player),
    ]


def _vampire_told(deal: Deal, player: str) -> list[str]:
    """[VC] Vampire, Master, Count: the vampires see each other at dusk (8b.4), and online every
    action is sent at once, so the message names the fellow vampires dealt, as the werewolves'
    names theirs from the deal (a Copycat or Doppelganger that becomes one joins unannounced)."""
    body = [_(VAMPIRE_MESSAGES[deal.cards[player]])]
    partners = [p for p in deal.players if p != player and ROLES[deal.cards[p]].vampire]
    if partners:
        body.append(
            ngettext(
                "The other vampire is %(names)s. Pick a player who is not one of you.",
                "The other vampires are %(names)s. Pick a player who is not one of you.",
                len(partners),
            )
            % {"names": listing(partners)}
        )
    else:
        body.append(_("You are the only vampire among the players tonight."))
    return body


# The role messages written from the deal (`RoleRecord.told`): who the others are.
TOLD: Mapping[str, Callable[[Deal, str], list[str]]] = MappingProxyType(
    {
        "werewolf": _werewolf_told,
        "alpha_wolf": _alpha_told,
        "mystic_wolf": _mystic_told,
        "minion": _minion_told,
        "mason": _mason_told,
        "vampire": _vampire_told,
    }
)


# docs/rules.md 8a.3: with Daybreak's cards the Doppelganger also acts at once as a copied
# sentinel, apprentice seer, investigator, witch or village idiot; its message names the deck's
# at-once roles (`Copy.AT_ONCE`), as the narrator's call does. A base deck keeps its record's words.
# Translators: %(roles)s is a list of card names, "Sentinel, Seer and Witch".
COPIER_AT_ONCE = N_("If you copy one of these, you do its action at once: %(roles)s.")
COPIER_LATER = N_("Any other role you copy acts when that role does, if it wakes at all.")


def _at_once_in_deck(deal: Deal) -> list[Role]:
    """The deck's roles a Doppelganger copying them plays at once, in wake order."""
    cards = set(deal.cards.values())
    at_once = [r for r in cards if ROLES[r].copy is Copy.AT_ONCE]
    order = [s.role for s in NIGHTS[deal.ruleset] if s.copied is None]
    return sorted(at_once, key=lambda r: (order.index(r) if r in order else len(order), r.value))


def _copier_message(deal: Deal, record_message: tuple[str, ...]) -> list[str]:
    """The Doppelganger's paragraphs: its record's, the at-once roles named from the deck."""
    first, _base_at_once, *rest = record_message
    roles = listing([r.title for r in _at_once_in_deck(deal)])
    middle = (_(COPIER_AT_ONCE) % {"roles": roles} + " " if roles else "") + _(COPIER_LATER)
    return [_(first), middle, *(_(paragraph) for paragraph in rest)]


def role_message(deal: Deal, player: str) -> RoleMessage:
    """The message `player` reads when the cards are dealt (rules/000 s4, s6b, s6c).

    Its paragraphs are the role record's `message`, or its `told` function's from the deal;
    a town role then reads what happens with no werewolf at dawn.

    Precondition: `player` sits at the table.
    """
    role = deal.cards[player]
    record = ROLES[role]
    # Translators: %(role)s is a card's name.
    heading = _("You are the %(role)s.") % {"role": role.title}
    if record.told is not None:
        body = TOLD[record.told](deal, player)
    elif record.copies and DAYBREAK_ROLES & set(deal.cards.values()):
        body = _copier_message(deal, record.message)
    else:
        body = [_(paragraph) for paragraph in record.message]
    if record.team is Team.TOWN and not record.copies:
        body.append(_(TOWN_GOAL_NO_WOLF[deal.ruleset]))
    body.append(
        _(
            "What you were told is true at the start of the night; cards may move before dawn"
            " and nobody is told."
        )
    )
    return RoleMessage(role=role, heading=heading, paragraphs=tuple(body))


def night_report(night: NightResult, player: str) -> tuple[str, ...]:
    """What `player` learned in the night, in sentences, from their own action and wake-up.

    Written by the report of their start role's wake step (`resolvers.RESOLVERS`), only from
    `night.seen[player]` and the player's own action, so it never tells more than the rules
    give that player. A role that never wakes slept through the night.
    """
    deal = night.deal
    step = own_step(deal.ruleset, deal.cards[player])
    lines: list[str] = []
    # Vampire (8b.2): a frightened player did not act tonight; only a step they were woken
    # for with others (the werewolves seeing each other) still told them something.
    frightened = player in night.frightened
    if (
        step is not None
        and step.handler is not None
        and not (frightened and step.order >= 0 and RESOLVERS[step.handler].each is not None)
    ):
        learned = Learned(
            deal,
            player,
            night.actions.get(player, ()),
            night.seen[player],
            shields=frozenset(night.shields),
            revealed=frozenset(night.revealed),
            frightened=frightened,
        )
        lines = RESOLVERS[step.handler].report(learned)
    # Vampire (docs/rules.md 8b): what the player was told at dusk and about marks tonight.
    lines = [*lines, *night.told.get(player, ())]
    if not lines:
        lines.append(_("You slept through the night."))
    artifact = night.artifacts.get(player)
    if artifact is not None:
        # Daybreak: the holder of an artifact looks at it at dawn.
        lines.append(
            _("At dawn you found the %(artifact)s on your card.") % {"artifact": artifact.title}
        )
        lines.append(_(ARTIFACTS[artifact].told))
    return tuple(lines)
