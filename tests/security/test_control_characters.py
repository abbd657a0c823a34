"""Every route and every form field, with a NUL or another control character in it.

Issue 25, hole 4: `GET /g/<code>/rejoin/abc%00def` answered 500 on PostgreSQL (its driver
refuses NUL in text) where SQLite answered 404. Now a path holding a control character gets a
plain 404 and a query string or form holding one a 400 with a message, before any view or the
database sees it (games/middleware.RefuseControlCharacters), and nothing changes. The suite
runs on SQLite and, under `make test`, again on PostgreSQL (DATABASE_URL).
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

from games import urls
from games.models import Phase
from tests.factories import THREE, Table, client_for, create_lobby, play_to
from tests.realtime.helpers import SocketOpener, receive_until
from tests.security.audit import db_snapshot, snapshot_diff
from tests.web.helpers import alerts

pytestmark = pytest.mark.django_db

HOSTILE = ["\x00", "abc\x00def", "\x01", "\x1b[31m", "\x7f", "\x85", "a\x0bb"]


@dataclass
class World:
    tables: dict[str, Table]

    def client(self, phase: str, who: str) -> Client:
        if who == "anonymous":
            return Client()
        return client_for(self.tables[phase], {"host": "Ann", "player": "Ben"}[who])


@pytest.fixture
def world() -> World:
    tables = {Phase.LOBBY: create_lobby(["Ann", "Ben", "Cat"])}
    for phase in (Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL):
        tables[phase] = play_to(phase, THREE)
    return World(tables)


def _answer(client: Client, method: str, path: str, data: dict[str, Any] | None = None) -> Any:
    before = db_snapshot()
    response = getattr(client, method)(path, data or {})
    assert response.status_code < 500, (method, path, data)
    assert not snapshot_diff(before, db_snapshot()), (method, path, data)
    return response


# --- Paths ------------------------------------------------------------------------------------


def _path(pattern: URLPattern, values: dict[str, str]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], str(pattern.pattern))


@pytest.mark.parametrize("value", HOSTILE)
def test_every_route_with_a_control_character_in_its_path_is_404(world: World, value: str) -> None:
    """Each argument of each game route (the code, a rejoin token, a seat id), in turn,
    holds the hostile value; asked by the host of a lobby, so that every other part of the
    path would have led somewhere."""
    table = world.tables[Phase.LOBBY]
    good = {
        "code": table.code,
        "token": table.seats["Ben"].token,
        "seat_id": str(table.seats["Cat"].pk),
    }
    host = world.client(Phase.LOBBY, "host")
    tried = 0
    for pattern in urls.urlpatterns:
        for arg in re.findall(r"<(?:\w+:)?(\w+)>", str(pattern.pattern)):
            path = _path(pattern, {**good, arg: quote(good[arg][:3] + value, safe="")})
            for method in ("get", "post"):
                response = _answer(host, method, path)
                assert response.status_code == 404, (method, path, response.status_code)
                tried += 1
    assert tried >= 30


@pytest.mark.parametrize("value", HOSTILE)
def test_a_rejoin_link_with_a_control_character_is_not_found(world: World, value: str) -> None:
    """The probe's own request, from a browser with no seat."""
    table = world.tables[Phase.DAY]
    path = f"/g/{table.code}/rejoin/{quote('abc' + value + 'def', safe='')}"
    response = _answer(Client(), "get", path)
    assert response.status_code == 404
    assert "sessionid" not in response.cookies


@pytest.mark.parametrize("value", HOSTILE)
def test_the_websocket_path_with_a_control_character_seats_nobody(value: str) -> None:
    """The game socket's route takes the code as it comes: a code with a control character
    seats nobody, without the database being asked, even from a session that named it."""
    from games.consumers import _seat_from_session

    assert _seat_from_session({"seats": {}}, "AB" + value) is None
    assert _seat_from_session({"seats": {"AB" + value: "x" + value}}, "AB" + value) is None


# --- Form fields and query strings -------------------------------------------------------------


@dataclass(frozen=True)
class Form:
    """A form as the page sends it: its route, the phase and seat that may send it, and valid
    fields (a form with none gets one the page does not have)."""

    route: str
    phase: str
    who: str
    fields: Callable[[Table], dict[str, str]]


FORMS = [
    Form(
        "game_new",
        Phase.LOBBY,
        "anonymous",
        lambda t: {
            "host_name": "Zoe",
            "ruleset": "house",
            "day_minutes": "30",
            "night_minutes": "",
            "vote_minutes": "",
            "rules_phrase": "default",
        },
    ),
    Form("join_by_code", Phase.LOBBY, "anonymous", lambda t: {"code": t.code}),
    Form("join", Phase.LOBBY, "anonymous", lambda t: {"name": "Zoe", "rules_phrase": "x"}),
    Form("deck", Phase.LOBBY, "host", lambda t: {"count_werewolf": "2", "count_seer": "1"}),
    Form("remove_seat", Phase.LOBBY, "host", lambda t: {"extra": "1"}),
    Form("start", Phase.LOBBY, "host", lambda t: {"extra": "1"}),
    Form("cancel", Phase.LOBBY, "host", lambda t: {"extra": "1"}),
    Form("night_action", Phase.NIGHT, "player", lambda t: {"targets": "left,middle", "step": ""}),
    Form("night_action", Phase.NIGHT, "host", lambda t: {"no_action": "1"}),
    Form("ready", Phase.DAY, "player", lambda t: {"ready": "yes"}),
    Form("end_day", Phase.DAY, "host", lambda t: {"extra": "1"}),
    Form("vote", Phase.VOTING, "player", lambda t: {"target": str(t.seats["Cat"].pk)}),
    Form("play_again", Phase.REVEAL, "player", lambda t: {"extra": "1"}),
]


def _form_path(form: Form, table: Table) -> str:
    if form.route in ("game_new", "join_by_code"):
        return {"game_new": "/games/new", "join_by_code": "/games/join"}[form.route]
    if form.route == "remove_seat":
        return f"/g/{table.code}/remove/{table.seats['Cat'].pk}"
    pattern = next(p for p in urls.urlpatterns if p.name == form.route)
    return _path(pattern, {"code": table.code})


@pytest.mark.parametrize("value", HOSTILE)
@pytest.mark.parametrize("form", FORMS, ids=lambda f: f"{f.route}-{f.who}")
def test_every_form_field_with_a_control_character_is_a_form_error(
    world: World, form: Form, value: str
) -> None:
    """Each field in turn (and a field's name) holds the hostile value; everything else is
    what the page sends, from the seat that may send it, in its phase: refused with a
    message, nothing changed."""
    table = world.tables[form.phase]
    client = world.client(form.phase, form.who)
    path = _form_path(form, table)
    fields = form.fields(table)
    for name in [*fields, None]:
        data = dict(fields)
        if name is None:
            data["x" + value] = "1"
        else:
            data[name] = data[name][:2] + value
        response = _answer(client, "post", path, data)
        assert response.status_code == 400, (path, data, response.status_code)
        assert any("control character" in a for a in alerts(response)), alerts(response)


@pytest.mark.parametrize("value", HOSTILE)
def test_query_strings_with_a_control_character_are_refused(world: World, value: str) -> None:
    table = world.tables[Phase.DAY]
    ben = world.client(Phase.DAY, "player")
    for page in ("game", "status"):
        path = f"/g/{table.code}/" + ("" if page == "game" else "status")
        response = _answer(ben, "get", path, {"phase": "day" + value})
        assert response.status_code == 400, (path, response.status_code)
    staff = Client()
    staff.force_login(get_user_model().objects.create_superuser("helper"))
    response = _answer(staff, "get", "/admin/games/game/", {"q": "Ann" + value})
    assert response.status_code == 400, response.status_code


def test_honest_forms_with_line_breaks_and_tabs_still_pass(world: World) -> None:
    """Tabs and line breaks are control characters a form may hold (the admin's text areas;
    a name typed with a tab is tidied, not refused)."""
    table = world.tables[Phase.LOBBY]
    data = {"name": "Zoe\tLee", "rules_phrase": "The Ocean\nChose Me"}
    response = Client().post(f"/g/{table.code}/join", data)
    assert response.status_code == 302


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("value", ["\x00", "a\x1bb"])
async def test_a_form_over_the_socket_with_a_control_character_is_refused(
    sockets: SocketOpener, value: str
) -> None:
    """The same forms sent over the page's websocket are refused the same way, before any
    handler sees them (games/consumers.parse_socket_form)."""
    table = await database_sync_to_async(play_to)(Phase.DAY, THREE)
    ben, _ = await sockets.seat(table, "Ben")
    path = f"/g/{table.code}/ready"
    for fields in ({"ready": ["yes" + value]}, {"x" + value: ["1"]}):
        before = await database_sync_to_async(db_snapshot)()
        await ben.send_json_to({"type": "form", "path": path, "fields": fields})
        frame, _ = await receive_until(ben, lambda f: f["type"] in ("form-error", "status"))
        assert frame["type"] == "form-error" and "control character" in frame["message"]
        after = await database_sync_to_async(db_snapshot)()
        assert not snapshot_diff(before, after)
