"""docs/rules.md 8a.10 by the bot: a Doppelganger's `!target` copy in a deck with the Sentinel
is answered and lettered without the copied card until every other player's action is in."""

from __future__ import annotations

import pytest

from games.tables.models import Table
from tests.chatbot.helpers import FakeChat
from tests.chatbot.test_commands import open_game, start_dealt

pytestmark = pytest.mark.django_db

# Ann, Ben, Cat, Dan, then left, middle, right.
DECK = ["doppelganger", "sentinel", "werewolf", "seer", "villager", "robber", "troublemaker"]
HELD = "You will see the card you copied once every other player's action is in"


def test_the_bot_holds_the_copied_card_back() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat", "Dan"])
    code = table.code
    start_dealt(chat, table, "Ann", DECK)
    chat.deliver()
    reply = chat.say("Ann", f"!target {code} Dan")
    assert reply is not None and "is in" in reply.private[0], reply
    chat.deliver()
    inbox = "\n".join(chat.inbox["Ann"])
    assert "You copied the card of a" not in inbox and HELD in inbox
    # A second `!target` is answered with the hold, and nothing is read as the copied role.
    reply = chat.say("Ann", f"!target {code} Cat")
    assert reply is not None and HELD in reply.private[0], reply
    assert "Seer" not in reply.private[0]
    for name, targets in (("Ben", "Cat"), ("Cat", "nobody"), ("Dan", "nobody")):
        reply = chat.say(name, f"!target {code} {targets}")
        assert reply is not None and "is in" in reply.private[0], (name, reply)
    chat.deliver()
    assert "You copied the card of a Seer" in chat.last("Ann")
    chat.say("Ann", f"!target {code} Cat")
    table.refresh_from_db()
    assert table.phase == "day"


def test_the_bot_never_shows_a_shielded_copy() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat", "Dan"])
    code = table.code
    start_dealt(chat, table, "Ann", DECK)
    chat.say("Ann", f"!target {code} Dan")
    for name, targets in (("Ben", "Dan"), ("Cat", "nobody"), ("Dan", "nobody")):
        chat.say(name, f"!target {code} {targets}")
        chat.deliver()
    assert Table.objects.get(pk=table.pk).phase == "day"
    inbox = "\n".join(chat.inbox["Ann"])
    assert "You copied the card of a" not in inbox
    assert "A shield lay on Dan's card" in inbox
