"""The table core with no real game: the toy family of tests/tables/fake_family.py (rock, paper,
scissors), registered for these tests only, played through the services, the pages and the
socket. What is checked is the core's part: the lobby and its options, the start and its
refusals, moves accepted and refused (nothing changed), the deadline fired once, what each seat
sees (nothing of another's), the chat's channels, the outcome and "play again".

Also: each registered family fills in the interface, and a family that does not is refused.
"""

from __future__ import annotations

import html
import random
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.tables import services
from games.tables.family import (
    Change,
    Family,
    Panel,
    SeatInfo,
    TableInfo,
    families,
    family_named,
    family_problems,
    register,
)
from games.tables.models import ChatLine, Seat, Table
from games.tables.reads import table_info
from games.tables.selectors import table_page
from tests.factories import TestTable, client_for, new_client, table_state
from tests.realtime.helpers import WAIT, SocketOpener, is_panel, receive_until
from tests.tables.fake_family import NAME, RockPaperScissors, playable

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TRIO = ("Ann", "Ben", "Cat")


@pytest.fixture(autouse=True)
def rps() -> Iterator[RockPaperScissors]:
    with playable() as family:
        yield family


def lobby(names: tuple[str, ...] = TRIO, minutes: int | None = None) -> TestTable:
    """A lobby of the toy game: the first name hosts."""
    host = services.table_create(family=NAME, ruleset="classic", host_name=names[0])
    seats = {names[0]: host}
    for name in names[1:]:
        seats[name] = services.seat_join(table=host.table, name=name)
    if minutes is not None:
        services.options_set(host=host, fields={"minutes": [str(minutes)]})
    return TestTable(Table.objects.get(pk=host.table_id), seats)


def started(names: tuple[str, ...] = TRIO, minutes: int | None = None) -> TestTable:
    table = lobby(names, minutes)
    services.table_start(host=table.seat(names[0]), now=timezone.now())
    return table


def throw(table: TestTable, name: str, sign: str, now: datetime | None = None) -> Table:
    return services.seat_move(seat=table.seat(name), kind="throw", fields={"sign": [sign]}, now=now)


def seen_by(table: TestTable, name: str | None) -> str:
    """What the panel of `name` (None: a watcher) holds for the page to draw: its context (the
    signs offered to everyone left out) and its progress line."""
    me = table.seat(name) if name is not None else None
    panel = table_page(table.refresh(), me).panel
    context = {k: v for k, v in (panel.context["rps"] or {}).items() if k != "signs"}
    return f"{panel.template} {context!r} {panel.progress}"


# --- The interface --------------------------------------------------------------------------------


def test_every_registered_family_fills_in_the_interface() -> None:
    names = {family.name for family in families()}
    assert {"onenight", "werewolf", NAME} <= names
    for family in families():
        assert family_problems(family) == [], family.name


def test_a_family_that_does_not_fill_in_the_interface_is_refused() -> None:
    class NoMoves(Family):
        name = "no_moves"
        title = "No moves"
        rulesets = {"one": "One"}

        def seat_limits(self, ruleset: str) -> tuple[int, int]:
            return 1, 2

        def rules_path(self, ruleset: str) -> str:
            return "/"

        def start(self, table: TableInfo, rng: random.Random, now: datetime) -> Change:
            return Change(state=None, phase="p", phase_label="P")

        def panel(self, table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
            return Panel("x.html")

    with pytest.raises(TypeError, match="move"):
        NoMoves()  # type: ignore[abstract]

    class OddMoves(NoMoves):
        def move(self, table: Any, seat: Any, kind: Any, now: Any) -> Change:  # type: ignore[override]
            raise NotImplementedError

    with pytest.raises(TypeError, match=r"OddMoves\.move\(self, table, seat, kind, now\)"):
        register(OddMoves())

    class Nameless(RockPaperScissors):
        name = ""
        players_have_screens = False  # type: ignore[assignment]

    problems = family_problems(Nameless())
    assert problems == ["Nameless.name is missing", "Nameless.players_have_screens is not a method"]
    with pytest.raises(TypeError, match="another family is called 'rps'"):
        register(RockPaperScissors())
    with pytest.raises(KeyError):
        family_named("no_moves")


def test_the_defaults_of_a_small_game() -> None:
    """What the toy game leaves to the base class: no phrase to join, every seat with a screen,
    no end taken back, the seat limits as the start's problem, a cancel that reveals nothing."""
    table = lobby(("Ann",))
    with pytest.raises(services.ServiceError, match="This game needs at least 2 players"):
        services.table_start(host=table.seat("Ann"))
    assert table_page(table.refresh(), table.seat("Ann")).seat_limits == (2, 5)
    assert services.players_have_screens(table.table)
    family, info = family_named(NAME), table_info(table.table)
    assert not family.takes_back_end(info, "throw")
    assert family.join_phrase(info) is None
    assert family.cancel(info, timezone.now()).state is None


# --- Through the services -------------------------------------------------------------------------


def test_a_whole_game_through_the_services() -> None:
    table = lobby()
    host = table.seat("Ann")
    with pytest.raises(services.ServiceError, match="1 to 60 minutes"):
        services.options_set(host=host, fields={"minutes": ["600"]})
    with pytest.raises(services.NotAllowedError):
        services.options_set(host=table.seat("Ben"), fields={"minutes": ["5"]})
    with pytest.raises(services.ServiceError, match="has a meaning in this game"):
        services.seat_join(table=table.table, name="rock")  # the game's reserved names
    with pytest.raises(services.WrongStageError):
        throw(table, "Ann", "rock")
    services.table_start(host=host, fields={"minutes": [""]})
    assert table.refresh().stage == "playing" and table.table.phase_label == "Round 1"
    assert table.table.deadline is None  # no limit chosen

    # Refused moves change nothing.
    before = table_state(table.table.pk)
    for kind, fields, error in (
        ("throw", {"sign": ["lizard"]}, services.ServiceError),
        ("throw", {}, services.ServiceError),
        ("shout", {"sign": ["rock"]}, services.WrongStageError),
    ):
        with pytest.raises(error):
            services.seat_move(seat=table.seat("Ben"), kind=kind, fields=fields)
    assert table_state(table.table.pk) == before

    version = table.refresh().version
    throw(table, "Ann", "rock")
    with pytest.raises(services.WrongStageError, match="thrown already"):
        throw(table, "Ann", "paper")
    assert table.refresh().version == version + 1
    throw(table, "Ben", "rock")
    throw(table, "Cat", "rock")  # one sign only: a draw, round 2
    assert table.refresh().phase_label == "Round 2" and table.table.round == 2
    throw(table, "Ann", "paper")
    throw(table, "Ben", "rock")
    throw(table, "Cat", "paper")
    table.refresh()
    assert (table.table.stage, table.table.phase) == ("over", "over")
    assert table.table.finished_at is not None
    alive = dict(Seat.objects.filter(table=table.table).values_list("name", "alive"))
    assert alive == {"Ann": True, "Ben": False, "Cat": True}
    notes = list(
        ChatLine.objects.filter(table=table.table, note=True).values_list("text", flat=True)
    )
    assert notes == [
        "Round 1: throw!",
        "Round 1: Ann rock, Ben rock, Cat rock. A draw: throw again.",
        "Round 2: Ann paper, Ben rock, Cat paper. Ann, Cat won.",
    ]
    assert "The winners: Ann, Cat." in panel_html(table, "Ben")
    with pytest.raises(services.WrongStageError):
        throw(table, "Ann", "rock")

    # Play again: the same players and options at a new table, everyone to the same one.
    again = services.play_again(seat=table.seat("Cat"))
    assert services.play_again(seat=table.seat("Ben")).table_id == again.table_id
    follow = Table.objects.get(pk=again.table_id)
    assert (follow.family, follow.stage, follow.previous_id) == (NAME, "lobby", table.table.pk)
    names = list(follow.seats.order_by("position").values_list("name", "is_host"))
    assert names == [("Ann", True), ("Ben", False), ("Cat", False)]


def test_the_deadline_puts_out_who_has_not_thrown_once() -> None:
    table = started(minutes=2)
    deadline = table.refresh().deadline
    assert deadline is not None
    throw(table, "Ann", "scissors")
    assert table.refresh().deadline == deadline  # a throw does not restart the round's clock
    assert services.advance_due_tables(now=deadline - timedelta(seconds=1)) == []
    assert services.advance_due_tables(now=deadline + timedelta(seconds=1)) == [table.code]
    assert services.advance_due_tables(now=deadline + timedelta(seconds=2)) == []
    table.refresh()
    assert table.table.stage == "over" and table.table.deadline is None
    alive = dict(Seat.objects.filter(table=table.table).values_list("name", "alive"))
    assert alive == {"Ann": True, "Ben": False, "Cat": False}
    assert "Time is up: Ben, Cat did not throw and are out." in panel_html(table, "Ann")


def test_the_host_extends_the_toy_games_clock() -> None:
    table = started(minutes=2)
    deadline = table.refresh().deadline
    assert deadline is not None
    services.clock_set(host=table.seat("Ann"), action="extend", minutes=3, now=deadline)
    assert table.refresh().deadline == deadline + timedelta(minutes=3)
    throw(table, "Ben", "rock")  # a move in the same round keeps the extended clock
    assert table.refresh().deadline == deadline + timedelta(minutes=3)


def test_staff_move_on_and_cancel() -> None:
    table = started()
    services.table_move_on(table=table.table)  # no clock: the round is settled as it is
    assert table.refresh().stage == "over"
    assert set(Seat.objects.filter(table=table.table).values_list("alive", flat=True)) == {False}

    other = started()
    throw(other, "Ann", "rock")
    services.table_cancel(table=other.table, by=other.seat("Ann"))
    other.refresh()
    assert (other.table.stage, other.table.phase) == ("cancelled", "cancelled")
    assert "rock" not in seen_by(other, "Ben")  # a cancel shows nobody's throw
    assert "You threw" not in panel_html(other, "Ben")
    gone = lobby(("Uma", "Vic"))
    services.table_cancel(table=gone.table, by=gone.seat("Uma"))
    assert table_page(gone.refresh(), gone.seat("Vic")).panel.context == {"rps": None}


def test_each_seat_sees_its_own_throw_only() -> None:
    table = started()
    throw(table, "Ann", "scissors")
    assert "'mine': 'scissors'" in seen_by(table, "Ann")
    for name in ("Ben", "Cat", None):
        seen = seen_by(table, name)
        assert "scissors'" not in seen and "'mine': None" in seen, name
        assert "1 of 3 have thrown." in seen
    assert "You threw scissors." in panel_html(table, "Ann")
    assert "You threw" not in panel_html(table, "Ben")


def test_the_chat_channels_of_the_toy_game() -> None:
    table = started()
    ben = table.seat("Ben")
    line = services.chat_post(seat=ben, text="good luck all")
    assert (line.channel, line.author) == ("public", "Ben")
    with pytest.raises(services.ServiceError, match="No telling your sign"):
        services.chat_post(seat=ben, text="I will throw Rock")
    with pytest.raises(services.WrongStageError, match="You cannot write there now"):
        services.chat_post(seat=ben, text="hello", channel="sideline")
    throw(table, "Ann", "paper")
    throw(table, "Ben", "rock")
    throw(table, "Cat", "scissors")  # a draw: all three still in
    services.table_move_on(table=table.table)  # nobody threw in round 2: all out
    sideline = services.chat_post(seat=table.seat("Ben"), text="well played", channel="sideline")
    assert sideline.channel == "sideline"
    assert "well played" in text_of(client_for(table, "Cat"), table)

    alive = started(("Dan", "Eve"), minutes=1)
    throw(alive, "Dan", "rock")
    services.advance_due_tables(now=timezone.now() + timedelta(minutes=2))  # Eve is out
    services.chat_post(seat=alive.seat("Eve"), text="only the out read this", channel="sideline")
    assert "only the out read this" in text_of(client_for(alive, "Eve"), alive)
    assert "only the out read this" not in text_of(client_for(alive, "Dan"), alive)


def panel_html(table: TestTable, name: str) -> str:
    response = client_for(table, name).get(reverse("panel", args=[table.code]), **HTMX)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def text_of(client: Client, table: TestTable) -> str:
    response = client.get(reverse("table", args=[table.code]))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


# --- Through the pages ----------------------------------------------------------------------------


def test_a_whole_game_through_the_pages() -> None:
    ann, ben = new_client(), new_client()
    home = ann.get(reverse("home")).content.decode()
    assert 'value="rps:classic"' in home and "Rock, paper, scissors" in home
    response = ann.post(reverse("table_new"), {"host_name": "Ann", "game": "rps:classic"})
    assert response.status_code == 302
    code = response["Location"].strip("/").split("/")[-1]
    join = ben.get(reverse("join", args=[code]))
    assert join.status_code == 200 and "#rules-rps" in join.content.decode()
    assert ben.post(reverse("join", args=[code]), {"name": "Ben"}).status_code == 302

    lobby_page = ann.get(reverse("table", args=[code])).content.decode()
    assert 'id="rps-lobby"' in lobby_page and 'name="minutes"' in lobby_page
    assert 'name="minutes"' not in ben.get(reverse("table", args=[code])).content.decode()
    refused = ann.post(reverse("options", args=[code]), {"minutes": "0"}, **HTMX)
    assert refused.status_code == 400 and "1 to 60 minutes" in refused.content.decode()
    saved = ann.post(reverse("options", args=[code]), {"minutes": "5"}, **HTMX)
    assert saved.status_code == 200 and "Each round lasts 5 minutes." in saved.content.decode()
    assert ben.post(reverse("start", args=[code]), **HTMX).status_code == 403

    assert ann.post(reverse("start", args=[code]), {"minutes": "5"}).status_code == 302
    table = Table.objects.get(code=code)
    assert table.stage == "playing" and table.deadline is not None

    bad = ben.post(reverse("move", args=[code, "throw"]), {"sign": "lizard"}, **HTMX)
    assert bad.status_code == 400 and "Throw rock, paper or scissors." in bad.content.decode()
    wrong = ben.post(reverse("move", args=[code, "dance"]), {"sign": "rock"}, **HTMX)
    assert wrong.status_code == 409
    thrown = ben.post(reverse("move", args=[code, "throw"]), {"sign": "rock"}, **HTMX)
    assert thrown.status_code == 200 and "You threw rock." in thrown.content.decode()
    assert "You threw" not in ann.get(reverse("table", args=[code])).content.decode()

    said = ann.post(reverse("chat", args=[code]), {"channel": "public", "text": "hm"}, **HTMX)
    assert said.status_code == 200
    told = ann.post(reverse("chat", args=[code]), {"channel": "public", "text": "paper!"}, **HTMX)
    assert told.status_code == 400 and "No telling your sign" in told.content.decode()

    final = ann.post(reverse("move", args=[code, "throw"]), {"sign": "paper"}, **HTMX)
    assert final.status_code == 200
    end = html.unescape(ann.get(reverse("table", args=[code])).content.decode())
    assert "The winners: Ann." in end and "Play again with the same players" in end

    again = ben.post(reverse("play_again", args=[code]))
    assert again.status_code == 302
    new_code = again["Location"].strip("/").split("/")[-1]
    assert new_code != code
    follow = Table.objects.get(code=new_code)
    assert follow.options == {"minutes": 5} and follow.previous_id == table.pk
    seen = ann.get(reverse("table", args=[code])).content.decode()
    assert f'data-follow="{new_code}"' in seen
    assert ann.post(reverse("play_again", args=[code])).status_code == 302
    follow_page = ann.get(reverse("table", args=[new_code])).content.decode()
    assert "Each round lasts 5 minutes." in follow_page


def test_a_page_load_fires_a_passed_deadline() -> None:
    table = started(minutes=1)
    Table.objects.filter(pk=table.table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    page = text_of(client_for(table, "Ben"), table)
    assert "Time is up: Ann, Ben, Cat did not throw and are out." in page
    assert table.refresh().stage == "over"


# --- Through the socket ---------------------------------------------------------------------------


@pytest.fixture
async def sockets(settings: Any) -> AsyncIterator[SocketOpener]:
    settings.DEADLINE_TICKER = False
    channel_layers.backends.clear()
    opener = SocketOpener()
    yield opener
    await opener.close_all()
    channel_layers.backends.clear()


@pytest.mark.django_db(transaction=True)
async def test_the_socket_pushes_each_seat_its_own_panel(sockets: SocketOpener) -> None:
    table = await database_sync_to_async(started)()
    ann, hello = await sockets.seat(table, "Ann", version=0)
    assert "rps-panel" in hello["panel"]
    ben, _hello = await sockets.seat(table, "Ben", version=0)

    await database_sync_to_async(throw)(table, "Ann", "scissors")
    mine, _seen = await receive_until(ann, is_panel())
    assert "You threw scissors." in mine["panel"]
    status, _seen = await receive_until(ben, lambda f: f["type"] in ("status", "panel"))
    assert "1 of 3 have thrown." in status.get("html", status.get("panel", ""))
    assert "You threw" not in str(status)

    await database_sync_to_async(throw)(table, "Ben", "paper")
    await database_sync_to_async(throw)(table, "Cat", "rock")  # a draw: round 2 for everyone
    frame, _seen = await receive_until(ben, lambda f: "Round 2" in f.get("panel", ""), WAIT)
    assert "You threw" not in frame["panel"]
