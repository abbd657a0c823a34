"""Bad input: property-based fuzzing of every form and every websocket message, in every phase.

Every form (create game, join by code, join, deck, remove, start, night action with the
Doppelganger's copy step, ready, end of day, vote, play again, cancel, the status fragment) gets
wrong types, huge strings (up to ~100 KB), unicode (RTL override, zero-width, emoji, full-width),
HTML and script, template syntax, control characters, duplicates and posts out of phase, from
anonymous visitors, seated players and the host. The websocket gets every message type (chat,
sync, ping, unknown), non-JSON, JSON arrays, nested values and huge strings. The properties:

- never a 500 (an exception in a view fails the test: the test client re-raises it) and never a
  crashed socket;
- a refusal always carries a message a person can read, and changes nothing in the database;
- an accepted request changes only what it should (its own seat's action, vote, flag...).

Each example runs inside a savepoint that is rolled back, so every example starts from the same
tables (HTTP); the websocket examples run on their own tables and compare snapshots.

Escaping: names and chat lines holding script and HTML are shown escaped on every page, fragment
and websocket status, and in the admin (changelist, search, change pages), never raw.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.engine import Role
from games.models import ChatMessage, Game, NightAction, Phase, Seat
from games.models import Vote as VoteRow
from tests.factories import (
    OFFICIAL_FIVE,
    THREE,
    Table,
    client_for,
    create_lobby,
    deal_game,
    form_targets,
    play_to,
)
from tests.realtime.helpers import WAIT, SocketOpener, new_session
from tests.security.audit import db_snapshot, message_of, plain, snapshot_diff

ARTIFACT = Path(__file__).resolve().parents[2] / "test-artifacts" / "security" / "fuzzing.json"
FIGURES: Counter[str] = Counter()
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)

PHASES = [Phase.LOBBY, Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL, Phase.CANCELLED]
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
# Raw markup that must never come back unescaped (the payloads' dangerous parts).
RAW_MARKERS = ("<script>alert", "<img src=x", "<b>bold</b>", "<svg/onload")

HOSTILE = [
    SCRIPT,
    IMG,
    "<b>bold</b>",
    "<svg/onload=alert(1)>",
    "javascript:alert(1)",
    "{{ view.me.token }}",
    "{% csrf_token %}",
    "${7*7}",
    "' OR 1=1 --",
    "\u202eevil\u202c",
    "zero\u200bwidth",
    "🐺🌕👻",
    "".join(chr(ord(c) + 0xFEE0) for c in "werewolf"),  # full-width letters
    "Ǆǅǆ ﬁ ß",
    "\x00",
    "a\x07b",
    "\r\n\t",
    "   ",
    "",
    "left",
    "LEFT",
    "Moderator",
    "Ann",
    "ann",
    "Zed",
    "-1",
    "0",
    "1e5",
    "9" * 40,
    "١٢",
    "²",
    "NaN",
    "null",
    "[]",
    "{}",
    "../../etc/passwd",
    "%00",
    "é" * 24,
    "e\u0301" * 12,
]

huge = st.builds(
    lambda chunk, n: (chunk * (n // len(chunk) + 1))[:n],
    st.sampled_from(["x", "é", "🐺", SCRIPT, "\u200b"]),
    st.integers(min_value=500, max_value=100_000),
)
texts = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=30),
    huge,
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)


@contextmanager
def rolled_back() -> Iterator[None]:
    """Run the body in a savepoint and undo whatever it did."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


# --- The tables every HTTP example starts from ------------------------------------------------


@dataclass
class World:
    tables: dict[str, Table]
    clients: dict[tuple[str, str], Client]

    def code(self, phase: str) -> str:
        return self.tables[phase].code


@pytest.fixture
def world(db: None) -> World:
    tables = {
        Phase.LOBBY: create_lobby(["Ann", "Ben", "Cat"]),
        Phase.NIGHT: deal_game("official", **OFFICIAL_FIVE),
    }
    for phase in PHASES[2:]:
        tables[phase] = play_to(phase, THREE, actions={"Ben": ["Ann"]})
    clients: dict[tuple[str, str], Client] = {}
    for phase, table in tables.items():
        clients[(phase, "anonymous")] = Client()
        clients[(phase, "player")] = client_for(table, "Ben")
        clients[(phase, "host")] = client_for(table, "Ann")
    return World(tables=tables, clients=clients)


def refusal_or_change(
    response: HttpResponse,
    before: dict[str, Any],
    allowed: Callable[[list[str]], bool],
    label: str,
) -> None:
    """The fuzzing properties for one answered request."""
    FIGURES["http_inputs"] += 1
    FIGURES[f"status_{response.status_code}"] += 1
    assert response.status_code < 500, (label, response.status_code)
    diff = snapshot_diff(before, db_snapshot())
    if response.status_code >= 400:
        shown = message_of(response) or plain(response.content.decode())
        assert shown, f"{label}: {response.status_code} with no message"
        assert not diff, (label, response.status_code, diff)
    elif diff:
        assert allowed(diff), (label, response.status_code, diff)
    body = response.content.decode(errors="replace")
    for marker in RAW_MARKERS:
        assert marker not in body, (label, marker)


def only(*prefixes: str) -> Callable[[list[str]], bool]:
    return lambda diff: all(d.startswith(prefixes) for d in diff)


def seat_rows_of(pk: int) -> Callable[[list[str]], bool]:
    """Changes to this seat's own rows (its action, vote, ready flag), or the phase move its
    request caused (the game row, every seat's card at dawn, the centre, a moderator note)."""

    def allowed(diff: list[str]) -> bool:
        for change in diff:
            table, _, rest = change.partition(" ")
            row = int(re.match(r"\d+", rest).group())  # type: ignore[union-attr]
            if table in ("game", "centre", "chat"):
                continue
            if table == "seat" and ".final_role" in rest:
                continue
            if table == "seat" and ".ready_to_vote" in rest and row == pk:
                continue
            if table == "action" and NightAction.objects.filter(pk=row, seat_id=pk).exists():
                continue
            if table == "vote" and VoteRow.objects.filter(pk=row, voter_id=pk).exists():
                continue
            return False
        return True

    return allowed


# --- Forms ----------------------------------------------------------------------------------------

WHO = st.sampled_from(["anonymous", "player", "host"])
SEATED = st.sampled_from(["anonymous", "player", "host", "host"])  # mostly someone who may
PHASE = st.sampled_from(PHASES)
HTMX = st.booleans()


def mostly(phase: str) -> st.SearchStrategy[str]:
    """Half the examples in the phase where the form is meant to be used, half in any."""
    return st.one_of(st.just(phase), PHASE)


def post(client: Client, path: str, data: dict[str, Any], htmx: bool) -> HttpResponse:
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(path, data, **extra)


@FUZZ
@given(
    host_name=texts,
    ruleset=st.one_of(st.sampled_from(["house", "official", "HOUSE", ""]), texts),
    day=st.one_of(st.integers(-5, 2000).map(str), texts),
    night=st.one_of(st.just(""), st.integers(-5, 2000).map(str), texts),
    vote=st.one_of(st.just(""), st.integers(-5, 2000).map(str), texts),
    phrase=st.one_of(st.sampled_from(["default", "yes", "no"]), texts),
)
def test_fuzz_create_game(
    world: World, host_name: str, ruleset: str, day: str, night: str, vote: str, phrase: str
) -> None:
    data = {
        "host_name": host_name,
        "ruleset": ruleset,
        "day_minutes": day,
        "night_minutes": night,
        "vote_minutes": vote,
        "rules_phrase": phrase,
    }
    with rolled_back():
        before = db_snapshot()
        response = Client().post(reverse("game_new"), data)
        refusal_or_change(response, before, only("game ", "seat "), "create")
        if response.status_code == 302:
            seat = Seat.objects.order_by("-pk").first()
            assert seat is not None and seat.is_host
            assert seat.name == seat.name.strip() and 0 < len(seat.name) <= 24
            assert seat.name.isprintable()


@FUZZ
@given(code=texts, who=WHO, phase=PHASE)
def test_fuzz_join_by_code(world: World, code: str, who: str, phase: str) -> None:
    with rolled_back():
        before = db_snapshot()
        response = world.clients[(phase, who)].post(reverse("join_by_code"), {"code": code})
        refusal_or_change(response, before, lambda d: False, "join_by_code")


@FUZZ
@given(name=texts, phrase=texts, who=WHO, phase=PHASE, extra=st.booleans())
def test_fuzz_join(world: World, name: str, phrase: str, who: str, phase: str, extra: bool) -> None:
    data = {"name": name, "rules_phrase": phrase}
    if extra:
        data["rules_phrase"] = services.RULES_PHRASE
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = client.post(reverse("join", args=[world.code(phase)]), data)
        refusal_or_change(response, before, only("seat ", "seat_taken "), "join")
        if response.status_code == 302 and snapshot_diff(before, db_snapshot()):
            assert who == "anonymous" and phase == Phase.LOBBY


@FUZZ
@given(
    counts=st.dictionaries(
        st.one_of(st.sampled_from([f"count_{r.value}" for r in Role]), st.text(max_size=12)),
        st.one_of(st.integers(-3, 5).map(str), texts),
        max_size=8,
    ),
    suggested=st.booleans(),
    who=SEATED,
    phase=mostly(Phase.LOBBY),
    htmx=HTMX,
)
def test_fuzz_deck(
    world: World, counts: dict[str, str], suggested: bool, who: str, phase: str, htmx: bool
) -> None:
    data: dict[str, Any] = dict(counts)
    if suggested:
        data["suggested"] = "1"
    game = world.tables[phase].game
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = post(client, reverse("deck", args=[world.code(phase)]), data, htmx)
        refusal_or_change(response, before, only(f"game {game.pk}.deck"), "deck")
        if snapshot_diff(before, db_snapshot()):
            assert who == "host" and phase == Phase.LOBBY


@FUZZ
@given(
    seat=st.one_of(
        st.sampled_from(["Ann", "Ben", "Cat", "other"]),
        st.integers(min_value=0, max_value=10**40),
    ),
    who=SEATED,
    phase=mostly(Phase.LOBBY),
    htmx=HTMX,
)
def test_fuzz_remove(world: World, seat: str | int, who: str, phase: str, htmx: bool) -> None:
    table = world.tables[phase]
    if isinstance(seat, str):
        other = world.tables[Phase.DAY if phase == Phase.LOBBY else Phase.LOBBY]
        seat = (other if seat == "other" else table).seats["Cat" if seat == "other" else seat].pk
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = post(client, f"/g/{table.code}/remove/{seat}", {}, htmx)
        refusal_or_change(response, before, only("seat ", "chat "), "remove")
        if snapshot_diff(before, db_snapshot()):
            assert who == "host" and phase == Phase.LOBBY
            assert seat in (table.seats["Ben"].pk, table.seats["Cat"].pk)


ANY_DATA = st.dictionaries(st.text(max_size=10), texts, max_size=4)


@FUZZ
@given(
    route=st.sampled_from(["lock", "start", "cancel", "end_day", "ready", "play_again"]),
    data=ANY_DATA,
    ready=st.one_of(st.none(), texts),
    who=WHO,
    phase=PHASE,
    htmx=HTMX,
)
def test_fuzz_host_and_day_actions(
    world: World,
    route: str,
    data: dict[str, str],
    ready: str | None,
    who: str,
    phase: str,
    htmx: bool,
) -> None:
    """lock, start, cancel, end of day, ready, play again: the data is ignored or checked; who
    may and in which phase is the services' call."""
    if ready is not None:
        data = {**data, "ready": ready}
    table = world.tables[phase]
    allowed_by = {
        "lock": (("host",), (Phase.LOBBY,)),
        "start": (("host",), (Phase.LOBBY,)),
        "cancel": (("host",), (Phase.LOBBY, Phase.NIGHT, Phase.DAY, Phase.VOTING)),
        "end_day": (("host",), (Phase.DAY,)),
        "ready": (("host", "player"), (Phase.DAY,)),
        "play_again": (("host", "player"), (Phase.REVEAL,)),
    }
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = post(client, reverse(route, args=[table.code]), data, htmx)
        refusal_or_change(response, before, lambda d: True, route)
        if snapshot_diff(before, db_snapshot()):
            whom, phases = allowed_by[route]
            assert who in whom and phase in phases, (route, who, phase)


# "#Ann" stands for Ann's seat id, as the page's form posts it (mapped in the test).
target_values = st.one_of(
    st.sampled_from(["#Ann", "#Ben", "#Cat", "#Dan", "#Eve", "#Zed", "left", "middle", "right"]),
    st.sampled_from(["Ann", "Ben", "Cat", "Dan", "Eve"]),
    st.sampled_from(["left,middle", "Ben,Cat", ",", "left,,right", "Ann,Ann"]),
    texts,
)


@FUZZ
@given(
    targets=st.lists(target_values, max_size=5),
    step=st.one_of(st.none(), st.just("copy"), texts),
    no_action=st.booleans(),
    first=st.one_of(st.none(), st.sampled_from(["#Ben", "#Cat", "#Dan", "#Eve", "#Ann", "left"])),
    who=SEATED,
    phase=mostly(Phase.NIGHT),
    htmx=HTMX,
)
def test_fuzz_night_action(
    world: World,
    targets: list[str],
    step: str | None,
    no_action: bool,
    first: str | None,
    who: str,
    phase: str,
    htmx: bool,
) -> None:
    """Night actions, the Doppelganger's copy step (Ann holds it at night), duplicates and every
    other phase. `first`: a copy step sent before the fuzzed post (so the second step and a
    second copy are fuzzed too)."""
    table = world.tables[phase]

    def posted(value: str) -> str:
        name = value.removeprefix("#")
        return str(table.seats[name].pk) if value != name and name in table.seats else value

    data: dict[str, Any] = {"targets": [posted(t) for t in targets]}
    if step is not None:
        data["step"] = step
    if no_action:
        data["no_action"] = "1"
    client = world.clients[(phase, who)]
    path = reverse("night_action", args=[table.code])
    with rolled_back():
        if first is not None and who == "host" and phase == Phase.NIGHT:
            client.post(path, {"step": "copy", "targets": posted(first)})
        before = db_snapshot()
        response = post(client, path, data, htmx)
        me = table.seats["Ann" if who == "host" else "Ben"].pk
        refusal_or_change(response, before, seat_rows_of(me), "action")
        if snapshot_diff(before, db_snapshot()):
            assert who != "anonymous" and phase == Phase.NIGHT
        FIGURES["action_inputs"] += 1


@FUZZ
@given(
    target=st.one_of(
        st.sampled_from(["Ann", "Ben", "Cat", "self", "other"]),
        st.integers(min_value=-(10**20), max_value=10**20).map(str),
        texts,
    ),
    again=st.booleans(),
    who=SEATED,
    phase=mostly(Phase.VOTING),
    htmx=HTMX,
)
def test_fuzz_vote(
    world: World, target: str, again: bool, who: str, phase: str, htmx: bool
) -> None:
    table = world.tables[phase]
    if target in ("Ann", "Ben", "Cat"):
        target = str(table.seats[target].pk)
    elif target == "self":
        target = str(table.seats["Ann" if who == "host" else "Ben"].pk)
    elif target == "other":
        target = str(world.tables[Phase.LOBBY].seats["Cat"].pk)
    client = world.clients[(phase, who)]
    path = reverse("vote", args=[table.code])
    with rolled_back():
        if again:  # a first vote, so the fuzzed one is a duplicate
            client.post(path, {"target": table.seats["Cat"].pk})
        before = db_snapshot()
        response = post(client, path, {"target": target}, htmx)
        me = table.seats["Ann" if who == "host" else "Ben"].pk
        refusal_or_change(response, before, seat_rows_of(me), "vote")
        if snapshot_diff(before, db_snapshot()):
            assert who != "anonymous" and phase == Phase.VOTING


@FUZZ
@given(
    params=st.dictionaries(st.one_of(st.just("phase"), st.text(max_size=8)), texts, max_size=3),
    who=WHO,
    phase=PHASE,
    htmx=HTMX,
    page=st.sampled_from(["status", "game", "join"]),
)
def test_fuzz_get_pages(
    world: World, params: dict[str, str], who: str, phase: str, htmx: bool, page: str
) -> None:
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = client.get(reverse(page, args=[world.code(phase)]), params, **extra)
        refusal_or_change(response, before, lambda d: False, page)


def test_out_of_phase_and_duplicate_submissions(world: World) -> None:
    """Deterministic companions of the fuzzing: each valid post, sent twice or too late."""
    night = world.tables[Phase.NIGHT]
    ann = world.clients[(Phase.NIGHT, "host")]
    ben = world.clients[(Phase.NIGHT, "player")]
    path = reverse("night_action", args=[night.code])
    with rolled_back():
        copy = {"step": "copy", "targets": form_targets(night, "Ben")}
        assert ann.post(path, copy).status_code == 302
        before = db_snapshot()
        response = ann.post(path, {"step": "copy", "targets": form_targets(night, "Cat")})
        refusal_or_change(response, before, lambda d: False, "second copy")
        assert response.status_code == 400
        assert "already chose whom to copy" in message_of(response)
        assert ann.post(path, {"targets": "left,middle"}).status_code == 302
        for data in ({"targets": "left,right"}, {"no_action": "1"}):
            before = db_snapshot()
            response = ann.post(path, data)
            refusal_or_change(response, before, lambda d: False, "second action")
            assert "already sent your night action" in message_of(response)
        assert ben.post(path, {"targets": form_targets(night, "Cat")}).status_code == 302
        before = db_snapshot()
        response = ben.post(path, {"targets": form_targets(night, "Dan")})
        refusal_or_change(response, before, lambda d: False, "second seer action")
        assert response.status_code == 400
    voting = world.tables[Phase.VOTING]
    ben = world.clients[(Phase.VOTING, "player")]
    with rolled_back():
        vote = reverse("vote", args=[voting.code])
        assert ben.post(vote, {"target": voting.seats["Cat"].pk}).status_code == 302
        before = db_snapshot()
        response = ben.post(vote, {"target": voting.seats["Ann"].pk})
        refusal_or_change(response, before, lambda d: False, "second vote")
        assert response.status_code == 400 and "already voted" in message_of(response)


# --- Websocket --------------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**25), max_value=10**25),
        st.floats(allow_nan=False),
        texts,
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
message_types = st.one_of(
    st.sampled_from(["chat", "sync", "ping", "pong", "hello", "status", "error", "CHAT", ""]),
    texts,
    json_values,
)
ws_objects = st.builds(
    lambda kind, text, after, extra: {"type": kind, "text": text, "after": after, **extra},
    message_types,
    st.one_of(texts, json_values),
    json_values,
    st.dictionaries(st.text(max_size=6), json_values, max_size=2),
)
ws_frames = st.one_of(
    st.builds(lambda t: json.dumps({"type": "chat", "text": t}), texts),
    st.builds(lambda t: json.dumps({"type": "chat", "text": t}), json_values),
    st.builds(lambda a: json.dumps({"type": "sync", "after": a}), json_values),
    st.builds(lambda e: json.dumps({**e, "type": "ping"}), st.dictionaries(texts, json_values)),
    ws_objects.map(json.dumps),
    json_values.map(json.dumps),
    st.sampled_from(["{not json", "[1, 2]", '"chat"', "null", "{}", "[]", "0", "1e999", "NaN"]),
    st.text(min_size=1, max_size=50),
    st.integers(min_value=1, max_value=60).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=1, max_value=60).map(lambda n: '{"a":' * n + "1" + "}" * n),
    huge.map(lambda s: json.dumps({"type": "chat", "text": s})),
)
# Game forms over the socket (games/consumers.py): paths of this game's forms ("%CODE%" is
# replaced by the table's code when sent), of other pages and of nothing, with fuzzed fields.
form_paths = st.one_of(
    st.sampled_from(
        [
            "/g/%CODE%/action",
            "/g/%CODE%/ready",
            "/g/%CODE%/vote",
            "/g/%CODE%/start",
            "/g/%CODE%/deck",
            "/g/%CODE%/end-day",
            "/g/%CODE%/cancel",
            "/g/%CODE%/remove/1",
            "/g/%CODE%/again",
            "/g/%CODE%/status",
            "/g/OTHERGAME/ready",
            "/games/new",
            "/admin/",
        ]
    ),
    texts,
    json_values,
)
form_field_values = st.one_of(
    st.lists(
        st.one_of(st.sampled_from(["Ann", "Ben", "Cat", "left", "1", "no", "x"]), texts),
        max_size=3,
    ),
    texts,
    json_values,
)
form_fields = st.one_of(
    st.dictionaries(
        st.one_of(
            st.sampled_from(["targets", "no_action", "step", "target", "ready", "suggested"]),
            st.text(max_size=12),
        ),
        form_field_values,
        max_size=4,
    ),
    json_values,
)
form_frames = st.builds(
    lambda path, fields: json.dumps({"type": "form", "path": path, "fields": fields}),
    form_paths,
    form_fields,
)
# Frames every run sends in every phase, whatever hypothesis draws.
EDGE_FRAMES = [
    json.dumps({"type": "chat", "text": "x" * 100_000}),
    json.dumps({"type": "chat", "text": "🐺" * 25_000}),
    json.dumps({"type": "chat", "text": SCRIPT}),
    json.dumps({"type": "chat", "text": IMG}),
    json.dumps({"type": "chat", "text": "\u202eevil\u202c and zero\u200bwidth"}),
    json.dumps({"type": "chat", "text": "\u200b\u200b"}),
    json.dumps({"type": "chat", "text": 42}),
    json.dumps({"type": "chat", "text": ["a", "b"]}),
    json.dumps({"type": "chat"}),
    json.dumps({"type": "sync", "after": 10**30}),
    json.dumps({"type": "sync", "after": -1}),
    json.dumps({"type": "ping", "extra": "x" * 100_000}),
    json.dumps({"type": "nonsense"}),
    json.dumps([{"type": "chat", "text": "in an array"}]),
    "[" * 500 + "]" * 500,
    "{not json",
    "\x00",
]


@dataclass
class SocketWorld:
    sessions: dict[str, str]  # phase -> sessionid of Ben's seat
    tables: dict[str, Table]


async def _one_message(session: str, code: str, frame: str) -> list[dict[str, Any]]:
    """Connect as the seat, send one frame, return the reply first, then every other frame up
    to the pong; the socket must still answer a ping afterwards (it did not crash)."""
    opener = SocketOpener()
    try:
        comm = opener.communicator(code, cookie=f"sessionid={session}")
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected
        hello = await comm.receive_json_from(timeout=WAIT)
        assert hello["type"] == "hello"
        await comm.send_to(text_data=frame)
        replies: list[dict[str, Any]] = []
        if is_form(frame):
            # A form is answered from a task of its own: wait for its answer before the ping.
            reply = await comm.receive_json_from(timeout=WAIT)
            while reply.get("answer") is not True and reply["type"] != "form-error":
                replies.append(reply)
                reply = await comm.receive_json_from(timeout=WAIT)
            replies.insert(0, reply)
        await comm.send_json_to({"type": "ping"})
        while True:
            reply = await comm.receive_json_from(timeout=WAIT)
            if reply["type"] == "pong" and replies:
                break
            replies.append(reply)
        # The game's events (the sender's own chat line) are handled beside the page's frames
        # and may come before the reply: the reply goes first.
        replies.sort(key=lambda r: r["type"] in ("chat", "status") and r.get("answer") is not True)
        return replies
    finally:
        await opener.close_all()


def is_form(frame: str) -> bool:
    try:
        content = json.loads(frame)
    except (ValueError, RecursionError):
        return False
    return isinstance(content, dict) and content.get("type") == "form"


def only_bens_own_changes(diff: list[str], table: Table) -> None:
    """An accepted form changed nothing but Ben's own seat, action or vote."""
    ben = table.seats["Ben"].pk
    bens_actions = set(NightAction.objects.filter(seat_id=ben).values_list("pk", flat=True))
    for line in diff:
        kind, rest = line.split(" ", 1)
        assert kind in ("seat", "action", "vote"), line
        if kind == "seat":
            assert rest.startswith(f"{ben}.ready_to_vote:"), line
        elif " created: " in rest:
            assert f"'seat_id': {ben}," in rest or f"'voter_id': {ben}," in rest, line
        else:
            assert kind == "action" and int(rest.split(".", 1)[0]) in bens_actions, line


@pytest.fixture
def socket_world(transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> SocketWorld:
    """Ben's seat in a game in every phase, with a session each (chat rate limit lifted so that
    every accepted line is stored and checked)."""
    monkeypatch.setattr(services, "CHAT_BURST", 10**9)
    tables = {Phase.LOBBY: create_lobby(["Ann", "Ben", "Cat"])}
    for phase in PHASES[1:]:
        tables[phase] = play_to(phase, THREE, actions={"Ben": ["Ann"]})
    sessions = {
        p: new_session({"seats": {t.code: t.seats["Ben"].token}}) for p, t in tables.items()
    }
    return SocketWorld(sessions=sessions, tables=tables)


def check_one_frame(world: SocketWorld, frame: str, phase: str) -> None:
    """Send one frame as Ben in `phase`: an answer, no crash, and no change but an accepted line."""
    channel_layers.backends.clear()  # a new event loop per frame: a fresh in-memory layer
    table = world.tables[phase]
    frame = frame.replace("%CODE%", table.code)
    before = db_snapshot()
    replies = async_to_sync(_one_message)(world.sessions[phase], table.code, frame)
    after = db_snapshot()
    FIGURES["ws_inputs"] += 1
    FIGURES["ws_bytes"] += len(frame)
    assert replies, frame[:200]
    reply = replies[0]
    FIGURES[f"ws_reply_{reply['type']}"] += 1
    if is_form(frame):
        check_form_answer(reply, frame, snapshot_diff(before, after), table, phase)
        return
    assert reply["type"] in ("sent", "error", "hello", "pong"), reply
    if reply["type"] == "error":
        assert isinstance(reply["message"], str) and reply["message"].strip()
    diff = snapshot_diff(before, after)
    if reply["type"] != "sent":
        assert not diff, (frame[:200], reply, diff)
        return
    # Accepted: one new line, by Ben, in a phase with an open chat, holding the cleaned text.
    content = json.loads(frame)
    assert phase in services.CHAT_PHASES
    lines = list(ChatMessage.objects.filter(game=table.game).order_by("-pk")[:1])
    assert len(diff) == 1 and diff[0].startswith("chat "), diff
    assert lines[0].seat_id == table.seats["Ben"].pk
    assert lines[0].text == services.clean_chat_text(content["text"])


# Every websocket fuzzer: 200 frames, each against the shared world of SocketWorld.
SOCKET_FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)


def check_form_answer(
    reply: dict[str, Any], frame: str, diff: list[str], table: Table, phase: str
) -> None:
    """A form frame gets its panel back (with the error if refused: then nothing changed), or
    only the card it changed, or a form-error (nothing changed); what it shows is escaped, and
    an accepted form changed only Ben's own rows, in the phase the table was in."""
    assert reply["type"] in ("status", "form-error"), reply
    if reply["type"] == "form-error":
        assert isinstance(reply["message"], str) and reply["message"].strip()
        assert not diff, (frame[:200], reply, diff)
        return
    assert reply["answer"] is True and reply["phase"] == phase, reply
    # The whole panel, or only the card an accepted form changed (never with an error).
    markup = reply["panel_html"] if "panel_html" in reply else reply["part_html"]
    assert_escaped(markup, f"form answer to {frame[:80]}", expect_escaped=False)
    if 'role="alert"' in markup:
        assert "panel_html" in reply and not diff, (frame[:200], diff)
    else:
        only_bens_own_changes(diff, table)


@SOCKET_FUZZ
@given(frame=form_frames, phase=PHASE)
def test_fuzz_forms_over_the_socket(socket_world: SocketWorld, frame: str, phase: str) -> None:
    check_one_frame(socket_world, frame, phase)


@SOCKET_FUZZ
@given(frame=ws_frames, phase=PHASE)
def test_fuzz_websocket_messages(socket_world: SocketWorld, frame: str, phase: str) -> None:
    check_one_frame(socket_world, frame, phase)


@pytest.mark.parametrize("phase", PHASES)
def test_websocket_edge_frames(socket_world: SocketWorld, phase: str) -> None:
    for frame in EDGE_FRAMES:
        check_one_frame(socket_world, frame, phase)


@pytest.mark.django_db(transaction=True)
async def test_a_deeply_nested_frame_gets_an_error_not_a_crash(sockets: SocketOpener) -> None:
    from channels.db import database_sync_to_async

    table = await database_sync_to_async(create_lobby)(["Ann", "Ben", "Cat"])
    ben, _ = await sockets.seat(table, "Ben")
    await ben.send_to(text_data="[" * 100_000)
    reply = await ben.receive_json_from(timeout=0.5)
    assert reply == {"type": "error", "message": "Unknown message."}


@pytest.mark.django_db(transaction=True)
async def test_an_empty_frame_gets_an_error_not_a_crash(sockets: SocketOpener) -> None:
    from channels.db import database_sync_to_async

    table = await database_sync_to_async(create_lobby)(["Ann", "Ben", "Cat"])
    ben, _ = await sockets.seat(table, "Ben")
    await ben.send_input({"type": "websocket.receive", "text": ""})
    reply = await ben.receive_json_from(timeout=0.5)
    assert reply["type"] == "error"


# --- Escaping ---------------------------------------------------------------------------------

# Names are at most 24 characters, so the name payloads are the dangerous heads of the classics.
NAME_PAYLOADS = ["<script>alert(1)", '"><img src=x onerror=1>', "<b>bold</b>", "<svg/onload=1>"]
CHAT_PAYLOADS = [SCRIPT, IMG, "<b>bold</b> & <i>it</i>", "<svg/onload=alert(1)>"]


def assert_escaped(
    body: str, where: str, expect_escaped: bool = True, *, own_tags: bool = True
) -> None:
    """No payload comes back as markup. `own_tags`: the page is one of the app's (not the
    admin's, which has scripts and SVG icons of its own), so it has no <img>, <svg> or inline
    script at all, and only its two static scripts."""
    for marker in RAW_MARKERS:
        assert marker not in body, f"raw {marker!r} in {where}"
    for raw in ("<script", "<img", "<svg", "onerror=1>", "<b>bold") if own_tags else ():
        allowed = body.count(raw) if raw == "<script" else 0
        if raw == "<script":
            # The page's own two script tags (htmx and game.js) are the only ones.
            allowed = len(re.findall(r'<script src="/static/[^"]+" defer></script>', body))
        assert body.count(raw) == allowed, f"raw {raw!r} in {where}"
    if expect_escaped:
        assert "&lt;" in body, f"no escaped payload in {where}"


@pytest.mark.django_db
def test_names_and_chat_are_escaped_on_every_page_and_in_the_admin(
    django_user_model: Any,
) -> None:
    names = NAME_PAYLOADS[:3]
    table = create_lobby(names)
    for text in CHAT_PAYLOADS:
        services.chat_post(seat=table.seat(names[1]), text=text)
        FIGURES["escaping_payloads"] += 1
    clients = {n: client_for(table, n) for n in names}
    pages = 0

    def check_all(phase: str) -> None:
        nonlocal pages
        for name, client in clients.items():
            for path, extra in (
                (reverse("game", args=[table.code]), {}),
                (reverse("game", args=[table.code]), {"HTTP_HX_REQUEST": "true"}),
                (reverse("status", args=[table.code]), {}),
            ):
                response = client.get(path, **extra)
                assert response.status_code == 200, (phase, name, path)
                # The whole page holds the chat (and the names); the fragments hold names in
                # the lobby only (the seat list).
                escaped = (not extra and not path.endswith("status")) or phase == Phase.LOBBY
                assert_escaped(response.content.decode(), f"{phase} {path} as {name}", escaped)
                pages += 1

    check_all(Phase.LOBBY)
    anonymous = Client().get(reverse("join", args=[table.code]))
    assert_escaped(anonymous.content.decode(), "join page")
    Game.objects.filter(pk=table.game.pk).update(
        deck=["werewolf", "seer", "robber", "troublemaker", "villager", "drunk"]
    )
    services.game_start(host=table.seat(names[0]))
    check_all(Phase.NIGHT)
    for name in names:
        seat = table.seat(name)
        if seat.start_role == Role.DRUNK:
            services.night_action_submit(seat=seat, targets=["left"])
        else:
            services.night_action_submit(seat=seat, targets=[])
    services.chat_post(seat=table.seat(names[2]), text=SCRIPT + " in the day")
    check_all(Phase.DAY)
    services.day_end(host=table.seat(names[0]))
    check_all(Phase.VOTING)
    for i, name in enumerate(names):
        services.vote_cast(seat=table.seat(name), target_id=table.seats[names[(i + 1) % 3]].pk)
    check_all(Phase.REVEAL)

    # Refusals echo the input escaped too: a too-long script name, a hostile target.
    response = Client().post(
        reverse("game_new"),
        {"host_name": SCRIPT, "ruleset": "house", "day_minutes": 30, "rules_phrase": "default"},
    )
    assert response.status_code == 400
    assert_escaped(response.content.decode(), "create refusal", expect_escaped=True)
    night = deal_game(**THREE)
    response = client_for(night, "Ben").post(
        reverse("night_action", args=[night.code]), {"targets": IMG}
    )
    assert response.status_code == 400
    # A target is a seat id or a centre card: the refusal does not echo what was posted.
    assert_escaped(response.content.decode(), "action refusal", expect_escaped=False)

    staff = Client()
    staff.force_login(
        django_user_model.objects.create_user("mod", is_staff=True, is_superuser=True)
    )
    admin_pages = [
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_changelist") + "?q=" + SCRIPT,
        reverse("admin:games_game_changelist") + "?q=" + IMG,
        reverse("admin:games_game_change", args=[table.game.pk]),
        reverse("admin:games_game_change", args=[night.game.pk]),
        reverse("admin:games_game_change", args=[night.game.pk]) + "?show_secrets=1",
    ]
    for path in admin_pages:
        response = staff.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        payloads_here = f"/{table.game.pk}/" in path or "q=" in path  # the night game has none
        assert_escaped(body, f"admin {path}", expect_escaped=payloads_here, own_tags=False)
        pages += 1
    FIGURES["escaping_pages_checked"] += pages


@pytest.mark.django_db(transaction=True)
async def test_names_are_escaped_in_websocket_status_frames(sockets: SocketOpener) -> None:
    """The status fragment pushed over the socket lists the names (lobby): escaped there too.
    Chat frames carry the text as data (the page sets it with textContent, static/js/game.js)."""
    from channels.db import database_sync_to_async

    table = await database_sync_to_async(create_lobby)(NAME_PAYLOADS[:3])
    comm, _ = await sockets.seat(table, NAME_PAYLOADS[0])
    await database_sync_to_async(create_join)(table)
    while True:
        frame = await comm.receive_json_from(timeout=WAIT)
        if frame["type"] == "status":
            break
    assert_escaped(frame["html"], "status frame")
    assert "&lt;b&gt;bold&lt;/b&gt;" in frame["html"]


def create_join(table: Table) -> None:
    services.seat_join(game=table.game, name="Zed", rules_phrase=services.RULES_PHRASE)


# --- Figures ----------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def write_figures() -> Iterator[None]:
    yield
    if FIGURES:
        ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
        ARTIFACT.write_text(json.dumps(dict(sorted(FIGURES.items())), indent=2) + "\n")


def test_fuzzing_figures() -> None:
    """Runs last: prints the figures (see test-artifacts/security/fuzzing.json)."""
    print("\nFuzzing figures:", json.dumps(dict(sorted(FIGURES.items())), indent=2))
