"""Table mode for One Night (issue 28): the narrator's script for a deck, and the reveal sheet.

At a table the cards are real and nobody sits out: the app calls each wake step aloud, as the
companion app rules/002 s3 recommends, and afterwards counts the votes from what the host types
in. Pure but for Django's translation: typed values in and out, the words in the reader's
language.

The wake order is the ruleset's night table (engine/roles.py, `NIGHTS`), the same the engine
plays, and each call's words are its role's record's `calls`: rules/002 s5 for the official
rules (the Doppelganger, doing a copied seer's, robber's, troublemaker's or drunk's action at
once; the Doppelganger-minion's look at the werewolves; the werewolves, the minion, the masons,
the seer, the robber, the troublemaker, the drunk, the insomniac and the
Doppelganger-insomniac; a Doppelganger that became a werewolf or a mason is called with
them). For the house rules it is rules/000 s8, where step 0 (werewolves,
minion, masons) comes with the role message online; at a table they wake for it, first, in that
order (docs/rules.md 7.2).

Every role of the deck is called, whether its card was dealt or lies in the centre: the
narrator does not know, and calling only the dealt roles would tell the table which are in the
centre (rules/002 s3: the players keep their eyes closed unless told otherwise).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .engine import (
    ARTIFACTS,
    Artifact,
    Deal,
    NightResult,
    Role,
    Ruleset,
    decide_outcome,
    tally_votes,
)
from .engine.errors import RuleError
from .engine.roles import (
    DAYBREAK_ROLES,
    NIGHT_SECTIONS,
    NIGHTS,
    ROLES,
    Calls,
    Copy,
    WakeStep,
    has_marks,
)
from .online import not_online, online_limits

# Seconds a role gets, awake, by default (each step's `Calls.seconds`); the host can change each.
DEFAULT_PAUSE = 10
PAUSES: dict[str, int] = {
    calls.key: calls.seconds
    for record in ROLES.values()
    for calls in (record.calls, record.copy_calls)
    if calls is not None
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


# --- Daybreak at a table (docs/rules.md 8a) ------------------------------------------------------
# A deck with a Daybreak card changes two of the base game's calls; a deck of base cards keeps
# the words of rules/002 s5 (the records' `calls`).
# 8a.3: a Doppelganger does the copied role's action at once for the base game's seer, robber,
# troublemaker and drunk and for Daybreak's sentinel, apprentice seer, investigator, witch and
# village idiot (`Copy.AT_ONCE`); the deck's are named, in wake order.
COPY = gettext_lazy(
    "Doppelganger, wake up and look at another player's card: you are now that role."
)
# Translators: %(roles)s is a list of card names, "Sentinel, Seer, Witch".
COPY_AT_ONCE = gettext_lazy("If it is one of these, do that role's action now: %(roles)s.")
WEREWOLVES_WAKE = gettext_lazy("Werewolves, wake up and look for the other werewolves.")
WEREWOLVES_WAKE_WITH_DOPPELGANGER = gettext_lazy(
    "Werewolves, and the Doppelganger if it became one, wake up and look for the other werewolves."
)
# 8a.2: the dream wolf does not wake; it shows its thumb at the werewolves' step (8a.3: so does
# a Doppelganger that copied it).
DREAM_WOLF_THUMB = gettext_lazy(
    "Dream Wolf, stick out your thumb, eyes closed, so they can see you."
)
DREAM_WOLF_THUMB_WITH_DOPPELGANGER = gettext_lazy(
    "Dream Wolf, and the Doppelganger if it became the Dream Wolf, stick out your thumb, eyes"
    " closed, so they can see you."
)
DREAM_WOLF_THUMB_AWAY = gettext_lazy("Dream Wolf, put your thumb away.")
# rules/000 s6b, rules/002 s5: a werewolf alone may look at a centre card; 8a.5: of the werewolf
# cards only the plain one has that look (the alpha and mystic wolves act at their own steps).
LONE_LOOK = gettext_lazy("If you are the only one, you may look at one card in the centre.")
PLAIN_LONE_LOOK = gettext_lazy(
    "If you are the only werewolf and your card is a plain Werewolf, you may look at one card in"
    " the centre."
)


def _daybreak_words(
    steps: Sequence[WakeStep], step: WakeStep, words: Calls, cards: set[Role], copier: bool
) -> tuple[str, str] | None:
    """The (wake, sleep) words of `step` for a deck with a Daybreak card, where they differ
    from the record's; None: the record's words."""
    if not cards & DAYBREAK_ROLES or step.copied is not None:
        return None
    if ROLES[step.role].copies:
        at_once = [
            s.role.title
            for s in steps
            if s.copied is None and s.role in cards and ROLES[s.role].copy is Copy.AT_ONCE
        ]
        copy = str(COPY)
        if at_once:
            copy += " " + str(COPY_AT_ONCE) % {"roles": ", ".join(at_once)}
        return copy, _(words.sleep)
    if step.role is Role.WEREWOLF:
        wake = [str(WEREWOLVES_WAKE_WITH_DOPPELGANGER if copier else WEREWOLVES_WAKE)]
        sleep = [_(words.sleep)]
        if Role.DREAM_WOLF in cards:
            wake.append(str(DREAM_WOLF_THUMB_WITH_DOPPELGANGER if copier else DREAM_WOLF_THUMB))
            sleep.insert(0, str(DREAM_WOLF_THUMB_AWAY))
        # An alpha or mystic wolf in the deck wakes with the werewolves without the lone look.
        others = any(ROLES[c].wakes_with is Role.WEREWOLF for c in cards)
        wake.append(str(PLAIN_LONE_LOOK if others else LONE_LOOK))
        return " ".join(wake), " ".join(sleep)
    return None


def pause_of(key: str, pauses: Mapping[str, int]) -> int:
    return int(pauses.get(key, PAUSES.get(key, DEFAULT_PAUSE)))


def _calls(role: Role, copied: Role | None) -> Calls:
    """The narrator's words for a step: the role's own, or a Doppelganger's as the copied
    role's (`RoleRecord.copy_calls`). A waking role without them is a mistake in roles.py."""
    record = ROLES[copied] if copied is not None else ROLES[role]
    calls = record.copy_calls if copied is not None else record.calls
    if calls is None:
        raise LookupError(f"{record.role.value} wakes but has no narrator calls")
    return calls


def narration(
    ruleset: Ruleset, deck: Sequence[Role], pauses: Mapping[str, int] | None = None
) -> tuple[Call, ...]:
    """The wake steps for this deck, in the ruleset's order (its night table), with their
    pauses. A step is called when its role is in the deck (and, for a Doppelganger's step as
    a copied role, that role too)."""
    pauses = pauses or {}
    cards = set(deck)
    steps = NIGHTS[ruleset]
    # A copier in the deck (the Doppelganger) may wake with the role it copied.
    copier = any(ROLES[s.role].copies and s.role in cards for s in steps)
    calls: list[Call] = []
    # Daybreak: the werewolves' step wakes the alpha and mystic wolves too, even with no plain
    # werewolf card in the deck.
    woken = cards | {ROLES[c].wakes_with for c in cards if ROLES[c].wakes_with is not None}
    marks = has_marks(cards)
    for step in steps:
        if step.role not in woken or (step.copied is not None and step.copied not in cards):
            continue
        if step.deck is not None and (step.deck == "vampire") != marks:
            # Vampire's dusk, and the Doppelganger's step at -7 or 1 (docs/rules.md 8b.3).
            continue
        words = _calls(step.role, step.copied)
        wake = words.wake_with_doppelganger if copier and words.wake_with_doppelganger else None
        wake_words, sleep_words = _(wake or words.wake), _(words.sleep)
        daybreak = _daybreak_words(steps, step, words, cards, copier)
        if daybreak is not None:
            wake_words, sleep_words = daybreak
        if words.stays_awake and calls:
            # The Doppelganger-minion stays awake after the Doppelganger's step (rules/002
            # s5): that step ends with "keep your eyes open if...", not "close your eyes".
            calls[-1] = replace(calls[-1], sleep=_(words.stays_awake))
        calls.append(
            Call(
                words.key,
                step.role,
                wake_words,
                sleep_words,
                pause_of(words.key, pauses),
                NIGHT_SECTIONS[ruleset],
            )
        )
    return tuple(calls)


# --- The reveal sheet ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the reveal sheet concludes: the dead and why, the winners and why. `notes`: what
    the sheet was told beyond the cards (Daybreak's artifacts, and whom they or the paranormal
    investigator's change made play as another role), in sentences."""

    dead: tuple[str, ...]
    vote_reason: str
    winners: tuple[str, ...]
    reason: str
    counts: Mapping[str, int]
    notes: tuple[str, ...] = ()


# What a paranormal investigator may become (docs/rules.md 8a.5): a werewolf or the tanner.
INVESTIGATOR_BECOMES = (Role.WEREWOLF, Role.TANNER)


def reveal_sheet(
    ruleset: Ruleset,
    players: Sequence[str],
    final: Mapping[str, Role],
    votes: Mapping[str, str | None],
    copied: Role | None = None,
    *,
    artifacts: Mapping[str, Artifact] | None = None,
    investigator: Role | None = None,
) -> Verdict:
    """The dead and the winners from the cards the players hold at the end (turned over at the
    table) and whom each pointed at: the engine's own tally and outcome (rules/000 s6a, s6c,
    rules/002 s6). `copied` is the role the Doppelganger copied, if its card is held.
    Daybreak (docs/rules.md 8a.5, 8a.6): `artifacts`, the artifact on each player's card;
    `investigator`, what the paranormal investigator card became (a werewolf or the tanner),
    played by whoever holds it. Raises RuleError if the sheet is incomplete or impossible."""
    players = tuple(players)
    artifacts = {p: a for p, a in (artifacts or {}).items() if p in players}
    if (artifacts or investigator) and ruleset is not Ruleset.OFFICIAL:
        raise RuleError(_("Artifacts and the Paranormal Investigator are for the official rules."))
    for artifact, count in Counter(artifacts.values()).items():
        if count > 1:
            raise RuleError(
                # Translators: %(artifact)s is an artifact token's name ("Claw of the Werewolf").
                _("There is one %(artifact)s: choose it for one card.")
                % {"artifact": artifact.title}
            )
    if investigator is not None and investigator not in INVESTIGATOR_BECOMES:
        raise RuleError(_("The Paranormal Investigator can only become a Werewolf or a Tanner."))
    missing = [p for p in players if p not in final]
    if missing:
        raise RuleError(_("Choose %(player)s's card.") % {"player": missing[0]})
    if Role.DOPPELGANGER in final.values() and copied is None:
        raise RuleError(_("Say which role the Doppelganger copied (or that it copied none)."))
    # A hand-made sheet with a card not played online (online.py) is refused.
    offline = not_online([*(final[p] for p in players), *([copied] if copied else [])])
    if offline:
        raise RuleError(offline)
    limits = online_limits(ruleset)
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
    became = {Role.PARANORMAL_INVESTIGATOR: investigator} if investigator is not None else {}
    night = NightResult(
        deal=deal,
        final=cards,
        seen={},
        copied=copied,
        log=(),
        actions={},
        artifacts=artifacts,
        became=became,
    )
    tally = tally_votes(night, votes)
    outcome = decide_outcome(night, tally.dead)
    return Verdict(
        dead=tally.dead,
        vote_reason=tally.reason,
        winners=outcome.winners,
        reason=outcome.reason,
        counts=tally.counts,
        notes=_sheet_notes(night, players),
    )


def _sheet_notes(night: NightResult, players: Sequence[str]) -> tuple[str, ...]:
    """Daybreak's part of the verdict: each artifact held, and each player whom an artifact or
    the investigator's change made play as another role than their card's."""
    notes: list[str] = []
    for player in players:
        artifact = night.artifacts.get(player)
        if artifact is not None:
            notes.append(
                _("%(player)s held the %(artifact)s.")
                % {"player": player, "artifact": artifact.title}
            )
        card, role = night.final[player], night.plays_as(player)
        if role is card:
            continue
        # The roles counted here are the claw's, brand's and cudgel's (werewolf, villager,
        # tanner) and the investigator's (8a.5: werewolf or tanner), so "a" fits each.
        if artifact is not None and ARTIFACTS[artifact].plays_as is not None:
            notes.append(
                # Translators: %(role)s is a card's name (Werewolf, Villager or Tanner) and
                # %(artifact)s an artifact's: "Ann's card counts as a Tanner because of the
                # Cudgel of the Tanner."
                _("%(player)s's card counts as a %(role)s because of the %(artifact)s.")
                % {"player": player, "role": role.title, "artifact": artifact.title}
            )
        elif card in night.became:  # not the Doppelganger's copy
            notes.append(
                # Translators: %(card)s is the card held (the Paranormal Investigator) and
                # %(role)s the card's name it turned into (Werewolf or Tanner).
                _("%(player)s held the %(card)s, which became a %(role)s.")
                % {"player": player, "card": card.title, "role": role.title}
            )
    return tuple(notes)
