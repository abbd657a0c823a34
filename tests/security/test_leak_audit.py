"""Leak audit: complete games played through the pages and the websocket, everything captured.

Each game is played by one django.test.Client per player (the home page, the join page, the
table page, its htmx panel, the panel fragment /g/<code>/panel, every POST answer, deliberately
wrong posts and error pages) and one websocket per player on onenight.asgi.application (hello,
panel, chat, pong and error frames), with the player's own session cookie and a same-origin
Origin header.

Before the reveal, for every seat S and everything S received:
  (a) no other seat's private text appears (role message heading and paragraphs, action prompt,
      what the Doppelganger copied, night report sentences), unless S was told the very same
      sentence;
  (b) every role word (title, value, plural; in text, attributes, classes such as team-werewolf,
      hidden inputs, data-* or comments) is one S may know: its own card, the roles named in its
      own role message, action prompt, Doppelganger copy and night report. Every card the engine
      knows, Daybreak's and Vampire's too (tests/security/audit.py `ROLE_WORD`, where the
      everyday "count" and "master" and the marks' and artifacts' names are dealt with), so the
      expansion games are held to it like the base ones;
  (c) nothing of the reveal (table, night log, outcome) and no other seat's rejoin token.
After the reveal everything is public, except other seats' tokens, which are never shown. In the
lobby no card is dealt yet: the deck picker names roles, but the deck is chosen in public.

And for every message the table core put into a channel-layer group during the games: a table
change carries only the new version, and a chat line only the line, of the public channel (the
only one One Night has) — nothing built for one seat ever goes through a group.

The deals are planned (a seeded plan per game, dealt in that order through the start POST with
the table core's chance patched) so that over the run every role of both rulesets is dealt to a
player and lies in the centre. Night actions are random legal ones (the Doppelganger's copy and
its second step included), votes random; some games let the night, the day or the vote run out.
Ten expansion games (official ruleset, `DAYBREAK_MUSTS`: six for Daybreak, four for Vampire)
deal every expansion card to a player, the Alpha Wolf's centre werewolf card included
(`Plan.stored`); their seats pick random legal choices of the night form their page shows (the
Copycat's centre card, the Count's two selects, the Gremlin's word, the Marksman's "-": docs/
rules.md 8b.7), and every seat may read what lies on the table by day (the cards turned face up:
docs/rules.md 8a.9) and its own marks in its night report. Two more are house tables with
Daybreak's cards added (`HOUSE_DAYBREAK_MUSTS`, docs/rules.md 8a.8). One deals the Sentinel and
the Doppelganger with no Vampire card (`held_copy`): the Doppelganger does not copy last (a copy
sent last is shown at once), and while its copy is held (docs/rules.md 8a.10 #5) nothing it
receives may name the copied card (`HeldCopy`: the copy's sentences, and the card's word as
(b) would find it too); it learns the card when the last other action lets the copy go, unless a
shield stopped it.

Four mutants (a role message carrying a neighbour's card, a pushed panel carrying one in an HTML
comment and a CSS class, the same with an expansion card's title, a page that forgets the hold)
check that the audit does catch leaks in pages, in frames, of the expansions' cards and in a held
copy.

Figures are gathered in AUDIT, written to test-artifacts/security/leak_audit.json and printed by
the last test of the module.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.http import HttpResponse
from django.test import Client
from django.utils import timezone

from games.families.onenight import panels
from games.families.onenight.engine import (
    CENTRE_POSITIONS,
    EXPANSION_ROLES,
    VAMPIRE_ROLES,
    ActionRule,
    Deal,
    NightResult,
    Requirement,
    Role,
    RuleError,
    Ruleset,
    action_rule,
    copied_action_rule,
    has_marks,
    max_players,
    validate_action,
    validate_deck,
)
from games.families.onenight.engine import role_limits as all_role_limits
from games.families.onenight.engine.actions import copycat_action_rule
from games.families.onenight.engine.messages import RoleMessage, night_report, role_message
from games.families.onenight.engine.night import ACTS_AT_ONCE
from games.families.onenight.hold import HELD_MESSAGE, copy_held, copy_shielded
from games.families.onenight.online import NOT_YET_ONLINE, online_limits
from games.families.onenight.options import RULES_PHRASE
from games.families.onenight.play import OneNightState, named_targets
from games.tables import consumers, push
from games.tables.family import FamilyError
from games.tables.models import Seat, Table
from tests.factories import NAMES, client_for, deal_game, form_targets, new_client, table_state
from tests.security.audit import (
    DAY,
    LOBBY,
    MOVE_OUT_OF_PHASE,
    NIGHT,
    ORIGIN,
    REVEAL,
    TEAM_ROLE,
    VOTING,
    WAIT,
    message_of,
    norm,
    plain,
    role_mentions,
    roles_named,
    socket_path,
    strings_in,
    unescaped,
    url,
    websocket_app,
)

# One test process plays every game of the audit (make test runs two): test_audit_totals, last,
# checks the totals of all of them.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("leak-audit")]


def role_limits(ruleset: Ruleset) -> dict[Role, int]:
    """The base game's cards, which the base plans cover; the Daybreak plans (`DAYBREAK_MUSTS`)
    deal the expansion's too."""
    return {r: n for r, n in all_role_limits(ruleset).items() if r not in EXPANSION_ROLES}


GAMES = 40
SEED = 20_240_611
ARTIFACT = Path(__file__).resolve().parents[2] / "test-artifacts" / "security" / "leak_audit.json"
PRE_REVEAL = (NIGHT, DAY, VOTING)
# The phase a panel shows: every page and pushed panel carries its label.
PAGE_PHASE = re.compile(r'data-phase-label="(\w+)"')

# Fixed texts of the app that name a role whatever the seat holds. Removed before the role-word
# scan (b), each with its justification:
FIXED_ROLE_TEXTS = (
    # The refusal a seat gets when it posts the Doppelganger's copy without holding the
    # Doppelganger (one deliberately wrong post per night in this audit). It is the same for every
    # seat and every deal, even in house games with no Doppelganger, so it tells nothing.
    re.compile(r"only the Doppelganger copies another card\.", re.I),
)

AUDIT: Counter[str] = Counter()
COVERAGE: dict[str, dict[str, set[str]]] = {
    kind: {"dealt": set(), "centre": set()} for kind in (*(r.value for r in Ruleset), "daybreak")
}
ACTION_KINDS: Counter[str] = Counter()
# docs/rules.md 8a.10 #5: how each Doppelganger copy held until every other action was in
# ended (shown, with the copied card, or stopped by a shield).
HELD_COPIES: Counter[str] = Counter()


# --- Plans ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    index: int
    ruleset: Ruleset
    players: tuple[str, ...]
    cards: tuple[Role, ...]  # deal order: the players in seat order, then left, middle, right
    seed: int
    night_timeout: bool
    day_end: str  # "host", "ready" or "deadline"
    vote_timeout: bool
    htmx: bool
    daybreak: bool = False  # a Daybreak deck (official or house): its forms are read, not built

    @property
    def id(self) -> str:
        kind = "daybreak" if self.daybreak else self.ruleset.value
        return f"g{self.index:02d}-{kind}-{len(self.players)}p"

    @property
    def stored(self) -> tuple[Role, ...]:
        """The deck as stored for the planned deal. With the Alpha Wolf the deal sets the first
        werewolf card apart as the centre werewolf card (engine/deck.py `deal_cards`), so it is
        stored first; `cards` keeps it last, in `Deal.positions` order."""
        if Role.ALPHA_WOLF in self.cards:
            return (self.cards[-1], *self.cards[:-1])
        return self.cards

    def limits(self) -> dict[Role, int]:
        """The counters the lobby's deck picker offers for this plan."""
        return all_role_limits(self.ruleset) if self.daybreak else role_limits(self.ruleset)


def _deck(rng: random.Random, ruleset: Ruleset, size: int, must: list[Role]) -> list[Role]:
    limits = role_limits(ruleset)
    for _ in range(500):
        pool = Counter(limits)
        deck = list(must)
        pool.subtract(must)
        if ruleset is Ruleset.OFFICIAL and Role.MASON in deck and pool[Role.MASON] > 0:
            deck.append(Role.MASON)
            pool[Role.MASON] -= 1
        rest = [r for r, k in pool.items() for _ in range(k)]
        rng.shuffle(rest)
        deck += rest[: size + 3 - len(deck)]
        if ruleset is Ruleset.OFFICIAL and deck.count(Role.MASON) == 1:
            continue
        validate_deck(ruleset, deck, size)
        return deck
    raise AssertionError("no deck found")


def make_plans() -> list[Plan]:
    """Both rulesets alternately, every table size, and every role both dealt and centred."""
    rng = random.Random(SEED)
    plans: list[Plan] = []
    seen: Counter[Ruleset] = Counter()
    for index in range(GAMES):
        ruleset = Ruleset.OFFICIAL if index % 2 else Ruleset.HOUSE
        j = seen[ruleset]
        seen[ruleset] += 1
        roles = list(role_limits(ruleset))
        sizes = list(range(3, max_players(ruleset) + 1))
        # Every table size once, then small tables (the audit's time grows with the square of
        # the table: every change pushes every seat its panel).
        size = sizes[(j * 3) % len(sizes)] if j < len(sizes) else 3 + j % 3
        centre_focus = roles[j % len(roles)]
        player_focus = roles[(j * 5 + 3) % len(roles)]
        if player_focus is centre_focus and role_limits(ruleset)[centre_focus] < 2:
            player_focus = roles[(j * 5 + 4) % len(roles)]
        must = [centre_focus, player_focus]
        doppel = (
            ruleset is Ruleset.OFFICIAL
            and j % 4 != 3
            and Role.DOPPELGANGER not in must
            and size >= 3
        )
        if doppel:
            must.append(Role.DOPPELGANGER)
        deck = _deck(rng, ruleset, size, must)
        # Arrange: the centre focus in the centre, the player focus (and Doppelganger) to players.
        rest = list(deck)
        centre: list[Role | None] = [None, None, None]
        seats: list[Role | None] = [None] * size
        rest.remove(centre_focus)
        centre[rng.randrange(3)] = centre_focus
        free = list(range(size))
        rng.shuffle(free)
        for role in must[1:]:
            rest.remove(role)
            seats[free.pop()] = role
        rng.shuffle(rest)
        for i in range(size):
            if seats[i] is None:
                seats[i] = rest.pop()
        for i in range(3):
            if centre[i] is None:
                centre[i] = rest.pop()
        assert not rest
        cards = tuple(r for r in seats + centre if r is not None)
        assert len(cards) == size + 3
        plans.append(
            Plan(
                index=index,
                ruleset=ruleset,
                players=tuple(NAMES[:size]),
                cards=cards,
                seed=rng.randrange(2**32),
                night_timeout=index % 5 == 3,
                day_end=("host", "ready", "deadline")[index % 3],
                vote_timeout=index % 6 == 4,
                htmx=index % 4 in (1, 2),
            )
        )
    return plans


# The Daybreak games (official ruleset): the expansion's cards each dealt to a player at least
# once, with and without the Doppelganger, at small tables (the audit's time grows with the
# square of the table).
DAYBREAK_MUSTS: tuple[tuple[Role, ...], ...] = (
    (Role.SENTINEL, Role.REVEALER, Role.CURATOR, Role.ALPHA_WOLF),
    (Role.WITCH, Role.PARANORMAL_INVESTIGATOR, Role.MYSTIC_WOLF, Role.DREAM_WOLF),
    (Role.VILLAGE_IDIOT, Role.APPRENTICE_SEER, Role.BODYGUARD, Role.PRINCE),
    # The Sentinel and the Doppelganger with no Vampire card: the Doppelganger's copy is held
    # until every other action is in (docs/rules.md 8a.10 #5, `held_copy`).
    (Role.ALPHA_WOLF, Role.WITCH, Role.CURATOR, Role.SENTINEL, Role.DOPPELGANGER),
    (Role.REVEALER, Role.PARANORMAL_INVESTIGATOR, Role.MYSTIC_WOLF, Role.VILLAGE_IDIOT),
    (Role.DREAM_WOLF, Role.REVEALER, Role.CURATOR, Role.ALPHA_WOLF, Role.DOPPELGANGER),
    # Vampire's cards (docs/rules.md 8b), each dealt to a player: their forms, the marks in the
    # reports, the Copycat's two steps and a Doppelganger among them.
    (Role.COPYCAT, Role.VAMPIRE, Role.THE_COUNT, Role.RENFIELD, Role.DISEASED),
    (Role.THE_MASTER, Role.CUPID, Role.INSTIGATOR, Role.PRIEST, Role.MARKSMAN),
    (Role.ASSASSIN, Role.APPRENTICE_ASSASSIN, Role.PICKPOCKET, Role.GREMLIN, Role.VAMPIRE),
    (Role.DOPPELGANGER, Role.THE_COUNT, Role.GREMLIN, Role.MARKSMAN, Role.COPYCAT),
)


def held_copy(cards: tuple[Role, ...]) -> bool:
    """A deck whose Doppelganger's copy waits for every other action (docs/rules.md 8a.10 #5;
    hold.py `copy_waits`): the Sentinel and the Doppelganger, and no Vampire card."""
    return Role.SENTINEL in cards and Role.DOPPELGANGER in cards and not has_marks(cards)


def make_daybreak_plans(first: int) -> list[Plan]:
    """A Daybreak deck per entry of DAYBREAK_MUSTS: its roles at seats, the rest of the deck
    drawn from every official card; with the Alpha Wolf a werewolf card more, at the centre
    werewolf place (the last of `Plan.cards`). A deck planned with the Sentinel and the
    Doppelganger and no Vampire card (`held_copy`) draws no Vampire card either."""
    rng = random.Random(SEED + 1)
    # The cards played online (online.py): every official card, Vampire's too (8b.7).
    limits = online_limits(Ruleset.OFFICIAL)
    plans: list[Plan] = []
    for j, must in enumerate(DAYBREAK_MUSTS):
        size = max(len(must), 4 + j % 3)
        alpha = Role.ALPHA_WOLF in must
        held = held_copy(must)
        for _ in range(500):
            pool = Counter(limits)
            pool.subtract(must)
            if alpha:
                pool[Role.WEREWOLF] -= 1  # the centre werewolf card
            else:
                pool[Role.ALPHA_WOLF] = 0  # its centre werewolf card would be one card more
            rest = [r for r, k in pool.items() for _ in range(k)]
            rng.shuffle(rest)
            fill = rest[: size + 3 - len(must)]
            if held:
                # Each Vampire card drawn gives way to the next other card of the shuffle (no
                # Mason: its count is kept), so the plans after this one draw as before.
                spare = [r for r in rest[len(fill) :] if r not in VAMPIRE_ROLES | {Role.MASON}]
                fill = [spare.pop(0) if r in VAMPIRE_ROLES else r for r in fill]
            if (list(must) + fill).count(Role.MASON) == 1:
                continue
            seats = list(must) + fill[: size - len(must)]
            rng.shuffle(seats)
            cards = (*seats, *fill[size - len(must) :], *((Role.WEREWOLF,) if alpha else ()))
            validate_deck(Ruleset.OFFICIAL, list(cards), size)
            break
        else:
            raise AssertionError("no Daybreak deck found")
        index = first + j
        plans.append(
            Plan(
                index=index,
                ruleset=Ruleset.OFFICIAL,
                players=tuple(NAMES[:size]),
                cards=cards,
                seed=rng.randrange(2**32),
                night_timeout=j % 3 == 2,
                day_end=("host", "ready", "deadline")[j % 3],
                vote_timeout=j % 4 == 1,
                htmx=j % 2 == 0,
                daybreak=True,
            )
        )
    return plans


# Daybreak's cards added to a house table (docs/rules.md 8a.8): the house night's order, the
# step-0 role messages with Daybreak's wolves, the house vote.
HOUSE_DAYBREAK_MUSTS: tuple[tuple[Role, ...], ...] = (
    (Role.SENTINEL, Role.ALPHA_WOLF, Role.WITCH, Role.DREAM_WOLF, Role.PARANORMAL_INVESTIGATOR),
    (Role.CURATOR, Role.REVEALER, Role.MYSTIC_WOLF, Role.VILLAGE_IDIOT, Role.PRINCE),
)


def make_house_daybreak_plans(first: int) -> list[Plan]:
    """A house deck per entry of HOUSE_DAYBREAK_MUSTS: its roles at seats, the rest drawn from
    every card a house table may deal (no Doppelganger, no Vampire card), with the Alpha Wolf's
    centre werewolf card as in `make_daybreak_plans`. Its own chance, so the plans before it
    draw as they did."""
    rng = random.Random(SEED + 2)
    limits = online_limits(Ruleset.HOUSE)
    plans: list[Plan] = []
    for j, must in enumerate(HOUSE_DAYBREAK_MUSTS):
        size = len(must)
        alpha = Role.ALPHA_WOLF in must
        pool = Counter(limits)
        pool.subtract(must)
        if alpha:
            pool[Role.WEREWOLF] -= 1
        else:
            pool[Role.ALPHA_WOLF] = 0
        rest = [r for r, k in pool.items() for _ in range(k)]
        rng.shuffle(rest)
        fill = rest[:3]
        seats = list(must)
        rng.shuffle(seats)
        cards = (*seats, *fill, *((Role.WEREWOLF,) if alpha else ()))
        validate_deck(Ruleset.HOUSE, list(cards), size)
        plans.append(
            Plan(
                index=first + j,
                ruleset=Ruleset.HOUSE,
                players=tuple(NAMES[:size]),
                cards=cards,
                seed=rng.randrange(2**32),
                night_timeout=j == 1,
                day_end=("ready", "host")[j],
                vote_timeout=False,
                htmx=j == 0,
                daybreak=True,
            )
        )
    return plans


PLANS = (
    make_plans()
    + make_daybreak_plans(GAMES)
    + make_house_daybreak_plans(GAMES + len(DAYBREAK_MUSTS))
)


def test_the_plans_cover_every_role_dealt_and_in_the_centre() -> None:
    """Precondition of the audit: the planned deals put every role both at a seat and in the
    centre, in each ruleset, at every table size (the games below then check it happened)."""
    for ruleset in Ruleset:
        dealt: set[Role] = set()
        centre: set[Role] = set()
        sizes: set[int] = set()
        for plan in PLANS:
            if plan.ruleset is ruleset and not plan.daybreak:
                n = len(plan.players)
                sizes.add(n)
                dealt.update(plan.cards[:n])
                centre.update(plan.cards[n:])
        assert dealt == set(role_limits(ruleset)), ruleset
        assert centre == set(role_limits(ruleset)), ruleset
        assert sizes == set(range(3, max_players(ruleset) + 1)), ruleset
    daybreak = {r for plan in PLANS if plan.daybreak for r in plan.cards[: len(plan.players)]}
    wanted = EXPANSION_ROLES - NOT_YET_ONLINE  # Vampire's too since their web step (8b.7)
    assert daybreak >= wanted, sorted(r.value for r in wanted - daybreak)


@dataclass(frozen=True)
class HeldCopy:
    """What would name the card a held copy copied (docs/rules.md 8a.10 #5): the texts of a
    copy shown, and the card's title or value as a word, unless the seat's own messages name
    that role anyway (the Doppelganger's names the roles it acts as at once)."""

    texts: tuple[str, ...]
    word: re.Pattern[str] | None


def held_copy_of(run: GameRun, name: str, model: str) -> HeldCopy:
    """What `name` may not be told while its copy of `model`'s card is held."""
    deal = run.deal
    assert deal is not None
    copied = deal.cards[model]
    mine = role_message(deal, name)
    own = " ".join((mine.heading, *mine.paragraphs, action_rule(deal, name).description))
    spelt = {tuple(re.split(r"[\s_]+", w.lower())) for w in (copied.title, copied.value)}
    word = re.compile(
        "|".join(r"\b" + r"[\s_-]+".join(map(re.escape, w)) + r"s?\b" for w in spelt), re.I
    )
    described = norm(copied_action_rule(copied, deal, name).description)
    texts = ("You copied the card of a",) + ((described,) if described not in norm(own) else ())
    return HeldCopy(texts, None if word.search(own) else word)


@dataclass
class Capture:
    seat: str
    phase: str
    kind: str
    where: str
    text: str  # the markup (or frame strings) with entities decoded
    words: str  # what a reader sees


@dataclass
class Player:
    name: str
    client: Client
    comm: WebsocketCommunicator | None = None
    seat_id: int = 0
    token: str = ""
    version: int = 0  # the newest version its page was shown


@dataclass
class GameRun:
    """One game being played and audited."""

    plan: Plan
    rng: random.Random
    players: dict[str, Player] = field(default_factory=dict)
    code: str = ""
    phase: str = LOBBY
    deal: Deal | None = None
    night: NightResult | None = None
    allowed: dict[str, set[Role]] = field(default_factory=dict)
    allowed_at: dict[tuple[str, str], frozenset[Role]] = field(default_factory=dict)
    private: dict[str, set[str]] = field(default_factory=dict)
    captures: list[Capture] = field(default_factory=list)
    deferred: list[Capture] = field(default_factory=list)
    figures: Counter[str] = field(default_factory=Counter)
    # docs/rules.md 8a.10 #5: a Doppelganger whose copy is held -> what names the copied card.
    holding: dict[str, HeldCopy] = field(default_factory=dict)

    def form_targets(self, targets: list[str]) -> list[str]:
        """What the night-action form posts for these targets: players by seat id."""
        return [str(self.players[t].seat_id) if t in self.players else t for t in targets]

    def path(self, name: str, *args: object) -> str:
        return url(name, self.code, *args)

    # --- Knowledge --------------------------------------------------------------------------

    def learn(self, name: str, roles: set[Role], texts: list[str]) -> None:
        """Seat `name` now knows these roles and was told these texts (privately)."""
        self.allowed.setdefault(name, set()).update(roles)
        for text in texts:
            self.allowed[name].update(roles_named(text))
            self.private.setdefault(name, set()).add(norm(text))
        self.allowed_at[(name, self.phase)] = frozenset(self.allowed[name])

    def set_phase(self, phase: str) -> None:
        self.phase = phase
        for name in self.players:
            self.allowed_at[(name, phase)] = frozenset(self.allowed.get(name, set()))

    # --- Capturing --------------------------------------------------------------------------

    def record(self, name: str, kind: str, where: str, text: str, phase: str | None = None) -> None:
        """Capture what seat `name` received. `phase`: the phase it shows (a panel's label),
        else the phase the game is in as far as the audit knows."""
        if phase is None:
            shown = PAGE_PHASE.search(text)
            phase = shown.group(1).lower() if shown else self.phase
        raw = unescaped(text)
        words = plain(text) if kind != "frame" else norm(raw)
        self.figures[kind] += 1
        self.figures["bytes"] += len(text)
        # Never another seat's rejoin token, in any phase.
        for other in self.players.values():
            if other.name != name and other.token:
                assert other.token not in text and other.token not in raw, (
                    f"{other.name}'s rejoin token reached {name}: {kind} {where}"
                )
        if phase not in PRE_REVEAL:
            return
        capture = Capture(name, phase, kind, where, raw, words)
        if name in self.holding and phase == NIGHT:
            self.check_held(capture, self.holding[name])
        self.captures.append(capture)
        if phase == self.phase:
            self.check_roles(capture, frozenset(self.allowed.get(name, set())))
        else:
            # Shows a phase the audit has not caught up with (the post that ended the night),
            # or one that is over (a late frame): checked against that phase's knowledge.
            self.deferred.append(capture)

    def check_roles(self, capture: Capture, allowed: frozenset[Role]) -> None:
        """(b) every role word in the capture must be one its seat may know."""
        scanned = capture.text
        for fixed in FIXED_ROLE_TEXTS:
            scanned = fixed.sub("", scanned)
        mentions = role_mentions(scanned)
        leaked = [(r, ctx) for r, ctx in mentions if r not in allowed]
        self.figures["role_words_checked"] += len({r for r, _ in mentions})
        assert not leaked, (
            f"LEAK in game {self.plan.id}: {capture.seat} (holding"
            f" {self.start_role(capture.seat)}) got {sorted({r.value for r, _ in leaked})} in"
            f" {capture.kind} {capture.where} during {capture.phase}; may know"
            f" {sorted(r.value for r in allowed)}; first: {leaked[0][1]!r}"
        )

    def check_held(self, capture: Capture, held: HeldCopy) -> None:
        """While a Doppelganger's copy is held, nothing it receives names the copied card: not
        the copy's sentences (which (b) does not read), nor the card's word (which (b) finds
        too, the copy not being learnt yet: this says why, as a held copy shown too soon)."""
        found = [t for t in held.texts if t in capture.words]
        if held.word is not None:
            found += [m.group(0) for m in held.word.finditer(capture.text)]
        self.figures["held_captures_checked"] += 1
        assert not found, (
            f"LEAK in game {self.plan.id}: {capture.seat}'s copy is held, yet {capture.kind}"
            f" {capture.where} names the card it copied: {found}"
        )

    def start_role(self, name: str) -> str:
        return self.deal.cards[name].value if self.deal else "-"

    async def http(
        self,
        player: Player,
        method: str,
        path: str,
        data: dict[str, Any] | None = None,
        *,
        htmx: bool = False,
        expect: int | tuple[int, ...] | None = None,
        drain: bool = True,
    ) -> HttpResponse:
        """One request of `player`'s browser, its answer captured; then (unless `drain` is
        False, when the caller drains after learning what the move told a seat) the frames
        it pushed to every socket."""
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        client = player.client

        def call() -> HttpResponse:
            if method == "GET":
                return client.get(path, data or {}, **extra)
            return client.post(path, data or {}, **extra)

        response = await sync_to_async(call)()
        body = response.content.decode()
        assert response.status_code < 500, (method, path, response.status_code, body[:500])
        if expect is not None:
            wanted = expect if isinstance(expect, tuple) else (expect,)
            assert response.status_code in wanted, (method, path, response.status_code, body)
        self.figures["requests"] += 1
        if method == "POST":
            self.figures["posts"] += 1
        if response.status_code >= 400:
            self.figures["error_responses"] += 1
            assert message_of(response), f"{method} {path} -> {response.status_code}: no message"
        if response.has_header("X-Table-Version"):
            player.version = max(player.version, int(response["X-Table-Version"]))
        if body:
            kind = "page" if body.lstrip().lower().startswith("<!doctype") else "fragment"
            self.record(player.name, kind, f"{method} {path} -> {response.status_code}", body)
        else:
            self.figures["empty_responses"] += 1
        if drain:
            await self.drain()
        return response

    def drain_one(self, player: Player) -> int:
        comm = player.comm
        if comm is None:
            return 0
        if comm.future.done():
            comm.future.result()  # re-raise what crashed the consumer
            raise AssertionError(f"{player.name}'s socket ended")
        count = 0
        while not comm.output_queue.empty():
            message = comm.output_queue.get_nowait()
            assert message["type"] == "websocket.send", (player.name, message)
            frame = json.loads(message["text"])
            self.figures[f"frame_{frame.get('type')}"] += 1
            text = "\n".join(strings_in(frame))
            shown = PAGE_PHASE.search(frame.get("panel", ""))
            phase = shown.group(1).lower() if shown else None
            self.record(player.name, "frame", f"ws {frame.get('type')}", text, phase)
            count += 1
        return count

    async def drain(self) -> int:
        await asyncio.sleep(0)
        return sum(self.drain_one(p) for p in self.players.values())

    async def settle(self) -> None:
        """Wait until every socket has received what the last changes caused: the panels are
        rendered on the one thread database_sync_to_async uses, so a no-op queued there
        returns after every render queued before it."""
        quiet = 0
        while quiet < 3:
            await asyncio.sleep(0.003)
            await sync_to_async(lambda: None)()  # renders queued before this one are done
            quiet = quiet + 1 if await self.drain() == 0 else 0

    async def ws_send(self, player: Player, message: Any) -> None:
        assert player.comm is not None
        await player.comm.send_json_to(message)
        self.figures["ws_sent"] += 1

    # --- Game state from the database --------------------------------------------------------

    def _phase(self) -> str:
        return Table.objects.values_list("phase", flat=True).get(code=self.code)

    async def db_phase(self) -> str:
        return await sync_to_async(self._phase)()

    async def state(self) -> OneNightState:
        def read() -> OneNightState:
            return OneNightState(Table.objects.values_list("state", flat=True).get(code=self.code))

        return await sync_to_async(read)()

    async def pass_deadline(self, player: Player) -> None:
        """Time runs out: the stored deadline is moved into the past and the next request of a
        page notices it (views: services.table_caught_up), as the panel fetch of a page whose
        socket is down would."""

        def move() -> None:
            past = timezone.now() - timedelta(seconds=1)
            updated = Table.objects.filter(code=self.code, deadline__isnull=False).update(
                deadline=past
            )
            assert updated == 1

        await sync_to_async(move)()
        await self.http(player, "GET", self.path("panel"), {"version": player.version}, htmx=True)
        self.figures["deadlines_passed"] += 1


# --- Playing ------------------------------------------------------------------------------------


def _targets_for(rng: random.Random, rule: ActionRule, me: str, deal: Deal) -> list[str]:
    """Random legal targets for `rule`, as the page posts them (a pair as two values)."""
    if rule.requirement is Requirement.NONE:
        return []
    if rule.requirement is Requirement.OPTIONAL and rng.random() < 0.2:
        return []
    others = [p for p in deal.players if p != me]
    options: list[list[str]] = []
    for shape in rule.shapes:
        if (shape.players, shape.centre) == (1, 0):
            options += [[p] for p in others]
        elif (shape.players, shape.centre) == (2, 0) and len(others) >= 2:
            options.append(rng.sample(others, 2))
        elif (shape.players, shape.centre) == (0, 1):
            options += [[c] for c in CENTRE_POSITIONS]
        elif (shape.players, shape.centre) == (0, 2):
            options.append([",".join(rng.sample(CENTRE_POSITIONS, 2))])
    return rng.choice(options)


def _action_data(run: GameRun, targets: list[str]) -> dict[str, Any]:
    return {"targets": run.form_targets(targets)} if targets else {"no_action": "1"}


async def wrong_post(run: GameRun, player: Player, options: list[tuple[str, dict, int]]) -> None:
    """One deliberately wrong post per seat and phase, picked from `options` (url, data,
    expected status); as a plain form or htmx at random. The refusal is captured too."""
    path, data, status = run.rng.choice(options)
    await run.http(player, "POST", path, data, htmx=run.rng.random() < 0.5, expect=status)


async def chat(run: GameRun, player: Player, text: str, expect: int | tuple[int, ...]) -> None:
    """A line from the page's chat box (htmx sends it; without script, a plain form)."""
    data = {"channel": "public", "text": text}
    await run.http(
        player, "POST", run.path("chat"), data, htmx=run.rng.random() < 0.7, expect=expect
    )


async def look(run: GameRun, player: Player, first: bool) -> HttpResponse:
    """What a seat's browser fetches in a phase: the page, and (always for the first seat, for
    the others at random) its htmx panel, the panel fragment a page fetches when its socket is
    down (as new, and as already shown: 204), and a resync over the socket."""
    page = await run.http(player, "GET", run.path("table"), expect=200)
    if first or run.rng.random() < 0.5:
        await run.http(player, "GET", run.path("table"), htmx=True, expect=200)
    if first or run.rng.random() < 0.5:
        await run.http(player, "GET", run.path("panel"), {"version": 0}, htmx=True, expect=200)
        shown = {"version": player.version}
        await run.http(player, "GET", run.path("panel"), shown, htmx=True, expect=(200, 204))
    if first or run.rng.random() < 0.3:
        await run.ws_send(player, {"type": "sync", "after": 0, "version": 0})
    return page


async def lobby(run: GameRun) -> None:
    plan, rng = run.plan, run.rng
    host = Player(plan.players[0], new_client())
    run.players[host.name] = host
    await run.http(host, "GET", url("home"), expect=200)
    response = await run.http(
        host,
        "POST",
        url("table_new"),
        {"host_name": host.name, "game": f"onenight:{plan.ruleset.value}"},
        expect=302,
    )
    run.code = response["Location"].strip("/").split("/")[-1]
    settings = {
        "day_minutes": 30,
        "night_minutes": 5 if plan.night_timeout else "",
        "vote_minutes": 5 if plan.vote_timeout else "",
        "rules_phrase": "yes" if plan.ruleset is Ruleset.HOUSE else "no",
    }
    await run.http(host, "POST", run.path("options"), settings, htmx=plan.htmx)
    for name in plan.players[1:]:
        player = Player(name, new_client())
        run.players[name] = player
        if rng.random() < 0.3:
            await run.http(player, "POST", url("join_by_code"), {"code": run.code}, expect=302)
        await run.http(player, "GET", run.path("join"), expect=200)
        await run.http(
            player, "POST", run.path("join"), {"name": name, "phrase": RULES_PHRASE}, expect=302
        )

    def seats() -> dict[str, tuple[int, str]]:
        return {s.name: (s.pk, s.token) for s in Seat.objects.filter(table__code=run.code)}

    for name, (pk, token) in (await sync_to_async(seats)()).items():
        run.players[name].seat_id = pk
        run.players[name].token = token
    for player in run.players.values():
        cookie = f"sessionid={player.client.cookies['sessionid'].value}"
        comm = WebsocketCommunicator(
            websocket_app(),
            socket_path(run.code),
            headers=[(b"host", b"testserver"), (b"origin", ORIGIN), (b"cookie", cookie.encode())],
        )
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected
        player.comm = comm
        run.figures["sockets"] += 1
        await run.http(player, "GET", run.path("table"), expect=200)
    await run.settle()
    # The host chooses the cards (as counts, like the form), the others look on.
    counts = Counter(plan.cards)
    await run.http(
        host,
        "POST",
        run.path("options"),
        {f"count_{r.value}": counts.get(r, 0) for r in plan.limits()},
        htmx=True,
        expect=200,
    )
    for player in list(run.players.values())[:3]:
        await chat(run, player, f"hello from {player.name}", expect=(200, 302))
        await run.http(player, "GET", run.path("panel"), {"version": player.version})
    # Wrong on purpose: a player who is not the host tries to start; an unknown table.
    second = run.players[plan.players[1]]
    await run.http(second, "POST", run.path("start"), expect=403)
    await run.http(second, "GET", url("table", "ZZZZZZZZ"), expect=404)
    await run.settle()

    # Deal the planned cards: the stored deck in deal order, the deal's shuffle a no-op (the
    # voting ring is still shuffled, by the plan's generator).
    def store_deck() -> None:
        table = Table.objects.get(code=run.code)
        table.options = {**table.options, "deck": [r.value for r in plan.stored]}
        table.save(update_fields=["options"])

    await sync_to_async(store_deck)()
    ring_rng = random.Random(plan.seed)

    class PlannedDeal(random.Random):
        def shuffle(self, items: Any) -> None:  # type: ignore[override]
            if not items or not isinstance(items[0], Role):
                ring_rng.shuffle(items)

    with mock.patch("games.tables.services.host.new_rng", PlannedDeal):
        await run.http(host, "POST", run.path("start"), htmx=plan.htmx, expect=(200, 302))


async def night(run: GameRun) -> None:
    plan, rng = run.plan, run.rng
    assert await run.db_phase() == NIGHT
    deal = (await run.state()).deal
    run.deal = deal
    n = len(plan.players)
    assert [deal.cards[p] for p in deal.positions] == list(plan.cards)
    coverage = COVERAGE["daybreak" if plan.daybreak else plan.ruleset.value]
    coverage["dealt"].update(deal.cards[p].value for p in plan.players)
    coverage["centre"].update(deal.cards[p].value for p in CENTRE_POSITIONS)
    run.set_phase(NIGHT)
    for name in plan.players:
        start = deal.cards[name]
        message = role_message(deal, name)
        # The role card is styled with the team of the seat's own card (class team-werewolf
        # for a minion, team-tanner for the tanner): known from the seat's own card.
        team = TEAM_ROLE[start.team]
        run.learn(
            name,
            {start} | ({team} if team else set()),
            [message.heading, *message.paragraphs, action_rule(deal, name).description],
        )
    await run.settle()
    action_path = run.path("move", "action")
    for player in run.players.values():
        page = await look(run, player, player.name == plan.players[0])
        heading = role_message(deal, player.name).heading
        assert heading in plain(page.content.decode()), "the audit must see private messages"
        other = run.players[next(p for p in plan.players if p != player.name)]
        await wrong_post(
            run,
            player,
            [
                (run.path("move", "vote"), {"target": other.seat_id}, 409),
                (run.path("move", "ready"), {}, 409),
                (run.path("move", "end_day"), {}, 403 if player.name != plan.players[0] else 409),
                (action_path, {"targets": "Zed"}, 400),
                (action_path, {"targets": other.name}, 400),  # a name is never a target
                (run.path("move", "sleep"), {}, 409),
            ],
        )
        await chat(run, player, "is anyone awake", expect=409)
    not_doppel = next(
        p for p in plan.players if deal.cards[p] not in (Role.DOPPELGANGER, Role.COPYCAT)
    )
    await run.http(
        run.players[not_doppel],
        "POST",
        run.path("move", "copy"),
        {"targets": run.form_targets([next(p for p in plan.players if p != not_doppel)])},
        expect=403,
    )
    await run.settle()

    if plan.daybreak:
        await daybreak_night(run)
        return
    order = list(plan.players)
    rng.shuffle(order)
    skip: set[str] = set()
    if plan.night_timeout:
        skip = set(order[: rng.randint(1, max(1, n // 3))])
    for name in order:
        player = run.players[name]
        htmx = plan.htmx or rng.random() < 0.3
        expect: tuple[int, ...] = (200,) if htmx else (302,)
        rule = action_rule(deal, name)
        if rule.role is Role.DOPPELGANGER:
            others = [p for p in plan.players if p != name]
            if name in skip and rng.random() < 0.5:
                continue  # the deadline finds no copy at all
            if rng.random() < 0.12:
                ACTION_KINDS["doppelganger copies nobody"] += 1
                await run.http(player, "POST", action_path, {"no_action": "1"}, htmx=htmx)
                continue
            # Mostly a role that acts again (the two steps), else anyone.
            acting = [p for p in others if deal.cards[p] in ACTS_AT_ONCE]
            model = rng.choice(acting if acting and rng.random() < 0.6 else others)
            copied = deal.cards[model]
            copied_rule = copied_action_rule(copied)
            ACTION_KINDS[f"doppelganger copies the {copied.value}"] += 1
            # The answer to the copy shows the copied card: known from this post on.
            run.learn(
                name,
                {copied},
                [f"You copied the card of a {copied.title}.", copied_rule.description],
            )
            if rng.random() < 0.3:
                # Wrong on purpose: the copied role's action before the copy, naming the model
                # (the refusal may not depend on whose card it names).
                targets = run.form_targets([model, "left"])
                await run.http(player, "POST", action_path, {"targets": targets}, expect=400)
            await run.http(
                player,
                "POST",
                run.path("move", "copy"),
                {"targets": run.form_targets([model])},
                htmx=htmx,
                expect=expect,
            )
            if not htmx:
                await run.http(player, "GET", run.path("table"), expect=200)
            if copied_rule.requirement is Requirement.NONE or name in skip:
                continue
            rule = copied_rule
        elif name in skip:
            continue
        targets = _targets_for(rng, rule, name, deal)
        ACTION_KINDS[f"{rule.role.value} {'acts' if targets else 'no action'}"] += 1
        await run.http(
            player, "POST", action_path, _action_data(run, targets), htmx=htmx, expect=expect
        )
        if rng.random() < 0.25:
            # Wrong on purpose: a second action (final) or, if the night just ended, too late.
            await run.http(player, "POST", action_path, {"no_action": "1"}, expect=(400, 409))
    if plan.night_timeout and await run.db_phase() == NIGHT:
        await run.pass_deadline(run.players[order[-1]])
    await run.settle()
    assert await run.db_phase() == DAY


async def _form(run: GameRun, name: str) -> panels.ActionForm | None:
    """The night-action form `name`'s page offers now (None: its action is in)."""
    state = await run.state()
    return panels.action_form(state, name, state.actions.get(name))


async def daybreak_night(run: GameRun) -> None:
    """A Daybreak night: every seat picks a random choice of the form its page shows (every
    choice a legal action: the witch's centre card and player, the investigator's looks, the
    village idiot's direction, the alpha wolf's non-werewolves), the Doppelganger copies first.
    A Doppelganger's copy held until every other action is in (docs/rules.md 8a.10 #5) is
    known to its seat only once its page shows it, and then its action is sent."""
    plan, rng = run.plan, run.rng
    deal = run.deal
    assert deal is not None
    order = list(plan.players)
    rng.shuffle(order)
    skip = set(order[: rng.randint(1, max(1, len(order) // 3))]) if plan.night_timeout else set()
    holds = held_copy(tuple(deal.cards.values()))
    if holds and deal.cards[order[-1]] is Role.DOPPELGANGER:
        # A copy sent last is shown at once: the Doppelganger goes first, so the hold is seen.
        order[0], order[-1] = order[-1], order[0]
    held: dict[str, str] = {}  # a Doppelganger whose copy is held -> the player it copied
    released: set[str] = set()  # ... and whose copy every other action has let go
    for name in order:
        if name in skip:
            continue
        player = run.players[name]
        htmx = plan.htmx or rng.random() < 0.3
        expect: tuple[int, ...] = (200,) if htmx else (302,)
        form = await _form(run, name)
        if form is not None and form.kind == "copy":
            # The Doppelganger's player or the Copycat's centre card (docs/rules.md 8b.4).
            value = rng.choice(form.choices).value
            ids = {str(p.seat_id): p.name for p in run.players.values()}
            model = ids.get(value, value)
            copied = deal.cards[model]
            ACTION_KINDS[f"{deal.cards[name].value} copies the {copied.value}"] += 1
            state = await run.state()
            waits = (
                holds
                and deal.cards[name] is Role.DOPPELGANGER
                and any(not state.actions.get(p, {}).get("complete") for p in order if p != name)
            )
            if not waits:
                # The answer to the copy shows the copied card: known from this post on.
                _learn_copy(run, name, model)
            else:
                # docs/rules.md 8a.10 #5: from the copy on, nothing it gets names the card.
                run.holding[name] = held_copy_of(run, name, model)
            await run.http(
                player,
                "POST",
                run.path("move", "copy"),
                {"targets": [value]},
                htmx=htmx,
                expect=expect,
            )
            if waits:
                await _see_held_copy(run, name)
                held[name] = model
                continue
            form = await _form(run, name)
        if form is None:
            continue
        await _send_form(run, name, form, htmx, expect, held, released)
    for name, model in held.items():
        # Every other action is in: the copy was shown (its action is sent now) or stopped.
        if await run.db_phase() != NIGHT:
            continue
        form = await _form(run, name)
        assert form is not None, (name, model, "a copy shown asks for its action")
        htmx = plan.htmx or rng.random() < 0.3
        await _send_form(run, name, form, htmx, (200,) if htmx else (302,), held, released)
    if plan.night_timeout and await run.db_phase() == NIGHT:
        await run.pass_deadline(run.players[order[-1]])
    await run.settle()
    assert await run.db_phase() == DAY


def _learn_copy(run: GameRun, name: str, model: str) -> None:
    """Seat `name` is shown the card it copied and its role's action."""
    deal = run.deal
    assert deal is not None
    copied = deal.cards[model]
    if deal.cards[name] is Role.COPYCAT:
        copied_rule = copycat_action_rule(deal, name, model)
    else:
        copied_rule = copied_action_rule(copied, deal, name)
    run.learn(
        name, {copied}, [f"You copied the card of a {copied.title}.", copied_rule.description]
    )


async def _see_held_copy(run: GameRun, name: str) -> None:
    """The Doppelganger's page while its copy is held: the copy is made, the card and the copied
    role unnamed (the role-word scan of every capture checks the rest)."""
    page = await run.http(run.players[name], "GET", run.path("table"), expect=200)
    words = plain(page.content.decode())
    assert norm(str(HELD_MESSAGE)) in words, words
    assert "You copied the card of a" not in words, words
    run.figures["held_copy_pages"] += 1


async def _send_form(
    run: GameRun,
    name: str,
    form: panels.ActionForm,
    htmx: bool,
    expect: tuple[int, ...],
    held: dict[str, str],
    released: set[str],
) -> None:
    """A random post of `name`'s night form. If it is the last other action a held copy
    waited for, the copy is let go: its seat learns the card (unless a Sentinel shield stopped
    the copy, docs/rules.md 8a.3) before the frames the move pushed are read."""
    deal = run.deal
    assert deal is not None
    state = await run.state()
    data = _form_post(run.rng, form, state, name)
    rule = action_rule(deal, name)
    ACTION_KINDS[f"{rule.role.value} {'acts' if 'targets' in data else 'no action'}"] += 1
    path = run.path("move", "action")
    player = run.players[name]
    await run.http(player, "POST", path, data, htmx=htmx, expect=expect, drain=False)
    state = await run.state()
    for doppel, model in held.items():
        if doppel == name or doppel in released:
            continue
        others = [p for p in run.plan.players if p != doppel]
        if not all(state.actions.get(p, {}).get("complete") for p in others):
            assert copy_held(state, doppel), (run.plan.id, doppel)
            continue
        released.add(doppel)
        run.holding.pop(doppel, None)
        shielded = any(
            deal.cards[p] is Role.SENTINEL
            and state.actions.get(p, {}).get("targets", [])[:1] == [model]
            for p in others
        )
        assert copy_shielded(state, doppel) == (model if shielded else None), run.plan.id
        if shielded:
            # The copy failed unseen: the action is complete, its night report says why.
            assert state.actions[doppel]["complete"], (run.plan.id, doppel)
            HELD_COPIES["stopped by a shield"] += 1
        else:
            _learn_copy(run, doppel, model)
            HELD_COPIES[f"shown: the {deal.cards[model].value}"] += 1
    await run.drain()


def _form_post(
    rng: random.Random, form: panels.ActionForm, state: OneNightState, name: str
) -> dict[str, Any]:
    """A random post of what the form offers, one the night accepts (a "selects" form may
    offer the same player twice, which the night refuses: drawn again), or "no action" where
    the form has that button."""
    if form.allow_none and (form.kind == "none" or rng.random() < 0.2):
        return {"no_action": "1"}
    sent = list(state.actions[name]["targets"]) if name in state.actions else []
    for _attempt in range(100):
        if form.kind == "pair":
            values = [c.value for c in rng.sample(form.choices, 2)]
        elif form.kind == "choice" and form.choices:
            values = [rng.choice(form.choices).value]
        elif form.kind == "selects":
            words = [rng.choice(form.words).value] if form.words else []
            values = words + [rng.choice(field.choices).value for field in form.selects]
        else:
            return {"no_action": "1"}
        try:
            targets = named_targets(state, values)
            if targets and all(t == "-" for t in targets):
                continue
            validate_action(state.deal, name, [*sent, *targets])
        except (FamilyError, RuleError):
            continue
        return {"targets": values}
    raise AssertionError(f"no legal post in {name}'s form {form}")


async def day(run: GameRun) -> None:
    plan, rng = run.plan, run.rng
    run.night = (await run.state()).night()
    run.set_phase(DAY)
    # Daybreak: the cards the revealer turned face up lie in plain sight (docs/rules.md 8a.5).
    face_up = {run.night.final[p] for p in run.night.revealed}
    on_table = panels.on_the_table(run.night)
    run.figures["on_the_table_lines"] += len(on_table)
    for name in plan.players:
        run.learn(name, face_up, list(night_report(run.night, name)))
    host = run.players[plan.players[0]]
    for player in run.players.values():
        page = await look(run, player, player is host)
        words = plain(page.content.decode())
        assert all(line in words for line in night_report(run.night, player.name))
        # Daybreak: what lies on the table, in every seat's page (so the scan reads it too).
        assert all(line in words for line in on_table), (player.name, on_table)
        other = run.players[next(p for p in plan.players if p != player.name)]
        options = [
            (run.path("move", "vote"), {"target": other.seat_id}, 409),
            (run.path("move", "action"), {"no_action": "1"}, 409),
            (run.path("start"), {}, 403 if player is not host else 409),
            (run.path("options"), {"day_minutes": "5"}, 403 if player is not host else 409),
        ]
        if player is not host:
            options.append((run.path("move", "end_day"), {}, 403))
        await wrong_post(run, player, options)
        if rng.random() < 0.5:
            await chat(run, player, f"{player.name} thinks it over", expect=(200, 302))
    await run.settle()
    if plan.day_end == "host":
        await run.http(host, "POST", run.path("move", "end_day"), htmx=plan.htmx)
    elif plan.day_end == "ready":
        first = run.players[plan.players[-1]]
        ready = run.path("move", "ready")
        await run.http(first, "POST", ready, {"ready": "yes"}, htmx=True, expect=200)
        await run.http(first, "POST", ready, {"ready": "no"}, expect=302)
        for player in run.players.values():
            await run.http(player, "POST", ready, {"ready": "yes"}, htmx=plan.htmx)
    else:
        await run.pass_deadline(host)
    await run.settle()
    assert await run.db_phase() == VOTING


async def voting(run: GameRun) -> None:
    plan, rng = run.plan, run.rng
    run.set_phase(VOTING)
    vote_path = run.path("move", "vote")
    for player in run.players.values():
        await look(run, player, player.name == plan.players[0])
        await wrong_post(
            run,
            player,
            [
                (vote_path, {"target": player.seat_id}, 400),
                (vote_path, {"target": "nobody"}, 400),
                (run.path("move", "ready"), {}, 409),
                (run.path("play_again"), {}, 409),
                (run.path("chat"), {"channel": "public", "text": "one more thing"}, 409),
            ],
        )
    await run.settle()
    order = list(plan.players)
    rng.shuffle(order)
    skip = set(order[: rng.randint(1, max(1, len(order) // 2))]) if plan.vote_timeout else set()
    for i, name in enumerate(order):
        if name in skip:
            continue
        player = run.players[name]
        target = run.players[rng.choice([p for p in plan.players if p != name])]
        htmx = plan.htmx or rng.random() < 0.3
        await run.http(
            player, "POST", vote_path, {"target": target.seat_id}, htmx=htmx, expect=(200, 302)
        )
        if i < len(order) - 1 and rng.random() < 0.25:
            await run.http(player, "POST", vote_path, {"target": target.seat_id}, expect=400)
    if plan.vote_timeout:
        await run.pass_deadline(run.players[order[0]])
    await run.settle()
    assert await run.db_phase() == REVEAL


async def reveal(run: GameRun) -> None:
    run.set_phase(REVEAL)
    for player in run.players.values():
        page = await run.http(player, "GET", run.path("table"), expect=200)
        body = page.content.decode()
        assert 'id="reveal"' in body
        assert all(name in body for name in run.plan.players)
    await chat(run, run.players[run.plan.players[0]], "good game", expect=(200, 302))
    await run.settle()


def final_checks(run: GameRun) -> None:
    """(a) and (c) over everything each seat received before the reveal."""
    assert run.deal is not None and run.night is not None
    deal, night = run.deal, run.night
    state = OneNightState(Table.objects.values_list("state", flat=True).get(code=run.code))
    public_after = [step.text for step in night.log]
    result = state.result or {}
    public_after += [t for t in (result.get("vote_reason"), result.get("reason")) if t]
    for capture in run.deferred:
        run.check_roles(capture, run.allowed_at[(capture.seat, capture.phase)])
    own: dict[str, set[str]] = {}
    for name in run.plan.players:
        message = role_message(deal, name)
        texts = {message.heading, *message.paragraphs, action_rule(deal, name).description}
        texts |= set(night_report(night, name))
        texts |= run.private.get(name, set())
        own[name] = {norm(t) for t in texts}
    for capture in run.captures:
        forbidden = set().union(*(own[o] for o in own if o != capture.seat)) - own[capture.seat]
        for text in forbidden:
            assert text not in capture.words, (
                f"LEAK in game {run.plan.id}: {capture.seat} got another seat's private text"
                f" {text!r} in {capture.kind} {capture.where} during {capture.phase}"
            )
        for marker in ('id="reveal"', "The night, step by step", "<h3>Centre cards</h3>"):
            assert marker not in capture.text, (capture.seat, capture.where, marker)
        for text in public_after:
            assert norm(text) not in capture.words, (
                f"LEAK in game {run.plan.id}: {capture.seat} saw the reveal's {text!r} in"
                f" {capture.kind} {capture.where} during {capture.phase}"
            )
        run.figures["sentence_checks"] += len(forbidden) + len(public_after)
    run.figures["captures_checked_before_reveal"] += len(run.captures)


CHAT_LINE_KEYS = {"type", "id", "channel", "seat_id", "name", "note", "text", "sent_at"}


def check_group_messages(run: GameRun, sent: list[tuple[str, dict[str, Any]]]) -> None:
    """Nothing built for one seat goes through a group: a table change is its version (with the
    public status box, for a move that only counts), a chat line is the line, in the group of
    its channel (One Night has only the public one, which every page of the table reads), and
    no message names a role."""
    table_id = Table.objects.values_list("pk", flat=True).get(code=run.code)
    mine = [(g, m) for g, m in sent if g == push.table_group(table_id)]
    assert mine, "the game's changes reached its group"
    for group, _ in sent:
        assert group.startswith("table-"), group
    for _, message in mine:
        run.figures["group_messages"] += 1
        if message["type"] == "table.changed":
            assert isinstance(message["version"], int)
            if set(message) != {"type", "version"}:
                # A move that only counts: the public status box (the same for every seat,
                # checked for roles below, in the site's language) and the seats whose own
                # view changed.
                assert set(message) == {"type", "version", "status", "language", "redraw"}
                assert message["language"] == settings.LANGUAGE_CODE
                assert all(isinstance(i, int) for i in message["redraw"])
                assert message["status"].lstrip().startswith('<div id="status"')
        else:
            assert message["type"] == "chat.line", message
            assert set(message) == {"type", "channel", "seat_id", "mine", "others"}, message
            assert message["channel"] == "public"
            for side in ("mine", "others"):
                assert set(json.loads(message[side])) == CHAT_LINE_KEYS | {"mine"}
        text = "\n".join(strings_in(message))
        assert not roles_named(text), (run.plan.id, message)


async def play_one(plan: Plan, sent: list[tuple[str, dict[str, Any]]] | None = None) -> GameRun:
    """Play and audit one planned game, start to reveal; the sockets are closed in any case."""
    run = GameRun(plan=plan, rng=random.Random(plan.seed))
    try:
        await lobby(run)
        await night(run)
        await day(run)
        await voting(run)
        await reveal(run)
        await sync_to_async(final_checks)(run)
        if sent is not None:
            await sync_to_async(check_group_messages)(run, sent)
    finally:
        for player in run.players.values():
            if player.comm is not None:
                # Already ended (a crash is reported by the audit itself).
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await player.comm.disconnect(timeout=1)
    return run


@pytest.mark.parametrize("plan", PLANS, ids=[p.id for p in PLANS])
async def test_a_complete_game_leaks_nothing(
    plan: Plan, group_messages: list[tuple[str, dict[str, Any]]]
) -> None:
    run = await play_one(plan, group_messages)
    AUDIT["games"] += 1
    AUDIT[f"games_{'daybreak' if plan.daybreak else plan.ruleset.value}"] += 1
    if plan.daybreak and plan.ruleset is Ruleset.HOUSE:
        AUDIT["games_house_daybreak"] += 1
    AUDIT["seats"] += len(plan.players)
    AUDIT.update(run.figures)


# --- The audit catches leaks (planted ones) -------------------------------------------------------


async def test_the_audit_catches_a_leak_planted_in_the_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: every role message also carries the next seat's card. The audit must fail."""
    real = panels.role_message

    def leaky(deal: Deal, player: str) -> RoleMessage:
        mine = real(deal, player)
        players = list(deal.players)
        neighbour = players[(players.index(player) + 1) % len(players)]
        return RoleMessage(
            mine.role,
            mine.heading,
            (*mine.paragraphs, f"Psst: {neighbour} is the {deal.cards[neighbour].title}."),
        )

    monkeypatch.setattr(panels, "role_message", leaky)
    with pytest.raises(AssertionError, match="LEAK"):
        await play_one(PLANS[2])


async def test_the_audit_catches_a_leak_planted_in_websocket_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: the panel pushed over the socket carries, in an HTML comment and a CSS class,
    the card of another seat. Pages are untouched; the frames alone must fail the audit."""
    real = consumers.render_to_string

    def leaky(template: str, context: dict[str, Any]) -> str:
        html = real(template, context)
        page = context.get("page")
        if template != "tables/page.html#panel" or page is None or not page.table.state:
            return html
        state = OneNightState(page.table.state)
        other = next(name for seat_id, name in state.players if seat_id != page.me.pk)
        card = state.deal.cards[other].value
        return html + f'<!-- {card} --><i class="team-{card}"></i>'

    monkeypatch.setattr(consumers, "render_to_string", leaky)
    with pytest.raises(AssertionError, match=r"LEAK.*frame"):
        await play_one(PLANS[3])


async def test_the_audit_catches_an_expansion_card_planted_in_websocket_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: the panel pushed to every other seat of a Daybreak game carries, in an HTML
    comment, the Curator's card by its title. Only an expansion card's word is planted (no
    sentence of anyone's, no base card), so it is the role-word scan (b) that must fail it."""
    real = consumers.render_to_string
    plan = next(
        p
        for p in PLANS
        if p.daybreak and Role.CURATOR in p.cards[: len(p.players)] and not held_copy(p.cards)
    )

    def leaky(template: str, context: dict[str, Any]) -> str:
        html = real(template, context)
        page = context.get("page")
        if template != "tables/page.html#panel" or page is None or not page.table.state:
            return html
        state = OneNightState(page.table.state)
        cards = state.deal.cards
        holder = next(name for _, name in state.players if cards[name] is Role.CURATOR)
        if holder == page.me.name:
            return html
        return html + f"<!-- {holder}: {cards[holder].title} -->"

    monkeypatch.setattr(consumers, "render_to_string", leaky)
    with pytest.raises(AssertionError, match=r"LEAK.* got \['curator'\] in frame ws "):
        await play_one(plan)


async def test_the_audit_catches_a_held_copy_shown_too_soon(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: the page forgets the hold (docs/rules.md 8a.10 #5) and shows the Doppelganger
    the card it copied at once, while other actions are still to come. The audit must fail."""
    monkeypatch.setattr(panels, "copy_held", lambda state, name: False)
    plan = next(p for p in PLANS if p.daybreak and held_copy(p.cards))
    with pytest.raises(AssertionError, match="LEAK"):
        await play_one(plan)


# --- Leaks found by hand --------------------------------------------------------------------------


def test_a_refused_doppelganger_post_names_no_card() -> None:
    """Before the copy, an action naming any player (with centre cards) is refused with the
    same words whoever it names: the refusal is not a peek at that player's card."""
    cards = {
        "Ann": "doppelganger",
        "Ben": "villager",
        "Cat": "seer",
        "Dan": "tanner",
        "Eve": "hunter",
        "left": "werewolf",
        "middle": "robber",
        "right": "drunk",
    }
    table = deal_game("official", **cards)
    ann = client_for(table, "Ann")
    refusals: dict[str, str] = {}
    for kind, extra in (("action", ("left", "middle", "right")), ("copy", ("left",))):
        for target in ("Ben", "Cat", "Dan", "Eve"):
            before = table_state(table.table.pk)
            targets = form_targets(table, target, *extra)
            response = ann.post(url("move", table.code, kind), {"targets": targets})
            assert response.status_code == 400
            assert table_state(table.table.pk) == before  # refused: nothing stored, free to go on
            refusals[f"{kind} {target}"] = message_of(response)
            assert not roles_named(message_of(response)), refusals
    # Nothing was copied yet, so a refusal may not depend on whose card was named.
    assert len({m for k, m in refusals.items() if k.startswith("action")}) == 1, refusals
    assert len({m for k, m in refusals.items() if k.startswith("copy")}) == 1, refusals


def test_a_wrong_move_says_only_the_phase() -> None:
    """A move sent in the wrong phase is refused with the phase's words, the same for every
    seat whatever its card (it is not a hint about anyone's role)."""
    table = deal_game("house", Ann="werewolf", Ben="seer", Cat="drunk", left="robber",
                      middle="villager", right="troublemaker")  # fmt: skip
    answers = set()
    for name in table.names:
        client = client_for(table, name)
        for kind in ("vote", "ready", "end_day", "fly"):
            response = client.post(url("move", table.code, kind), {"target": "1"})
            answers.add((kind, response.status_code, message_of(response)))
    by_kind = {kind: {(s, m) for k, s, m in answers if k == kind} for kind in ("vote", "ready")}
    assert by_kind["vote"] == by_kind["ready"] == {(409, MOVE_OUT_OF_PHASE[NIGHT])}
    assert all(not roles_named(m) for _, _, m in answers)


def _figures() -> dict[str, Any]:
    return {
        "games": AUDIT["games"],
        "games_by_ruleset": {
            k: AUDIT[f"games_{k}"] for k in (*(r.value for r in Ruleset), "daybreak")
        },
        "seats": AUDIT["seats"],
        "requests": AUDIT["requests"],
        "posts": AUDIT["posts"],
        "pages": AUDIT["page"],
        "fragments": AUDIT["fragment"],
        "empty_responses (redirects, 204)": AUDIT["empty_responses"],
        "error_responses (4xx)": AUDIT["error_responses"],
        "websockets": AUDIT["sockets"],
        "frames": AUDIT["frame"],
        "frames_by_type": {
            k.removeprefix("frame_"): v for k, v in sorted(AUDIT.items()) if k.startswith("frame_")
        },
        "ws_messages_sent": AUDIT["ws_sent"],
        "group_messages_checked": AUDIT["group_messages"],
        "deadlines_passed": AUDIT["deadlines_passed"],
        "captures_checked_before_reveal": AUDIT["captures_checked_before_reveal"],
        "role_words_checked": AUDIT["role_words_checked"],
        "sentence_checks": AUDIT["sentence_checks"],
        "bytes_audited": AUDIT["bytes"],
        "roles_dealt": {k: sorted(v["dealt"]) for k, v in COVERAGE.items()},
        "roles_in_centre": {k: sorted(v["centre"]) for k, v in COVERAGE.items()},
        "night_actions": dict(sorted(ACTION_KINDS.items())),
        "on_the_table_lines": AUDIT["on_the_table_lines"],
        "held_copy_pages": AUDIT["held_copy_pages"],
        "held_copy_captures_checked": AUDIT["held_captures_checked"],
        "held_copies": dict(sorted(HELD_COPIES.items())),
        "house_tables_with_daybreak_cards": AUDIT["games_house_daybreak"],
    }


@pytest.fixture(scope="module", autouse=True)
def write_figures() -> Iterator[None]:
    yield
    if AUDIT["games"]:
        ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
        ARTIFACT.write_text(json.dumps(_figures(), indent=2) + "\n")


def test_audit_totals() -> None:
    """Runs last: every planned game was played and every role was dealt and centred."""
    if AUDIT["games"] < len(PLANS):
        pytest.skip(f"only {AUDIT['games']} of {len(PLANS)} games ran (a subset was selected)")
    figures = _figures()
    print("\nLeak audit figures:\n" + json.dumps(figures, indent=2))
    for ruleset in Ruleset:
        everything = sorted(r.value for r in role_limits(ruleset))
        assert figures["roles_dealt"][ruleset.value] == everything
        assert figures["roles_in_centre"][ruleset.value] == everything
    assert figures["games"] >= 40
    # Daybreak: every expansion card dealt to a player, and the table's tokens shown by day.
    assert set(figures["roles_dealt"]["daybreak"]) >= {
        r.value for r in EXPANSION_ROLES - NOT_YET_ONLINE
    }
    assert figures["on_the_table_lines"] > 0
    assert figures["frames"] > 0 and figures["pages"] > 0 and figures["fragments"] > 0
    assert figures["frames_by_type"].get("panel", 0) > 0
    assert figures["frames_by_type"].get("hello", 0) > 0
    assert figures["group_messages_checked"] > 0
    assert any(k.startswith("doppelganger copies the") for k in ACTION_KINDS)
    # docs/rules.md 8a.10 #5: a Doppelganger's page was read while its copy was held, and the
    # copy was then let go (`held_copy` plans such a deal).
    assert figures["held_copy_pages"] > 0
    assert sum(HELD_COPIES.values()) > 0
    # docs/rules.md 8a.8: Daybreak's cards at house tables.
    assert figures["house_tables_with_daybreak_cards"] == len(HOUSE_DAYBREAK_MUSTS)
