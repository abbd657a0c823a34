"""The Discord bot's words are marked for translation too (docs/i18n.md): a whole official game
played by chat commands in the pseudo-language, every private letter, answer and channel post
read for plain English. The commands themselves (`!target`, `up`, the centre's `left`...) are
what players type: they stay as they are."""

from __future__ import annotations

import pytest

from games.tables.models import Table
from tests.chatbot.helpers import FakeChat
from tests.chatbot.test_commands import CENTRE, NINE
from tests.factories import fixed_shuffle
from tests.i18n import pseudo

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_pseudo")]

COMMAND_WORDS = [
    *("help", "games", "new", "join", "start", "here", "link", "role", "target", "ready"),
    *("endday", "vote", "up", "down", "as", "left", "middle", "right", "official", "house"),
    "nobody-here",  # what Cat typed, quoted back in the refusal
]


def test_a_whole_game_by_chat_commands_in_another_language() -> None:
    chat = FakeChat()
    names = list(NINE)
    said: list[str] = []
    typed: set[str] = set()  # the players' own lines in the channel, as the fake chat keeps them

    def say(name: str, text: str, channel: str | None = None) -> None:
        if channel is not None:
            typed.add(f"{name}: {text}")
        reply = chat.say(name, text, channel)
        if reply is not None:
            said.extend([*reply.private, *reply.public])

    say("Ann", "!help")
    say("Ann", "!new official", "game")
    table = Table.objects.latest("pk")
    for name in names[1:]:
        say(name, f"!join {table.code}", "game")
    deck = [NINE[n] for n in names] + CENTRE
    Table.objects.filter(pk=table.pk).update(options={**table.options, "deck": deck})
    with fixed_shuffle():
        say("Ann", f"!start {table.code}", "game")
    chat.deliver()
    orders = {"Ann": "Eve", "Ben": "right", "Eve": "Ben", "Fay": "Gus", "Gus": "Ann, Ben"}
    say("Cat", f"!target {table.code} nobody-here")  # a refusal
    for name in names:
        say(name, f"!target {table.code} {orders.get(name, '')}".strip())
    chat.deliver()
    say("Ann", f"!target {table.code} left middle")
    chat.deliver()
    for name in names:
        say(name, f"!ready {table.code}", "game")
    chat.deliver()
    for name in names:
        say(name, f"!vote {table.code} {'Ben' if name != 'Ben' else 'Cat'}")
    chat.deliver()
    texts = [*said, *(m for box in chat.inbox.values() for m in box)]
    texts += [post for posts in chat.channels.values() for post in posts if post not in typed]
    allowed = [*names, table.code, *COMMAND_WORDS]
    left = sorted({w for text in texts for w in pseudo.english_words(_plain(text), allowed)})
    assert not left, left


def _plain(text: str) -> str:
    """A chat message as the HTML reader takes text: escaped, so <player> is not a tag."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_the_vampire_cards_by_chat_in_another_language() -> None:
    """Issue 42: the night letters' syntax lines of the Vampire cards, their refusals and the
    marks in the night's report, all in the reader's language."""
    chat = FakeChat()
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    deck = ["the_count", "vampire", "cupid", "diseased", "copycat", "marksman", "instigator"]
    said: list[str] = []
    chat.say("Ann", "!new official", "game")
    table = Table.objects.latest("pk")
    for name in names[1:]:
        chat.say(name, f"!join {table.code}", "game")
    deck += ["seer", "werewolf", "villager"]
    Table.objects.filter(pk=table.pk).update(options={**table.options, "deck": deck})
    with fixed_shuffle():
        chat.say("Ann", f"!start {table.code}", "game")
    chat.deliver()
    code = table.code
    for name, words in (
        ("Ann", "Cat"),  # refused: the Count takes two
        ("Eve", "Ann"),  # refused: the Copycat looks at a centre card first
        ("Fay", "- -"),  # refused: a card, a mark, or both
        ("Dan", ""),  # refused: the Diseased must choose
        ("Ann", "Cat Gus"),
        ("Ben", "Cat"),
        ("Cat", "Cat Dan"),
        ("Dan", "Cat"),
        ("Gus", "nobody"),
    ):
        reply = chat.say(name, f"!target {code} {words}".strip())
        assert reply is not None
        said.extend(reply.private)
    chat.deliver()
    texts = [*said, *(m for box in chat.inbox.values() for m in box)]
    assert sum("\n" in text for text in said) == 4  # the four refusals, with the syntax
    assert any(f"{code} <" in text for text in chat.inbox["Ann"])  # the Count's letter
    allowed = [*names, code, *COMMAND_WORDS, "marks", "cards", "Ann"]
    left = sorted({w for text in texts for w in pseudo.english_words(_plain(text), allowed)})
    assert not left, left
