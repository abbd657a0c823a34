"""The secret audit (issue 36, item 4): whole random games of every family and ruleset, with
everything each identity receives captured and checked against what it may know.

Identities: every seat (the host among them), a watcher (the watch link), an outsider (a
browser with no seat and no watch link) and, for the Discord bot, every member. Captured: each
page GET, each htmx fragment and POST answer, each websocket frame (one socket per browser on
the project's ASGI application) and each bot message, private or in the game's channel. The
oracle and the checks are tests/security/secrets.py's; the games are random legal ones from a
seed, so the same run replays. Table mode's watcher is read through a moderated 1.7.0 game.

Multi-night Werewolf (rules/001 forum, rules/003 Oxford, rules/004 1.7.0) is played through the
pages as its players would: each seat posts a legal form, wolves talk in the pack's channel at
night, the dead in the graveyard, the living in the village by day, and the host moves the game
on when nobody can. One Night (rules/000 house, rules/002 official) likewise, start to reveal;
and One Night through the Discord bot's command layer and relay (games/chatbot).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import json
import random
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from games.chatbot.linking import link_code
from games.families.onenight.engine import (
    Requirement,
    Role,
    Ruleset,
    Team,
    action_rule,
    copied_action_rule,
    role_limits,
)
from games.families.onenight.engine.messages import night_report, role_message
from games.families.onenight.options import RULES_PHRASE
from games.families.onenight.play import OneNightState
from games.families.werewolf import panels as wolf_panels
from games.families.werewolf.engine import RULESETS
from games.families.werewolf.engine.events import AbilityUsed, IdiotRevealed
from games.families.werewolf.engine.view import view_for
from games.families.werewolf.options import start_problem
from games.families.werewolf.stored import game_of
from games.tables import push, services
from games.tables.models import Seat, Table
from games.tables.watching import GAME, watch_key
from tests.chatbot.helpers import FakeChat
from tests.factories import new_client
from tests.security.audit import ORIGIN, WAIT, socket_path, websocket_app
from tests.security.secrets import (
    Auditor,
    Canary,
    Capture,
    Knows,
    Secrets,
    blocks,
    strings_of,
    words_for,
)
from tests.security.test_leak_audit import _deck, _targets_for
from tests.werewolf.test_table_mode import CLASSIC, Moderator
from tests.werewolf.test_table_play import NAMES, fields_for

# The roles of the game whose panel is being built (for the planted leaks below).
CURRENT_ROLES: contextvars.ContextVar[dict[str, str]] = contextvars.ContextVar("roles")


def _remembering_roles(view_of: Any) -> Any:
    def remembering(table: Any, viewer: Any) -> Any:
        roles = game_of(table.state).setup.roles
        CURRENT_ROLES.set({p: r.title for p, r in roles.items()})
        return view_of(table, viewer)

    return remembering


pytestmark = pytest.mark.django_db(transaction=True)

VERSION = re.compile(r'data-version="(\d+)"')


# --- Identities and their captures ---------------------------------------------------------------


@dataclass
class Identity:
    label: str
    kind: str  # "seat", "watcher", "outsider"
    client: Client
    player: str | None = None
    comm: WebsocketCommunicator | None = None


@dataclass
class Run:
    """One game being played, its identities, the table's states by version, the audit."""

    code: str = ""
    identities: dict[str, Identity] = field(default_factory=dict)
    states: dict[int, dict[str, Any]] = field(default_factory=dict)
    stages: dict[int, str] = field(default_factory=dict)
    version: int = 0
    canary_count: int = 0
    auditor: Auditor | None = None
    oracle: Any = None
    captures: list[Capture] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)

    def seats(self) -> list[Identity]:
        return [i for i in self.identities.values() if i.kind == "seat"]

    async def snapshot(self) -> None:
        if not self.code:
            return

        def read() -> tuple[int, dict[str, Any], str]:
            table = Table.objects.get(code=self.code)
            return table.version, table.state, table.stage

        version, state, stage = await sync_to_async(read)()
        self.states[version] = state
        self.stages[version] = stage
        self.version = version

    def capture(self, who: Identity, what: str, where: str, version: int, text: str) -> None:
        self.captures.append(Capture(who.label, who.player, who.kind, what, where, version, text))

    async def http(
        self,
        who: Identity,
        method: str,
        path: str,
        data: Mapping[str, Any] | None = None,
        *,
        htmx: bool = False,
    ) -> HttpResponse:
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}

        def call() -> HttpResponse:
            if method == "GET":
                return who.client.get(path, data or {}, **extra)
            return who.client.post(path, data or {}, **extra)

        response = await sync_to_async(call)()
        assert response.status_code < 500, (who.label, method, path, response.status_code)
        await self.snapshot()
        body = response.content.decode()
        if body:
            shown = VERSION.search(body)
            if shown:
                version = int(shown.group(1))
            elif response.has_header("X-Table-Version"):
                version = int(response["X-Table-Version"])
            else:
                version = self.version
            what = "page" if body.lstrip().lower().startswith("<!doctype") else "fragment"
            self.capture(who, what, f"{method} {path} -> {response.status_code}", version, body)
        await self.drain()
        return response

    async def drain(self) -> int:
        """Every frame waiting on every socket, captured with the version it shows."""
        await asyncio.sleep(0)
        count = 0
        for who in self.identities.values():
            comm = who.comm
            if comm is None:
                continue
            while not comm.output_queue.empty():
                message = comm.output_queue.get_nowait()
                if message["type"] != "websocket.send":
                    continue
                frame = json.loads(message["text"])
                version = frame.get("version")
                text = "\n<br>\n".join(strings_of(frame))
                version = version if isinstance(version, int) else self.version
                self.capture(who, "frame", f"ws {frame.get('type')}", version, text)
                count += 1
        return count

    async def settle(self) -> None:
        """Until every socket has what the last changes caused: the panels are rendered on the
        one thread database_sync_to_async uses, so a no-op queued there returns after them."""
        quiet = 0
        while quiet < 3:
            await asyncio.sleep(0.002)
            await sync_to_async(lambda: None)()
            quiet = quiet + 1 if await self.drain() == 0 else 0

    async def connect(self, who: Identity) -> None:
        cookie = who.client.cookies.get("sessionid")
        headers = [(b"host", b"testserver"), (b"origin", ORIGIN)]
        if cookie is not None:
            headers.append((b"cookie", f"sessionid={cookie.value}".encode()))
        comm = WebsocketCommunicator(websocket_app(), socket_path(self.code), headers=headers)
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected
        who.comm = comm

    async def close(self) -> None:
        for who in self.identities.values():
            if who.comm is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await who.comm.disconnect(timeout=1)

    def path(self, name: str, *args: object) -> str:
        return reverse(name, args=[self.code, *args])

    def canary(self, channel: str, writer: str) -> str:
        self.canary_count += 1
        return f"zq{self.canary_count}x {channel} from {writer}"

    def audit(self) -> Auditor:
        """Check every capture; each version's secrets are read from its state once."""
        states = sorted(self.states)

        @cache
        def secrets_at(version: int) -> Secrets:
            # A version this run did not see (a change inside a request's own) takes the next
            # one seen, which knows at least as much.
            seen = next((v for v in states if v >= version), states[-1])
            return self.oracle(self.states[seen], self.stages[seen])

        auditor = self.auditor or Auditor(secrets_at)
        auditor.secrets_at = secrets_at
        for capture in self.captures:
            if capture.version not in self.states:
                auditor.figures["captures_of_versions_not_snapshotted"] += 1
            auditor.check(capture)
        return auditor


def seat_tokens(code: str) -> dict[str, tuple[str, ...]]:
    """What plays each seat: its rejoin token, and the code that links it to a chat account."""
    return {
        seat.name: (seat.token, link_code(seat)) for seat in Seat.objects.filter(table__code=code)
    }


# --- Multi-night Werewolf: the oracle ------------------------------------------------------------


def werewolf_secrets(state: dict[str, Any] | None, stage: str) -> Secrets:
    """What each identity may know of a multi-night table, from the engine's state alone."""
    if not state or "setup" not in state:
        return Secrets(True, (), {}, {}, {}, lambda _p, _k: Knows(frozenset(), (), None, NONE))
    game = game_of(state)
    setup, now = game.setup, game.state
    over = now.over or stage != "playing"
    players = tuple(setup.players)
    # Made public by the rules beyond the engine's reveals: rules/004's idiot shown at his
    # vote, a white werewolf king exploding in front of everyone.
    public = {e.player for e in game.log if isinstance(e, IdiotRevealed)}
    public |= {e.player for e in game.log if isinstance(e, AbilityUsed) and e.ability == "explode"}
    words = {}
    for player in players:
        role = setup.roles[player]
        titles = [role.title, role.name.replace("_", " ")]
        if role.side == "werewolves":
            titles += ["werewolf", "wolf"]
        words[player] = words_for(titles)
    views = {p: view_for(game, p) for p in players}
    told: dict[str, frozenset[str]] = {}
    pack: dict[str, frozenset[str]] = {}
    for player, view in views.items():
        lines = [line for _phase, info in view.told for line in wolf_panels.told_lines(info)]
        # rules/003's Lover Deck: each of a pair is told the other's name, nobody else is.
        lines += [
            f"in love with {other}" if kind == "lover" else f"rival is {other}"
            for other, kind in view.pairs.items()
        ]
        told[player] = frozenset(lines)
        pack[player] = frozenset(
            f"{w} → {wolf_panels.names.player(t)}" for w, t in view.pack.items()
        )
    spectator = view_for(game, None)
    # The engine's own reveals: only the forum game shows a dead player's role (rules/001);
    # rules/003 and rules/004 announce deaths without roles. Checked here, not trusted: the
    # oracle takes the seats' knowledge from the engine's per-seat view, which includes them.
    revealed = {p for phase in spectator.thread for p in phase.revealed}
    assert setup.ruleset.name == "forum" or not revealed, revealed
    assert revealed <= set(players) - set(now.alive) or now.over, revealed

    def knows(player: str | None, kind: str) -> Knows:
        if player is None:
            known = set(spectator.known) | public
            reads = frozenset({"public", "graveyard"}) if kind == "watcher" else PUBLIC_ONLY
            return Knows(frozenset(known), (), None, reads)
        view = views[player]
        role = setup.roles[player]
        alive = player in now.alive
        reads = {"public"}
        if alive and (role.side == "werewolves" or role.name == "dark_villager"):
            reads.add("pack")
        if not alive:
            reads.add("graveyard")
        return Knows(
            frozenset(set(view.known) | public),
            (*told[player], *pack[player]),
            role.title,
            frozenset(reads),
        )

    return Secrets(over, players, words, told, pack, knows)


NONE: frozenset[str] = frozenset()
PUBLIC_ONLY = frozenset({"public"})


async def seat_everyone(run: Run, game: str, players: int, join: dict[str, str]) -> Identity:
    """Ann opens a table of `game` ("family:ruleset") through the pages and the next NAMES take
    a seat each, posting `join` with their name; Ann's identity."""
    host = Identity("Ann", "seat", new_client(), "Ann")
    response = await run.http(
        host, "POST", reverse("table_new"), {"host_name": "Ann", "game": game}
    )
    run.code = response["Location"].strip("/").split("/")[-1]
    run.identities["Ann"] = host
    for name in NAMES[1:players]:
        who = Identity(name, "seat", new_client(), name)
        run.identities[name] = who
        await run.http(who, "GET", run.path("join"))
        await run.http(who, "POST", run.path("join"), {"name": name, **join})
    return host


# --- Multi-night Werewolf: the game --------------------------------------------------------------


async def werewolf_game(ruleset: str, seed: int, players: int) -> Run:
    rng = random.Random(seed)
    run = Run(oracle=werewolf_secrets)
    host = await seat_everyone(run, f"werewolf:{ruleset}", players, {})
    fields: dict[str, Any] = {
        f"count_{r}": n for r, n in line_up(ruleset, players, rng, seed % 3).items()
    }
    if ruleset == "oxford":
        fields |= {"lovers": rng.randint(0, 1), "rivals": rng.randint(0, 1)}
    await run.http(host, "POST", run.path("options"), fields, htmx=True)
    watcher = Identity("watcher", "watcher", new_client())
    outsider = Identity("outsider", "outsider", new_client())
    run.identities["watcher"] = watcher
    run.identities["outsider"] = outsider
    await run.http(watcher, "GET", reverse("watch", args=[run.code, watch_key(run.code)]))
    for who in run.identities.values():
        await run.connect(who)  # the outsider's is closed at once (no seat, no watch link)
    await run.settle()

    auditor = Auditor(
        lambda _v: werewolf_secrets(None, "lobby"),
        tokens=await sync_to_async(seat_tokens)(run.code),
    )
    run.auditor = auditor
    with _seeded(seed):
        await run.http(host, "POST", run.path("start"), htmx=True)
    await run.settle()
    # The lobby's watch link stops at a Werewolf deal (games/tables/watching.py): the watcher
    # opens the game's own link, as one handed on by a dead host would be, and reconnects.
    await run.http(watcher, "GET", reverse("watch", args=[run.code, watch_key(run.code, GAME)]))
    await run.connect(watcher)
    await run.settle()
    seen: set[str] = set()
    for _step in range(300):
        table = await sync_to_async(Table.objects.get)(code=run.code)
        if table.stage != "playing":
            break
        game = game_of(table.state)
        phase = game.state.phase
        where = f"{phase.kind}{phase.number}"
        if where not in seen:
            seen.add(where)
            await look(run, rng)
            await talk(run, table, rng)
        moved = False
        for name in rng.sample([s.player for s in run.seats()], len(run.seats())):
            table = await sync_to_async(Table.objects.get)(code=run.code)
            if table.stage != "playing":
                break
            seat = await sync_to_async(Seat.objects.get)(table=table, name=name)
            found = await sync_to_async(fields_for)(table, seat, rng)
            if found is None:
                continue
            kind, fields = found
            answer = await run.http(
                run.identities[name], "POST", run.path("move", kind), fields, htmx=True
            )
            moved = moved or answer.status_code == 200
        await run.settle()
        table = await sync_to_async(Table.objects.get)(code=run.code)
        if not moved and table.stage == "playing":
            answer = await run.http(host, "POST", run.path("move", "advance"), htmx=True)
            if answer.status_code != 200:  # the host may be dead and not allowed: the clock
                await sync_to_async(services.table_move_on)(table=table)
                await run.snapshot()
            await run.settle()
    await look(run, rng)
    await run.settle()
    final = await sync_to_async(Table.objects.get)(code=run.code)
    run.summary = {
        "stage": final.stage,
        "phases": len(seen),
        "roles": sorted(r.name for r in game_of(final.state).setup.roles.values()),
        "outcome": str(getattr(game_of(final.state).state.outcome, "winner", None)),
    }
    return run


def line_up(ruleset: str, players: int, rng: random.Random, index: int) -> dict[str, int]:
    """A random legal deck for `players` (a quarter of them on the werewolves' side), every
    role of the ruleset counted (0 for the ones left out), as the lobby's form posts it. Game
    `index` (0, 1, 2) of a ruleset always deals every third power and the werewolf-side roles in
    turn, so that three games between them deal every power."""
    rules = RULESETS[ruleset]
    wolves = [r for r in rules.roles.values() if r.side == "werewolves"]
    others = [r for r in rules.roles.values() if r.side != "werewolves"]
    powers = [r for r in others if r.name != "villager"]
    fill = rules.roles.get("villager") or others[0]
    size = max(1, players // 4)
    for attempt in range(500):
        counts: Counter[str] = Counter()
        for k in range(size):
            counts[wolves[(index * 2 + k + attempt) % len(wolves)].name] += 1
        must = powers[index % 3 :: 3] if attempt < 100 else []
        counts.update(r.name for r in must[: players - size])
        # Then more powers, once each at random, and the rest plain villagers.
        rest = [r for r in powers if r not in must]
        room = max(0, players - sum(counts.values()))
        for role in rng.sample(rest, min(len(rest), rng.randint(0, room))):
            counts[role.name] += 1
        counts[fill.name] += players - sum(counts.values())
        if start_problem(ruleset, {"roles": dict(counts)}, players) is None:
            return {name: counts[name] for name in rules.roles}
    raise AssertionError(f"no legal {ruleset} deck for {players} players")


async def look(run: Run, rng: random.Random) -> None:
    """What each browser fetches in a phase: its page, now and then its htmx panel; the
    outsider tries the page, the panel and a socket."""
    for who in run.identities.values():
        await run.http(who, "GET", run.path("table"))
        if who.kind == "outsider" or rng.random() < 0.3:
            await run.http(who, "GET", run.path("panel"), {"version": 0}, htmx=True)
    await run.settle()


async def talk(run: Run, table: Table, rng: random.Random) -> None:
    """Canary lines in every channel a seat may write in now: the pack at night, the graveyard
    for the dead, the village by day (what each may write is the family's to say; refusals are
    captured too)."""
    game = game_of(table.state)
    now = game.state
    night = now.phase is not None and now.phase.kind == "night"
    readers = {
        channel: frozenset(
            label
            for label, who in run.identities.items()
            if channel
            in werewolf_secrets(table.state, table.stage).knows(who.player, who.kind).reads
        )
        for channel in ("public", "pack", "graveyard")
    }
    for who in run.seats():
        role = game.setup.roles[who.player]
        alive = who.player in now.alive
        if not alive:
            channel = "graveyard"
        elif night and role.side == "werewolves":
            channel = "pack"
        elif not night and rng.random() < 0.5:
            channel = "public"
        else:
            continue
        text = run.canary(channel, who.label)
        assert run.auditor is not None
        run.auditor.canaries.append(Canary(text, channel, readers[channel]))
        answer = await run.http(
            who, "POST", run.path("chat"), {"channel": channel, "text": text}, htmx=True
        )
        if answer.status_code == 200:
            allowed = run.auditor.canaries[-1].readers | {who.label}
            run.auditor.canaries[-1] = Canary(text, channel, allowed)
        else:  # refused (the chat's rate limit): the answer shows it to its writer only
            run.auditor.canaries[-1] = Canary(text, channel, frozenset({who.label}), sent=False)
    await run.settle()


@contextlib.contextmanager
def _seeded(seed: int):  # type: ignore[no-untyped-def]
    from unittest import mock

    with mock.patch("games.tables.services.host.new_rng", lambda: random.Random(seed)):
        yield


async def audited_werewolf_game(ruleset: str, seed: int, players: int) -> tuple[Run, Auditor]:
    run = await werewolf_game(ruleset, seed, players)
    try:
        auditor = await sync_to_async(run.audit)()
    finally:
        await run.close()
    return run, auditor


# The audited games of this run, kept for the checks that read the same games again.
PLAYED: dict[tuple[str, int, int], Run] = {}


WEREWOLF_GAMES = [
    *(("forum", seed, players) for seed, players in ((1, 7), (2, 6), (3, 8))),
    *(("oxford", seed, players) for seed, players in ((1, 7), (2, 6), (3, 8))),
    *(("classic", seed, players) for seed, players in ((1, 7), (2, 6), (3, 8))),
]


@pytest.mark.parametrize(
    ("ruleset", "seed", "players"),
    WEREWOLF_GAMES,
    ids=[f"{r}-{s}-{p}p" for r, s, p in WEREWOLF_GAMES],
)
async def test_a_random_multi_night_game_leaks_nothing(
    ruleset: str, seed: int, players: int, group_messages: list[tuple[str, dict[str, Any]]]
) -> None:
    run, auditor = await audited_werewolf_game(ruleset, seed, players)
    PLAYED[(ruleset, seed, players)] = run
    await sync_to_async(check_group_messages)(run, auditor, group_messages)
    print(ruleset, seed, run.summary, dict(auditor.figures))
    auditor.assert_clean(f"{ruleset} seed {seed}")
    assert run.summary["stage"] == "over", run.summary
    assert_the_audit_saw_secrets(run)


def check_group_messages(
    run: Run, auditor: Auditor, sent: list[tuple[str, dict[str, Any]]]
) -> None:
    """Nothing secret in a group broadcast: a table change carries its version and, for a
    move that only counts, the public status box, which is audited as a watcher would read it;
    a chat line goes only to its own channel's group (the pack's and the graveyard's groups are
    joined by their readers' pages alone)."""
    table_id = Table.objects.values_list("pk", flat=True).get(code=run.code)
    group = push.table_group(table_id)
    mine = [(g, m) for g, m in sent if g == group or g.startswith(f"{group}-")]
    assert mine, "the game's changes reached its groups"
    for to, message in mine:
        auditor.figures["group_messages"] += 1
        if message["type"] == "table.changed":
            assert to == group
            assert set(message) <= {"type", "version", "status", "language", "redraw"}, message
            status = message.get("status", "")
            capture = Capture("group", None, "watcher", "group", to, message["version"], status)
            auditor.check(capture)
        else:
            assert message["type"] == "chat.line", message
            assert to == push.channel_group(table_id, message["channel"]), (to, message)
    auditor.assert_clean("group messages")


def assert_the_audit_saw_secrets(run: Run) -> None:
    """The captures hold what the checks look for, where it may be: each seat's role card on
    its own pages, the pack's and the graveyard's lines at their readers' (the audit would pass
    vacuously on pages that showed nothing)."""
    for who in run.seats():
        assert any(c.who == who.label and "You are the " in c.text for c in run.captures), (
            f"{who.label} never saw its role card"
        )
    outsider = [c.where for c in run.captures if c.who == "outsider" and c.what == "frame"]
    assert not outsider, f"a browser with no seat and no watch link was sent {outsider}"
    assert run.auditor is not None
    for canary in run.auditor.canaries:
        if canary.channel == "public" or not canary.sent:
            continue
        writer = canary.text.rsplit(" ", 1)[-1]
        seen_by = {c.who for c in run.captures if canary.text in c.text} - {writer}
        if canary.channel == "graveyard":
            assert "watcher" in seen_by, (canary, seen_by)
        else:
            assert seen_by, canary


COUNT = re.compile(r"(\d+) of (\d+) players? ha(?:s|ve) done their part")


def count_tells(run: Run) -> list[str]:
    """Every public count of "who has done their part" whose total is not the living players:
    a total that counts only the living with something to do tells the table which of them (and
    so which of the dead) held a power (issue 36, item 1)."""
    tells = []
    for capture in run.captures:
        for match in COUNT.finditer(capture.text):
            seen = next((v for v in sorted(run.states) if v >= capture.version), None)
            if seen is None:
                continue
            living = len(game_of(run.states[seen]).state.alive)
            if int(match.group(2)) != living:
                tells.append(
                    f"{capture.who} {capture.what} v{capture.version}: {match.group(0)}"
                    f" with {living} living"
                )
    return tells


@pytest.mark.parametrize("ruleset", ["oxford", "classic"])
async def test_the_public_count_of_who_is_done_tells_no_powers(ruleset: str) -> None:
    """rules/003 and rules/004 announce deaths without roles: the public count of who has done
    their part may not count only the players who hold a night power. (The forum game shows the
    dead's roles, so there the count tells nothing new.)"""
    game = (ruleset, 1, 7)
    run = PLAYED.get(game) or (await audited_werewolf_game(*game))[0]
    # (No count at all is a fix too: issue 36 allows "every living player (or none)".)
    assert not count_tells(run), count_tells(run)[:5]


def test_table_modes_watcher_reads_only_the_public_game() -> None:
    """Table mode (the moderator's assistant, rules/004 at a table): a watcher's pages and
    panels through a night with a kill, a witch and a seer's answer, and the days that follow,
    hold no role and nothing the moderator was shown for one player."""
    mod = Moderator("classic", list(CLASSIC))
    mod.deal(CLASSIC)
    watcher = new_client()
    watcher.get(reverse("watch", args=[mod.code, watch_key(mod.code, GAME)]))
    identity = Identity("watcher", "watcher", watcher)
    run = Run(code=mod.code, oracle=werewolf_secrets)

    def look(where: str) -> None:
        table = Table.objects.get(code=mod.code)
        run.states[table.version] = table.state
        run.stages[table.version] = table.stage
        for path in (run.path("table"), run.path("panel")):
            body = watcher.get(path).content.decode()
            run.capture(identity, "page", f"{where} {path}", table.version, body)

    look("night 1")
    mod.night("Ann", "kill", "Fay")
    mod.night("Dan", "save", "no")
    mod.night("Dan", "poison", "")
    mod.night("Cat", "check", "Ann")
    look("night 1, the seer answered")
    for step in range(12):
        mod.post("advance", {})
        look(f"advance {step}")
        if Table.objects.get(code=mod.code).stage != "playing":
            break
    auditor = run.audit()
    auditor.assert_clean("table mode")
    assert auditor.figures["captures_checked"] >= 10
    assert not COUNT.search("".join(c.text for c in run.captures))


# --- One Night: the oracle -----------------------------------------------------------------------


def onenight_secrets(state: dict[str, Any] | None, stage: str) -> Secrets:
    """What each identity may know of a One Night table (rules/000, rules/002): its own card
    and what the moderator told it (its role message, its action's prompt, after the night its
    report); nothing of anyone else until the reveal, when everything is public."""
    if not state or "players" not in state or state.get("phase") in ("reveal", "cancelled"):
        return Secrets(True, (), {}, {}, {}, lambda _p, _k: Knows(frozenset(), (), None, NONE))
    game = OneNightState(state)
    deal = game.deal
    players = tuple(deal.players)
    night = game.night() if game.phase != "night" else None
    words = {}
    own: dict[str, frozenset[str]] = {}
    for player in players:
        cards = {deal.cards[player]}
        if night is not None:
            cards.add(night.final[player])
        titles = [c.title for c in cards]
        if any(c.team is Team.WEREWOLF for c in cards):
            titles.append("werewolf")
        words[player] = words_for(titles)
        message = role_message(deal, player)
        texts = [message.heading, *message.paragraphs, action_rule(deal, player).description]
        if night is not None:
            texts += night_report(night, player)
        own[player] = frozenset(texts)

    def knows(player: str | None, kind: str) -> Knows:
        if player is None:
            return Knows(NONE, (), None, PUBLIC_ONLY)
        return Knows(frozenset({player}), tuple(own[player]), None, PUBLIC_ONLY)

    return Secrets(False, players, words, own, {}, knows)


# --- One Night: the game -------------------------------------------------------------------------


async def onenight_game(ruleset: str, seed: int, players: int) -> Run:
    rng = random.Random(seed)
    run = Run(oracle=onenight_secrets)
    host = await seat_everyone(run, f"onenight:{ruleset}", players, {"phrase": RULES_PHRASE})
    deck = Counter(_deck(rng, Ruleset(ruleset), players, []))
    counts = {f"count_{r.value}": deck.get(r, 0) for r in role_limits(Ruleset(ruleset))}
    await run.http(host, "POST", run.path("options"), counts, htmx=True)
    watcher = Identity("watcher", "watcher", new_client())
    outsider = Identity("outsider", "outsider", new_client())
    run.identities["watcher"] = watcher
    run.identities["outsider"] = outsider
    await run.http(watcher, "GET", reverse("watch", args=[run.code, watch_key(run.code)]))
    for who in run.identities.values():
        await run.connect(who)  # the outsider's is closed at once (no seat, no watch link)

    run.auditor = Auditor(
        lambda _v: onenight_secrets(None, ""), tokens=await sync_to_async(seat_tokens)(run.code)
    )
    with _seeded(seed):
        await run.http(host, "POST", run.path("start"), htmx=True)
    await run.settle()
    await look(run, rng)

    def read_state() -> OneNightState:
        return OneNightState(Table.objects.get(code=run.code).state)

    game = await sync_to_async(read_state)()
    deal = game.deal
    ids = dict((n, i) for i, n in game.players)

    def posted(targets: list[str]) -> list[str]:
        return [str(ids[t]) if t in ids else t for t in targets]

    for name in rng.sample(list(deal.players), len(deal.players)):
        who = run.identities[name]
        rule = action_rule(deal, name)
        if rule.role is Role.DOPPELGANGER:
            model = rng.choice([p for p in deal.players if p != name])
            copy = {"targets": posted([model])}
            await run.http(who, "POST", run.path("move", "copy"), copy, htmx=True)
            rule = copied_action_rule(deal.cards[model])
            if rule.requirement is Requirement.NONE:
                continue
        targets = _targets_for(rng, rule, name, deal)
        data = {"targets": posted(targets)} if targets else {"no_action": "1"}
        await run.http(who, "POST", run.path("move", "action"), data, htmx=True)
    await run.settle()
    assert (await sync_to_async(read_state)()).phase == "day"
    await look(run, rng)
    for who in run.seats():
        if rng.random() < 0.5:
            text = f"{who.label} thinks it over"
            await run.http(who, "POST", run.path("chat"), {"channel": "public", "text": text})
    await run.http(host, "POST", run.path("move", "end_day"), htmx=True)
    await run.settle()
    await look(run, rng)
    for who in run.seats():
        target = rng.choice([p for p in deal.players if p != who.player])
        await run.http(who, "POST", run.path("move", "vote"), {"target": ids[target]}, htmx=True)
    await run.settle()
    assert (await sync_to_async(read_state)()).phase == "reveal"
    await look(run, rng)
    run.summary = {"cards": sorted(c.value for c in deal.cards.values())}
    return run


ONENIGHT_GAMES = [
    (ruleset, seed, players)
    for ruleset in ("house", "official")
    for seed, players in ((1, 5), (2, 4), (3, 7))
]


@pytest.mark.parametrize(
    ("ruleset", "seed", "players"),
    ONENIGHT_GAMES,
    ids=[f"{r}-{s}-{p}p" for r, s, p in ONENIGHT_GAMES],
)
async def test_a_random_one_night_game_leaks_nothing(
    ruleset: str, seed: int, players: int, settings: Any
) -> None:
    settings.DISCORD_BOT_NAME = "Moderator"  # each seat's page shows its own `!link` code
    run = await onenight_game(ruleset, seed, players)
    try:
        auditor = await sync_to_async(run.audit)()
    finally:
        await run.close()
    print(ruleset, seed, run.summary, dict(auditor.figures))
    auditor.assert_clean(f"One Night {ruleset} seed {seed}")
    for who in run.seats():
        heading = "You are the "
        assert any(c.who == who.label and heading in c.text for c in run.captures)
    assert not [c for c in run.captures if c.who == "outsider" and c.what == "frame"]
    assert run.auditor is not None
    for label, (_token, code) in run.auditor.tokens.items():
        assert any(c.who == label and code in c.text for c in run.captures), "the !link box"


# --- One Night on the Discord bot ----------------------------------------------------------------


class BotRun:
    """A One Night game played by chat commands (games/chatbot/commands.py, relay.py) in a
    fake chat service: each member reads its private messages and the game's channel; a lurker
    in the channel (no seat) reads the channel only."""

    def __init__(self, names: list[str]) -> None:
        self.chat = FakeChat()
        self.names = names
        self.read: Counter[str] = Counter()
        self.code = ""
        self.states: dict[int, dict[str, Any]] = {}
        self.stages: dict[int, str] = {}
        self.captures: list[Capture] = []

    def say(self, name: str, text: str, channel: str | None = None) -> None:
        self.chat.say(name, text, channel)
        self.chat.deliver()
        self.capture(f"{text.split(' ', 1)[0]} by {name}")

    def capture(self, where: str) -> None:
        table = Table.objects.get(code=self.code) if self.code else None
        version = table.version if table else 0
        if table is not None:
            self.states[version] = table.state
            self.stages[version] = table.stage
        posts = self.chat.channels["game"]
        for name in [*self.names, "lurker"]:
            inbox = self.chat.inbox[name] if name != "lurker" else []
            texts = [("letter", t) for t in inbox[self.read[name] :]]
            texts += [("post", t) for t in posts[self.read[f"{name}#game"] :]]
            self.read[name] = len(inbox)
            self.read[f"{name}#game"] = len(posts)
            for what, text in texts:
                # Plain text, read line by line (a "<player>" in a command's help is words).
                escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                player = name if name != "lurker" else None
                kind = "member" if player else "outsider"
                self.captures.append(Capture(name, player, kind, what, where, version, escaped))


def bot_game(ruleset: str, seed: int, players: int) -> BotRun:
    rng = random.Random(seed)
    names = list(NAMES[:players])
    run = BotRun(names)
    chat = run.chat
    reply = chat.say(names[0], "!new official" if ruleset == "official" else "!new", "game")
    assert reply is not None
    run.code = re.search(r"\*\*([A-Z0-9]+)\*\*", reply.public[0]).group(1)  # type: ignore[union-attr]
    phrase = f" {RULES_PHRASE}" if ruleset == "house" else ""
    for name in names[1:]:
        run.say(name, f"!join {run.code}{phrase}", "game")
    table = Table.objects.get(code=run.code)
    deck = [r.value for r in _deck(rng, Ruleset(ruleset), players, [])]
    rng.shuffle(deck)
    Table.objects.filter(pk=table.pk).update(options={**table.options, "deck": deck})
    with _seeded(seed):
        run.say(names[0], f"!start {run.code}", "game")
    deal = OneNightState(Table.objects.get(pk=table.pk).state).deal

    def typed(targets: list[str]) -> str:
        return " ".join(t.replace(",", " ") for t in targets)

    for name in rng.sample(names, len(names)):
        rule = action_rule(deal, name)
        if rule.role is Role.DOPPELGANGER:
            model = rng.choice([p for p in names if p != name])
            run.say(name, f"!target {run.code} {model}")
            rule = copied_action_rule(deal.cards[model])
            if rule.requirement is Requirement.NONE:
                continue
        targets = _targets_for(rng, rule, name, deal)
        run.say(name, f"!target {run.code} {typed(targets)}".strip())
    assert Table.objects.get(pk=table.pk).phase == "day"
    for name in names:
        run.say(name, f"!role {run.code}")
        if rng.random() < 0.5:
            run.say(name, f"{name} has a hunch", "game")
        run.say(name, f"!ready {run.code}", "game")
    assert Table.objects.get(pk=table.pk).phase == "voting"
    for name in names:
        run.say(name, f"!vote {run.code} {rng.choice([p for p in names if p != name])}")
    assert Table.objects.get(pk=table.pk).stage == "over"
    return run


def _audit_bot(run: BotRun) -> Auditor:
    states = sorted(run.states)

    @cache
    def secrets_at(version: int) -> Secrets:
        seen = next((v for v in states if v >= version), states[-1])
        return onenight_secrets(run.states[seen], run.stages[seen])

    auditor = Auditor(secrets_at, tokens=seat_tokens(run.code))
    for capture in run.captures:
        auditor.check(capture)
    return auditor


@pytest.mark.parametrize(("ruleset", "seed", "players"), [("house", 4, 5), ("official", 5, 6)])
def test_a_random_one_night_game_on_the_bot_leaks_nothing(
    ruleset: str, seed: int, players: int
) -> None:
    run = bot_game(ruleset, seed, players)
    auditor = _audit_bot(run)
    print(ruleset, seed, dict(auditor.figures))
    auditor.assert_clean(f"the bot's {ruleset} game")
    for name in run.names:
        assert any(c.who == name and "You are the " in c.text for c in run.captures), name
    assert auditor.figures["letter"] and auditor.figures["post"]


# --- The reader itself ---------------------------------------------------------------------------


def test_the_reader_cuts_statements_and_knows_every_form_of_a_role() -> None:
    """A statement is a paragraph, an item, a table row, an option, a comment, a script's text;
    attributes are read with it. A role is found in any case and number."""
    markup = (
        '<p>Ann <strong>(Seer)</strong></p><ul><li data-x="wolf">Ben</li><li>Cat</li></ul>'
        '<script type="application/json">{"Dan": 1}</script><!-- Eve: Witch -->'
        '<tr class="dead"><td>Fay</td><td>Hunter</td></tr><option value="3">Gus</option>'
    )
    assert blocks(markup) == [
        "Ann (Seer)",
        "wolf Ben",
        "Cat",
        'application/json {"Dan": 1}',
        "Eve: Witch",
        "dead Fay Hunter",
        "3 Gus",
    ]
    assert blocks("Game X: you are\n\n  the Seer.") == ["Game X: you are", "the Seer."]
    wolf = words_for(["White Werewolf King", "werewolf", "wolf"])
    for text in ("the WEREWOLVES", "a white  werewolf king", "two wolves", "Wolf"):
        assert wolf.search(text), text
    assert not wolf.search("wolfsbane") and not wolf.search("werewolfish")
    assert words_for(["Seer"]).search("the seers") and not words_for(["Seer"]).search("seerly")


# --- The audit catches leaks (planted ones) ------------------------------------------------------


async def test_the_audit_catches_a_role_in_a_new_public_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: the story so far names every dead player's role in rules/004, which announces
    deaths without roles. No private sentence is involved: the block binding a name to its
    role alone must fail the audit."""
    real = wolf_panels.public_lines

    def leaky(phase: Any) -> list[str]:
        game_roles = CURRENT_ROLES.get()
        return [*real(phase), *(f"{p} was the {game_roles[p]}." for p in phase.dead)]

    monkeypatch.setattr(wolf_panels, "public_lines", leaky)
    monkeypatch.setattr(wolf_panels, "view_of", _remembering_roles(wolf_panels.view_of))
    _run, auditor = await audited_werewolf_game("classic", 1, 7)
    assert any("role" in leak and "watcher" in leak for leak in auditor.leaks), auditor.leaks[:3]
    assert any("(seat)" in leak for leak in auditor.leaks)


async def test_the_audit_catches_what_one_seat_was_told_shown_to_all(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: every page (a watcher's too) shows what every seat was told and the pack's
    choices. The seer's answers and the pack's lines must fail the audit, where they name no
    role as well as where they do."""
    real = wolf_panels.view_for

    def leaky(game: Any, player: str | None) -> Any:
        mine = real(game, player)
        views = [real(game, p) for p in game.setup.players]
        told = tuple(t for view in views for t in view.told)
        pack = {w: t for view in views for w, t in view.pack.items()}
        return dataclasses.replace(mine, told=told, pack=MappingProxyType(pack))

    monkeypatch.setattr(wolf_panels, "view_for", leaky)
    _run, auditor = await audited_werewolf_game("classic", 3, 8)
    assert any("private sentence" in leak and "watcher" in leak for leak in auditor.leaks), (
        auditor.leaks[:5]
    )
    assert any("a pack's choice" in leak for leak in auditor.leaks), auditor.leaks[:3]


async def test_the_audit_catches_the_graveyard_read_by_the_living(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: every seat reads the graveyard. The canaries of the dead must fail the audit."""
    from games.families.werewolf.family import GRAVEYARD, Werewolf
    from games.tables.family import Channel

    real = Werewolf.channels

    def leaky(self: Werewolf, table: Any, viewer: Any) -> tuple[Channel, ...]:
        channels = real(self, table, viewer)
        if any(c.name == GRAVEYARD for c in channels):
            return channels
        return (*channels, Channel(GRAVEYARD, "Graveyard", read=True, write=False))

    monkeypatch.setattr(Werewolf, "channels", leaky)
    _run, auditor = await audited_werewolf_game("classic", 1, 7)
    assert any("graveyard channel" in leak for leak in auditor.leaks), auditor.leaks[:3]


async def test_the_audit_catches_a_role_in_websocket_frames_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: the panel pushed over the socket carries, in an HTML comment, the role of the
    next player. Pages are untouched; the frames alone must fail the audit."""
    from games.tables import consumers

    real = consumers.render_to_string

    def leaky(template: str, context: dict[str, Any]) -> str:
        markup = real(template, context)
        page = context.get("page")
        if template != "tables/page.html#panel" or page is None:
            return markup
        state = page.table.state or {}
        if "setup" not in state:
            return markup
        roles = game_of(state).setup.roles
        players = list(roles)
        me = next((n for n, i in state["seats"].items() if page.me and i == page.me.pk), None)
        other = players[(players.index(me) + 1) % len(players)] if me else players[0]
        return markup + f"<!-- {other}: {roles[other].title} -->"

    monkeypatch.setattr(consumers, "render_to_string", leaky)
    _run, auditor = await audited_werewolf_game("forum", 1, 7)
    assert auditor.leaks
    assert all(" frame " in leak for leak in auditor.leaks), auditor.leaks[:3]


def _plant_a_neighbours_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: every One Night role message (the page's and the bot's letter, both drawn from
    panels.view_of) also names the next seat's card."""
    from games.families.onenight import panels as night_panels
    from games.families.onenight.engine import Deal
    from games.families.onenight.engine.messages import RoleMessage

    real = night_panels.role_message

    def leaky(deal: Deal, player: str) -> RoleMessage:
        mine = real(deal, player)
        players = list(deal.players)
        other = players[(players.index(player) + 1) % len(players)]
        extra = f"Psst: {other} holds the {deal.cards[other].title}."
        return RoleMessage(mine.role, mine.heading, (*mine.paragraphs, extra))

    monkeypatch.setattr(night_panels, "role_message", leaky)


async def test_the_audit_catches_another_seat_in_a_one_night_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _plant_a_neighbours_card(monkeypatch)
    run = await onenight_game("official", 1, 5)
    try:
        auditor = await sync_to_async(run.audit)()
    finally:
        await run.close()
    assert any("Psst" in leak for leak in auditor.leaks), auditor.leaks[:3]


def test_the_audit_catches_another_seat_in_a_bot_letter(monkeypatch: pytest.MonkeyPatch) -> None:
    _plant_a_neighbours_card(monkeypatch)
    run = bot_game("official", 5, 6)
    auditor = _audit_bot(run)
    assert any("Psst" in leak and " letter " in leak for leak in auditor.leaks), auditor.leaks[:3]
