"""Bad input: property-based fuzzing of every form and every websocket message, in every phase.

Every form (open a table, join by code, join, the host's options, remove, lock, start, cancel,
the night action and the Doppelganger's copy, ready, end of day, vote, an unknown move, the
chat, play again) and every page with a query string (the table page, the panel fragment, the
join page) gets wrong types, huge strings (up to ~100 KB), unicode (RTL override, zero-width,
emoji, full-width), HTML and script, template syntax, control characters, duplicates and posts
out of phase, from anonymous visitors, seated players and the host, as plain forms and as htmx
sends them. The websocket, which only pushes, gets every message type (sync, ping, unknown, the
forms and chat lines an older page sent over it), non-JSON, JSON arrays, nested values, empty
and binary frames and huge strings. The properties:

- never a 500 (an exception in a view fails the test: the test client re-raises it) and never a
  crashed socket;
- a refusal always carries a message a person can read, and changes nothing in the database;
- an accepted request changes only what it should (its own seat's action, vote, "ready", the
  host's options, one chat line of its own...), and a socket message changes nothing.

Each HTTP example runs inside a savepoint that is rolled back, so every example starts from the
same tables; the websocket examples run on their own tables and compare snapshots.

Escaping: names and chat lines holding script and HTML are shown escaped on every page,
fragment and websocket push, and in the admin (changelist, search, change pages), never raw.
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
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.families.onenight.engine import Role
from games.families.onenight.options import RULES_PHRASE
from games.tables import services
from games.tables.models import ChatLine, Move, Seat, Table
from tests import factories as f
from tests.factories import OFFICIAL_FIVE, THREE, TestTable, client_for, create_lobby, play_to
from tests.security.audit import (
    DAY,
    LOBBY,
    NIGHT,
    PHASES,
    REVEAL,
    VOTING,
    WAIT,
    SocketOpener,
    db_snapshot,
    message_of,
    new_session,
    plain,
    snapshot_diff,
    url,
)

ARTIFACT = Path(__file__).resolve().parents[2] / "test-artifacts" / "security" / "fuzzing.json"
FIGURES: Counter[str] = Counter()
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
# Raw markup that must never come back unescaped (the payloads' dangerous parts).
RAW_MARKERS = ("<script>alert", "<img src=x", "<b>bold</b>", "<svg/onload")
CHAT_PHASES = (LOBBY, DAY, REVEAL)  # rules/000 s5b: no talk in the night or the vote

HOSTILE = [
    SCRIPT,
    IMG,
    "<b>bold</b>",
    "<svg/onload=alert(1)>",
    "javascript:alert(1)",
    "{{ page.me.token }}",
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
    "onenight:house",
    "onenight:",
    ":house",
    "werewolf:house",
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
    tables: dict[str, TestTable]
    clients: dict[tuple[str, str], Client]

    def code(self, phase: str) -> str:
        return self.tables[phase].code


@pytest.fixture
def world(db: None, monkeypatch: pytest.MonkeyPatch) -> World:
    """A table in every phase (the night's is official rules, with Ann the Doppelganger), and
    an anonymous browser, Ben's and the host Ann's for each. The chat's rate limit is lifted,
    so that every accepted line is stored and checked."""
    monkeypatch.setattr(services.chat, "CHAT_BURST", 10**9)
    tables = {
        LOBBY: create_lobby(["Ann", "Ben", "Cat"]),
        NIGHT: f.deal_game("official", **OFFICIAL_FIVE),
    }
    for phase in PHASES[2:]:
        tables[phase] = play_to(phase, THREE, actions={"Ben": ["Ann"]})
    clients: dict[tuple[str, str], Client] = {}
    for phase, table in tables.items():
        clients[(phase, "anonymous")] = f.new_client()
        clients[(phase, "player")] = client_for(table, "Ben")
        clients[(phase, "host")] = client_for(table, "Ann")
    return World(tables=tables, clients=clients)


def refusal_or_change(
    response: HttpResponse,
    before: dict[str, Any],
    allowed: Callable[[list[str]], bool],
    label: str,
) -> list[str]:
    """The fuzzing properties for one answered request; returns what changed."""
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
    return diff


def only(*prefixes: str) -> Callable[[list[str]], bool]:
    return lambda diff: all(d.startswith(prefixes) for d in diff)


def _row(change: str) -> tuple[str, int, str]:
    """("move", 12, ".fields: ...") from "move 12.fields: ..."."""
    kind, _, rest = change.partition(" ")
    number = re.match(r"\d+", rest)
    assert number is not None, change
    return kind, int(number.group()), rest[number.end() :]


def own_move(table: TestTable, name: str, before_state: Any) -> Callable[[list[str]], bool]:
    """A move by seat `name` changed only its own part of the game: its action, vote or
    "ready", and what follows from it (the phase, the clock, the app's notes in the chat, the
    outcome at the reveal); the move row it adds is its own."""
    seat = table.seats[name]

    def allowed(diff: list[str]) -> bool:
        for change in diff:
            kind, pk, _ = _row(change)
            if kind == "table" and pk == table.table.pk:
                continue
            if kind == "move" and Move.objects.get(pk=pk).seat_id == seat.pk:
                continue
            if kind == "chat" and ChatLine.objects.get(pk=pk).note:
                continue
            return False
        after = Table.objects.get(pk=table.table.pk).state or {}
        before = before_state or {}
        for key in set(before) | set(after):
            old, new = before.get(key), after.get(key)
            if old == new or key in ("phase", "result"):
                continue
            if key == "actions":
                changed = {n for n in set(old) | set(new) if old.get(n) != new.get(n)}
                if changed - {name}:
                    return False
            elif key == "votes":
                changed = {v for v in set(old) | set(new) if old.get(v) != new.get(v)}
                if changed - {str(seat.pk)}:
                    return False
            elif key == "ready":
                if (set(old) ^ set(new)) - {seat.pk}:
                    return False
            else:
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
    game=st.one_of(st.sampled_from(["onenight:house", "onenight:official", "HOUSE", ""]), texts),
    extra=st.dictionaries(st.text(max_size=10), texts, max_size=3),
)
def test_fuzz_create_table(world: World, host_name: str, game: str, extra: dict[str, str]) -> None:
    data = {**extra, "host_name": host_name, "game": game}
    with rolled_back():
        before = db_snapshot()
        response = f.new_client().post(url("table_new"), data)
        refusal_or_change(response, before, only("table ", "seat "), "create")
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
        response = world.clients[(phase, who)].post(url("join_by_code"), {"code": code})
        refusal_or_change(response, before, lambda d: False, "join_by_code")


@FUZZ
@given(name=texts, phrase=texts, who=WHO, phase=PHASE, right_phrase=st.booleans())
def test_fuzz_join(
    world: World, name: str, phrase: str, who: str, phase: str, right_phrase: bool
) -> None:
    data = {"name": name, "phrase": RULES_PHRASE if right_phrase else phrase}
    table = world.tables[phase]
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = client.post(url("join", world.code(phase)), data)
        diff = refusal_or_change(
            response,
            before,
            only("seat ", "seat_taken ", f"table {table.table.pk}.version"),
            "join",
        )
        if diff:
            assert who == "anonymous" and phase == LOBBY
            seat = Seat.objects.order_by("-pk").first()
            assert seat is not None and seat.name.isprintable() and 0 < len(seat.name) <= 24


OPTION_FIELDS = [
    *(f"count_{r.value}" for r in Role),
    "day_minutes",
    "night_minutes",
    "vote_minutes",
    "rules_phrase",
    "suggested",
    "deck",
]


@FUZZ
@given(
    fields=st.dictionaries(
        st.one_of(st.sampled_from(OPTION_FIELDS), st.text(max_size=12)),
        st.one_of(st.integers(-3, 2000).map(str), st.sampled_from(["", "yes", "no"]), texts),
        max_size=8,
    ),
    who=SEATED,
    phase=mostly(LOBBY),
    htmx=HTMX,
)
def test_fuzz_options(
    world: World, fields: dict[str, str], who: str, phase: str, htmx: bool
) -> None:
    table = world.tables[phase]
    row = f"table {table.table.pk}."
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = post(client, url("options", table.code), fields, htmx)
        diff = refusal_or_change(
            response, before, only(row + "options", row + "version"), "options"
        )
        if diff:
            assert who == "host" and phase == LOBBY
            options = Table.objects.get(pk=table.table.pk).options
            assert set(options) == {
                "deck",
                "day_minutes",
                "night_minutes",
                "vote_minutes",
                "rules_phrase",
            }
            assert all(Role(r) for r in options["deck"])
            assert 1 <= options["day_minutes"] <= 24 * 60


@FUZZ
@given(
    seat=st.one_of(
        st.sampled_from(["Ann", "Ben", "Cat", "other"]),
        st.integers(min_value=0, max_value=10**40),
    ),
    who=SEATED,
    phase=mostly(LOBBY),
    htmx=HTMX,
)
def test_fuzz_remove(world: World, seat: str | int, who: str, phase: str, htmx: bool) -> None:
    table = world.tables[phase]
    if isinstance(seat, str):
        other = world.tables[DAY if phase == LOBBY else LOBBY]
        seat = (other if seat == "other" else table).seats["Cat" if seat == "other" else seat].pk
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = post(client, f"/g/{table.code}/remove/{seat}", {}, htmx)
        diff = refusal_or_change(
            response, before, only("seat ", f"table {table.table.pk}.version"), "remove"
        )
        if diff:
            assert who == "host" and phase == LOBBY
            assert seat in (table.seats["Ben"].pk, table.seats["Cat"].pk)


ANY_DATA = st.dictionaries(st.text(max_size=10), texts, max_size=4)


@FUZZ
@given(
    route=st.sampled_from(
        ["lock", "start", "cancel", "end_day", "ready", "play_again", "fly", "copy"]
    ),
    data=ANY_DATA,
    ready=st.one_of(st.none(), texts),
    who=WHO,
    phase=PHASE,
    htmx=HTMX,
)
def test_fuzz_host_and_day_forms(
    world: World,
    route: str,
    data: dict[str, str],
    ready: str | None,
    who: str,
    phase: str,
    htmx: bool,
) -> None:
    """lock, start, cancel, end of day, ready, play again, an unknown move and a copy with no
    target: the data is ignored or checked; who may and in which phase is the services' and
    the family's call."""
    if ready is not None:
        data = {**data, "ready": ready, "locked": ready}
    table = world.tables[phase]
    paths = {
        "lock": url("lock", table.code),
        "start": url("start", table.code),
        "cancel": url("cancel", table.code),
        "play_again": url("play_again", table.code),
    }
    path = paths.get(route) or url("move", table.code, route)
    allowed_by = {
        "lock": (("host",), (LOBBY,)),
        "start": (("host",), (LOBBY,)),
        "cancel": (("host",), (LOBBY, NIGHT, DAY, VOTING)),
        "end_day": (("host",), (DAY,)),
        "ready": (("host", "player"), (DAY,)),
        "play_again": (("host", "player"), (REVEAL,)),
        "fly": ((), ()),
        "copy": ((), ()),
    }
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = post(client, path, data, htmx)
        diff = refusal_or_change(response, before, lambda d: True, route)
        if diff:
            whom, phases = allowed_by[route]
            assert who in whom and phase in phases, (route, who, phase, diff)


# "#Ann" stands for Ann's seat id, as the page's form posts it (mapped in the test).
target_values = st.one_of(
    st.sampled_from(["#Ann", "#Ben", "#Cat", "#Dan", "#Eve", "#Zed", "left", "middle", "right"]),
    st.sampled_from(["Ann", "Ben", "Cat", "Dan", "Eve"]),
    st.sampled_from(["left,middle", "Ben,Cat", ",", "left,,right", "Ann,Ann", "left,left"]),
    texts,
)


@FUZZ
@given(
    targets=st.lists(target_values, max_size=5),
    kind=st.sampled_from(["action", "action", "copy"]),
    no_action=st.booleans(),
    first=st.one_of(st.none(), st.sampled_from(["#Ben", "#Cat", "#Dan", "#Eve", "#Ann", "left"])),
    who=SEATED,
    phase=mostly(NIGHT),
    htmx=HTMX,
)
def test_fuzz_night_action(
    world: World,
    targets: list[str],
    kind: str,
    no_action: bool,
    first: str | None,
    who: str,
    phase: str,
    htmx: bool,
) -> None:
    """Night actions, the Doppelganger's copy (Ann holds it at night), duplicates and every
    other phase. `first`: a copy sent before the fuzzed post (so the second step and a second
    copy are fuzzed too)."""
    table = world.tables[phase]

    def posted(value: str) -> str:
        name = value.removeprefix("#")
        return str(table.seats[name].pk) if value != name and name in table.seats else value

    data: dict[str, Any] = {"targets": [posted(t) for t in targets]}
    if no_action:
        data["no_action"] = "1"
    client = world.clients[(phase, who)]
    path = url("move", table.code, kind)
    name = "Ann" if who == "host" else "Ben"
    with rolled_back():
        if first is not None and who == "host" and phase == NIGHT:
            client.post(url("move", table.code, "copy"), {"targets": posted(first)})
        before = db_snapshot()
        state = Table.objects.get(pk=table.table.pk).state
        response = post(client, path, data, htmx)
        diff = refusal_or_change(response, before, own_move(table, name, state), "action")
        if diff:
            assert who != "anonymous" and phase == NIGHT
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
    phase=mostly(VOTING),
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
        target = str(world.tables[LOBBY].seats["Cat"].pk)
    client = world.clients[(phase, who)]
    path = url("move", table.code, "vote")
    name = "Ann" if who == "host" else "Ben"
    with rolled_back():
        if again:  # a first vote, so the fuzzed one is a duplicate
            client.post(path, {"target": table.seats["Cat"].pk})
        before = db_snapshot()
        state = Table.objects.get(pk=table.table.pk).state
        response = post(client, path, {"target": target}, htmx)
        diff = refusal_or_change(response, before, own_move(table, name, state), "vote")
        if diff:
            assert who != "anonymous" and phase == VOTING


@FUZZ
@given(
    text=st.one_of(texts, st.just("a fine line")),
    channel=st.one_of(st.just("public"), st.just("public"), texts),
    extra=st.dictionaries(st.sampled_from(["seat_id", "name", "note", "author"]), texts),
    who=SEATED,
    phase=mostly(DAY),
    htmx=HTMX,
)
def test_fuzz_chat(
    world: World, text: str, channel: str, extra: dict[str, str], who: str, phase: str, htmx: bool
) -> None:
    """A chat line (what a page's chat box posts): refused, or one line of the sender's own,
    holding the cleaned text, in a phase whose chat is open, never a note."""
    table = world.tables[phase]
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        data = {**extra, "channel": channel, "text": text}
        response = post(client, url("chat", table.code), data, htmx)
        diff = refusal_or_change(response, before, only("chat "), "chat")
        if diff:
            assert len(diff) == 1 and who != "anonymous" and phase in CHAT_PHASES
            line = ChatLine.objects.latest("pk")
            assert line.seat_id == table.seats["Ann" if who == "host" else "Ben"].pk
            assert line.author == line.seat.name and not line.note
            assert line.channel == "public" == channel
            assert line.text == services.clean_chat_text(text)
            FIGURES["chat_lines_accepted"] += 1


@FUZZ
@given(
    params=st.dictionaries(
        st.one_of(st.sampled_from(["version", "phase", "after"]), st.text(max_size=8)),
        texts,
        max_size=3,
    ),
    who=WHO,
    phase=PHASE,
    htmx=HTMX,
    page=st.sampled_from(["table", "panel", "join"]),
)
def test_fuzz_get_pages(
    world: World, params: dict[str, str], who: str, phase: str, htmx: bool, page: str
) -> None:
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    with rolled_back():
        before = db_snapshot()
        client = world.clients[(phase, who)]
        response = client.get(url(page, world.code(phase)), params, **extra)
        refusal_or_change(response, before, lambda d: False, page)


def test_out_of_phase_and_duplicate_submissions(world: World) -> None:
    """Deterministic companions of the fuzzing: each valid post, sent twice or too late."""
    night = world.tables[NIGHT]
    ann = world.clients[(NIGHT, "host")]
    ben = world.clients[(NIGHT, "player")]
    action = url("move", night.code, "action")
    copy = url("move", night.code, "copy")
    with rolled_back():
        assert ann.post(copy, {"targets": f.form_targets(night, "Ben")}).status_code == 302
        before = db_snapshot()
        response = ann.post(copy, {"targets": f.form_targets(night, "Cat")})
        refusal_or_change(response, before, lambda d: False, "second copy")
        assert response.status_code == 400
        assert "already chose whom to copy" in message_of(response)
        assert ann.post(action, {"targets": "left,middle"}).status_code == 302
        for data in ({"targets": "left,right"}, {"no_action": "1"}):
            before = db_snapshot()
            response = ann.post(action, data)
            refusal_or_change(response, before, lambda d: False, "second action")
            assert "already sent your night action" in message_of(response)
        assert ben.post(action, {"targets": f.form_targets(night, "Cat")}).status_code == 302
        before = db_snapshot()
        response = ben.post(action, {"targets": f.form_targets(night, "Dan")})
        refusal_or_change(response, before, lambda d: False, "second seer action")
        assert response.status_code == 400
    voting = world.tables[VOTING]
    ben = world.clients[(VOTING, "player")]
    with rolled_back():
        vote = url("move", voting.code, "vote")
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
    st.sampled_from(
        ["sync", "ping", "pong", "hello", "panel", "chat", "form", "status", "error", "SYNC", ""]
    ),
    texts,
    json_values,
)
ws_objects = st.builds(
    lambda kind, after, version, extra: {"type": kind, "after": after, "version": version, **extra},
    message_types,
    json_values,
    json_values,
    st.dictionaries(st.text(max_size=6), json_values, max_size=2),
)
# The forms and chat lines an older page sent over its socket ("%CODE%" is replaced by the
# table's code when sent): the socket takes neither now.
old_page_frames = st.one_of(
    st.builds(lambda t: json.dumps({"type": "chat", "text": t}), st.one_of(texts, json_values)),
    st.builds(
        lambda path, fields: json.dumps({"type": "form", "path": path, "fields": fields}),
        st.one_of(
            st.sampled_from(
                [
                    "/g/%CODE%/do/action",
                    "/g/%CODE%/do/ready",
                    "/g/%CODE%/do/vote",
                    "/g/%CODE%/start",
                    "/g/%CODE%/options",
                    "/g/%CODE%/chat",
                    "/g/%CODE%/cancel",
                ]
            ),
            texts,
        ),
        st.one_of(st.dictionaries(st.text(max_size=8), json_values, max_size=3), json_values),
    ),
)
ws_frames = st.one_of(
    st.builds(
        lambda a, v: json.dumps({"type": "sync", "after": a, "version": v}),
        json_values,
        json_values,
    ),
    st.builds(lambda e: json.dumps({**e, "type": "ping"}), st.dictionaries(texts, json_values)),
    ws_objects.map(json.dumps),
    json_values.map(json.dumps),
    old_page_frames,
    st.sampled_from(["{not json", "[1, 2]", '"sync"', "null", "{}", "[]", "0", "1e999", "NaN"]),
    st.text(min_size=1, max_size=50),
    st.integers(min_value=1, max_value=60).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=1, max_value=60).map(lambda n: '{"a":' * n + "1" + "}" * n),
    huge.map(lambda s: json.dumps({"type": "sync", "after": s})),
)
# Frames every run sends in every phase, whatever hypothesis draws.
EDGE_FRAMES: list[str | bytes] = [
    json.dumps({"type": "chat", "text": "x" * 100_000}),
    json.dumps({"type": "chat", "text": SCRIPT}),
    json.dumps({"type": "form", "path": "/g/%CODE%/do/ready", "fields": {"ready": ["yes"]}}),
    json.dumps({"type": "sync", "after": 10**30, "version": 10**30}),
    json.dumps({"type": "sync", "after": -1, "version": -1}),
    json.dumps({"type": "sync", "after": True, "version": False}),
    json.dumps({"type": "sync", "after": 1.5, "version": "3"}),
    json.dumps({"type": "sync"}),
    json.dumps({"type": "ping", "extra": "x" * 100_000}),
    json.dumps({"type": "nonsense"}),
    json.dumps([{"type": "sync", "after": 0}]),
    "[" * 500 + "]" * 500,
    "[" * 100_000,
    "{not json",
    "\x00",
    "",
    b"\x00\x01binary",
]


def _frame_type(frame: str | bytes) -> object:
    if not isinstance(frame, str):
        return None
    try:
        content = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    return content.get("type") if isinstance(content, dict) else None


def _expected_pongs(frame: str | bytes) -> int:
    """How many pongs a frame itself earns (a ping earns one)."""
    return int(_frame_type(frame) == "ping")


def _is_chat_line(frame: str | bytes) -> bool:
    """A chat line (issue 39): answered "chat-sent" or "chat-refused", maybe after the pong
    (the line is written beside the socket's other work)."""
    return _frame_type(frame) == "chat"


async def _one_message(session: str, code: str, frame: str | bytes) -> list[dict[str, Any]]:
    """Connect as the seat, send one frame, then a ping; return every frame up to the ping's
    pong (the socket answered the ping afterwards: it did not crash)."""
    opener = SocketOpener()
    try:
        comm = opener.communicator(code, cookie=f"sessionid={session}")
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected
        hello = await comm.receive_json_from(timeout=WAIT)
        assert hello["type"] == "hello"
        if isinstance(frame, bytes):
            await comm.send_to(bytes_data=frame)
        else:
            await comm.send_input({"type": "websocket.receive", "text": frame})
        await comm.send_json_to({"type": "ping"})
        pongs = _expected_pongs(frame) + 1
        answers = int(_is_chat_line(frame))
        replies: list[dict[str, Any]] = []
        while pongs or answers:
            reply = await comm.receive_json_from(timeout=WAIT)
            replies.append(reply)
            pongs -= reply["type"] == "pong"
            answers -= reply["type"] in ("chat-sent", "chat-refused")
        return replies
    finally:
        await opener.close_all()


@dataclass
class SocketWorld:
    sessions: dict[str, str]  # phase -> sessionid of Ben's seat
    tables: dict[str, TestTable]


@pytest.fixture
def socket_world(transactional_db: None) -> SocketWorld:
    """Ben's seat at a table in every phase, with a session each."""
    tables = {LOBBY: create_lobby(["Ann", "Ben", "Cat"])}
    for phase in PHASES[1:]:
        tables[phase] = play_to(phase, THREE, actions={"Ben": ["Ann"]})
    sessions = {
        p: new_session({"seats": {t.code: t.seats["Ben"].token}}) for p, t in tables.items()
    }
    return SocketWorld(sessions=sessions, tables=tables)


def check_one_frame(world: SocketWorld, frame: str | bytes, phase: str) -> None:
    """Send one frame as Ben in `phase`: an answer, no crash, no change (but a chat line
    taken: one line, Ben's, with what the answer says); a hello is the seat's own."""
    channel_layers.backends.clear()  # a new event loop per frame: a fresh channel layer
    table = world.tables[phase]
    if isinstance(frame, str):
        frame = frame.replace("%CODE%", table.code)
    before = db_snapshot()
    replies = async_to_sync(_one_message)(world.sessions[phase], table.code, frame)
    after = db_snapshot()
    FIGURES["ws_inputs"] += 1
    FIGURES["ws_bytes"] += len(frame)
    changes = snapshot_diff(before, after)
    taken = [r["line"] for r in replies if r["type"] == "chat-sent"]
    if taken:
        [line] = taken
        stored = ChatLine.objects.get(pk=line["id"])
        assert (stored.seat_id, stored.author, stored.text) == (
            table.seats["Ben"].pk,
            "Ben",
            line["text"],
        )
        assert changes == [c for c in changes if c.startswith(f"chat {line['id']} created")]
        assert len(changes) == 1, changes
        stored.delete()  # the next frame's world as it was
    else:
        assert not changes, (frame[:200], replies, changes)
    for reply in replies:
        FIGURES[f"ws_reply_{reply['type']}"] += 1
        assert reply["type"] in ("error", "hello", "pong", "chat", "chat-sent", "chat-refused"), (
            reply
        )
        if reply["type"] == "chat-refused":
            assert isinstance(reply["message"], str) and reply["message"].strip()
        if reply["type"] == "error":
            assert isinstance(reply["message"], str) and reply["message"].strip()
        if reply["type"] == "hello":
            assert reply["version"] == Table.objects.get(pk=table.table.pk).version
            for markup in [reply.get("panel", "")] + [c["html"] for c in reply["channel_state"]]:
                assert_escaped(markup, f"hello after {frame[:80]!r}", expect_escaped=False)
    if isinstance(frame, bytes) or not frame.strip():
        assert replies[0]["type"] == "error"


# Every websocket fuzzer: 200 frames, each against the shared world of SocketWorld.
SOCKET_FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)


@SOCKET_FUZZ
@given(frame=old_page_frames, phase=PHASE)
def test_fuzz_forms_and_chat_over_the_socket(
    socket_world: SocketWorld, frame: str, phase: str
) -> None:
    """What an older page sent over its socket: a form refused with an error, nothing
    changed; a chat line refused with why, or taken as Ben's own (issue 39)."""
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
    table = await database_sync_to_async(create_lobby)(["Ann", "Ben", "Cat"])
    ben, _ = await sockets.seat(table, "Ben")
    await ben.send_to(text_data="[" * 100_000)
    reply = await ben.receive_json_from(timeout=WAIT)
    assert reply == {"type": "error", "message": "Unknown message."}


@pytest.mark.django_db(transaction=True)
async def test_an_empty_or_binary_frame_gets_an_error_not_a_crash(sockets: SocketOpener) -> None:
    table = await database_sync_to_async(create_lobby)(["Ann", "Ben", "Cat"])
    ben, _ = await sockets.seat(table, "Ben")
    await ben.send_input({"type": "websocket.receive", "text": ""})
    reply = await ben.receive_json_from(timeout=WAIT)
    assert reply["type"] == "error"
    await ben.send_to(bytes_data=b"\x00\x01")
    reply = await ben.receive_json_from(timeout=WAIT)
    assert reply["type"] == "error"
    await ben.send_json_to({"type": "ping"})
    assert await ben.receive_json_from(timeout=WAIT) == {"type": "pong"}


# --- Escaping ---------------------------------------------------------------------------------

# Names are at most 24 characters, so the name payloads are the dangerous heads of the classics.
NAME_PAYLOADS = ["<script>alert(1)", '"><img src=x onerror=1>', "<b>bold</b>", "<svg/onload=1>"]
CHAT_PAYLOADS = [SCRIPT, IMG, "<b>bold</b> & <i>it</i>", "<svg/onload=alert(1)>"]
# The opening tag of a role's or team's icon, as the art template tags draw it.
ICON_TAG = (
    r'<svg class="icon (?:role|team)-icon" data-icon="[a-z_]+" viewBox="0 0 512 512" '
    r'aria-hidden="true" focusable="false">'
)


def assert_escaped(
    body: str, where: str, expect_escaped: bool = True, *, own_tags: bool = True
) -> None:
    """No payload comes back as markup. `own_tags`: the page is one of the app's (not the
    admin's, which has scripts and SVG icons of its own), so it has no <img>, <svg> or inline
    script at all, only its two static scripts and, in the lobby, the invite's QR code."""
    for marker in RAW_MARKERS:
        assert marker not in body, f"raw {marker!r} in {where}"
    for raw in ("<script", "<img", "<svg", "onerror=1>", "<b>bold") if own_tags else ():
        allowed = 0
        if raw == "<script":
            # The page's own two script tags (htmx and table.js) are the only ones.
            allowed = len(re.findall(r'<script src="/static/[^"]+" defer></script>', body))
        elif raw == "<svg":
            # The lobby's QR code of the invite link (games/tables/templatetags/invite.py),
            # and the role and team icons (games/art/templatetags/art.py: vendored files).
            allowed = len(re.findall(r'<svg width="\d+" height="\d+" class="segno">', body))
            allowed += len(re.findall(ICON_TAG, body))
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
                (url("table", table.code), {}),
                (url("table", table.code), {"HTTP_HX_REQUEST": "true"}),
                (url("panel", table.code), {}),
            ):
                response = client.get(path, **extra)
                assert response.status_code == 200, (phase, name, path)
                # The whole page holds the chat (and the names); the panel holds names in the
                # lobby (the seat list), at the vote (the ring) and at the reveal.
                escaped = not extra and path == url("table", table.code)
                escaped = escaped or phase in (LOBBY, VOTING, REVEAL)
                assert_escaped(response.content.decode(), f"{phase} {path} as {name}", escaped)
                pages += 1

    check_all(LOBBY)
    anonymous = f.new_client().get(url("join", table.code))
    assert_escaped(anonymous.content.decode(), "join page")
    services.table_start(host=table.seat(names[0]))
    check_all(NIGHT)
    f.play_night(table)
    services.chat_post(seat=table.seat(names[2]), text=SCRIPT + " in the day")
    check_all(DAY)
    f.end_day(table)
    check_all(VOTING)
    f.cast_votes(table, f.ring_votes(table))
    check_all(REVEAL)

    # Refusals echo the input escaped too: a script name, a hostile target, a refused line.
    response = f.new_client().post(url("table_new"), {"host_name": SCRIPT, "game": "onenight:x"})
    assert response.status_code == 400
    assert_escaped(response.content.decode(), "create refusal", expect_escaped=True)
    night = f.deal_game(**THREE)
    ben = client_for(night, "Ben")
    response = ben.post(url("move", night.code, "action"), {"targets": IMG})
    assert response.status_code == 400
    # A target is a seat id or a centre card: the refusal does not echo what was posted.
    assert_escaped(response.content.decode(), "action refusal", expect_escaped=False)
    response = ben.post(
        url("chat", night.code), {"channel": "public", "text": SCRIPT}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409
    assert_escaped(response.content.decode(), "chat refusal", expect_escaped=True)

    staff = f.new_client()
    staff.force_login(
        django_user_model.objects.create_user("mod", is_staff=True, is_superuser=True)
    )
    admin_pages = [
        url("admin:tables_table_changelist"),
        url("admin:tables_table_changelist") + "?q=" + SCRIPT,
        url("admin:tables_table_changelist") + "?q=" + IMG,
        url("admin:tables_table_change", table.table.pk),
        url("admin:tables_table_change", night.table.pk),
        url("admin:tables_table_change", night.table.pk) + "?show_secrets=1",
    ]
    for path in admin_pages:
        response = staff.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        payloads_here = f"/{table.table.pk}/" in path or "q=" in path  # the night's has none
        assert_escaped(body, f"admin {path}", expect_escaped=payloads_here, own_tags=False)
        pages += 1
    FIGURES["escaping_pages_checked"] += pages


@pytest.mark.django_db(transaction=True)
async def test_names_and_chat_are_escaped_in_websocket_pushes(sockets: SocketOpener) -> None:
    """The panel pushed over the socket lists the names (lobby): escaped there too. Chat
    frames carry the text as data (the page sets it with textContent, static/js/table.js)."""
    table = await database_sync_to_async(create_lobby)(NAME_PAYLOADS[:3])
    comm, hello = await sockets.seat(table, NAME_PAYLOADS[0])
    assert_escaped(hello["panel"], "hello frame")
    await database_sync_to_async(services.seat_join)(
        table=table.table, name=NAME_PAYLOADS[3], phrase=RULES_PHRASE
    )
    while True:
        frame = await comm.receive_json_from(timeout=WAIT)
        if frame["type"] == "panel":
            break
    assert_escaped(frame["panel"], "panel frame")
    assert "&lt;b&gt;bold&lt;/b&gt;" in frame["panel"] and "&lt;svg/onload=1&gt;" in frame["panel"]
    author = await database_sync_to_async(table.seat)(NAME_PAYLOADS[1])
    await database_sync_to_async(services.chat_post)(seat=author, text=SCRIPT)
    while True:
        frame = await comm.receive_json_from(timeout=WAIT)
        if frame["type"] == "chat":
            break
    assert frame["text"] == SCRIPT and frame["name"] == NAME_PAYLOADS[1] and not frame["note"]


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
