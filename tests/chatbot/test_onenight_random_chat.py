"""Random One Night games played only through the bot's commands, as Discord players type them.

Each game opens by `!new`, `!join` and `!start` in a channel, with a random legal deck of a
random size: the base cards, Daybreak's and the Prince at both rulesets' tables, Vampire's only
at official ones (docs/rules.md 8a.8). Then every seat the game waits for answers by private
message: at night `!target <game id> ...`, by day `!ready` (or the host's `!endday`), then
`!vote`. Most answers are a legal choice, taken at random among those the seat's page offers
(its `action_form`) and the engine accepts, and written as a player would: names in any case,
with an @ or as a mention, centre cards as left, middle and right, "nobody" where the role may
abstain. Some are junk: a wrong number of names, unknown names, the seat's own name, centre
cards where players are wanted, nothing, random words, a secret command in the channel.

Seats the game does not wait for speak too: a `!target` after their action is in or while
their copy is held, a `!vote` or `!target` by day, any move after the reveal.

After every command it asserts that the bot answered (no exception out of the command layer,
never an empty reply); that an answer which changed nothing is one of the bot's known refusals
(a `!target`'s starts "Game <id>: nothing was sent.") and left the table's version and state as
they were; that a legal choice is always taken and moves the version on (but a copier's first
step, taken unseen: `Change.unseen`); that `!ready` said again is refused; that junk the bot took
is a move the seat's page could have posted. Some command always moves the game on, every game
reaches its reveal, posted in the channel, and no villager's letters tie another seat's name to
that seat's card.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.utils import timezone

from games.chatbot.commands import Reply
from games.families.onenight import panels
from games.families.onenight.engine import (
    EXPANSION_ROLES,
    MIN_PLAYERS,
    VAMPIRE_ROLES,
    Role,
    RuleError,
    Ruleset,
    max_players,
    role_limits,
    validate_deck,
)
from games.families.onenight.family import OneNight
from games.families.onenight.play import OneNightState
from games.tables.family import FamilyError, SeatInfo, TableInfo
from games.tables.models import Table
from games.tables.reads import table_info
from tests.chatbot.helpers import FakeChat
from tests.chatbot.test_commands import open_game, start_dealt
from tests.onenight.offered import Post, offered

pytestmark = pytest.mark.django_db

FAMILY = OneNight()
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou", "Max"]
CHANNEL = "game"
JUNK = 0.3  # how often a seat the game waits for sends junk instead of a legal choice
CENTRE_WORDS = ("left", "middle", "right")

# The bot's answers that change nothing, besides a `!target`'s "Game <code>: nothing was sent."
# (<code>: this game's id, as the answers are read by `Game.say`).
REFUSALS = (
    r"Game <code>: nothing was sent\. ",
    r"Nobody is called “.*” in game <code>\. The players are ",
    r"(<@\d+>|@?\w+) is not playing in game <code>\.",
    r"Game <code> is not in its night: night actions are closed\.",
    r"You already sent your night action; it is final\.",
    r"Game <code>: Your copy is made\.",  # docs/rules.md 8a.10: a held copy
    r"Send `!(target|vote)` to me in a private message: ",
    r"There is no game \w+\.",
    r"Game <code> is over\.",
    r"Vote for one player: `!vote <code> <player>`\.",
    r"You cannot vote for yourself\.",
    r"You already voted; votes are final\.",
    r"`!ready <code>` says you are ready; `!ready <code> no` not\.",
    r"Only the host can do that\.",
    r"You are already ready to vote\.",
    r"You have not said you are ready, so there is nothing to take back\.",
    r"It is (the )?\w+: that can't be done now\.",
)
# Its answer to a copier's first step, taken without a new version when an action follows.
COPY_TAKEN = r"Game <code>: (Your choice is in|You looked at the (left|middle|right) card)\."
# Its answers to a move it took.
ACCEPTANCES = (
    r"Game <code>: Your action is in",
    r"Game <code>: Your choice is in\.",
    r"Game <code>: You copied nobody\.",
    r"Game <code>: You looked at the (left|middle|right) card\.",
    r"\w+ is ready to vote in game <code>\.",
    r"\w+ is not ready to vote after all\.",
    r"The host ended the day of game <code>",
    r"Game <code>: your vote for \w+ is in\.",
)


def random_deck(rng: random.Random, ruleset: Ruleset) -> tuple[list[str], int]:
    """A legal deck for a random table size, shuffled (dealt in this order): base cards, with
    up to four of Daybreak's cards and the Prince, and at official tables half the time one to
    five of Vampire's (house tables refuse them: docs/rules.md 8a.8)."""
    limits = role_limits(ruleset)
    pool = [role for role, n in limits.items() for _ in range(n)]
    vampire = [role for role in pool if role in VAMPIRE_ROLES]
    if ruleset is Ruleset.HOUSE:
        vampire = []
    daybreak = [role for role in pool if role in EXPANSION_ROLES and role not in VAMPIRE_ROLES]
    base = [role for role in pool if role not in EXPANSION_ROLES]
    sizes = list(range(MIN_PLAYERS, max_players(ruleset) + 1))
    weights = [4 if size <= 6 else 2 if size <= 9 else 1 for size in sizes]
    for _attempt in range(1000):
        players = rng.choices(sizes, weights)[0]
        cards = players + 3 + (1 if rng.random() < 0.1 else 0)  # the Alpha Wolf's card
        deck = rng.sample(daybreak, rng.randint(0, min(4, cards)))
        if vampire and rng.random() < 0.5:
            deck += rng.sample(vampire, rng.randint(1, 5))
        if not 0 <= cards - len(deck) <= len(base):
            continue
        deck += rng.sample(base, cards - len(deck))
        try:
            validate_deck(ruleset, deck, players)
        except RuleError:
            continue
        rng.shuffle(deck)
        return [role.value for role in deck], players
    raise AssertionError("no legal deck")


def accepted_state(table: TableInfo, seat: SeatInfo, post: Post) -> dict[str, Any] | None:
    """The state the engine would make of `post` (None: it refuses it). Nothing is stored."""
    kind, fields = post
    try:
        return dict(FAMILY.move(table, seat, kind, fields, timezone.now()).state)
    except FamilyError:
        return None


@dataclass
class Game:
    """One game by chat: its table, the players, and what the test has seen of it."""

    chat: FakeChat
    rng: random.Random
    table: Table
    names: list[str]
    commands: int = 0
    junk_taken: int = 0
    unseen: int = 0
    now: TableInfo | None = None
    refusals: set[str] = field(default_factory=set)

    @property
    def code(self) -> str:
        return self.table.code

    def info(self) -> TableInfo:
        """The table as stored (read again after each command: `say`)."""
        if self.now is None:
            self.table.refresh_from_db()
            self.now = table_info(self.table)
        return self.now

    def seat(self, name: str) -> SeatInfo:
        return next(s for s in self.info().seats if s.name == name)

    # --- writing as a player ------------------------------------------------------------------

    def name_as_typed(self, name: str) -> str:
        way = self.rng.randrange(6)
        if way == 0:
            return name.lower()
        if way == 1:
            return name.upper()
        if way == 2:
            return f"@{name}"
        if way == 3:
            return f"<@{FakeChat.user_id(name)}>"  # a Discord mention of the player
        return name

    def words(self, values: list[str]) -> str:
        """A form's values (seat ids, centre positions, "left,12", the Gremlin's word, "-") as
        a player types them."""
        names = {str(s.id): s.name for s in self.info().seats}
        parts: list[str] = []
        for value in values:
            for part in value.split(","):
                if part in names:
                    parts.append(self.name_as_typed(names[part]))
                elif part in CENTRE_WORDS and self.rng.random() < 0.2:
                    parts.append(part.capitalize())
                else:
                    parts.append(part)
        joiner = self.rng.choice((" ", ", ", " and ", "  "))
        if parts and parts[0] in ("marks", "cards"):
            # The Gremlin's word leads, then its two players ("marks Ann and Ben", or
            # "marks and Ann and Ben" when the joiner is "and").
            return (
                joiner.join(parts) if joiner == " and " else f"{parts[0]} {joiner.join(parts[1:])}"
            )
        return joiner.join(parts)

    def legal_words(self, form: panels.ActionForm, post: Post) -> str:
        _kind, fields = post
        if "no_action" in fields:
            if form.kind == "none":
                return self.rng.choice(("", "", "nobody"))
            return self.rng.choice(("nobody", "Nobody", "no action"))
        return self.words(fields["targets"])

    def junk(self, me: str) -> str:
        others = [n for n in self.names if n != me]
        ways: list[Callable[[], str]] = [
            lambda: "",
            lambda: "Zed",
            lambda: me,
            lambda: self.rng.choice(CENTRE_WORDS),
            lambda: "left middle right",
            lambda: " ".join(self.rng.sample(others, min(3, len(others)))),
            lambda: self.rng.choice(others),
            lambda: f"{self.rng.choice(others)} Zed",
            lambda: "please be kind",
            lambda: "nobody",
            lambda: "- -",
            lambda: f"marks {me}",
            lambda: f"{me} {me}",
            lambda: "<@123456>",
        ]
        return self.rng.choice(ways)()

    # --- one command ----------------------------------------------------------------------------

    def say(self, name: str, text: str, channel: str | None = None) -> tuple[Reply, bool]:
        """`name` sends `text`; the bot's answer, checked, and whether the game took it."""
        before = self.info()
        reply = self.chat.say(name, text, channel)
        self.now = None
        self.commands += 1
        assert reply is not None, (name, text)
        answers = [*reply.private, *reply.public]
        assert answers and all(a.strip() for a in answers), (name, text, reply)
        after = self.info()
        answer = answers[0].replace(self.code, "<code>")
        moved, changed = after.version != before.version, after.state != before.state
        if not moved and not changed:
            assert any(re.match(p, answer) for p in REFUSALS), (name, text, answer)
            self.refusals.add(answer.split("\n")[0])
            return reply, False
        assert any(re.match(p, answer) for p in ACCEPTANCES), (name, text, answer)
        assert after.version >= before.version, (name, text)
        if not moved:
            # A copier's first step with an action to follow is seen by its sender alone: no
            # new version tells the table that someone copied a card (Change.unseen).
            assert after.phase == "night" and re.match(COPY_TAKEN, answer), (name, text, answer)
            self.unseen += 1
        else:
            assert changed, (name, text, answer)  # a new version always says something new
        return reply, True

    # --- the night ------------------------------------------------------------------------------

    def night_turn(self) -> bool:
        """Every seat the night waits for answers, in a random order: junk, a legal choice, or
        junk and then a legal choice. Whether a legal choice was sent (and so taken)."""
        info = self.info()
        asked = [
            name
            for name in self.names
            if panels.view_of(info, self.seat(name)).action_form is not None
        ]
        assert asked, "the night waits, yet no seat is asked anything"
        legal = False
        self.chat.deliver()
        for name in self.rng.sample(asked, len(asked)):
            info = self.info()
            if info.phase != "night":
                break
            seat = self.seat(name)
            form = panels.view_of(info, seat).action_form
            if form is None:  # a held copy (docs/rules.md 8a.10) another's action let go
                continue
            inbox = "\n".join(self.chat.inbox[name])
            assert f"`!target {self.code}" in inbox, (name, inbox)  # the letter says how
            if self.rng.random() < JUNK:
                self.send_junk(name, info, seat, form)
                if self.rng.random() < 0.5:
                    continue
                info = self.info()
                form = panels.view_of(info, seat).action_form
                if form is None or info.phase != "night":
                    continue  # the junk was a legal choice after all
            posts = offered(form)
            self.rng.shuffle(posts)
            post = next((p for p in posts if accepted_state(info, seat, p) is not None), None)
            assert post is not None, ("no post of the form is legal", name, form)
            text = f"!target {self.code} {self.legal_words(form, post)}".strip()
            reply, taken = self.say(name, text)
            assert taken, ("a legal choice was refused", name, text, post, reply)
            legal = True
        resting = [n for n in self.names if n not in asked]
        if resting and self.rng.random() < 0.3 and self.info().phase == "night":
            # A seat the night does not wait for (its action is in, or its copy is held).
            name = self.rng.choice(resting)
            _reply, taken = self.say(name, f"!target {self.code} {self.junk(name)}".strip())
            assert not taken, name
        return legal

    def send_junk(
        self, name: str, info: TableInfo, seat: SeatInfo, form: panels.ActionForm
    ) -> None:
        """Junk from `name`; if the bot takes it, it is a move the seat's page offers."""
        where = CHANNEL if self.rng.random() < 0.05 else None
        code = self.code if self.rng.random() > 0.05 else "ZZZZZZZZ"
        text = f"!target {code} {self.junk(name)}".strip()
        _reply, taken = self.say(name, text, where)
        if taken:
            self.junk_taken += 1
            after = OneNightState(self.info().state).actions.get(name)
            results = [accepted_state(info, seat, p) for p in offered(form)]
            allowed = [OneNightState(r).actions.get(name) for r in results if r is not None]
            assert after in allowed, ("junk taken that the page does not offer", name, text)

    # --- the day and the vote ---------------------------------------------------------------------

    def day_turn(self) -> bool:
        """Each seat says something by day, mostly `!ready` (a seat may take it back, so no
        one turn need end the day: `play` bounds the turns); whether the host ended it."""
        legal = False
        self.chat.deliver()
        for name in self.names:  # the day letter says how to end the day
            assert f"`!ready {self.code}`" in "\n".join(self.chat.inbox[name]), name
        for name in self.rng.sample(self.names, len(self.names)):
            if self.info().phase != "day":
                break
            roll = self.rng.random()
            if roll < 0.1:
                self.say(name, f"!ready {self.code} {self.rng.choice(('maybe', 'Ann', 'later'))}")
            elif roll < 0.15:
                command = self.rng.choice(("vote", "target"))
                _reply, taken = self.say(name, f"!{command} {self.code} {self.junk(name)}")
                assert not taken, (name, command)
            elif roll < 0.2:
                self.say(name, f"!ready {self.code} no", CHANNEL)
            elif roll < 0.22:
                # Only the host may end the day; anyone else is refused.
                _reply, taken = self.say(name, f"!endday {self.code}", CHANNEL)
                assert taken == (name == self.names[0]), (name, taken)
                legal |= taken
            else:
                self.say(name, f"!ready {self.code}", CHANNEL)
        return legal

    def vote_turn(self) -> bool:
        """Each seat that has not voted votes (or sends junk); whether a legal vote was sent."""
        legal = False
        self.chat.deliver()
        for name in self.names:  # the vote letter says how to vote
            assert f"`!vote {self.code} <player>`" in "\n".join(self.chat.inbox[name]), name
        for name in self.rng.sample(self.names, len(self.names)):
            info = self.info()
            if info.phase != "voting":
                break
            view = panels.view_of(info, self.seat(name))
            others = [n for n in self.names if n != name]
            if view.has_voted:
                if self.rng.random() < 0.2:
                    self.say(name, f"!vote {self.code} {self.rng.choice(others)}")
                continue
            if self.rng.random() < JUNK:
                junk = self.rng.choice(
                    (name, "Zed", "", "nobody", "left", " ".join(others[:2]), "up down")
                )
                where = CHANNEL if self.rng.random() < 0.1 else None
                _reply, taken = self.say(name, f"!vote {self.code} {junk}".strip(), where)
                assert not taken, (name, junk)
                continue
            roll = self.rng.random()
            if roll < 0.15:
                target = "up"
            elif roll < 0.3:
                target = "down"
            else:
                target = self.name_as_typed(self.rng.choice(others))
            reply, taken = self.say(name, f"!vote {self.code} {target}")
            assert taken, ("a legal vote was refused", name, target, reply)
            legal = True
        return legal


def play(seed: int, ruleset: str) -> Game:
    """A whole random game, from `!new` to the reveal, every command checked."""
    rng = random.Random(seed)
    deck, players = random_deck(rng, Ruleset(ruleset))
    chat = FakeChat()
    names = NAMES[:players]
    table = open_game(chat, names, ruleset=ruleset)
    start_dealt(chat, table, names[0], deck)
    game = Game(chat, rng, Table.objects.get(pk=table.pk), names)
    turns = {"night": game.night_turn, "day": game.day_turn, "voting": game.vote_turn}
    for _turn in range(100):
        info = game.info()
        if info.stage == "over":
            break
        assert info.phase in turns, info.phase
        if turns[info.phase]():
            # A legal choice was taken: the game moved on.
            assert game.info().state != info.state, (info.phase, "nothing moved the game on")
    info = game.info()
    assert info.phase == "reveal" and info.stage == "over", (seed, ruleset, info.phase)
    chat.deliver()
    assert any(p.startswith(f"**Game {game.code}: the reveal**") for p in chat.channels[CHANNEL])
    no_villager_learns_a_card(game)
    for name in rng.sample(names, 2):  # the game is over: nothing more is taken
        for command in ("target", "vote", "ready"):
            _reply, taken = game.say(name, f"!{command} {game.code} {rng.choice(names)}")
            assert not taken, (name, command)
    return game


def no_villager_learns_a_card(game: Game) -> None:
    """A villager learns nobody's card before the reveal: no line of its letters holds another
    seat's name with that seat's start card (what lies in plain sight on the table aside)."""
    dealt = OneNightState(game.info().state).deal.cards
    for villager in (n for n in game.names if dealt[n] is Role.VILLAGER):
        for letter in game.chat.inbox[villager]:
            if "the reveal" in letter:
                break
            text = letter.split("On the table:")[0]
            for line in text.split("\n"):
                for other in game.names:
                    card = dealt[other]
                    if other == villager or card is Role.VILLAGER:
                        continue
                    assert not (re.search(rf"\b{other}\b", line) and card.title in line), (
                        villager,
                        other,
                        line,
                    )


@pytest.mark.parametrize("ruleset", ["official", "house"])
@pytest.mark.parametrize("seed", range(6))
def test_a_random_game_by_chat_reaches_its_reveal(seed: int, ruleset: str) -> None:
    game = play(seed, ruleset)
    assert game.commands > len(game.names)


def test_forty_random_games_by_chat() -> None:
    """Forty more games in one test (about 40 s on one core), official and house: besides
    each game's own checks, the games as a whole dealt Vampire's and Daybreak's cards, some
    junk was refused, and some copier's first step was taken unseen."""
    dealt: set[Role] = set()
    refused = unseen = 0
    for seed in range(100, 140):
        game = play(seed, "official" if seed % 3 else "house")
        dealt |= set(OneNightState(game.info().state).deal.cards.values())
        refused += len(game.refusals)
        unseen += game.unseen
    assert dealt & VAMPIRE_ROLES and dealt & (EXPANSION_ROLES - VAMPIRE_ROLES)
    assert refused > 40 and unseen > 0
