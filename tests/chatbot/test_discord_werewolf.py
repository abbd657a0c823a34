"""Multi-night Werewolf on Discord, offline, with dpytest's fake Discord (issue 40 item 2): whole
games of each ruleset played by eight members (and watched by a ninth) with the bot, by taps
chosen at random among those each letter offers, sent by DM. After every step each member's
view of the pack's and the graveyard's channels is asserted: the pack read by its living
members only, the graveyard by the dead and the watcher only. A 48-hour step is moved on by the
app's clock while the bot is down, and the bot catches up when it returns."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import discord
import discord.ext.test as dpytest
import pytest
from asgiref.sync import sync_to_async
from discord.ext.test import backend, factories

from games.chatbot import relay, taps
from games.chatbot.discord_bot import WerewolfBot
from games.chatbot.discord_rooms import missing_permissions_text
from games.chatbot.splitting import LIMIT
from games.families.werewolf.engine.abilities import has_now
from games.families.werewolf.stored import game_of
from games.tables import services
from games.tables.family import Tap
from games.tables.models import Table
from tests.chatbot.test_werewolf_chat import _asks

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
WATCHER = "Zoe"


_OVERWRITE = factories.dict_from_overwrite


def _overwrite_as_discord_sends_it(
    target: discord.Member | discord.Role, overwrite: discord.PermissionOverwrite
) -> dict[str, object]:
    """dpytest stores an overwrite's type as "role" or "member"; Discord (and discord.py's
    `permissions_for`) has 0 and 1, so dpytest's channels ignored every member's overwrite."""
    found = _OVERWRITE(target, overwrite)
    role = isinstance(target, discord.Role) or getattr(target, "type", None) is discord.Role
    found["type"] = 0 if role else 1
    return found


async def _edit_channel_permissions(
    http: backend.FakeHttp,
    channel_id: int,
    target_id: int,
    allow_value: int | str,
    deny_value: int | str,
    perm_type: int,
    *,
    reason: str | None = None,
) -> None:
    """dpytest's, but taking the allow and deny values as discord.py 2.7 sends them (text)."""
    locs = backend._get_higher_locs(1)
    channel: discord.TextChannel = locs["self"]
    target = locs["target"]
    assert http.state is not None
    me = channel.guild.get_member(http.state.user.id)
    assert me is not None
    allowed = channel.permissions_for(me)
    if not (allowed.administrator or allowed.manage_permissions):
        raise discord.Forbidden(backend.FakeRequest(403, "missing manage_roles"), "manage_roles")
    pair = discord.PermissionOverwrite.from_pair(
        discord.Permissions(int(allow_value)), discord.Permissions(int(deny_value))
    )
    backend.update_text_channel(channel, target, pair)


@pytest.fixture
async def bot(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[WerewolfBot]:
    monkeypatch.setattr(factories, "dict_from_overwrite", _overwrite_as_discord_sends_it)
    monkeypatch.setattr(backend.FakeHttp, "edit_channel_permissions", _edit_channel_permissions)
    intents = discord.Intents.default()
    intents.message_content = True
    intents.members = True
    client = WerewolfBot(relay_in_background=False, intents=intents)
    await client._async_setup_hook()
    dpytest.configure(client, members=[*PLAYERS, WATCHER])
    guild = dpytest.get_config().guilds[0]
    # What the README asks the server to grant the bot's role.
    granted = discord.Permissions(manage_channels=True, manage_roles=True, manage_messages=True)
    role = backend.make_role("Moderator", guild, permissions=104324161 | granted.value)
    backend.update_member(guild.me, roles=[role])
    yield client
    await dpytest.empty_queue()


class Server:
    """The fake server as its members see it."""

    def __init__(self) -> None:
        config = dpytest.get_config()
        self.guild = config.guilds[0]
        self.village = config.channels[0]
        self.members = {
            name: backend.update_member(member, nick=name)
            for name, member in zip([*PLAYERS, WATCHER], config.members, strict=True)
        }

    async def say(self, name: str, text: str, *, private: bool = False) -> None:
        member = self.members[name]
        channel = await member.create_dm() if private else self.village
        await dpytest.message(text, channel=channel, member=member)

    def room(self, code: str, name: str) -> discord.TextChannel | None:
        slug = f"{code}-{name}".lower()
        return next((c for c in self.guild.text_channels if c.name == slug), None)

    def readers(self, code: str, name: str) -> set[str]:
        channel = self.room(code, name)
        assert channel is not None, f"no {name} channel"
        return {
            who
            for who, member in self.members.items()
            if channel.permissions_for(member).read_messages
        }

    def writers(self, code: str, name: str) -> set[str]:
        channel = self.room(code, name)
        assert channel is not None
        return {
            who
            for who, member in self.members.items()
            if channel.permissions_for(member).send_messages
        }


def _truth(table: Table) -> tuple[set[str], set[str], bool]:
    """From the engine: the living members of the pack, the dead, and whether it is night."""
    game = game_of(table.state)
    state = game.state
    pack = set()
    for player in state.alive:
        role = game.setup.roles[player]
        if (
            role.pack is not None
            and (game.setup.ruleset.name != "classic" or has_now(state, player, role.pack))
        ) or role.name == "dark_villager":
            pack.add(player)
    dead = set(game.setup.players) - set(state.alive)
    return pack, dead, state.phase is not None and state.phase.kind == "night"


async def _open(server: Server, words: str) -> str:
    await server.say("Ann", f"!new {words}")
    code = await sync_to_async(lambda: Table.objects.get().code)()
    for name in PLAYERS[1:]:
        await server.say(name, f"!join {code}")
    await server.say("Ann", f"!start {code}")
    return code


async def _check_rooms(server: Server, code: str) -> None:
    table = await sync_to_async(Table.objects.get)(code=code)
    pack, dead, night = _truth(table)
    if table.stage == "over":
        return
    assert server.readers(code, "graveyard") == dead | {WATCHER}
    assert server.writers(code, "graveyard") == dead
    if server.room(code, "pack") is not None:
        assert server.readers(code, "pack") == pack
        assert server.writers(code, "pack") == (pack if night else set())
    else:
        assert not pack


class Views:
    """The buttons and menus the bot sent with its messages, by channel (dpytest keeps no
    message's components)."""

    def __init__(self, bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sent: dict[int, list[discord.ui.View]] = {}
        post = bot.post

        async def recorded(
            target: discord.abc.Messageable, text: str, *, view: discord.ui.View | None = None
        ) -> discord.Message:
            message = await post(target, text, view=view)
            if view is not None:
                self.sent.setdefault(message.channel.id, []).append(view)
            return message

        monkeypatch.setattr(bot, "post", recorded)

    def tap_for(self, channel_id: int, command: str) -> dict[str, object] | None:
        """The interaction data of a tap on the newest button or menu choice sent in the
        channel that stands for `command`; None if none was sent."""
        for view in reversed(self.sent.get(channel_id, [])):
            for item in view.children:
                if isinstance(item, discord.ui.Button) and item.custom_id == f"tap:{command}":
                    return {"component_type": 2, "custom_id": item.custom_id}
                if isinstance(item, discord.ui.Select):
                    for option in item.options:
                        if option.value == command:
                            return {
                                "component_type": 3,
                                "custom_id": item.custom_id,
                                "values": [command],
                            }
        return None


class TapInteraction:
    """What `on_interaction` reads of a member's tap on one of the bot's components."""

    type = discord.InteractionType.component

    def __init__(self, member: discord.Member, data: dict[str, object]) -> None:
        self.user = member
        self.data = data
        self.said: list[tuple[str, bool]] = []
        self.response = FakeResponse(self.said)
        self.followup = FakeFollowup(self.said)


@pytest.mark.parametrize("ruleset", ["forum", "oxford", "classic"])
async def test_a_whole_game_on_discord(
    bot: WerewolfBot, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half the moves are taps on the buttons and menus the bot sent with each call to act
    (through Discord's interaction event), half typed by DM."""
    rng = random.Random(7)
    server = Server()
    views = Views(bot, monkeypatch)
    dms = {(await m.create_dm()).id: name for name, m in server.members.items()}
    dm_of = {name: channel for channel, name in dms.items()}
    code = await _open(server, ruleset)
    await bot.relay_once()
    await _check_rooms(server, code)
    pack = server.room(code, "pack")
    assert pack is not None
    for _turn in range(300):
        table = await sync_to_async(Table.objects.get)(code=code)
        if table.stage == "over":
            break
        version = table.version
        asks = await sync_to_async(_asks)(table)
        for name, commands in sorted(asks.items()):
            command = rng.choice(commands)
            if rng.random() < 0.5:  # a tap on the letter's buttons or menu...
                data = views.tap_for(dm_of[name], command)
                assert data is not None, f"no button or menu sent to {name} for {command}"
                tap = TapInteraction(server.members[name], data)
                await bot.on_interaction(tap)  # type: ignore[arg-type]
                assert len(tap.said) == 1 and tap.said[0][1]  # answered to the member alone
            else:  # ...or the command typed by DM
                await server.say(name, f"!{command}", private=True)
        table = await sync_to_async(Table.objects.get)(code=code)
        if table.version == version:
            await server.say("Ann", f"!advance {code}")
            table = await sync_to_async(Table.objects.get)(code=code)
        assert table.version > version or table.stage == "over"
        await bot.relay_once()
        await _check_rooms(server, code)
    assert table.stage == "over"
    posts = []
    inbox: dict[str, list[str]] = {name: [] for name in server.members}
    while not dpytest.sent_queue.empty():
        message = await dpytest.sent_queue.get()
        if message.channel == server.village:
            posts.append(message.content)
        elif message.channel.id in dms:
            inbox[dms[message.channel.id]].append(message.content)
    assert any(f"**Game {code}: the end." in p for p in posts)
    for name in PLAYERS:  # each player's letters came by DM, from the role to the end
        assert any(f"**Game {code}: you are the" in text for text in inbox[name]), name
        assert any(f"Game {code} is over" in text for text in inbox[name]), name
    assert inbox[WATCHER] == []  # nothing private for a member who plays no seat


async def test_the_pack_talks_on_discord_and_the_web_and_is_read_after_a_restart(
    bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.chatbot.test_discord_bot import _logs_after

    monkeypatch.setattr(backend.FakeHttp, "logs_from", _logs_after)
    server = Server()
    code = await _open(server, "forum")
    await bot.relay_once()
    table = await sync_to_async(Table.objects.get)(code=code)
    pack, _dead, night = _truth(table)
    assert night and pack
    wolf = sorted(pack)[0]
    room = server.room(code, "pack")
    assert room is not None
    await dpytest.message("the seer worries me", channel=room, member=server.members[wolf])
    lines = await sync_to_async(list)(table.chat_lines.filter(channel="pack"))
    assert [line.text for line in lines] == ["the seer worries me"]
    # A villager cannot read the pack (Discord's permissions) nor write there (the family's).
    villager = next(p for p in PLAYERS if p not in pack)
    assert not room.permissions_for(server.members[villager]).read_messages
    # A wolf playing on the web writes in the pack from the page: the line reaches Discord.
    other = sorted(pack)[1]
    seat = await sync_to_async(table.seats.get)(name=other)
    await sync_to_async(services.chat_post)(seat=seat, text="agreed: the seer", channel="pack")
    await dpytest.empty_queue()
    await bot.relay_once()
    posted = []
    while not dpytest.sent_queue.empty():
        message = dpytest.get_message()
        if message.channel == room:
            posted.append(message.content)
    assert any("agreed: the seer" in text and other in text for text in posted)
    # The bot is down while a wolf writes in the pack: read when it comes back.
    state = backend.get_state()
    state.stop_dispatch()
    backend.make_message("tonight, then", server.members[wolf], room)
    state.start_dispatch()
    assert await bot.catch_up_messages() == 1
    texts = await sync_to_async(
        lambda: list(table.chat_lines.filter(channel="pack").values_list("text", flat=True))
    )()
    assert "tonight, then" in texts


async def test_a_48_hour_step_moves_on_by_the_apps_clock_while_the_bot_is_down(
    bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forum's 48-hour night ends by the app's clock with the bot down; what players sent
    on Discord while it was down (a move by DM, a line in the village) is read when it is
    back, after it has sent the dawn and set the pack's and the graveyard's permissions."""
    from tests.chatbot.test_discord_bot import _logs_after

    monkeypatch.setattr(backend.FakeHttp, "logs_from", _logs_after)
    server = Server()
    code = await _open(server, "forum")
    await bot.relay_once()
    table = await sync_to_async(Table.objects.get)(code=code)
    assert table.deadline is not None
    assert table.deadline - table.started_at >= timedelta(hours=47)  # type: ignore[operator]
    # Six hours before the end the bot reminds those who have not acted, privately.
    late = table.deadline - timedelta(hours=5, minutes=30)
    owed = await sync_to_async(relay.pending)("discord", late)
    reminders = [o for o in owed if o.mark[2].startswith("remind:")]
    assert len(reminders) == len(PLAYERS)
    # The bot is down; the app's clock moves the night on at its deadline.
    moved = await sync_to_async(services.advance_due_tables)(
        now=table.deadline + timedelta(seconds=1)
    )
    assert moved == [code]
    after = await sync_to_async(Table.objects.get)(code=code)
    assert after.phase == "day"
    # Still down: a living player talks in the village, another sends the day's move by DM.
    asks = await sync_to_async(_asks)(after)
    mover, commands = sorted(asks.items())[0]
    talker = next(name for name in sorted(asks) if name != mover)
    state = backend.get_state()
    state.stop_dispatch()
    backend.make_message("who died?", server.members[talker], server.village)
    dm = await server.members[mover].create_dm()
    backend.make_message(f"!{commands[0]}", server.members[mover], dm)
    state.start_dispatch()
    # Back, the bot sends the dawn and sets the channels as the night left them...
    assert await bot.relay_once() > 0
    await _check_rooms(server, code)
    # ...and reads what came while it was away: the move counts and is answered, the line
    # reaches the web.
    await dpytest.empty_queue()
    assert await bot.catch_up_messages() == 2
    moved_on = await sync_to_async(Table.objects.get)(code=code)
    assert moved_on.version > after.version
    assert any(message.channel == dm for message in _drain())
    lines = await sync_to_async(
        lambda: list(moved_on.chat_lines.filter(channel="public").values_list("text", flat=True))
    )()
    assert "who died?" in lines


async def test_missing_permissions_are_said_once_in_the_channel(
    bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40 item 5: without Manage Channels the bot says what to grant, once."""
    server = Server()

    async def refuse(*args: object, **kwargs: object) -> None:
        raise discord.Forbidden(backend.FakeRequest(403, "Missing Permissions"), "no")

    monkeypatch.setattr(discord.Guild, "create_text_channel", refuse)
    code = await _open(server, "forum")
    await bot.relay_once()
    await bot.relay_once()
    said = []
    while not dpytest.sent_queue.empty():
        message = await dpytest.sent_queue.get()
        if message.channel == server.village:
            said.append(message.content)
    assert said.count(missing_permissions_text(code)) == 1
    assert "Manage Channels and Manage Roles" in missing_permissions_text(code)


def test_a_letters_taps_are_buttons_or_a_menu() -> None:
    few = tuple(Tap(n, f"vote ABCD {n}") for n in ("Ann", "Ben"))
    many = tuple(Tap(n, f"night ABCD kill {n}") for n in PLAYERS)
    item = relay.Outgoing(True, "1", "text", ("seat", 1, "ask"), menus=(few, many))
    view = taps.view_for(item)
    assert view is not None
    buttons = [c for c in view.children if isinstance(c, discord.ui.Button)]
    menus = [c for c in view.children if isinstance(c, discord.ui.Select)]
    assert [b.custom_id for b in buttons] == ["tap:vote ABCD Ann", "tap:vote ABCD Ben"]
    assert len(menus) == 1 and menus[0].options[0].value == "night ABCD kill Ann"
    assert taps.command_of({"custom_id": "tap:vote ABCD Ann"}) == "vote ABCD Ann"
    assert taps.command_of({"custom_id": "menu:1", "values": ["night ABCD kill Ben"]}) == (
        "night ABCD kill Ben"
    )
    assert taps.command_of({"custom_id": "someone else's"}) is None


class FakeResponse:
    def __init__(self, said: list[tuple[str, bool]]) -> None:
        self.said = said

    async def send_message(self, text: str, *, ephemeral: bool = False) -> None:
        self.said.append((text, ephemeral))


class FakeFollowup:
    """An interaction's further answers (after the first)."""

    def __init__(self, said: list[tuple[str, bool]]) -> None:
        self.said = said

    async def send(self, text: str, *, ephemeral: bool = False) -> None:
        self.said.append((text, ephemeral))


class FakeInteraction:
    """What a slash command's callback reads of Discord's interaction."""

    def __init__(self, member: discord.Member, channel: discord.abc.Messageable) -> None:
        self.user = member
        self.channel = channel
        self.channel_id = getattr(channel, "id", None)
        self.said: list[tuple[str, bool]] = []
        self.response = FakeResponse(self.said)
        self.followup = FakeFollowup(self.said)


async def _slash(
    bot: WerewolfBot, server: Server, name: str, command: str, game: str = "", words: str = ""
) -> list[tuple[str, bool]]:
    interaction = FakeInteraction(server.members[name], server.village)
    registered = bot.tree.get_command(command)
    assert registered is not None, command
    await registered.callback(interaction, game=game, words=words)  # type: ignore[call-arg, arg-type]
    return interaction.said


async def test_a_whole_game_by_slash_commands(bot: WerewolfBot) -> None:
    """Issue 40 item 3: /new, /join, /start and every move as slash commands, answered to the
    member alone (a secret /night from the channel gives nobody away); the game and the
    players offered as the member types."""
    from games.chatbot import slash

    rng = random.Random(5)
    server = Server()
    await _slash(bot, server, "Ann", "new", words="forum")
    code = await sync_to_async(lambda: Table.objects.get().code)()
    for name in PLAYERS[1:]:
        said = await _slash(bot, server, name, "join", game=code)
        assert said == [("✓", True)]  # the sitting down is said in the channel
    sender = slash.Sender("discord", str(server.members["Ben"].id), "Ben")
    shown = await sync_to_async(slash.game_choices)(sender, "")
    assert [value for _shown, value in shown] == [code]
    assert await sync_to_async(slash.player_choices)(sender, code, "kill g") == [
        ("kill Gus", "kill Gus")
    ]
    await _slash(bot, server, "Ann", "start", game=code)
    for _turn in range(300):
        table = await sync_to_async(Table.objects.get)(code=code)
        if table.stage == "over":
            break
        version = table.version
        for name, commands in sorted((await sync_to_async(_asks)(table)).items()):
            move, _code, *rest = rng.choice(commands).split(" ", 2)
            said = await _slash(bot, server, name, move, game=code, words=" ".join(rest))
            assert all(ephemeral for _text, ephemeral in said)
        table = await sync_to_async(Table.objects.get)(code=code)
        if table.version == version:
            await _slash(bot, server, "Ann", "advance", game=code)
            table = await sync_to_async(Table.objects.get)(code=code)
        assert table.version > version or table.stage == "over"
    assert table.stage == "over"


def _deletions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The contents of the messages the bot deletes from now on."""
    deleted: list[str] = []
    delete = discord.Message.delete

    async def recorded(message: discord.Message, **kwargs: Any) -> None:
        deleted.append(message.content)
        await delete(message, **kwargs)

    monkeypatch.setattr(discord.Message, "delete", recorded)
    return deleted


async def _edit(message: discord.Message, content: str) -> None:
    """Its author edits `message`: Discord's MESSAGE_UPDATE as the gateway sends it."""
    assert message.guild is not None
    data = factories.make_message_dict(
        message.channel,
        message.author,
        id_num=message.id,
        content=content,
        guild_id=message.guild.id,
        edited_timestamp=discord.utils.utcnow().isoformat(),
    )
    if "member" in data:  # as the gateway sends it: with the member's roles
        data["member"].setdefault("roles", [])
    backend.get_state().parse_message_update(data)  # type: ignore[arg-type]
    await dpytest.run_all_events()


async def _forward(member: discord.Member, channel: discord.TextChannel, quoted: str) -> None:
    """`member` forwards a message holding `quoted` into `channel` (Discord's forward: no text
    of its own, the message carried whole as a snapshot)."""
    data = factories.make_message_dict(channel, member, content="", guild_id=channel.guild.id)
    data["message_reference"] = {"type": 1, "channel_id": channel.id, "message_id": 1}
    data["message_snapshots"] = [
        {
            "message": {
                "type": 0,
                "content": quoted,
                "embeds": [],
                "attachments": [],
                "timestamp": discord.utils.utcnow().isoformat(),
                "edited_timestamp": None,
                "flags": 0,
            }
        }
    ]
    backend._cur_config.messages.setdefault(channel.id, []).append(data)  # as make_message does
    backend.get_state().parse_message_create(data)  # type: ignore[arg-type]
    await dpytest.run_all_events()


async def test_edits_files_and_forwards_in_the_pack_and_the_village_are_removed(
    bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """An edit is not seen on the web (and could slip a quote, rules/000 s5c, or a word into a
    chat closed now: the pack by day); a file, a picture or a forwarded message cannot reach
    the web and could show a private message whole. In the game's channel and in its side
    channels, each is removed and its author told why; nothing reaches the web's chat."""
    server = Server()
    code = await _open(server, "forum")
    await bot.relay_once()
    table = await sync_to_async(Table.objects.get)(code=code)
    pack, _dead, night = _truth(table)
    assert night and pack
    wolf = sorted(pack)[0]
    member = server.members[wolf]
    room = server.room(code, "pack")
    assert room is not None
    deleted = _deletions(monkeypatch)
    await dpytest.empty_queue()
    # An edit in the pack: removed, its author told privately.
    first = await dpytest.message("the seer worries me", channel=room, member=member)
    await _edit(first, "the seer worries me; Ben said: you are the Seer")
    assert deleted == ["the seer worries me; Ben said: you are the Seer"]
    dm = await member.create_dm()
    told = [m.content for m in _drain() if m.channel == dm]
    assert any("I removed the message you edited in game" in text for text in told)
    # A file in the pack, and a forwarded message in the pack and in the village.
    note = tmp_path / "role.txt"
    note.write_text("Game: you are the Seer")
    await dpytest.message("look", channel=room, member=member, attachments=[str(note)])
    await _forward(member, room, f"**Game {code}: you are the Werewolf**")
    await _forward(server.members[PLAYERS[1]], server.village, f"**Game {code}: you are the**")
    assert deleted[1:] == ["look", "", ""]
    told = [m.content for m in _drain() if isinstance(m.channel, discord.DMChannel)]
    assert sum("files, pictures and forwarded messages are not allowed" in t for t in told) == 3
    lines = await sync_to_async(
        lambda: list(table.chat_lines.filter(channel="pack").values_list("text", flat=True))
    )()
    assert lines == ["the seer worries me"]
    # Someone who plays no seat edits their talk in the village: left alone.
    talk = await dpytest.message(
        "good luck all", channel=server.village, member=server.members[WATCHER]
    )
    await _edit(talk, "good luck, all")
    assert len(deleted) == 4


def _drain() -> list[discord.Message]:
    found = []
    while not dpytest.sent_queue.empty():
        found.append(dpytest.get_message())
    return found


async def test_a_long_answer_to_a_slash_command_is_split_not_cut(
    bot: WerewolfBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40 item 5: an answer longer than a Discord message (`/role` late in a long game,
    `/help` in a wordier language) comes whole, in parts each Discord takes, all to the member
    alone."""
    from games.chatbot import commands, slash

    server = Server()
    lines = [f"Night {n}: you learned something worth keeping, word for word." for n in range(90)]
    long = commands.Reply(private=("\n".join(lines),))
    monkeypatch.setattr(slash, "run", lambda *args: long)
    said = await _slash(bot, server, "Ann", "role")
    assert len(said) > 1 and all(ephemeral for _text, ephemeral in said)
    assert all(len(text) <= LIMIT for text, _ephemeral in said)
    assert "\n".join(text for text, _ephemeral in said).split("\n") == lines
