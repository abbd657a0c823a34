"""Every sentence a reader meets is marked for translation (issue 30, docs/i18n.md).

The pages of whole games are read in the pseudo-language of tests/i18n/pseudo.py, in which
every marked message has lost its plain ASCII letters: any plain English word left on a page,
in a label, a confirmation, a refusal or a note of the chat is one nobody marked. Both families,
every phase, every seat, a watcher, the refusals, the rules pages, table mode and the errors.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from games.families.onenight.options import RULES_PHRASE
from games.families.werewolf.stored import game_of
from games.tables import seat_codes, services
from games.tables.models import ChatLine, Table
from tests.factories import (
    NAMES,
    OFFICIAL_FIVE,
    TWELVE,
    TestTable,
    cast_votes,
    client_for,
    create_lobby,
    deal_game,
    end_day,
    new_client,
    play_night,
    ring_votes,
)
from tests.i18n import pseudo
from tests.werewolf.page_walk import LINE_UPS, Walk
from tests.werewolf.test_table_mode import CLASSIC, Moderator

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_pseudo")]


def watch_link(host: Client, code: str) -> str:
    """The watch link on the host's page (found by its address: its label is translated)."""
    page = host.get(reverse("table", args=[code])).content.decode()
    match = re.search(rf"/g/{code}/watch/[^\"<\s]+", page)
    assert match is not None, "the host's page shows the watch link"
    return match.group(0)


class Reading:
    """What was left in English, by word, with where it was met."""

    def __init__(self, allowed: Iterable[str]) -> None:
        self.allowed = [*allowed, *NAMES]
        self.left: dict[str, set[str]] = defaultdict(set)

    def read(self, where: str, body: str) -> None:
        for word in pseudo.english_words(body, self.allowed):
            self.left[word].add(where)

    def page(self, where: str, client: Client, path: str, status: int = 200) -> str:
        response = client.get(path)
        assert response.status_code == status, (where, response.status_code)
        body = response.content.decode()
        self.read(where, body)
        return body

    def notes(self, table: Table) -> None:
        for line in ChatLine.objects.filter(table=table, note=True):
            self.read("chat note", line.text)

    def check(self) -> None:
        found = {word: sorted(places)[:3] for word, places in sorted(self.left.items())}
        assert not found, "Unmarked English words (word: where):\n" + "\n".join(
            f"  {word!r}: {', '.join(places)}" for word, places in found.items()
        )


def _one_night(reading: Reading, table: TestTable, watcher: Client | None) -> None:
    clients = {name: client_for(table, name) for name in table.names}
    code = table.code
    if watcher is not None:
        watcher.get(watch_link(clients[table.names[0]], code))

    def look(phase: str) -> None:
        for name, client in clients.items():
            reading.page(f"{phase} {name}", client, reverse("table", args=[code]))
            reading.page(f"{phase} panel {name}", client, reverse("panel", args=[code]))
        if watcher is not None:
            reading.page(f"{phase} watcher", watcher, reverse("table", args=[code]))

    look("night")
    for name, client in clients.items():
        # A refusal: a night action naming nobody that exists.
        answer = client.post(
            reverse("move", args=[code, "night"]), {"target": ["nobody-here"]}, HTTP_HX_REQUEST="1"
        )
        reading.read(f"night refusal {name}", answer.content.decode())
    play_night(table)
    look("day")
    answer = clients[table.names[0]].post(
        reverse("chat", args=[code]), {"text": [""], "channel": ["public"]}, HTTP_HX_REQUEST="1"
    )
    reading.read("empty chat line", answer.content.decode())
    # A lost seat: the page of a browser without one, the host's seat code, a wrong code.
    stranger = new_client()
    reading.page("not seated", stranger, reverse("table", args=[code]), status=403)
    player = str(table.seat(table.names[1]).pk)
    shown = clients[table.names[0]].post(reverse("seat_code", args=[code]), {"seat": [player]})
    reading.read("seat code", shown.content.decode())
    wrong = stranger.post(reverse("seat_back", args=[code]), {"seat_code": ["ZZZZ ZZZZ"]})
    reading.read("seat code refused", wrong.content.decode())
    link = seat_codes.seat_code(table.seat(table.names[1]), table.table)
    asked = stranger.get(reverse("seat_back_link", args=[code, link]))
    reading.read("seat code link asks", asked.content.decode())
    with override_settings(WRONG_SEAT_CODES_PER_MINUTE=1):
        wrong = stranger.post(reverse("seat_back", args=[code]), {"seat_code": ["ZZZZ ZZZZ"]})
        reading.read("too many seat codes", wrong.content.decode())
    cache.clear()
    end_day(table)
    look("voting")
    cast_votes(table, ring_votes(table))
    look("reveal")
    reading.notes(table.table)


@pytest.mark.parametrize(
    ("ruleset", "cards"),
    [("house", TWELVE), ("official", OFFICIAL_FIVE)],
    ids=["house", "official"],
)
def test_a_one_night_game_in_every_phase(
    ruleset: str, cards: dict[str, str], settings: object
) -> None:
    settings.DISCORD_BOT_NAME = "Narrabot"  # type: ignore[attr-defined]  # the !link box too
    reading = Reading(["Narrabot"])
    host = new_client()
    reading.page("home", host, reverse("home"))
    # The rules phrase is quoted from rules/000 and typed letter for letter: never translated.
    reading.allowed.append(RULES_PHRASE)
    reading.page("rules", host, reverse("onenight_rules", args=[ruleset]))
    table = deal_game(ruleset, **cards)
    reading.allowed.append(table.code)
    watcher = new_client()
    _one_night(reading, table, watcher)
    reading.check()


def test_a_one_night_lobby_for_host_guest_and_newcomer() -> None:
    reading = Reading([])
    host_client = new_client()
    created = host_client.post(
        reverse("table_new"), {"game": "onenight:house", "host_name": "Ann"}, follow=True
    )
    reading.read("new table", created.content.decode())
    table = Table.objects.latest("pk")
    reading.allowed.append(table.code)
    reading.page("lobby host", host_client, reverse("table", args=[table.code]))
    newcomer = new_client()
    join = reading.page("join page", newcomer, reverse("join", args=[table.code]))
    assert "form" in join
    # Refused: a name already taken (Django's own messages come translated with Django).
    refused = newcomer.post(reverse("join", args=[table.code]), {"name": ["Ann"]})
    reading.read("join refused", refused.content.decode())
    guest = services.seat_join(table=table, name="Ben", phrase=RULES_PHRASE)
    guest_client = new_client()
    guest_client.get(reverse("rejoin", args=[table.code, guest.token]))
    reading.page("lobby guest", guest_client, reverse("table", args=[table.code]))
    reading.page("unknown table", new_client(), reverse("table", args=["ZZZZZZ"]), status=404)
    reading.page("no page", new_client(), "/no/such/page", status=404)
    reading.check()


def test_an_official_lobby_with_the_suggested_sets() -> None:
    """The rulebooks' suggested sets (docs/rules.md 8a.11, 8b.9): the list, a set that does not
    fit the table, a refusal, and the fun sets at a larger table."""
    reading = Reading([])
    table = create_lobby(["Ann", "Ben", "Cat"], ruleset="official")
    reading.allowed.append(table.code)
    host = client_for(table, "Ann")
    reading.page("official lobby host", host, reverse("table", args=[table.code]))
    refused = host.post(reverse("options", args=[table.code]), {"set": ["vampire_first_game"]})
    reading.read("suggested set refused", refused.content.decode())
    refused = host.post(reverse("options", args=[table.code]), {"set": ["daybreak_total_chaos"]})
    reading.read("fun set refused", refused.content.decode())
    # A larger table: Daybreak's "Fun Scenarios" topped up with the suggested deck's cards.
    larger = create_lobby(list(NAMES[:7]), ruleset="official")
    reading.allowed.append(larger.code)
    reading.page(
        "larger official lobby", client_for(larger, NAMES[0]), reverse("table", args=[larger.code])
    )
    reading.check()


@pytest.mark.parametrize("line_up", list(LINE_UPS))
def test_a_werewolf_game_to_its_end(line_up: str) -> None:
    """The roles page, then a game walked through the pages (tests/werewolf/page_walk.py):
    the lobby, every step's page for every seat and a watcher, the refusals, the end, and the
    notes of the chat."""
    walk = Walk(line_up)
    reading = Reading([walk.table.code])
    reading.page("roles", new_client(), reverse("werewolf_roles", args=[walk.ruleset]))
    table = walk.play(reading)
    assert sorted(game_of(table.state).setup.roles[n].name for n in walk.seats) == sorted(
        role for role, n in LINE_UPS[line_up].items() for _each in range(n)
    )
    if line_up != "oxford":  # random Oxford days seldom carry an execution call to its end
        assert table.stage == "over", "the game was played to its end, whose pages are read too"
    reading.notes(table)
    reading.check()


def test_table_mode_pages() -> None:
    reading = Reading([])
    client = new_client()
    reading.page("table mode", client, reverse("table_home"))
    reading.page("narrator set-up", client, reverse("narrator"))
    body = reading.page("moderator set-up", client, reverse("moderate"))
    assert "form" in body
    reading.check()


def test_the_narrators_dusk_and_its_sheet_of_marks() -> None:
    """docs/rules.md 8b.7: table mode's dusk calls (every Vampire card, the Doppelganger's copies
    of them), the reveal sheet's marks and the Copycat, and a verdict with marks."""
    reading = Reading([])
    client = new_client()
    players = NAMES[:5]
    deck = ["copycat", "doppelganger", "vampire", "the_master", "the_count", "renfield",
            "diseased", "cupid", "instigator", "priest", "assassin", "apprentice_assassin",
            "marksman", "pickpocket", "gremlin", "werewolf", "minion"]  # fmt: skip
    fields = {"go": "1", "ruleset": "official", "players": "\n".join(players)}
    fields |= {f"count_{role}": "1" for role in deck[:8]}
    body = client.get(reverse("narrator"), fields)
    assert body.status_code == 200
    reading.read("narrator dusk", body.content.decode())
    roles = ["vampire", "cupid", "copycat", "diseased", "doppelganger"]
    sheet = {
        "ruleset": "official",
        "player": players,
        **{f"final_{n}": role for n, role in enumerate(roles)},
        **{f"vote_{n}": players[0] if n else players[1] for n in range(5)},
        **{
            f"mark_{n}": mark
            for n, mark in enumerate(["love", "love", "disease", "clarity", "fear"])
        },
        "copycat": "seer",
        "copied": "cupid",
    }
    reading.read(
        "narrator verdict", client.post(reverse("narrator_reveal"), sheet).content.decode()
    )
    refused = client.post(reverse("narrator_reveal"), {**sheet, "mark_4": ""})
    assert refused.status_code == 400
    reading.read("narrator refusal", refused.content.decode())
    reading.check()


def test_the_about_page() -> None:
    """The credits: every sentence ours to translate; the icons' names, their authors and the
    libraries' names and licences are marked translate="no"."""
    reading = Reading([])
    body = reading.page("about", new_client(), reverse("about"))
    assert "game-icons.net" in body
    reading.check()


def test_the_moderators_assistant_through_a_night_and_a_day() -> None:
    """Table mode's multi-night moderator (rules/004 at a table): set-up, night calls, the
    seer's answer, the morning's read-out."""
    mod = Moderator("classic", list(CLASSIC))
    reading = Reading([mod.code, "Mo"])
    reading.read("moderator lobby", mod.page())
    mod.deal(CLASSIC)
    reading.read("moderator night", mod.page())
    reading.read("moderator kill", mod.night("Ann", "kill", "Fay"))
    reading.read("moderator save", mod.night("Dan", "save", "no"))
    mod.night("Dan", "poison", "")
    reading.read("moderator seer", mod.night("Cat", "check", "Ann"))
    reading.read("moderator dawn", mod.post("advance", {}))
    reading.read("moderator day", mod.page())
    # Issue 35: a call passed for secrecy (the seer voted out), and a refusal in the page's
    # words.
    mod.post("sheriff_votes", {})
    mod.post("advance", {})
    mod.post("votes", {f"vote_{mod.seats[v]}": mod.seats["Cat"] for v in ("Dan", "Eve", "Gus")})
    mod.night("Ann", "kill", "Gus")
    dead = {"as": mod.seats["Ann"], "key": "kill", "target": mod.seats["Fay"]}  # Fay is dead
    reading.read("moderator refusal", mod.post("night", dead, 400))
    mod.night("Dan", "save", "no")
    reading.read("moderator passed call", mod.night("Dan", "poison", ""))
    reading.notes(mod.table)
    reading.check()


def test_the_check_itself_finds_an_unmarked_word() -> None:
    """The pseudo-language leaves no plain letter in a marked message, and the reading sees
    text, labels and confirmations."""
    assert not re.search(r"[A-Za-z]", pseudo.pseudo("You are the Seer."))
    assert pseudo.pseudo("%(name)s votes").startswith("%(name)s ")
    page = '<p>Ŷóú</p><button data-confirm="End the day?">x</button><input placeholder="Name">'
    assert pseudo.english_words(page) == ["End", "the", "day", "Name"]


def test_the_pseudo_language_keeps_markup_and_commands() -> None:
    assert pseudo.pseudo("Take <code>!target</code> <strong>now</strong>") == (
        "Ţáķé <code>!target</code> <strong>ńóŵ</strong>"
    )
    assert pseudo.pseudo("`!link <game id> <code>`") == "`!ĺíńķ <ǧáḿé íď> <ćóďé>`"


def test_the_reading_skips_commands_and_what_is_marked_not_to_translate() -> None:
    page = (
        '<ul><li>Ŷóú <code>!vote</code><li><option translate="no">English</option></ul><p>Left</p>'
    )
    assert pseudo.english_words(page) == ["Left"]
