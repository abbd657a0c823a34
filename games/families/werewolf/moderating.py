"""Table mode for multi-night Werewolf (issue 28): the moderator's moves and what the
moderator's screen shows, for a game played in person.

At a table one device, the host's seat, enters what the players do: the pack's victim, each
role's night choice, the votes (counted as rules/004 III describes, "normal": the voters of each
player tapped and counted live, or "advanced": who voted for whom, counted at the end), the
Oxford game's execution calls and fists, the day's abilities and the decisions on death. The
players' seats have no device. Every move is the engine's, sent for the player the moderator
names; `undo` takes back the last of them (a mis-tap). There is no clock: the moderator paces
the game, and only a night moves on by itself, once every role has been called.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.tables.family import FamilyError, NotAllowed, NotNow, SeatInfo, TableInfo

from . import names
from .engine import (
    NOBODY,
    Accuse,
    Advance,
    CallVote,
    Decide,
    Game,
    NightAction,
    RuleError,
    SheriffVote,
    Smite,
    UseAbility,
    Vote,
    apply,
)
from .engine.causes import described
from .engine.day import SHERIFF_WEIGHT
from .engine.forms import Form, forms_for
from .engine.night import current_victim
from .engine.report import phase_reports
from .engine.roles import Timing
from .panels import FORM_TITLES, awaited_phrase
from .play import _one as _field
from .play import _send, game_of, label
from .play import _target as _player

UNDO_DEPTH = 50
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
# 004 II Witch: one potion a night; choosing one sets the other aside.
ONE_POTION = ("save", "poison")
COUNTS = ("normal", "advanced")  # rules/004 III's two ways of counting a vote
# The moves the moderator makes for one named player (the form's "as").
FOR_A_PLAYER = frozenset({"night", "vote", "sheriff_vote", "ability"})
# The rule section an engine refusal ends with ("... (004 II Knight, IV).").
SECTION = re.compile(r"\(([^()]*\d[^()]*)\)\.?\s*$")
# A limited ability's uses left, on the moderator's dashboard.
USES_LEFT = {
    # Translators: on the moderator's list of players: the shots left (a crossbow, a hunter's).
    "shoot": gettext_lazy("shoot: %(count)d left"),
    "crossbow": gettext_lazy("crossbow: %(count)d left"),
    # Translators: the witch's poison potions left.
    "poison": gettext_lazy("poison: %(count)d left"),
    # Translators: the witch's antidotes left.
    "save": gettext_lazy("save: %(count)d left"),
}
# Tonight's protection of a player, on the moderator's dashboard.
TONIGHT = {
    "trap": gettext_lazy("tonight: trap %(player)s"),
    "protect": gettext_lazy("tonight: protect %(player)s"),
    "guard": gettext_lazy("tonight: guard %(player)s"),
}


# --- The moderator's moves -----------------------------------------------------------------------


def _one(fields: Mapping[str, Sequence[str]], name: str) -> str:
    """A posted field's value, trimmed ("" when not posted)."""
    return (_field(fields, name) or "").strip()


def _sent(raw: dict[str, Any], game: Game, *moves: Any) -> tuple[dict[str, Any], Game]:
    """The moves played, or a refusal in the page's words: the engine's own message names its
    internal values (a player "not None"), so the moderator reads what to do instead, with the
    rule's section the engine cited."""
    try:
        return _send(raw, game, *moves)
    except FamilyError as error:
        cited = SECTION.search(str(error))
        if cited:
            raise FamilyError(
                _("The rules do not allow that now (%(section)s): choose again on the page.")
                % {"section": cited.group(1)}
            ) from None
        raise FamilyError(_("The rules do not allow that now: choose again on the page.")) from None


def _remember(raw: dict[str, Any]) -> dict[str, Any]:
    """The state before a move, kept for `undo` (only what a move changes: the move count and
    the table's own lists)."""
    snapshot = {
        "moves": len(raw["moves"]),
        "done": list(raw.get("done") or []),
        "addressed": dict(raw.get("addressed") or {}),
        "called": list(raw.get("called") or []),
        "accusation": raw.get("accusation"),
    }
    return {**raw, "undo": [*(raw.get("undo") or [])[-(UNDO_DEPTH - 1) :], snapshot]}


def undo(raw: dict[str, Any]) -> dict[str, Any]:
    history = list(raw.get("undo") or [])
    if not history:
        raise NotNow(_("There is nothing to undo."))
    last = history.pop()
    return {
        **raw,
        "moves": raw["moves"][: last["moves"]],
        "done": last["done"],
        "addressed": last["addressed"],
        "called": last.get("called", []),
        "accusation": last["accusation"],
        "undo": history,
    }


def _night_choice(
    raw: dict[str, Any], game: Game, player: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game]:
    """One ability of one role tonight (the pack's choice for every member of the pack). It is
    added to what the player chose before; an empty target skips it."""
    key = _one(fields, "key")
    night = [f for f in forms_for(game.state, player) if f.kind == "night"]
    form = next((f for f in night if f.key == key), None)
    if form is None:
        raise NotNow(_("%(player)s has no such choice to make now.") % {"player": player})
    if _shared(game, form):
        members = [
            p
            for p in game.state.living()
            if any(f.kind == "night" and f.key == key for f in forms_for(game.state, p))
        ]
    else:
        members = [player]
    value = _one(fields, "target")
    victim = current_victim(game.state)
    addressed = {k: list(v) for k, v in (raw.get("addressed") or {}).items()}
    for member in members:
        choice = dict(game.state.choices.get(member, {}))
        settled = {key}
        if key == "save":
            if value in ("yes", "1", "on"):
                if not form.targets:  # a page from before the victim changed
                    raise FamilyError(_("The antidote cannot save anyone tonight."))
                choice["save"] = True
            else:
                choice.pop("save", None)
        else:
            target = _player(raw, value, nobody=NOBODY in form.targets)
            if target is None:
                choice.pop(key, None)
            else:
                choice[key] = target
        if key in ONE_POTION and choice.get(key):
            other = next(k for k in ONE_POTION if k != key)
            choice.pop(other, None)
            settled.add(other)
        raw, game = _sent(raw, game, NightAction(member, choice))
        addressed[member] = sorted({*addressed.get(member, []), *settled})
    done = set(raw.get("done") or [])
    if form.group_key and current_victim(game.state) != victim:
        raw, game = _reopen_antidote(raw, game, addressed, done)
    raw = {**raw, "addressed": addressed}
    for member in members:
        keys = {f.key for f in forms_for(game.state, member) if f.kind == "night"}
        if keys <= set(addressed.get(member, [])):
            done.add(member)
    return {**raw, "done": sorted(done)}, game


def _reopen_antidote(
    raw: dict[str, Any], game: Game, addressed: dict[str, list[str]], done: set[str]
) -> tuple[dict[str, Any], Game]:
    """The pack's victim changed after the witch answered: her antidote was for the victim
    she was shown (004 III: the witch "learns kill target and uses antidote/poison"), so her
    call comes again. Without this a save could be left with nobody attacked, which no
    daybreak accepts."""
    for witch in game.state.living():
        choice = dict(game.state.choices.get(witch, {}))
        keys = set(addressed.get(witch, []))
        if "save" not in keys or not any(f.key == "save" for f in forms_for(game.state, witch)):
            continue
        if choice.pop("save", None):
            raw, game = _sent(raw, game, NightAction(witch, choice))
        reopened = {"save"} | ({"poison"} if not choice.get("poison") else set())
        addressed[witch] = sorted(keys - reopened)
        done.discard(witch)
    return raw, game


def move(
    table: TableInfo, seat: SeatInfo, kind: str, fields: Mapping[str, Sequence[str]]
) -> tuple[dict[str, Any], Game, Game]:
    """A move of the moderator (the host's seat) at a table-mode game: (state, game before,
    game after)."""
    if not seat.is_host:
        raise NotAllowed(_("Only the moderator can do that."))
    raw = dict(table.state)
    before = game_of(raw)
    posted = _one(fields, "version")
    if posted and posted != str(table.version):
        # A second tap on a button the first tap already answered: the game has moved on.
        raise NotNow(_("The game has moved on since that screen: look again and tap once."))
    if kind == "undo":
        raw = undo(raw)
        return raw, before, game_of(raw)
    if kind == "count":
        wanted = _one(fields, "count")
        if wanted not in COUNTS:
            raise FamilyError(_("Count the votes the normal way or the advanced way."))
        return {**raw, "count": wanted}, before, before
    raw = _remember(raw)
    game = before
    # Only the moves made for a player read whose they are: a call passed for secrecy, the
    # votes counted at once or a decision name no one in "as" (an old page may still post it).
    player = None
    if kind in FOR_A_PLAYER and _one(fields, "as"):
        player = _player(raw, _one(fields, "as"))
    if kind == "night":
        if player is None:
            raise FamilyError(_("Say whose choice this is."))
        raw, game = _night_choice(raw, game, player, fields)
        # No daybreak by itself: the moderator may still show a seer her answer, or change a
        # choice; "Daybreak" ends the night.
    elif kind == "called":
        role = _one(fields, "role")
        if role not in game.setup.ruleset.roles:
            raise FamilyError(_("Say which role was called."))
        raw = {**raw, "called": sorted({*(raw.get("called") or []), role})}
    elif kind in ("vote", "sheriff_vote"):
        if player is None:
            raise FamilyError(_("Say who votes."))
        target = _player(raw, _one(fields, "target"), nobody=kind == "vote")
        made = Vote(player, target) if kind == "vote" else SheriffVote(player, target)
        raw, game = _sent(raw, game, made)
    elif kind in ("votes", "sheriff_votes"):
        # rules/004 III "advanced": every record at once; a blank leaves that voter out.
        for name, seat_id in raw["seats"].items():
            value = _one(fields, f"vote_{seat_id}")
            if not value or name not in game.state.alive:
                continue
            target = None if value == "abstain" else _player(raw, value, nobody=kind == "votes")
            made = Vote(name, target) if kind == "votes" else SheriffVote(name, target)
            raw, game = _sent(raw, game, made)
        raw, game = _sent(raw, game, Advance())
    elif kind == "ability":
        if player is None:
            raise FamilyError(_("Say who uses it."))
        ability = _one(fields, "ability")
        form = next(
            (f for f in forms_for(game.state, player) if f.kind == "day" and f.key == ability),
            None,
        )
        if form is None:
            raise NotNow(_("%(player)s has no such choice to make now.") % {"player": player})
        target = _player(raw, _one(fields, "target"))
        if target is None and form.targets and not form.optional:
            # A duel or a shot names someone (004 II Knight): there is no "no one" to choose.
            raise FamilyError(
                _("Choose the player %(player)s names: %(title)s needs one.")
                % {"player": player, "title": str(FORM_TITLES.get(form.key, form.key))}
            )
        raw, game = _sent(raw, game, UseAbility(player, ability, target))
    elif kind == "accuse":
        accused = _player(raw, _one(fields, "accused"))
        by = _player(raw, _one(fields, "by"))
        second = _player(raw, _one(fields, "second"))
        if accused is None or by is None or second is None:
            raise FamilyError(_("Name the accused, who calls and who seconds."))
        if len({accused, by, second}) < 3:  # 003 The Local Justice System
            raise FamilyError(
                _("The accused, the caller and the seconder are three different players.")
            )
        raw, game = _sent(raw, game, Accuse(accused, by, second))
    elif kind == "fists":
        # rules/003: every living player's fist at once, open (yes) or closed (no).
        opened = set(fields.get("open") or ())
        for name in game.state.living():
            seat_id = str(raw["seats"][name])
            if any(f.kind == "call_vote" for f in forms_for(game.state, name)):
                raw, game = _sent(raw, game, CallVote(name, seat_id in opened))
        if game.state.call is not None:
            raw, game = _sent(raw, game, Advance())
    elif kind == "decide":
        awaited = game.state.awaited
        if awaited is None:
            raise NotNow(_("Nothing waits for a decision."))
        target = _player(raw, _one(fields, "target"))
        raw, game = _sent(raw, game, Decide(awaited.player, awaited.kind, target))
    elif kind == "advance":
        raw, game = _sent(raw, game, Advance())
    elif kind == "smite":  # rules/003: Fate strikes a rule-breaker down
        target = _player(raw, _one(fields, "target"))
        if target is None:
            raise FamilyError(_("Choose whom Fate smites."))
        raw, game = _sent(raw, game, Smite(target))
    else:
        raise NotNow(_("That can't be done in this game."))
    return raw, before, game


# --- What the moderator sees ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: str


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


@dataclass(frozen=True, slots=True)
class PlayerRow:
    name: str
    seat_id: int
    role: str
    side: str
    alive: bool
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VoteRow:
    """A candidate and the voters counted for them (normal counting)."""

    name: str
    seat_id: int | None
    voters: tuple[str, ...]
    count: float
    label: str = ""  # the candidate as shown (`name` is the engine's, "nobody" included)


@dataclass(frozen=True, slots=True)
class ModeratorView:
    label: str
    ruleset: str
    phase_kind: str
    step: str
    over: bool
    players: tuple[PlayerRow, ...]
    living: tuple[Choice, ...]
    calls: tuple[Call, ...] = ()
    current: Call | None = None
    read_out: tuple[str, ...] = ()
    tell: tuple[str, ...] = ()
    count: str = "normal"
    voting: str = ""  # "vote" or "sheriff_vote" while votes are taken
    vote_rows: tuple[VoteRow, ...] = ()
    ballots: tuple[tuple[str, int, str], ...] = ()  # (voter, seat id, current target seat id)
    targets: tuple[Choice, ...] = ()
    # (player, seat id, ability key, its title, what it does, its targets, whether "no one"
    # may be chosen)
    abilities: tuple[tuple[str, int, str, str, str, tuple[Choice, ...], bool], ...] = ()
    accusing: bool = False
    call: tuple[str, str, str] | None = None  # an open execution call: accused, by, second
    awaited: tuple[str, str, tuple[Choice, ...], str] | None = None  # what, who, choices, no
    sheriff: str | None = None
    outcome: str = ""
    winners: tuple[str, ...] = ()
    log: tuple[tuple[str, tuple[str, ...]], ...] = field(default_factory=tuple)
    can_undo: bool = False
    smite: bool = False


def _label(game: Game, player: str) -> str:
    role = game.setup.roles[player]
    # Translators: a player and their role ("Ann (Seer)").
    return _("%(player)s (%(role)s)") % {"player": player, "role": names.title(role)}


def _choices(form: Form, seats: Mapping[str, int]) -> tuple[Choice, ...]:
    return tuple(
        Choice(NOBODY, _("Nobody")) if t == NOBODY else Choice(str(seats[t]), t)
        for t in form.targets
        if t == NOBODY or t in seats
    )


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
# The button that declines an awaited decision: a dead hunter need not shoot (004 II Hunter:
# "can choose"), a dying sheriff may lose the badge and a sheriff may break a tie on no one
# (004 III; docs/rules.md 10 and 13).
DECLINES = {
    # Translators: a dead hunter or werewolf king does not shoot (table mode).
    "shoot": gettext_lazy("No shot"),
    # Translators: a dying sheriff hands the badge to nobody: it is lost (rules/004).
    "badge": gettext_lazy("Nobody: the badge is lost"),
    # Translators: the sheriff breaks a tie by eliminating no one.
    "tie_break": gettext_lazy("No one"),
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


def _shared(game: Game, form: Form) -> bool:
    """Whether the pack chooses once for all (rules/001's plurality, rules/004's agreement);
    rules/003's werewolves maul one by one."""
    return form.group_key and game.setup.ruleset.pack != "individual"


def _calls(game: Game, raw: Mapping[str, Any]) -> list[Call]:
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
            shared = _shared(game, form)
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
                choices=_choices(form, seats),
                chosen=label,
                done=done,
                save=form.key == "save",
                result=_seen_now(game, player) if investigates else "",
                role=role.name,
                victim=victim or "",
                chosen_value=value,
                skip=_skip(form),
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
        )
        calls.append(((1, rank, 0), call))
    calls.sort(key=lambda ranked: ranked[0])
    return [call for _rank, call in calls]


def _player_rows(game: Game, raw: Mapping[str, Any]) -> tuple[PlayerRow, ...]:
    """Every player at a glance (Fate's dashboard, rules/003): role, life, and what marks them."""
    state = game.state
    setup = game.setup
    reports = phase_reports(setup, game.log)
    latest = reports[-1] if reports else None
    mornings = [r for r in reports if r.phase.kind == "night"]
    injured = set(mornings[-1].injured or ()) if mornings else set()
    rows = []
    for player in setup.players:
        role = setup.roles[player]
        notes: list[str] = []
        death = state.deaths.get(player)
        if death is not None:
            text, _section = described(death.cause)
            notes.append(
                # Translators: on the moderator's list of players: when and how they died.
                _("died in %(phase)s: %(cause)s")
                % {"phase": names.phase(death.phase), "cause": names.text(text)}
            )
        if state.sheriff == player:
            # Translators: on the moderator's list of players: this player is the sheriff.
            notes.append(pgettext("mark", "sheriff"))
        for a, b in setup.lovers:
            if player in (a, b):
                notes.append(_("in love with %(player)s") % {"player": b if player == a else a})
        for a, b in setup.rivals:
            if player in (a, b):
                notes.append(_("rival of %(player)s") % {"player": b if player == a else a})
        for ability in setup.abilities(player):
            if ability.uses is not None and ability.key in USES_LEFT:
                left = ability.uses - state.used(player, ability.key)
                notes.append(str(USES_LEFT[ability.key]) % {"count": left})
        if player in injured and player in state.alive:
            notes.append(_("injured this morning"))
        if player in state.revealed_idiots:
            notes.append(_("revealed idiot"))
        for key, target in state.choices.get(player, {}).items():
            if key in TONIGHT and target:
                notes.append(str(TONIGHT[key]) % {"player": names.player(str(target))})
        if latest is not None and latest.silenced == player:
            # Translators: on the moderator's list of players: silenced today (rules/004).
            notes.append(pgettext("mark", "silenced"))
        seat_id = raw["seats"][player]
        alive = player in state.alive
        rows.append(PlayerRow(player, seat_id, names.title(role), role.side, alive, tuple(notes)))
    return tuple(rows)


def _read_out(game: Game, *, awaited: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What to announce at daybreak (the dead, without causes where rules/004 keeps them from
    the table) and what to tell each player privately (last night's results)."""
    reports = phase_reports(game.setup, game.log)
    night = next((r for r in reversed(reports) if r.phase.kind == "night"), None)
    if night is None or game.state.phase is None:
        return (), ()
    if game.state.phase.kind != "day" and not awaited:
        return (), ()
    lines = []
    hide_causes = game.setup.ruleset.name == "classic"  # 004 III: "without revealing cause"
    dead = names.joined(night.dead)
    if night.dead:
        if hide_causes:
            lines.append(_("Last night died: %(players)s.") % {"players": dead})
        else:
            for player in night.dead:
                text, _section = described(night.deaths[player].cause)
                role = night.revealed.get(player)
                words = {"player": player, "cause": names.text(text)}
                if role:
                    words["role"] = names.role(role)
                    # Translators: how a player died ("attacked by the werewolves"), and the
                    # role shown at their death.
                    lines.append(_("%(player)s %(cause)s. They were the %(role)s.") % words)
                else:
                    # Translators: how a player died ("attacked by the werewolves").
                    lines.append(_("%(player)s %(cause)s.") % words)
    else:
        lines.append(_("Nobody died last night."))
    if hide_causes and night.dead:
        # 004 III: "first night deceased must have last words, subsequent depends on rules".
        if night.phase.number == 1:
            lines.append(
                _("Last words: %(players)s (the first night's dead always speak).")
                % {"players": dead}
            )
        else:
            lines.append(_("Last words: %(players)s, if your table allows.") % {"players": dead})
    if night.injured:
        lines.append(
            _("Injured (a telltale wound): %(players)s.") % {"players": names.joined(night.injured)}
        )
    if night.silenced:
        lines.append(_("%(player)s is silenced today.") % {"player": night.silenced})
    from .panels import _told_lines

    tell = tuple(
        # Translators: what the moderator tells a player privately: the player, then the line.
        _("%(player)s: %(line)s") % {"player": player, "line": line}
        for player, info in night.told.items()
        for line in _told_lines(info)
    )
    return tuple(lines), tell


def moderator_view(table: TableInfo) -> ModeratorView:
    from .panels import _record_lines

    raw = table.state
    game = game_of(raw)
    state = game.state
    seats: Mapping[str, int] = raw["seats"]
    living = tuple(Choice(str(seats[p]), p) for p in state.living())
    view: dict[str, Any] = {
        "label": label(game),
        "ruleset": game.setup.ruleset.name,
        "phase_kind": state.phase.kind if state.phase else "",
        "step": state.step,
        "over": state.over,
        "players": _player_rows(game, raw),
        "living": living,
        "count": raw.get("count") or "normal",
        "sheriff": state.sheriff,
        "can_undo": bool(raw.get("undo")),
        "log": tuple(
            (names.phase(r.phase), tuple(_record_lines(r)))
            for r in phase_reports(game.setup, game.log)
        ),
    }
    if state.over:
        outcome = state.outcome
        assert outcome is not None
        view["outcome"] = names.side(outcome.winner)
        view["winners"] = outcome.winners
        return ModeratorView(**view)
    awaited = state.awaited
    if awaited is not None:
        form = next(iter(forms_for(state, awaited.player)), None)
        options = _choices(form, seats) if form is not None else ()
        what = awaited_phrase(awaited.player, awaited.kind)
        decline = str(DECLINES.get(awaited.kind, _("No one")))
        view["awaited"] = (what, awaited.player, options, decline)
        view["read_out"], view["tell"] = _read_out(game, awaited=True)
        return ModeratorView(**view)
    if state.phase is not None and state.phase.kind == "night":
        calls = _calls(game, raw)
        view["calls"] = tuple(calls)
        view["current"] = next((c for c in calls if not c.done), None)
        return ModeratorView(**view)
    view["read_out"], view["tell"] = _read_out(game)
    voting = ""
    if state.step == "election":
        voting = "sheriff_vote"
    elif state.call is None and state.step == "voting":
        voting = "vote"
    view["voting"] = voting
    if voting:
        votes = state.sheriff_votes if voting == "sheriff_vote" else state.votes
        classic = game.setup.ruleset.day == "sheriff"
        rows = []
        nobody = voting == "vote" and game.setup.ruleset.day == "plurality"
        candidates = list(state.living()) + ([NOBODY] if nobody else [])
        for candidate in candidates:
            voters = tuple(v for v, t in votes.items() if t == candidate)
            weight = sum(
                SHERIFF_WEIGHT if classic and voting == "vote" and v == state.sheriff else 1
                for v in voters
            )
            shown = names.player(candidate)
            rows.append(VoteRow(candidate, seats.get(candidate), voters, weight, shown))
        view["vote_rows"] = tuple(rows)
        view["ballots"] = tuple(
            (p, seats[p], _ballot(votes.get(p), seats))
            for p in state.living()
            if any(f.kind in ("vote", "sheriff_vote") for f in forms_for(state, p))
        )
        view["targets"] = living + ((Choice(NOBODY, _("Nobody")),) if nobody else ())
    abilities = []
    for player in state.living():
        for form in forms_for(state, player):
            if form.kind == "day":
                options = _choices(form, seats)
                summary = names.text(form.summary)
                title = str(FORM_TITLES.get(form.key, form.key))
                none = form.optional and bool(options)  # "no one" only where the rule allows
                abilities.append((player, seats[player], form.key, title, summary, options, none))
    view["abilities"] = tuple(abilities)
    if state.call is not None:
        view["call"] = (state.call.accused, state.call.by, state.call.second)
    else:
        view["accusing"] = game.setup.ruleset.day == "execution_calls" and state.step == "speech"
    view["smite"] = game.setup.ruleset.day == "execution_calls"
    return ModeratorView(**view)


def _ballot(target: str | None, seats: Mapping[str, int]) -> str:
    """A voter's current vote as the form posts it."""
    if target is None:
        return ""
    return NOBODY if target == NOBODY else str(seats.get(target, ""))
