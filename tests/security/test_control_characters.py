"""Every route and every form field, with a NUL or another control character in it.

Issue 25, hole 4: `GET /g/<code>/rejoin/abc%00def` answered 500 on PostgreSQL (its driver
refuses NUL in text) where SQLite answered 404. Now a path holding a control character gets a
plain 404 and a query string or form holding one a 400 with a message, before any view or the
database sees it (games/tables/middleware.RefuseControlCharacters), and nothing changes; the
rejoin view and the socket look up only codes and tokens of the right shape. The suite runs on
SQLite and, under `make test`, again on PostgreSQL (DATABASE_URL).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern

from games.tables import urls
from games.tables.consumers import CLOSE_NOT_SEATED
from games.tables.watching import watch_key
from tests.factories import THREE, TestTable, client_for, create_lobby, new_client, play_to
from tests.security.audit import (
    HTMX,
    LOBBY,
    SocketOpener,
    alerts,
    db_snapshot,
    expect_closed,
    receive_until,
    snapshot_diff,
)
from tests.security.test_headers import assert_protected

pytestmark = pytest.mark.django_db

HOSTILE = ["\x00", "abc\x00def", "\x01", "\x1b[31m", "\x7f", "\x85", "a\x0bb"]


@dataclass
class World:
    tables: dict[str, TestTable]

    def client(self, phase: str, who: str) -> Client:
        if who == "anonymous":
            return new_client()
        return client_for(self.tables[phase], {"host": "Ann", "player": "Ben"}[who])


@pytest.fixture
def world() -> World:
    tables = {LOBBY: create_lobby(["Ann", "Ben", "Cat"])}
    for phase in ("night", "day", "voting", "reveal"):
        tables[phase] = play_to(phase, THREE)
    return World(tables)


def _answer(
    client: Client, method: str, path: str, data: dict[str, Any] | None = None, **extra: Any
) -> Any:
    before = db_snapshot()
    response = getattr(client, method)(path, data or {}, **extra)
    assert response.status_code < 500, (method, path, data)
    assert not snapshot_diff(before, db_snapshot()), (method, path, data)
    # Issue 36, item 3: refused above the middleware that adds them, these answers went out
    # without the CSP and X-Frame-Options.
    assert_protected(response.headers, (method, path, data))
    return response


# --- Paths ------------------------------------------------------------------------------------


def _path(pattern: URLPattern, values: dict[str, str]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], str(pattern.pattern))


@pytest.mark.parametrize("value", HOSTILE)
def test_every_route_with_a_control_character_in_its_path_is_404(world: World, value: str) -> None:
    """Each argument of each table route (the code, a rejoin token, a seat id, a move's kind),
    in turn, holds the hostile value; asked by the host of a lobby, so that every other part
    of the path would have led somewhere."""
    table = world.tables[LOBBY]
    good = {
        "code": table.code,
        "token": table.seats["Ben"].token,
        "seat_id": str(table.seats["Cat"].pk),
        "kind": "ready",
        "key": watch_key(table.code),
    }
    host = world.client(LOBBY, "host")
    tried = 0
    for pattern in urls.urlpatterns:
        for arg in re.findall(r"<(?:\w+:)?(\w+)>", str(pattern.pattern)):
            path = _path(pattern, {**good, arg: quote(good[arg][:3] + value, safe="")})
            for method in ("get", "post"):
                response = _answer(host, method, path)
                assert response.status_code == 404, (method, path, response.status_code)
                assert "There is nothing at this address." in alerts(response)
                tried += 1
    assert tried >= 30


@pytest.mark.parametrize("value", HOSTILE)
def test_a_rejoin_link_with_a_control_character_is_not_found(world: World, value: str) -> None:
    """The probe's own request, from a browser with no seat."""
    table = world.tables["day"]
    path = f"/g/{table.code}/rejoin/{quote('abc' + value + 'def', safe='')}"
    response = _answer(new_client(), "get", path)
    assert response.status_code == 404
    assert "sessionid" not in response.cookies


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("value", HOSTILE)
async def test_the_socket_with_a_control_character_in_its_code_or_token_seats_nobody(
    sockets: SocketOpener, value: str
) -> None:
    """The socket's route takes the code as it comes: a code or a session token with a control
    character seats nobody (the socket is closed with 4403) and the database is never asked
    with it, even from a session that names it."""
    table = await database_sync_to_async(create_lobby)(["Ann", "Ben", "Cat"])
    before = await database_sync_to_async(db_snapshot)()
    bad_code = table.code[:3] + value
    cases = [
        (quote(bad_code, safe=""), {"seats": {bad_code: table.seats["Ben"].token}}),
        (table.code, {"seats": {table.code: table.seats["Ben"].token[:3] + value}}),
    ]
    for code, session in cases:
        comm = await sockets.open(code, session)
        await expect_closed(comm, CLOSE_NOT_SEATED)
    assert snapshot_diff(before, await database_sync_to_async(db_snapshot)()) == []


# --- Form fields and query strings -------------------------------------------------------------


@dataclass(frozen=True)
class Form:
    """A form as the page sends it: its path, the phase and seat that may send it, and valid
    fields (a form with none gets one the page does not have)."""

    label: str
    phase: str
    who: str
    path: Callable[[TestTable], str]
    fields: Callable[[TestTable], dict[str, str]]


FORMS = [
    Form(
        "table_new",
        LOBBY,
        "anonymous",
        lambda t: "/games/new",
        lambda t: {"host_name": "Zoe", "game": "onenight:house"},
    ),
    Form("join_by_code", LOBBY, "anonymous", lambda t: "/games/join", lambda t: {"code": t.code}),
    Form(
        "join",
        LOBBY,
        "anonymous",
        lambda t: f"/g/{t.code}/join",
        lambda t: {"name": "Zoe", "phrase": "x"},
    ),
    Form(
        "options",
        LOBBY,
        "host",
        lambda t: f"/g/{t.code}/options",
        lambda t: {"count_werewolf": "2", "count_seer": "1", "day_minutes": "30"},
    ),
    Form(
        "remove_seat",
        LOBBY,
        "host",
        lambda t: f"/g/{t.code}/remove/{t.seats['Cat'].pk}",
        lambda t: {"extra": "1"},
    ),
    Form("lock", LOBBY, "host", lambda t: f"/g/{t.code}/lock", lambda t: {"locked": "yes"}),
    Form("start", LOBBY, "host", lambda t: f"/g/{t.code}/start", lambda t: {"extra": "1"}),
    Form("cancel", LOBBY, "host", lambda t: f"/g/{t.code}/cancel", lambda t: {"extra": "1"}),
    Form(
        "action",
        "night",
        "player",
        lambda t: f"/g/{t.code}/do/action",
        lambda t: {"targets": "left,middle"},
    ),
    Form(
        "action",
        "night",
        "host",
        lambda t: f"/g/{t.code}/do/action",
        lambda t: {"no_action": "1"},
    ),
    Form("ready", "day", "player", lambda t: f"/g/{t.code}/do/ready", lambda t: {"ready": "yes"}),
    Form("end_day", "day", "host", lambda t: f"/g/{t.code}/do/end_day", lambda t: {"extra": "1"}),
    Form(
        "chat",
        "day",
        "player",
        lambda t: f"/g/{t.code}/chat",
        lambda t: {"channel": "public", "text": "hello"},
    ),
    Form(
        "vote",
        "voting",
        "player",
        lambda t: f"/g/{t.code}/do/vote",
        lambda t: {"target": str(t.seats["Cat"].pk)},
    ),
    Form("play_again", "reveal", "player", lambda t: f"/g/{t.code}/again", lambda t: {"x": "1"}),
]


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize("form", FORMS, ids=lambda f: f"{f.label}-{f.who}")
def test_every_form_field_with_a_control_character_is_a_form_error(
    world: World, form: Form, value: str
) -> None:
    """Each field in turn (and a field's name) holds the hostile value; everything else is
    what the page sends, from the seat that may send it, in its phase, as a plain form and
    as htmx sends it: refused with a message, nothing changed."""
    table = world.tables[form.phase]
    client = world.client(form.phase, form.who)
    path = form.path(table)
    fields = form.fields(table)
    for name in [*fields, None]:
        data = dict(fields)
        if name is None:
            data["x" + value] = "1"
        else:
            data[name] = data[name][:2] + value
        for extra in ({}, HTMX):
            response = _answer(client, "post", path, data, **extra)
            assert response.status_code == 400, (path, data, response.status_code)
            assert any("control character" in a for a in alerts(response)), alerts(response)


@pytest.mark.parametrize("value", HOSTILE)
def test_query_strings_with_a_control_character_are_refused(world: World, value: str) -> None:
    table = world.tables["day"]
    ben = world.client("day", "player")
    for path, query in (
        (f"/g/{table.code}/", {"phase": "day" + value}),
        (f"/g/{table.code}/panel", {"version": "1" + value}),
        (f"/g/{table.code}/join", {"x" + value: "1"}),
    ):
        response = _answer(ben, "get", path, query)
        assert response.status_code == 400, (path, response.status_code)
        assert any("control character" in a for a in alerts(response)), alerts(response)
    staff = new_client()
    staff.force_login(get_user_model().objects.create_superuser("helper"))
    response = _answer(staff, "get", "/admin/tables/table/", {"q": "Ann" + value})
    assert response.status_code == 400, response.status_code


def test_honest_forms_with_line_breaks_and_tabs_still_pass(world: World) -> None:
    """Tabs and line breaks are control characters a form may hold (the admin's text areas;
    a name typed with a tab is tidied, not refused; a chat line keeps its line break)."""
    table = world.tables[LOBBY]
    data = {"name": "Zoe\tLee", "phrase": "The Ocean\nChose Me"}
    response = new_client().post(f"/g/{table.code}/join", data)
    assert response.status_code == 302
    day = world.tables["day"]
    response = world.client("day", "player").post(
        f"/g/{day.code}/chat", {"channel": "public", "text": "two\nlines"}
    )
    assert response.status_code == 302


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("value", ["\x00", "a\x1bb"])
async def test_a_socket_frame_with_a_control_character_changes_nothing(
    sockets: SocketOpener, value: str
) -> None:
    """The socket takes no forms (they are POSTs, checked above): a frame that tries one with
    a control character is answered with an error; a chat line holding one is refused as the
    chat form's POST is (issue 39); either changes nothing, and the socket goes on."""
    table = await database_sync_to_async(play_to)("day", THREE)
    ben, _ = await sockets.seat(table, "Ben")
    frames = [
        {"type": "form", "path": f"/g/{table.code}/do/ready", "fields": {"ready": ["yes" + value]}},
        {"type": "chat", "text": "hello" + value},
        {"type": "sync" + value},
    ]
    for frame in frames:
        before = await database_sync_to_async(db_snapshot)()
        await ben.send_json_to(frame)
        reply, _ = await receive_until(ben, lambda f: f["type"] in ("error", "chat-refused"))
        assert reply["type"] == ("chat-refused" if frame["type"] == "chat" else "error")
        assert reply["message"]
        after = await database_sync_to_async(db_snapshot)()
        assert not snapshot_diff(before, after)
    await ben.send_json_to({"type": "ping"})
    pong, _ = await receive_until(ben, lambda f: f["type"] == "pong")
    assert pong == {"type": "pong"}
