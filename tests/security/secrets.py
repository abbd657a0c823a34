"""The secret audit's capture and oracle, for every family (issue 36, item 4).

An *identity* is someone who receives things from the app: a seat (the host is one), a watcher
(a browser that opened the watch link, no seat), an outsider (a browser with neither), or, on
the Discord bot, a member reading its private messages and the game's channel. Everything an
identity receives is *captured* with the table version it shows: every page, every htmx
fragment and POST answer, every websocket frame, every bot message.

Each capture is then checked against what that identity may know at that version, which the
*oracle* derives from the family's engine state alone (never from the pages):

- **Who is what.** A capture is cut into blocks (paragraphs, list items, table rows, options,
  headings: what a reader takes as one statement, attributes included). A block that names a
  player together with a word for that player's role (its title, and for a werewolf-side role
  "werewolf"/"wolf") binds them. That is allowed only where the identity knows the player's
  role (the engine's per-seat view: its own card, whom its role knows, the roles the ruleset
  makes public) or where the block is a sentence the identity was privately told. A new public
  line that ties a role to a name therefore fails the audit whatever its wording.
- **Another seat's private sentences** (its role heading, what it was told, its pack's choices)
  never reach an identity that was not told the same.
- **The chat channels.** Every line the audit writes is a unique canary; a line of the pack's
  channel may reach only the werewolf side (living) and of the graveyard only the dead and the
  watchers, as the rules say; at the end of the game everything is public.
- **Tokens.** No identity ever receives another seat's rejoin token or the bot's link code
  for it (either plays that seat).

Rule pages that list every role of a deck are public and name no player, so they bind nothing;
the deck itself is chosen in public. Nothing is checked once the game is over.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# --- Blocks --------------------------------------------------------------------------------------

# Tags that end one statement and start another. Inline tags (strong, em, a, span, code, small
# text inside a sentence) and table cells are not boundaries: a row of a table reads as one.
_BOUNDARY = re.compile(
    r"^(?:p|li|tr|option|h[1-6]|div|article|section|ul|ol|table|thead|tbody|label|small|select|"
    r"form|details|summary|br|button|header|footer|nav|main|dl|dt|dd|textarea|input|title|"
    r"body|html|head|aside|fieldset|legend|blockquote|template|dialog|output|meter|progress)$",
    re.I,
)
_TOKEN = re.compile(r"<!--(.*?)-->|<(/?)([a-zA-Z][\w-]*)([^>]*)>|([^<]+)", re.S)
_ATTR_VALUE = re.compile(r"""[\w:-]+\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


def blocks(markup: str) -> list[str]:
    """The statements of an HTML text: text and attribute values, entities decoded, cut at block
    tags; comments are a block of their own, and so is what a script or style element holds (a
    JSON data block would be read). Plain text (a bot's message) is cut at lines."""
    if "<" not in markup:
        return [b for b in (_norm(line) for line in markup.splitlines()) if b]
    found: list[str] = []
    current: list[str] = []

    def flush() -> None:
        text = _norm(" ".join(current))
        if text:
            found.append(text)
        current.clear()

    for match in _TOKEN.finditer(markup):
        comment, _closing, tag, attrs, text = match.groups()
        if comment is not None:
            flush()
            current.append(comment)
            flush()
        elif tag:
            if _BOUNDARY.match(tag) or tag.lower() in ("script", "style"):
                flush()
            for value in _ATTR_VALUE.finditer(attrs or ""):
                current.append(next(v for v in value.groups() if v is not None))
        elif text:
            current.append(text)
    flush()
    return found


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


# --- What an identity may know -------------------------------------------------------------------


@dataclass(frozen=True)
class Knows:
    """What one identity may know at one version of its table."""

    known: frozenset[str]  # players whose role it may know
    own: tuple[str, ...]  # sentences it was told privately (removed from a block before scanning)
    heading: str | None  # its role card's title, if it holds one
    reads: frozenset[str]  # the chat channels it may read


@dataclass(frozen=True)
class Secrets:
    """One version of a table, as the oracle reads it from the engine's state."""

    over: bool
    players: tuple[str, ...]
    role_words: Mapping[str, re.Pattern[str]]  # player -> the words for their role
    private: Mapping[str, frozenset[str]]  # player -> sentences told to that seat only
    pack_lines: Mapping[str, frozenset[str]]  # player -> its pack's choices ("Ann → Ben")
    knows: Callable[[str | None, str], Knows]  # (player or None, identity kind) -> Knows


def words_for(titles: Iterable[str]) -> re.Pattern[str]:
    """A pattern for role titles in any case, singular or plural ("werewolf", "Werewolves")."""
    forms = []
    for title in sorted(set(titles), key=len, reverse=True):
        escaped = re.escape(title).replace(r"\ ", r"\s+")
        if title.lower().endswith("wolf"):
            forms.append(escaped[:-1] + "(?:f|ves)")
        else:
            forms.append(escaped + "s?")
    return re.compile(r"\b(?:" + "|".join(forms) + r")\b", re.I)


def names_pattern(players: Iterable[str]) -> dict[str, re.Pattern[str]]:
    return {p: re.compile(rf"(?<![\w-]){re.escape(p)}(?![\w-])") for p in players}


# --- Captures and the check ----------------------------------------------------------------------


@dataclass
class Capture:
    who: str  # the identity's label
    player: str | None  # its seat's player (None: watcher, outsider)
    kind: str  # "seat", "watcher", "outsider", "member"
    what: str  # page, fragment, frame, letter, post
    where: str
    version: int
    text: str


@dataclass
class Canary:
    text: str
    channel: str
    readers: frozenset[str]  # identities that could read its channel when it was written
    sent: bool = True  # False: refused, shown back to its writer only


@dataclass
class Auditor:
    """Checks captures against the oracle of the version each one shows."""

    secrets_at: Callable[[int], Secrets]
    # Identity label -> what lets one play its seat: the rejoin token, the bot's link code.
    tokens: dict[str, tuple[str, ...]] = field(default_factory=dict)
    canaries: list[Canary] = field(default_factory=list)
    figures: Counter[str] = field(default_factory=Counter)
    leaks: list[str] = field(default_factory=list)

    def check(self, capture: Capture) -> None:
        self.figures[capture.what] += 1
        self.figures["bytes"] += len(capture.text)
        for label, tokens in self.tokens.items():
            if label != capture.who and any(token in capture.text for token in tokens):
                self.leak(capture, f"{label}'s rejoin token or link code")
        secrets = self.secrets_at(capture.version)
        if secrets.over:
            self.figures["captures_after_the_end"] += 1
            return
        knows = secrets.knows(capture.player, capture.kind)
        self.figures["captures_checked"] += 1
        for canary in self.canaries:
            if canary.text in capture.text and not (
                canary.channel in knows.reads or capture.who in canary.readers
            ):
                self.leak(capture, f"a line of the {canary.channel} channel: {canary.text!r}")
        names = names_pattern(secrets.players)
        others_private = {
            text
            for player, texts in secrets.private.items()
            if player != capture.player
            for text in texts
        } - set(knows.own)
        others_pack = {
            line
            for player, lines in secrets.pack_lines.items()
            if player != capture.player
            for line in lines
        } - set(knows.own)
        for block in blocks(capture.text):
            self.figures["blocks"] += 1
            scanned = block
            for sentence in knows.own:
                scanned = scanned.replace(sentence, " ")
            for text in others_private:
                if text in scanned:
                    self.leak(capture, f"another seat's private sentence {text!r} in {block!r}")
            if scanned.strip() in others_pack:
                self.leak(capture, f"a pack's choice {block!r}")
            heading = re.search(r"\bYou are the (.+?)(?: \(dead\))?$", scanned)
            if heading and heading.group(1) != knows.heading:
                self.leak(capture, f"a role card {block!r}")
            for player, name in names.items():
                if player in knows.known or not name.search(scanned):
                    continue
                self.figures["names_scanned"] += 1
                word = secrets.role_words[player].search(scanned)
                if word:
                    self.leak(
                        capture,
                        f"{player}'s role ({word.group(0)}) in {block!r}",
                    )

    def leak(self, capture: Capture, what: str) -> None:
        self.leaks.append(
            f"LEAK to {capture.who} ({capture.kind}) in {capture.what} {capture.where} at"
            f" version {capture.version}: {what}"
        )

    def assert_clean(self, game: str) -> None:
        assert not self.leaks, f"{game}: {len(self.leaks)} leaks, first ones:\n" + "\n".join(
            self.leaks[:8]
        )


def strings_of(value: Any) -> Iterable[str]:
    """Every string inside a decoded JSON frame."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from strings_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_of(item)
