"""One Night's Daybreak cards by chat, at a HOUSE table (the default `!new`) whose host added
them (docs/rules.md 8a.8): a `!target`'s words read into the fields the seat's page posts
(forms.py: a player's seat id, a centre card's position, the Witch's centre card and player,
the Paranormal Investigator's one or two players in order, the Village Idiot's `left` or
`right`), the night letters' syntax (typing what a letter says is accepted), refusals that send
nothing and say why, and a whole game played through the bot, told by DM only.

The first tests read words into fields at the family's level (OneNightChat.move), with no move
made; the rest send them through the bot, the table services and the engine, as the pages do.
"""

from __future__ import annotations

import re

import pytest

from games.families.onenight.engine import finish_game
from games.families.onenight.engine.messages import night_report
from games.families.onenight.panels import daybreak_tokens, on_the_table
from games.families.onenight.play import OneNightState
from games.tables.family import ChatMove, FamilyError
from games.tables.models import Table
from tests.chatbot.helpers import FakeChat
from tests.chatbot.onenight_reading import read_target, seat_ids
from tests.chatbot.test_commands import open_game, start_dealt

pytestmark = pytest.mark.django_db

# Nine players, one of each Daybreak card with a night action; with the Alpha Wolf the deck
# holds a werewolf card more, set apart as the centre werewolf card (engine validate_deck):
# players + 4 cards. Dealt in order: the players, then left, middle, right.
NINE = {
    "Ann": "sentinel",
    "Ben": "alpha_wolf",
    "Cat": "mystic_wolf",
    "Dan": "apprentice_seer",
    "Eve": "paranormal_investigator",
    "Fay": "witch",
    "Gus": "village_idiot",
    "Hal": "revealer",
    "Ivy": "curator",
}
CENTRE = ["werewolf", "seer", "villager", "tanner"]  # the centre werewolf card, then l, m, r


@pytest.fixture
def nine() -> tuple[FakeChat, Table]:
    chat = FakeChat()
    table = open_game(chat, list(NINE), ruleset="house")
    start_dealt(chat, table, "Ann", [*NINE.values(), *CENTRE])
    table = Table.objects.get(pk=table.pk)
    assert table.ruleset == "house" and table.state["cards"]["centre_wolf"] == "werewolf"
    chat.deliver()
    return chat, table


def _fields(move: ChatMove) -> tuple[str, dict[str, list[str]]]:
    return move.kind, {k: list(v) for k, v in move.fields.items()}


def _targets(move: ChatMove) -> list[str]:
    kind, fields = _fields(move)
    assert kind == "action", move
    return fields["targets"]


def _refused(table: Table, name: str, text: str) -> str:
    with pytest.raises(FamilyError) as refused:
        read_target(table, name, text)
    return str(refused.value)


def _answer(chat: FakeChat, name: str, text: str) -> str:
    """The bot's private answer to `name`'s private message."""
    reply = chat.say(name, text)
    assert reply is not None and reply.private and not reply.public, (name, text)
    return reply.private[0]


def _night_letter(chat: FakeChat, name: str, code: str) -> str:
    return next(m for m in chat.inbox[name] if m.startswith(f"**Game {code}, tonight:**"))


def test_one_card_roles_read_names_mentions_and_centre_words(
    nine: tuple[FakeChat, Table],
) -> None:
    _chat, table = nine
    ids = seat_ids(table)
    # The Sentinel, the Mystic Wolf and the Revealer: another player, by name or mention.
    move = read_target(table, "Ann", "Ben")
    assert _fields(move) == ("action", {"targets": [ids["Ben"]]})
    assert "Your action is in." in move.answer
    assert _targets(read_target(table, "Ann", "<@9>", {"<@9>": int(ids["Dan"])})) == [ids["Dan"]]
    assert _targets(read_target(table, "Cat", "@dan")) == [ids["Dan"]]
    assert _targets(read_target(table, "Hal", "GUS")) == [ids["Gus"]]
    # The Alpha Wolf: one player (a non-werewolf, checked by the engine: see the refusals).
    assert _targets(read_target(table, "Ben", "Ann")) == [ids["Ann"]]
    # The Apprentice Seer: one centre card, by its word.
    assert _targets(read_target(table, "Dan", "middle")) == ["middle"]
    assert _targets(read_target(table, "Dan", "Right")) == ["right"]
    # The Curator: any player's card, his own included.
    assert _targets(read_target(table, "Ivy", "Ivy")) == [ids["Ivy"]]
    assert _targets(read_target(table, "Ivy", "ann")) == [ids["Ann"]]
    # Who may abstain sends "nobody"; the Alpha Wolf must act (8a.5).
    for name in ("Ann", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"):
        assert _fields(read_target(table, name, "nobody")) == ("action", {"no_action": ["1"]}), name
    answer = _refused(table, "Ben", "nobody")
    assert answer.startswith(f"Game {table.code}: nothing was sent. Your role must act tonight")
    assert f"Send `!target {table.code} <one player>`." in answer
    assert "needs your choice" in _refused(table, "Ann", "")


def test_the_witch_names_a_centre_card_and_a_player_in_either_order(
    nine: tuple[FakeChat, Table],
) -> None:
    """8a.5: the Witch's targets are a centre card and a player (herself allowed), "in either
    order"; her page posts them as one value, "left,<seat>" (forms.py), the bot as two, which
    `play.named_targets` reads alike."""
    _chat, table = nine
    ids = seat_ids(table)
    assert _targets(read_target(table, "Fay", "left Ann")) == ["left", ids["Ann"]]
    assert _targets(read_target(table, "Fay", "Ann, right")) == [ids["Ann"], "right"]
    assert _targets(read_target(table, "Fay", "middle and @fay")) == ["middle", ids["Fay"]]
    assert _targets(read_target(table, "Fay", "<@5> left", {"<@5>": int(ids["Gus"])})) == [
        ids["Gus"],
        "left",
    ]
    assert "Nobody is called “Zed”" in _refused(table, "Fay", "left Zed")


def test_the_investigator_names_one_or_two_players_in_order(
    nine: tuple[FakeChat, Table],
) -> None:
    _chat, table = nine
    ids = seat_ids(table)
    assert _targets(read_target(table, "Eve", "Ann")) == [ids["Ann"]]
    assert _targets(read_target(table, "Eve", "Ben Ann")) == [ids["Ben"], ids["Ann"]]
    assert _targets(read_target(table, "Eve", "ann and ben")) == [ids["Ann"], ids["Ben"]]


def test_the_village_idiot_names_a_direction(nine: tuple[FakeChat, Table]) -> None:
    _chat, table = nine
    assert _targets(read_target(table, "Gus", "left")) == ["left"]
    assert _targets(read_target(table, "Gus", "RIGHT")) == ["right"]
    assert "Nobody is called “up”" in _refused(table, "Gus", "up")


def test_each_night_letter_gives_its_syntax_and_typing_it_is_accepted(
    nine: tuple[FakeChat, Table],
) -> None:
    """Every Daybreak night letter's `!target` line, filled in with names where it says
    <player> and centre words where it says <centre card>, is read and accepted by the
    engine; the night then ends."""
    chat, table = nine
    code = table.code
    letters = {name: _night_letter(chat, name, code) for name in NINE}
    # The shape each letter asks for (none may speak of "two centre cards" but the seer's).
    assert f"Send `!target {code} <one player>`." in letters["Ann"]
    assert "Players: Ben, Cat, Dan, Eve, Fay, Gus, Hal and Ivy." in letters["Ann"]
    assert "Players: Ann, Dan, Eve, Fay, Gus, Hal and Ivy." in letters["Ben"]  # no werewolf
    assert "nobody" not in letters["Ben"]  # the Alpha Wolf must act
    assert f"Send `!target {code} <one centre card>`." in letters["Dan"]
    assert f"`!target {code} <player> <player>` to look at two, in that order" in letters["Eve"]
    assert "Players: Ann, Ben, Cat, Dan, Fay, Gus, Hal and Ivy." in letters["Eve"]
    assert f"Send `!target {code} <centre card> <player>`" in letters["Fay"]
    assert "Centre cards: left, middle, right." in letters["Fay"].split("\n")
    assert "Players: Ann, Ben, Cat, Dan, Eve, Fay, Gus, Hal and Ivy." in letters["Fay"]
    assert f"Send `!target {code} left` or `!target {code} right`" in letters["Gus"]
    assert "Seat order: Ann, Ben, Cat, Dan, Eve, Fay, Gus, Hal and Ivy." in letters["Gus"]
    assert "Players: Ann, Ben, Cat, Dan, Eve, Fay, Gus, Hal and Ivy." in letters["Ivy"]
    for name, letter in letters.items():
        assert "centre cards>" not in letter and "two of them" not in letter, name
        if name != "Ben":
            assert f"Or send `!target {code} nobody` for no action." in letter, name
    # Each letter's first command, filled in, in seat order (the night ends with the last).
    fill = {
        "Ann": ["Ben"],
        "Ben": ["Dan"],
        "Cat": ["Eve"],
        "Dan": ["right"],
        "Eve": ["Ann", "Ben"],  # the letter's second command: two looks
        "Fay": ["middle", "Fay"],
        "Gus": [],  # `left`, as typed
        "Hal": ["Cat"],
        "Ivy": ["Ivy"],
    }
    sent = {}
    for name, words in fill.items():
        commands = re.findall(r"`(!target [^`]*)`", letters[name])
        command = commands[1] if name == "Eve" else commands[0]
        for word in words:
            command = re.sub(r"<[^>]+>", word, command, count=1)
        assert "<" not in command, (name, command)
        assert "Your action is in." in _answer(chat, name, command), (name, command)
        sent[name] = command
    table.refresh_from_db()
    assert table.phase == "day"
    actions = {name: action["targets"] for name, action in table.state["actions"].items()}
    assert actions == {
        "Ann": ["Ben"],
        "Ben": ["Dan"],
        "Cat": ["Eve"],
        "Dan": ["right"],
        "Eve": ["Ann", "Ben"],
        "Fay": ["middle", "Fay"],
        "Gus": ["left"],
        "Hal": ["Cat"],
        "Ivy": ["Ivy"],
    }, sent


def test_refusals_send_nothing_and_say_why(nine: tuple[FakeChat, Table]) -> None:
    chat, table = nine
    code = table.code
    version = table.version
    for name, text, why in (
        # The Alpha Wolf gives the werewolf card to a non-werewolf (8a.5): Cat is the Mystic Wolf.
        ("Ben", "Cat", "Cat is a werewolf already."),
        ("Ben", "Zed", "Nobody is called “Zed” in game"),
        ("Ann", "Ben Cat", "A sentinel shields one other player's card."),
        ("Ann", "Ann", "You cannot target yourself"),
        ("Eve", "Ann Ben Cat", "looks at one or two other players' cards, in order."),
        ("Eve", "left", "looks at one or two other players' cards, in order."),
        ("Fay", "left", "A witch names one centre card, then the player"),
        ("Fay", "left right Ann", "A witch names one centre card, then the player"),
        ("Gus", "middle", 'A village idiot moves the cards "left" or "right".'),
        ("Gus", "Ann", 'A village idiot moves the cards "left" or "right".'),
        ("Dan", "Ann", "An apprentice seer looks at one centre card."),
        ("Hal", "Ann Ben", "A revealer turns one other player's card face up."),
        ("Ivy", "Ann Ben", "A curator puts an artifact on one player's card"),
        ("Ben", "nobody", "Your role must act tonight"),
    ):
        answer = _answer(chat, name, f"!target {code} {text}")
        assert why in answer, (name, text, answer)
        assert "is in" not in answer, (name, text, answer)
        if "Nobody is called" not in why:  # the engine's refusals, as the bot's own: what to send
            assert answer.startswith(f"Game {code}: nothing was sent."), (name, text, answer)
            assert f"`!target {code}" in answer, (name, text, answer)
    # A bare `!target` is answered with the letter's syntax (chat._not_sent).
    for name, how in (
        ("Fay", f"Send `!target {code} <centre card> <player>`"),
        ("Gus", f"Send `!target {code} left` or `!target {code} right`"),
        ("Eve", f"`!target {code} <player> <player>` to look at two"),
    ):
        answer = _answer(chat, name, f"!target {code}")
        assert answer.startswith(f"Game {code}: nothing was sent."), (name, answer)
        assert how in answer, (name, answer)
    table.refresh_from_db()
    assert table.version == version and not table.state["actions"]


def test_a_shielded_card_is_no_refusal(nine: tuple[FakeChat, Table]) -> None:
    """8a.4: actions are sent blind, so one aimed at a shielded card is accepted and not
    carried out; the player's report says a shield stopped them."""
    chat, table = nine
    code = table.code
    assert "Your action is in." in _answer(chat, "Ann", f"!target {code} Dan")
    for name, words in (("Ben", "Dan"), ("Eve", "Dan"), ("Fay", "left Dan"), ("Hal", "Dan")):
        assert "Your action is in." in _answer(chat, name, f"!target {code} {words}"), name
    for name in ("Cat", "Dan", "Gus", "Ivy"):
        assert "Your action is in: no action." in _answer(chat, name, f"!target {code} nobody")
    table.refresh_from_db()
    assert table.phase == "day"
    assert table.state["actions"]["Ben"]["targets"] == ["Dan"]
    chat.deliver()
    for name in ("Ben", "Eve", "Fay", "Hal"):
        report = next(m for m in chat.inbox[name] if "what you learned in the night" in m)
        assert "shield" in report.lower(), (name, report)


# --- A whole game through the bot ----------------------------------------------------------------

# Five players at a house table: Sentinel, Alpha Wolf, Witch, Paranormal Investigator, Village
# Idiot; the centre werewolf card; left, middle, right.
FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]
DAYBREAK = [
    "sentinel",
    "alpha_wolf",
    "witch",
    "paranormal_investigator",
    "village_idiot",
    "werewolf",  # set apart as the centre werewolf card
    "seer",
    "villager",
    "tanner",
]
# What a card's name (or a report) would give away, kept from the channel before the reveal.
SECRETS = (
    "sentinel",
    "alpha",
    "witch",
    "investigator",
    "idiot",
    "werewolf",
    "tanner",
    "seer",
    "villager",
    "you looked",
    "you swapped",
    "you moved",
    "shield",
)
# A reveal row's end, by (won, died).
RESULTS = {
    (True, False): "won",
    (True, True): "won, died",
    (False, False): "lost",
    (False, True): "lost, died",
}


def test_a_daybreak_house_game_by_chat_is_told_by_dm_only() -> None:
    chat = FakeChat()
    table = open_game(chat, FIVE, ruleset="house")
    code = table.code
    start_dealt(chat, table, "Ann", DAYBREAK)
    table.refresh_from_db()
    assert table.ruleset == "house"
    assert table.state["cards"] == {
        "Ann": "sentinel",
        "Ben": "alpha_wolf",
        "Cat": "witch",
        "Dan": "paranormal_investigator",
        "Eve": "village_idiot",
        "left": "seer",
        "middle": "villager",
        "right": "tanner",
        "centre_wolf": "werewolf",
    }
    chat.deliver()
    assert f"Send `!target {code} <centre card> <player>`" in _night_letter(chat, "Cat", code)
    # Every player's action, by DM: the Sentinel shields Eve's card; the Alpha Wolf gives the
    # werewolf card to Cat; the Investigator looks at Eve's (shielded: skipped) then Ben's;
    # the Witch swaps the right card with Ann's; the Village Idiot moves the cards left.
    orders = (
        ("Ann", "Eve"),
        ("Ben", "Cat"),
        ("Dan", "Eve Ben"),
        ("Cat", "right Ann"),
        ("Eve", "left"),
    )
    for name, words in orders:
        answer = _answer(chat, name, f"!target {code} {words}")
        assert answer == (
            f"Game {code}: Your action is in. The night ends when everyone has sent theirs."
        ), (name, answer)
    table.refresh_from_db()
    assert table.phase == "day"
    state = OneNightState(table.state)
    assert state.complete_actions() == {
        "Ann": ["Eve"],
        "Ben": ["Cat"],
        "Dan": ["Eve", "Ben"],
        "Cat": ["right", "Ann"],
        "Eve": ["left"],
    }
    chat.deliver()
    # Each player's night report, by DM, is the engine's for this night.
    night = state.night()
    reports = {}
    for name in FIVE:
        report = [m for m in chat.inbox[name] if "what you learned in the night" in m]
        expected = "\n".join(
            (f"**Game {code}: what you learned in the night**", *night_report(night, name))
        )
        assert report == [expected], (name, report, expected)
        reports[name] = night_report(night, name)
    assert any("shield" in line.lower() for line in reports["Dan"])  # Eve's card was skipped
    # What lies in plain sight (docs/rules.md 8a.9): every seat's day letter lists it, as the
    # page's "On the table" does: the same lines for everyone.
    table_lines = on_the_table(night)
    assert "Eve's card: shielded" in table_lines
    for name in FIVE:
        day = [m for m in chat.inbox[name] if "it is day" in m]
        assert len(day) == 1 and day[0].endswith(
            "\nOn the table:\n" + "\n".join(f"- {t}" for t in table_lines)
        ), (name, day)
    for name in FIVE:
        chat.say(name, f"!ready {code}", "game")
    table.refresh_from_db()
    assert table.phase == "voting"
    chat.deliver()
    votes = {"Ann": "Ben", "Ben": "Cat", "Cat": "Ben", "Dan": "Ben", "Eve": "Dan"}
    for name, target in votes.items():
        answer = _answer(chat, name, f"!vote {code} {target}")
        assert f"your vote for {target} is in" in answer, (name, answer)
    table.refresh_from_db()
    assert table.stage == "over"
    chat.deliver()
    # The reveal, in the channel, names the engine's winners.
    result = finish_game(OneNightState(table.state).night(), votes)
    assert result.outcome is not None and result.vote is not None
    reveal = chat.channels["game"][-1]
    assert reveal.startswith(f"**Game {code}: the reveal**"), reveal
    assert result.outcome.reason in reveal
    # The tokens at dawn and the centre werewolf card, as the web reveal lists them.
    tokens = daybreak_tokens(night)
    assert tokens and all(line in reveal.split("\n") for line in tokens), (tokens, reveal)
    rows = {
        line[2:].split(":")[0]: line.rsplit("; ", 1)[1]
        for line in reveal.split("\n")
        if line.startswith("- ")
    }
    assert set(rows) == set(FIVE)
    for name in FIVE:
        died = name in result.vote.dead
        won = name in result.outcome.winners
        assert rows[name] == RESULTS[won, died], (name, rows[name])
    assert result.outcome.winners and set(result.outcome.winners) < set(FIVE)
    # Nothing secret in the channel before the reveal: no card, no action, no report line.
    channel = "\n".join(chat.channels["game"][: chat.channels["game"].index(reveal)])
    assert "!target" not in channel and "!vote" not in channel
    for word in SECRETS:
        assert word not in channel.lower(), word
    for name in FIVE:
        for line in reports[name]:
            assert line not in channel, (name, line)
