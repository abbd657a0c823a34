"""The game-family interface: everything the table core asks of a game, and nothing more.

A family (One Night, multi-night Werewolf) is a package whose family class subclasses `Family`
(the required members filled in, the optional ones overridden as the game needs) and registers
an instance when Django starts (its AppConfig.ready); `register` checks it against the
interface. The core stores a table's state as the family
hands it back (JSON-ready), runs the clock, keeps the chat, and pushes "this seat's view
changed" after commit; it never names a phase, a role or a rule. Like boardgame.io's game
object: set-up and its options, the deal, the forms a seat has now, apply a move, what happens
at a deadline, what one seat may see, the outcome.

The values passed in are plain and read-only (`TableInfo`, `SeatInfo`); the family answers with
values (`Change`, `Panel`, `Channel`) or raises a `FamilyError` whose message the player reads.
Time is passed in.
"""

from __future__ import annotations

import inspect
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # a str or a lazy translation (gettext_lazy)

PUBLIC = "public"  # every table has the public chat channel; a family may open others


class FamilyError(Exception):
    """A move or setting the game refuses; the message is shown to the player as it is.

    `status` is the HTTP status a page answers with: 400 a bad choice, 403 not allowed to this
    seat, 409 not now (the game has moved on)."""

    status = 400


class NotAllowed(FamilyError):
    status = 403


class NotNow(FamilyError):
    status = 409


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as a family sees it."""

    id: int
    name: str
    position: int
    is_host: bool = False
    alive: bool = True


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as a family sees it: its settings, its seats and the family's own state."""

    code: str
    family: str
    ruleset: str
    options: Mapping[str, Any]
    stage: str  # the core's lifecycle: "lobby", "playing", "over", "cancelled"
    phase: str
    round: int
    version: int
    deadline: datetime | None
    state: Any
    seats: tuple[SeatInfo, ...]

    def seat(self, seat_id: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.id == seat_id), None)


@dataclass(frozen=True, slots=True)
class Note:
    """A note from the app in a chat channel (a phase change, a death announced)."""

    text: str
    channel: str = PUBLIC


@dataclass(frozen=True, slots=True)
class Change:
    """What a deal, a move or a deadline did: the family's new state and what the core shows
    and schedules from it. `dead` are the seats now out of the game; `finished` ends the game
    (the core keeps the table, its chat and its reveal)."""

    state: Any
    phase: str
    phase_label: str
    round: int = 0
    deadline: datetime | None = None
    dead: frozenset[int] = frozenset()
    notes: tuple[Note, ...] = ()
    finished: bool = False
    # Whose own view changed, besides the public status (the progress line and the clock):
    # None is everyone. A move that only counts ("3 of 5 have voted") names no one but its
    # sender: the other pages get the public status, rendered once, instead of a new panel.
    redraw: frozenset[int] | None = None
    # Nothing another seat can see changed, not even a count (One Night's Doppelganger copying
    # a card whose action comes in a second step): the core stores the state without a new
    # version and tells no page, so the move leaves no public trace (docs/security.md). The
    # sender's own answer carries its new panel.
    unseen: bool = False


@dataclass(frozen=True, slots=True)
class Panel:
    """What one seat sees of the game now: the family's template and its context, plus the
    public status line and the clock's caption that the core's status box shows, and whether
    the seat is asked to act (the page marks its tab)."""

    template: str
    context: Mapping[str, Any] = field(default_factory=dict)
    progress: str = ""
    clock_label: str = ""
    attention: bool = False
    # The phase's name in the reader's language, for the page's header (the one the table
    # stores is in the site's); empty: the stored one.
    phase_label: str = ""
    # The family's own controls for the host (a template rendered with `context`): they go in
    # the page's one "Host tools" box, beside the table's (issue 38: one box, not two).
    host_tools: str = ""


@dataclass(frozen=True, slots=True)
class Channel:
    """A chat channel as one seat has it now."""

    name: str
    title: str
    read: bool
    write: bool
    closed: str = ""  # why the seat cannot write now, shown instead of the box


Fields = Mapping[str, Sequence[str]]  # a form's fields, each with its values (as a QueryDict)


class Family(ABC):
    """What a game family provides to the table core: subclass it, fill in the required
    members, override the optional ones the game needs, and `register` an instance.

    Every member the core (or an edge: the pages, table mode, the chat bot) may use is declared
    here, and nothing else is looked up. Required: the three attributes and the abstract
    methods. Optional: the rest, whose defaults suit a small game (no options, no phrase to
    join, no deadlines, one public chat, nothing to reveal when it is stopped).
    """

    # --- Required ---------------------------------------------------------------------------

    name: str  # the family's key, stored on each table
    title: StrOrPromise  # the game's name, as the pages show it (marked for translation)
    rulesets: Mapping[str, StrOrPromise]  # ruleset -> label (marked for translation)

    @abstractmethod
    def seat_limits(self, ruleset: str) -> tuple[int, int]:
        """The fewest and most players the ruleset can seat."""

    @abstractmethod
    def rules_path(self, ruleset: str) -> str:
        """The address of the ruleset's rules page (with its role cards)."""

    @abstractmethod
    def start(self, table: TableInfo, rng: random.Random, now: datetime) -> Change:
        """Deal and begin. `rng` must be the only source of chance."""

    @abstractmethod
    def move(
        self, table: TableInfo, seat: SeatInfo, kind: str, fields: Fields, now: datetime
    ) -> Change:
        """Apply one seat's move of `kind`; FamilyError (nothing changed) if refused."""

    @abstractmethod
    def panel(self, table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
        """What `viewer` (None: a watcher) may see of the game now. Must hold nothing that
        seat may not know."""

    # --- Optional, with their defaults -------------------------------------------------------

    # Names no player may take (One Night's centre cards, rules/000 s3a); none by default.
    reserved_names: tuple[str, ...] = ()

    def game_title(self, ruleset: str) -> StrOrPromise:
        """The game a table of `ruleset` plays, as its pages' title and header name it (a 1.7.0
        Werewolf game is not "One Night"). Default: the family's `title`."""
        return self.title

    def accent(self, ruleset: str) -> str:
        """The game's accent: a key of static/css/art.css's `data-accent` colours, the same for
        every language. Default: the family's `name`."""
        return self.name

    def default_options(self, ruleset: str) -> dict[str, Any]:
        """The options of a new table. Default: none."""
        return {}

    def set_options(self, table: TableInfo, fields: Fields) -> dict[str, Any]:
        """The options the host's form asks for, checked; FamilyError if they cannot be.
        Default: the options as they are (a game without options offers no form)."""
        return dict(table.options)

    def replay_options(self, table: TableInfo) -> dict[str, Any]:
        """The options of the new table "play again" opens after `table`. Default: the same."""
        return dict(table.options)

    def join_phrase(self, table: TableInfo) -> str | None:
        """A phrase a player must type to take a seat (rules/000 s5e), or None (the default)."""
        return None

    def lobby(self, table: TableInfo, viewer: SeatInfo | None) -> Panel:
        """The family's part of the lobby (its options, for the host to change). Default:
        nothing besides the core's lobby (the players, the invite, the start)."""
        return Panel(NO_PANEL)

    def start_problem(self, table: TableInfo) -> str | None:
        """Why the game cannot start yet with these seats and options, or None. Default: too
        few or too many players for the ruleset's `seat_limits`."""
        low, high = self.seat_limits(table.ruleset)
        if len(table.seats) < low:
            return ngettext(
                "This game needs at least %(count)d player.",
                "This game needs at least %(count)d players.",
                low,
            ) % {"count": low}
        if len(table.seats) > high:
            return ngettext(
                "This game seats at most %(count)d player.",
                "This game seats at most %(count)d players.",
                high,
            ) % {"count": high}
        return None

    def on_deadline(self, table: TableInfo, now: datetime) -> Change:
        """The stored deadline has passed (or staff move the game on): apply the documented
        defaults and move on. Default, for a game that sets no deadline: refused."""
        raise NotNow(_("This game has no time limit to move on from."))

    def public_status(self, table: TableInfo) -> tuple[str, str]:
        """The public progress line and the clock's caption: the same for every seat. Default:
        neither (the clock is captioned "Time left")."""
        return "", ""

    def clock_sentence(self, table: TableInfo) -> str | None:
        """What the stored deadline ends, as a chat channel is told it: a sentence holding
        `{when}`, where the chat service puts the deadline its own way ("The sheriff election
        ends {when}."), or None: this step's deadline is not announced there. The pages caption
        their clock with `public_status` instead. Default: the step, unnamed."""
        # Translators: {when} is the deadline as the chat service shows it ("in 5 minutes
        # (21:30)"): keep it as it is.
        return _("This step ends {when}.")

    def channels(self, table: TableInfo, viewer: SeatInfo | None) -> tuple[Channel, ...]:
        """The chat channels `viewer` may read or write now. Default: one public chat, which
        every seat writes in and a watcher reads."""
        # Translators: the title of a game's chat.
        return (Channel(PUBLIC, _("Chat"), read=True, write=viewer is not None),)

    def chat_problem(self, table: TableInfo, seat: SeatInfo, channel: str, text: str) -> str | None:
        """Why the game's rules refuse this line (rules/000 s5c: no quoting), or None (the
        default)."""
        return None

    def cancel(self, table: TableInfo, now: datetime) -> Change:
        """The host or staff stop the game; nobody's secrets are revealed. Default: the state
        kept as it is (the core names the phase "cancelled" and ends the game)."""
        return Change(state=table.state, phase="cancelled", phase_label="", round=table.round)

    def takes_back_end(self, table: TableInfo, kind: str) -> bool:
        """Whether a move of `kind` may take back the end of a finished game (table mode's undo
        of a mis-tap that ended it). Default: no."""
        return False

    def players_have_screens(self, table: TableInfo) -> bool:
        """False when the host's screen plays for every seat (table mode): no seat then has a
        screen of its own to get back. Default: True."""
        return True

    def warm(self) -> None:
        """Build now what the game would otherwise build on its first use while players wait
        (One Night: the fake-quote patterns). Called once per server process as it starts, on
        a thread of its own (games/tables/warming.py). Default: nothing."""
        return None

    # --- Offered to the other edges (table mode, chat bots): None is "not offered" ----------
    # Class attributes of a family; their shapes are declared below the class.

    # Table mode's narrator: a game played in person with real cards, the app calling the night
    # aloud and reading the reveal sheet (games/tablemode).
    narrator: Narrator | None = None
    # How a chat bot plays the game (games/chatbot): a seat's view as text and its moves by
    # name. The bot holds no rule of the game.
    chat: ChatPlay | None = None
    # The options of a game moderated at a table (table mode's moderator's assistant: the
    # host's screen plays every seat, the players have none), laid over `default_options`.
    moderated_options: Mapping[str, Any] | None = None


# A family's lobby part that adds nothing to the core's (Family.lobby's default).
NO_PANEL = "tables/no_panel.html"

_REQUIRED_ATTRIBUTES = ("name", "title", "rulesets")


def family_problems(family: object) -> list[str]:
    """What keeps `family` from being a family the core can play, each said; empty if none:
    not a `Family`, a required attribute missing or empty, a method whose parameters are not
    the interface's. (A class that leaves a required method out cannot be instantiated.)"""
    if not isinstance(family, Family):
        return [f"{family!r} is not a games.tables.family.Family"]
    problems = []
    kind = type(family).__name__
    for attribute in _REQUIRED_ATTRIBUTES:
        if not getattr(family, attribute, None):
            problems.append(f"{kind}.{attribute} is missing")
    for member, declared in vars(Family).items():
        if member.startswith("_") or not callable(declared):
            continue
        mine = getattr(type(family), member)
        if not callable(mine):
            problems.append(f"{kind}.{member} is not a method")
            continue
        wanted = list(inspect.signature(declared).parameters)
        given = list(inspect.signature(mine).parameters)
        if given != wanted:
            problems.append(f"{kind}.{member}({', '.join(given)}): expected {', '.join(wanted)}")
    return problems


# --- What a family may offer the other edges (optional members of `Family`) -------------------


@dataclass(frozen=True, slots=True)
class Page:
    """A whole page a family draws for an edge: its template, its context and its HTTP status
    (400: the form's fields cannot be used, and the page says why)."""

    template: str
    context: Mapping[str, Any] = field(default_factory=dict)
    status: int = 200


class Narrator(Protocol):
    """Table mode's narrator (issue 28): nobody has a seat and the server keeps nothing; the
    page carries the whole night, so it keeps going if the network drops once loaded. The edge
    adds `setup_url` and `reveal_url` (its own addresses) to each page's context."""

    def setup(self, fields: Fields) -> Page:
        """The set-up form, filled from `fields`; once sent (`go` among them) the night's
        script and the reveal sheet, or the form again with what to fix (status 400)."""
        ...

    def verdict(self, fields: Fields) -> Page:
        """The reveal sheet's answer: the final cards and the votes typed in, the dead and the
        winners out (status 400 with the reason if they cannot be counted)."""
        ...


@dataclass(frozen=True, slots=True)
class Tap:
    """A tap a chat service may offer instead of typing (a button, an item of a menu): what it
    says, and the command it stands for, as typed after the prefix ("vote ABCD Ann")."""

    label: str
    command: str


@dataclass(frozen=True, slots=True)
class Letter:
    """A message a chat bot owes a seat. `key` names it: the bot sends each key once. `menus`:
    the taps that answer it, each group one row of buttons or one menu (issue 40 item 3)."""

    key: str
    text: str
    menus: tuple[tuple[Tap, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Said:
    """What a player typed after a chat command's name and the game's id. `mentions` are the
    chat service's references to players found in `text` (e.g. Discord's `<@123>`), each with
    the seat it names at this table, or None if that account has no seat there."""

    text: str
    mentions: Mapping[str, int | None] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ChatMove:
    """A command read into a move: the move as the seat's page would post it (`kind`, `fields`)
    and the bot's answer once the move is made, said privately or, `aloud`, where the command
    was written (a command sent by private message is always answered privately). `how`, if
    given, says what to send: should the game refuse the move, the bot answers as to a command
    it could not read (`nothing_sent`)."""

    kind: str
    fields: Mapping[str, Sequence[str]]
    answer: str
    aloud: bool = False
    how: tuple[str, ...] | None = None


def nothing_sent(code: str, why: str, how: Sequence[str]) -> str:
    """A chat command refused: nothing was sent, why, and the lines that say what to send."""
    heading = _("Game %(code)s: nothing was sent.") % {"code": code}
    return "\n".join((f"{heading} {why}", *how))


class ChatPlay(Protocol):
    """A chat bot's way into a game (issue 29; issue 40 item 1): a seat's view as text (its
    letters, built from the same view as its page, so a message never holds more than the
    page would) and its moves by name. Refusals are `FamilyError`s, read by the player."""

    # The commands that make a move, by name (what a player types after the prefix), each
    # with whether it is secret: sent by private message only (rules/000 s3b: `!target`).
    moves: Mapping[str, bool]

    def help(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The game's lines of the bot's help: those before the bot's own commands (what the
        game is, how `new` opens one) and those after them (its moves)."""
        ...

    def new_ruleset(self, words: str) -> str:
        """The ruleset a `new` command's words ask for ("" the default); FamilyError if none."""
        ...

    def opened(self, table: TableInfo, host: SeatInfo, rules_address: str) -> str:
        """The announcement of a new game: how to join and start it (`rules_address` is the
        rules page's full address, or "" when the site's is not known)."""
        ...

    def letters(self, table: TableInfo, seat: SeatInfo) -> tuple[Letter, ...]:
        """What `seat` should have been told by now, in order. A seat linked late gets what it
        missed, never an out-of-date call to act."""
        ...

    def channel_letter(self, table: TableInfo) -> str | None:
        """What the game's channel is told once the game is over (the reveal), or None."""
        ...

    def move(self, table: TableInfo, seat: SeatInfo, name: str, said: Said) -> ChatMove:
        """The move that command `name` (one of `moves`) asks for; FamilyError if none."""
        ...


def game_opened(table: TableInfo, host: SeatInfo, rules_address: str, also: str = "") -> str:
    """A chat bot's announcement of a new game (ChatPlay.opened, one text for every family): the
    game as its pages name it (`Family.game_title`), how to join, how its host deals, the
    family's own words `also` (One Night's rules phrase), and the rules' address ("" none)."""
    family = family_named(table.family)
    low, high = family.seat_limits(table.ruleset)
    text = ngettext(
        # Translators: %(game)s is the game's name with its rules ("Werewolf 1.7.0"); text in
        # backticks is what a player types: keep the commands as they are.
        "%(host)s opened game **%(code)s**: %(game)s. Join with `!join %(code)s`; %(host)s"
        " deals with `!start %(code)s` once %(low)d to %(high)d player sit.",
        "%(host)s opened game **%(code)s**: %(game)s. Join with `!join %(code)s`; %(host)s"
        " deals with `!start %(code)s` once %(low)d to %(high)d players sit.",
        high,
    ) % {
        "host": host.name,
        "code": table.code,
        "game": str(family.game_title(table.ruleset)),
        "low": low,
        "high": high,
    }
    if also:
        text += " " + also
    if rules_address:
        text += " " + _("The rules: %(address)s") % {"address": rules_address}
    return text


def narrator_of(family: Family) -> Narrator | None:
    """The family's table-mode narrator, or None: not offered."""
    return family.narrator


def chat_of(family: Family) -> ChatPlay | None:
    """How a chat bot plays the family's games, or None: not offered."""
    return family.chat


def moderated_options_of(family: Family) -> Mapping[str, Any] | None:
    """The options of the family's games moderated at a table, or None: not offered."""
    return family.moderated_options


_FAMILIES: dict[str, Family] = {}


def register(family: Family) -> None:
    """Make `family` playable (called from the family app's `ready`); TypeError if it does not
    fill in the interface (`family_problems`)."""
    problems = family_problems(family)
    if not problems and _FAMILIES.get(family.name, family) is not family:
        problems.append(f"another family is called {family.name!r}")
    if problems:
        raise TypeError("; ".join(problems))
    _FAMILIES[family.name] = family


def unregister(name: str) -> None:
    """Make the family called `name` unplayable again (the tests' own families)."""
    _FAMILIES.pop(name, None)


def family_named(name: str) -> Family:
    """The registered family called `name`; KeyError if there is none."""
    return _FAMILIES[name]


def families() -> tuple[Family, ...]:
    return tuple(_FAMILIES.values())


def new_rng() -> random.Random:
    """Chance for a deal: the operating system's secure source, so nobody can predict it."""
    return random.SystemRandom()
