"""The private messages the moderator sends: each player's role message and night report.

The role messages carry what rules/000 section 4 gives each role (its goal, who the fellow
werewolves or masons are, what it may do tonight), with the variants of section 6: the lone
werewolf (6b), the minion when no player was dealt a werewolf (6c), and a mason dealt alone.
They are written in this project's own words. Only the player they are for may ever see them.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.words import N_, _, listing

from .deck import Deal
from .night import NightResult, is_lone_werewolf, where
from .roles import CENTRE_POSITIONS, Role, Ruleset, centre_card

TOWN_GOAL = N_("You play for the town: you win if at least one werewolf dies tomorrow.")
TOWN_GOAL_NO_WOLF = {
    # rules/000 s6c: with no werewolf at dawn the minion counts as one.
    Ruleset.HOUSE: N_(
        "If no player is a werewolf at dawn, the minion counts as one; if there is no minion"
        " either, the town wins only if nobody dies."
    ),
    # rules/002 s6.
    Ruleset.OFFICIAL: N_("If no player is a werewolf at dawn, the town wins only if nobody dies."),
}
_WEREWOLF_GOAL = N_(
    "You play for the werewolf team: you win if no werewolf dies tomorrow"
    " (and the Tanner stays alive)."
)


@dataclass(frozen=True, slots=True)
class RoleMessage:
    """A player's secret role message: a heading and a few short paragraphs."""

    role: Role
    heading: str
    paragraphs: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n\n".join((self.heading, *self.paragraphs))


def _wolves_are(wolves: list[str]) -> str:
    if len(wolves) == 1:
        return _("The werewolf is %(name)s.") % {"name": wolves[0]}
    return _("The werewolves are %(names)s.") % {"names": listing(wolves)}


def _others(deal: Deal, player: str, role: Role) -> list[str]:
    return [p for p in deal.players_dealt(role) if p != player]


def role_message(deal: Deal, player: str) -> RoleMessage:
    """The message `player` reads when the cards are dealt (rules/000 s4, s6b, s6c).

    Precondition: `player` sits at the table.
    """
    role = deal.cards[player]
    official = deal.ruleset is Ruleset.OFFICIAL
    wolves = list(deal.players_dealt(Role.WEREWOLF))
    # Translators: %(role)s is a card's name.
    heading = _("You are the %(role)s.") % {"role": role.title}
    body: list[str]

    if role is Role.WEREWOLF:
        partners = _others(deal, player, Role.WEREWOLF)
        if partners:
            body = [
                _(
                    "Your fellow werewolf is %(names)s. The two of you know each other;"
                    " nobody else does."
                )
                % {"names": listing(partners)},
                _(_WEREWOLF_GOAL),
            ]
        else:
            body = [
                _("You are the only werewolf among the players tonight."),
                _(
                    "Because you have no partner, you may look at one of the three centre cards"
                    " (left, middle or right) to give yourself a believable cover story."
                ),
                _(_WEREWOLF_GOAL),
            ]
        if official:
            body.append(
                _("If the Doppelganger copies a werewolf, they join you; you learn it at dawn.")
            )
    elif role is Role.MINION:
        if wolves:
            if len(wolves) == 1:
                told = _("The werewolf is %(name)s. They do not know that you are the minion.")
                told %= {"name": wolves[0]}
            else:
                told = _(
                    "The werewolves are %(names)s. They do not know that you are the minion."
                ) % {"names": listing(wolves)}
            body = [
                told,
                _(
                    "You play for the werewolf team: you win if no werewolf dies, even if you die"
                    " yourself (unless the Tanner dies, which makes the werewolves lose)."
                ),
            ]
        elif official:
            body = [
                _(
                    "No player was dealt a werewolf card, though one may still turn up in the"
                    " night."
                ),
                _(
                    "If no player is a werewolf at dawn, you win if somebody else dies while you"
                    " and the Tanner stay alive."
                ),
            ]
        else:
            body = [
                _("No player was dealt a werewolf card tonight."),
                _(
                    "If no werewolf turns up by dawn, you count as the werewolf yourself: you win"
                    " if you survive the vote and the Tanner does not die. Remember that cards"
                    " move in the night, so a werewolf may still appear."
                ),
            ]
    elif role is Role.MASON:
        partners = _others(deal, player, Role.MASON)
        if partners:
            body = [
                _("The other mason is %(names)s. You both know you are on the town's side.")
                % {"names": listing(partners)},
                _(TOWN_GOAL),
            ]
        else:
            body = [
                _(
                    "You are the only mason at the table: the other mason card, if it is in the"
                    " game, lies in the centre."
                ),
                _(TOWN_GOAL),
            ]
    elif role is Role.SEER:
        body = [
            _(
                "Tonight you may look at one other player's card, or at two of the three centre"
                " cards."
            ),
            _(TOWN_GOAL),
        ]
    elif role is Role.ROBBER:
        body = [
            _(
                "Tonight you may swap your card with another player's card, and you will see the"
                " card you take. You then play for the team of that card."
            ),
            _(TOWN_GOAL),
        ]
    elif role is Role.TROUBLEMAKER:
        body = [
            _("Tonight you may swap the cards of two other players. You will not see either card."),
            _(TOWN_GOAL),
        ]
    elif role is Role.DRUNK:
        body = [
            _(
                "Tonight you must swap your card with one of the centre cards (left, middle or"
                " right). You will not see the card you get, and you play for its team."
            ),
            _(TOWN_GOAL),
        ]
    elif role is Role.INSOMNIAC:
        body = [
            _("At the end of the night you will see which card you hold then."),
            _(TOWN_GOAL),
        ]
    elif role is Role.HUNTER:
        body = [
            _("If you die, the player you voted for dies with you."),
            _(TOWN_GOAL),
        ]
    elif role is Role.VILLAGER:
        body = [
            _("You have no power tonight, but your voice and your vote count as much as anyone's."),
            _(TOWN_GOAL),
        ]
    elif role is Role.TANNER:
        body = [
            _("You hate your job. You win only if you die tomorrow, by the vote or by the hunter."),
            _("If you die, the werewolves lose too."),
        ]
    else:  # Role.DOPPELGANGER
        body = [
            _("Tonight you first look at another player's card and become that role."),
            _(
                "If you copy a seer, robber, troublemaker or drunk, you do that role's action at"
                " once. If you copy a werewolf, minion or mason, you wake with them. If you copy"
                " the insomniac, you check your own card at the very end of the night."
            ),
            _("You then play for the team of the role you copied."),
        ]
    if role.team.value == "town" and role is not Role.DOPPELGANGER:
        body.append(_(TOWN_GOAL_NO_WOLF[deal.ruleset]))
    body.append(
        _(
            "What you were told is true at the start of the night; cards may move before dawn"
            " and nobody is told."
        )
    )
    return RoleMessage(role=role, heading=heading, paragraphs=tuple(body))


def _looked(position: str, card: Role) -> str:
    # Translators: %(card)s is "Ann's card" or "the left centre card"; %(role)s a card's name.
    return _("You looked at %(card)s: it is the %(role)s.") % {
        "card": where(position),
        "role": card.title,
    }


def night_report(night: NightResult, player: str) -> tuple[str, ...]:
    """What `player` learned in the night, in sentences, from their own action and wake-up.

    Built only from `night.seen[player]` and the player's own action, so it never tells more
    than the rules give that player.
    """
    deal = night.deal
    role = deal.cards[player]
    targets = night.actions.get(player, ())
    seen = night.seen[player]
    lines: list[str] = []
    acting_role = role
    if role is Role.DOPPELGANGER:
        if not targets:
            return (_("You chose not to copy anyone."),)
        model = targets[0]
        acting_role = seen[model]
        lines.append(
            _("You looked at %(player)s's card and became the %(role)s.")
            % {"player": model, "role": acting_role.title}
        )
        targets = targets[1:]
        if acting_role is Role.WEREWOLF:
            others = [p for p, r in seen.items() if r is Role.WEREWOLF and p != model]
            wolves = [model, *others]
            lines.append(_("You woke with the werewolves: %(names)s.") % {"names": listing(wolves)})
        elif acting_role is Role.MINION:
            wolves = [p for p, r in seen.items() if r is Role.WEREWOLF]
            lines.append(_wolves_are(wolves) if wolves else _("No player is a werewolf."))
        elif acting_role is Role.MASON:
            masons = [p for p, r in seen.items() if r is Role.MASON]
            lines.append(_("You woke with the masons: %(names)s.") % {"names": listing(masons)})
    if acting_role is Role.WEREWOLF and role is Role.WEREWOLF:
        partners = [p for p, r in seen.items() if p in deal.players and r is Role.WEREWOLF]
        if partners:
            lines.append(
                _("The werewolves tonight: you and %(names)s.") % {"names": listing(partners)}
            )
        if is_lone_werewolf(deal, player):
            peeked = [p for p in seen if p in CENTRE_POSITIONS]
            if peeked:
                lines.append(_looked(peeked[0], seen[peeked[0]]))
            else:
                lines.append(_("You chose not to look at a centre card."))
    elif acting_role is Role.MINION and role is Role.MINION:
        wolves = [p for p, r in seen.items() if r is Role.WEREWOLF]
        lines.append(
            _wolves_are(wolves) if wolves else _("No player was a werewolf when you woke.")
        )
    elif acting_role is Role.MASON and role is Role.MASON:
        masons = [p for p, r in seen.items() if r is Role.MASON]
        lines.append(
            _("The masons tonight: you and %(names)s.") % {"names": listing(masons)}
            if masons
            else _("You are the only mason.")
        )
    elif acting_role is Role.SEER:
        if targets:
            for target in targets:
                lines.append(_looked(target, seen[target]))
        else:
            lines.append(_("You chose not to look at any card."))
    elif acting_role is Role.ROBBER:
        if targets:
            lines.append(
                _("You swapped cards with %(player)s. You are now the %(role)s.")
                % {"player": targets[0], "role": seen[player].title}
            )
        else:
            lines.append(_("You chose not to rob anyone."))
    elif acting_role is Role.TROUBLEMAKER:
        if targets:
            lines.append(
                _("You swapped the cards of %(first)s and %(second)s.")
                % {"first": targets[0], "second": targets[1]}
            )
        else:
            lines.append(_("You chose not to swap anyone's cards."))
    elif acting_role is Role.DRUNK:
        lines.append(
            # Translators: %(card)s is "the left centre card" or the like.
            _("You swapped your card with %(card)s. You do not know what you are now.")
            % {"card": centre_card(targets[0])}
        )
    elif acting_role is Role.INSOMNIAC:
        card = seen[player]
        if card is Role.INSOMNIAC and role is Role.INSOMNIAC:
            lines.append(_("You woke at the end of the night: you are still the Insomniac."))
        else:
            lines.append(
                _("You woke at the end of the night: you are now the %(role)s.")
                % {"role": card.title}
            )
    if not lines:
        lines.append(_("You slept through the night."))
    return tuple(lines)
