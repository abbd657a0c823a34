"""Which game and which seat a command means: the sender's chat account, their seats, the game
named by its id (or their only one on the go). Only games whose family offers a chat bot its
commands (games.tables.family.chat_of) are played here."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from games.tables.family import chat_of, families, family_named
from games.tables.models import Seat, Stage, Table

from .models import ChatAccount, SeatLink
from .replies import Refused, Sender

NEW_FAMILY = "onenight"  # the game a bare `!new` opens: rules/000's bot plays One Night
CODE = re.compile(r"^[A-Za-z0-9]{4,16}$")


def chat_families() -> list[str]:
    """The families whose games the bot plays."""
    return [f.name for f in families() if chat_of(f) is not None]


def playable(table: Table) -> bool:
    """Whether the bot plays `table`'s game."""
    return table.family in chat_families()


def not_playable(table: Table) -> str:
    """Why the bot does not play `table`'s game."""
    return _("Game %(code)s (%(game)s) is not played by chat: play it on its web page.") % {
        "code": table.code,
        "game": family_named(table.family).title,
    }


def game_over(table: Table) -> str:
    return _("Game %(code)s is over.") % {"code": table.code}


def account_of(sender: Sender) -> ChatAccount:
    """The sender's account, its shown name kept up to date."""
    account, created = ChatAccount.objects.get_or_create(
        service=sender.service, user_id=sender.user_id, defaults={"name": sender.name[:64]}
    )
    if not created and sender.name and account.name != sender.name[:64]:
        account.name = sender.name[:64]
        account.save(update_fields=["name"])
    return account


def my_seats(account: ChatAccount, *stages: str) -> list[Seat]:
    """The account's seats in games the bot plays (in `stages`, if given), newest first."""
    links = SeatLink.objects.filter(account=account, seat__table__family__in=chat_families())
    if stages:
        links = links.filter(seat__table__stage__in=stages)
    return [link.seat for link in links.select_related("seat__table").order_by("-seat__table_id")]


def game(account: ChatAccount, rest: str) -> tuple[Table, Seat | None, str]:
    """The game a command names by its id (first word of `rest`), or the sender's only game on
    the go when the id is left out; the sender's seat there; the rest of the command."""
    first, _space, after = rest.partition(" ")
    if first and CODE.match(first):
        table = Table.objects.filter(code=first.upper()).first()
        if table is not None:
            if not playable(table):
                raise Refused(not_playable(table))
            seat = next((s for s in my_seats(account) if s.table_id == table.pk), None)
            return table, seat, after.strip()
    mine = my_seats(account, Stage.LOBBY, Stage.PLAYING)
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


def seated(account: ChatAccount, rest: str) -> tuple[Table, Seat, str]:
    """As `game`, for a command only a player of the game may send."""
    table, seat, rest = game(account, rest)
    if seat is None:
        raise Refused(
            _(
                "You are not playing in game %(code)s. `!join %(code)s` sits you down in its"
                " lobby; `!link` plays a seat you took on the web."
            )
            % {"code": table.code}
        )
    return table, seat, rest


def link(account: ChatAccount, seat: Seat) -> None:
    """Play `seat` from `account` from now on (what it was told starts afresh)."""
    SeatLink.objects.update_or_create(seat=seat, defaults={"account": account, "told": []})
