"""The bot's commands, independent of any chat service (issue 29, rules/000 sections 3b-3d).

`handle` takes who wrote, what, and where (a private message or a channel), calls the same table
services as the web pages, and returns a `Reply`: what to say privately, what to say in the
channel, and whether to delete the message (a `!target` or `!vote` written in public would give
the player away). A chat service's adapter (discord_bot.py) only turns its events into these
calls and the replies into its messages. Refusals carry the services' own messages, so a player
on Discord and one on the web hear the same reason.

The bot holds no game's rules: a game's moves by name (One Night's `!target`, `!ready`,
`!endday`, `!vote`), its letters and its help come from its family through the family interface
(games.tables.family.ChatPlay). The bot's own commands open and seat games (seating.py), and
plain text in a game's channel is that game's chat (channel.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.tables import services
from games.tables.family import FamilyError, Said, chat_of, families, family_named, nothing_sent
from games.tables.models import Stage, Table
from games.tables.reads import seat_info, table_info

from . import seating
from .channel import chat, files_refused, played_here
from .finding import account_of, game_over, seated
from .letters import due
from .models import ChatAccount, SeatLink
from .replies import Refused, Reply, Sender, say

__all__ = ["COMMANDS", "PREFIX", "Reply", "Sender", "command_named", "edited", "handle"]

PREFIX = "!"
MENTION = re.compile(r"<@!?(\d+)>")  # a chat service's mention of a member (Discord's form)

# The bot's own lines of `!help`, between the game's lines about itself (and `!new`) and its
# moves.
HELP = (
    gettext_lazy(
        # Translators: the bot's help on Discord. Text in backticks is what a player types: keep
        # the commands (`!join`, `as`...) as they are; what is in angle brackets (<game id>)
        # describes what to type and is translated.
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
)
HELP_END = gettext_lazy("With one game on the go you may leave out its id.")

SECRET_IN_PUBLIC = gettext_lazy(
    # Translators: %(word)s is a command's name (target, vote, link).
    "Send `!%(word)s` to me in a private message: written in the channel it would give you"
    " away. I deleted it and did nothing with it."
)

Command = Callable[[ChatAccount, str, str | None], Reply]


def handle(
    sender: Sender, text: str, *, channel_id: str | None, attachments: int = 0
) -> Reply | None:
    """Answer one message. `channel_id` None is a private message to the bot; `attachments`
    counts its files, images and forwarded messages. None back: the message was neither a
    command nor a game's chat, and the bot stays quiet."""
    text = (text or "").strip()
    private = channel_id is None
    if attachments and channel_id is not None:
        # A file or a forward is removed from a game's chat even under a command's name.
        refused = files_refused(sender, channel_id)
        if refused is not None:
            return refused
    word, rest = _command_word(text)
    command = command_named(word) if word else None
    if command is None:
        # Not one of ours (another bot's, or talk): in a game's channel it is the game's chat.
        return None if channel_id is None else chat(sender, text, channel_id, attachments)
    function, secret = command
    if secret and not private:
        return Reply(private=(str(SECRET_IN_PUBLIC) % {"word": word},), delete=True)
    account = account_of(sender)
    try:
        return function(account, rest, channel_id)
    except (Refused, FamilyError, services.ServiceError) as error:
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
    a quote past the no-quoting rule (rules/000 s5c), a word into a chat closed to the player
    now (the pack by day) or a secret command into the channel: in a game's channel or one of
    its side channels, a player's edited message is removed, with the reason."""
    if channel_id is None:
        return None
    table = played_here(sender, channel_id)
    if table is None:
        word, _rest = _command_word(text)
        command = command_named(word)
        if command is not None and command[1]:
            return Reply(private=(str(SECRET_IN_PUBLIC) % {"word": word},), delete=True)
        return None
    return Reply(
        private=(
            _(
                "I removed the message you edited in game %(code)s's chat: the players on the"
                " web saw it before the edit. Send a new message instead."
            )
            % {"code": table.code},
        ),
        delete=True,
    )


def command_named(word: str) -> tuple[Command, bool] | None:
    """The command `word` names, with whether it is secret (sent by private message only): one
    of the bot's own, or a game's move by name."""
    if word in COMMANDS:
        return COMMANDS[word]
    secret = _moves().get(word)
    return None if secret is None else (partial(_play, word), secret)


def _moves() -> dict[str, bool]:
    """Every game's moves by name; a name secret in one game is secret in all."""
    moves: dict[str, bool] = {}
    for family in families():
        offered = chat_of(family)
        for name, secret in (offered.moves if offered is not None else {}).items():
            moves[name] = moves.get(name, False) or secret
    return moves


# --- Commands ------------------------------------------------------------------------------------


def _help(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    before: list[str] = []
    after: list[str] = []
    for family in families():
        offered = chat_of(family)
        if offered is not None:
            about, moves = offered.help()
            before += about
            after += moves
    lines = [*before, *(str(line) for line in HELP), *after, str(HELP_END)]
    return say("\n".join(lines), private=channel_id is None)


def _role(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    table, seat, _rest = seated(account, rest)
    if table.stage == Stage.LOBBY:
        raise Refused(
            _("Game %(code)s has not started: no cards are dealt yet.") % {"code": table.code}
        )
    texts = [text for _key, text in due(table_info(table), seat_info(seat))]
    if not texts:
        raise Refused(_("Game %(code)s has no cards dealt to you.") % {"code": table.code})
    if table.deadline is not None:
        # A letter's deadline ({when}, which the relay gives the chat service to show its own
        # way), said here in plain words.
        at = _("at %(time)s UTC") % {"time": table.deadline.strftime("%Y-%m-%d %H:%M")}
        texts = [text.replace("{when}", at) for text in texts]
    return Reply(private=tuple(texts))


def _play(name: str, account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    """A game's move by name (One Night's `!target`, `!vote`...): the family reads the words
    into the move the seat's page would post; the table services rule on it as on the web."""
    table, seat, rest = seated(account, rest)
    if table.stage == Stage.OVER:
        raise Refused(game_over(table))  # named, as the bot's other answers name their game
    offered = chat_of(family_named(table.family))
    if offered is None or name not in offered.moves:
        raise Refused(
            _("`!%(word)s` is not a command of game %(code)s.") % {"word": name, "code": table.code}
        )
    said = Said(rest, _mentions(table, rest))
    move = offered.move(table_info(table), seat_info(seat), name, said)
    try:
        services.seat_move(seat=seat, kind=move.kind, fields=move.fields)
    except (FamilyError, services.ServiceError) as error:
        if move.how is None:
            raise
        raise Refused(nothing_sent(table.code, str(error), move.how)) from None
    return say(move.answer, private=channel_id is None or not move.aloud)


def _mentions(table: Table, text: str) -> Mapping[str, int | None]:
    """The mentions of members in `text`, each with the seat its member plays at `table` (None:
    no seat there)."""
    found = {match.group(0): match.group(1) for match in MENTION.finditer(text)}
    if not found:
        return {}
    linked = {
        link.account.user_id: link.seat_id
        for link in SeatLink.objects.filter(seat__table=table).select_related("account")
    }
    return {token: linked.get(user_id) for token, user_id in found.items()}


# name -> (function, secret: must come by private message). A game's moves by name come from
# its family (`command_named`).
COMMANDS: dict[str, tuple[Command, bool]] = {
    "help": (_help, False),
    "games": (seating.games, False),
    "new": (seating.new, False),
    "join": (seating.join, False),
    "start": (seating.start, False),
    "here": (seating.here, False),
    "link": (seating.link_seat, True),
    "role": (_role, False),
}
