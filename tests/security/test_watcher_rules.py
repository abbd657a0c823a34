"""The watcher rules (issue 36, hole 2; games/tables/watching.py, docs/security.md): a seated
player, host or not, never reads a channel their seat may not read, by any link.

The hole: the host's page offered the watch link all game; a watcher reads the graveyard; so a
living host opened the link in a private window (a browser holding no seat) and read what the
dead say. Now the link is shown to a host only while the host's seat reads every channel a
watcher reads, and the link shown in the lobby stops at the deal where watchers read more than
the public channel. Each test here failed before the fix.
"""

from __future__ import annotations

import json
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from games.tables import services
from games.tables.consumers import CLOSE_NOT_SEATED
from games.tables.models import Seat, Table
from tests.factories import TestTable, client_for, create_lobby, fixed_shuffle, new_client
from tests.security.audit import (
    SocketOpener,
    expect_closed,
    forum_deal,
    forum_lobby,
    forum_night,
    new_session,
    receive_until,
    url,
)

pytestmark = pytest.mark.django_db

GRAVE_LINE = "they got me, it was the baker"
WATCH = re.compile(r"/g/[A-Z0-9]+/watch/[0-9a-f]+")


def cat_dies_and_talks(table: TestTable) -> int:
    """Night 1: the pack kills Cat (Ann protects herself), the villagers are done for the
    night; dead Cat writes in the graveyard.
    Returns the line's id."""
    forum_night(table)
    assert not table.seat("Cat").alive
    return services.chat_post(seat=table.seat("Cat"), text=GRAVE_LINE, channel="graveyard").pk


def _watch_links(body: str) -> list[str]:
    return WATCH.findall(body)


def _link_on_page(client: Client, code: str) -> str:
    links = _watch_links(client.get(url("table", code)).content.decode())
    assert links, "the page shows the watch link"
    return links[0]


def test_a_living_host_is_never_shown_a_watch_link_during_the_game() -> None:
    """The host's page, its panel fragment and the panel a POST answers with: a watch link in
    the lobby, none from the deal on while the host lives; shown once the host's seat reads the
    graveyard (here: the host role handed to the dead Cat)."""
    table = forum_lobby()
    ann = client_for(table, "Ann")
    assert _link_on_page(ann, table.code)  # the lobby: watchers read the public channel only
    forum_deal(table)
    line = cat_dies_and_talks(table)
    assert table.seat("Ann").alive
    answers = {
        "page": ann.get(url("table", table.code)),
        "panel": ann.get(url("panel", table.code)),
        "pause (htmx)": ann.post(
            url("clock", table.code), {"action": "pause"}, HTTP_HX_REQUEST="true"
        ),
        "refused move (htmx)": ann.post(
            url("move", table.code, "vote"), {"target": "nobody"}, HTTP_HX_REQUEST="true"
        ),
    }
    for where, answer in answers.items():
        body = answer.content.decode()
        assert answer.status_code < 500 and 'id="panel"' in body, where
        assert not _watch_links(body), where
        assert GRAVE_LINE not in body, where
    # The host role goes to the dead Cat, whose seat reads the graveyard: Cat's page shows the
    # game's link; Ann's no longer offers any.
    Seat.objects.filter(pk=table.seats["Cat"].pk).update(last_seen=timezone.now())
    services.host_hand_over(host=table.seat("Ann"), seat_id=table.seats["Cat"].pk)
    cat = client_for(table, "Cat")
    link = _link_on_page(cat, table.code)
    assert not _watch_links(ann.get(url("table", table.code)).content.decode())
    # A browser without a seat watches by it and reads the graveyard ...
    watcher = new_client()
    assert watcher.get(link).status_code == 302
    page = watcher.get(url("table", table.code)).content.decode()
    assert "You are <strong>watching" in page and GRAVE_LINE in page
    # ... a player who opens it stays that player, who does not.
    assert ann.get(link).status_code == 302
    page = ann.get(url("table", table.code)).content.decode()
    assert "You are <strong>Ann</strong>" in page and GRAVE_LINE not in page
    assert line


def test_the_lobbys_watch_link_stops_at_the_deal_where_watchers_read_the_graveyard() -> None:
    """A private window (no seat) that opened the lobby's link, as a player could: from the
    deal on its page and fragment are refused and never hold the graveyard; the lobby's link
    opened after the deal says it has expired."""
    table = forum_lobby()
    lobby_link = _link_on_page(client_for(table, "Ann"), table.code)
    private = new_client()
    assert private.get(lobby_link).status_code == 302
    assert "You are <strong>watching" in private.get(url("table", table.code)).content.decode()
    forum_deal(table)
    cat_dies_and_talks(table)
    for path in (url("table", table.code), url("panel", table.code)):
        answer = private.get(path)
        body = answer.content.decode()
        assert answer.status_code == 403, path
        assert GRAVE_LINE not in body and "watching" not in body, path
    late = new_client()
    answer = late.get(lobby_link)
    assert answer.status_code == 410 and "expired" in answer.content.decode()
    assert late.get(url("table", table.code)).status_code == 403
    # The page a browser without a seat lands on offers no watching while the host lives.
    body = private.get(url("table", table.code)).content.decode()
    assert "There is no watch link to ask for now" in body


def test_a_session_from_before_the_rules_holds_the_lobbys_key() -> None:
    """A session that watched before issue 36 kept only the code: it is read as the lobby's
    key, so it too stops at the deal of a Werewolf game."""
    table = forum_lobby()
    forum_deal(table)
    cat_dies_and_talks(table)
    old = Client()
    old.cookies["sessionid"] = new_session({"watching": [table.code]})
    assert old.get(url("table", table.code)).status_code == 403


def test_one_night_watchers_read_only_the_public_game_so_the_link_stays() -> None:
    """One Night's watchers read the public channel, which every seat reads: the host is
    shown the link all game, and a watcher who came in the lobby keeps watching."""
    table = create_lobby(["Ann", "Ben", "Cat"])
    ann = client_for(table, "Ann")
    lobby_link = _link_on_page(ann, table.code)
    watcher = new_client()
    assert watcher.get(lobby_link).status_code == 302
    Table.objects.filter(pk=table.table.pk).update(
        options={**table.refresh().options, "deck": ["werewolf", "seer", "robber",
                                                     "villager", "villager", "drunk"]}
    )  # fmt: skip
    with fixed_shuffle():
        services.table_start(host=table.seat("Ann"))
    game_link = _link_on_page(ann, table.code)
    assert game_link != lobby_link
    assert "You are <strong>watching" in watcher.get(url("table", table.code)).content.decode()
    assert new_client().get(lobby_link).status_code == 302


@pytest.mark.django_db(transaction=True)
async def test_pushes_never_carry_the_link_to_a_living_host_and_a_lobby_watcher_is_cut_off(
    sockets: SocketOpener,
) -> None:
    """Over the socket: the living host's pushed panels hold no watch link from the deal on;
    a lobby watcher's socket open at the deal is closed (4403) before any graveyard line, and
    a socket opened with the lobby's key afterwards is refused."""
    table = await database_sync_to_async(forum_lobby)()
    # The session's form from before the rules (a list of codes) is read as the lobby's key.
    lobby_watch = {"watching": [table.code]}
    watcher = await sockets.open(table.code, lobby_watch)
    hello = await watcher.receive_json_from(timeout=5)
    assert hello["type"] == "hello"
    ann, ann_hello = await sockets.seat(table, "Ann")
    await database_sync_to_async(forum_deal)(table)
    await expect_closed(watcher, CLOSE_NOT_SEATED)
    _panel, frames = await receive_until(ann, lambda f: f["type"] == "panel")
    await database_sync_to_async(cat_dies_and_talks)(table)
    await ann.send_json_to({"type": "sync", "after": 0, "version": 0})
    _, more = await receive_until(ann, lambda f: f["type"] == "hello")
    pushed = json.dumps([*frames, *more])
    assert not _watch_links(pushed) and GRAVE_LINE not in pushed
    late = await sockets.open(table.code, lobby_watch)
    await expect_closed(late, CLOSE_NOT_SEATED)
    # The game's key (as a host whose seat reads the graveyard hands it out) is followed.
    game = await sockets.open(table.code, {"watching": {table.code: "game"}})
    hello = await game.receive_json_from(timeout=5)
    assert hello["type"] == "hello" and GRAVE_LINE in json.dumps(hello)
    assert _watch_links(ann_hello["panel"])  # the lobby's link, in the lobby
