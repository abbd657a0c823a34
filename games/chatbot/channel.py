"""A game's channel on the chat service: plain text there is the game's chat, with the web
chat's rules (closed at night and during the vote, no quoting: rules/000 s5b, s5c)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.tables import services
from games.tables.models import Stage

from .models import GameChannel, SeatLink
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


def _side_chat(sender: Sender, text: str, channel_id: str, attachments: int) -> Reply | None:
    """A line in one of a game's side channels (the pack, the graveyard: rooms.py): that channel
    of the game's chat, with the same rules as on the web (closed when the family closes it to
    the seat, whatever the chat service's permissions let through)."""
    side = side_channel(sender.service, channel_id)
    if side is None or side.table.stage == Stage.CANCELLED:
        return None
    link = (
        SeatLink.objects.filter(
            seat__table=side.table, account__service=sender.service, account__user_id=sender.user_id
        )
        .select_related("seat")
        .first()
    )
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
