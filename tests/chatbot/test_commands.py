"""The bot's command layer without any chat service (issue 29): a whole One Night game of
rules/000 played by `!new`, `!join`, `!start`, `!target`, the channel's chat, `!ready` and
`!vote`, with the private messages and channel posts the relay owes along the way; the
refusals a player meets; links to web seats; a relay that restarts."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.chatbot import commands
from games.chatbot.letters import due
from games.chatbot.linking import link_code
from games.chatbot.models import GameChannel, SeatLink
from games.families.onenight.options import RULES_PHRASE
from games.tables import services
from games.tables.models import ChatLine, Seat, Table
from games.tables.reads import seat_info, table_info
from tests.chatbot.helpers import FakeChat
from tests.factories import fixed_shuffle, new_client

pytestmark = pytest.mark.django_db

# An official deal for nine: every role with a night action, the Doppelganger first.
NINE = {
    "Ann": "doppelganger",
    "Ben": "werewolf",
    "Cat": "minion",
    "Dan": "mason",
    "Eve": "seer",
    "Fay": "robber",
    "Gus": "troublemaker",
    "Hal": "drunk",
    "Ivy": "insomniac",
}
CENTRE = ["werewolf", "mason", "villager"]  # left, middle, right
# Three-player decks, dealt in order: the players' cards, then left, middle, right.
SEER = ["seer", "robber", "werewolf", "villager", "villager", "drunk"]
TROUBLE = ["troublemaker", "seer", "werewolf", "villager", "villager", "drunk"]
QUIET = ["villager", "villager", "werewolf", "villager", "seer", "drunk"]


def open_game(chat: FakeChat, names: list[str], *, ruleset: str = "official") -> Table:
    """Ann opens a game in channel #game and the others join it from the channel."""
    reply = chat.say(names[0], f"!new {ruleset}" if ruleset == "official" else "!new", "game")
    assert reply is not None and reply.public
    code = re.search(r"\*\*([A-Z0-9]+)\*\*", reply.public[0]).group(1)
    phrase = f" {RULES_PHRASE}" if ruleset == "house" else ""
    for name in names[1:]:
        joined = chat.say(name, f"!join {code}{phrase}", "game")
        assert joined is not None and f"{name} sat down in game {code}" in joined.public[0]
    return Table.objects.get(code=code)


def start_dealt(chat: FakeChat, table: Table, host: str, deck: list[str]) -> None:
    """The host's deck (chosen on the web lobby) dealt in order: players, then the centre."""
    Table.objects.filter(pk=table.pk).update(options={**table.options, "deck": deck})
    with fixed_shuffle():
        reply = chat.say(host, f"!start {table.code}", "game")
    assert reply is not None and "has begun" in reply.public[0], reply


def test_help_and_what_is_not_a_command() -> None:
    chat = FakeChat()
    reply = chat.say("Ann", "!help")
    assert reply is not None and "!target <game id>" in reply.private[0]
    assert chat.say("Ann", "hello bot") is None  # a private message that is no command
    assert chat.say("Ann", "!play music") is None  # another bot's command
    assert chat.say("Ann", "just talking", "general") is None  # a channel with no game


def test_a_whole_official_game_from_discord_commands() -> None:
    chat = FakeChat()
    names = list(NINE)
    table = open_game(chat, names)
    code = table.code
    start_dealt(chat, table, "Ann", [NINE[n] for n in names] + CENTRE)
    chat.deliver()
    # Each player has their role message and their night's instructions, privately.
    for name in names:
        inbox = "\n".join(chat.inbox[name])
        assert f"Game {code}:" in inbox and f"`!target {code}" in inbox, name
    assert "The werewolf is Ben" in "\n".join(chat.inbox["Cat"])  # the minion's role message
    assert not any("werewolf" in post.lower() for post in chat.channels["game"][-1:])
    # The night, by private message: every role with an action.
    orders = {
        "Ann": "Eve",  # copies the seer...
        "Ben": "right",  # the lone werewolf looks at a centre card
        "Cat": "",
        "Dan": "",
        "Eve": "Ben",
        "Fay": "Gus",
        "Gus": "Ann, Ben",
        "Hal": "middle",
        "Ivy": "",
    }
    for name, targets in orders.items():
        reply = chat.say(name, f"!target {code} {targets}".strip())
        assert reply is not None and "is in" in reply.private[0], (name, reply)
    chat.deliver()
    assert "You copied the card of a Seer" in chat.last("Ann")  # ...and then acts as one
    assert Table.objects.get(pk=table.pk).phase == "night"
    chat.say("Ann", f"!target {code} left middle")
    chat.deliver()
    table.refresh_from_db()
    assert table.phase == "day"
    assert any("You looked at Ben's card: it is the Werewolf." in m for m in chat.inbox["Eve"])
    assert any("You swapped cards with Gus" in m for m in chat.inbox["Fay"])
    posts = "\n".join(chat.channels["game"])
    assert "The day ends" in posts  # the countdown, in the game's channel
    # The day's chat: a player's line in the channel is the game's chat, seen on the web too.
    assert chat.say("Eve", "I looked at someone last night, ask me", "game") is None
    line = ChatLine.objects.get(table=table, author="Eve")
    assert line.via == "fakechat"
    chat.deliver()
    assert "\n".join(chat.channels["game"]).count("ask me") == 1  # not echoed back to it
    for name in names:
        chat.say(name, f"!ready {code}", "game")
    table.refresh_from_db()
    assert table.phase == "voting"
    chat.deliver()
    assert all(f"`!vote {code} <player>`" in chat.last(n) for n in names)
    for name in names:
        target = "Ben" if name != "Ben" else "Cat"
        reply = chat.say(name, f"!vote {code} {target}")
        assert reply is not None and "your vote for" in reply.private[0], reply
    table.refresh_from_db()
    assert table.stage == "over"
    chat.deliver()
    reveal = chat.channels["game"][-1]
    assert reveal.startswith(f"**Game {code}: the reveal**") and "Died: Ben." in reveal
    assert any("the reveal" in m for m in chat.inbox["Cat"])
    assert chat.deliver() == 0  # everything told once; the game's channel is done


def test_a_target_in_public_is_deleted_and_nothing_is_done() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    start_dealt(chat, table, "Ann", SEER)
    version = Table.objects.get(pk=table.pk).version
    reply = chat.say("Ann", f"!target {table.code} Ben", "game")
    assert reply is not None and reply.delete and not reply.public
    assert "private message" in reply.private[0]
    assert ("Ann", f"!target {table.code} Ben") in chat.deleted
    assert Table.objects.get(pk=table.pk).version == version
    reply = chat.say("Ben", f"!vote {table.code} Ann", "game")
    assert reply is not None and reply.delete
    # The game's chat is closed at night (rules/000 s5b), on Discord as on the web.
    reply = chat.say("Cat", "so who is the wolf?", "game")
    assert reply is not None and reply.delete and "closed during the night" in reply.private[0]
    assert not ChatLine.objects.filter(table=table, author="Cat").exists()


def test_the_bot_does_not_deal_a_card_not_yet_online(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot has no deck command: it deals the lobby's deck, and one holding a card not yet
    online (stored before the gate, games/families/onenight/online.py) is refused, nothing
    dealt. Vampire's cards are online now (issue 42): the gate is shown here with the Vampire
    put back behind it, then the same deck dealt without it."""
    from games.families.onenight import online
    from games.families.onenight.engine import Role

    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    deck = ["vampire", "werewolf", "seer", "villager", "villager", "drunk"]
    Table.objects.filter(pk=table.pk).update(options={**table.options, "deck": deck})
    with monkeypatch.context() as patched:
        patched.setattr(online, "NOT_YET_ONLINE", frozenset({Role.VAMPIRE}))
        reply = chat.say("Ann", f"!start {table.code}", "game")
    assert reply is not None
    assert "The Vampire card cannot be played here yet." in " ".join(reply.private), reply
    table.refresh_from_db()
    assert table.stage == "lobby" and not table.started_at
    reply = chat.say("Ann", f"!start {table.code}", "game")
    assert reply is not None and "has begun" in reply.public[0], reply


def test_clear_private_answers_for_what_cannot_be_done() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    code = table.code
    assert "There is no game" in chat.say("Dan", "!target ZZZZZZZZ Ann").private[0]
    assert "not playing in game" in chat.say("Dan", f"!target {code} Ann").private[0]
    assert "Only the host" in chat.say("Ben", f"!start {code}", "game").private[0]
    assert "not in its night" in chat.say("Ben", f"!target {code} Ann").private[0]
    start_dealt(chat, table, "Ann", SEER)
    assert "Nobody is called “Zed”" in chat.say("Ann", f"!target {code} Zed").private[0]
    assert "already sent" not in chat.say("Ann", f"!target {code} Ben").private[0]
    assert "already sent" in chat.say("Ann", f"!target {code} Cat").private[0]
    assert "It is night" in chat.say("Ben", f"!vote {code} Ann").private[0]  # not the vote yet
    assert Table.objects.get(pk=table.pk).phase == "night"
    # The game id may be left out with one game on the go.
    assert "is in" in chat.say("Ben", "!target Ann").private[0]


def test_names_with_spaces_mentions_and_centre_cards() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Mary Jo", "Cat"])
    start_dealt(chat, table, "Ann", TROUBLE)
    reply = chat.say("Ann", f"!target {table.code} @mary jo and Cat")
    assert reply is not None and "is in" in reply.private[0]
    action = Table.objects.get(pk=table.pk).state["actions"]["Ann"]
    assert action["targets"] == ["Mary Jo", "Cat"]
    mention = f"<@{chat.user_id('Ann')}>"
    reply = chat.say("Mary Jo", f"!target {table.code} {mention}")
    assert reply is not None and "is in" in reply.private[0]


def test_quoting_the_moderator_in_the_channel_is_removed() -> None:
    """rules/000 s5c, as the web chat enforces it: the line is deleted and not stored."""
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    start_dealt(chat, table, "Ann", SEER)
    chat.say("Ann", f"!target {table.code} Cat")
    chat.say("Ben", f"!target {table.code} nobody")
    chat.say("Cat", f"!target {table.code} nobody")
    chat.deliver()
    report = next(m for m in chat.inbox["Ann"] if "what you learned" in m).split("\n")[1]
    reply = chat.say("Ann", f"look: {report}", "game")
    assert reply is not None and reply.delete and "own words" in reply.private[0]
    assert not ChatLine.objects.filter(table=table, author="Ann").exists()
    chat.say("Ben", "hello all", "game")  # in their own words: fine
    assert ChatLine.objects.filter(table=table, author="Ben").exists()
    # A non-player talking in the channel is left alone.
    assert chat.say("Zoe", "go Ann!", "game") is None


def test_a_web_seat_linked_by_its_code_plays_from_chat_and_the_web_sees_the_same_reveal() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben"], ruleset="official")
    web = services.seat_join(table=table, name="Wendy")
    browser = new_client()
    browser.get(reverse("rejoin", args=[table.code, web.token]))
    page = browser.get(reverse("table", args=[table.code])).content.decode()
    assert f"!link {table.code} {link_code(web)}" in page  # shown on her page
    reply = chat.say("Wendy", f"!link {table.code} {link_code(web)}", "game")
    assert reply is not None and reply.delete  # a link code is not for the channel
    reply = chat.say("Wendy", f"!link {table.code} {link_code(web)}")
    assert "You play Wendy" in reply.private[0]
    assert (
        "another account" in chat.say("Mallory", f"!link {table.code} {link_code(web)}").private[0]
    )
    assert "not one of" in chat.say("Mallory", f"!link {table.code} abc").private[0]
    start_dealt(chat, table, "Ann", SEER)
    chat.deliver()
    assert any("You are the Werewolf" in m or "Werewolf" in m for m in chat.inbox["Wendy"])
    # Ann and Ben act from chat, Wendy from her web page.
    chat.say("Ann", f"!target {table.code} Wendy")
    chat.say("Ben", f"!target {table.code} Ann")
    answer = browser.post(
        reverse("move", args=[table.code, "action"]), {"no_action": "1"}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200
    assert Table.objects.get(pk=table.pk).phase == "day"
    chat.say("Ann", f"!endday {table.code}", "game")
    chat.say("Ann", f"!vote {table.code} Wendy")
    chat.say("Ben", f"!vote {table.code} Wendy")
    browser.post(
        reverse("move", args=[table.code, "vote"]),
        {"target": str(Seat.objects.get(name="Ann", table=table).pk)},
        HTTP_HX_REQUEST="true",
    )
    assert Table.objects.get(pk=table.pk).stage == "over"
    chat.deliver()
    posted = chat.channels["game"][-1]
    page = browser.get(reverse("table", args=[table.code])).content.decode()
    died = re.search(r"Died: <strong>([^<]*)</strong>", page).group(1)
    assert f"Died: {died}." in posted
    assert re.search(r'class="winners[^"]*"[^>]*>([^<]*)<', page).group(1) in posted


def test_the_relay_owes_until_marked_so_a_restart_loses_nothing() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    start_dealt(chat, table, "Ann", SEER)
    from games.chatbot import relay

    first = relay.pending("fakechat")
    assert relay.pending("fakechat") == first  # a bot that died before sending: all still owed
    relay.sent(first[0])
    assert relay.pending("fakechat") == first[1:]
    chat.deliver()
    assert relay.pending("fakechat") == []
    assert all(link.told for link in SeatLink.objects.filter(seat__table=table))


def test_the_countdown_and_its_warnings_in_the_channel() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    start_dealt(chat, table, "Ann", QUIET)
    for name in ("Ann", "Ben", "Cat"):
        chat.say(name, f"!target {table.code} nobody")
    table.refresh_from_db()
    assert table.phase == "day" and table.deadline is not None
    chat.deliver(now=timezone.now())
    assert f"The day ends {table.deadline.isoformat()}." in chat.channels["game"]
    chat.deliver(now=table.deadline - timedelta(minutes=5, seconds=-5))
    assert chat.channels["game"][-1].startswith("5 minutes left")
    chat.deliver(now=table.deadline - timedelta(minutes=4))
    assert chat.channels["game"][-1].startswith("5 minutes left")  # nothing new
    chat.deliver(now=table.deadline - timedelta(seconds=50))
    assert chat.channels["game"][-1].startswith("1 minute left")
    assert len(GameChannel.objects.get(table=table).posted) == 3


def test_letters_hold_only_what_the_seat_may_know() -> None:
    """Every line the bot sends a seat is on that seat's own web page too (or is the bot's own
    instruction): a private message never tells more than the page would."""
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    start_dealt(chat, table, "Ann", ["villager", "seer", "werewolf", "robber", "tanner", "drunk"])
    chat.say("Ben", f"!target {table.code} Cat")
    table.refresh_from_db()
    for phase in ("night", "day"):
        info = table_info(table)
        for seat in table.seats.all():
            browser = new_client()
            browser.get(reverse("rejoin", args=[table.code, seat.token]))
            page = html.unescape(browser.get(reverse("table", args=[table.code])).content.decode())
            for _, text in due(info, seat_info(seat)):
                for line in text.split("\n")[1:]:
                    if "`!" in line or line.startswith(("Players:", "Centre cards:", "You may")):
                        continue
                    assert line in page, (phase, seat.name, line)
        if phase == "night":
            chat.say("Ann", f"!target {table.code}")
            chat.say("Cat", f"!target {table.code} left")
            table.refresh_from_db()
            assert table.phase == "day"


def test_a_secret_command_is_caught_however_it_is_spaced() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    start_dealt(chat, table, "Ann", SEER)
    for text in (
        f"!vote\n{table.code} Ben",
        f"!target\t{table.code} Ben",
        f"! target {table.code}",
    ):
        reply = chat.say("Ann", text, "game")
        assert reply is not None and reply.delete, text
    # Another "!" line from a player at night is the game's chat, which is closed.
    reply = chat.say("Ann", "!lol I am the seer", "game")
    assert reply is not None and reply.delete and "closed" in reply.private[0]


def test_an_edited_message_in_a_games_channel_is_removed() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    reply = commands.edited(chat.sender("Ann"), "now a quote", channel_id="game")
    assert reply is not None and reply.delete and "edited" in reply.private[0]
    assert commands.edited(chat.sender("Zoe"), "just talk", channel_id="game") is None
    reply = commands.edited(chat.sender("Zoe"), f"!vote {table.code} Ann", channel_id="general")
    assert reply is not None and reply.delete


def test_one_channel_carries_one_unfinished_game_at_a_time() -> None:
    chat = FakeChat()
    first = open_game(chat, ["Ann", "Ben", "Cat"])
    reply = chat.say("Dan", "!new", "game")
    assert reply is not None and "already carries game" in reply.private[0]
    assert Table.objects.count() == 1  # nothing was opened
    services.table_cancel(table=first)
    reply = chat.say("Dan", "!new official", "game")
    assert reply is not None and reply.public
    second = Table.objects.exclude(pk=first.pk).get()
    chat.say("Eve", f"!join {second.code}", "game")
    chat.say("Eve", "hello new table", "game")
    assert ChatLine.objects.get(author="Eve").table_id == second.pk


def test_joining_under_another_name_roles_before_the_deal_votes_up_and_ready_answers() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    reply = chat.say("Ann", f"!join {table.code}")
    assert "already have a seat" in reply.private[0]
    reply = chat.say("Ann2", f"!join {table.code} as Ann")
    assert "already at the table" in reply.private[0]
    reply = chat.say("Ann2", f"!join {table.code} as Dora Lee")
    assert reply is not None and "Dora Lee sat down" in reply.private[0]
    assert "not started" in chat.say("Ben", f"!role {table.code}").private[0]
    deck = ["villager", "villager", "werewolf", "villager", "seer", "drunk", "tanner"]
    start_dealt(chat, table, "Ann", deck)
    for name in ("Ann", "Ben", "Cat", "Ann2"):
        chat.say(name, f"!target {table.code} nobody")
    assert Table.objects.get(pk=table.pk).phase == "day"
    assert "says you are ready" in chat.say("Ben", f"!ready {table.code} nope").private[0]
    chat.say("Ann", f"!endday {table.code}", "game")
    chat.deliver()
    reply = chat.say("Ben", f"!vote {table.code} up")
    assert reply is not None and "your vote for" in reply.private[0]
    table.refresh_from_db()
    up = next(line for line in chat.inbox["Ben"] if "Up from you is" in line)
    assert re.search(r"Up from you is ([^(]+) \(", up).group(1) in reply.private[0]


def test_a_picture_in_the_games_chat_is_removed() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"])
    reply = commands.handle(chat.sender("Ann"), "", channel_id="game", attachments=1)
    assert reply is not None and reply.delete and "screenshot" in reply.private[0]
    assert not ChatLine.objects.filter(table=table).exists()
    # Under a command's name too (the screenshot would stay up beside `!help`)...
    reply = commands.handle(chat.sender("Ben"), "!help", channel_id="game", attachments=1)
    assert reply is not None and reply.delete and "screenshot" in reply.private[0]
    # ...but someone who does not play keeps their picture, and a DM's file is nobody's.
    assert commands.handle(chat.sender("Zoe"), "look", channel_id="game", attachments=1) is None
    reply = commands.handle(chat.sender("Ann"), "!help", channel_id=None, attachments=1)
    assert reply is not None and not reply.delete


def test_one_centre_card_is_asked_of_the_lone_werewolf_and_the_drunk() -> None:
    """Issue 40, defect 2: the lone werewolf views one centre card (rules/000 s6b) and the drunk
    takes one (s4): their night letters ask for one, and only the seer's speaks of two."""
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"], ruleset="house")
    start_dealt(chat, table, "Ann", ["seer", "drunk", "werewolf", "villager", "villager", "robber"])
    chat.deliver()
    code = table.code

    def night(name: str) -> str:
        return next(m for m in chat.inbox[name] if m.startswith(f"**Game {code}, tonight:**"))

    for name in ("Ben", "Cat"):
        assert f"Send `!target {code} <one centre card>`." in night(name), name
        assert "Centre cards: left, middle, right." in night(name).split("\n"), name
        assert "two of them" not in night(name), name
    seer = night("Ann")
    assert f"Send `!target {code} <one player or two centre cards>`." in seer
    assert "Centre cards: left, middle, right (two of them: `left middle`)." in seer


def test_a_bare_target_explains_the_command_and_sends_nothing() -> None:
    """Issue 40, defect 4: `!target <game>` alone spends no action that has a choice. A role
    that may act may abstain (rules/000 s4), but only by saying so: `!target <game> nobody`;
    the drunk must act (s4); a role with no action sends `!target <game>` alone (s3b)."""
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat", "Dan"], ruleset="house")
    deck = ["robber", "troublemaker", "drunk", "villager", "werewolf", "seer", "villager"]
    start_dealt(chat, table, "Ann", deck)
    chat.deliver()
    code = table.code
    version = Table.objects.get(pk=table.pk).version
    for name, how in (
        ("Ann", f"Send `!target {code} <one player>`."),
        ("Ben", f"Send `!target {code} <player>, <player>` with the two players."),
        ("Cat", f"Send `!target {code} <one centre card>`."),
    ):
        answer = chat.say(name, f"!target {code}").private[0]
        assert answer.startswith(f"Game {code}: nothing was sent."), (name, answer)
        assert how in answer.split("\n"), (name, answer)
    assert f"Or send `!target {code} nobody` for no action." in chat.last("Ann")
    assert "nobody" not in chat.last("Cat")  # the drunk has no such choice
    answer = chat.say("Cat", f"!target {code} nobody").private[0]
    assert answer.startswith(f"Game {code}: nothing was sent. Your role must act tonight")
    table.refresh_from_db()
    assert table.version == version and not table.state.get("actions")
    # The letters say how to send no action.
    assert f"Or send `!target {code} nobody` for no action." in "\n".join(chat.inbox["Ben"])
    assert "`!target <game id> nobody` is no action" in chat.say("Ann", "!help").private[0]
    # A role with nothing to do still sends `!target <game>` alone (rules/000 s3b).
    assert "Your action is in: no action." in chat.say("Dan", f"!target {code}").private[0]
    assert "Your action is in: no action." in chat.say("Ann", f"!target {code} nobody").private[0]
    assert "is in" in chat.say("Ben", f"!target {code} no action").private[0]
    assert "Your action is in." in chat.say("Cat", f"!target {code} left").private[0]
    table.refresh_from_db()
    assert table.phase == "day"
    actions = table.state["actions"]
    assert actions["Ann"]["targets"] == actions["Ben"]["targets"] == []


def test_nobody_as_a_players_name_is_not_taken_for_no_action() -> None:
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Nobody", "Cat"])
    start_dealt(chat, table, "Ann", SEER)
    answer = chat.say("Ann", f"!target {table.code} nobody").private[0]
    assert "is a player's name" in answer and f"`!target {table.code} @nobody`" in answer
    assert not Table.objects.get(pk=table.pk).state.get("actions")
    assert "is in" in chat.say("Ann", f"!target {table.code} no action").private[0]
    assert "is in" in chat.say("Nobody", f"!target {table.code} @Ann").private[0]
    assert Table.objects.get(pk=table.pk).state["actions"]["Nobody"]["targets"] == ["Ann"]


def test_a_faked_quote_of_anyones_private_message_is_removed() -> None:
    """Issue 40, defect 3; rules/000 s5c: "anything which would reasonably be thought of as a PM
    quote" is refused, whoever's message it copies, dealt or not: here the drunk's role message
    (no drunk is dealt to a player) and a seer's night report (nobody is the seer). Talk in
    one's own words still passes."""
    chat = FakeChat()
    table = open_game(chat, ["Ann", "Ben", "Cat"], ruleset="house")
    start_dealt(chat, table, "Ann", ["villager", "robber", "werewolf", "seer", "villager", "drunk"])
    chat.say("Ben", f"!target {table.code} nobody")
    chat.say("Cat", f"!target {table.code} nobody")
    chat.say("Ann", f"!target {table.code}")
    assert Table.objects.get(pk=table.pk).phase == "day"
    fakes = {
        "Ann": (
            "Tonight you must swap your card with one of the centre cards (left, middle or"
            " right). You will not see the card you get"
        ),
        "Cat": "you looked at Ben's card: it is the Werewolf. Honest!",
        "Ben": "You woke at the end of the night: you are now the Tanner.",
    }
    for name, fake in fakes.items():
        reply = chat.say(name, fake, "game")
        assert reply is not None and reply.delete and "own words" in reply.private[0], name
    assert not ChatLine.objects.filter(table=table, seat__isnull=False).exists()
    fine = (
        "I am the seer",
        "I looked at Ben's card, he is the werewolf",
        "we win if at least one werewolf dies, so vote",
        "I swapped cards with Cat and I am now the tanner",
        "the drunk swaps with a centre card and does not see it",
    )
    for line in fine:
        assert chat.say("Ann", line, "game") is None, line
    assert ChatLine.objects.filter(table=table, author="Ann").count() == len(fine)
