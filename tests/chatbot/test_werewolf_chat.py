"""Multi-night Werewolf by chat (issue 40 item 2), through the command layer: `!new` picks the
ruleset, each seat's letters come from its page's view (its role, what it learned, the current
call to act with its taps), and whole games of each ruleset are played to their end by taps
chosen at random among those offered: some tap (or the host's `!advance`) always moves the game
on."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games.chatbot import relay
from games.chatbot.letters import due_letters
from games.chatbot.models import SeatLink
from games.families.werewolf.stored import game_of
from games.tables import services
from games.tables.family import FamilyError
from games.tables.models import Table
from games.tables.reads import seat_info, table_info
from tests.chatbot.helpers import FakeChat

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def open_game(chat: FakeChat, words: str) -> Table:
    reply = chat.say("Ann", f"!new {words}", "village")
    assert reply is not None and "Werewolf" in reply.public[0], reply
    table = Table.objects.get()
    for name in NAMES[1:]:
        chat.say(name, f"!join {table.code}", "village")
    chat.say("Ann", f"!start {table.code}", "village")
    return Table.objects.get(pk=table.pk)


def test_new_picks_the_ruleset_and_refuses_words_no_game_takes() -> None:
    chat = FakeChat()
    assert "One Night" in chat.say("Ann", "!new", "a").public[0]  # type: ignore[union-attr]
    reply = chat.say("Ben", "!new oxford", "b")
    # The game named as its pages name it (Family.game_title).
    assert reply is not None and "Werewolf — Oxford rules" in reply.public[0]
    reply = chat.say("Dan", "!new classic", "d")
    assert reply is not None and "Werewolf 1.7.0." in reply.public[0]
    assert Table.objects.get(family="werewolf", ruleset="classic")
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


def test_a_wolf_hears_by_dm_when_a_packmate_sends_or_changes_the_packs_choice() -> None:
    """The pack's page shows its choices as they come; on Discord each packmate is told by DM,
    again at each change, and nobody outside the pack hears of it."""
    chat = FakeChat()
    table = open_game(chat, "forum")
    chat.deliver()
    code = table.code
    game = game_of(table.state)
    wolves = sorted(p for p in game.state.alive if game.setup.roles[p].pack is not None)
    assert len(wolves) >= 2, wolves
    # The first wolf with one choice tonight (`!night <game> <player>`), and a packmate.
    first = next(w for w in wolves if f"`!night {code} <player>`" in "\n".join(chat.inbox[w]))
    second = next(w for w in wolves if w != first)
    prey = [n for n in NAMES if n not in wolves]
    news = f"Game {code}, tonight: the pack so far:"
    for victim in prey[:2]:
        reply = chat.say(first, f"!night {code} {victim}")
        assert reply is not None and "are in" in reply.private[0], reply
        chat.deliver()
        assert chat.last(second).startswith(news) and f"{first} → {victim}" in chat.last(second)
    assert sum(news in m for m in chat.inbox[second]) == 2  # once per change
    assert not any(news in m for m in chat.inbox[first])  # his own choice: answered already
    assert not any(news in m for name in prey for m in chat.inbox[name])


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


def test_a_mixed_game_some_on_the_web_some_by_chat() -> None:
    """Two players sit on the web and play from their pages (the same moves, posted as the
    page posts them); the others by chat. The game ends, and nobody on the web gets a DM."""
    from games.families.werewolf.chat_play import WerewolfChat
    from games.tables.family import Said

    rng = random.Random(3)
    chat = FakeChat()
    reply = chat.say("Ann", "!new classic", "village")
    assert reply is not None
    table = Table.objects.get()
    for name in NAMES[1:6]:
        chat.say(name, f"!join {table.code}", "village")
    web = [services.seat_join(table=table, name=name, phrase="") for name in ("Web1", "Web2")]
    chat.say("Ann", f"!start {table.code}", "village")
    play = WerewolfChat()
    for _turn in range(400):
        table.refresh_from_db()
        if table.stage == "over":
            break
        version = table.version
        for name, commands in sorted(_asks(table).items()):
            chat.say(name, f"!{rng.choice(commands)}")
        for seat in web:  # the web players: their page's choices, as the letters would offer
            seat.refresh_from_db()
            info = table_info(table)
            letter = next(
                (
                    x
                    for x in play.letters(info, seat_info(seat))
                    if x.key.startswith("ask:") and x.menus
                ),
                None,
            )
            if letter is None:
                continue
            command = rng.choice([t.command for menu in letter.menus for t in menu])
            parts = command.split(" ", 2)
            words = parts[2] if len(parts) > 2 else ""
            try:
                move = play.move(info, seat_info(seat), parts[0], Said(words))
                services.seat_move(seat=seat, kind=move.kind, fields=move.fields)
            except (FamilyError, services.ServiceError):
                pass  # a page drawn before another's move (a death): chosen again next turn
            table.refresh_from_db()
        table.refresh_from_db()
        if table.version == version:
            chat.say("Ann", f"!advance {table.code}", "village")
            table.refresh_from_db()
        assert table.version > version or table.stage == "over"
        chat.deliver()
    assert table.stage == "over"
    assert "Web1" not in chat.inbox and "Web2" not in chat.inbox


def test_nobody_tonight_for_an_ability_that_must_name_a_player_is_no_choice() -> None:
    """The menu's "Nobody" on the seer's investigation is the page's "nobody tonight" (no
    choice for it), not a target the engine refuses."""
    chat = FakeChat()
    table = open_game(chat, "forum")
    chat.deliver()
    seer = next(n for n in NAMES if "you are the Seer" in "\n".join(chat.inbox[n]))
    reply = chat.say(seer, f"!night {table.code} see nobody")
    assert (
        reply is not None and "your choices for tonight are in: nothing tonight" in reply.private[0]
    )
    reply = chat.say(seer, f"!use {table.code} explode")
    assert reply is not None and "You can't use “explode” now" in reply.private[0]


def test_role_sends_the_letters_again_with_the_deadline_in_words() -> None:
    chat = FakeChat()
    table = open_game(chat, "forum")
    reply = chat.say("Ben", f"!role {table.code}")
    assert reply is not None
    text = "\n".join(reply.private)
    assert f"**Game {table.code}: you are the" in text
    assert "{when}" not in text and "UTC" in text


def test_each_steps_countdown_in_the_channel_says_what_it_ends() -> None:
    """The village's countdown names the step the deadline ends, in the family's words
    (Family.clock_sentence): 1.7.0's sheriff election and vote are not "the day"."""
    chat = FakeChat()
    table = open_game(chat, "classic")
    chat.deliver()
    assert table.deadline is not None
    assert f"Night 1 ends {table.deadline.isoformat()}." in chat.channels["village"]
    chat.say("Ann", f"!advance {table.code}", "village")  # the night's defaults
    table.refresh_from_db()
    assert table.phase_label == "Day 1: sheriff election" and table.deadline is not None
    chat.deliver()
    assert chat.channels["village"][-1] == (
        f"The sheriff election ends {table.deadline.isoformat()}."
    )
    chat.deliver(now=table.deadline - timedelta(seconds=50))
    assert chat.channels["village"][-1] == (
        f"1 minute left. The sheriff election ends {table.deadline.isoformat()}."
    )
    while table.phase_label != "Day 1: vote":
        chat.say("Ann", f"!advance {table.code}", "village")
        table.refresh_from_db()
        assert table.stage == "playing"
    chat.deliver()
    assert table.deadline is not None
    assert chat.channels["village"][-1] == f"The vote ends {table.deadline.isoformat()}."
    assert not any("The day ends" in post for post in chat.channels["village"])


def test_the_witch_hears_tonights_victim_with_the_antidote_once_the_pack_has_chosen() -> None:
    """004 III: the witch learns the pack's victim and may save them. Her call to act went out
    at nightfall ("nobody yet", no antidote to tap); once the pack has chosen she gets it again
    with the victim and the antidote's tap (the letter's key had not changed, so she never
    did: found by the whole games tapping the buttons actually sent)."""
    chat = FakeChat()
    chat.say("Ann", "!new classic", "village")
    table = Table.objects.get()
    for name in NAMES[1:]:
        chat.say(name, f"!join {table.code}", "village")
    roles = {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 3}
    Table.objects.filter(pk=table.pk).update(options={**table.options, "roles": roles})
    chat.say("Ann", f"!start {table.code}", "village")
    table.refresh_from_db()
    chat.deliver()
    dealt = {n: "\n".join(chat.inbox[n]) for n in NAMES}
    witch = next(n for n in NAMES if "you are the Witch" in dealt[n])
    wolves = [n for n in NAMES if "you are the Werewolf" in dealt[n]]
    assert "Tonight's victim: nobody yet." in dealt[witch]
    victim = next(n for n in NAMES if n != witch and n not in wolves)
    for wolf in wolves:
        command = next(c for c in _asks(table)[wolf] if c.endswith(f" {victim}"))
        chat.say(wolf, f"!{command}")
    owed = [o for o in relay.pending("fakechat") if o.to == chat.user_id(witch)]
    taps = [tap.command for item in owed for menu in item.menus for tap in menu]
    assert f"night {table.code} save" in taps
    chat.deliver()
    assert f"Tonight's victim: {victim}." in chat.last(witch)


def test_a_night_choice_the_game_refuses_says_nothing_was_sent_and_how_to_send() -> None:
    """A name the night's form does not offer (the seer naming herself) is refused by the game as
    the page would refuse it; the answer reads like the bot's own refusals: nothing was sent,
    why, and the night's choices with their command."""
    chat = FakeChat()
    table = open_game(chat, "forum")
    chat.deliver()
    code = table.code
    version = Table.objects.get(pk=table.pk).version
    seer = next(n for n in NAMES if "you are the Seer" in "\n".join(chat.inbox[n]))
    reply = chat.say(seer, f"!night {code} {seer}")
    assert reply is not None
    answer = reply.private[0]
    assert answer.startswith(f"Game {code}: nothing was sent. "), answer
    assert f"Send `!night {code} <player>`." in answer.split("\n"), answer
    assert Table.objects.get(pk=table.pk).version == version
