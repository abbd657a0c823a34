"""A chat channel a page may read from now on arrives with what was said in it (issue 38 item
4): at the end of a multi-night game the pack's chat opens to everyone, and an open page shows
it, with its lines, without a reload (games/tables/consumers.py)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.families.werewolf.stored import game_of
from games.tables import services
from tests.factories import TestTable
from tests.realtime.helpers import SocketOpener, receive_until
from tests.security.audit import forum_deal, forum_lobby, forum_night


def _dealt() -> TestTable:
    table = forum_lobby()
    forum_deal(table)
    return table


def _vote_out(table: TestTable, target: str) -> None:
    """Every living player votes `target` out, and the day ends."""
    table.refresh()
    state = game_of(table.table.state).state
    for name in state.living():
        services.seat_move(
            seat=table.seat(name), kind="vote", fields={"target": [str(table.seats[target].pk)]}
        )
    table.refresh()
    if game_of(table.table.state).state.phase.kind == "day" and table.table.stage == "playing":
        services.table_move_on(table=table.table)
    table.refresh()


def _play_to_the_end(table: TestTable) -> None:
    """Night 1 (Cat dies), day 1 votes Fay out, night 2 nobody dies, day 2 votes Gus out:
    the village wins."""
    forum_night(table)
    _vote_out(table, "Fay")
    for _night in range(3):
        table.refresh()
        if game_of(table.table.state).state.phase.kind == "night":
            services.table_move_on(table=table.table)
    _vote_out(table, "Gus")
    table.refresh()
    assert table.table.stage == "over"


@pytest.mark.django_db(transaction=True)
async def test_the_pack_chat_opened_at_the_end_arrives_with_its_lines(
    sockets: SocketOpener,
) -> None:
    table = await database_sync_to_async(_dealt)()
    ben, hello = await sockets.seat(table, "Ben")
    assert "pack" not in [c["name"] for c in hello["channel_state"]]
    secret = await database_sync_to_async(services.chat_post)(
        seat=table.seats["Fay"], text="Cat tonight, agreed?", channel="pack"
    )
    await database_sync_to_async(_play_to_the_end)(table)

    def pack_open(frame: dict) -> bool:
        return frame["type"] == "panel" and "pack" in [c["name"] for c in frame["channel_state"]]

    panel, frames = await receive_until(ben, pack_open)
    [pack] = [c for c in panel["channel_state"] if c["name"] == "pack"]
    assert pack["html"], "the page gets the new channel's box"
    assert secret.pk in [line["id"] for line in panel.get("history", [])], (
        "and what the pack said, without a reload"
    )
    before = [f for f in frames[:-1] if f.get("type") == "chat" and f.get("id") == secret.pk]
    assert not before, "nothing of the pack's chat reached Ben while the game went on"
