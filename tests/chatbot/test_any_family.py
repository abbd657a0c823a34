"""The bot through the family interface (issue 37 item 2, issue 40 item 1): a toy family the
bot has never heard of, offering a chat bot its letters and one move by name, is played from
chat with no change to games/chatbot; a family that offers no chat is refused; the players a
command names are read the same way for every family (games/tables/said.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

import pytest

from games.tables import services
from games.tables.family import (
    Change,
    ChatMove,
    Family,
    FamilyError,
    Letter,
    Panel,
    Said,
    SeatInfo,
    TableInfo,
    chat_of,
    family_named,
    moderated_options_of,
    narrator_of,
    register,
    unregister,
)
from games.tables.models import Table
from games.tables.said import NotSeated, UnknownWord, named
from tests.chatbot.helpers import FakeChat

pytestmark = pytest.mark.django_db


class PokeChat:
    """Poke by chat: `!poke <game id> <player>`, said in the open; each seat's letter says whom
    it may poke, and the channel hears who poked whom at the end."""

    moves: Mapping[str, bool] = {"poke": False}

    def help(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return ("**Poke**",), ("`!poke <game id> <player>`",)

    def new_ruleset(self, words: str) -> str:
        return "plain"

    def opened(self, table: TableInfo, host: SeatInfo, rules_address: str) -> str:
        return f"Poke game **{table.code}**"

    def letters(self, table: TableInfo, seat: SeatInfo) -> tuple[Letter, ...]:
        if table.state is None:
            return ()
        others = ", ".join(s.name for s in table.seats if s.id != seat.id)
        return (Letter("poke", f"Game {table.code}: poke one of {others}."),)

    def channel_letter(self, table: TableInfo) -> str | None:
        pokes = (table.state or {}).get("pokes", {})
        return "; ".join(f"{a} poked {b}" for a, b in sorted(pokes.items())) or None

    def move(self, table: TableInfo, seat: SeatInfo, name: str, said: Said) -> ChatMove:
        try:
            values = named(table, said)
        except (UnknownWord, NotSeated) as error:
            raise FamilyError(f"Who is {error}?") from None
        if len(values) != 1:
            raise FamilyError("Poke one player.")
        poked = table.seat(int(values[0]))
        assert poked is not None
        return ChatMove("poke", {"target": values}, f"{seat.name} poked {poked.name}.", aloud=True)


class Poke(Family):
    """A toy game: everyone pokes someone once; the game ends when all have. Only what the
    interface requires, and the chat it offers; the rest is `Family`'s defaults."""

    name = "poke"
    title = "Poke"
    rulesets: Mapping[str, str] = {"plain": "Plain"}
    chat = PokeChat()

    def seat_limits(self, ruleset: str) -> tuple[int, int]:
        return 2, 6

    def rules_path(self, ruleset: str) -> str:
        return "/"

    def start(self, table: TableInfo, rng: Any, now: datetime) -> Change:
        return Change({"pokes": {}}, "poking", "Poking")

    def move(
        self,
        table: TableInfo,
        seat: SeatInfo,
        kind: str,
        fields: Mapping[str, Sequence[str]],
        now: datetime,
    ) -> Change:
        pokes = dict(table.state["pokes"])
        if kind != "poke" or seat.name in pokes:
            raise FamilyError("You poked already.")
        target = table.seat(int(fields["target"][0]))
        if target is None or target.id == seat.id:
            raise FamilyError("Poke someone else.")
        pokes[seat.name] = target.name
        done = len(pokes) == len(table.seats)
        return Change({"pokes": pokes}, "over" if done else "poking", "Poking", finished=done)

    def panel(self, table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
        return Panel("tables/message.html")

    def cancel(self, table: TableInfo, now: datetime) -> Change:
        return Change(table.state, "cancelled", "Cancelled", finished=True)


@pytest.fixture
def poke() -> Iterator[Poke]:
    game = Poke()
    register(game)
    yield game
    unregister(game.name)


def test_the_bot_plays_a_family_it_never_heard_of_through_the_interface(poke: Poke) -> None:
    chat = FakeChat()
    host = services.table_create(family="poke", ruleset="plain", host_name="Ann")
    code = host.table.code
    chat.say("Ann", f"!link {code} x")  # a wrong code: nothing linked
    for name in ("Ben", "Mary Jo"):
        reply = chat.say(name, f"!join {code}", "game")
        assert reply is not None and f"{name} sat down in game {code}" in reply.public[0]
    services.table_start(host=host)
    chat.deliver()
    assert chat.inbox["Ben"] == [f"Game {code}: poke one of Ann, Mary Jo."]
    help_text = chat.say("Ben", "!help").private[0]  # type: ignore[union-attr]
    assert "**Poke**" in help_text and "`!poke <game id> <player>`" in help_text
    assert chat.say("Ben", f"!poke {code} Zed").private == ("Who is Zed?",)  # type: ignore[union-attr]
    reply = chat.say("Ben", f"!poke {code} @mary jo", "game")  # not secret: said in the open
    assert reply is not None and reply.public == ("Ben poked Mary Jo.",) and not reply.delete
    assert chat.say("Ben", f"!poke {code} Ann").private == ("You poked already.",)  # type: ignore[union-attr]
    mention = f"<@{chat.user_id('Ben')}>"
    assert chat.say("Mary Jo", f"!poke {code} {mention}").private == ("Mary Jo poked Ben.",)  # type: ignore[union-attr]
    # One Night's moves are not this game's.
    assert "not a command of game" in chat.say("Ben", f"!vote {code} Ann").private[0]  # type: ignore[union-attr]


class Quiet(Poke):
    """Poke without the chat: played on the web only."""

    name = "quiet"
    title = "Quiet"
    chat = None


def test_a_family_that_offers_no_chat_is_played_on_the_web(poke: Poke) -> None:
    quiet = Quiet()
    register(quiet)
    try:
        assert chat_of(quiet) is None and narrator_of(quiet) is None
        werewolf = family_named("werewolf")
        assert chat_of(werewolf) is not None and narrator_of(werewolf) is None
        assert moderated_options_of(werewolf) is not None
        onenight = family_named("onenight")
        assert chat_of(onenight) is not None and narrator_of(onenight) is not None
        assert moderated_options_of(onenight) is None
        host = services.table_create(family="quiet", ruleset="plain", host_name="Ann")
        reply = FakeChat().say("Ben", f"!join {host.table.code}")
        assert reply is not None
        code = host.table.code
        assert reply.private == (
            f"Game {code} (Quiet) is not played by chat: play it on its web page.",
        )
        assert Table.objects.get(pk=host.table.pk).seats.count() == 1
    finally:
        unregister(quiet.name)


def test_names_are_read_whole_in_any_case_with_mentions_and_extra_words() -> None:
    seats = tuple(
        SeatInfo(id=n, name=name, position=n) for n, name in enumerate(["Ann", "Mary Jo", "Al"], 1)
    )
    table = TableInfo("ABCD", "x", "y", {}, "playing", "night", 1, 1, None, None, seats)
    extra = {"left": "left"}
    assert named(table, Said("@mary JO and ann, left"), extra) == ["2", "1", "left"]
    assert named(table, Said("<@7> Al", {"<@7>": 3}), extra) == ["3", "3"]
    assert named(table, Said(""), extra) == []
    with pytest.raises(UnknownWord, match="Mary"):
        named(table, Said("@Mary Ann"))  # "Mary" alone is nobody; the longest fit is read
    with pytest.raises(NotSeated, match=re.escape("<@8>")):
        named(table, Said("Ann <@8>", {"<@8>": None}))
