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

With a Vampire card in the deck (docs/rules.md 8b.3, 8b.7) the night starts at dusk: the
Copycat, the Doppelganger, the vampires (one waking, the Master's too), the marking roles and
the Doppelganger's copies of them, then the end of dusk (everyone looks at their mark) and the
lovers, each a call of its own; the reveal sheet then takes each player's mark and scores with
them (the Epic Battle, engine/epic.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.words import N_

from .engine import (
    ARTIFACTS,
    VAMPIRE_ROLES,
    Artifact,
    Deal,
    Mark,
    NightResult,
    Role,
    Ruleset,
    finish_game,
)
from .engine.errors import RuleError
from .engine.marks import POOL
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

# --- The end of dusk (docs/rules.md 8b.2, 8b.3: step 00) ----------------------------------------
# With a Vampire card in the deck, once the dusk roles are done everyone looks at their own mark
# ([VR] Dusk), then the lovers see each other: two calls of their own, not a role's.
# Translators: the narrator's words, read aloud to the players at a real table.
END_OF_DUSK = Calls(
    "end-of-dusk",
    N_(
        "Everyone, wake up and look at your own mark without showing it, then put it back face"
        " down."
    ),
    N_("Everyone, close your eyes."),
    8,
)
# 8b.2: a frightened player does nothing at night; said when the Count is in the deck.
FEAR_SAID = gettext_lazy(
    "If it is the Mark of Fear, you do nothing tonight, even when your role is called."
)
LOVERS = Calls(
    "lovers",
    N_("Whoever has a Mark of Love, wake up and look for the other lovers."),
    N_("Lovers, close your eyes."),
    8,
)

# Seconds a role gets, awake, by default (each step's `Calls.seconds`); the host can change each.
DEFAULT_PAUSE = 10
PAUSES: dict[str, int] = {
    calls.key: calls.seconds
    for record in ROLES.values()
    for calls in (record.calls, record.copy_calls)
    if calls is not None
} | {calls.key: calls.seconds for calls in (END_OF_DUSK, LOVERS)}


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
# Vampire (docs/rules.md 8b.5): a Doppelganger that copies the Copycat becomes what the Copycat
# became and does nothing more. It cannot know that role from the Copycat card alone, so
# (**Choice**, 8b.7) the Copycat shows it the centre card it looked at.
COPY_THE_COPYCAT = gettext_lazy(
    "If it is the Copycat, tap that player on the shoulder. Copycat, if you feel the tap, point"
    " with your eyes closed at the centre card you looked at. Doppelganger, look at that card: you"
    " are now that role, and you do nothing more tonight."
)
COPYCAT_HAND_AWAY = gettext_lazy("Copycat, put your hand away. Doppelganger, close your eyes.")
# With dusk (8b.3) the Doppelganger copies at -7, long before the Doppelganger-minion's look at
# the werewolves: that look is a waking of its own, not "keep your eyes open".
MINION_COPY_WAKES = gettext_lazy("Doppelganger, if you are now the minion, wake up.")


def _expansion_words(
    steps: Sequence[WakeStep], step: WakeStep, words: Calls, cards: set[Role], copier: bool
) -> tuple[str, str] | None:
    """The (wake, sleep) words of `step` for a deck with a Daybreak or a Vampire card, where
    they differ from the record's; None: the record's words."""
    daybreak = bool(cards & DAYBREAK_ROLES)
    if not (daybreak or cards & VAMPIRE_ROLES) or step.copied is not None:
        return None
    if ROLES[step.role].copies:
        # 8a.3, 8b.5: the deck's roles a Doppelganger plays at once, in wake order (at dusk
        # the Diseased, Cupid and Instigator come first).
        at_once = [
            s.role.title
            for s in steps
            if s.copied is None
            and s.role in cards
            and ROLES[s.role].copy is Copy.AT_ONCE
            and s.handler != "lovers"  # the end of dusk, listed under Cupid's card (8b.3)
        ]
        copy = str(COPY)
        if at_once:
            copy += " " + str(COPY_AT_ONCE) % {"roles": ", ".join(at_once)}
        if Role.COPYCAT in cards:
            return f"{copy} {COPY_THE_COPYCAT}", str(COPYCAT_HAND_AWAY)
        return copy, _(words.sleep)
    if step.role is Role.WEREWOLF and daybreak:
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


def _vampires_step(steps: Sequence[WakeStep], cards: set[Role]) -> WakeStep | None:
    """The one step at which the narrator wakes the vampires (docs/rules.md 8b.3: the Master's
    step is the vampires' same waking): the first of their steps whose card is in the deck, else
    the Vampire's, which the Count wakes for."""
    theirs = [s for s in steps if s.handler == "vampires" and s.copied is None]
    return next((s for s in theirs if s.role in cards), theirs[0] if theirs else None)


def _end_of_dusk(cards: set[Role], pauses: Mapping[str, int], section: str) -> list[Call]:
    """Step 00 (docs/rules.md 8b.2, 8b.3): everyone looks at their mark; then, with Cupid in
    the deck, the lovers see each other."""
    wake = _(END_OF_DUSK.wake)
    if Role.THE_COUNT in cards:
        wake += " " + str(FEAR_SAID)
    calls = [
        Call(
            END_OF_DUSK.key,
            None,
            wake,
            _(END_OF_DUSK.sleep),
            pause_of(END_OF_DUSK.key, pauses),
            section,
        )
    ]
    if Role.CUPID in cards:
        calls.append(
            Call(
                LOVERS.key,
                Role.CUPID,
                _(LOVERS.wake),
                _(LOVERS.sleep),
                pause_of(LOVERS.key, pauses),
                section,
            )
        )
    return calls


def narration(
    ruleset: Ruleset, deck: Sequence[Role], pauses: Mapping[str, int] | None = None
) -> tuple[Call, ...]:
    """The wake steps for this deck, in the ruleset's order (its night table), with their
    pauses. A step is called when its role is in the deck (and, for a Doppelganger's step as
    a copied role, that role too). With a Vampire card, dusk first (docs/rules.md 8b.3)."""
    pauses = pauses or {}
    cards = set(deck)
    steps = NIGHTS[ruleset]
    # A copier in the deck (the Doppelganger) may wake with the role it copied.
    copier = any(ROLES[s.role].copies and s.role in cards for s in steps)
    calls: list[Call] = []
    # Daybreak: the werewolves' step wakes the alpha and mystic wolves too, even with no plain
    # werewolf card in the deck; Vampire: the vampires' step wakes the Master and the Count.
    woken = cards | {ROLES[c].wakes_with for c in cards if ROLES[c].wakes_with is not None}
    marks = has_marks(cards)
    vampires = _vampires_step(steps, cards) if marks else None
    last: WakeStep | None = None  # the step called last
    for step in steps:
        if step.deck is not None and (step.deck == "vampire") != marks:
            # Vampire's dusk, and the Doppelganger's step at -7 or 1 (docs/rules.md 8b.3).
            continue
        if step.handler == "lovers":
            # The end of dusk wakes everyone, whatever the deck's cards (8b.2).
            calls += _end_of_dusk(cards, pauses, NIGHT_SECTIONS[ruleset])
            last = step
            continue
        if step.role not in woken or (step.copied is not None and step.copied not in cards):
            continue
        if step.handler == "vampires" and step is not vampires:
            continue  # the vampires wake once (8b.3)
        words = _calls(step.role, step.copied)
        wake = words.wake_with_doppelganger if copier and words.wake_with_doppelganger else None
        wake_words, sleep_words = _(wake or words.wake), _(words.sleep)
        expansion = _expansion_words(steps, step, words, cards, copier)
        if expansion is not None:
            wake_words, sleep_words = expansion
        if words.stays_awake:
            if last is not None and last.role is step.role and last.copied is None:
                # The Doppelganger-minion stays awake after the Doppelganger's step (rules/002
                # s5): that step ends with "keep your eyes open if...", not "close your eyes".
                calls[-1] = replace(calls[-1], sleep=_(words.stays_awake))
            else:
                # With dusk the copy was made at -7: the Doppelganger-minion wakes again.
                wake_words = f"{MINION_COPY_WAKES} {wake_words}"
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
        last = step
    return tuple(calls)


# --- The reveal sheet ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the reveal sheet concludes: the dead and why, the winners and why. `notes`: what
    the sheet was told beyond the cards (Daybreak's artifacts, and whom they or the paranormal
    investigator's change made play as another role; Vampire's marks other than Clarity, the
    Copycat's copy, who voted for the Mark of Disease), in sentences. `marked`: scored with
    marks (docs/rules.md 8b.6); `epic`: the Epic Battle's count applied."""

    dead: tuple[str, ...]
    vote_reason: str
    winners: tuple[str, ...]
    reason: str
    counts: Mapping[str, int]
    notes: tuple[str, ...] = ()
    marked: bool = False
    epic: bool = False


# What a paranormal investigator may become (docs/rules.md 8a.5): a werewolf or the tanner.
INVESTIGATOR_BECOMES = (Role.WEREWOLF, Role.TANNER)


def _check_marks(players: Sequence[str], marks: Mapping[str, Mark]) -> None:
    """Every player holds one mark, and no more of a mark than the box holds (docs/rules.md
    8b.2: the pool's counts, two sets but one Mark of the Vampire; a Mark of Clarity each)."""
    missing = [p for p in players if p not in marks]
    if missing:
        raise RuleError(_("Choose %(player)s's mark.") % {"player": missing[0]})
    for mark, count in Counter(marks[p] for p in players).items():
        most = POOL[mark] + (len(players) if mark is Mark.CLARITY else 0)
        if count > most:
            raise RuleError(
                # Translators: %(mark)s is a mark's name ("Mark of Love"); %(count)d how many
                # the sheet gave.
                ngettext(
                    "A game has only %(most)d %(mark)s token, not %(count)d.",
                    "A game has only %(most)d %(mark)s tokens, not %(count)d.",
                    most,
                )
                % {"most": most, "mark": mark.title, "count": count}
            )


def reveal_sheet(
    ruleset: Ruleset,
    players: Sequence[str],
    final: Mapping[str, Role],
    votes: Mapping[str, str | None],
    copied: Role | None = None,
    *,
    artifacts: Mapping[str, Artifact] | None = None,
    investigator: Role | None = None,
    marks: Mapping[str, Mark] | None = None,
    copycat: Role | None = None,
    copied_nothing: bool = False,
) -> Verdict:
    """The dead and the winners from the cards the players hold at the end (turned over at the
    table) and whom each pointed at: the engine's own tally and outcome (rules/000 s6a, s6c,
    rules/002 s6). `copied` is the role the Doppelganger copied, if its card is held.
    Daybreak (docs/rules.md 8a.5, 8a.6): `artifacts`, the artifact on each player's card;
    `investigator`, what the paranormal investigator card became (a werewolf or the tanner),
    played by whoever holds it. Vampire (8b.2, 8b.6): `marks`, each player's mark at the end
    (None: a game without marks); `copycat`, the role the Copycat card copied (None: it copied
    nothing, it began in the centre). `copied_nothing`: the sheet says the Doppelganger card
    copied no one (it began in the centre and came to a player in the night). Raises RuleError
    if the sheet is incomplete or impossible."""
    players = tuple(players)
    artifacts = {p: a for p, a in (artifacts or {}).items() if p in players}
    if (marks is not None or copycat is not None) and ruleset is not Ruleset.OFFICIAL:
        raise RuleError(_("Marks and the Copycat are for the official rules."))
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
    if Role.DOPPELGANGER in final.values() and copied is None and not copied_nothing:
        raise RuleError(_("Say which role the Doppelganger copied (or that it copied none)."))
    if copycat is Role.COPYCAT:
        raise RuleError(_("The Copycat copies a card in the centre, not itself."))
    # A hand-made sheet with a card not played online (online.py) is refused.
    held = [*(final[p] for p in players), *(r for r in (copied, copycat) if r is not None)]
    offline = not_online(held)
    if offline:
        raise RuleError(offline)
    if marks is None and has_marks(held):
        # 8b.2: a deck with a Vampire card plays with marks; the sheet must say them.
        raise RuleError(_("Choose each player's mark: Vampire's cards play with marks."))
    if marks is not None:
        marks = {p: marks[p] for p in players if p in marks}
        _check_marks(players, marks)
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
    if copycat is not None:
        # 8b.4: the copied role travels with the Copycat card; a copy of the Doppelganger is a
        # villager.
        became[Role.COPYCAT] = Role.VILLAGER if copycat is Role.DOPPELGANGER else copycat
    if copied is Role.COPYCAT:
        # 8b.5: a Doppelganger that copied the Copycat plays as the Copycat's copy.
        copied = became.get(Role.COPYCAT, Role.VILLAGER)
    night = NightResult(
        deal=deal,
        final=cards,
        seen={},
        copied=copied,
        log=(),
        actions={},
        artifacts=artifacts,
        became=became,
        marks=marks or {},
    )
    # The engine's own vote and outcome (engine/game.py), the marks' with marks (engine/epic.py).
    game = finish_game(night, votes)
    assert game.vote is not None and game.outcome is not None
    return Verdict(
        dead=game.vote.dead,
        vote_reason=game.vote.reason,
        winners=game.outcome.winners,
        reason=game.outcome.reason,
        counts=game.vote.counts,
        notes=_sheet_notes(night, players, game.vote.votes),
        marked=bool(night.marks),
        epic=game.vote.epic,
    )


def _sheet_notes(
    night: NightResult, players: Sequence[str], votes: Mapping[str, str | None]
) -> tuple[str, ...]:
    """Daybreak's and Vampire's part of the verdict: each artifact held, each mark other than
    Clarity, each player whom an artifact, the investigator's change or the Copycat's copy made
    play as another role than their card's, and each vote for the Mark of Disease."""
    notes: list[str] = []
    for player in players:
        artifact = night.artifacts.get(player)
        if artifact is not None:
            notes.append(
                _("%(player)s held the %(artifact)s.")
                % {"player": player, "artifact": artifact.title}
            )
        mark = night.marks.get(player)
        if mark is not None and mark is not Mark.CLARITY:
            # Translators: %(mark)s is a mark's name ("Mark of Love").
            notes.append(
                _("%(player)s held the %(mark)s.") % {"player": player, "mark": mark.title}
            )
        target = votes.get(player)
        if target is not None and night.marks.get(target) is Mark.DISEASE:
            # docs/rules.md 8b.2: whoever votes for the Mark of Disease cannot win.
            diseased = _(
                "%(player)s voted for %(target)s, who held the Mark of Disease, and cannot win."
            )
            notes.append(diseased % {"player": player, "target": target})
        card, role = night.final[player], night.plays_as(player)
        sets_role = artifact is not None and ARTIFACTS[artifact].plays_as is not None
        if card is Role.COPYCAT and Role.COPYCAT in night.became and not sets_role:
            notes.append(
                # Translators: %(role)s is the name of the card the Copycat copied ("Seer").
                _("%(player)s held the Copycat, which copied the %(role)s.")
                % {"player": player, "role": role.title}
            )
            continue
        if role is card:
            continue
        # The roles counted here are the claw's, brand's and cudgel's (werewolf, villager,
        # tanner) and the investigator's (8a.5: werewolf or tanner), so "a" fits each.
        if sets_role:
            assert artifact is not None
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
