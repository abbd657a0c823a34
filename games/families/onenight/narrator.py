"""Table mode for One Night (issue 28): the narrator's script for a deck, and the reveal sheet.

At a table the cards are real and nobody sits out: the app calls each wake step aloud, as the
companion app rules/002 s3 recommends, and afterwards counts the votes from what the host types
in. Pure but for Django's translation: typed values in and out, the words in the reader's
language.

The wake order is rules/002 s5 for the official rules: the Doppelganger (doing a copied seer's,
robber's, troublemaker's or drunk's action at once), the Doppelganger-minion's look at the
werewolves, the werewolves, the minion, the masons, the seer, the robber, the troublemaker, the
drunk, the insomniac and the Doppelganger-insomniac. For the house rules it is rules/000 s8,
where step 0 (werewolves, minion, masons) comes with the role message online; at a table they
wake for it, first, in that order (docs/rules.md 7.2).

Every role of the deck is called, whether its card was dealt or lies in the centre: the
narrator does not know, and calling only the dealt roles would tell the table which are in the
centre (rules/002 s3: the players keep their eyes closed unless told otherwise).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .engine import Deal, NightResult, Role, Ruleset, decide_outcome, tally_votes
from .engine.errors import RuleError
from .engine.roles import role_limits

# Seconds a role gets, awake, by default; the host can change each one.
DEFAULT_PAUSE = 10
PAUSES: dict[str, int] = {
    "doppelganger": 12,
    "werewolves": 10,
    "minion": 8,
    "masons": 8,
    "seer": 12,
    "robber": 10,
    "troublemaker": 10,
    "drunk": 8,
    "insomniac": 8,
}


@dataclass(frozen=True, slots=True)
class Call:
    """One step of the night as the narrator says it: `wake` when the step starts, a pause of
    `seconds` while the role acts, then `sleep`. `key` names the step (for its pause setting);
    `role` is the card it calls; `section` the rule it follows."""

    key: str
    role: Role | None
    wake: str
    sleep: str
    seconds: int
    section: str


# Translators: the narrator's words, read aloud to the players at a real table.
OPENING = gettext_lazy("Everyone, close your eyes.")
CLOSING = gettext_lazy("Wake up, everyone! It is day: talk it over, then vote.")


def pause_of(key: str, pauses: Mapping[str, int]) -> int:
    return int(pauses.get(key, PAUSES.get(key, DEFAULT_PAUSE)))


def narration(
    ruleset: Ruleset, deck: Sequence[Role], pauses: Mapping[str, int] | None = None
) -> tuple[Call, ...]:
    """The wake steps for this deck, in the ruleset's order, with their pauses."""
    pauses = pauses or {}
    cards = set(deck)
    official = ruleset is Ruleset.OFFICIAL
    order = "002 s5" if official else "000 s8"
    calls: list[Call] = []

    def add(key: str, role: Role, wake: str, sleep: str) -> None:
        calls.append(Call(key, role, wake, sleep, pause_of(key, pauses), order))

    if official and Role.DOPPELGANGER in cards:
        add(
            "doppelganger",
            Role.DOPPELGANGER,
            _(
                "Doppelganger, wake up and look at another player's card: you are now that role."
                " If it is a seer, robber, troublemaker or drunk, do that role's action now."
            ),
            _("Doppelganger, close your eyes."),
        )
        if Role.MINION in cards:
            add(
                "doppelganger-minion",
                Role.DOPPELGANGER,
                _(
                    "Doppelganger, if you saw the minion, keep your eyes open. Werewolves, stick"
                    " out your thumb so the Doppelganger can see who you are."
                ),
                _("Werewolves, put your thumbs away. Doppelganger, close your eyes."),
            )
    if Role.WEREWOLF in cards:
        if official and Role.DOPPELGANGER in cards:
            wake = _(
                "Werewolves, and the Doppelganger if it became one, wake up and look for the"
                " other werewolves. If you are the only one, you may look at one card in the"
                " centre."
            )
        else:
            wake = _(
                "Werewolves wake up and look for the other werewolves. If you are the only one,"
                " you may look at one card in the centre."
            )
        add("werewolves", Role.WEREWOLF, wake, _("Werewolves, close your eyes."))
    if Role.MINION in cards:
        add(
            "minion",
            Role.MINION,
            _(
                "Minion, wake up. Werewolves, stick out your thumb so the minion can see who you"
                " are."
            ),
            _("Werewolves, put your thumbs away. Minion, close your eyes."),
        )
    if Role.MASON in cards:
        add(
            "masons",
            Role.MASON,
            _("Masons, wake up and look for the other mason."),
            _("Masons, close your eyes."),
        )
    single = (
        (
            "seer",
            Role.SEER,
            _("Seer, wake up. You may look at another player's card, or at two centre cards."),
            _("Seer, close your eyes."),
        ),
        (
            "robber",
            Role.ROBBER,
            _("Robber, wake up. You may swap your card with another player's, then look at it."),
            _("Robber, close your eyes."),
        ),
        (
            "troublemaker",
            Role.TROUBLEMAKER,
            _("Troublemaker, wake up. You may swap two other players' cards, unseen."),
            _("Troublemaker, close your eyes."),
        ),
        (
            "drunk",
            Role.DRUNK,
            _("Drunk, wake up. Swap your card with a centre card, without looking at it."),
            _("Drunk, close your eyes."),
        ),
        (
            "insomniac",
            Role.INSOMNIAC,
            _("Insomniac, wake up. Look at your card."),
            _("Insomniac, close your eyes."),
        ),
    )
    for key, role, wake, sleep in single:
        if role in cards:
            add(key, role, wake, sleep)
    if official and Role.DOPPELGANGER in cards and Role.INSOMNIAC in cards:
        add(
            "doppelganger-insomniac",
            Role.DOPPELGANGER,
            _("Doppelganger, if you saw the insomniac, wake up and look at your card."),
            _("Doppelganger, close your eyes."),
        )
    return tuple(calls)


# --- The reveal sheet ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the reveal sheet concludes: the dead and why, the winners and why."""

    dead: tuple[str, ...]
    vote_reason: str
    winners: tuple[str, ...]
    reason: str
    counts: Mapping[str, int]


def reveal_sheet(
    ruleset: Ruleset,
    players: Sequence[str],
    final: Mapping[str, Role],
    votes: Mapping[str, str | None],
    copied: Role | None = None,
) -> Verdict:
    """The dead and the winners from the cards the players hold at the end (turned over at the
    table) and whom each pointed at: the engine's own tally and outcome (rules/000 s6a, s6c,
    rules/002 s6). `copied` is the role the Doppelganger copied, if its card is held.
    Raises RuleError if the sheet is incomplete or impossible."""
    players = tuple(players)
    missing = [p for p in players if p not in final]
    if missing:
        raise RuleError(_("Choose %(player)s's card.") % {"player": missing[0]})
    if Role.DOPPELGANGER in final.values() and copied is None:
        raise RuleError(_("Say which role the Doppelganger copied (or that it copied none)."))
    limits = role_limits(ruleset)
    for role, count in Counter(final[p] for p in players).items():
        if count > limits.get(role, 0):
            most = limits.get(role, 0)
            raise RuleError(
                # Translators: %(role)s is a card's name; %(count)d how many the sheet gave.
                ngettext(
                    "These rules have %(most)d %(role)s card, not %(count)d.",
                    "These rules have %(most)d %(role)s cards, not %(count)d.",
                    most,
                )
                % {"most": most, "role": role.title, "count": count}
            )
    # The centre does not count for the vote or the win: only the players' final cards do.
    cards = {**{p: final[p] for p in players}, "left": Role.VILLAGER, "middle": Role.VILLAGER,
             "right": Role.VILLAGER}  # fmt: skip
    deal = Deal(ruleset=ruleset, players=players, cards=cards)
    night = NightResult(deal=deal, final=cards, seen={}, copied=copied, log=(), actions={})
    tally = tally_votes(night, votes)
    outcome = decide_outcome(night, tally.dead)
    return Verdict(
        dead=tally.dead,
        vote_reason=tally.reason,
        winners=outcome.winners,
        reason=outcome.reason,
        counts=tally.counts,
    )
