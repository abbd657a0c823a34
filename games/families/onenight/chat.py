"""One Night by chat (issue 29): what a chat bot needs of the game, offered through the family
interface (games.tables.family.ChatPlay) so that the bot holds none of its rules.

A seat's view as text is letters.py's. Its moves by name are rules/000's commands: `!target
<game id> <players to target>` (s3b) and `!vote <game id> <player>` (s3d), both sent by private
message, with `!ready` and `!endday` for the day (s3c). Each is read into the move the seat's
page would post, and answered in the bot's words. Vampire's cards and the Copycat's two steps
are read by their aim (chat_aims.py; docs/rules.md 8b.3).
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
    nothing_sent,
)
from games.tables.said import NotSeated, UnknownWord, named

from . import chat_aims, letters
from .engine import CENTRE_POSITIONS, Ruleset
from .hold import HELD_MESSAGE
from .panels import ActionForm, view_of

# The game's lines of the bot's `!help`: before the bot's own commands, and its moves after.
ABOUT = (
    gettext_lazy(
        # Translators: the bot's help on Discord. Text in backticks is what a player types: keep
        # the commands (`!new`, `official`, `no`, `up`, `down`...) as they are; what is in angle
        # brackets (<game id>) describes what to type and is translated.
        "**One Night, by private message** (rules/000). Game ids are the codes the pages show."
    ),
    gettext_lazy(
        "`!new` (or `!new official`) opens a game with you as its host; the channel becomes its"
        " chat."
    ),
)
MOVES_HELP = (
    gettext_lazy(
        "`!target <game id> <targets>` sends your night action, to me privately;"
        " `!target <game id> nobody` is no action (`!target <game id>` alone, for a role with"
        " nothing to do)."
    ),
    gettext_lazy(
        # Translators: keep `-`, `marks` and `cards` as they are: they are what a player types.
        "Two-part actions take their names in order: the Count's pick then the Mark of Fear,"
        " the Marksman's card then mark (`-` for none), the Gremlin's `marks` or `cards` then"
        " two players; the Copycat sends a centre card first, then its new card's action. Your"
        " night letter says what your card takes."
    ),
    gettext_lazy(
        "`!ready <game id>` says you are ready to vote (`!ready <game id> no` takes it back)."
        " `!endday <game id>` ends the day (the host)."
    ),
    gettext_lazy(
        "`!vote <game id> <player>` casts your secret vote, to me privately (`up` and `down`"
        " name your neighbours in the voting circle)."
    ),
)
# The centre cards as a player types them: the command's words, not translated.
CENTRE_WORDS = {p: p for p in CENTRE_POSITIONS}


class OneNightChat:
    """One Night's commands and letters for a chat bot (games.tables.family.ChatPlay)."""

    # name -> secret: rules/000 s3b and s3d send the night action and the vote privately.
    moves: Mapping[str, bool] = {"target": True, "ready": False, "endday": False, "vote": True}

    def help(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(str(line) for line in ABOUT), tuple(str(line) for line in MOVES_HELP)

    def new_ruleset(self, words: str) -> str:
        wanted = words.lower() or Ruleset.HOUSE.value
        if wanted not in (Ruleset.HOUSE.value, Ruleset.OFFICIAL.value):
            raise FamilyError(
                _("`!new` opens a house-rules game; `!new official` one on the official rules.")
            )
        return wanted

    def opened(self, table: TableInfo, host: SeatInfo, rules_address: str) -> str:
        phrase = ""
        if table.options.get("rules_phrase"):
            phrase = _(
                "These rules ask each player for the phrase they hold (rules/000 s5e):"
                " `!join %(code)s <phrase>`."
            ) % {"code": table.code}
        return game_opened(table, host, rules_address, phrase)

    def letters(self, table: TableInfo, seat: SeatInfo) -> tuple[Letter, ...]:
        return letters.due(table, seat)

    def channel_letter(self, table: TableInfo) -> str | None:
        return letters.for_the_channel(table)

    def move(self, table: TableInfo, seat: SeatInfo, name: str, said: Said) -> ChatMove:
        if name == "target":
            return _target(table, seat, said)
        if name == "ready":
            return _ready(table, seat, said)
        if name == "endday":
            answer = _("The host ended the day of game %(code)s: time to vote.")
            return ChatMove("end_day", {}, answer % {"code": table.code}, aloud=True)
        if name == "vote":
            return _vote(table, seat, said)
        raise FamilyError(_("That can't be done in this game."))


def _targets(table: TableInfo, said: Said, extra: Mapping[str, str] = CENTRE_WORDS) -> list[str]:
    """The targets as the web form posts them (seat ids, centre positions) from what the player
    typed: names, mentions of players, and left, middle, right (and a step's own `extra`
    words)."""
    try:
        return named(table, said, extra)
    except NotSeated as error:
        raise FamilyError(
            _("%(player)s is not playing in game %(code)s.")
            % {"player": error.mention, "code": table.code}
        ) from None
    except UnknownWord as error:
        players = ", ".join(s.name for s in table.seats)
        raise FamilyError(
            _(
                # Translators: left, middle and right are what a player types for the centre
                # cards: keep them as they are.
                "Nobody is called “%(name)s” in game %(code)s. The players are %(players)s;"
                " the centre cards are left, middle and right."
            )
            % {"name": error.word, "code": table.code, "players": players}
        ) from None


def _target(table: TableInfo, seat: SeatInfo, said: Said) -> ChatMove:
    """rules/000 s3b: the night action (or the Doppelganger's copy, rules/002), by name.

    No action is said, never assumed: `!target <game id> nobody` for a role that may abstain
    (s4: a role that "may" act may abstain; the drunk "must" act), and `!target <game id>`
    alone only for a role with nothing to do ("even if you have no night action, you must
    still submit your action (by targeting no one)", s3b). A bare `!target` from a role with a
    choice, or "nobody" from one that must act, is answered with what to send and changes
    nothing (docs/rules.md)."""
    if table.stage != "playing" or table.phase != "night":
        raise FamilyError(
            _("Game %(code)s is not in its night: night actions are closed.") % {"code": table.code}
        )
    step = chat_aims.step_now(table, seat)
    if step is not None:
        return _aimed(table, said, step)
    view = view_of(table, seat)
    if view.copy_held:
        # docs/rules.md 8a.10: nothing is read for the copied role before its card is shown.
        raise FamilyError(_("Game %(code)s: %(held)s") % {"code": table.code, "held": HELD_MESSAGE})
    form = view.action_form
    if form is None:
        raise FamilyError(_("You already sent your night action; it is final."))
    nobody = _says_nobody(table, said)
    values = [] if nobody else _targets(table, said)
    fields: Mapping[str, Sequence[str]]
    if not values:
        if not nobody and form.kind != "none":
            raise FamilyError(_not_sent(table, form, _("Your night action needs your choice:")))
        if form.kind != "none" and not form.allow_none:
            raise FamilyError(_not_sent(table, form, _("Your role must act tonight:")))
        kind, fields = "action", {"no_action": ["1"]}
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
        kind, fields = "copy", {"targets": values}
        done = _("Game %(code)s: Your choice is in. The night ends when everyone has sent theirs.")
    else:
        kind, fields = "action", {"targets": values}
        done = _("Game %(code)s: Your action is in. The night ends when everyone has sent theirs.")
    # The engine's refusal (two names for one, a card it may not take) reads like the ones
    # above: nothing was sent, why, and the letter's syntax.
    return ChatMove(kind, fields, done % {"code": table.code}, how=_how(table, form))


def _aimed(table: TableInfo, said: Said, step: chat_aims.Step) -> ChatMove:
    """A step read by its aim (docs/rules.md 8b.3): the Copycat's centre card, the vampires'
    pick, the Count's pick then fear, Cupid's lovers, the Marksman's card then mark, the
    Gremlin's word then players, a mark's player. Words that do not fit are answered with what
    to send, and nothing is sent."""
    code = {"code": table.code}
    nobody = _says_nobody(table, said)
    if nobody or not said.text.strip():
        if not nobody:
            raise FamilyError(
                _not_sent_step(table, step, _("Your night action needs your choice:"))
            )
        if not step.may_abstain:
            raise FamilyError(_not_sent_step(table, step, _("Your role must act tonight:")))
        done = _(
            "Game %(code)s: Your action is in: no action. The night ends when everyone has"
            " sent theirs."
        )
        return ChatMove("action", {"no_action": ["1"]}, done % code)
    extra = chat_aims.extra_words(step)
    values: list[str] | None = None
    word = None
    if step.rule.aim == "marks_or_cards":
        values, word = _gremlin(table, said, extra)
    if values is None:
        values = _targets(table, said, extra)
    try:
        targets = chat_aims.targets(step, values, word)
    except chat_aims.Wrong as error:
        raise FamilyError(_not_sent_step(table, step, str(error))) from None
    if step.kind == "copy":
        done = _(
            "Game %(code)s: You looked at the %(position)s card. My next message says what you"
            " are now."
        )
        done %= {**code, "position": targets[0]}
    else:
        done = _("Game %(code)s: Your action is in. The night ends when everyone has sent theirs.")
        done %= code
    kind = "copy" if step.kind == "copy" else "action"
    return ChatMove(kind, {"targets": targets}, done, how=tuple(chat_aims.syntax(step, table.code)))


def _gremlin(
    table: TableInfo, said: Said, extra: Mapping[str, str]
) -> tuple[list[str] | None, str | None]:
    """The Gremlin's leading `marks` or `cards` and the names after it (8b.3). Where a player is
    called so, the word is theirs unless two names follow it."""
    split = chat_aims.gremlin_word(said.text)
    if split is None:
        return None, None
    head, rest = split
    if rest.lower().startswith("and ") and not any(s.name.lower() == "and" for s in table.seats):
        rest = rest[4:]  # "marks and Ann and Ben": the "and" joins the word to the names
    values = _targets(table, Said(rest, said.mentions), extra)
    if any(s.name.lower() == head for s in table.seats) and len(values) != 2:
        return None, None
    return values, head


def _not_sent_step(table: TableInfo, step: chat_aims.Step, why: str) -> str:
    """A refused `!target` of a step read by its aim: nothing was sent, why, and what to send."""
    return nothing_sent(table.code, why, chat_aims.syntax(step, table.code))


def _says_nobody(table: TableInfo, said: Said) -> bool:
    """Whether the words are "no action" (letters.NOBODY). Where a player is called so, the word
    is theirs to answer for: the player is told to write @name or the other word."""
    text = " ".join(said.text.lower().split())
    if text not in letters.NOBODY:
        return False
    if any(s.name.lower() == text for s in table.seats):
        other = next(word for word in letters.NOBODY if word != text)
        raise FamilyError(
            _(
                # Translators: keep `!target` and %(other)s as they are: what a player types.
                "In game %(code)s “%(word)s” is a player's name: send `!target %(code)s @%(word)s`"
                " to target them, or `!target %(code)s %(other)s` for no action."
            )
            % {"code": table.code, "word": text, "other": other}
        )
    return True


def _not_sent(table: TableInfo, form: ActionForm, why: str) -> str:
    """A refused `!target`: nothing was sent, why, and what to send."""
    return nothing_sent(table.code, why, _how(table, form))


def _how(table: TableInfo, form: ActionForm) -> tuple[str, ...]:
    """What to send for the form: the night letter's instructions."""
    names = {str(s.id): s.name for s in table.seats}
    return tuple(letters.how_to_act(form, table.code, names))


def _ready(table: TableInfo, seat: SeatInfo, said: Said) -> ChatMove:
    """rules/000 s3c: ready to vote, or not after all."""
    answer = said.text.strip().lower()
    if answer not in ("", "yes", "no"):
        raise FamilyError(
            # Translators: `no` is what a player types: keep it as it is.
            _("`!ready %(code)s` says you are ready; `!ready %(code)s no` not.")
            % {"code": table.code}
        )
    wants = answer or "yes"
    if wants == "yes":
        text = _("%(player)s is ready to vote in game %(code)s.") % {
            "player": seat.name,
            "code": table.code,
        }
    else:
        text = _("%(player)s is not ready to vote after all.") % {"player": seat.name}
    return ChatMove("ready", {"ready": [wants]}, text, aloud=True)


def _vote(table: TableInfo, seat: SeatInfo, said: Said) -> ChatMove:
    """rules/000 s3d: the secret vote, by name, or `up`/`down` for a neighbour (s6a)."""
    word = said.text.strip().lower()
    if word in ("up", "down") and table.phase == "voting":
        # rules/000 s6a: the voting ring's neighbours, as the vote letter names them.
        view = view_of(table, seat)
        neighbour = view.vote_up if word == "up" else view.vote_down
        values = [str(neighbour.id)] if neighbour is not None else []
    else:
        values = _targets(table, said)
    if len(values) != 1 or not values[0].isdigit():
        raise FamilyError(
            _("Vote for one player: `!vote %(code)s <player>`.") % {"code": table.code}
        )
    voted = table.seat(int(values[0]))
    answer = _("Game %(code)s: your vote for %(player)s is in. Votes are final.") % {
        "code": table.code,
        "player": voted.name if voted is not None else values[0],
    }
    return ChatMove("vote", {"target": values}, answer)
