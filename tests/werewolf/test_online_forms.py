"""The online forms of multi-night Werewolf offer exactly what the rules allow, and refuse
the rest in the app's own words (issue 35, item 5).

Random games of each ruleset are played through the family's moves as a page posts them
(games/families/werewolf/play.py `move`, the family interface the table services call). At
every step, for every seat, every choice the seat's panel offers (panels.view_of: the forms
the template draws) is sent on its own and must be accepted; then what a player can send by
mistake (nothing chosen, a player who died since the page was drawn, "nobody" where it is not
offered, a form of another step) must be refused with one of the app's sentences: never the
engine's own words, written for the scenario files ("day 1: Eve (Knight) must name a player,
not None (004 II Knight, IV)"). The page-level test checks that the template draws these forms
with no choice made for the player.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from games.families.werewolf import options as table_options
from games.families.werewolf import play
from games.families.werewolf.engine import NOBODY
from games.families.werewolf.engine.autoplay import random_setup
from games.families.werewolf.panels import WerewolfView, view_of
from games.families.werewolf.stored import game_of, name_of
from games.tables.family import Change, FamilyError, SeatInfo, TableInfo

NAMES = (
    "Ann",
    "Ben",
    "Cat",
    "Dan",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kim",
    "Lou",
    "Max",
    "Ned",
)
NOW = datetime(2026, 1, 1, tzinfo=UTC)
Post = tuple[str, dict[str, list[str]]]

# What the app answers to a post its page would not send, in its own words (play.py,
# seat_moves.py, posted.py).
OUR_REFUSALS = (
    r"Choose whom you vote for\.",
    r"Choose whom you vote for as sheriff\.",
    r"Choose a player first\.",
    r"Choose a player, or nobody\.",
    r"Accuse another living player\.",
    r"Choose the player Fate strikes down\.",
    r"Choose a player from the list on the page\.",
    r"\w+ can't be chosen now: choose again\.",
    r"\w+ is dead\.",
    r"There is no vote for you to cast now\.",
    r"There is no sheriff election now\.",
    r"There is no execution call to make now\.",
    r"There is no accusation to second\.",
    r"The call cannot be seconded now\.",
    r"Someone other than the caller and the accused must second the call\.",
    r"You can't do that now\.",
    r"Nothing waits for your decision\.",
    r"Nobody is attacked tonight: there is nobody to save\.",
    r"Fate smites by day, between the game's decisions and calls\.",
    r"You have died: the game goes on without you\.",
    r"That is for the day\.",
    r"There is no execution call to vote on now\.",
    r"There is no night choice for you to make now\.",
    r"There is nothing to say you are done with now\.",
)


def random_options(ruleset: str, rng: random.Random, players: int) -> dict[str, object]:
    """A table's options for a random legal deal of the engine's own generator (every role of
    the ruleset turns up over a few games: knights, idiots, crossbows, lovers...)."""
    setup = random_setup(ruleset, rng, players)
    options = dict(table_options.defaults(ruleset))
    options["roles"] = dict(Counter(role.name for role in setup.roles.values()))
    options["rules"] = {**options["rules"], **setup.options}
    options["opens_with"] = setup.opens_with
    if ruleset == "oxford":
        options |= {
            "lovers": len(setup.lovers),
            "rivals": len(setup.rivals),
            "crossbows": len(setup.crossbows),
        }
    return options


def new_table(ruleset: str, players: int, rng: random.Random) -> TableInfo:
    seats = tuple(SeatInfo(i + 1, NAMES[i], i, is_host=i == 0) for i in range(players))
    table = TableInfo(
        code="TEST",
        family="werewolf",
        ruleset=ruleset,
        options=random_options(ruleset, rng, players),
        stage="lobby",
        phase="",
        round=0,
        version=1,
        deadline=None,
        state=None,
        seats=seats,
    )
    return applied(table, play.start(table, rng, NOW))


def applied(table: TableInfo, change: Change) -> TableInfo:
    return replace(
        table,
        state=change.state,
        stage="over" if change.finished else "playing",
        phase=change.phase,
        round=change.round,
        version=table.version + 1,
        deadline=change.deadline,
        seats=tuple(replace(s, alive=s.id not in change.dead) for s in table.seats),
    )


def offered(view: WerewolfView) -> Iterator[Post]:
    """Every post the seat's panel lets it send, one choice each (werewolf/panel.html)."""
    for field in view.night:
        if field.key == "save":
            if field.options:
                yield "night", {"save": ["yes"]}
            continue
        for option in field.options:
            yield "night", {field.key: [option.value]}
    if view.night:
        yield "night", {}  # every field left on "nobody tonight"
    for form in view.forms:
        values = [o.value for o in form.options]
        if form.kind == "vote":
            yield from (("vote", {"target": [v]}) for v in values)
        elif form.kind == "sheriff_vote":
            yield from (("sheriff_vote", {"target": [v]}) for v in values)
        elif form.kind == "day":
            if not values:
                yield "ability", {"ability": [form.key]}
            for value in values + ([NOBODY] if form.optional and values else []):
                yield "ability", {"ability": [form.key], "target": [value]}
        elif form.kind == "accuse":
            yield from (("accuse", {"target": [v]}) for v in values)
        elif form.kind == "call_vote":
            yield from (("fist", {"yes": [v]}) for v in ("yes", "no"))
        elif form.kind == "decide":
            yield from (("decide", {"target": [v]}) for v in [NOBODY, *values])
        else:
            raise AssertionError(f"a form the test does not know: {form.kind}")
    if view.can_second:
        yield "second", {}
    if view.talking:  # "I'm done talking" (or, once said, "not done after all")
        yield "ready", {"ready": ["no" if view.done else "yes"]}
    if view.sleep and not view.done:
        yield "ready", {"ready": ["yes"]}  # "Done for tonight": no night form, a part all the same


def smites(table: TableInfo, view: WerewolfView) -> Iterator[Post]:
    if view.can_smite:
        for seat in table.seats:
            if seat.alive:
                yield "smite", {"target": [str(seat.id)]}


def mistaken(table: TableInfo, seat: SeatInfo, view: WerewolfView) -> Iterator[Post]:
    """What a player can send that the page did not offer: nothing chosen in a form that needs
    a choice, a player who has died, "nobody" where the list has no such line, and forms of a
    step that is not (or no longer) on."""
    dead = [str(s.id) for s in table.seats if not s.alive]
    kinds = {f.kind for f in view.forms}
    for form in view.forms:
        move = {
            "vote": "vote",
            "sheriff_vote": "sheriff_vote",
            "accuse": "accuse",
            "decide": "decide",
            "day": "ability",
        }.get(form.kind)
        if move is None:
            continue
        extra = {"ability": [form.key]} if form.kind == "day" else {}
        if form.kind != "day" or (form.options and not form.optional):
            yield move, {**extra, "target": [""]}
        for value in dead[:1]:
            yield move, {**extra, "target": [value]}
        if form.kind in ("sheriff_vote", "accuse") or (
            form.kind == "vote" and NOBODY not in {o.value for o in form.options}
        ):
            yield move, {**extra, "target": [NOBODY]}
    for field in view.night:
        for value in dead[:1]:
            if field.key != "save":
                yield "night", {field.key: [value]}
    if "vote" not in kinds:
        yield "vote", {"target": [str(seat.id)]}
    if "sheriff_vote" not in kinds:
        yield "sheriff_vote", {"target": [str(seat.id)]}
    if "decide" not in kinds:
        yield "decide", {"target": [NOBODY]}
    if "day" not in kinds:
        yield "ability", {"ability": ["duel"], "target": [str(table.seats[-1].id)]}
    if seat.is_host and not view.can_smite and not view.outcome:
        yield "smite", {"target": [str(table.seats[-1].id)]}
    if not view.talking and not view.sleep:  # "done" only where the page offers it
        yield "ready", {"ready": ["yes"]}
        yield "ready", {"ready": ["no"]}


class Selects(HTMLParser):
    """Each <select> of a page: its attributes and its options (value, selected)."""

    def __init__(self) -> None:
        super().__init__()
        self.selects: list[tuple[dict[str, str | None], list[tuple[str, bool]]]] = []
        self._open = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "select":
            self.selects.append((dict(attrs), []))
            self._open = True
        elif tag == "option" and self._open:
            values = dict(attrs)
            self.selects[-1][1].append((values.get("value") or "", "selected" in values))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._open = False


def drawn_choices(table: TableInfo, seat: SeatInfo, view: WerewolfView) -> list[set[str]]:
    """The seat's panel as the template draws it: every select that picks a player starts on
    an empty "— choose —" line, is required, and has nothing chosen for the player; returns
    each such select's values (the empty line left out)."""
    page = SimpleNamespace(
        table=SimpleNamespace(code=table.code),
        players=[SimpleNamespace(id=s.id, name=s.name, alive=s.alive) for s in table.seats],
    )
    context = {"wolf": view, "page": page}
    # The host's own controls (Fate's smite) are drawn in the page's Host tools box (issue 38).
    html = render_to_string("werewolf/panel.html", context) + render_to_string(
        "werewolf/host_tools.html", context
    )
    parser = Selects()
    parser.feed(html)
    drawn = []
    for attrs, options in parser.selects:
        if attrs.get("name") != "target":
            continue  # the night's fields: "nobody tonight" is sending nothing, changeable
        assert "required" in attrs, attrs
        assert options[0] == ("", False), options[:2]
        assert not any(selected for _value, selected in options), options
        drawn.append({value for value, _selected in options[1:]})
    return drawn


def refusal_in_our_words(error: FamilyError) -> None:
    message = str(error)
    assert "None" not in message, message
    assert not re.match(r"(day|night) \d+:", message), f"the engine's words: {message}"
    assert any(re.fullmatch(p, message) for p in OUR_REFUSALS), f"not our words: {message}"


def play_checking_every_form(ruleset: str, seed: int, players: int = 9) -> int:
    """One random game; returns how many posts were checked."""
    rng = random.Random(f"{ruleset}-{seed}")
    table = new_table(ruleset, players, rng)
    checked = 0
    for _step in range(300):
        if table.stage != "playing":
            break
        chosen: list[tuple[SeatInfo, Post]] = []
        # Every seat's choices at every step would be n² posts a step: three seats a step, a
        # different three each time, reach every seat at every kind of step over a game.
        checking = {s.id for s in rng.sample(table.seats, 3)}
        for seat in table.seats:
            view = view_of(table, seat)
            posts = list(offered(view))
            # A seat that is done (or waits for the pack) waits for the others, as its page
            # says (a witch who answered before the pack chose is asked again once it has).
            waits = view.done or view.waits_for_pack
            if seat.id not in checking:
                if posts and not waits:
                    chosen.append((seat, rng.choice(posts)))
                continue
            # The page draws the forms `offered` sends, with the same choices and none made.
            sent = [
                {f["target"][0]}
                for _kind, f in [*posts, *smites(table, view)]
                if "target" in f and _kind != "night"
            ]
            drawn = set().union(*drawn_choices(table, seat, view))
            assert drawn == set().union(*sent), (drawn, sent)
            for kind, fields in [*posts, *smites(table, view)]:
                try:
                    play.move(table, seat, kind, fields, NOW)
                except FamilyError as error:
                    player = name_of(table.state, seat.id)
                    pytest.fail(
                        f"{ruleset} {game_of(table.state).state.phase}: {player}'s page offers"
                        f" {kind} {fields}, refused: {error}"
                    )
                checked += 1
            for kind, fields in mistaken(table, seat, view):
                with pytest.raises(FamilyError) as refused:
                    play.move(table, seat, kind, fields, NOW)
                refusal_in_our_words(refused.value)
                checked += 1
            if posts and not waits:
                chosen.append((seat, rng.choice(posts)))
        # The game goes on with one offered choice of each seat, in a random order (a choice
        # made stale by an earlier one is refused in our words, and skipped), or by the clock.
        moved = False
        rng.shuffle(chosen)
        for seat, (kind, fields) in chosen:
            try:
                change = play.move(table, seat, kind, fields, NOW)
            except FamilyError as error:
                refusal_in_our_words(error)
                continue
            table = applied(table, change)
            moved = True
            if table.stage != "playing":
                break
        if not moved and table.stage == "playing":
            table = applied(table, play.on_deadline(table, NOW))
    assert table.stage == "over", f"{ruleset} game {seed} did not end"
    return checked


@pytest.mark.parametrize("ruleset", ["forum", "oxford", "classic"])
def test_every_offered_choice_is_accepted_and_every_mistake_refused_in_our_words(
    ruleset: str,
) -> None:
    checked = sum(play_checking_every_form(ruleset, seed, 8 + 2 * seed) for seed in range(4))
    assert checked > 500


# --- Whom a vote may name ---------------------------------------------------------------------


def to_form(table: TableInfo, kind: str) -> TableInfo:
    """The game moved on by its clock until Ann's page has a form of `kind`."""
    ann = table.seats[0]
    for _step in range(40):
        if any(f.kind == kind for f in view_of(table, ann).forms):
            return table
        assert table.stage == "playing", f"the game ended before a {kind} form"
        table = applied(table, play.on_deadline(table, NOW))
    raise AssertionError(f"no {kind} form for Ann")


def choices(table: TableInfo, kind: str) -> dict[str, str]:
    """Ann's form of `kind`: its choices, label by value."""
    form = next(f for f in view_of(table, table.seats[0]).forms if f.kind == kind)
    return {o.value: o.label for o in form.options}


def quiet_table(ruleset: str, roles: dict[str, int], players: int = 8) -> TableInfo:
    """A table whose night does nothing by itself: everyone alive at the first day."""
    table = new_table(ruleset, players, random.Random(ruleset))
    options = {**table_options.defaults(ruleset), "roles": roles, "opens_with": "day"}
    if ruleset != "forum":
        options.pop("opens_with")
    table = replace(table, options=options, state=None, stage="lobby")
    return applied(table, play.start(table, random.Random(1), NOW))


def test_the_forum_vote_offers_oneself_and_no_elimination() -> None:
    """001 day phase: "Every player can cast a vote to eliminate a player or to not eliminate
    any one. A player may vote for their self." """
    table = to_form(quiet_table("forum", {"werewolf": 2, "seer": 1, "villager": 5}), "vote")
    offered_to_ann = choices(table, "vote")
    assert offered_to_ann[str(table.seats[0].id)] == "Ann"
    assert NOBODY in offered_to_ann


def test_the_classic_votes_offer_oneself_and_no_nobody() -> None:
    """004 III names no rule against voting for oneself (docs/rules.md, the 1.7.0 game: "for
    a living player (themselves included)"); there is no "no one" to vote for: not voting is
    the abstention."""
    roles = {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 3}
    table = to_form(quiet_table("classic", roles), "sheriff_vote")
    sheriff = choices(table, "sheriff_vote")
    assert str(table.seats[0].id) in sheriff and NOBODY not in sheriff
    table = to_form(table, "vote")
    vote = choices(table, "vote")
    assert str(table.seats[0].id) in vote and NOBODY not in vote


def test_an_execution_call_names_another_player() -> None:
    """003 The Local Justice System: a call is put on someone else and seconded by a third."""
    roles = {"werewolf": 2, "trapper": 1, "villager": 5}
    table = to_form(quiet_table("oxford", roles), "accuse")
    assert str(table.seats[0].id) not in choices(table, "accuse")


def test_a_vote_sent_without_a_choice_is_refused_and_changes_nothing() -> None:
    """The page's first line is "— choose —" (required); sent anyway (no browser check), the
    vote is refused in our words: no vote for the first name on the list, no vote withdrawn."""
    roles = {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 3}
    table = to_form(quiet_table("classic", roles), "vote")
    ann, ben = table.seats[0], table.seats[1]
    table = applied(table, play.move(table, ann, "vote", {"target": [str(ben.id)]}, NOW))
    for empty in ({}, {"target": [""]}, {"target": ["  "]}):
        with pytest.raises(FamilyError, match=r"^Choose whom you vote for\.$"):
            play.move(table, ann, "vote", empty, NOW)
    assert game_of(table.state).state.votes["Ann"] == "Ben"


def test_done_is_refused_in_the_election_and_the_vote_and_changes_nothing() -> None:
    """A voter is done by voting: "I'm done talking" sent in the sheriff election or the vote
    (a page drawn in the speeches, or a hand-made post) is refused, and neither counts the
    player done (the count would move, and the vote could close without their vote) nor takes
    back a vote's "done"."""
    roles = {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 3}
    table = quiet_table("classic", roles)
    ann, ben = table.seats[0], table.seats[1]
    for kind, move in (("sheriff_vote", "sheriff_vote"), ("vote", "vote")):
        table = to_form(table, kind)
        assert not view_of(table, ann).talking
        table = applied(table, play.move(table, ben, move, {"target": [str(ann.id)]}, NOW))
        assert view_of(table, ben).done
        for seat, ready in ((ann, "yes"), (ben, "no")):
            with pytest.raises(
                FamilyError, match=r"^There is nothing to say you are done with now\.$"
            ):
                play.move(table, seat, "ready", {"ready": [ready]}, NOW)
        assert not view_of(table, ann).done and view_of(table, ben).done


def test_done_talking_in_the_speeches_and_not_after_all() -> None:
    roles = {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 3}
    table = quiet_table("classic", roles)
    ann = table.seats[0]
    for _step in range(40):
        if view_of(table, ann).talking:
            break
        table = applied(table, play.on_deadline(table, NOW))
    assert view_of(table, ann).step == "speech"
    table = applied(table, play.move(table, ann, "ready", {"ready": ["yes"]}, NOW))
    assert view_of(table, ann).done
    table = applied(table, play.move(table, ann, "ready", {"ready": ["no"]}, NOW))
    assert not view_of(table, ann).done
