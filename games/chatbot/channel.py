"""A game's channel on the chat service: plain text there is the game's chat, with the web
chat's rules (closed at night and during the vote, no quoting: rules/000 s5b, s5c)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.tables import services
from games.tables.models import Stage, Table

from .models import GameChannel, SeatLink, SideChannel
from .replies import Reply, Sender
from .rooms import side_channel


def live_game_in(service: str, channel_id: str) -> GameChannel | None:
    """The game a channel carries now: its unfinished one, else the last that ended."""
    games = GameChannel.objects.filter(service=service, channel_id=channel_id)
    games = games.select_related("table").order_by("-table_id")
    live = games.exclude(table__stage__in=(Stage.OVER, Stage.CANCELLED)).first()
    return live or games.first()


def player_link(game: GameChannel, sender: Sender) -> SeatLink | None:
    """The sender's seat in the channel's game, if they play in it."""
    return (
        SeatLink.objects.filter(
            seat__table=game.table,
            account__service=sender.service,
            account__user_id=sender.user_id,
        )
        .select_related("seat")
        .first()
    )


def _no_files(code: str) -> Reply:
    """A file, a picture or a forwarded message in a game's chat, removed with the reason: the
    web's chat takes none (both sides must read the same chat), and one could carry a private
    message word for word (rules/000 s5c names screenshots)."""
    return Reply(
        private=(
            _(
                "I removed your message from game %(code)s's chat: files, pictures and forwarded"
                " messages are not allowed there (the players on the web cannot see them, and a"
                " screenshot or a forward could show a private message). Say it in your own"
                " words."
            )
            % {"code": code},
        ),
        delete=True,
    )


def played_here(sender: Sender, channel_id: str) -> Table | None:
    """The game whose chat this channel is (its own channel, or a side channel of its: the
    pack, the graveyard), if the sender plays in that game; else None."""
    game = live_game_in(sender.service, channel_id)
    if game is not None:
        return game.table if player_link(game, sender) is not None else None
    side = side_channel(sender.service, channel_id)
    if side is None or _side_link(side, sender) is None:
        return None
    return side.table


def files_refused(sender: Sender, channel_id: str) -> Reply | None:
    """A message carrying files, pictures or a forward, written in a game's chat by one of its
    players while the game is on (whatever its text: a command too), is removed with the
    reason; None if it is not (the bot leaves others' messages, and the channels once the game
    is over, alone)."""
    table = played_here(sender, channel_id)
    if table is None or table.stage in (Stage.OVER, Stage.CANCELLED):
        return None
    return _no_files(table.code)


def chat(sender: Sender, text: str, channel_id: str, attachments: int = 0) -> Reply | None:
    """A line in a game's channel, from one of its players: the game's chat, as on the web.
    Once the game has ended, lines the chat takes are passed on and others left alone (the
    channel goes back to being an ordinary channel)."""
    game = live_game_in(sender.service, channel_id)
    if game is None:
        return _side_chat(sender, text, channel_id, attachments)
    if game.table.stage == Stage.CANCELLED:
        return None
    link = player_link(game, sender)
    if link is None:
        return None  # not a player of this game: the bot leaves the channel's talk alone
    over = game.table.stage == Stage.OVER
    if not text or attachments:  # files while the game is on: `files_refused`, first
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


def _side_chat(sender: Sender, text: str, channel_id: str, attachments: int) -> Reply | None:
    """A line in one of a game's side channels (the pack, the graveyard: rooms.py): that channel
    of the game's chat, with the same rules as on the web (closed when the family closes it to
    the seat, whatever the chat service's permissions let through)."""
    side = side_channel(sender.service, channel_id)
    if side is None or side.table.stage == Stage.CANCELLED:
        return None
    link = _side_link(side, sender)
    if link is None or not text or attachments:
        return None
    try:
        services.chat_post(seat=link.seat, text=text, channel=side.name, via=sender.service)
    except services.ServiceError as error:
        return Reply(
            private=(
                _("I removed your message from game %(code)s's chat: %(reason)s")
                % {"code": side.table.code, "reason": error},
            ),
            delete=True,
        )
    return None


def _side_link(side: SideChannel, sender: Sender) -> SeatLink | None:
    """The sender's seat in the game of side channel `side`, if they play in it."""
    return (
        SeatLink.objects.filter(
            seat__table=side.table, account__service=sender.service, account__user_id=sender.user_id
        )
        .select_related("seat")
        .first()
    )
