"""The pages of a multi-night game's dead and of its end (issue 38 item 4): a dead player's
panel says so, when, and what they can do now; the end says who won and why in one sentence,
then the story night by night and day by day, with no stale card of the pack's choices and each
death's rule one tap away behind "why?"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.citations import citations, visible_text
from tests.factories import client_for
from tests.realtime.test_channels_open import _dealt, _play_to_the_end
from tests.security.audit import forum_night

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_dead_player_is_told_clearly_and_shown_what_they_can_do() -> None:
    table = _dealt()
    forum_night(table)  # the pack kills Cat
    cat = client_for(table, "Cat").get(reverse("table", args=[table.code])).content.decode()
    assert 'id="you-died"' in cat
    text = visible_text(cat)
    assert "You are dead" in text and "You died during night 1." in text
    assert "graveyard" in text
    assert "attacked" not in text.split("You are dead", 1)[1].split("graveyard", 1)[0]
    ben = client_for(table, "Ben").get(reverse("table", args=[table.code])).content.decode()
    assert 'id="you-died"' not in ben


def test_the_end_says_who_won_and_why_then_tells_the_story() -> None:
    table = _dealt()
    _play_to_the_end(table)
    for name in ("Ben", "Fay", "Cat"):
        page = client_for(table, name).get(reverse("table", args=[table.code])).content.decode()
        ending = re.search(r'<p class="ending" id="ending">([^<]*)</p>', page)
        assert ending is not None
        assert ending.group(1) == (
            "The village wins: the last werewolf died — Gus, on day 2 (voted out by the village)."
        )
        assert 'id="pack-choices"' not in page, "no stale card of the pack's choices"
        # Every row of the reveal shows its role's icon (issue 38 item 2).
        table_rows = page.split('class="reveal-table"', 1)[1].split("</table>", 1)[0]
        rows = table_rows.count("<tr class=")
        assert rows >= 6 and table_rows.count('class="icon role-icon"') == rows
        assert 'id="you-died"' not in page
        story = page.split('id="story"', 1)[1]
        text = visible_text(story)
        assert text.index("Night 1") < text.index("Day 1") < text.index("Night 2")
        assert "The werewolves attacked Cat." in text
        assert "Cat died: attacked by the werewolves." in text
        assert "Fay was voted out." in text
        assert not citations(page)
        assert '<details class="why">' in story and "rules/001 day phase" in story
