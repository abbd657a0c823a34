"""Nobody gets stuck (issue 35): moderated games of every ruleset driven to their end by random
taps on what the moderator's screen offers, through the function the move view calls.

At every step: something is offered besides undo; every button offered is accepted (no choice
the rules refuse); the tap moves the game on. At the end: the same choices written as a scenario
file give, in the scenario runner (`play_werewolf`), the same phases, the same living and the
same winners.
"""

from __future__ import annotations

import html
import random

import pytest
from django.urls import reverse

from games.families.werewolf.engine.autoplay import random_setup
from games.families.werewolf.engine.report import phase_reports
from games.families.werewolf.engine.scenario import _entry, run_scenario
from games.families.werewolf.moderator.screen import moderator_view
from games.families.werewolf.stored import game_of
from games.tables.family import FamilyError
from games.tables.models import Table
from tests.citations import citations

from .moderated import Tap, deal, page_forms, page_taps, pick, scenario_of, send, taps
from .test_table_mode import Moderator

GAMES = {"forum": 100, "oxford": 70, "classic": 80}  # a few seconds in all
MAX_TAPS = 1500
TRIED = 3  # buttons tried at each step besides the one tapped


def _moved(before: dict, after: dict) -> bool:
    keys = ("moves", "done", "addressed", "called", "count", "accused")
    return any(before.get(k) != after.get(k) for k in keys)


def _play(ruleset: str, seed: int) -> None:
    rng = random.Random(f"{ruleset}-{seed}")
    table = deal(ruleset, rng)
    for _tap in range(MAX_TAPS):
        view = moderator_view(table)
        if view.over:
            break
        offered = taps(view, rng)
        onward = [t for t in offered if t.kind != "undo"]
        assert onward, f"{ruleset} {seed}: stuck at {view.label} ({view.step}): {offered}"
        # The buttons on the screen are ones the rules accept: a few tried at each step (all
        # of them, over the games), each on its own.
        buttons = [t for t in onward if t.single and not t.changes]
        for tap in rng.sample(buttons, min(TRIED, len(buttons))):
            if True:
                try:
                    after = send(table, tap)
                except FamilyError as error:
                    raise AssertionError(
                        f"{ruleset} {seed}: {view.label}: {tap} refused: {error}"
                    ) from None
                assert _moved(table.state, after.state), f"{ruleset} {seed}: {tap} did nothing"
        tap: Tap = pick(offered, rng)
        table = send(table, tap)
    else:
        raise AssertionError(f"{ruleset} {seed}: no end after {MAX_TAPS} taps")
    _ends_as_the_runner_says(ruleset, table.state)


def _ends_as_the_runner_says(ruleset: str, raw: dict) -> None:
    game = game_of(raw)
    scenario, finished = scenario_of(raw)
    expected = run_scenario(scenario)
    reports = phase_reports(game.setup, game.log)[:finished]
    assert expected["phases"] == [_entry(ruleset, r) for r in reports], scenario
    assert game.state.over
    outcome = game.state.outcome
    assert expected["winner"] == outcome.winner, scenario
    assert expected["winners"] == list(outcome.winners), scenario
    assert expected["alive"] == list(game.state.living()), scenario


@pytest.mark.parametrize("ruleset", ["forum", "oxford", "classic"])
def test_random_moderated_games_never_get_stuck_and_end_as_the_runner_says(ruleset: str) -> None:
    for seed in range(GAMES[ruleset]):
        _play(ruleset, seed)


RARE = ("undo", "smite", "ability", "count")


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(3))  # the forum's games 0 and 1 open with a day
@pytest.mark.parametrize("ruleset", ["forum", "oxford", "classic"])
def test_the_moderators_page_always_offers_a_way_on(ruleset: str, seed: int) -> None:
    """The same, through the pages: each step's forms read from the page the moderator's
    phone gets, sent as the browser sends them (without JavaScript, the hidden fields and
    the tapped button), until the game ends."""
    rng = random.Random(f"page-{ruleset}-{seed}")
    setup = random_setup(ruleset, rng, rng.randint(8, 10))
    mod = Moderator(ruleset, list(setup.players))
    if setup.opens_with == "day":
        mod.client.post(reverse("options", args=[mod.code]), {"opens_with": "day"})
    mod.deal({p: setup.roles[p].name for p in setup.players})
    prefix = reverse("move", args=[mod.code, "x"])[:-1]
    for _step in range(MAX_TAPS):
        mod.table.refresh_from_db()
        if mod.table.stage == "over":
            break
        page = mod.page()
        offered = page_taps(page_forms(page, prefix), rng)
        onward = [t for t in offered if not t[0].endswith("/undo")]
        assert onward, f"stuck: {page[:3000]}"
        single = [t for t in onward if t[2] and not t[0].endswith(RARE)]
        main = single or [t for t in onward if not t[0].endswith(RARE)]
        calls = [t for t in onward if t[0].endswith("/accuse")]
        if calls and rng.random() < 0.7:  # an Oxford day mostly ends with a call
            main = calls
        elif rng.random() < 0.08 or not main:
            main = offered
        url, fields, one_tap = rng.choice(main)
        version = mod.table.version
        answer = mod.client.post(url, fields, HTTP_HX_REQUEST="true")
        text = html.unescape(answer.content.decode())
        if one_tap:  # a button with nothing to pick is one the rules accept
            assert answer.status_code == 200, (url, fields, text[:1500])
        elif answer.status_code != 200:  # an impossible pick: refused, nothing changed
            assert answer.status_code == 400, (url, fields, text[:1500])
            assert Table.objects.get(pk=mod.table.pk).version == version
    else:
        raise AssertionError(f"no end after {MAX_TAPS} taps")
    # The moderator's last screen, its log included, keeps every rule behind a "why?".
    assert not citations(mod.page()), citations(mod.page())
    _ends_as_the_runner_says(ruleset, mod.table.state)
