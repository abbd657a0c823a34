"""The commands that open a game, seat its players and give it a channel: `!games`, `!new`,
`!join`, `!start`, `!here` and `!link` (issue 29). The same table services as the web pages;
what is the game's own (its rulesets' words, its announcement) is asked of its family."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.tables import services
from games.tables.family import Family, FamilyError, chat_of, families, family_named
from games.tables.models import Stage, Table
from games.tables.reads import seat_info, table_info

from .finding import NEW_FAMILY, game_over, link, my_seats, not_playable, playable, seated
from .linking import seat_for_code
from .models import ChatAccount, GameChannel, SeatLink
from .replies import Refused, Reply, say


def games(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    """`!games`: the sender's games on the go, and the lobbies of this channel."""
    lines = []
    for seat in my_seats(account, Stage.LOBBY, Stage.PLAYING):
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


def channel_for(table: Table, account: ChatAccount, channel_id: str) -> None:
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


def _new_game(words: str) -> tuple[Family, str]:
    """The family and ruleset `!new <words>` asks for: no words, the bot's first game (One
    Night); else the first family whose chat takes the words (issue 40 item 2)."""
    first = family_named(NEW_FAMILY)
    offered = [first, *(f for f in families() if f is not first and chat_of(f) is not None)]
    refusals = []
    for family in offered if words else [first]:
        chat = chat_of(family)
        assert chat is not None, "the bot's games offer it their commands"
        try:
            return family, chat.new_ruleset(words)
        except FamilyError as error:
            refusals.append(str(error))
    raise Refused(" ".join(refusals))


@transaction.atomic
def new(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    """`!new [ruleset]`: a lobby with the sender as its host; the channel becomes its chat."""
    family, ruleset = _new_game(rest)
    chat = chat_of(family)
    assert chat is not None
    # Translators: the name a game's host plays under when their chat account shows none.
    host_name = account.name or _("Host")
    seat = services.table_create(family=family.name, ruleset=ruleset, host_name=host_name)
    table = seat.table
    link(account, seat)
    if channel_id is not None:
        channel_for(table, account, channel_id)
    site = getattr(settings, "SITE_URL", "")
    address = f"{site}{family.rules_path(ruleset)}" if site else ""
    text = chat.opened(table_info(table), seat_info(seat), address)
    return say(text, private=channel_id is None)


def join(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
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
    if not playable(table):
        raise Refused(not_playable(table))
    if any(s.table_id == table.pk for s in my_seats(account)):
        raise Refused(_("You already have a seat in game %(code)s.") % {"code": table.code})
    with transaction.atomic():
        # Translators: the name a player plays under when their chat account shows none.
        wanted = name.strip() or account.name or _("Player")
        seat = services.seat_join(table=table, name=wanted, phrase=phrase.strip())
        link(account, seat)
    count = table.seats.count()
    return say(
        ngettext(
            "%(player)s sat down in game %(code)s (%(count)d player).",
            "%(player)s sat down in game %(code)s (%(count)d players).",
            count,
        )
        % {"player": seat.name, "code": table.code, "count": count},
        private=channel_id is None,
    )


def start(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    """`!start <game id>`: the host deals."""
    table, seat, _rest = seated(account, rest)
    services.table_start(host=seat)
    return say(
        _(
            "Game %(code)s has begun: your role and your night's instructions are in your"
            " private messages."
        )
        % {"code": table.code},
        private=channel_id is None,
    )


def here(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    """`!here <game id>`: the host makes this channel the game's chat."""
    if channel_id is None:
        raise Refused(_("Send `!here <game id>` in the channel that should carry the game's chat."))
    table, seat, _rest = seated(account, rest)
    if not seat.is_host:
        raise Refused(_("Only the host can choose the game's channel."))
    if table.ended:
        raise Refused(game_over(table))
    channel_for(table, account, channel_id)
    return Reply(
        public=(_("This channel now carries game %(code)s's chat.") % {"code": table.code},)
    )


def link_seat(account: ChatAccount, rest: str, channel_id: str | None) -> Reply:
    """`!link <game id> <code>`: play a seat taken on the web from this account."""
    first, _space, code = rest.partition(" ")
    table = Table.objects.filter(code=first.upper()).first() if first else None
    if table is None or not playable(table) or not code.strip():
        raise Refused(_("Send the whole command your game page shows: `!link <game id> <code>`."))
    if table.ended:
        raise Refused(game_over(table))
    seat = seat_for_code(list(table.seats.all()), code)
    if seat is None:
        raise Refused(
            _("That code is not one of game %(code)s's. Copy it from your game page.")
            % {"code": table.code}
        )
    mine = next((s for s in my_seats(account) if s.table_id == table.pk), None)
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
        link(account, seat)
    return Reply(
        private=(
            _(
                "You play %(player)s in game %(code)s from here now: I will send you what the"
                " moderator tells you. Your web page keeps working too."
            )
            % {"player": seat.name, "code": table.code},
        )
    )
