"""Multi-night Werewolf by chat (issue 40 item 2): what a chat bot needs of the game, offered
through the family interface (games.tables.family.ChatPlay), so the bot holds none of its rules.

rules/001 plays in "a game thread", with "a private group message" for the werewolves and private
messages with the moderator for the seer and the protector. On a chat service: the game's
channel is the thread (the app's notes), the family's other channels (the pack, the graveyard:
family.py's `channels`) are mirrored by the bot for exactly the seats that may read them, and
each seat's letters (chat_letters.py) come by private message, built from the same view as its
page (panels.view_of). Moves are typed by name, each read into the move the seat's page would
post (seat_moves.py), and each letter that asks for a move offers its taps (`Letter.menus`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.tables.family import (
    ChatMove,
    FamilyError,
    Letter,
    Said,
    SeatInfo,
    TableInfo,
    game_opened,
)
from games.tables.said import NotSeated, UnknownWord, named

from . import chat_letters
from .engine import NOBODY
from .panels import FormView, WerewolfView, view_of

# The words `!new` takes for each ruleset (what a player types: not translated).
RULESET_WORDS = {
    "werewolf": "forum",
    "forum": "forum",
    "oxford": "oxford",
    "classic": "classic",
    "1.7.0": "classic",
}

ABOUT = (
    gettext_lazy(
        # Translators: the bot's help on Discord. Text in backticks is what a player types: keep
        # the commands and their words (`!new`, `forum`, `oxford`, `classic`...) as they are.
        "**Werewolf over several nights**: `!new forum` (rules/001), `!new oxford` (rules/003) or"
        " `!new classic` (rules/004) opens one; the channel is its village, and the bot opens"
        " the pack's and the graveyard's channels."
    ),
)
MOVES_HELP = (
    gettext_lazy(
        "`!night <game id> <player>` sends your night choice privately (`!night <game id> <ability>"
        " <player> <ability> <player>` for several; `nobody` for nothing tonight)."
    ),
    gettext_lazy(
        "`!vote <game id> <player>` votes (the sheriff, in an election); `!ready <game id>` says"
        " you are done (talking, or for tonight); `!use <game id> <ability> <player>` uses a day"
        " ability."
    ),
    gettext_lazy(
        "Oxford: `!accuse <game id> <player>`, `!second <game id>`, `!fist <game id> open` (or"
        " `closed`). `!decide <game id> <player>` when the game waits for you. The host:"
        " `!advance <game id>`, `!smite <game id> <player>`."
    ),
)
# Words a player types for "no one" (not translated).
NOBODY_WORDS = ("nobody", "none")


class WerewolfChat:
    """Multi-night Werewolf's commands and letters for a chat bot (ChatPlay)."""

    # name -> secret (sent by private message only): the night's choices, the votes where the
    # app keeps them (Oxford's fists are counted only, 003) and a decision on death are private.
    moves: Mapping[str, bool] = {
        "night": True,
        "vote": True,
        "fist": True,
        "decide": True,
        "ready": False,
        "use": False,
        "accuse": False,
        "second": False,
        "advance": False,
        "smite": False,
    }

    def help(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(str(line) for line in ABOUT), tuple(str(line) for line in MOVES_HELP)

    def new_ruleset(self, words: str) -> str:
        wanted = " ".join(words.lower().split())
        if wanted.startswith("werewolf "):
            wanted = wanted[len("werewolf ") :]
        if wanted not in RULESET_WORDS:
            raise FamilyError(
                _("`!new forum`, `!new oxford` or `!new classic` opens a Werewolf game.")
            )
        return RULESET_WORDS[wanted]

    def opened(self, table: TableInfo, host: SeatInfo, rules_address: str) -> str:
        return game_opened(table, host, rules_address)

    def letters(self, table: TableInfo, seat: SeatInfo) -> tuple[Letter, ...]:
        return chat_letters.due(table, seat)

    def channel_letter(self, table: TableInfo) -> str | None:
        return chat_letters.for_the_channel(table)

    def move(self, table: TableInfo, seat: SeatInfo, name: str, said: Said) -> ChatMove:
        if table.stage != "playing" or not table.state or "setup" not in table.state:
            raise FamilyError(_("Game %(code)s is not under way.") % {"code": table.code})
        view = view_of(table, seat)
        code = table.code
        if name == "night":
            return _night(table, view, said)
        if name == "ready":
            return _ready(table, view, said)
        if name == "vote":
            return _vote(table, view, said)
        if name == "use":
            return _use(table, view, said)
        if name == "accuse":
            form = _form(view, "accuse", code)
            target = _one(table, said, form, code)
            answer = _(
                "%(by)s calls for %(player)s's execution in game %(code)s: another player"
                " seconds it with `!second %(code)s`."
            ) % {"by": seat.name, "player": _name(table, target), "code": code}
            return ChatMove("accuse", {"target": [target]}, answer, aloud=True)
        if name == "second":
            answer = _("%(player)s seconds the call in game %(code)s: show your fists.") % {
                "player": seat.name,
                "code": code,
            }
            return ChatMove("second", {}, answer, aloud=True)
        if name == "fist":
            return _fist(table, view, said)
        if name == "decide":
            form = _form(view, "decide", code)
            target = _one(table, said, form, code, nobody=True)
            answer = _("Game %(code)s: your decision is in.") % {"code": code}
            return ChatMove("decide", {"target": [target]}, answer)
        if name == "advance":
            answer = _("The host moved game %(code)s on.") % {"code": code}
            return ChatMove("advance", {}, answer, aloud=True)
        if name == "smite":
            values = _players(table, said)
            if len(values) != 1 or values[0] == NOBODY:
                raise FamilyError(_("Name the player Fate strikes: `!smite %(code)s <player>`."))
            answer = _("Fate strikes in game %(code)s.") % {"code": code}
            return ChatMove("smite", {"target": values}, answer, aloud=True)
        raise FamilyError(_("That can't be done in this game."))


# --- Reading the words ---------------------------------------------------------------------------


def _players(table: TableInfo, said: Said, extra: Mapping[str, str] | None = None) -> list[str]:
    """The seat ids (and extra words' values) a command names, as the page posts them."""
    words = {w: NOBODY for w in NOBODY_WORDS}
    words.update(extra or {})
    try:
        return named(table, said, words)
    except NotSeated as error:
        raise FamilyError(
            _("%(player)s is not playing in game %(code)s.")
            % {"player": error.mention, "code": table.code}
        ) from None
    except UnknownWord as error:
        players = ", ".join(s.name for s in table.seats)
        raise FamilyError(
            _("Nobody is called “%(name)s” in game %(code)s. The players are %(players)s.")
            % {"name": error.word, "code": table.code, "players": players}
        ) from None


def _name(table: TableInfo, value: str) -> str:
    if value == NOBODY:
        return _("nobody")
    seat = table.seat(int(value)) if value.isdigit() else None
    return seat.name if seat is not None else value


def _form(view: WerewolfView, kind: str, code: str) -> FormView:
    form = next((f for f in (*view.night, *view.forms) if f.kind == kind), None)
    if form is None:
        raise FamilyError(_("Game %(code)s does not ask that of you now.") % {"code": code})
    return form


def _one(table: TableInfo, said: Said, form: FormView, code: str, *, nobody: bool = False) -> str:
    """The one player (or nobody, where the form has it) a command names."""
    values = _players(table, said)
    allowed = {o.value for o in form.options}
    if len(values) != 1 or (values[0] == NOBODY and not (nobody or NOBODY in allowed)):
        raise FamilyError(
            _("Name one of: %(choices)s.")
            % {"choices": ", ".join(o.label for o in form.options) or _("nobody")}
        )
    return values[0]


def _night(table: TableInfo, view: WerewolfView, said: Said) -> ChatMove:
    """The night's choices (every night ability of the role at once, as the page's form):
    `<player>` for a role with one, `<ability> <player> ...` for several, `nobody` for none.
    They replace earlier ones until the night ends (seat_moves._night)."""
    code = table.code
    if not view.night:
        raise FamilyError(
            _("You have no night choice to make in game %(code)s now.") % {"code": code}
        )
    keys = {f.key: f"key:{f.key}" for f in view.night}
    values = _players(table, Said(said.text, said.mentions), keys)
    if not values:
        raise FamilyError(chat_letters.night_how(view, code))
    fields: dict[str, list[str]] = {}
    if values != [NOBODY]:
        aimed = [f for f in view.night if f.key != "save"]
        current = aimed[0].key if len(aimed) == 1 else None
        for value in values:
            if value.startswith("key:"):
                current = value[4:]
                if current == "save":
                    fields["save"] = ["yes"]
                continue
            if current is None or current == "save":
                raise FamilyError(chat_letters.night_how(view, code))
            form = next(f for f in view.night if f.key == current)
            if value == NOBODY and all(o.value != NOBODY for o in form.options):
                fields.pop(current, None)  # the page's "nobody tonight": nothing for it
                continue
            fields[current] = [value]
    chosen = [
        f"{chat_letters.title(f)} → {_name(table, fields[f.key][0]) if f.key != 'save' else '✓'}"
        for f in view.night
        if f.key in fields
    ]
    answer = _(
        "Game %(code)s: your choices for tonight are in: %(choices)s. You may change them until"
        " the night ends."
    ) % {"code": code, "choices": ", ".join(chosen) or _("nothing tonight")}
    return ChatMove("night", fields, answer, how=(chat_letters.night_how(view, code),))


def _ready(table: TableInfo, view: WerewolfView, said: Said) -> ChatMove:
    word = said.text.strip().lower()
    if word not in ("", "yes", "no"):
        raise FamilyError(
            _("`!ready %(code)s` says you are done; `!ready %(code)s no` not.")
            % {"code": table.code}
        )
    ready = "no" if word == "no" else "yes"
    if ready == "yes":
        answer = _("Game %(code)s: you are done for now.") % {"code": table.code}
    else:
        answer = _("Game %(code)s: you are not done after all.") % {"code": table.code}
    return ChatMove("ready", {"ready": [ready]}, answer)


def _vote(table: TableInfo, view: WerewolfView, said: Said) -> ChatMove:
    code = table.code
    sheriff = next((f for f in view.forms if f.kind == "sheriff_vote"), None)
    form = sheriff or _form(view, "vote", code)
    target = _one(table, said, form, code)
    answer = _("Game %(code)s: your vote for %(player)s is in; you may change it until it closes.")
    fields: Mapping[str, Sequence[str]] = {"target": [target]}
    kind = "sheriff_vote" if sheriff is not None else "vote"
    return ChatMove(kind, fields, answer % {"code": code, "player": _name(table, target)})


def _use(table: TableInfo, view: WerewolfView, said: Said) -> ChatMove:
    """A day ability by its key (`!use <game id> duel Ann`), said in the open (its use is
    announced to the village)."""
    code = table.code
    day = [f for f in view.forms if f.kind == "day"]
    keys = {f.key: f"key:{f.key}" for f in day}
    first = said.text.split(" ", 1)[0].lower()
    if len(day) != 1 and first not in keys:
        abilities = ", ".join(f.key for f in day)
        raise FamilyError(
            _("You can't use “%(word)s” now; your day abilities now: %(abilities)s.")
            % {"word": first, "abilities": abilities or _("none")}
        )
    values = _players(table, said, keys)
    key = values[0][4:] if values and values[0].startswith("key:") else None
    if key is None and len(day) == 1:
        key, values = day[0].key, ["", *values]
    form = next((f for f in day if f.key == key), None)
    if form is None:
        abilities = ", ".join(f.key for f in day)
        raise FamilyError(
            _("Name your ability: %(abilities)s.") % {"abilities": abilities}
            if day
            else _("You have no day ability to use in game %(code)s now.") % {"code": code}
        )
    targets = values[1:]
    fields: dict[str, list[str]] = {"ability": [form.key]}
    if targets:
        fields["target"] = targets[:1]
    answer = _("%(player)s uses %(ability)s in game %(code)s.") % {
        "player": view.me.name if view.me else "",
        "ability": chat_letters.title(form),
        "code": code,
    }
    return ChatMove("ability", fields, answer, aloud=True)


def _fist(table: TableInfo, view: WerewolfView, said: Said) -> ChatMove:
    """rules/003: an open fist executes, a closed one acquits; counted, never shown."""
    code = table.code
    _form(view, "call_vote", code)
    word = said.text.strip().lower()
    if word not in ("open", "closed", "yes", "no"):
        raise FamilyError(
            _("`!fist %(code)s open` to execute, `!fist %(code)s closed` to acquit.")
            % {"code": code}
        )
    yes = "yes" if word in ("open", "yes") else "no"
    answer = _("Game %(code)s: your fist is shown.") % {"code": code}
    return ChatMove("fist", {"yes": [yes]}, answer)
