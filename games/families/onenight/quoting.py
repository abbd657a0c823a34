"""Spotting a chat message that quotes the moderator's private messages, or fakes such a quote
(rules/000 s5c).

Players may say what they learned in their own words ("I saw Ben was a werewolf"), but not paste
or retype the moderator's text. Words only are compared: case, spacing and punctuation are
ignored, so retyping with other capitals or commas does not get through.

- A quote: a run of QUOTE_RUN or more consecutive words that also stands in one of the sender's
  own private messages.
- A fake ("anything ... which would reasonably be thought of as a PM quote"): a message that
  repeats what the moderator sends anyone, dealt or not (every role message and night report
  the game could send, with any names in it), where it carries what makes it private: a
  sentence of QUOTE_RUN words or more, or FAKE_RUN words in a row, holding a player's name or a
  centre card's place; or a whole text, first word to last (FAKE_RUN words, or QUOTE_RUN with a
  name or place).

The rest is allowed because the role messages' rules-like sentences ("you win if no werewolf
dies tomorrow") say what the rules page says: players talk about the rules in the rules' words.
"""

from __future__ import annotations

import hashlib
import logging
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.core.cache import caches

from .engine import (
    CENTRE_POSITIONS,
    CENTRE_WOLF,
    EXPANSION_ROLES,
    VAMPIRE_ROLES,
    Deal,
    NightResult,
    Role,
    RuleError,
    Ruleset,
    has_marks,
    resolve_night,
    validate_action,
)
from .engine.dusk import neighbours
from .engine.messages import night_report, role_message
from .engine.roles import centre_card
from .online import online_limits

log = logging.getLogger(__name__)
QUOTE_RUN = 8
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """The text's words in order, lower-cased, punctuation and spacing dropped.

    Compatibility forms are folded (full-width letters, ligatures) and invisible format
    characters (soft hyphens, zero-width joiners) removed first, so they cannot split a word.
    """
    if text.isascii():  # NFKC leaves ASCII as it is, and no ASCII character is a format one
        return _WORD.findall(text.lower())
    folded = unicodedata.normalize("NFKC", text)
    visible = "".join(c for c in folded if unicodedata.category(c) != "Cf")
    return _WORD.findall(visible.casefold())


def word_runs(texts: Iterable[str], length: int = QUOTE_RUN) -> frozenset[tuple[str, ...]]:
    """Every run of `length` consecutive words in `texts` (a private message's fingerprint)."""
    runs: set[tuple[str, ...]] = set()
    for text in texts:
        w = words(text)
        runs.update(tuple(w[i : i + length]) for i in range(len(w) - length + 1))
    return frozenset(runs)


def can_quote(message: str, length: int = QUOTE_RUN) -> bool:
    """Whether `message` has enough words to hold a run (shorter ones never quote, so their
    sender's private texts need not be read)."""
    return len(words(message)) >= length


def quotes(message: str, private_runs: frozenset[tuple[str, ...]], length: int = QUOTE_RUN) -> bool:
    """True when `message` repeats a run of `length` words from the private messages."""
    if not private_runs:
        return False
    w = words(message)
    return any(tuple(w[i : i + length]) in private_runs for i in range(len(w) - length + 1))


# --- Fakes: any private message's words, whoever's it would be ----------------------------------
#
# rules/000 s5c also forbids faking a quote: "anything ... which would reasonably be thought of as
# a PM quote". The moderator's private texts are known in advance up to the names in them, so a
# fake is spotted like a quote, against every text the game could send anyone (docs/rules.md):
# every role's message in each of its variants and every night report, written for made-up
# players whose names then stand for any name.

NAME = None  # in a pattern: any player's name (or list of names), one to MAX_NAME_WORDS words
MAX_NAME_WORDS = 8
_SENTINEL = "qqzq"  # the made-up players are qqzq0, qqzq1...
# What makes a private text private: a player's name (NAME) or a centre card's place (the words
# `position_words` finds). A sentence, or a run of FAKE_RUN words anywhere, is a fake only when it
# holds one of them ("You looked at Ben's card: it is the Werewolf."); without one it is a rules-
# like line that the rules page says too ("you win if no werewolf dies tomorrow"), and players
# talk about the rules. Such a text is a fake only reproduced whole, first word to last, when it
# has FAKE_RUN words or more ("If you die, the player you voted for dies with you."), or joined
# to its "You are the X." heading (`every_private_text`).
FAKE_RUN = 10
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")

_WAKE_LAST = (Role.INSOMNIAC, Role.DOPPELGANGER)  # their reports tell what others' actions did

Pattern = tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Fakes:
    """Every run of a private text that a fake would repeat (names in it stand for any name),
    by its first word."""

    by_first: Mapping[str, tuple[Pattern, ...]]


def position_words() -> frozenset[str]:
    """The words that tell the centre cards apart ("left", "middle", "right"), in the reader's
    language: the words of their names that not all three share."""
    first, *rest = (frozenset(words(centre_card(p))) for p in CENTRE_POSITIONS)
    return first.union(*rest) - first.intersection(*rest)


def fakes(
    texts: Iterable[str],
    length: int = QUOTE_RUN,
    run: int = FAKE_RUN,
    markers: frozenset[str] = frozenset(),
) -> Fakes:
    """What a fake of `texts` (written for the made-up players) would repeat: a sentence of
    `length` of the moderator's words or more, or any `run` of its words in a row, that holds a
    name or one of `markers`; and a whole text of `run` words or more (of `length` with a name
    or marker)."""
    found: dict[str, set[Pattern]] = {}

    def add(tokens: list[str | None], whole: bool = False) -> None:
        while tokens and tokens[0] is NAME:
            tokens = tokens[1:]
        while tokens and tokens[-1] is NAME:
            tokens = tokens[:-1]
        literal = sum(t is not NAME for t in tokens)
        marked = any(t is NAME or t in markers for t in tokens)
        if (marked and literal >= length) or (whole and literal >= run):
            found.setdefault(tokens[0], set()).add(tuple(tokens))  # type: ignore[arg-type]

    for text in texts:
        tokens = _tokens(text)
        add(tokens, whole=True)
        literal = [i for i, t in enumerate(tokens) if t is not NAME]
        for n in range(len(literal) - run + 1):
            add(tokens[literal[n] : literal[n + run - 1] + 1])
        for sentence in _SENTENCE_END.split(text):
            add(_tokens(sentence))
    return Fakes({first: tuple(runs) for first, runs in found.items()})


def _tokens(text: str) -> list[str | None]:
    """The words of a text written for the made-up players, each of their names NAME."""
    tokens: list[str | None] = []
    for word in words(text):
        name = word.startswith(_SENTINEL)
        if name and tokens and tokens[-1] is NAME:
            continue
        tokens.append(NAME if name else word)
    return tokens


def fakes_one(message: str, patterns: Fakes) -> bool:
    """True when `message` repeats one of the runs, each name in it standing for one to
    MAX_NAME_WORDS words."""
    w = words(message)
    for start, word in enumerate(w):
        for run in patterns.by_first.get(word, ()):
            if _matches(run, 0, w, start):
                return True
    return False


def _matches(run: Pattern, i: int, w: list[str], j: int) -> bool:
    if i == len(run):
        return True
    token = run[i]
    if token is NAME:
        return any(_matches(run, i + 1, w, j + n) for n in range(1, MAX_NAME_WORDS + 1))
    return j < len(w) and w[j] == token and _matches(run, i + 1, w, j + 1)


@lru_cache(maxsize=8)
def fake_patterns(ruleset: Ruleset, language: str | None, expansions: bool = False) -> Fakes:
    """`fakes` of `every_private_text`, made once per ruleset, language and whether the table's
    deck holds expansion cards (`language` is only the cache's key: the texts are written in the
    reader's language). A deck of the base cards alone is checked against the base texts: the
    moderator can send no expansion role's text in such a game (docs/rules.md 8a).

    Building them walks every text the moderator could send: 0.8 s of CPU for the house rules,
    3 s for the official ones, 4.6 s with Daybreak's cards (docs/benchmarks.md, "The quote
    patterns at start"). So they are kept in the "derived" cache (files: every process and a
    restart read them), under a key that holds `texts_fingerprint`, and a server builds them as
    it starts (`family.OneNight.warm`), not on a table's first chat line."""
    key = f"onenight-fakes:{texts_fingerprint()}:{ruleset.value}:{language}:{int(expansions)}"
    store = caches["derived"]
    try:
        kept = store.get(key)
    except Exception:  # an unreadable cache is only slower: build as if it were empty
        log.warning("The derived cache could not be read", exc_info=True)
        kept = None
    if kept is not None:
        return Fakes(kept)
    built = fakes(every_private_text(ruleset, expansions=expansions), markers=position_words())
    try:
        store.set(key, dict(built.by_first))
    except Exception:  # a full or read-only disk: the next process builds them again
        log.warning("The derived cache could not be written", exc_info=True)
    return built


@lru_cache(maxsize=1)
def texts_fingerprint() -> str:
    """A digest of everything the private texts are made from: this package's modules (the
    engine's messages and role records, the cards played online) with the shared words, and the
    translation catalogues. Another version of any of them is another key."""
    package = Path(__file__).resolve().parent
    sources = [
        *sorted(package.rglob("*.py")),
        package.parents[1] / "words.py",
        *sorted(
            catalogue
            for folder in settings.LOCALE_PATHS
            for catalogue in Path(folder).glob("*/LC_MESSAGES/*.mo")
        ),
    ]
    digest = hashlib.sha256()
    for source in sources:
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:20]


def made_up_players(count: int) -> list[str]:
    """Names for the made-up players of `every_private_text`: words no one types."""
    return [f"{_SENTINEL}{i}" for i in range(count)]


def every_private_text(ruleset: Ruleset, *, expansions: bool = True) -> list[str]:
    """Every role message and night report the moderator could send in a game of `ruleset`, in
    the reader's language, for made-up players: each role's message with a partner, alone and
    (the minion) with one, two or no werewolves among the players; each report of every legal
    action of every role, in a deal where every role is held by a player. The cards played
    online only (online.py): no game deals the others.

    Vampire's cards (docs/rules.md 8b.7) have a table of their own, where the reports carry the
    dusk's and the marks' lines: the actor's and those of the players it names (the one who
    got a mark reads it at the end of dusk); their pairs are walked among the actor's
    neighbours and the first two and last two others only (the names stand for any name, so
    more pairs would add nothing but time; the last players are the werewolf and the tanner,
    whose marks no other role's "must" replaces). The Copycat's line is walked for every card
    it could copy, at each place in the centre."""
    limits = online_limits(ruleset)
    if not expansions:
        limits = {r: n for r, n in limits.items() if r not in EXPANSION_ROLES}
    texts: list[str] = []
    for deal in _deals(ruleset, limits):
        marks = has_marks(deal.cards.values())
        for player in deal.players:
            message = role_message(deal, player)
            # "You are the X." marks what follows as a role message: the heading with its first
            # paragraph is a whole text (a fake at FAKE_RUN words, however generic the paragraph).
            texts += [f"{message.heading} {message.paragraphs[0]}", *message.paragraphs]
        for player in deal.players:
            for action in _legal_actions(deal, player, few=marks):
                texts += _reports(deal, player, action, marks)
    if any(r in VAMPIRE_ROLES for r in limits):
        for deal, position in _copycat_deals(ruleset, limits):
            copycat = deal.players[0]
            for action in _copycat_actions(deal, copycat, position)[:1]:
                texts += _reports(deal, copycat, action, True)
    return texts


def _reports(deal: Deal, player: str, action: tuple[str, ...], marks: bool) -> list[str]:
    """The reports of the night where `player` sends `action`: the actor's, the insomniac's
    (what the action did to its card) and, with marks, the named players' (their new mark)."""
    night = _night(deal, player, action)
    if night is None:
        return []
    told = [
        p
        for p in deal.players
        if p == player or deal.cards[p] in _WAKE_LAST or (marks and p in action)
    ]
    return [line for p in told for line in night_report(night, p)]


def _deals(ruleset: Ruleset, limits: Mapping[Role, int]) -> list[Deal]:
    """Deals (not necessarily legal decks) in which every role's message variants occur."""
    base = {r: n for r, n in limits.items() if r not in EXPANSION_ROLES}
    everyone = [r for r in base for _copy in range(min(base[r], 2))]
    alone = [r for r in base if r not in (Role.WEREWOLF, Role.MASON)] + [Role.MASON]
    alone.append(Role.WEREWOLF)
    no_wolf: list[Role] = [r for r in base if r not in (Role.WEREWOLF,)]
    tables: list[list[Role]] = [everyone, alone, no_wolf]
    # The expansions' roles at a table of their own, with a werewolf (a table of every card,
    # or a Doppelganger walking every copy of them, is too slow to walk); Vampire's at one
    # more, since their marks change every report at the table (8b.7).
    expansion = [r for r in limits if r in EXPANSION_ROLES and r not in VAMPIRE_ROLES]
    if expansion:
        tables.append([*expansion, Role.WEREWOLF, Role.TANNER])
    vampire = [r for r in limits if r in VAMPIRE_ROLES]
    if vampire:
        tables.append([*vampire, Role.WEREWOLF, Role.TANNER])
    centres = (
        (Role.VILLAGER, Role.WEREWOLF, Role.MASON),
        (Role.WEREWOLF, Role.MASON, Role.VILLAGER),
        (Role.MASON, Role.VILLAGER, Role.WEREWOLF),
    )
    deals: list[Deal] = []
    for held in tables:
        names = made_up_players(len(held))
        # The expansions' table once: its texts do not depend on the centre's order.
        for centre in centres[:1] if held[0] in EXPANSION_ROLES else centres:
            cards = dict(zip(names, held, strict=True)) | dict(
                zip(CENTRE_POSITIONS, centre, strict=True)
            )
            if Role.ALPHA_WOLF in held:
                cards[CENTRE_WOLF] = Role.WEREWOLF  # Daybreak: the centre werewolf card
            deals.append(Deal(ruleset=ruleset, players=tuple(names), cards=cards))
    return deals


def _copycat_deals(ruleset: Ruleset, limits: Mapping[Role, int]) -> list[tuple[Deal, str]]:
    """A small deal per card the Copycat could find in the centre (8b.4), at each place."""
    names = made_up_players(4)
    held = (Role.COPYCAT, Role.WEREWOLF, Role.TANNER, Role.VILLAGER)
    deals: list[tuple[Deal, str]] = []
    for role in limits:
        for position in CENTRE_POSITIONS:
            cards = dict(zip(names, held, strict=True))
            cards |= {p: Role.VILLAGER for p in CENTRE_POSITIONS} | {position: role}
            if role is Role.ALPHA_WOLF:
                cards[CENTRE_WOLF] = Role.WEREWOLF
            deals.append((Deal(ruleset=ruleset, players=tuple(names), cards=cards), position))
    return deals


def _copycat_actions(deal: Deal, copycat: str, position: str) -> list[tuple[str, ...]]:
    """The Copycat's legal actions on the card at `position`: alone, or with the copy's first
    legal targets (a drunk's centre card, an alpha wolf's non-werewolf)."""
    shapes: list[tuple[str, ...]] = [(position,)]
    shapes += [(position, c) for c in CENTRE_POSITIONS if c != position]
    shapes += [(position, p) for p in deal.players[1:]]
    legal: list[tuple[str, ...]] = []
    for shape in shapes:
        try:
            legal.append(validate_action(deal, copycat, shape))
        except RuleError:
            continue
    return legal


def _legal_actions(deal: Deal, player: str, *, few: bool = False) -> list[tuple[str, ...]]:
    """Every action `player` may send in `deal` (a Doppelganger's copy and its copied role's
    action, one after the other). `few`: the pairs among a few players only, with Vampire's
    shapes (the Gremlin's word, the Marksman's "-", a pair with oneself)."""
    others = [p for p in deal.players if p != player]
    shapes: list[tuple[str, ...]] = [()]
    shapes += [(p,) for p in deal.positions if p != player]
    if few:
        near = list(dict.fromkeys([*neighbours(deal.players, player), *others[:2], *others[-2:]]))
        some = [player, *near]
        shapes += [(a, b) for a in some for b in some if a != b]
        shapes += [(w, a, b) for w in ("marks", "cards") for a in some for b in some if a != b]
        shapes += [("-", p) for p in others] + [(p, "-") for p in others]
    else:
        shapes += [(a, b) for a in others for b in others if a != b]
    shapes += [(a, b) for a in CENTRE_POSITIONS for b in CENTRE_POSITIONS if a < b]
    # Daybreak: the witch's centre card and player (herself too), the curator's own card.
    shapes += [(c, p) for c in CENTRE_POSITIONS for p in deal.players]
    shapes += [(player,)]
    if deal.cards[player] is Role.DOPPELGANGER:
        shapes += [(p, *rest) for p in others for rest in shapes[1:] if p not in rest]
    legal: list[tuple[str, ...]] = []
    for shape in shapes:
        try:
            legal.append(validate_action(deal, player, shape))
        except RuleError:
            continue
    return legal


def _night(deal: Deal, player: str, action: tuple[str, ...]) -> NightResult | None:
    """The night where `player` sends `action`, the drunk takes the left card, a Copycat copies
    the left card and nobody else acts (a drunk or Copycat that is `player` sends its own;
    Vampire's other "must" roles are done by the engine, 8b.3)."""
    actions: dict[str, tuple[str, ...]] = {
        p: ("left",)
        for p in deal.players
        if deal.cards[p] in (Role.DRUNK, Role.COPYCAT) and p != player
    }
    for alpha in deal.players_dealt(Role.ALPHA_WOLF):
        # Daybreak's alpha wolf must act too: its first legal swap.
        actions[alpha] = next((a for a in _legal_actions(deal, alpha) if a), ())
    actions[player] = action
    try:
        return resolve_night(deal, actions, with_log=False)
    except RuleError:
        return None
