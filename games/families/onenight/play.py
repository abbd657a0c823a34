"""One Night at a table: the deal, the night's actions, the day, the vote and the reveal.

The game's state is a JSON object kept by the table core (`OneNightState` reads and writes it);
every ruling comes from the engine (games/families/onenight/engine). Phases: "night" (every
seat sends its action; the night resolves when all are in or its time limit passes), "day" (the
chat, "ready to vote", the host may end it), "voting" (secret votes), "reveal"; or "cancelled".
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.tables import language
from games.tables.family import Change, FamilyError, NotAllowed, Note, NotNow, SeatInfo, TableInfo

from . import options as table_options
from .engine import (
    CENTRE_POSITIONS,
    ActionRule,
    Artifact,
    Deal,
    NightResult,
    Requirement,
    Role,
    RuleError,
    Ruleset,
    action_rule,
    copied_action_rule,
    deal_cards,
    finish_game,
    resolve_night,
    validate_action,
    validate_copy,
)
from .engine.actions import copycat_action_rule
from .engine.roles import ROLES
from .hold import HELD_MESSAGE, copy_held, copy_shielded, copy_waits

# The phases' names. The table stores its label once for every reader (and compares it to
# tell a new step from the same one): it is written in the site's language (docs/i18n.md).
LABELS = {
    # Translators: the phases of a game, shown at the top of its page.
    "night": gettext_lazy("Night"),
    "day": gettext_lazy("Day"),
    "voting": gettext_lazy("Voting"),
    "reveal": gettext_lazy("Reveal"),
    "cancelled": gettext_lazy("Cancelled"),
}
WRONG_PHASE = {
    "night": gettext_lazy("It is night: that can't be done now."),
    "day": gettext_lazy("It is the day: that can't be done now."),
    "voting": gettext_lazy("Voting is under way: that can't be done now."),
    "reveal": gettext_lazy("This game is over."),
    "cancelled": gettext_lazy("This game was cancelled."),
}


@dataclass(frozen=True, slots=True)
class OneNightState:
    """A read-only view of the stored state (a JSON object) with the engine's types."""

    raw: Mapping[str, Any]

    @property
    def phase(self) -> str:
        return self.raw["phase"]

    @property
    def players(self) -> list[tuple[int, str]]:
        """(seat id, name) in seat order, as dealt."""
        return [(int(i), n) for i, n in self.raw["players"]]

    def name_of(self, seat_id: int) -> str | None:
        return next((n for i, n in self.players if i == seat_id), None)

    def id_of(self, name: str) -> int | None:
        return next((i for i, n in self.players if n == name), None)

    @property
    def deal(self) -> Deal:
        return Deal(
            ruleset=Ruleset(self.raw["ruleset"]),
            players=tuple(n for _i, n in self.players),
            cards={p: Role(r) for p, r in self.raw["cards"].items()},
            artifacts=tuple(Artifact(a) for a in self.raw.get("artifacts", ())),
        )

    @property
    def actions(self) -> Mapping[str, Mapping[str, Any]]:
        """Each player's action by name: targets (engine words), complete, by_deadline."""
        return self.raw["actions"]

    def complete_actions(self) -> dict[str, list[str]]:
        return {n: list(a["targets"]) for n, a in self.actions.items() if a["complete"]}

    def night(self) -> NightResult:
        """The night as the engine resolves it from the sent actions (after the night)."""
        return resolve_night(self.deal, {n: a["targets"] for n, a in self.actions.items()})

    @property
    def ready(self) -> list[int]:
        return list(self.raw["ready"])

    @property
    def ring(self) -> list[int]:
        return list(self.raw["ring"])

    @property
    def votes(self) -> Mapping[str, int | None]:
        """Each voter's seat id (as a string key) -> the seat voted for, or None."""
        return self.raw["votes"]

    @property
    def result(self) -> Mapping[str, Any] | None:
        return self.raw.get("result")


def _state(table: TableInfo) -> OneNightState:
    return OneNightState(table.state)


def _with(table: TableInfo, **changes: Any) -> dict[str, Any]:
    return {**table.state, **changes}


def _change(
    table: TableInfo, state: Mapping[str, Any], *, deadline: datetime | None, notes: Sequence[str]
) -> Change:
    """The change to store. `notes` (made under `language.shared()`) and the phase's label are
    written once for every reader, in the site's language."""
    phase = state["phase"]
    with language.shared():
        label = str(LABELS[phase])
    return Change(
        state=dict(state),
        phase=phase,
        phase_label=label,
        round=1,
        deadline=deadline,
        notes=tuple(Note(text) for text in notes),
        finished=phase in ("reveal", "cancelled"),
    )


def _expect(table: TableInfo, *phases: str) -> OneNightState:
    state = _state(table)
    if state.phase not in phases:
        wrong = WRONG_PHASE.get(state.phase)
        raise NotNow(str(wrong) if wrong is not None else _("That can't be done now."))
    return state


def _later(now: datetime, minutes: int | None) -> datetime | None:
    return now + timedelta(minutes=minutes) if minutes else None


# --- The deal ------------------------------------------------------------------------------------


def start(table: TableInfo, rng: random.Random, now: datetime) -> Change:
    """Deal the cards with `rng` (the core's secure source) and begin the night. The voting
    ring (rules/000 s6a) is shuffled with the same source."""
    seats = sorted(table.seats, key=lambda s: s.position)
    deck = table_options.deck_of(table.ruleset, table.options, len(seats))
    try:
        deal = deal_cards(Ruleset(table.ruleset), [s.name for s in seats], deck, rng)
    except RuleError as error:
        raise FamilyError(str(error)) from None
    ring = [s.id for s in seats]
    rng.shuffle(ring)
    state = {
        "ruleset": table.ruleset,
        "phase": "night",
        "players": [[s.id, s.name] for s in seats],
        "cards": {p: deal.cards[p].value for p in deal.positions},
        # Daybreak: the Curator's artifact pile, in drawing order (empty without a Curator).
        "artifacts": [a.value for a in deal.artifacts],
        "actions": {},
        "ready": [],
        "ring": ring,
        "votes": {},
    }
    with language.shared():
        note = _("The cards are dealt and night falls. Read your role and send your action.")
    return _change(
        table, state, deadline=_later(now, table.options.get("night_minutes")), notes=[note]
    )


# --- The night -----------------------------------------------------------------------------------


def gremlin_words() -> tuple[str, ...]:
    """The Gremlin's words, from its record's action (engine/roles_vampire.py)."""
    rule = ROLES[Role.GREMLIN].action
    assert rule is not None
    return rule.words


# Vampire's words a form posts as they stand (docs/rules.md 8b.7): the Gremlin's "marks" or
# "cards" (its record's words), first; the Marksman's "-" for no card or no mark.
TARGET_WORDS: tuple[str, ...] = gremlin_words()
NOBODY = "-"


def named_targets(state: OneNightState, values: Sequence[str]) -> list[str]:
    """The targets as the engine names them. A page posts a player as their seat id (a name is
    only ever shown) and a centre card by its position ("left", or "left,middle" for two);
    nothing is ever read as a name (issue 25). Vampire's forms add two words: the Gremlin's
    "marks" or "cards" (the first value only) and the Marksman's "-" (8b.7)."""
    named: list[str] = []
    for value in values:
        value = value.strip()
        if not value:
            continue
        if value.isascii() and value.isdigit():
            name = state.name_of(int(value))
            if name is None:
                raise FamilyError(_("Choose your targets from the list on the page."))
            named.append(name)
            continue
        if value == NOBODY or (value in TARGET_WORDS and not named):
            named.append(value)
            continue
        parts = value.split(",")
        centre = [part in CENTRE_POSITIONS for part in parts]
        # The shapes a form offers: "left,middle" (two centre cards); Daybreak's "left,12" (the
        # witch's centre card, then the player) and "12,15" (the paranormal investigator's two
        # looks, in order). Anything else is not from the page.
        if not (all(centre) or centre == [True, False] or centre == [False, False]):
            raise FamilyError(_("Choose your targets from the list on the page."))
        for part, is_centre in zip(parts, centre, strict=True):
            if is_centre:
                named.append(part)
                continue
            name = state.name_of(int(part)) if part.isascii() and part.isdigit() else None
            if name is None:
                raise FamilyError(_("Choose your targets from the list on the page."))
            named.append(name)
    return named


def copier(deal: Deal, name: str) -> Role | None:
    """The card `name` was dealt if it copies in two steps: the Doppelganger (another player's
    card, rules/002 s5) or Vampire's Copycat (a centre card, docs/rules.md 8b.4); else None."""
    card = deal.cards.get(name)
    return card if card in (Role.DOPPELGANGER, Role.COPYCAT) else None


def step_rule(deal: Deal, name: str, sent: Sequence[str]) -> ActionRule:
    """The rule for what `name` sends next: after a copier's first step, the copied role's
    (the Doppelganger's copy: `copied_action_rule`; the Copycat's: `copycat_action_rule`); else
    the start card's."""
    card = copier(deal, name)
    if card is Role.DOPPELGANGER and sent:
        return copied_action_rule(deal.cards[sent[0]], deal, name)
    if card is Role.COPYCAT and sent:
        return copycat_action_rule(deal, name, sent[0])
    return action_rule(deal, name)


def _for_player(error: RuleError, name: str) -> str:
    """Engine messages name the player ("Ann: you cannot..."); on Ann's own page, drop the name
    and start the sentence with a capital ("You cannot...")."""
    text = str(error)
    prefix = f"{name}: "
    if not text.startswith(prefix):
        return text
    rest = text[len(prefix) :]
    return rest[:1].upper() + rest[1:]


def copy(
    table: TableInfo, seat: SeatInfo, fields: Mapping[str, Sequence[str]], now: datetime
) -> Change:
    """A copier's first step: the Doppelganger copies another player's card (rules/002 s5), the
    Copycat a centre card ("left", "middle" or "right"; docs/rules.md 8b.4). The copied card is
    shown at once (but a copy the Sentinel may shield waits: `copy_held`, docs/rules.md 8a.10);
    if the copied role acts no further, the action is complete."""
    state = _expect(table, "night")
    deal = state.deal
    card = copier(deal, seat.name)
    if card is None:
        raise NotAllowed(_("Only the Doppelganger copies another card."))
    if seat.name in state.actions:
        raise FamilyError(_("You already chose whom to copy; it is final."))
    targets = named_targets(state, fields.get("targets", ()))
    if card is Role.COPYCAT:
        if len(targets) != 1 or targets[0] not in CENTRE_POSITIONS:
            raise FamilyError(_("Choose the one centre card you copy."))
        rule = copycat_action_rule(deal, seat.name, targets[0])
    else:
        if len(targets) != 1:
            raise FamilyError(_("Choose the one player whose card you copy."))
        try:
            copied = validate_copy(deal, seat.name, targets[0])
        except RuleError as error:
            raise FamilyError(_for_player(error, seat.name)) from None
        rule = copied_action_rule(copied, deal, seat.name)
    complete = rule.requirement is Requirement.NONE
    actions = {**state.actions, seat.name: {"targets": targets, "complete": complete}}
    if copy_held(OneNightState(_with(table, actions=actions)), seat.name):
        # docs/rules.md 8a.10: the copy waits, its card unseen, whatever the copied role does.
        actions[seat.name] = {"targets": targets, "complete": False}
    return _after_action(table, _with(table, actions=actions), now)


def act(
    table: TableInfo, seat: SeatInfo, fields: Mapping[str, Sequence[str]], now: datetime
) -> Change:
    """A seat's night action, final once sent; "no action" (its own button) is no action. For
    a Doppelganger or a Copycat that copied, the copied role's own action. The last action
    resolves the night in the same move."""
    state = _expect(table, "night")
    deal = state.deal
    existing = state.actions.get(seat.name)
    if existing is not None and existing["complete"]:
        raise FamilyError(_("You already sent your night action; it is final."))
    if copy_held(state, seat.name):
        raise FamilyError(str(HELD_MESSAGE))
    sent = list(existing["targets"]) if existing else []
    rule = step_rule(deal, seat.name, sent)
    named = [] if fields.get("no_action") else named_targets(state, fields.get("targets", ()))
    if all(n == NOBODY for n in named):
        # The Marksman's "-" twice is no card and no mark: nothing picked (8b.7).
        named = []
    must = rule.requirement is Requirement.MANDATORY
    if not named and not fields.get("no_action"):
        # A form sent with nothing picked is not "no action": that is its own button, which a
        # role that must act (the Drunk, rules/000 s4) does not have.
        if must:
            raise FamilyError(_("Pick your target first: your role must act tonight."))
        raise FamilyError(_("Pick your target, or choose “no action”."))
    if fields.get("no_action") and must and rule.aim is not None:
        # Vampire's "must" roles (8b.3) have no "no action" button either: the engine acts for
        # them, on the first legal player, only when the night's time runs out.
        raise FamilyError(_("Pick your target first: your role must act tonight."))
    if copier(deal, seat.name) is not None and existing is None and named:
        # The copy comes first, on its own: checking a whole action at once would answer with
        # the rule of whatever card it names, a peek at any card before choosing.
        raise FamilyError(_("Choose whom to copy first; then send the copied role's action."))
    full = sent + named
    try:
        checked = validate_action(deal, seat.name, full)
    except RuleError as error:
        raise FamilyError(_for_player(error, seat.name)) from None
    actions = {**state.actions, seat.name: {"targets": list(checked), "complete": True}}
    return _after_action(table, _with(table, actions=actions), now)


def _release(raw: dict[str, Any]) -> dict[str, Any]:
    """docs/rules.md 8a.10: once every other player's action is in, a held Doppelganger copy
    is let go. A shielded copy failed (8a.3): the action is complete, with nothing more to
    send; so is a copy whose role does nothing more. Else the copied role's action is asked."""
    state = OneNightState(raw)
    for _i, name in state.players:
        action = state.actions.get(name)
        if not action or action["complete"] or not copy_waits(state, name):
            continue
        if copy_held(state, name) or len(action["targets"]) != 1:
            continue
        rule = step_rule(state.deal, name, action["targets"])
        if copy_shielded(state, name) is not None or rule.requirement is Requirement.NONE:
            actions = {**state.actions, name: {**action, "complete": True}}
            return {**raw, "actions": actions}
    return raw


def _after_action(table: TableInfo, raw: dict[str, Any], now: datetime) -> Change:
    raw = _release(raw)
    state = OneNightState(raw)
    if len(state.complete_actions()) >= len(state.players):
        return _dawn(table, raw, now)
    return _change(table, raw, deadline=table.deadline, notes=())


def _chosen_for(
    rule: ActionRule, name: str, sent: list[str], state: OneNightState, rng: random.Random
) -> list[str]:
    """Targets chosen at random for an action that must be sent, in the rule's first shape:
    the drunk's one centre card (rules/000 s4), or any shape a role record gives; only a choice
    the night accepts (an alpha wolf's non-werewolf, say). Vampire's "must" roles (a rule with
    an `aim`) send nothing: the engine acts on the first legal player itself (8b.3)."""
    if rule.aim is not None:
        return []
    shape = rule.shapes[0]
    others = [n for _seat_id, n in state.players if n != name]
    for _attempt in range(50):
        chosen: list[str] = []
        for pool, count in ((others, shape.players), (list(CENTRE_POSITIONS), shape.centre)):
            for _pick in range(count):
                chosen.append(rng.choice([p for p in pool if p not in chosen]))
        try:
            validate_action(state.deal, name, [*sent, *chosen])
        except RuleError:
            continue
        return chosen
    return []


def _fill_missing(state: OneNightState, rng: random.Random) -> dict[str, Any]:
    """The night's time limit passed: an optional action left out counts as none; a drunk (or
    a Doppelganger who copied the drunk) is given a random centre card, since the drunk must act
    (rules/000 s4; docs/rules.md); any role that must act is given random targets alike, but
    Vampire's marking roles, for which the engine acts itself (8b.3). A Copycat that copied
    nothing is given a random centre card first, then its copy's targets alike."""
    deal = state.deal
    actions = dict(state.actions)
    for _seat_id, name in state.players:
        action = actions.get(name)
        if action is not None and action["complete"]:
            continue
        sent = list(action["targets"]) if action else []
        if copier(deal, name) is Role.COPYCAT and not sent:
            sent = [rng.choice(list(CENTRE_POSITIONS))]
        rule = step_rule(deal, name, sent)
        must = rule.requirement is Requirement.MANDATORY
        extra = _chosen_for(rule, name, sent, state, rng) if must else []
        actions[name] = {"targets": sent + extra, "complete": True, "by_deadline": True}
    return actions


def _dawn(table: TableInfo, raw: dict[str, Any], now: datetime) -> Change:
    """Every action is in: the night is resolved (on each read, by the engine) and the day
    begins, with its chat open for the table's day length (rules/000 s3c)."""
    minutes = int(table.options.get("day_minutes") or table_options.DAY_MINUTES)
    day = {**raw, "phase": "day", "ready": []}
    with language.shared():
        note = ngettext(
            "Dawn: the night is over and the chat is open for %(minutes)d minute. Talk it over.",
            "Dawn: the night is over and the chat is open for %(minutes)d minutes. Talk it over.",
            minutes,
        ) % {"minutes": minutes}
    return _change(table, day, deadline=_later(now, minutes), notes=[note])


# --- The day -------------------------------------------------------------------------------------


def ready(
    table: TableInfo, seat: SeatInfo, fields: Mapping[str, Sequence[str]], now: datetime
) -> Change:
    """A player marks (or, with ready=no, unmarks) "ready to vote"; when everyone is ready,
    the day ends."""
    state = _expect(table, "day")
    wants = (fields.get("ready") or ["yes"])[-1] != "no"
    if wants == (seat.id in state.ready):
        # Said twice (another tab, the chat): nothing to change, and nobody is told otherwise.
        if wants:
            raise FamilyError(_("You are already ready to vote."))
        raise FamilyError(_("You have not said you are ready, so there is nothing to take back."))
    ready_now = [i for i in state.ready if i != seat.id] + ([seat.id] if wants else [])
    raw = _with(table, ready=ready_now)
    if len(ready_now) >= len(state.players):
        return _voting(table, raw, now)
    return _change(table, raw, deadline=table.deadline, notes=())


def end_day(
    table: TableInfo, seat: SeatInfo, fields: Mapping[str, Sequence[str]], now: datetime
) -> Change:
    """The host ends the day early; voting begins."""
    if not seat.is_host:
        raise NotAllowed(_("Only the host can do that."))
    _expect(table, "day")
    return _voting(table, dict(table.state), now)


def _voting(table: TableInfo, raw: dict[str, Any], now: datetime) -> Change:
    voting = {**raw, "phase": "voting"}
    with language.shared():
        note = _("The day is over and the chat is closed. Cast your secret vote.")
    return _change(
        table, voting, deadline=_later(now, table.options.get("vote_minutes")), notes=[note]
    )


# --- The vote and the reveal ---------------------------------------------------------------------


def vote(
    table: TableInfo, seat: SeatInfo, fields: Mapping[str, Sequence[str]], now: datetime
) -> Change:
    """A secret, final vote for another player (rules/000 s3d); the last vote brings the
    reveal."""
    state = _expect(table, "voting")
    if str(seat.id) in state.votes:
        raise FamilyError(_("You already voted; votes are final."))
    raw_target = (fields.get("target") or [""])[-1].strip()
    target = (
        int(raw_target)
        if raw_target.isascii() and raw_target.isdigit() and len(raw_target) < 19
        else None
    )
    if target is None or state.name_of(target) is None:
        raise FamilyError(_("Vote for one of the players at this table."))
    if target == seat.id:
        raise FamilyError(_("You cannot vote for yourself."))
    votes = {**state.votes, str(seat.id): target}
    raw = _with(table, votes=votes)
    if len(votes) >= len(state.players):
        return _reveal(table, raw)
    return _change(table, raw, deadline=table.deadline, notes=())


def _reveal(table: TableInfo, raw: dict[str, Any]) -> Change:
    """Every vote is in: the engine tallies them and names the winners; the outcome is stored
    so the reveal never recomputes it (its reasons, written once for every reader, in the site's
    language)."""
    state = OneNightState(raw)
    names = dict(state.players)
    votes = {
        names[int(voter)]: (names[target] if target is not None else None)
        for voter, target in state.votes.items()
    }
    for _seat_id, name in state.players:
        votes.setdefault(name, None)
    with language.shared():
        result = finish_game(state.night(), votes)
        note = _("Every vote is in. The cards are turned over: see the reveal.")
    assert result.vote is not None and result.outcome is not None
    outcome = {
        "counts": dict(result.vote.counts),
        "lynched": list(result.vote.lynched),
        "hunted": list(result.vote.hunted),
        "dead": list(result.vote.dead),
        "vote_reason": result.vote.reason,
        "winners": list(result.outcome.winners),
        "teams": sorted(t.value for t in result.outcome.teams),
        "reason": result.outcome.reason,
    }
    revealed = {**raw, "phase": "reveal", "result": outcome}
    change = _change(table, revealed, deadline=None, notes=[note])
    ids = {name: seat_id for seat_id, name in state.players}
    return replace(change, dead=frozenset(ids[name] for name in result.vote.dead))


# --- The clock and the host ----------------------------------------------------------------------


def on_deadline(table: TableInfo, now: datetime, rng: random.Random) -> Change:
    """The phase's time is up: missing night actions get the documented defaults, the day
    ends, missing votes count as no vote (docs/rules.md)."""
    state = _state(table)
    if state.phase == "night":
        return _dawn(table, _with(table, actions=_fill_missing(state, rng)), now)
    if state.phase == "day":
        return _voting(table, dict(table.state), now)
    if state.phase == "voting":
        votes = dict(state.votes)
        for seat_id, _name in state.players:
            votes.setdefault(str(seat_id), None)
        return _reveal(table, _with(table, votes=votes))
    return _change(table, dict(table.state), deadline=None, notes=())


def cancel(table: TableInfo, now: datetime) -> Change:
    """The game stops; nobody's cards are shown."""
    raw = dict(table.state or {})
    raw["phase"] = "cancelled"
    return _change(table, raw, deadline=None, notes=())


MOVES = {"copy": copy, "action": act, "ready": ready, "end_day": end_day, "vote": vote}
