"""Leak audit: complete games played through the pages and the websocket, everything captured.

Each game is played by one django.test.Client per player (home page, join page, game page, htmx
panel, status fragment, every POST response, deliberately wrong posts and error pages) and one
websocket per player on onenight.asgi.application (hello, status, chat, error frames), with the
player's own session cookie and a same-origin Origin header.

Before the reveal, for every seat S and everything S received:
  (a) no other seat's private text appears (role message heading and paragraphs, action prompt,
      night report sentences), unless S was told the very same sentence;
  (b) every role word (title, value, plural; in text, attributes, classes such as team-werewolf,
      hidden inputs, data-* or comments) is one S may know: its own card, the roles named in its
      own role message, action prompt, Doppelganger copy and night report;
  (c) nothing of the reveal (table, night log, outcome) and no other seat's rejoin token.
After the reveal everything is public, except other seats' tokens, which are never shown. In the
lobby no card is dealt yet: the deck picker names roles, but the deck is chosen in public.

The deals are planned (a seeded plan per game, dealt in that order through the start POST with
the shuffle patched) so that over the run every role of both rulesets is dealt to a player and
lies in the centre. Night actions are random legal ones (Doppelganger two-step included), votes
random; some games let the night, the day or the vote run out instead.

Two mutants (a role message carrying a neighbour's card, a status frame carrying one in an HTML
comment and a CSS class) check that the audit does catch leaks in pages and in frames.

Figures are gathered in AUDIT, written to test-artifacts/security/leak_audit.json and printed by
the last test of the module.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import secrets
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
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import consumers, engine, selectors, services
from games.engine import CENTRE_POSITIONS, Requirement, Role, Ruleset, role_limits
from games.engine.messages import RoleMessage, night_report, role_message
from games.models import CentreCard, Game, NightAction, Phase, Seat
from tests.factories import NAMES, client_for, deal_game, form_targets, game_state
from tests.realtime.helpers import ORIGIN, WAIT, websocket_app
from tests.security.audit import (
    TEAM_ROLE,
    message_of,
    norm,
    plain,
    role_mentions,
    roles_named,
    strings_in,
    unescaped,
)

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = 40
SEED = 20_240_611
ARTIFACT = Path(__file__).resolve().parents[2] / "test-artifacts" / "security" / "leak_audit.json"
PRE_REVEAL = (Phase.NIGHT, Phase.DAY, Phase.VOTING)
PAGE_PHASE = re.compile(r'data-phase="(\w+)"')

# Fixed texts of the app that name a role whatever the seat holds. Removed before the role-word
# scan (b), each with its justification:
FIXED_ROLE_TEXTS = (
    # The refusal a seat gets when it posts the Doppelganger's copy step without holding the
    # Doppelganger (one deliberately wrong post per night in this audit). It is the same for every
    # seat and every deal, even in house games with no Doppelganger, so it tells nothing.
    re.compile(r"only the Doppelganger copies another card\.", re.I),
)

AUDIT: Counter[str] = Counter()
COVERAGE: dict[str, dict[str, set[str]]] = {
    r.value: {"dealt": set(), "centre": set()} for r in Ruleset
}
ACTION_KINDS: Counter[str] = Counter()


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

    @property
    def id(self) -> str:
        return f"g{self.index:02d}-{self.ruleset.value}-{len(self.players)}p"


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
        engine.validate_deck(ruleset, deck, size)
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
        sizes = list(range(3, engine.max_players(ruleset) + 1))
        # Every table size once, then small tables (the audit's time grows with the square of
        # the table: every change re-renders every seat's status).
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


PLANS = make_plans()


def test_the_plans_cover_every_role_dealt_and_in_the_centre() -> None:
    """Precondition of the audit: the planned deals put every role both at a seat and in the
    centre, in each ruleset, at every table size (the games below then check it happened)."""
    for ruleset in Ruleset:
        dealt: set[Role] = set()
        centre: set[Role] = set()
        sizes: set[int] = set()
        for plan in PLANS:
            if plan.ruleset is ruleset:
                n = len(plan.players)
                sizes.add(n)
                dealt.update(plan.cards[:n])
                centre.update(plan.cards[n:])
        assert dealt == set(role_limits(ruleset)), ruleset
        assert centre == set(role_limits(ruleset)), ruleset
        assert sizes == set(range(3, engine.max_players(ruleset) + 1)), ruleset


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


@dataclass
class GameRun:
    """One game being played and audited."""

    plan: Plan
    rng: random.Random
    players: dict[str, Player] = field(default_factory=dict)
    code: str = ""
    phase: str = Phase.LOBBY
    deal: engine.Deal | None = None
    night: engine.NightResult | None = None
    allowed: dict[str, set[Role]] = field(default_factory=dict)
    allowed_at: dict[tuple[str, str], frozenset[Role]] = field(default_factory=dict)
    private: dict[str, set[str]] = field(default_factory=dict)
    captures: list[Capture] = field(default_factory=list)
    deferred: list[Capture] = field(default_factory=list)
    figures: Counter[str] = field(default_factory=Counter)

    def form_targets(self, targets: list[str]) -> list[str]:
        """What the night-action form posts for these targets: players by seat id."""
        return [str(self.players[t].seat_id) if t in self.players else t for t in targets]

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
        """Capture what seat `name` received. `phase`: the phase it shows (a frame's own
        "phase", a page's data-phase), else the phase the game is in as far as the audit knows.
        """
        if phase is None:
            shown = PAGE_PHASE.search(text)
            phase = shown.group(1) if shown else self.phase
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
        leaked = [(r, ctx) for r, ctx in role_mentions(scanned) if r not in allowed]
        self.figures["role_words_checked"] += len(roles_named(scanned))
        assert not leaked, (
            f"LEAK in game {self.plan.id}: {capture.seat} (holding"
            f" {self.start_role(capture.seat)}) got {sorted({r.value for r, _ in leaked})} in"
            f" {capture.kind} {capture.where} during {capture.phase}; may know"
            f" {sorted(r.value for r in allowed)}; first: {leaked[0][1]!r}"
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
    ) -> HttpResponse:
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
        if body:
            kind = "page" if body.lstrip().lower().startswith("<!doctype") else "fragment"
            self.record(player.name, kind, f"{method} {path} -> {response.status_code}", body)
        else:
            self.figures["empty_responses"] += 1
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
            self.record(player.name, "frame", f"ws {frame.get('type')}", text, frame.get("phase"))
            count += 1
        return count

    async def drain(self) -> int:
        await asyncio.sleep(0)
        return sum(self.drain_one(p) for p in self.players.values())

    async def settle(self) -> None:
        """Wait until every socket has received what the last changes caused: the status
        renders run on the one thread database_sync_to_async uses, so a no-op queued there
        returns after every render queued before it."""
        quiet = 0
        while quiet < 3:
            await asyncio.sleep(0.003)
            await sync_to_async(lambda: None)()  # renders queued before this one are done
            quiet = quiet + 1 if await self.drain() == 0 else 0

    async def ws_send(self, player: Player, message: Any) -> None:
        assert player.comm is not None
        if isinstance(message, str):
            await player.comm.send_to(text_data=message)
        else:
            await player.comm.send_json_to(message)
        self.figures["ws_sent"] += 1

    # --- Game state from the database --------------------------------------------------------

    def _phase(self) -> str:
        return Game.objects.values_list("phase", flat=True).get(code=self.code)

    async def db_phase(self) -> str:
        return await sync_to_async(self._phase)()

    def _load(self) -> tuple[engine.Deal, dict[str, list[str]]]:
        game = Game.objects.get(code=self.code)
        seats = list(Seat.objects.filter(game=game).order_by("position"))
        centre = list(CentreCard.objects.filter(game=game))
        deal = services.deal_of(game, seats, centre)
        names = {s.pk: s.name for s in seats}
        actions = {names[a.seat_id]: a.targets for a in NightAction.objects.filter(game=game)}
        return deal, actions

    async def load(self) -> tuple[engine.Deal, dict[str, list[str]]]:
        return await sync_to_async(self._load)()

    async def pass_deadline(self, player: Player) -> None:
        """Time runs out: the stored deadline is moved into the past and the next request of a
        page notices it (games/views._advance_if_due), as a browser's poll would."""

        def move() -> None:
            past = timezone.now() - timedelta(seconds=1)
            updated = Game.objects.filter(code=self.code, deadline__isnull=False).update(
                deadline=past
            )
            assert updated == 1

        await sync_to_async(move)()
        await self.http(player, "GET", reverse("status", args=[self.code]), htmx=True)
        self.figures["deadlines_passed"] += 1


# --- Playing ------------------------------------------------------------------------------------


def _targets_for(
    rng: random.Random, rule: engine.ActionRule, me: str, deal: engine.Deal
) -> list[str]:
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


async def look(run: GameRun, player: Player, phase: str, first: bool) -> HttpResponse:
    """What a seat's browser fetches in a phase: the page, and (always for the first seat, for
    the others at random) its htmx panel and the status fragment. Both are parts of the page,
    rendered by their own code paths."""
    page = await run.http(player, "GET", reverse("game", args=[run.code]), expect=200)
    if first or run.rng.random() < 0.5:
        await run.http(player, "GET", reverse("game", args=[run.code]), htmx=True, expect=200)
    if first or run.rng.random() < 0.5:
        status = reverse("status", args=[run.code])
        await run.http(player, "GET", status, {"phase": phase}, htmx=True)
    return page


async def lobby(run: GameRun) -> None:
    plan, rng = run.plan, run.rng
    host = Player(plan.players[0], Client())
    run.players[host.name] = host
    await run.http(host, "GET", reverse("home"), expect=200)
    response = await run.http(
        host,
        "POST",
        reverse("game_new"),
        {
            "host_name": host.name,
            "ruleset": plan.ruleset.value,
            "day_minutes": 30,
            "night_minutes": 5 if plan.night_timeout else "",
            "vote_minutes": 5 if plan.vote_timeout else "",
            "rules_phrase": "default",
        },
        expect=302,
    )
    run.code = response["Location"].strip("/").split("/")[-1]
    for name in plan.players[1:]:
        player = Player(name, Client())
        run.players[name] = player
        if rng.random() < 0.3:
            await run.http(player, "POST", reverse("join_by_code"), {"code": run.code}, expect=302)
        await run.http(player, "GET", reverse("join", args=[run.code]), expect=200)
        await run.http(
            player,
            "POST",
            reverse("join", args=[run.code]),
            {"name": name, "rules_phrase": services.RULES_PHRASE},
            expect=302,
        )

    def seats() -> dict[str, tuple[int, str]]:
        return {s.name: (s.pk, s.token) for s in Seat.objects.filter(game__code=run.code)}

    for name, (pk, token) in (await sync_to_async(seats)()).items():
        run.players[name].seat_id = pk
        run.players[name].token = token
    for player in run.players.values():
        cookie = f"sessionid={player.client.cookies['sessionid'].value}"
        comm = WebsocketCommunicator(
            websocket_app(),
            f"/ws/game/{run.code}/",
            headers=[(b"host", b"testserver"), (b"origin", ORIGIN), (b"cookie", cookie.encode())],
        )
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected
        player.comm = comm
        run.figures["sockets"] += 1
        await run.http(player, "GET", reverse("game", args=[run.code]), expect=200)
    await run.settle()
    # The host chooses the cards (as counts, like the form), the others look on.
    counts = Counter(plan.cards)
    await run.http(
        host,
        "POST",
        reverse("deck", args=[run.code]),
        {f"count_{r.value}": counts.get(r, 0) for r in Role},
        htmx=True,
        expect=200,
    )
    for player in list(run.players.values())[:3]:
        await run.ws_send(player, {"type": "chat", "text": f"hello from {player.name}"})
        await run.http(player, "GET", reverse("status", args=[run.code]), {"phase": "lobby"})
    # Wrong on purpose: a player who is not the host tries to start; an unknown game.
    second = run.players[plan.players[1]]
    await run.http(second, "POST", reverse("start", args=[run.code]), expect=403)
    await run.http(second, "GET", reverse("game", args=["ZZZZZZZZ"]), expect=404)
    await run.settle()

    # Deal the planned cards: the stored deck in deal order, the deal's shuffle a no-op (the
    # vote ring is still shuffled, by the plan's generator).
    def store_deck() -> None:
        Game.objects.filter(code=run.code).update(deck=[r.value for r in plan.cards])

    await sync_to_async(store_deck)()
    ring_rng = random.Random(plan.seed)

    def shuffle(self: Any, items: list[Any]) -> None:
        if not items or not isinstance(items[0], Role):
            ring_rng.shuffle(items)

    with mock.patch.object(secrets.SystemRandom, "shuffle", shuffle):
        await run.http(host, "POST", reverse("start", args=[run.code]), htmx=plan.htmx)


async def night(run: GameRun) -> None:
    plan, rng = run.plan, run.rng
    assert await run.db_phase() == Phase.NIGHT
    deal, _ = await run.load()
    run.deal = deal
    n = len(plan.players)
    assert [deal.cards[p] for p in deal.positions] == list(plan.cards)
    coverage = COVERAGE[plan.ruleset.value]
    coverage["dealt"].update(deal.cards[p].value for p in plan.players)
    coverage["centre"].update(deal.cards[p].value for p in CENTRE_POSITIONS)
    run.set_phase(Phase.NIGHT)
    for name in plan.players:
        start = deal.cards[name]
        message = role_message(deal, name)
        # The role card is styled with the team of the seat's own card (class team-werewolf
        # for a minion, team-tanner for the tanner): known from the seat's own card.
        team = TEAM_ROLE[start.team]
        run.learn(
            name,
            {start} | ({team} if team else set()),
            [message.heading, *message.paragraphs, engine.action_rule(deal, name).description],
        )
    await run.settle()
    action_url = reverse("night_action", args=[run.code])
    for player in run.players.values():
        page = await look(run, player, Phase.NIGHT, player.name == plan.players[0])
        heading = role_message(deal, player.name).heading
        assert heading in plain(page.content.decode()), "the audit must see private messages"
        other = run.players[next(p for p in plan.players if p != player.name)]
        await wrong_post(
            run,
            player,
            [
                (reverse("vote", args=[run.code]), {"target": other.seat_id}, 409),
                (reverse("ready", args=[run.code]), {}, 409),
                (
                    reverse("end_day", args=[run.code]),
                    {},
                    403 if player.name != plan.players[0] else 409,
                ),
                (action_url, {"targets": "Zed"}, 400),
                (action_url, {}, 400),
            ],
        )
        await run.ws_send(player, {"type": "chat", "text": "is anyone awake"})
    not_doppel = next(p for p in plan.players if deal.cards[p] is not Role.DOPPELGANGER)
    await run.http(
        run.players[not_doppel],
        "POST",
        action_url,
        {
            "step": "copy",
            "targets": run.form_targets([next(p for p in plan.players if p != not_doppel)]),
        },
        expect=403,
    )
    await run.settle()

    order = list(plan.players)
    rng.shuffle(order)
    skip: set[str] = set()
    if plan.night_timeout:
        skip = set(order[: rng.randint(1, max(1, n // 3))])
    for name in order:
        player = run.players[name]
        htmx = plan.htmx or rng.random() < 0.3
        expect: int | tuple[int, ...] = (200, 204) if htmx else 302
        rule = engine.action_rule(deal, name)
        if rule.role is Role.DOPPELGANGER:
            others = [p for p in plan.players if p != name]
            if name in skip and rng.random() < 0.5:
                continue  # the deadline finds no copy at all
            if rng.random() < 0.12:
                ACTION_KINDS["doppelganger copies nobody"] += 1
                data = {"step": "copy", "no_action": "1"}
                await run.http(player, "POST", action_url, data, htmx=htmx, expect=expect)
                continue
            # Mostly a role that acts again (the two-step), else anyone.
            acting = [p for p in others if deal.cards[p] in engine.night.ACTS_AT_ONCE]
            model = rng.choice(acting if acting and rng.random() < 0.6 else others)
            copied = deal.cards[model]
            copied_rule = engine.copied_action_rule(copied)
            if copied is Role.DRUNK:
                # The copy step used to refuse the Drunk (tests/web/test_posts.py); where it
                # still does, the one-post form the engine accepts copies and swaps together.
                copy_texts = [f"You copied the card of a {copied.title}.", copied_rule.description]
                run.learn(name, {copied}, copy_texts)
                response = await run.http(
                    player,
                    "POST",
                    action_url,
                    {"step": "copy", "targets": run.form_targets([model])},
                    htmx=htmx,
                    expect=(*((expect,) if isinstance(expect, int) else expect), 400),
                )
                if response.status_code == 400:
                    ACTION_KINDS["doppelganger copies the drunk (one post)"] += 1
                    targets = [model, rng.choice(CENTRE_POSITIONS)]
                    data = {"targets": run.form_targets(targets)}
                    await run.http(player, "POST", action_url, data, htmx=htmx, expect=expect)
                    continue
                ACTION_KINDS["doppelganger copies the drunk"] += 1
                targets = [rng.choice(CENTRE_POSITIONS)]
                await run.http(player, "POST", action_url, {"targets": targets}, expect=302)
                continue
            ACTION_KINDS[f"doppelganger copies the {copied.value}"] += 1
            # The answer to the copy shows the copied card: known from this post on.
            run.learn(
                name,
                {copied},
                [f"You copied the card of a {copied.title}.", copied_rule.description],
            )
            await run.http(
                player,
                "POST",
                action_url,
                {"step": "copy", "targets": run.form_targets([model])},
                htmx=htmx,
                expect=expect,
            )
            if not htmx:
                await run.http(player, "GET", reverse("game", args=[run.code]), expect=200)
            if copied_rule.requirement is Requirement.NONE or name in skip:
                continue
            rule = copied_rule
        elif name in skip:
            continue
        targets = _targets_for(rng, rule, name, deal)
        ACTION_KINDS[f"{rule.role.value} {'acts' if targets else 'no action'}"] += 1
        await run.http(
            player, "POST", action_url, _action_data(run, targets), htmx=htmx, expect=expect
        )
        if rng.random() < 0.25:
            # Wrong on purpose: a second action (final) or, if the night just ended, too late.
            await run.http(player, "POST", action_url, {"no_action": "1"}, expect=(400, 409))
    if plan.night_timeout and await run.db_phase() == Phase.NIGHT:
        await run.pass_deadline(run.players[order[-1]])
    await run.settle()
    assert await run.db_phase() == Phase.DAY


async def day(run: GameRun) -> None:
    plan, rng = run.plan, run.rng
    deal, actions = await run.load()
    run.night = engine.resolve_night(deal, actions)
    run.set_phase(Phase.DAY)
    for name in plan.players:
        run.learn(name, set(), list(night_report(run.night, name)))
    host = run.players[plan.players[0]]
    for player in run.players.values():
        page = await look(run, player, Phase.DAY, player is host)
        words = plain(page.content.decode())
        assert all(line in words for line in night_report(run.night, player.name))
        other = run.players[next(p for p in plan.players if p != player.name)]
        options = [
            (reverse("vote", args=[run.code]), {"target": other.seat_id}, 409),
            (reverse("night_action", args=[run.code]), {"no_action": "1"}, 409),
            (reverse("start", args=[run.code]), {}, 403 if player is not host else 409),
        ]
        if player is not host:
            options.append((reverse("end_day", args=[run.code]), {}, 403))
        await wrong_post(run, player, options)
        if rng.random() < 0.3:
            # The status of a phase that is over: an empty 204 telling htmx to reload.
            await run.http(player, "GET", reverse("status", args=[run.code]), {"phase": "night"})
        if rng.random() < 0.5:
            await run.ws_send(player, {"type": "chat", "text": f"{player.name} thinks it over"})
        if rng.random() < 0.2:
            await run.ws_send(player, {"type": "sync", "after": 0})
    await run.settle()
    if plan.day_end == "host":
        await run.http(host, "POST", reverse("end_day", args=[run.code]), htmx=plan.htmx)
    elif plan.day_end == "ready":
        first = run.players[plan.players[-1]]
        await run.http(
            first, "POST", reverse("ready", args=[run.code]), htmx=True, expect=(200, 204)
        )
        await run.http(
            first, "POST", reverse("ready", args=[run.code]), {"ready": "no"}, expect=302
        )
        for player in run.players.values():
            await run.http(player, "POST", reverse("ready", args=[run.code]), htmx=plan.htmx)
    else:
        await run.pass_deadline(host)
    await run.settle()
    assert await run.db_phase() == Phase.VOTING


async def voting(run: GameRun) -> None:
    plan, rng = run.plan, run.rng
    run.set_phase(Phase.VOTING)
    vote_url = reverse("vote", args=[run.code])
    for player in run.players.values():
        # The status of the reveal asked for before it happens: nothing but a reload hint.
        await look(
            run, player, rng.choice([Phase.VOTING, Phase.REVEAL]), player.name == plan.players[0]
        )
        await wrong_post(
            run,
            player,
            [
                (vote_url, {"target": player.seat_id}, 400),
                (vote_url, {"target": "nobody"}, 400),
                (reverse("ready", args=[run.code]), {}, 409),
                (reverse("play_again", args=[run.code]), {}, 409),
            ],
        )
        if rng.random() < 0.3:
            await run.ws_send(player, {"type": "chat", "text": "one more thing"})
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
            player, "POST", vote_url, {"target": target.seat_id}, htmx=htmx, expect=(200, 204, 302)
        )
        if i < len(order) - 1 and rng.random() < 0.25:
            await run.http(player, "POST", vote_url, {"target": target.seat_id}, expect=400)
    if plan.vote_timeout:
        await run.pass_deadline(run.players[order[0]])
    await run.settle()
    assert await run.db_phase() == Phase.REVEAL


async def reveal(run: GameRun) -> None:
    run.set_phase(Phase.REVEAL)
    for player in run.players.values():
        page = await run.http(player, "GET", reverse("game", args=[run.code]), expect=200)
        body = page.content.decode()
        assert 'id="reveal"' in body
        assert all(name in body for name in run.plan.players)
    await run.ws_send(run.players[run.plan.players[0]], {"type": "chat", "text": "good game"})
    await run.settle()


def final_checks(run: GameRun) -> None:
    """(a) and (c) over everything each seat received before the reveal."""
    assert run.deal is not None and run.night is not None
    deal, night = run.deal, run.night
    game = Game.objects.get(code=run.code)
    public_after = [step.text for step in night.log]
    result = game.result or {}
    public_after += [t for t in (result.get("vote_reason"), result.get("reason")) if t]
    for capture in run.deferred:
        run.check_roles(capture, run.allowed_at[(capture.seat, capture.phase)])
    own: dict[str, set[str]] = {}
    for name in run.plan.players:
        message = role_message(deal, name)
        texts = {message.heading, *message.paragraphs, engine.action_rule(deal, name).description}
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


@pytest.fixture
def fast_status(monkeypatch: pytest.MonkeyPatch) -> None:
    """No coalescing delay before a socket re-renders its status (only merges renders)."""
    monkeypatch.setattr(consumers, "STATUS_COALESCE_SECONDS", 0.0)


async def play_one(plan: Plan) -> GameRun:
    """Play and audit one planned game, start to reveal; the sockets are closed in any case."""
    run = GameRun(plan=plan, rng=random.Random(plan.seed))
    try:
        await lobby(run)
        await night(run)
        await day(run)
        await voting(run)
        await reveal(run)
        await sync_to_async(final_checks)(run)
    finally:
        for player in run.players.values():
            if player.comm is not None:
                # Already ended (a crash is reported by the audit itself).
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await player.comm.disconnect(timeout=1)
    return run


@pytest.mark.usefixtures("fast_status")
@pytest.mark.parametrize("plan", PLANS, ids=[p.id for p in PLANS])
async def test_a_complete_game_leaks_nothing(plan: Plan) -> None:
    run = await play_one(plan)
    AUDIT["games"] += 1
    AUDIT[f"games_{plan.ruleset.value}"] += 1
    AUDIT["seats"] += len(plan.players)
    AUDIT.update(run.figures)


# --- The audit catches leaks (planted ones) -------------------------------------------------------


@pytest.mark.usefixtures("fast_status")
async def test_the_audit_catches_a_leak_planted_in_the_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: every role message also carries the next seat's heading. The audit must fail."""
    real = selectors.role_message

    def leaky(deal: engine.Deal, player: str) -> RoleMessage:
        mine = real(deal, player)
        players = list(deal.players)
        neighbour = players[(players.index(player) + 1) % len(players)]
        return RoleMessage(
            mine.role,
            mine.heading,
            (*mine.paragraphs, f"Psst: {neighbour} is the {deal.cards[neighbour].title}."),
        )

    monkeypatch.setattr(selectors, "role_message", leaky)
    with pytest.raises(AssertionError, match="LEAK"):
        await play_one(PLANS[2])


@pytest.mark.usefixtures("fast_status")
async def test_the_audit_catches_a_leak_planted_in_websocket_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: the status frame pushed over the socket carries, in an HTML comment and a CSS
    class, the card of another seat. Pages are untouched; the frames alone must fail the audit."""
    real = consumers.render_to_string

    def leaky(template: str, context: dict[str, Any]) -> str:
        html = real(template, context)
        view = context["view"]
        me_id = view.me.pk if hasattr(view, "me") else view.me_id  # a panel, or a status box
        other = Seat.objects.filter(game=view.game).exclude(pk=me_id).exclude(start_role="")
        card = other.values_list("start_role", flat=True).first()
        return html + (f'<!-- {card} --><i class="team-{card}"></i>' if card else "")

    monkeypatch.setattr(consumers, "render_to_string", leaky)
    with pytest.raises(AssertionError, match=r"LEAK.*frame"):
        await play_one(PLANS[3])


# --- A leak found by hand -------------------------------------------------------------------------


def test_a_refused_doppelganger_post_names_no_card() -> None:
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
    path = reverse("night_action", args=[table.code])
    refusals: dict[str, str] = {}
    for target in ("Ben", "Cat", "Dan", "Eve"):
        before = game_state(table.game.pk)
        targets = form_targets(table, target, "left", "middle", "right")
        response = ann.post(path, {"targets": targets})
        assert response.status_code == 400
        assert game_state(table.game.pk) == before  # refused: nothing stored, free to go on
        refusals[target] = message_of(response)
    # Nothing was copied yet, so the refusal may not depend on whose card was named.
    assert len(set(refusals.values())) == 1, refusals


def _figures() -> dict[str, Any]:
    return {
        "games": AUDIT["games"],
        "games_by_ruleset": {r.value: AUDIT[f"games_{r.value}"] for r in Ruleset},
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
        "deadlines_passed": AUDIT["deadlines_passed"],
        "captures_checked_before_reveal": AUDIT["captures_checked_before_reveal"],
        "role_words_checked": AUDIT["role_words_checked"],
        "sentence_checks": AUDIT["sentence_checks"],
        "bytes_audited": AUDIT["bytes"],
        "roles_dealt": {k: sorted(v["dealt"]) for k, v in COVERAGE.items()},
        "roles_in_centre": {k: sorted(v["centre"]) for k, v in COVERAGE.items()},
        "night_actions": dict(sorted(ACTION_KINDS.items())),
    }


@pytest.fixture(scope="module", autouse=True)
def write_figures() -> Iterator[None]:
    yield
    if AUDIT["games"]:
        ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
        ARTIFACT.write_text(json.dumps(_figures(), indent=2) + "\n")


def test_audit_totals() -> None:
    """Runs last: every planned game was played and every role was dealt and centred."""
    if AUDIT["games"] < GAMES:
        pytest.skip(f"only {AUDIT['games']} of {GAMES} games ran (a subset was selected)")
    figures = _figures()
    print("\nLeak audit figures:\n" + json.dumps(figures, indent=2))
    for ruleset in Ruleset:
        everything = sorted(r.value for r in role_limits(ruleset))
        assert figures["roles_dealt"][ruleset.value] == everything
        assert figures["roles_in_centre"][ruleset.value] == everything
    assert figures["games"] >= 40
    assert figures["frames"] > 0 and figures["pages"] > 0 and figures["fragments"] > 0
    assert any(k.startswith("doppelganger copies the") for k in ACTION_KINDS)
