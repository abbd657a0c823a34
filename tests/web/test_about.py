"""Art and identity (issue 38 item 2): every role of every family and every team has a vendored
icon, each credited on the about page; each game carries its own title (a Werewolf game's page
does not say "One Night"); the icons are hidden from screen readers beside their names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.art.credits import icon_credits
from games.art.icons import ROLE_ICONS, TEAM_ICONS, TEAM_OF, role_file, team_file
from games.families.onenight.engine.roles import Role as OneNightRole
from games.families.onenight.engine.roles import Team as OneNightTeam
from games.families.werewolf.engine.rulesets import RULESETS
from games.tables import services
from games.tables.family import families
from games.tables.models import Seat
from tests.factories import deal_game, new_client

pytestmark = pytest.mark.django_db

STATIC = Path(settings.STATICFILES_DIRS[0])
README = Path(settings.BASE_DIR) / "README.md"
DEAL = {
    "Ann": "werewolf",
    "Ben": "seer",
    "Cat": "robber",
    "left": "villager",
    "middle": "villager",
    "right": "drunk",
}


def every_role() -> set[str]:
    """The key of every role of every family and ruleset."""
    keys = {role.value for role in OneNightRole}
    for ruleset in RULESETS.values():
        keys |= set(ruleset.roles)
    return keys


def every_side() -> set[str]:
    """Every family's names for the sides its roles play for."""
    sides = {team.value for team in OneNightTeam}
    for ruleset in RULESETS.values():
        sides |= {role.side for role in ruleset.roles.values()}
    return sides


def test_every_role_of_every_family_has_an_icon_file() -> None:
    missing = [key for key in sorted(every_role()) if not (STATIC / role_file(key)).is_file()]
    assert missing == []
    assert every_role() <= set(ROLE_ICONS)


def test_every_team_and_every_side_has_an_icon_file() -> None:
    for team in ("village", "werewolf", "neutral", "vampire"):
        assert (STATIC / team_file(team)).is_file(), team
    for side in every_side():
        assert side in TEAM_OF, side
        assert (STATIC / team_file(TEAM_OF[side])).is_file(), side


def test_only_the_chosen_icons_are_vendored_and_they_take_the_text_colour() -> None:
    chosen = {role_file(k) for k in ROLE_ICONS} | {team_file(t) for t in TEAM_ICONS}
    vendored = {f"icons/{p.name}" for p in (STATIC / "icons").glob("*.svg")}
    assert vendored == chosen
    for path in vendored:
        svg = (STATIC / path).read_text(encoding="utf-8")
        assert svg.startswith("<svg") and "currentColor" in svg
        assert "<script" not in svg and "href" not in svg


def test_every_vendored_icon_is_credited_with_its_author_and_licence() -> None:
    rows = json.loads((STATIC / "icons" / "credits.json").read_text(encoding="utf-8"))
    credited = {row["file"] for row in rows}
    assert credited == {f"icons/{p.name}" for p in (STATIC / "icons").glob("*.svg")}
    for row in rows:
        assert row["author"] and row["licence"] == "CC BY 3.0"
        assert row["url"].startswith("https://game-icons.net/1x1/")
        assert row["licence_url"] == "https://creativecommons.org/licenses/by/3.0/"


def test_the_about_page_credits_every_icon_and_the_vendored_software() -> None:
    response = Client().get(reverse("about"))
    assert response.status_code == 200
    page = response.content.decode()
    for credit in icon_credits():
        assert f'data-file="{credit.file}"' in page
        assert credit.url in page and credit.author in page
    assert "https://creativecommons.org/licenses/by/3.0/" in page
    assert "htmx" in page and "0BSD" in page and "segno" in page
    # Every page's footer links to it.
    assert reverse("about") in Client().get(reverse("home")).content.decode()


def test_the_readme_credits_the_same() -> None:
    readme = README.read_text(encoding="utf-8")
    assert "game-icons.net" in readme and "CC BY 3.0" in readme
    for author in {credit.author for credit in icon_credits()}:
        assert author in readme, author
    assert "htmx" in readme and "segno" in readme


def test_icons_are_decorative_beside_the_role_name() -> None:
    page = Client().get(reverse("werewolf_roles", args=["classic"])).content.decode()
    icons = re.findall(r"<svg class=\"icon role-icon\"[^>]*>", page)
    assert len(icons) == len(RULESETS["classic"].roles)
    assert all('aria-hidden="true"' in icon and 'focusable="false"' in icon for icon in icons)
    assert 'data-icon="witch"' in page and "team-village" in page and "team-werewolf" in page


def test_each_family_and_ruleset_has_its_own_title() -> None:
    titles = {
        (family.name, ruleset): str(family.game_title(ruleset))
        for family in families()
        for ruleset in family.rulesets
    }
    assert len(set(titles.values())) == len(titles)
    for (name, _ruleset), title in titles.items():
        assert ("One Night" in title) is (name == "onenight")
    accents = {family.accent(r) for family in families() for r in family.rulesets}
    assert len(accents) >= 4


@pytest.mark.parametrize(
    ("ruleset", "title"),
    [
        ("forum", "Werewolf — the forum game"),
        ("oxford", "Werewolf — Oxford rules"),
        ("classic", "Werewolf 1.7.0"),
    ],
)
def test_a_multi_night_page_is_not_titled_one_night(ruleset: str, title: str) -> None:
    host = services.table_create(family="werewolf", ruleset=ruleset, host_name="Ann")
    client = new_client()
    client.get(reverse("rejoin", args=[host.table.code, host.token]))
    for name in ("Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"):
        services.seat_join(table=host.table, name=name)
    for answer in (
        client.get(reverse("table", args=[host.table.code])),
        new_client().get(reverse("join", args=[host.table.code])),
    ):
        page = answer.content.decode()
        head = re.search(r"<title>(.*?)</title>", page, re.S)
        assert head is not None and "One Night" not in head.group(1), head
        assert title in head.group(1)
        assert f'data-accent="{ruleset}"' in page
        assert "One Night" not in re.search(r'class="brand">(.*?)</a>', page).group(1)  # type: ignore[union-attr]
    services.table_start(host=Seat.objects.get(pk=host.pk))
    page = client.get(reverse("table", args=[host.table.code])).content.decode()
    assert title in re.search(r"<title>(.*?)</title>", page, re.S).group(1)  # type: ignore[union-attr]
    assert 'data-phase="night"' in page


def test_a_one_night_page_keeps_its_title_and_shows_role_icons() -> None:
    table = deal_game(**DEAL)
    client = new_client()
    client.get(reverse("rejoin", args=[table.code, table.seats["Ann"].token]))
    page = client.get(reverse("table", args=[table.code])).content.decode()
    assert "One Night" in re.search(r"<title>(.*?)</title>", page, re.S).group(1)  # type: ignore[union-attr]
    assert 'data-accent="onenight"' in page
    assert 'data-icon="werewolf"' in page
