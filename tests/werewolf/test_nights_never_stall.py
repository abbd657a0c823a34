"""No night of the 1.7.0 game can stall: whenever the night goes on, some living seat still has
a part to play that its page offers (a night form it has not answered, "Done for tonight"), so
bots that only act on what their page asks of them always reach the day without the clock.
A witch who answered before the pack chose waits (her page says so) until the pack has chosen,
then is asked again (docs/rules.md 10, the witch).

Played through the family's moves as a page posts them (play.py `move`): a bot like the browser
walk's (tests/browser/test_first_screenful.py: each seat in turn takes its first choice, sparing
the werewolves) and random bots (a random offered choice of a random seat asked now).
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import permutations

import pytest

from games.families.werewolf import play
from games.families.werewolf.panels import FormView, WerewolfView, view_of
from games.families.werewolf.stored import game_of
from games.tables.family import FamilyError, SeatInfo, TableInfo

from .test_online_forms import NOW, Post, applied, new_table, offered, quiet_table

SIX = {"guardian": 1, "hunter": 1, "villager": 2, "werewolf": 1, "witch": 1}


def asked_tonight(view: WerewolfView) -> bool:
    """Whether the seat's page asks something of it tonight (werewolf/panel.html): a night
    form not answered yet, or "Done for tonight" not said yet."""
    if view.done or view.waits_for_pack:
        return False
    return bool(view.night) or view.sleep


def _night_posts(view: WerewolfView, wolves: set[str]) -> Post:
    """The browser walk's night: the first player (not "nobody", no werewolf) in each list."""
    if not view.night:
        return "ready", {"ready": ["yes"]}
    fields: dict[str, list[str]] = {}
    for form in view.night:
        if form.key == "save":
            continue  # the walk never ticks the antidote
        chosen = next(
            (o.value for o in form.options if o.value != "nobody" and o.label not in wolves), None
        )
        if chosen is not None:
            fields[form.key] = [chosen]
    return "night", fields


def at_night(table: TableInfo) -> bool:
    """The night's choices are open (not its end, waiting for a dead hunter's shot)."""
    state = game_of(table.state).state
    return table.stage == "playing" and table.phase == "night" and not state.pending


def _check_night(table: TableInfo, where: str) -> None:
    """The night goes on: some living seat's page must ask something of it."""
    if not at_night(table):
        return
    living = [s for s in table.seats if s.alive]
    asked = [s.name for s in living if asked_tonight(view_of(table, s))]
    assert asked, f"{where}: the night goes on and no page asks anything"


def _first_choice_walk(table: TableInfo, order: list[SeatInfo], wolves: set[str]) -> int:
    """The browser walk at night (days go by on the clock); returns the nights played."""
    nights = 0
    for _step in range(200):
        if table.stage != "playing":
            return nights
        if not at_night(table):  # the days (and a dead hunter's shot) go by on the clock
            table = applied(table, play.on_deadline(table, NOW))
            continue
        _check_night(table, f"night {table.round}")
        seat = next(s for s in order if s.alive and asked_tonight(view_of(table, s)))
        kind, fields = _night_posts(view_of(table, seat), wolves)
        before = table.round
        change = play.move(table, seat, kind, fields, NOW)  # never refused
        assert change.state != table.state, f"{seat.name}'s {kind} changed nothing"
        table = applied(table, change)
        nights += table.phase != "night" or table.round != before
    raise AssertionError("the game did not end")


def test_the_browser_walk_never_stalls_in_sixty_seat_orders() -> None:
    """Sixty orders of the six seats of the browser walk's line-up (the roles dealt at random),
    so the witch sends before, between and after the werewolf's choice."""
    table = quiet_table("classic", SIX, players=6)
    game = game_of(table.state)
    wolves = {p for p, r in game.setup.roles.items() if r.name == "werewolf"}
    nights = 0
    orders = list(permutations(table.seats))
    for order in random.Random("orders").sample(orders, 60):
        nights += _first_choice_walk(table, list(order), wolves)
    assert nights > 60


@pytest.mark.parametrize("seed", range(12))
def test_random_bots_never_stall_a_night(seed: int) -> None:
    """Random 1.7.0 deals; at each step a random seat that its page asks something of sends a
    random offered choice (a witch asked again may send the same again); at night no bot ever
    needs the clock."""
    rng = random.Random(f"never-stall-{seed}")
    table = new_table("classic", 6 + seed % 7, rng)
    for _step in range(400):
        if table.stage != "playing":
            break
        if not at_night(table):
            table = applied(table, play.on_deadline(table, NOW))
            continue
        _check_night(table, f"seed {seed}, night {table.round}")
        views = {s.id: view_of(table, s) for s in table.seats if s.alive}
        seat = rng.choice([s for s in table.seats if s.id in views and asked_tonight(views[s.id])])
        kind, fields = rng.choice(list(offered(views[seat.id])))
        try:
            change = play.move(table, seat, kind, fields, NOW)
        except FamilyError as error:  # only a stale antidote: the page would say why
            assert "nobody to save" in str(error), error
            continue
        assert change.state != table.state
        table = applied(table, change)
    assert table.stage == "over", f"seed {seed}: the game did not end"


def _walker_post(
    view: WerewolfView, name: str, label: str, wolves: set[str], once: set[str]
) -> Post | None:
    """The browser walk's `_act` on a view (tests/browser/test_first_screenful.py): the move
    its page would send, or None (nothing to do)."""

    def first(form: FormView) -> list[str]:
        chosen = next(
            (o.value for o in form.options if o.value != "nobody" and o.label not in wolves), None
        )
        return [chosen] if chosen is not None else []

    if view.night and not (view.done or view.waits_for_pack):
        return _night_posts(view, wolves)
    if view.sleep and not view.done:
        return "ready", {"ready": ["yes"]}
    if view.can_second:
        return "second", {}
    if any(f.kind == "call_vote" for f in view.forms) and f"{name} {label}" not in once:
        once.add(f"{name} {label}")
        return "fist", {"yes": ["yes"]}
    for kind in ("sheriff_vote", "decide", "vote", "accuse"):
        form = next((f for f in view.forms if f.kind == kind), None)
        card = f"form-{kind}-{form.key if form else ''}"
        key = label if kind == "accuse" else f"{name} {label} {card}"
        if key in once or form is None or (kind != "decide" and view.done):
            continue
        once.add(key)
        fields = {"target": first(form)}
        if kind == "accuse":
            return "accuse", fields
        return kind, fields
    if view.talking and not view.done:
        return "ready", {"ready": ["yes"]}
    return None


@pytest.mark.parametrize("seed", range(15))
def test_the_browser_walk_s_bot_always_has_a_way_on(seed: int) -> None:
    """The browser walk's whole game, days included, on the walk's line-up dealt at random:
    every move its bot sends is accepted, and when no seat has anything to do the host's "Move
    on now" is (a refusal would leave the walk waiting for a new version forever)."""
    rng = random.Random(f"walk-{seed}")
    table = quiet_table("classic", SIX, players=6)
    table = applied(
        replace(table, state=None, stage="lobby"),
        play.start(replace(table, state=None, stage="lobby"), rng, NOW),
    )
    game = game_of(table.state)
    wolves = {p for p, r in game.setup.roles.items() if r.name == "werewolf"}
    host = table.seats[0]
    once: set[str] = set()
    for _step in range(300):
        if table.stage != "playing":
            break
        label = f"{table.phase} {table.round} {game_of(table.state).state.step}"
        for seat in table.seats:
            post = _walker_post(view_of(table, seat), seat.name, label, wolves, once)
            if post is None:
                continue
            kind, fields = post
            try:
                change = play.move(table, seat, kind, fields, NOW)
            except FamilyError as error:
                roles = {p: r.name for p, r in game.setup.roles.items()}
                message = f"{label}: {seat.name}'s {kind} {fields}: {error} {roles}"
                raise AssertionError(message) from None
            break
        else:
            try:
                change = play.move(table, host, "advance", {}, NOW)
            except FamilyError as error:
                state = game_of(table.state).state
                raise AssertionError(
                    f"{label}: nobody acts, and Move on now is refused: {error};"
                    f" awaited {state.awaited}"
                ) from None
        table = applied(table, change)
    assert table.stage == "over"
