"""Multi-night Werewolf by chat (issue 40 item 2), through the command layer: `!new` picks the
ruleset, each seat's letters come from its page's view (its role, what it learned, the current
call to act with its taps), and whole games of each ruleset are played to their end by taps
chosen at random among those offered: some tap (or the host's `!advance`) always moves the game
on."""

from __future__ import annotations

import random

import pytest

from games.chatbot.letters import due_letters
from games.chatbot.models import SeatLink
from games.tables.models import Table
from games.tables.reads import seat_info, table_info
from tests.chatbot.helpers import FakeChat

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def open_game(chat: FakeChat, words: str) -> Table:
    reply = chat.say("Ann", f"!new {words}", "village")
    assert reply is not None and "Werewolf game" in reply.public[0], reply
    table = Table.objects.get()
    for name in NAMES[1:]:
        chat.say(name, f"!join {table.code}", "village")
    chat.say("Ann", f"!start {table.code}", "village")
    return Table.objects.get(pk=table.pk)


def test_new_picks_the_ruleset_and_refuses_words_no_game_takes() -> None:
    chat = FakeChat()
    assert "One Night" in chat.say("Ann", "!new", "a").public[0]  # type: ignore[union-attr]
    reply = chat.say("Ben", "!new oxford", "b")
    assert reply is not None and "Oxford game (rules/003)" in reply.public[0]
    assert Table.objects.get(family="werewolf").ruleset == "oxford"
    reply = chat.say("Cat", "!new chess", "c")
    assert reply is not None and "`!new forum`" in reply.private[0]
    assert "`!new official`" in reply.private[0]


def test_letters_are_the_seats_view_and_a_secret_stays_private() -> None:
    chat = FakeChat()
    table = open_game(chat, "forum")
    chat.deliver()
    for name in NAMES:
        inbox = "\n".join(chat.inbox[name])
        assert f"**Game {table.code}: you are the" in inbox
    wolves = [n for n in NAMES if "you are the Werewolf" in "\n".join(chat.inbox[n])]
    assert wolves
    for name in NAMES:
        inbox = "\n".join(chat.inbox[name])
        if name in wolves:
            assert f"`!night {table.code} <player>`" in inbox  # the pack's victim
        else:
            assert "you know" not in inbox or "Werewolf" not in inbox
    # The night's choice is secret: typed in the channel, it is deleted and refused.
    reply = chat.say(wolves[0], f"!night {table.code} Ann", "village")
    assert reply is not None and reply.delete
    # By private message it is taken and answered privately.
    victim = next(n for n in NAMES if n not in wolves)
    reply = chat.say(wolves[0], f"!night {table.code} {victim}")
    assert reply is not None and "your choices for tonight are in" in reply.private[0]


def _asks(table: Table) -> dict[str, list[str]]:
    """Every seat's taps in its current call to act."""
    info = table_info(table)
    found = {}
    for link in SeatLink.objects.filter(seat__table=table).select_related("seat"):
        for letter in due_letters(info, seat_info(link.seat)):
            if letter.key.startswith(("ask:", "second:")) and letter.menus:
                found[link.seat.name] = [t.command for menu in letter.menus for t in menu]
    return found


@pytest.mark.parametrize("ruleset", ["forum", "oxford", "classic"])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_by_chat(ruleset: str, seed: int) -> None:
    rng = random.Random(seed)
    chat = FakeChat()
    table = open_game(chat, ruleset)
    for _turn in range(400):
        table.refresh_from_db()
        if table.stage == "over":
            break
        version = table.version
        asks = _asks(table)
        for name, commands in sorted(asks.items()):
            chat.say(name, f"!{rng.choice(commands)}")
        table.refresh_from_db()
        if table.version == version or rng.random() < 0.05:
            chat.say("Ann", f"!advance {table.code}", "village")  # the host moves it on
            table.refresh_from_db()
        assert table.version > version or table.stage == "over", asks
        chat.deliver()
    assert table.stage == "over"
    chat.deliver()
    assert any(f"**Game {table.code}: the end." in post for post in chat.channels["village"])
    for name in NAMES:
        assert f"Game {table.code} is over" in "\n".join(chat.inbox[name])
