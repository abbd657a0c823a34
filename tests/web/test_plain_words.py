"""Plain words (issue 38 item 3): no rule citation in a sentence a player reads.

Whole games of each family and ruleset are played through the pages (One Night house and
official; the forum, Oxford and 1.7.0 multi-night games) and every phase's page is read for
every seat and a watcher, refusals included: what a reader sees holds no section of the rules
documents outside the "why?" elements (tests/citations.py), where each ruling keeps it.
"""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from games.tables.citing import Cited, split
from tests.citations import citations, visible_text
from tests.factories import (
    OFFICIAL_FIVE,
    TWELVE,
    cast_votes,
    client_for,
    deal_game,
    end_day,
    play_night,
    ring_votes,
)
from tests.werewolf.page_walk import LINE_UPS, Walk

pytestmark = pytest.mark.django_db


class Reading:
    """The citations found, by page."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = {}

    def read(self, where: str, body: str) -> None:
        left = citations(body)
        if left:
            self.found.setdefault(where, left)

    def page(self, where: str, client: Client, path: str) -> str:
        body = client.get(path).content.decode()
        self.read(where, body)
        return body

    def check(self) -> None:
        assert not self.found, "Rule citations in players' sentences:\n" + "\n".join(
            f"  {where}: {found[:3]}" for where, found in list(self.found.items())[:30]
        )


@pytest.mark.parametrize(
    ("ruleset", "cards"),
    [("house", TWELVE), ("official", OFFICIAL_FIVE)],
    ids=["house", "official"],
)
def test_a_one_night_game_reads_without_citations(ruleset: str, cards: dict[str, str]) -> None:
    reading = Reading()
    table = deal_game(ruleset, **cards)
    clients = {name: client_for(table, name) for name in table.names}
    code = table.code

    def look(phase: str) -> None:
        for name, client in clients.items():
            reading.page(f"{phase} {name}", client, reverse("table", args=[code]))

    look("night")
    for name, client in clients.items():
        answer = client.post(
            reverse("move", args=[code, "night"]), {"target": ["nobody-here"]}, HTTP_HX_REQUEST="1"
        )
        reading.read(f"night refusal {name}", answer.content.decode())
    play_night(table)
    look("day")
    end_day(table)
    look("voting")
    cast_votes(table, ring_votes(table))
    look("reveal")
    reading.check()


@pytest.mark.parametrize("line_up", list(LINE_UPS))
def test_a_werewolf_game_reads_without_citations(line_up: str) -> None:
    """Every step's page for every seat and a watcher, the refusals and the end (page_walk)."""
    reading = Reading()
    Walk(line_up).play(reading)
    reading.check()


def test_the_reading_sees_a_citation_outside_why_only() -> None:
    page = (
        '<p>Elect the sheriff (004 III)</p><details class="why"><summary>why?</summary>'
        "rules/004 III</details><p title=\"see rules/001\">ok</p><input aria-label='s6a'>"
    )
    assert len(citations(page)) == 3
    assert "Elect the sheriff" in visible_text(page) and "rules/004 III" not in visible_text(page)
    assert not citations("<p>Ann was seen as a werewolf on night 3; 2 votes.</p>")


def test_a_ruling_splits_into_its_sentence_and_its_section() -> None:
    ruling = split("night 1: the werewolves must agree on one victim (Ann, Ben) (004 III).")
    assert ruling == Cited(
        "night 1: the werewolves must agree on one victim (Ann, Ben).", "004 III"
    )
    assert str(ruling) == "night 1: the werewolves must agree on one victim (Ann, Ben) (004 III)."
    assert split("(rules/000 s6a, rules/002 s6)").section == "rules/000 s6a, rules/002 s6"
    assert split("Choose whom you vote for.") == Cited("Choose whom you vote for.")
    assert split("Votes (Ann 2, Ben 1).").section == ""  # a parenthesis that cites nothing


def test_every_page_shows_a_section_the_same_way() -> None:
    page = Template("{% load citing %}<p>{% cited message %}</p>{% why '003 Fate' '/r' %}").render(
        Context({"message": "Eve was executed (003 The Local Justice System)."})
    )
    assert not citations(page)
    assert page.count('<details class="why">') == 2
    assert '<span translate="no">rules/003 The Local Justice System</span>' in page
    assert '<a href="/r"' in page
    assert Template("{% load citing %}{% why '' %}").render(Context()) == ""
