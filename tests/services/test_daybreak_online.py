"""A Daybreak night played online through the services (docs/rules.md 8a): the shield, the
witch, the village idiot and the curator's artifact, with the stored artifact pile."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from games.families.onenight.engine import Artifact, Role
from games.families.onenight.engine.messages import night_report
from games.tables.watching import GAME, watch_key
from tests.factories import client_for, clients_for, deal_game, end_day, new_client, night_action

pytestmark = pytest.mark.django_db

DAYBREAK_FIVE = {
    "Ann": "sentinel",
    "Ben": "witch",
    "Cat": "village_idiot",
    "Dan": "curator",
    "Eve": "werewolf",
    "left": "villager",
    "middle": "hunter",
    "right": "villager",
}


def test_a_daybreak_night_online() -> None:
    table = deal_game("official", **DAYBREAK_FIVE)
    night_action(table, "Ann", ["Cat"])
    night_action(table, "Ben", ["left", "Eve"])
    night_action(table, "Cat", ["left"])
    night_action(table, "Dan", ["Ben"])
    night_action(table, "Eve", [])
    state = table.state()
    assert state.phase == "day"
    night = state.night()
    assert {p: r.value for p, r in night.final.items()} == {
        "Ann": "villager",
        "Ben": "sentinel",
        "Cat": "village_idiot",
        "Dan": "witch",
        "Eve": "curator",
        "left": "werewolf",
        "middle": "hunter",
        "right": "villager",
    }
    assert night.shields == ("Cat",)
    assert night.artifacts == {"Ben": Artifact.CLAW}  # the pile unshuffled: the claw first
    assert night.plays_as("Ben") is Role.WEREWOLF
    assert "Claw of the Werewolf" in " ".join(night_report(night, "Ben"))


ON_THE_TABLE = {
    "Ann": "sentinel",
    "Ben": "revealer",
    "Cat": "curator",
    "Dan": "villager",
    "Eve": "werewolf",
    "left": "villager",
    "middle": "hunter",
    "right": "tanner",
}
IN_PLAIN_SIGHT = (
    "Cat's card: shielded",
    "Dan's card lies face up: Villager",
    "Eve's card carries an artifact",
)


def _page(browser: Client, code: str) -> str:
    return html.unescape(browser.get(reverse("table", args=[code])).content.decode())


def test_the_day_page_shows_what_lies_on_the_table() -> None:
    """Shields, cards face up and artifacts face down are in plain sight (docs/rules.md 8a.4-
    8a.6): every seat and a watcher read them by day and at the vote; which artifact it is only
    its holder reads (in their night report)."""
    table = deal_game("official", **ON_THE_TABLE)
    night_action(table, "Ann", ["Cat"])
    night_action(table, "Ben", ["Dan"])
    night_action(table, "Cat", ["Eve"])
    night_action(table, "Dan", [])
    night_action(table, "Eve", [])
    assert table.phase() == "day"
    watcher = new_client()
    watcher.get(reverse("watch", args=[table.code, watch_key(table.code, GAME)]))
    browsers = {**clients_for(table), "watcher": watcher}
    for phase in ("day", "voting"):
        if phase == "voting":
            end_day(table)
        for who, browser in browsers.items():
            page = _page(browser, table.code)
            assert "On the table" in page, (phase, who)
            for line in IN_PLAIN_SIGHT:
                assert line in page, (phase, who, line)
            # Which artifact: Eve's alone (her night report), nobody else's.
            assert ("Claw of the Werewolf" in page) is (who == "Eve"), (phase, who)
            # The lines say nothing more: no other artifact, no card turned back down.
            assert "face up: Werewolf" not in page and "face up: Tanner" not in page


def test_a_card_turned_back_down_is_not_on_the_table() -> None:
    """The revealer turns a werewolf back face down: only the revealer saw it (8a.5)."""
    table = deal_game("official", **{**ON_THE_TABLE, "Dan": "tanner", "right": "villager"})
    night_action(table, "Ann", [])
    night_action(table, "Ben", ["Dan"])
    for name in ("Cat", "Dan", "Eve"):
        night_action(table, name, [])
    state = table.state()
    assert state.phase == "day" and state.night().revealed == ()
    page = _page(client_for(table, "Cat"), table.code)
    assert "On the table" not in page and "face up" not in page
