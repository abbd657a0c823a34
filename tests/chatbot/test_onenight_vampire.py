"""One Night's Vampire cards and every two-part action by chat (issue 42; docs/rules.md 8b.3,
"What they send"): a `!target`'s words read into the fields the seat's page posts (the Count's
pick then fear, Cupid's lovers, the Marksman's card then mark with "-", the Gremlin's `marks`
or `cards`, the Copycat's centre card then its new card's action), refusals that send nothing,
the night letters' syntax, and the marks told after the night by DM only.

The first tests read words into fields at the family's level (OneNightChat.move), with no move
made; the games played through the bot then send those fields through the same moves and
readings as the pages (`play.named_targets`, the Copycat's `copy`).
"""

from __future__ import annotations

import pytest

from games.tables.family import ChatMove, FamilyError
from games.tables.models import Table
from tests.chatbot.helpers import FakeChat
from tests.chatbot.onenight_reading import read_target, seat_ids
from tests.chatbot.test_commands import open_game, start_dealt

pytestmark = pytest.mark.django_db

# Nine players, each with a two-part or marking action; the centre: left, middle, right.
NINE = {
    "Ann": "the_count",
    "Ben": "vampire",
    "Cat": "marksman",
    "Dan": "gremlin",
    "Eve": "cupid",
    "Fay": "copycat",
    "Gus": "diseased",
    "Hal": "instigator",
    "Ivy": "pickpocket",
}
CENTRE = ["seer", "werewolf", "villager"]


@pytest.fixture
def nine() -> tuple[FakeChat, Table]:
    chat = FakeChat()
    table = open_game(chat, list(NINE))
    start_dealt(chat, table, "Ann", [*NINE.values(), *CENTRE])
    return chat, Table.objects.get(pk=table.pk)


def _refused(table: Table, name: str, text: str) -> str:
    with pytest.raises(FamilyError) as refused:
        read_target(table, name, text)
    return str(refused.value)


def _answer(chat: FakeChat, name: str, text: str) -> str:
    """The bot's private answer to `name`'s private message."""
    reply = chat.say(name, text)
    assert reply is not None and reply.private, (name, text)
    return reply.private[0]


def _fields(move: ChatMove) -> tuple[str, dict[str, list[str]]]:
    return move.kind, {k: list(v) for k, v in move.fields.items()}


def test_two_names_in_order_for_the_count_cupid_and_the_marksman(
    nine: tuple[FakeChat, Table],
) -> None:
    _chat, table = nine
    ids = seat_ids(table)
    # The Count: the vampires' pick, then the Mark of Fear; a mention names its seat too.
    move = read_target(table, "Ann", "Cat Dan")
    assert _fields(move) == ("action", {"targets": [ids["Cat"], ids["Dan"]]})
    assert "Your action is in." in move.answer
    move = read_target(table, "Ann", "<@7> and dan", {"<@7>": int(ids["Eve"])})
    assert _fields(move) == ("action", {"targets": [ids["Eve"], ids["Dan"]]})
    # Cupid: two lovers, himself allowed, or nobody.
    assert _fields(read_target(table, "Eve", "Eve, Ann")) == (
        "action",
        {"targets": [ids["Eve"], ids["Ann"]]},
    )
    assert _fields(read_target(table, "Eve", "nobody")) == ("action", {"no_action": ["1"]})
    # The Marksman: a card, then a mark; "-" for none; a name alone is a card alone.
    assert _fields(read_target(table, "Cat", "Ann -"))[1] == {"targets": [ids["Ann"], "-"]}
    assert _fields(read_target(table, "Cat", "- Ben"))[1] == {"targets": ["-", ids["Ben"]]}
    assert _fields(read_target(table, "Cat", "@ann, ben"))[1] == {
        "targets": [ids["Ann"], ids["Ben"]]
    }
    assert _fields(read_target(table, "Cat", "Ann"))[1] == {"targets": [ids["Ann"], "-"]}
    # One name: the vampires' pick, the Diseased's neighbour, the Instigator's traitor.
    assert _fields(read_target(table, "Ben", "Eve"))[1] == {"targets": [ids["Eve"]]}
    assert _fields(read_target(table, "Gus", "Hal"))[1] == {"targets": [ids["Hal"]]}
    assert _fields(read_target(table, "Hal", "Hal"))[1] == {"targets": [ids["Hal"]]}


def test_the_gremlins_marks_or_cards(nine: tuple[FakeChat, Table]) -> None:
    _chat, table = nine
    ids = seat_ids(table)
    assert _fields(read_target(table, "Dan", "marks Ann Ben")) == (
        "action",
        {"targets": ["marks", ids["Ann"], ids["Ben"]]},
    )
    assert _fields(read_target(table, "Dan", "Cards ann and ben"))[1] == {
        "targets": ["cards", ids["Ann"], ids["Ben"]]
    }
    assert _fields(read_target(table, "Dan", "marks and Ann and Ben"))[1] == {
        "targets": ["marks", ids["Ann"], ids["Ben"]]
    }
    # Two names alone swap the cards, as the engine reads them (8b.3).
    assert _fields(read_target(table, "Dan", "Dan Ben"))[1] == {
        "targets": ["cards", ids["Dan"], ids["Ben"]]
    }
    assert "Nobody is called “Zed”" in _refused(table, "Dan", "marks Ann Zed")
    assert "different number of players" in _refused(table, "Dan", "marks Ann")
    assert "different number of players" in _refused(table, "Dan", "Ann Ben Cat")
    # The words are the Gremlin's only: to the Count "marks" names nobody.
    assert "Nobody is called “marks”" in _refused(table, "Ann", "marks Ann Ben")


def test_the_copycat_looks_at_a_centre_card_first(nine: tuple[FakeChat, Table]) -> None:
    _chat, table = nine
    move = read_target(table, "Fay", "left")
    assert _fields(move) == ("copy", {"targets": ["left"]})
    assert "You looked at the left card." in move.answer
    answer = _refused(table, "Fay", "Ann")
    assert answer.startswith(f"Game {table.code}: nothing was sent. The Copycat first looks")
    assert f"Send `!target {table.code} <centre card>`" in answer
    assert "Your role must act tonight" in _refused(table, "Fay", "nobody")
    assert "needs your choice" in _refused(table, "Fay", "")


def test_wrong_words_are_answered_with_the_syntax_and_nothing_changes(
    nine: tuple[FakeChat, Table],
) -> None:
    chat, table = nine
    code = table.code
    version = table.version
    for name, text, why, how in (
        ("Ann", "Cat", "different number of players", "<pick> <fear>"),
        ("Ann", "left Cat", "not centre cards", "<pick> <fear>"),
        ("Ann", "nobody", "must act tonight", "<pick> <fear>"),
        ("Eve", "Ann", "different number of players", "the two lovers"),
        ("Cat", "- -", "a card to look at, a mark, or both", "`-` for none"),
        ("Cat", "Ann Ben Dan", "a card to look at, a mark, or both", "then whose mark"),
        ("Dan", "", "needs your choice", f"`!target {code} marks <player> <player>`"),
        ("Gus", "Ann Ben", "different number of players", "neighbour"),
        ("Ben", "", "needs your choice", "Mark of the Vampire"),
    ):
        answer = _answer(chat, name, f"!target {code} {text}".strip())
        assert answer.startswith(f"Game {code}: nothing was sent."), (name, text, answer)
        assert why in answer and how in answer, (name, text, answer)
    # The Diseased is shown its two neighbours; a player who may abstain is told how.
    assert "Players: Fay and Hal." in _answer(chat, "Gus", f"!target {code}")
    assert f"`!target {code} nobody`" in _answer(chat, "Hal", f"!target {code}")
    table.refresh_from_db()
    assert table.version == version and not table.state["actions"]


def test_the_help_names_the_two_part_actions() -> None:
    chat = FakeChat()
    help_text = _answer(chat, "Ann", "!help")
    assert "the Count's pick then the Mark of Fear" in help_text
    assert "`marks` or `cards`" in help_text and "(`-` for none)" in help_text


# --- Through the bot: the cards whose moves pass today ------------------------------------------

# Five players: the Count, a Vampire, Cupid, the Diseased and the Seer.
DUSK = ["the_count", "vampire", "cupid", "diseased", "seer", "villager", "werewolf", "robber"]
FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]


def test_a_vampire_night_by_chat_and_each_seat_learns_its_mark_privately() -> None:
    chat = FakeChat()
    table = open_game(chat, FIVE)
    code = table.code
    start_dealt(chat, table, "Ann", DUSK)
    chat.deliver()

    def night(name: str) -> str:
        return next(m for m in chat.inbox[name] if m.startswith(f"**Game {code}, tonight:**"))

    # Each night letter gives its card's syntax in one line.
    assert f"Send `!target {code} <pick> <fear>`" in night("Ann")
    assert "your pick for the Mark of the Vampire" in night("Ben")
    assert "the two lovers (you may be one)" in night("Cat")
    assert f"Or send `!target {code} nobody` for no action." in night("Cat")
    assert "Players: Cat and Eve." in night("Dan").split("\n")  # the Diseased's neighbours
    assert "nobody" not in night("Dan")  # the Diseased must act
    # A wrong count sends nothing; then each sends theirs.
    assert "nothing was sent" in _answer(chat, "Ann", f"!target {code} Cat")
    assert not Table.objects.get(pk=table.pk).state["actions"]
    for name, words in (
        ("Ann", "Cat Dan"),  # the pick, then the Mark of Fear
        ("Ben", "Cat"),
        ("Cat", "Cat and Eve"),
        ("Dan", "Eve"),
        ("Eve", "Ann"),
    ):
        reply = chat.say(name, f"!target {code} {words}")
        assert reply is not None and "Your action is in." in reply.private[0], (name, reply)
    table.refresh_from_db()
    assert table.phase == "day"
    assert table.state["actions"]["Ann"]["targets"] == ["Cat", "Dan"]
    assert table.state["actions"]["Cat"]["targets"] == ["Cat", "Eve"]
    chat.deliver()
    # Each seat's report comes by DM with the mark it saw at the end of dusk (8b.2), its own.
    for name in FIVE:
        report = next(m for m in chat.inbox[name] if "what you learned in the night" in m)
        assert report.count("At the end of dusk your mark was the") == 1, (name, report)
    assert "your mark was the Mark of Fear" in "\n".join(chat.inbox["Dan"])
    assert "You gave the Mark of Fear to Dan." in "\n".join(chat.inbox["Ann"])
    assert "You are in love with Eve." in "\n".join(chat.inbox["Cat"])
    # Nothing of it in the game's channel.
    channel = "\n".join(chat.channels["game"])
    assert "Mark of" not in channel and "your mark" not in channel
    assert "Mark of Fear" not in "\n".join(chat.inbox["Eve"] + chat.inbox["Ben"])


def test_the_copycat_copies_by_chat_then_acts_as_its_card() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    code = table.code
    start_dealt(
        chat, table, "Ann", ["copycat", "werewolf", "villager", "seer", "villager", "drunk"]
    )
    chat.deliver()
    assert f"Send `!target {code} <centre card>`" in chat.last("Ann")
    reply = chat.say("Ann", f"!target {code} left")
    assert reply is not None and "You looked at the left card." in reply.private[0], reply
    chat.deliver()
    assert "You copied the card of a Seer." in chat.last("Ann")  # its second letter
    reply = chat.say("Ann", f"!target {code} Ben")
    assert reply is not None and "Your action is in." in reply.private[0], reply
    table.refresh_from_db()
    assert table.state["actions"]["Ann"]["targets"] == ["left", "Ben"]


def test_the_marksman_and_the_gremlin_by_chat() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    code = table.code
    start_dealt(chat, table, "Ann", ["marksman", "gremlin", "cupid", "werewolf", "seer", "drunk"])
    chat.deliver()
    assert f"`!target {code} marks <player> <player>`" in "\n".join(chat.inbox["Ben"])
    assert "`-` for none" in "\n".join(chat.inbox["Ann"])
    for name, words in (("Ann", "- Cat"), ("Ben", "marks Ann Cat"), ("Cat", "nobody")):
        reply = chat.say(name, f"!target {code} {words}")
        assert reply is not None and "Your action is in" in reply.private[0], (name, reply)
    table.refresh_from_db()
    assert table.phase == "day"
    assert table.state["actions"]["Ann"]["targets"] == ["-", "Cat"]
    assert table.state["actions"]["Ben"]["targets"] == ["marks", "Ann", "Cat"]


def test_a_marksman_and_gremlin_night_by_chat_is_told_by_dm_only() -> None:
    """The Marksman's "-" and the Gremlin's word play a whole night through the page's own
    reading (`play.named_targets`): the engine reads them as 8b.3 says, and each report comes
    by DM."""
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    code = table.code
    start_dealt(chat, table, "Ann", ["marksman", "gremlin", "cupid", "werewolf", "seer", "drunk"])
    for name, words in (("Ann", "- Cat"), ("Ben", "marks Ann Cat"), ("Cat", "nobody")):
        assert "Your action is in" in _answer(chat, name, f"!target {code} {words}"), name
    table.refresh_from_db()
    assert table.phase == "day"
    assert table.state["actions"]["Ann"]["targets"] == ["-", "Cat"]
    assert table.state["actions"]["Ben"]["targets"] == ["marks", "Ann", "Cat"]
    chat.deliver()
    assert "You swapped the marks of Ann and Cat." in "\n".join(chat.inbox["Ben"])
    assert "Cat's mark is the Mark of Clarity." in "\n".join(chat.inbox["Ann"])
    assert "mark" not in "\n".join(chat.channels["game"]).lower()


def test_a_doppelganger_that_copies_the_count_names_the_pick_then_the_fear() -> None:
    """8b.5: a Doppelganger-Count picks with the vampires and gives its own Mark of Fear; its
    second `!target` is read as the Count's, and its second letter gives the Count's syntax."""
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat", "Dan"])
    code = table.code
    deck = ["doppelganger", "the_count", "villager", "seer", "villager", "werewolf", "drunk"]
    start_dealt(chat, table, "Ann", deck)
    assert "is in" in _answer(chat, "Ann", f"!target {code} Ben")  # copies the Count
    chat.deliver()
    assert f"Send `!target {code} <pick> <fear>`" in chat.last("Ann")
    answer = _answer(chat, "Ann", f"!target {code} Cat")
    assert answer.startswith(f"Game {code}: nothing was sent.") and "<pick> <fear>" in answer
    assert "Your action is in." in _answer(chat, "Ann", f"!target {code} Cat Dan")
    table.refresh_from_db()
    assert table.state["actions"]["Ann"]["targets"] == ["Ben", "Cat", "Dan"]
