"""What one seat may see of a One Night game: built here, and nowhere else, from the state.

Until the reveal a seat sees its own role message and action, its own night report and its own
vote, and the public counts; at the reveal everything is public. A spectator sees the counts and
the reveal. Every page and push for a seat is rendered from `panel` (templates/onenight/).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.tables.family import Panel, SeatInfo, TableInfo

from . import options as table_options
from .cards import TEAM_NAMES
from .engine import (
    CENTRE_POSITIONS,
    CENTRE_WOLF,
    NightResult,
    NightStep,
    Role,
    Ruleset,
    max_players,
)
from .engine.messages import RoleMessage, night_report, role_message

# The night-action form is forms.py's; its names are read here too (the chat bot's letters).
from .forms import ActionForm as ActionForm
from .forms import Choice as Choice
from .forms import Select as Select
from .forms import action_form
from .hold import copy_held, copy_shielded
from .online import online_limits
from .play import LABELS, OneNightState, copier
from .suggested import does_not_fit, for_players, offered


@dataclass(frozen=True, slots=True)
class RevealRow:
    name: str
    start_role: Role
    final_role: Role
    plays_as: Role
    voted_for: str | None
    votes_received: int
    died: bool
    won: bool
    # Vampire (docs/rules.md 8b.2): the player's mark at dawn, by its name ("" without marks).
    mark: str = ""


@dataclass(frozen=True, slots=True)
class Reveal:
    """The whole truth. `centre`: (position, start card, final card), the position as the
    engine names it; `centre_named` the same with the position as a reader names it ("Left")."""

    rows: tuple[RevealRow, ...]
    centre: tuple[tuple[str, Role, Role], ...]
    copied: Role | None
    log: tuple[NightStep, ...]
    vote_reason: str
    reason: str
    teams: tuple[str, ...]
    dead: tuple[str, ...]
    # Daybreak: the tokens and marks at dawn, in sentences (shields, artifacts, face-up cards,
    # the centre werewolf card).
    tokens: tuple[str, ...] = ()

    @property
    def marks(self) -> bool:
        """Whether the game had Vampire's marks (the reveal table's column)."""
        return any(row.mark for row in self.rows)

    @property
    def centre_named(self) -> tuple[tuple[str, Role, Role], ...]:
        return tuple((position_name(p), start, final) for p, start, final in self.centre)


# The centre cards by their place, as a reader names them.
POSITION_NAMES = {
    # Translators: the three centre cards, by their place on the table: left, middle, right.
    "left": pgettext_lazy("centre card", "Left"),
    "middle": pgettext_lazy("centre card", "Middle"),
    "right": pgettext_lazy("centre card", "Right"),
}


def position_name(position: str) -> str:
    """ "Left", "Middle" or "Right", in the reader's language."""
    return str(POSITION_NAMES[position])


@dataclass(frozen=True, slots=True)
class RingSeat:
    id: int
    name: str
    is_me: bool


@dataclass(frozen=True, slots=True)
class OneNightView:
    """Everything `me` may know of the game now (None: a spectator)."""

    phase: str
    me: SeatInfo | None
    players: int
    role: RoleMessage | None = None
    action_form: ActionForm | None = None
    action_sent: bool = False
    copied: Role | None = None  # what this seat's Doppelganger copied (shown at once, but 8a.10)
    # docs/rules.md 8a.10: the Doppelganger's copy is made but its card is held back until
    # every other player's action is in (`play.copy_held`). A copy the Sentinel shielded then
    # failed (8a.3): the night is over by then, and the night report says so.
    copy_held: bool = False
    night_report: tuple[str, ...] = ()
    ready: bool = False
    ring: tuple[RingSeat, ...] = ()
    vote_up: RingSeat | None = None
    vote_down: RingSeat | None = None
    my_vote: str | None = None
    has_voted: bool = False
    reveal: Reveal | None = None
    # Daybreak: what lies in plain sight on the table for the day (shields, face-up cards,
    # artifacts face down), the same for every seat and watcher (`on_the_table`).
    on_table: tuple[str, ...] = ()

    @property
    def is_host(self) -> bool:
        return self.me is not None and self.me.is_host

    @property
    def team_name(self) -> str:
        """The team of this seat's card, in words (its role chip)."""
        return str(TEAM_NAMES[self.role.role.team.value]) if self.role else ""

    @property
    def mine(self) -> RevealRow | None:
        """This seat's own line of the reveal (its banner: won or lost, its cards)."""
        if self.reveal is None or self.me is None:
            return None
        return next((r for r in self.reveal.rows if r.name == self.me.name), None)


@dataclass(frozen=True, slots=True)
class DeckRow:
    """One role's counter in the lobby's deck picker."""

    role: Role
    count: int
    limit: int
    team: str


@dataclass(frozen=True, slots=True)
class SetRow:
    """One of the rulebooks' suggested sets in the lobby (suggested.py; docs/rules.md 8a, 8b):
    a button when it fits the table, else `why` it does not."""

    key: str
    title: str
    sizes: str  # "for 3 players:", "for 5 players or more:"
    cards: tuple[Role, ...]
    why: str  # "" when it fits
    added: int = 0  # when it fits: the cards of the suggested deck that top it up to this table


@dataclass(frozen=True, slots=True)
class LobbyView:
    options: Mapping[str, Any]
    is_host: bool
    deck_rows: tuple[DeckRow, ...]
    deck_total: int
    deck_needed: int
    deck_chosen: bool
    rules_phrase: str
    limits: tuple[int, int] = field(default=(3, 12))
    sets: tuple[SetRow, ...] = ()


def lobby(table: TableInfo, viewer: SeatInfo | None) -> Panel:
    """The family's part of the lobby: the cards (everyone sees them; the host picks) and the
    table's settings."""
    rules = Ruleset(table.ruleset)
    players = len(table.seats)
    deck = table_options.deck_of(table.ruleset, table.options, players)
    rows = tuple(
        DeckRow(
            role=r,
            count=deck.count(r),
            limit=limit + (1 if r is Role.WEREWOLF and Role.ALPHA_WOLF in deck else 0),
            team=r.team.value,
        )
        for r, limit in online_limits(rules).items()
    )
    view = LobbyView(
        options=table.options,
        is_host=viewer is not None and viewer.is_host,
        deck_rows=rows,
        deck_total=len(deck),
        # Daybreak: the Alpha Wolf's centre werewolf card is one card more.
        deck_needed=players + 3 + (1 if Role.ALPHA_WOLF in deck else 0),
        deck_chosen=bool(table.options.get("deck")),
        rules_phrase=table_options.RULES_PHRASE,
        limits=(3, max_players(rules)),
        sets=tuple(
            SetRow(
                key=s.key,
                title=str(s.title),
                sizes=for_players(s),
                cards=s.cards,
                why="" if s.fits(rules, players) else does_not_fit(s, rules, players),
                added=len(s.deck_for(rules, players)) - len(s.cards)
                if s.fits(rules, players)
                else 0,
            )
            for s in offered(table.ruleset)
        ),
    )
    return Panel("onenight/lobby.html", {"lobby": view})


def _reveal(state: OneNightState, night: NightResult) -> Reveal:
    """The whole truth, for the reveal only."""
    result = state.result or {}
    names = dict(state.players)
    voted = {
        int(voter): names.get(target) if target is not None else None
        for voter, target in state.votes.items()
    }
    counts = result.get("counts", {})
    dead = set(result.get("dead", []))
    winners = set(result.get("winners", []))
    deal = state.deal
    rows = tuple(
        RevealRow(
            name=name,
            start_role=deal.cards[name],
            final_role=night.final[name],
            plays_as=night.plays_as(name),
            voted_for=voted.get(seat_id),
            votes_received=int(counts.get(name, 0)),
            died=name in dead,
            won=name in winners,
            mark=night.marks[name].title if name in night.marks else "",
        )
        for seat_id, name in state.players
    )
    return Reveal(
        rows=rows,
        centre=tuple((p, deal.cards[p], night.final[p]) for p in CENTRE_POSITIONS),
        copied=night.copied,
        log=night.log,
        vote_reason=result.get("vote_reason", ""),
        reason=result.get("reason", ""),
        teams=tuple(result.get("teams", [])),
        dead=tuple(name for _seat_id, name in state.players if name in dead),
        tokens=daybreak_tokens(night),
    )


def daybreak_tokens(night: NightResult) -> tuple[str, ...]:
    """Daybreak's tokens and marks at dawn, for the reveal (docs/rules.md 8a)."""
    lines = [
        _("A shield lay on %(player)s's card.") % {"player": player} for player in night.shields
    ]
    lines += [_("%(player)s's card lay face up.") % {"player": player} for player in night.revealed]
    lines += [
        # Translators: %(artifact)s is an artifact token's name ("Claw of the Werewolf").
        _("%(player)s held the %(artifact)s.") % {"player": player, "artifact": artifact.title}
        for player, artifact in night.artifacts.items()
    ]
    if CENTRE_WOLF in night.final:
        lines.append(
            _("The centre werewolf card: %(start)s, at dawn %(final)s.")
            % {
                "start": night.deal.cards[CENTRE_WOLF].title,
                "final": night.final[CENTRE_WOLF].title,
            }
        )
    return tuple(lines)


def on_the_table(night: NightResult) -> tuple[str, ...]:
    """Daybreak: what everyone at a real table sees during the day, one line per fact, player
    by player in seat order (docs/rules.md 8a.4 shields are public, 8a.5 a card turned face up
    stays up for the day, 8a.6 an artifact lies face down). Public facts only: which artifact
    it is stays with its holder (their night report); a card the revealer turned back down is
    not listed (only the revealer saw it). The revealer acts after every move (8a.2: 10, 10a;
    only the curator follows, and it moves nothing), so a card face up shows its final face."""
    lines: list[str] = []
    for player in night.deal.players:
        if player in night.shields:
            # Translators: the day's "On the table" list: a shield token lies on this card.
            lines.append(_("%(player)s's card: shielded") % {"player": player})
        if player in night.revealed:
            lines.append(
                # Translators: the day's "On the table" list: the revealer turned it face up.
                _("%(player)s's card lies face up: %(card)s")
                % {"player": player, "card": night.final[player].title}
            )
        if player in night.artifacts:
            # Translators: the day's "On the table" list: an artifact token, face down.
            lines.append(_("%(player)s's card carries an artifact") % {"player": player})
    return tuple(lines)


CLOCK = {
    # Translators: the caption of the clock counting down the phase's time left.
    "night": gettext_lazy("Night ends in"),
    "day": gettext_lazy("Time left in the day"),
    "voting": gettext_lazy("Voting closes in"),
}


def _clock(phase: str) -> str:
    caption = CLOCK.get(phase)
    return str(caption) if caption is not None else ""


def _progress(state: OneNightState) -> str:
    if state.phase not in CLOCK:
        return ""  # a lobby cancelled before the deal has no actions, votes or ready list
    total = len(state.players)
    if state.phase == "night":
        text = ngettext(
            "%(n)d of %(total)d players have sent their night action.",
            "%(n)d of %(total)d players have sent their night action.",
            total,
        )
        n = len(state.complete_actions())
    elif state.phase == "day":
        text = ngettext(
            "%(n)d of %(total)d players are ready to vote.",
            "%(n)d of %(total)d players are ready to vote.",
            total,
        )
        n = len(state.ready)
    else:  # voting
        text = ngettext(
            "%(n)d of %(total)d players have voted.",
            "%(n)d of %(total)d players have voted.",
            total,
        )
        n = len(state.votes)
    return text % {"n": n, "total": total}


def view_of(table: TableInfo, viewer: SeatInfo | None) -> OneNightView:
    """What `viewer` may see now."""
    state = OneNightState(table.state)
    phase = state.phase
    players = len(state.players) if "players" in state.raw else len(table.seats)
    if "players" not in state.raw:  # cancelled before the deal
        return OneNightView(phase=phase, me=viewer, players=players)
    view: dict[str, Any] = {"phase": phase, "me": viewer, "players": players}
    night = state.night() if phase in ("day", "voting", "reveal") else None
    me = state.name_of(viewer.id) if viewer is not None else None
    if me is not None and phase != "cancelled":  # a cancelled game shows nobody's card
        view["role"] = role_message(state.deal, me)
        if phase == "night":
            mine = state.actions.get(me)
            form = action_form(state, me, mine)
            view["action_form"] = form
            view["action_sent"] = form is None
            if copy_held(state, me):
                view["copy_held"] = True
            elif copy_shielded(state, me) is not None:
                pass  # the copy failed (8a.3): its card is never shown
            elif mine is not None and copier(state.deal, me) is not None and mine["targets"]:
                # The Doppelganger's copied player's card, the Copycat's centre card.
                view["copied"] = state.deal.cards[mine["targets"][0]]
        elif night is not None:
            view["night_report"] = night_report(night, me)
            view["action_sent"] = True
        view["ready"] = viewer is not None and viewer.id in state.ready
    if phase in ("voting", "reveal"):
        names = dict(state.players)
        me_id = viewer.id if me is not None and viewer is not None else None
        ring = tuple(RingSeat(i, names[i], i == me_id) for i in state.ring if i in names)
        view["ring"] = ring
        if me_id is not None and ring:
            index = next(k for k, p in enumerate(ring) if p.is_me)
            view["vote_up"] = ring[index - 1]
            view["vote_down"] = ring[(index + 1) % len(ring)]
            if str(me_id) in state.votes:
                view["has_voted"] = True
                target = state.votes[str(me_id)]
                view["my_vote"] = names.get(target) if target is not None else None
    if phase in ("day", "voting") and night is not None:
        # The same for every seat and for watchers: only what lies in plain sight.
        view["on_table"] = on_the_table(night)
    if phase == "reveal" and night is not None and state.result:
        view["reveal"] = _reveal(state, night)
    return OneNightView(**view)


def public_status(table: TableInfo) -> tuple[str, str]:
    """The counts and the clock's caption, the same for every seat."""
    state = OneNightState(table.state)
    if "players" not in state.raw:
        return "", ""
    return _progress(state), _clock(state.phase)


def panel(table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
    view = view_of(table, viewer)
    attention = view.action_form is not None or (
        view.phase == "voting" and view.me is not None and not view.has_voted
    )
    return Panel(
        "onenight/panel.html",
        {"game": view},
        progress=_progress(OneNightState(table.state)),
        clock_label=_clock(view.phase),
        attention=attention,
        phase_label=str(LABELS.get(view.phase, "")),
    )


def private_texts(table: TableInfo, seat: SeatInfo) -> tuple[str, ...]:
    """What the moderator told `seat` privately so far (its role message and, after the night,
    its night report): the texts the chat may not quote (rules/000 s5c)."""
    view = view_of(table, seat)
    if view.role is None:
        return ()
    return (*view.role.paragraphs, *view.night_report)
