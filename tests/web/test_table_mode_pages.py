"""Table mode's pages (issue 28), drawn from what the families offer through the family
interface (issue 37 item 2): One Night's narrator (its set-up, its night's script, its reveal
sheet) and Werewolf's moderated game, at table mode's addresses."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.tables.models import Table
from tests.web.helpers import alerts, text

pytestmark = pytest.mark.django_db


def test_the_narrator_set_up_refuses_what_it_cannot_narrate(client: Client) -> None:
    page = client.get(reverse("narrator"), {"ruleset": "official", "count_seer": "2"})
    assert page.status_code == 200
    assert 'action="/at-the-table/one-night/"' in page.content.decode()
    assert 'name="count_seer" min="0" max="1" value="2"' in page.content.decode()
    for fields, problem in (
        ({"players": "Ann\nBen"}, "Write 3 to"),
        ({"players": "Ann\nann\nCat"}, "ann is on the list twice"),
        ({"players": "Ann\nBen\nCat", "day_minutes": "0"}, "whole number of minutes"),
        ({"players": "Ann\nBen\nCat", "ruleset": "mafia"}, "house rules or the official"),
    ):
        page = client.get(reverse("narrator"), {"go": "1", **fields})
        assert page.status_code == 400, fields
        assert any(problem in alert for alert in alerts(page)), (fields, alerts(page))


def test_the_narrators_night_then_its_reveal_sheet(client: Client) -> None:
    deck = {"count_werewolf": "2", "count_seer": "1", "count_robber": "1", "count_villager": "2"}
    page = client.get(
        reverse("narrator"), {"go": "1", "ruleset": "house", "players": "Ann\nBen\nCat", **deck}
    )
    assert page.status_code == 200
    body = page.content.decode()
    assert re.findall(r'<li data-key="([a-z-]+)"', body) == ["werewolves", "seer", "robber"]
    assert 'hx-post="/at-the-table/one-night/reveal"' in body
    sheet = {
        "ruleset": "house",
        "player": ["Ann", "Ben", "Cat"],
        **{f"final_{n}": card for n, card in enumerate(["werewolf", "seer", "robber"])},
        **{f"vote_{n}": "Ann" if n else "Ben" for n in range(3)},
    }
    verdict = client.post(reverse("narrator_reveal"), sheet)
    assert verdict.status_code == 200
    assert "Died: <strong>Ann</strong>." in text(verdict)
    assert "Winners: <strong>Ben, Cat</strong>." in text(verdict)
    refused = client.post(reverse("narrator_reveal"), {**sheet, "final_2": ""})
    assert refused.status_code == 400 and alerts(refused)


def test_the_moderated_game_opens_a_table_with_the_familys_options(client: Client) -> None:
    page = client.post(reverse("moderate"), {"ruleset": "classic", "players": "7"})
    assert page.status_code == 302
    table = Table.objects.get()
    assert table.family == "werewolf"
    assert {k: table.options[k] for k in ("table_mode", "deal", "pace")} == {
        "table_mode": True,
        "deal": "app",
        "pace": "table",
    }
    assert table.joins_locked and table.seats.count() == 8


def test_a_moderated_lobby_has_only_what_a_table_without_phones_needs(client: Client) -> None:
    """Issue 38 item 5: no invite, QR or lock (nobody joins), no Remove or Make host for
    players who have no phone, the moderator not counted as a player, no turn sound, no
    rejoin link; the moderator can still deal, start and cancel."""
    players = "Ann\nBen\nCat\nDan\nEve\nFay"
    fields = {"ruleset": "classic", "moderator": "Mo", "players": players}
    answer = client.post(reverse("moderate"), fields)
    lobby = client.get(answer["Location"])
    body = lobby.content.decode()
    for online in ("Invite your friends", "invite-link", 'class="qr"', "The table is locked",
                   "Lock the table", "Unlock the table", "Make host", ">Remove<",
                   "Sound when it is my turn", "rejoin link", "Leave the table"):  # fmt: skip
        assert online not in body, online
    assert "6 at the table" in text(lobby)
    assert "You moderate" in body
    assert "Deal and start the game" in body and "Cancel the game" in body
    for name in ("Ann", "Fay"):
        assert name in body


def test_an_online_lobby_keeps_its_invite_and_seat_controls(client: Client) -> None:
    """The online game's lobby is as it was: the invite, the lock, the rejoin link."""
    answer = client.post(reverse("table_new"), {"host_name": "Ann", "game": "werewolf:classic"})
    lobby = client.get(answer["Location"])
    body = lobby.content.decode()
    for online in ("Invite your friends", "Lock the table", "Sound when it is my turn",
                   "rejoin link", "1 at the table"):  # fmt: skip
        assert online in body, online


def _script(client: Client, deck: dict[str, str]) -> list[dict[str, str]]:
    page = client.get(
        reverse("narrator"),
        {"go": "1", "ruleset": "official", "players": "Ann\nBen\nCat\nDan\nEve", **deck},
    )
    assert page.status_code == 200
    found = re.search(
        r'<script id="narration" type="application/json">(.*?)</script>', page.content.decode()
    )
    assert found
    return json.loads(found.group(1))["calls"]


def test_the_doppelgangers_calls_never_close_then_reopen_its_eyes(client: Client) -> None:
    """rules/002 s5: a Doppelganger-minion stays awake after its step to see the werewolves. Its
    step does not end with "close your eyes" when it may have to keep them open next."""
    deck = {"count_doppelganger": "1", "count_werewolf": "2", "count_minion": "1",
            "count_seer": "1", "count_villager": "3"}  # fmt: skip
    calls = _script(client, deck)
    assert [c["key"] for c in calls[:3]] == ["doppelganger", "doppelganger-minion", "werewolves"]
    first, minion = calls[0], calls[1]
    assert "keep your eyes open" in first["sleep"] and "If not, close" in first["sleep"]
    assert "keep your eyes open" not in minion["wake"]
    assert "close your eyes" in minion["sleep"]
    for earlier, later in itertools.pairwise(calls):
        # Whoever is told to close their eyes is not told to keep them open next.
        if earlier["sleep"].endswith("Doppelganger, close your eyes."):
            assert "keep your eyes open" not in later["wake"], later


def test_the_doppelganger_mason_wakes_with_the_masons(client: Client) -> None:
    """rules/002 s5: a Doppelganger that saw a mason "wakes with them when called"."""
    deck = {"count_doppelganger": "1", "count_werewolf": "2", "count_mason": "2",
            "count_villager": "3"}  # fmt: skip
    masons = next(c for c in _script(client, deck) if c["key"] == "masons")
    assert "Doppelganger" in masons["wake"] and "masons" in masons["wake"].lower()
    without = {"count_werewolf": "2", "count_mason": "2", "count_seer": "1",
               "count_villager": "3"}  # fmt: skip
    plain = next(c for c in _script(client, without) if c["key"] == "masons")
    assert "Doppelganger" not in plain["wake"]


def test_the_reveal_sheet_takes_daybreaks_artifacts_and_the_investigator(client: Client) -> None:
    """docs/rules.md 8a.9: with the Curator or the Paranormal Investigator in the deck, the
    sheet asks for each card's artifact and what the investigator became, and plays them."""
    deck = {"count_werewolf": "1", "count_seer": "1", "count_curator": "1",
            "count_paranormal_investigator": "1", "count_villager": "3"}  # fmt: skip
    page = client.get(
        reverse("narrator"),
        {"go": "1", "ruleset": "official", "players": "Ann\nBen\nCat\nDan", **deck},
    )
    assert page.status_code == 200
    body = page.content.decode()
    assert [f'name="artifact_{n}"' in body for n in range(4)] == [True] * 4
    assert '<option value="cudgel">Cudgel of the Tanner</option>' in body
    assert 'name="investigator"' in body
    sheet = {
        "ruleset": "official",
        "player": ["Ann", "Ben", "Cat", "Dan"],
        **{
            f"final_{n}": c
            for n, c in enumerate(["villager", "paranormal_investigator", "seer", "curator"])
        },
        **{f"vote_{n}": v for n, v in enumerate(["Ben", "Ann", "Ben", "Ann"])},
        "artifact_0": "cudgel",
        "investigator": "werewolf",
    }
    verdict = client.post(reverse("narrator_reveal"), sheet)
    assert verdict.status_code == 200, alerts(verdict)
    shown = text(verdict)
    assert "Ann held the Cudgel of the Tanner." in shown
    assert "Ann's card counts as a Tanner because of the Cudgel of the Tanner." in shown
    assert "Ben held the Paranormal Investigator, which became a Werewolf." in shown
    assert "Winners: <strong>Ann, Cat, Dan</strong>." in shown
    # Without them the same cards and votes make other winners: nobody played as a werewolf.
    plain = {k: v for k, v in sheet.items() if k not in ("artifact_0", "investigator")}
    assert "Winners: <strong>Ann, Cat, Dan</strong>." not in text(
        client.post(reverse("narrator_reveal"), plain)
    )
    # A base deck's sheet asks for neither.
    base = client.get(
        reverse("narrator"),
        {"go": "1", "ruleset": "official", "players": "Ann\nBen\nCat",
         "count_werewolf": "2", "count_seer": "1", "count_villager": "3"},
    )  # fmt: skip
    assert 'name="artifact_0"' not in base.content.decode()
    assert 'name="investigator"' not in base.content.decode()


def test_the_narrator_with_vampire_cards_then_the_reveal_sheet_with_marks(client: Client) -> None:
    """docs/rules.md 8b.7: the set-up offers the Vampire cards (official rules only); the night
    starts at dusk with the end of dusk and the lovers as calls of their own; the reveal sheet
    asks each player's mark and what the Copycat copied, and scores with them (8b.6)."""
    offered = client.get(reverse("narrator"), {"ruleset": "official"}).content.decode()
    assert 'name="count_vampire" min="0" max="1"' in offered
    assert 'name="count_the_count" min="0" max="1"' in offered
    players = "Ann\nBen\nCat\nDan\nEve"
    deck = {"count_vampire": "1", "count_cupid": "1", "count_copycat": "1", "count_seer": "1",
            "count_robber": "1", "count_villager": "3"}  # fmt: skip
    house = client.get(
        reverse("narrator"), {"go": "1", "ruleset": "house", "players": players, **deck}
    )
    assert house.status_code == 400 and alerts(house)
    keys = [c["key"] for c in _script(client, deck)]
    assert keys == ["copycat", "vampires", "cupid", "end-of-dusk", "lovers", "seer", "robber"]
    page = client.get(
        reverse("narrator"), {"go": "1", "ruleset": "official", "players": players, **deck}
    )
    body = page.content.decode()
    assert [f'name="mark_{n}"' in body for n in range(5)] == [True] * 5
    assert '<option value="clarity" selected>Mark of Clarity</option>' in body
    assert 'name="copycat"' in body
    sheet = {
        "ruleset": "official",
        "player": ["Ann", "Ben", "Cat", "Dan", "Eve"],
        **{
            f"final_{n}": c
            for n, c in enumerate(["vampire", "cupid", "seer", "villager", "robber"])
        },
        **{f"vote_{n}": v for n, v in enumerate(["Cat", "Cat", "Ben", "Eve", "Cat"])},
        **{f"mark_{n}": "clarity" for n in range(5)},
        "mark_2": "love",
        "mark_3": "love",
        "copycat": "",
    }
    verdict = client.post(reverse("narrator_reveal"), sheet)
    assert verdict.status_code == 200, alerts(verdict)
    shown = text(verdict)
    # 8b.2 Love: Cat dies by the vote, Dan of love; no vampire died: the vampires win.
    assert "Died: <strong>Cat, Dan</strong>." in shown
    assert "Dan died of love." in shown and "Dan held the Mark of Love." in shown
    assert "Winners: <strong>Ann</strong>." in shown
    # A mark left out, an unknown mark, two Marks of the Vampire, marks at house rules: refused.
    for wrong, problem in (
        ({"mark_4": ""}, "Choose Eve's mark."),
        ({"mark_4": "garlic"}, "Choose Eve's mark."),
        ({"mark_0": "vampire", "mark_1": "vampire"}, "only 1 Mark of the Vampire token"),
        ({"ruleset": "house"}, "for the official rules"),
    ):
        refused = client.post(reverse("narrator_reveal"), {**sheet, **wrong})
        assert refused.status_code == 400, wrong
        assert any(problem in alert for alert in alerts(refused)), (wrong, alerts(refused))
    # Vampire's cards with no marks on the sheet: refused too.
    unmarked = {k: v for k, v in sheet.items() if not k.startswith("mark_")}
    refused = client.post(reverse("narrator_reveal"), unmarked)
    assert refused.status_code == 400 and alerts(refused)
    # The Copycat that copied the Vampire: Ann holds it and dies, the village wins.
    copycat = {**sheet, "final_0": "copycat", "copycat": "vampire", "mark_2": "clarity",
               "mark_3": "clarity", **{f"vote_{n}": "Ann" for n in range(1, 5)}}  # fmt: skip
    shown = text(client.post(reverse("narrator_reveal"), copycat))
    assert "Ann held the Copycat, which copied the Vampire." in shown
    assert "Winners: <strong>Ben, Cat, Dan, Eve</strong>." in shown
    # A deck without a Vampire card asks for no mark.
    base = client.get(
        reverse("narrator"),
        {"go": "1", "ruleset": "official", "players": "Ann\nBen\nCat",
         "count_werewolf": "2", "count_seer": "1", "count_villager": "3"},
    )  # fmt: skip
    assert 'name="mark_0"' not in base.content.decode()
    assert 'name="copycat"' not in base.content.decode()


def test_the_reveal_sheet_takes_a_doppelganger_card_that_copied_no_one(client: Client) -> None:
    """A Doppelganger card that began in the centre and came to a player (a robber took it)
    copied no one: the sheet says so with "nothing", and the verdict comes; the select left on
    "choose" is refused with what to do, nothing scored."""
    sheet = {
        "ruleset": "official",
        "player": ["Ann", "Ben", "Cat"],
        **{f"final_{n}": c for n, c in enumerate(["doppelganger", "werewolf", "villager"])},
        **{f"vote_{n}": v for n, v in enumerate(["Ben", "Ann", "Ben"])},
    }
    refused = client.post(reverse("narrator_reveal"), sheet)
    assert "Say which role the Doppelganger copied" in text(refused)
    assert "Winners:" not in text(refused)
    verdict = client.post(reverse("narrator_reveal"), {**sheet, "copied": "nothing"})
    assert verdict.status_code == 200, alerts(verdict)
    assert "Winners: <strong>Ann, Cat</strong>." in text(verdict)
