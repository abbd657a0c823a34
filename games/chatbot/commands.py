"""The bot's commands, independent of any chat service (issue 29, rules/000 sections 3b-3d).

`handle` takes who wrote, what, and where (a private message or a channel), calls the same table
services as the web pages, and returns a `Reply`: what to say privately, what to say in the
channel, and whether to delete the message (a `!target` or `!vote` written in public would give
the player away). A chat service's adapter (discord_bot.py) only turns its events into these
calls and the replies into its messages. Refusals carry the services' own messages, so a player
on Discord and one on the web hear the same reason.

Plain text in a game's channel is that game's chat: `handle` posts it as the player's line, with
the web chat's rules (closed at night and during the vote, no quoting: rules/000 s5b, s5c).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.families.onenight.engine import CENTRE_POSITIONS, Ruleset
from games.families.onenight.panels import view_of
from games.tables import services
from games.tables.family import family_named
from games.tables.models import Seat, Stage, Table
from games.tables.reads import seat_info, table_info

from .letters import due
from .linking import seat_for_code
from .models import ChatAccount, GameChannel, SeatLink

FAMILY = "onenight"  # rules/000's bot plays One Night
PREFIX = "!"
CODE = re.compile(r"^[A-Za-z0-9]{4,16}$")
MENTION = re.compile(r"^<@!?(\d+)>$")

# The lines of `!help`, one message.
HELP = (
    gettext_lazy(
        # Translators: the bot's help on Discord. Text in backticks is what a player types: keep
        # the commands (`!new`, `official`, `as`, `no`, `up`, `down`...) as they are; what is in
        # angle brackets (<game id>) describes what to type and is translated.
        "**One Night, by private message** (rules/000). Game ids are the codes the pages show."
    ),
    gettext_lazy(
        "`!new` (or `!new official`) opens a game with you as its host; the channel becomes its"
        " chat."
    ),
    gettext_lazy(
        "`!join <game id>` sits you down (add the rules phrase if the game asks for it, and"
        " `as <name>` to play under another name)."
    ),
    gettext_lazy(
        "`!start <game id>` deals the cards (the host). `!here <game id>` makes this channel the"
        " game's chat (the host)."
    ),
    gettext_lazy(
        "`!link <game id> <code>` plays your web seat from here: the code is on your game page."
    ),
    gettext_lazy(
        "`!games` lists your games. `!role <game id>` sends what the moderator told you again."
    ),
    gettext_lazy(
        "`!target <game id> <targets>` sends your night action, to me privately;"
        " `!target <game id>` alone is no action."
    ),
    gettext_lazy(
        "`!ready <game id>` says you are ready to vote (`!ready <game id> no` takes it back)."
        " `!endday <game id>` ends the day (the host)."
    ),
    gettext_lazy(
        "`!vote <game id> <player>` casts your secret vote, to me privately (`up` and `down`"
        " name your neighbours in the voting circle)."
    ),
    gettext_lazy("With one game on the go you may leave out its id."),
)


SECRET_IN_PUBLIC = gettext_lazy(
    # Translators: %(word)s is a command's name (target, vote, link).
    "Send `!%(word)s` to me in a private message: written in the channel it would give you"
    " away. I deleted it and did nothing with it."
)


@dataclass(frozen=True, slots=True)
class Sender:
    """Who wrote: their chat service, its id for them, and the name they show."""

    service: str
    user_id: str
    name: str


@dataclass(frozen=True, slots=True)
class Reply:
    """What to answer: `private` to the sender alone, `public` in the channel written in, and
    `delete` the sender's message (it was in public and must not stay there)."""

    private: tuple[str, ...] = ()
    public: tuple[str, ...] = ()
    delete: bool = False


class Refused(Exception):
    """A command that cannot be carried out; the message goes to the sender privately."""


def _say(text: str, *, private: bool) -> Reply:
    return Reply(private=(text,)) if private else Reply(public=(text,))


def handle(
    sender: Sender, text: str, *, channel_id: str | None, attachments: int = 0
) -> Reply | None:
    """Answer one message. `channel_id` None is a private message to the bot; `attachments`
    counts its files and images. None back: the message was neither a command nor a game's
    chat, and the bot stays quiet."""
    text = (text or "").strip()
    private = channel_id is None
    word, rest = _command_word(text)
    command = COMMANDS.get(word) if word else None
    if command is None:
        # Not one of ours (another bot's, or talk): in a game's channel it is the game's chat.
        return None if private else _chat(sender, text, channel_id, attachments)
    function, secret = command
    if secret and not private:
        return Reply(private=(str(SECRET_IN_PUBLIC) % {"word": word},), delete=True)
    account = _account(sender)
    try:
        return function(account, rest, channel_id)
    except Refused as error:
        return Reply(private=(str(error),))
    except services.ServiceError as error:
        return Reply(private=(str(error),))


def _command_word(text: str) -> tuple[str, str]:
    """The command a message starts with (lower case, "" if none) and the rest, whatever the
    spacing: "!vote X", "! vote X" and "!vote" followed by a new line all name `vote`."""
    if not text.startswith(PREFIX):
        return "", text
    parts = text[len(PREFIX) :].strip().split(maxsplit=1)
    if not parts:
        return "", text
    return parts[0].lower(), " ".join(parts[1].split()) if len(parts) > 1 else ""


def edited(sender: Sender, text: str, *, channel_id: str | None) -> Reply | None:
    """A message edited after it was sent. The web chat has no editing, and an edit could slip
    a quote past the no-quoting rule (rules/000 s5c) or a secret command into the channel: in a
    game's channel, a player's edited message is removed, with the reason."""
    if channel_id is None:
        return None
    game = _live_game_in(sender.service, channel_id)
    if game is None or _player_link(game, sender) is None:
        word, _rest = _command_word(text)
        command = COMMANDS.get(word)
        if command is not None and command[1]:
            return Reply(private=(str(SECRET_IN_PUBLIC) % {"word": word},), delete=True)
        return None
    return Reply(
        private=(
            _(
                "I removed the message you edited in game %(code)s's chat: the players on the"
                " web saw it before the edit. Send a new message instead."
            )
            % {"code": game.table.code},
        ),
        delete=True,
    )


# --- Helpers -------------------------------------------------------------------------------------


def _account(sender: Sender) -> ChatAccount:
    account, created = ChatAccount.objects.get_or_create(
        service=sender.service, user_id=sender.user_id, defaults={"name": sender.name[:64]}
    )
    if not created and sender.name and account.name != sender.name[:64]:
        account.name = sender.name[:64]
        account.save(update_fields=["name"])
    return account


def _my_seats(account: ChatAccount, *stages: str) -> list[Seat]:
    links = SeatLink.objects.filter(account=account, seat__table__family=FAMILY)
    if stages:
        links = links.filter(seat__table__stage__in=stages)
    return [link.seat for link in links.select_related("seat__table").order_by("-seat__table_id")]


def _game(account: ChatAccount, rest: str) -> tuple[Table, Seat | None, str]:
    """The game a command names by its id (first word of `rest`), or the sender's only game on
    the go when the id is left out; the sender's seat there; the rest of the command."""
    first, _space, after = rest.partition(" ")
    if first and CODE.match(first):
        table = Table.objects.filter(code=first.upper()).first()
        if table is not None:
            if table.family != FAMILY:
                raise Refused(_not_one_night(table))
            seat = next((s for s in _my_seats(account) if s.table_id == table.pk), None)
            return table, seat, after.strip()
    mine = _my_seats(account, Stage.LOBBY, Stage.PLAYING)
    if len(mine) == 1:
        return mine[0].table, mine[0], rest
    if not mine and first and CODE.match(first):
        raise Refused(_("There is no game %(code)s. `!games` lists yours.") % {"code": first})
    if not mine:
        raise Refused(_("Name the game: `!<command> <game id> ...`. `!games` lists yours."))
    codes = ", ".join(s.table.code for s in mine)
    raise Refused(
        _("You are in several games (%(codes)s): put the game id after the command.")
        % {"codes": codes}
    )


def _not_one_night(table: Table) -> str:
    return _("Game %(code)s is not One Night: play it on its web page.") % {"code": table.code}


def _seated(account: ChatAccount, rest: str) -> tuple[Table, Seat, str]:
    table, seat, rest = _game(account, rest)
    if seat is None:
        raise Refused(
            _(
                "You are not playing in game %(code)s. `!join %(code)s` sits you down in its"
                " lobby; `!link` plays a seat you took on the web."
            )
            % {"code": table.code}
        )
    return table, seat, rest


def _link(account: ChatAccount, seat: Seat) -> None:
    SeatLink.objects.update_or_create(seat=seat, defaults={"account": account, "told": []})


def _targets(table: Table, rest: str) -> list[str]:
    """The targets as the web form posts them (seat ids, centre positions) from what the player
    typed: names (any case, with or without @), Discord mentions of linked players, and left,
    middle, right. Names with spaces are read whole: the longest name that fits wins."""
    seats = list(table.seats.all())
    by_name = {s.name.lower(): str(s.pk) for s in seats}
    by_name.update({p: p for p in CENTRE_POSITIONS})
    linked = {
        link.account.user_id: str(link.seat_id)
        for link in SeatLink.objects.filter(seat__table=table).select_related("account")
    }
    words = [w for w in re.split(r"[\s,]+", rest.replace(" and ", " ")) if w]
    values: list[str] = []
    i = 0
    while i < len(words):
        mention = MENTION.match(words[i])
        if mention:
            if mention.group(1) not in linked:
                raise Refused(
                    _("%(player)s is not playing in game %(code)s.")
                    % {"player": words[i], "code": table.code}
                )
            values.append(linked[mention.group(1)])
            i += 1
            continue
        for length in range(len(words) - i, 0, -1):
            candidate = " ".join(words[i : i + length]).lstrip("@").lower()
            if candidate in by_name:
                values.append(by_name[candidate])
                i += length
                break
        else:
            players = ", ".join(s.name for s in seats)
            raise Refused(
                _(
                    # Translators: left, middle and right are what a player types for the centre
                    # cards: keep them as they are.
                    "Nobody is called “%(name)s” in game %(code)s. The players are %(players)s;"
                    " the centre cards are left, middle and right."
                )
                % {"name": words[i].lstrip("@"), "code": table.code, "players": players}
            )
    return values


# --- Commands ------------------------------------------------------------------------------------


def _help(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    return _say("\n".join(str(line) for line in HELP), private=channel_id is None)


def _games(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    lines = []
    for seat in _my_seats(account, Stage.LOBBY, Stage.PLAYING):
        table = seat.table
        lines.append(
            # Translators: a line of `!games`: a game's id, the phase it is in, a player's name.
            _("- %(code)s: %(phase)s, you play as %(name)s")
            % {"code": table.code, "phase": table.phase_label.lower(), "name": seat.name}
        )
    if channel_id is not None:
        here = GameChannel.objects.filter(channel_id=channel_id, table__stage=Stage.LOBBY)
        for game in here.select_related("table"):
            lines.append(
                _("- %(code)s: a lobby in this channel, `!join %(code)s`")
                % {"code": game.table.code}
            )
    if not lines:
        lines = [_("You are in no game. `!new` opens one; `!join <game id>` sits you down.")]
    return Reply(private=(_("Your games:\n%(games)s") % {"games": "\n".join(lines)},))


def _channel_for(table: Table, account: ChatAccount, channel_id: str) -> None:
    """Make `channel_id` carry `table`'s chat, unless it carries another unfinished game."""
    other = (
        GameChannel.objects.filter(service=account.service, channel_id=channel_id)
        .exclude(table=table)
        .exclude(table__stage__in=(Stage.OVER, Stage.CANCELLED))
        .select_related("table")
        .first()
    )
    if other is not None:
        raise Refused(
            _(
                "This channel already carries game %(code)s, which is not over: use another"
                " channel (or open the game by private message and `!here` it elsewhere)."
            )
            % {"code": other.table.code}
        )
    # Games that ended here earlier stop being relayed: the channel carries this one now.
    GameChannel.objects.filter(service=account.service, channel_id=channel_id).exclude(
        table=table
    ).update(done=True)
    GameChannel.objects.update_or_create(
        table=table,
        defaults={"service": account.service, "channel_id": channel_id},
    )


@transaction.atomic
def _new(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    wanted = rest.lower() or Ruleset.HOUSE.value
    if wanted not in (Ruleset.HOUSE.value, Ruleset.OFFICIAL.value):
        raise Refused(
            _("`!new` opens a house-rules game; `!new official` one on the official rules.")
        )
    # Translators: the name a game's host plays under when their chat account shows none.
    host_name = account.name or _("Host")
    seat = services.table_create(family=FAMILY, ruleset=wanted, host_name=host_name)
    table = seat.table
    _link(account, seat)
    if channel_id is not None:
        _channel_for(table, account, channel_id)
    low, high = family_named(FAMILY).seat_limits(wanted)
    rules = family_named(FAMILY).rules_path(wanted)
    site = getattr(settings, "SITE_URL", "")
    text = ngettext(
        "%(host)s opened One Night game **%(code)s** (%(rules)s). Join with `!join %(code)s`;"
        " %(host)s deals with `!start %(code)s` once %(low)d to %(high)d player sit.",
        "%(host)s opened One Night game **%(code)s** (%(rules)s). Join with `!join %(code)s`;"
        " %(host)s deals with `!start %(code)s` once %(low)d to %(high)d players sit.",
        high,
    ) % {
        "host": seat.name,
        "code": table.code,
        "rules": _(str(family_named(FAMILY).rulesets[wanted])),
        "low": low,
        "high": high,
    }
    if table.options.get("rules_phrase"):
        text += " " + _(
            "These rules ask each player for the phrase they hold (rules/000 s5e):"
            " `!join %(code)s <phrase>`."
        ) % {"code": table.code}
    if site:
        text += " " + _("The rules: %(address)s") % {"address": f"{site}{rules}"}
    return _say(text, private=channel_id is None)


def _join(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    """`!join <game id> [rules phrase] [as <name>]`: the name defaults to the one shown on the
    chat service; "as" picks another (one taken, too long, or a centre card's)."""
    first, _space, after = rest.partition(" ")
    phrase, name = after, ""
    spaced = f" {after.lower()}"
    if " as " in spaced:
        cut = spaced.rindex(" as ")  # `after` is `spaced` less its first character
        phrase, name = after[: max(cut - 1, 0)], after[cut + 3 :]
    table = Table.objects.filter(code=first.upper()).first() if first else None
    if table is None:
        raise Refused(
            _("Which game? `!join <game id>`: the id is on its page or in `!new`'s answer.")
        )
    if table.family != FAMILY:
        raise Refused(_not_one_night(table))
    if any(s.table_id == table.pk for s in _my_seats(account)):
        raise Refused(_("You already have a seat in game %(code)s.") % {"code": table.code})
    with transaction.atomic():
        # Translators: the name a player plays under when their chat account shows none.
        wanted = name.strip() or account.name or _("Player")
        seat = services.seat_join(table=table, name=wanted, phrase=phrase.strip())
        _link(account, seat)
    count = table.seats.count()
    return _say(
        ngettext(
            "%(player)s sat down in game %(code)s (%(count)d player).",
            "%(player)s sat down in game %(code)s (%(count)d players).",
            count,
        )
        % {"player": seat.name, "code": table.code, "count": count},
        private=channel_id is None,
    )


def _start(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    table, seat, _rest = _seated(account, rest)
    services.table_start(host=seat)
    return _say(
        _(
            "Game %(code)s has begun: your role and your night's instructions are in your"
            " private messages."
        )
        % {"code": table.code},
        private=channel_id is None,
    )


def _here(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    if channel_id is None:
        raise Refused(_("Send `!here <game id>` in the channel that should carry the game's chat."))
    table, seat, _rest = _seated(account, rest)
    if not seat.is_host:
        raise Refused(_("Only the host can choose the game's channel."))
    if table.ended:
        raise Refused(_game_over(table))
    _channel_for(table, account, channel_id)
    return Reply(
        public=(_("This channel now carries game %(code)s's chat.") % {"code": table.code},)
    )


def _game_over(table: Table) -> str:
    return _("Game %(code)s is over.") % {"code": table.code}


def _link_seat(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    first, _space, code = rest.partition(" ")
    table = Table.objects.filter(code=first.upper()).first() if first else None
    if table is None or table.family != FAMILY or not code.strip():
        raise Refused(_("Send the whole command your game page shows: `!link <game id> <code>`."))
    if table.ended:
        raise Refused(_game_over(table))
    seat = seat_for_code(list(table.seats.all()), code)
    if seat is None:
        raise Refused(
            _("That code is not one of game %(code)s's. Copy it from your game page.")
            % {"code": table.code}
        )
    mine = next((s for s in _my_seats(account) if s.table_id == table.pk), None)
    if mine is not None and mine.pk != seat.pk:
        raise Refused(
            _("You already play %(player)s in game %(code)s.")
            % {"player": mine.name, "code": table.code}
        )
    existing = SeatLink.objects.filter(seat=seat).select_related("account").first()
    if existing is not None and existing.account_id != account.pk:
        raise Refused(
            _("%(player)s's seat is already played from another account.") % {"player": seat.name}
        )
    if existing is None:
        _link(account, seat)
    return Reply(
        private=(
            _(
                "You play %(player)s in game %(code)s from here now: I will send you what the"
                " moderator tells you. Your web page keeps working too."
            )
            % {"player": seat.name, "code": table.code},
        )
    )


def _role(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    table, seat, _rest = _seated(account, rest)
    if table.stage == Stage.LOBBY:
        raise Refused(
            _("Game %(code)s has not started: no cards are dealt yet.") % {"code": table.code}
        )
    texts = [text for _key, text in due(table_info(table), seat_info(seat))]
    if not texts:
        raise Refused(_("Game %(code)s has no cards dealt to you.") % {"code": table.code})
    return Reply(private=tuple(texts))


def _move(seat: Seat, kind: str, fields: dict[str, list[str]]) -> None:
    services.seat_move(seat=seat, kind=kind, fields=fields)


def _target(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    table, seat, rest = _seated(account, rest)
    if table.stage != Stage.PLAYING or table.phase != "night":
        raise Refused(
            _("Game %(code)s is not in its night: night actions are closed.") % {"code": table.code}
        )
    view = view_of(table_info(table), seat_info(seat))
    form = view.action_form
    if form is None:
        raise Refused(_("You already sent your night action; it is final."))
    values = _targets(table, rest)
    if not values:
        _move(seat, "action", {"no_action": ["1"]})
        if form.kind == "copy":
            done = _(
                "Game %(code)s: You copied nobody. The night ends when everyone has sent theirs."
            )
        else:
            done = _(
                "Game %(code)s: Your action is in: no action. The night ends when everyone has"
                " sent theirs."
            )
    elif form.kind == "copy":
        _move(seat, "copy", {"targets": values})
        done = _("Game %(code)s: Your choice is in. The night ends when everyone has sent theirs.")
    else:
        _move(seat, "action", {"targets": values})
        done = _("Game %(code)s: Your action is in. The night ends when everyone has sent theirs.")
    return Reply(private=(done % {"code": table.code},))


def _ready(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    table, seat, rest = _seated(account, rest)
    answer = rest.strip().lower()
    if answer not in ("", "yes", "no"):
        raise Refused(
            # Translators: `no` is what a player types: keep it as it is.
            _("`!ready %(code)s` says you are ready; `!ready %(code)s no` not.")
            % {"code": table.code}
        )
    wants = answer or "yes"
    _move(seat, "ready", {"ready": [wants]})
    if wants == "yes":
        text = _("%(player)s is ready to vote in game %(code)s.") % {
            "player": seat.name,
            "code": table.code,
        }
    else:
        text = _("%(player)s is not ready to vote after all.") % {"player": seat.name}
    return _say(text, private=channel_id is None)


def _end_day(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    table, seat, _rest = _seated(account, rest)
    _move(seat, "end_day", {})
    return _say(
        _("The host ended the day of game %(code)s: time to vote.") % {"code": table.code},
        private=channel_id is None,
    )


def _vote(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    table, seat, rest = _seated(account, rest)
    word = rest.strip().lower()
    if word in ("up", "down") and table.phase == "voting":
        # rules/000 s6a: the voting ring's neighbours, as the vote letter names them.
        view = view_of(table_info(table), seat_info(seat))
        neighbour = view.vote_up if word == "up" else view.vote_down
        values = [str(neighbour.id)] if neighbour is not None else []
    else:
        values = _targets(table, rest)
    if len(values) != 1 or not values[0].isdigit():
        raise Refused(_("Vote for one player: `!vote %(code)s <player>`.") % {"code": table.code})
    _move(seat, "vote", {"target": values})
    name = Seat.objects.get(pk=int(values[0])).name
    return Reply(
        private=(
            _("Game %(code)s: your vote for %(player)s is in. Votes are final.")
            % {"code": table.code, "player": name},
        )
    )


def _live_game_in(service: str, channel_id: str) -> GameChannel | None:
    """The game a channel carries now: its unfinished one, else the last that ended."""
    games = GameChannel.objects.filter(service=service, channel_id=channel_id)
    games = games.select_related("table").order_by("-table_id")
    live = games.exclude(table__stage__in=(Stage.OVER, Stage.CANCELLED)).first()
    return live or games.first()


def _player_link(game: GameChannel, sender: Sender) -> SeatLink | None:
    return (
        SeatLink.objects.filter(
            seat__table=game.table,
            account__service=sender.service,
            account__user_id=sender.user_id,
        )
        .select_related("seat")
        .first()
    )


def _chat(sender: Sender, text: str, channel_id: str, attachments: int = 0) -> Reply | None:
    """A line in a game's channel, from one of its players: the game's chat, as on the web.
    Once the game has ended, lines the chat takes are passed on and others left alone (the
    channel goes back to being an ordinary channel)."""
    game = _live_game_in(sender.service, channel_id)
    if game is None or game.table.stage == Stage.CANCELLED:
        return None
    link = _player_link(game, sender)
    if link is None:
        return None  # not a player of this game: the bot leaves the channel's talk alone
    over = game.table.stage == Stage.OVER
    if attachments and not over:
        return Reply(
            private=(
                _(
                    "I removed your message from game %(code)s's chat: files and pictures are not"
                    " allowed there (a screenshot would quote the moderator, rules/000 s5c). Say"
                    " it in your own words."
                )
                % {"code": game.table.code},
            ),
            delete=True,
        )
    if not text:
        return None
    try:
        services.chat_post(seat=link.seat, text=text, via=sender.service)
    except services.ServiceError as error:
        if over:
            return None
        return Reply(
            private=(
                # Translators: %(reason)s is why the game's chat refused the message.
                _("I removed your message from game %(code)s's chat: %(reason)s")
                % {"code": game.table.code, "reason": error},
            ),
            delete=True,
        )
    return None


Command = Callable[[ChatAccount, str, str | None], Reply]
# name -> (function, secret: must come by private message)
COMMANDS: dict[str, tuple[Command, bool]] = {
    "help": (_help, False),
    "games": (_games, False),
    "new": (_new, False),
    "join": (_join, False),
    "start": (_start, False),
    "here": (_here, False),
    "link": (_link_seat, True),
    "role": (_role, False),
    "target": (_target, True),
    "ready": (_ready, False),
    "endday": (_end_day, False),
    "vote": (_vote, True),
}
