"""Shared pieces of the security suite: role-word scanning, snapshots, reading answers, and
websockets opened on the project's own ASGI application.

The suite keeps its own helpers (rather than borrowing the web or realtime tests'), so that it
reads the pages and frames exactly as an outsider would: the HTML, the JSON, nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib import import_module
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.http import HttpResponse
from django.urls import reverse

from games.families.onenight.engine import Role, Team
from games.families.onenight.engine.artifacts import ARTIFACTS
from games.families.onenight.engine.marks import MARK_TITLES
from games.tables import services
from games.tables.models import ChatLine, Move, Seat, SeatTaken, Table
from tests.factories import TestTable, fixed_shuffle

# --- Role words -----------------------------------------------------------------------------

# Every way a page could name a role: the title or value in any case, and plurals, wherever it
# stands (text, attribute, CSS class such as team-werewolf or role-the_count, hidden input,
# data-*, comment). Word boundaries: "team-werewolf" matches (the hyphen is a boundary), a token
# or code does not, nor a form field such as count_witch (the underscore is a word character).
# A title of two words matches with a space, an underscore (the value) or a hyphen between them,
# and as one role: "Apprentice Seer" names the Apprentice Seer, not the Seer; "Alpha Wolf" names
# no Werewolf (a bare "wolf" is no card's name).
#
# Every role the engine knows (games/families/onenight/engine/role_types.py `Role`, titles in
# roles.py, roles_daybreak.py, roles_vampire.py). Most names are no everyday word in the app's
# texts (witch, prince, cupid, priest, vampire... were read where the audit meets them: always
# the role), so any case is a role word. Two are: the Count's and the Master's titles ("Count",
# "Master"; the cards say "The Count", "The Master") also read "the minion counts as one",
# "your vote count(s)", "the count of them", "master". They are role words only as the app
# writes the role: the title with its capital, or in capitals ("Count" opening a sentence
# would count; no text of the app does, and a false match fails loudly, it never hides a leak),
# and the value (the_count, role-the_count, data-role="the_master"). So the Count's own action
# prompt, "The count names the vampires' pick...", and the Apprentice Assassin's "...the
# apprentice names any player" name no role here: both are sentences of one seat's, which
# check (a) of the leak audit finds anywhere else.
_ROLE_STEMS: dict[str, Role] = {
    "doppelg(?:a|ä)ngers?": Role.DOPPELGANGER,
    "werewol(?:f|ves)": Role.WEREWOLF,
    "minions?": Role.MINION,
    "masons?": Role.MASON,
    "seers?": Role.SEER,
    "robbers?": Role.ROBBER,
    "troublemakers?": Role.TROUBLEMAKER,
    "drunks?": Role.DRUNK,
    "insomniacs?": Role.INSOMNIAC,
    "hunters?": Role.HUNTER,
    "villagers?": Role.VILLAGER,
    "tanners?": Role.TANNER,
    # Daybreak and the Prince (docs/rules.md 8a).
    "sentinels?": Role.SENTINEL,
    r"alpha[\s_-]+wol(?:f|ves)": Role.ALPHA_WOLF,
    r"mystic[\s_-]+wol(?:f|ves)": Role.MYSTIC_WOLF,
    r"dream[\s_-]+wol(?:f|ves)": Role.DREAM_WOLF,
    r"apprentice[\s_-]+seers?": Role.APPRENTICE_SEER,
    r"paranormal[\s_-]+investigators?": Role.PARANORMAL_INVESTIGATOR,
    "witch(?:es)?": Role.WITCH,
    r"village[\s_-]+idiots?": Role.VILLAGE_IDIOT,
    "revealers?": Role.REVEALER,
    "curators?": Role.CURATOR,
    "bodyguards?": Role.BODYGUARD,
    "princes?": Role.PRINCE,
    # Vampire (docs/rules.md 8b).
    "copycats?": Role.COPYCAT,
    "vampires?": Role.VAMPIRE,
    r"the_master|(?-i:Masters?|MASTERS?)": Role.THE_MASTER,
    r"the_count|(?-i:Counts?|COUNTS?)": Role.THE_COUNT,
    "renfields?": Role.RENFIELD,
    "diseased": Role.DISEASED,
    "cupids?": Role.CUPID,
    "instigators?": Role.INSTIGATOR,
    "priests?": Role.PRIEST,
    r"apprentice[\s_-]+assassins?": Role.APPRENTICE_ASSASSIN,
    "assassins?": Role.ASSASSIN,
    "marksm[ae]n": Role.MARKSMAN,
    "pickpockets?": Role.PICKPOCKET,
    "gremlins?": Role.GREMLIN,
}

ROLE_WORD = re.compile(r"\b(" + "|".join(f"(?:{s})" for s in _ROLE_STEMS) + r")\b", re.I)
_STEM_PATTERNS = [(re.compile(f"^(?:{s})$", re.I), role) for s, role in _ROLE_STEMS.items()]

# Names that hold a role's word but name a token, not a card: Vampire's marks (engine/marks.py:
# "Mark of the Vampire", "Mark of the Assassin") and Daybreak's artifacts (engine/artifacts.py:
# "Claw of the Werewolf", "Brand of the Villager", "Cudgel of the Tanner"). A mark is not a
# card: the Mark of the Vampire is given to a player who is not a vampire (the vampires'
# pick), the Mark of the Assassin to the Assassin's target, not the Assassin; an artifact lies
# face down on any card and makes its holder play as a role without naming anyone's card. So
# "Mark of the Vampire" does not name the Vampire, nor "Claw of the Werewolf" the Werewolf, and
# every seat may read them where the app's fixed texts use them (the Count's and the Vampire's
# action prompts, the rules). Which token a seat holds is private all the same, but that is not
# a role word: check (a) catches another seat's report sentence naming it. Only the whole name
# is spared (spaces as the page has them): "the vampires" or "a Werewolf" next to it still count.
_TOKEN_TITLES = (*MARK_TITLES.values(), *(record.title for record in ARTIFACTS.values()))
TOKEN_NAME = re.compile(
    "|".join(
        r"\b" + r"\s+".join(map(re.escape, title.split())) + r"\b"
        for title in _TOKEN_TITLES
        if ROLE_WORD.search(title)
    ),
    re.I,
)

# The role card is styled with its team (class team-werewolf for a minion), and its chip names
# the team ("vampire", "assassin", "apprentice assassin"): the role a team's class or name
# names, if any. Each is known from the seat's own card.
TEAM_ROLE: dict[Team, Role | None] = {
    Team.TOWN: None,
    Team.WEREWOLF: Role.WEREWOLF,
    Team.TANNER: Role.TANNER,
    # Vampire's sides (docs/rules.md 8b.1): the team's word is its card's.
    Team.VAMPIRE: Role.VAMPIRE,
    Team.ASSASSIN: Role.ASSASSIN,
    Team.APPRENTICE_ASSASSIN: Role.APPRENTICE_ASSASSIN,
}

# The phases of a One Night table, as the audit and the matrices name them (Table.phase).
LOBBY, NIGHT, DAY, VOTING, REVEAL, CANCELLED = (
    "lobby",
    "night",
    "day",
    "voting",
    "reveal",
    "cancelled",
)
PHASES = [LOBBY, NIGHT, DAY, VOTING, REVEAL, CANCELLED]

# What a seat is told when a game move does not fit the table's phase (the core's stage check
# for the lobby and the end, One Night's own for the phases of play).
MOVE_OUT_OF_PHASE: dict[str, str] = {
    LOBBY: "The game has not started yet.",
    NIGHT: "It is night: that can't be done now.",
    DAY: "It is the day: that can't be done now.",
    VOTING: "Voting is under way: that can't be done now.",
    REVEAL: "This game is over.",
    CANCELLED: "This game was cancelled.",
}
# What the host is told when a lobby form (options, lock, remove, start) comes too late.
LOBBY_ONLY: dict[str, str] = {
    NIGHT: "The game has started: that can't be done now.",
    DAY: "The game has started: that can't be done now.",
    VOTING: "The game has started: that can't be done now.",
    REVEAL: "This game is over.",
    CANCELLED: "This game was cancelled.",
}

# The POST routes that take just the table's code (and, for a move, its kind) in their path.
POST_ROUTES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("options", ()),
    ("lock", ()),
    ("start", ()),
    ("cancel", ()),
    ("move", ("copy",)),
    ("move", ("action",)),
    ("move", ("ready",)),
    ("move", ("end_day",)),
    ("move", ("vote",)),
    ("chat", ()),
    ("play_again", ()),
)


def post_path(code: str, route: tuple[str, tuple[str, ...]]) -> str:
    name, extra = route
    return reverse(name, args=[code, *extra])


def route_label(route: tuple[str, tuple[str, ...]]) -> str:
    name, extra = route
    return "/".join((name, *extra))


def role_of_word(word: str) -> Role:
    for pattern, role in _STEM_PATTERNS:
        if pattern.match(word):
            return role
    raise AssertionError(word)


def role_words(text: str) -> Iterator[re.Match[str]]:
    """Every role word of a text (ROLE_WORD), but those inside a token's name (TOKEN_NAME)."""
    tokens = [m.span() for m in TOKEN_NAME.finditer(text)]
    for m in ROLE_WORD.finditer(text):
        if not any(start <= m.start() and m.end() <= end for start, end in tokens):
            yield m


def roles_named(text: str) -> set[Role]:
    """The roles a text names, in any form ROLE_WORD recognises."""
    return {role_of_word(m.group(1)) for m in role_words(text)}


def role_mentions(text: str) -> list[tuple[Role, str]]:
    """Every mention with 60 characters of context either side (for failure messages)."""
    found = []
    for m in role_words(text):
        start, end = max(0, m.start() - 60), min(len(text), m.end() + 60)
        found.append((role_of_word(m.group(1)), text[start:end].replace("\n", " ")))
    return found


# --- Reading answers -------------------------------------------------------------------------


def unescaped(body: str) -> str:
    """The markup with entities decoded: attributes, classes and comments kept."""
    return html.unescape(body)


def plain(body: str) -> str:
    """The words a reader sees: tags dropped (so "a <strong>Seer</strong>." reads "a Seer."),
    entities decoded, spaces collapsed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", body))).strip()


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def raw(response: HttpResponse) -> str:
    return response.content.decode()


def visible(response: HttpResponse) -> str:
    """The words on the page: tags dropped, entities decoded, runs of spaces made one."""
    return plain(raw(response))


def url(name: str, *args: object) -> str:
    return reverse(name, args=args)


HTMX = {"HTTP_HX_REQUEST": "true"}


def alerts(response: HttpResponse) -> list[str]:
    """The messages a player reads in an answer: role="alert" elements, form error lists, and
    in the chat box htmx gets back for a line, the note that says why the chat is closed
    (shown in place of the box)."""
    body = raw(response)
    found = re.findall(r'role="alert"[^>]*>(.*?)</', body, flags=re.S)
    found += re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', body, flags=re.S)
    if body.lstrip().startswith('<div class="chat-box"'):
        found += re.findall(r'<p class="hint chat-closed"\s*>(.*?)</p>', body, flags=re.S)
    return [plain(f) for f in found if plain(f)]


def message_of(response: HttpResponse) -> str:
    """The human message of a refusal, every one of them joined."""
    return " | ".join(alerts(response))


def strings_in(value: Any) -> Iterable[str]:
    """Every string (keys included) inside a decoded JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


# --- Snapshots -------------------------------------------------------------------------------


def db_snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every table-core table (all tables, not one): nothing may change unnoticed.

    Left out: `Seat.last_seen`, when one of the player's pages last said it was open (the
    socket writes it on connect and ping); it is presence, not part of any game."""
    return {
        "table": list(Table.objects.order_by("pk").values()),
        "seat": list(Seat.objects.order_by("pk").values()),
        "move": list(Move.objects.order_by("pk").values()),
        "chat": list(ChatLine.objects.order_by("pk").values()),
        "seat_taken": list(SeatTaken.objects.order_by("pk").values()),
    }


def _without_presence(rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {r["id"]: {k: v for k, v in r.items() if k != "last_seen"} for r in rows}


def snapshot_diff(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Human-readable differences between two snapshots (empty: nothing changed)."""
    changes = []
    for table, rows in before.items():
        old = _without_presence(rows)
        new = _without_presence(after[table])
        for pk in old.keys() - new.keys():
            changes.append(f"{table} {pk} deleted")
        for pk in new.keys() - old.keys():
            changes.append(f"{table} {pk} created: {new[pk]}")
        for pk in old.keys() & new.keys():
            for key, value in old[pk].items():
                if new[pk][key] != value:
                    changes.append(f"{table} {pk}.{key}: {value!r} -> {new[pk][key]!r}")
    return changes


# --- Websockets --------------------------------------------------------------------------------

Frame = dict[str, Any]
ORIGIN = b"http://testserver"
# Long enough for a slow machine; only reached when a test is about to fail anyway.
WAIT = 5.0


def websocket_app() -> Any:
    """The project's ASGI application (HTTP and websockets), as daphne serves it."""
    from onenight.asgi import application

    return application


def new_session(data: Mapping[str, Any]) -> str:
    """A saved session holding `data`, in the configured session engine; returns the value of
    the sessionid cookie (for signed-cookie sessions, the signed data itself)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    for key, value in data.items():
        store[key] = value
    store.save()
    assert store.session_key
    return store.session_key


def socket_path(code: str, *, version: int | None = None, after: int | None = None) -> str:
    query = [f"version={version}"] * (version is not None) + [f"after={after}"] * (
        after is not None
    )
    return f"/ws/table/{code}/" + ("?" + "&".join(query) if query else "")


class SocketOpener:
    """Opens communicators and remembers them, so a fixture can close them all."""

    def __init__(self) -> None:
        self.opened: list[WebsocketCommunicator] = []

    def communicator(
        self,
        code: str,
        *,
        cookie: str | None = None,
        version: int | None = None,
        after: int | None = None,
        origin: bytes | None = ORIGIN,
        host: bytes = b"testserver",
    ) -> WebsocketCommunicator:
        headers: list[tuple[bytes, bytes]] = [(b"host", host)]
        if cookie is not None:
            headers.append((b"cookie", cookie.encode()))
        if origin is not None:
            headers.append((b"origin", origin))
        path = socket_path(code, version=version, after=after)
        comm = WebsocketCommunicator(websocket_app(), path, headers=headers)
        self.opened.append(comm)
        return comm

    async def open(
        self, code: str, session: Mapping[str, Any] | None, **query: int | None
    ) -> WebsocketCommunicator:
        """Connect with a session holding `session` (None: no cookie at all); must be accepted
        (the consumer accepts every socket before it looks for the seat)."""
        cookie = None
        if session is not None:
            key = await database_sync_to_async(new_session)(session)
            cookie = f"sessionid={key}"
        comm = self.communicator(code, cookie=cookie, **query)
        connected, _ = await comm.connect(timeout=WAIT)
        assert connected, "the consumer accepts every connection before checking the seat"
        return comm

    async def seat(
        self, table: TestTable, name: str, **query: int | None
    ) -> tuple[WebsocketCommunicator, Frame]:
        """Connect as seat `name` of `table`; returns the socket and its "hello" frame."""
        session = {"seats": {table.code: table.seats[name].token}}
        comm = await self.open(table.code, session, **query)
        hello = await comm.receive_json_from(timeout=WAIT)
        assert hello["type"] == "hello", hello
        return comm, hello

    async def close_all(self) -> None:
        for comm in self.opened:
            # Already closed or crashed: the test has checked what it needed to.
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await comm.disconnect(timeout=1)


async def receive_until(
    comm: WebsocketCommunicator, wanted: Callable[[Frame], bool], timeout: float = WAIT
) -> tuple[Frame, list[Frame]]:
    """Read frames until one matches `wanted`; returns it and every frame read (it included)."""
    seen: list[Frame] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        # The communicator's own timeout, so a crashed consumer raises its own exception.
        frame = await comm.receive_json_from(timeout=max(0.01, deadline - loop.time()))
        seen.append(frame)
        if wanted(frame):
            return frame, seen


async def expect_closed(comm: WebsocketCommunicator, code: int) -> None:
    """The consumer closes the socket with `code` (after any frames it sent before)."""
    while True:
        output = await comm.receive_output(timeout=WAIT)
        if output["type"] == "websocket.close":
            assert output.get("code") == code, output
            return


# --- A forum table (rules/001) for the watcher and channel tests ------------------------------


def forum_lobby() -> TestTable:
    """A forum (rules/001) lobby of seven; dealt in order (`forum_deal`): Ann protector, Ben
    seer, Cat, Dan and Eve villagers, Fay and Gus werewolves (the pack)."""
    host = services.table_create(family="werewolf", ruleset="forum", host_name="Ann")
    seats = {"Ann": host}
    for name in ("Ben", "Cat", "Dan", "Eve", "Fay", "Gus"):
        seats[name] = services.seat_join(table=host.table, name=name)
    roles = {"count_werewolf": ["2"], "count_seer": ["1"], "count_protector": ["1"],
             "count_villager": ["3"], "count_lunatic": ["0"]}  # fmt: skip
    services.options_set(host=host, fields=roles)
    return TestTable(table=Table.objects.get(pk=host.table_id), seats=seats)


def forum_deal(table: TestTable) -> None:
    """Deal `forum_lobby`'s table in seat order."""
    with fixed_shuffle():
        services.table_start(host=table.seat("Ann"))
    table.refresh()


def forum_night(table: TestTable) -> None:
    """Night 1 of the dealt forum table: the pack kills Cat, Ann protects herself, Ben looks at
    Fay; the villagers are done for the night (the night waits for them too)."""
    ids = {name: str(seat.pk) for name, seat in table.seats.items()}
    for name, fields in (
        ("Fay", {"kill": [ids["Cat"]]}),
        ("Gus", {"kill": [ids["Cat"]]}),
        ("Ann", {"protect": [ids["Ann"]]}),
        ("Ben", {"see": [ids["Fay"]]}),
    ):
        services.seat_move(seat=table.seat(name), kind="night", fields=fields)
    for name in ("Cat", "Dan", "Eve"):
        services.seat_move(seat=table.seat(name), kind="ready", fields={"ready": ["yes"]})
