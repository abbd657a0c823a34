"""One Night's online vote (issue 35, item 5): nothing is chosen for the voter, and the voter's
own name is not on the list. rules/000 s3d: "Everyone must vote for another player (not
themselves) and cannot vote for abstain or no Lynch"; rules/002 only says everyone votes, and
the same rule applies (docs/rules.md 5.1)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.tables.models import Table
from tests.factories import client_for, play_to

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["house", "official"])
def test_the_vote_chooses_nothing_and_never_oneself(ruleset: str) -> None:
    table = play_to("voting", ruleset=ruleset)
    for name in table.names:
        page = client_for(table, name).get(reverse("table", args=[table.code]))
        html = page.content.decode()
        start = html.index('id="voting"')
        voting = html[start : html.index("Cast my vote", start)]
        radios = re.findall(r"<input[^>]*type=\"radio\"[^>]*>", voting)
        own = str(table.seats[name].pk)
        values = [re.search(r'value="([^"]*)"', r).group(1) for r in radios]
        assert sorted(values) == sorted(str(s.pk) for n, s in table.seats.items() if n != name)
        assert own not in values
        assert not any("checked" in r for r in radios), radios
        assert all("required" in r for r in radios)


def test_a_vote_for_oneself_or_for_nobody_is_refused() -> None:
    table = play_to("voting")
    ann = client_for(table, "Ann")
    before = Table.objects.get(pk=table.table.pk).version
    for target in (str(table.seats["Ann"].pk), "", "nobody"):
        response = ann.post(reverse("move", args=[table.code, "vote"]), {"target": target})
        assert response.status_code == 400, target
        assert "None" not in response.content.decode()
    assert Table.objects.get(pk=table.table.pk).version == before
