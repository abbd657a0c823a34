"""Names that pose as something else, and targets that cannot be mistaken for them.

Issue 25, hole 1: a player who joined as "left,middle" was taken for two centre cards in the
others' night actions (the forms posted names, and the post split them on the comma): the
robber and the troublemaker could not touch that player, and a seer aiming at them saw the
centre. One Night's forms now offer players by seat id (games/families/onenight/panels.py) and
read a posted value as a seat id or a centre position, never as a name (play.py); names that
read as centre cards or hold the separator are refused (games/tables/names.py).

Issue 25, hole 2: look-alike names (a Cyrillic o in "Moderator", fullwidth letters, invisible
characters) passed for a seated player or the app. Names are normalised and refused when they
read as a seated name or a reserved word; the app's notes are built unlike any player's line.
"""

from __future__ import annotations

import html
import re

import pytest
from channels.db import database_sync_to_async

from games.families.onenight.engine import CENTRE_POSITIONS
from games.families.onenight.options import RULES_PHRASE
from games.tables import services
from games.tables.models import Seat
from tests.factories import TestTable, client_for, create_lobby, new_client, start_with_deal
from tests.security.audit import SocketOpener, alerts, raw, receive_until, url, visible

pytestmark = pytest.mark.django_db

# The values a night-action form may post: seat ids, or the centre's fixed words.
CENTRE_VALUES = {
    *CENTRE_POSITIONS,
    *(f"{a},{b}" for a in CENTRE_POSITIONS for b in CENTRE_POSITIONS),
}


def offered(body: str) -> dict[str, str]:
    """The night-action form's options on a page: label -> the value it posts."""
    radios = re.findall(
        r'<input type="radio" name="targets" value="([^"]*)"[^>]*>\s*([^<]*)</label>', body
    )
    options = re.findall(r'<option value="([^"]+)">([^<]*)</option>', body)
    return {html.unescape(label).strip(): html.unescape(value) for value, label in radios + options}


def new_table(host_name: str) -> Seat:
    return services.table_create(family="onenight", ruleset="house", host_name=host_name)


@pytest.mark.parametrize(
    "name",
    [
        "left,middle",
        "left, middle",
        "Left,Right",
        "middle ,right",
        "left middle",
        "right-left",
        "MIDDLE",
        "Ann,Ben",
        ",",
    ],
)
def test_a_name_that_reads_as_centre_cards_or_holds_the_separator_is_refused(name: str) -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    seats = Seat.objects.count()
    response = new_client().post(url("join", table.code), {"name": name, "phrase": RULES_PHRASE})
    assert response.status_code == 400
    assert any("pick another name" in a for a in alerts(response)), alerts(response)
    assert Seat.objects.count() == seats
    with pytest.raises(services.ServiceError, match="pick another name"):
        new_table(name)
    response = new_client().post(url("table_new"), {"host_name": name, "game": "onenight:house"})
    assert response.status_code == 400
    assert any("pick another name" in a for a in alerts(response)), alerts(response)
    assert Seat.objects.count() == seats


def test_names_that_only_mention_a_centre_word_are_still_fine() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    for name in ("Lefty", "Middleton", "Right Said Fred"):
        seat = services.seat_join(table=table.table, name=name, phrase=RULES_PHRASE)
        assert seat.name == name


def _table_with_a_seat_named(name: str, cards: dict[str, str]) -> TestTable:
    """A game dealt `cards`, in which the third seat is called `name`: renamed in the
    database, as a name stored before such names were refused would be."""
    table = create_lobby(["Ann", "Ben", "Cat"])
    Seat.objects.filter(pk=table.seats["Cat"].pk).update(name=name)
    table.seats = {s.name: s for s in Seat.objects.filter(table=table.table).order_by("position")}
    return start_with_deal(table, cards)


def test_a_seer_aiming_at_a_player_named_like_the_centre_sees_that_player() -> None:
    odd = "left,middle"
    cards = {
        "Ann": "werewolf",
        "Ben": "seer",
        odd: "tanner",
        "left": "villager",
        "middle": "robber",
        "right": "drunk",
    }
    table = _table_with_a_seat_named(odd, cards)
    ben = client_for(table, "Ben")
    options = offered(raw(ben.get(url("table", table.code))))
    # Every value the form posts is a seat id or one of the centre's fixed words.
    assert all(v.isdigit() or v in CENTRE_VALUES for v in options.values()), options
    assert options[f"{odd}'s card"] == str(table.seats[odd].pk)
    assert options["The left and middle centre cards"] == "left,middle"
    path = url("move", table.code, "action")
    response = ben.post(path, {"targets": options[f"{odd}'s card"]})
    assert response.status_code == 302
    assert table.state().actions["Ben"]["targets"] == [odd]


def test_the_robber_and_troublemaker_can_touch_a_player_named_like_the_centre() -> None:
    odd = "right,left"
    cards = {
        "Ann": "robber",
        "Ben": "troublemaker",
        odd: "werewolf",
        "left": "villager",
        "middle": "seer",
        "right": "drunk",
    }
    table = _table_with_a_seat_named(odd, cards)
    path = url("move", table.code, "action")
    ann, ben = client_for(table, "Ann"), client_for(table, "Ben")
    robber = offered(raw(ann.get(url("table", table.code))))
    response = ann.post(path, {"targets": robber[f"{odd}'s card"]})
    assert response.status_code == 302
    pair = offered(raw(ben.get(url("table", table.code))))
    targets = [pair[odd], pair["Ann"]]
    assert ben.post(path, {"targets": targets}).status_code == 302
    odd_client = client_for(table, odd)
    odd_client.post(path, {"no_action": "1"})
    assert table.phase() == "day"
    stored = {name: a["targets"] for name, a in table.state().actions.items()}
    assert stored == {"Ann": [odd], "Ben": [odd, "Ann"], odd: []}
    page = visible(ann.get(url("table", table.code)))
    assert f"You swapped cards with {odd}. You are now the Werewolf." in page


def test_a_posted_name_is_never_read_as_a_player() -> None:
    """A form posts seat ids: a player's name, even one the table holds, is refused."""
    cards = {
        "Ann": "werewolf",
        "Ben": "seer",
        "Cat": "robber",
        "left": "villager",
        "middle": "troublemaker",
        "right": "drunk",
    }
    table = start_with_deal(create_lobby(["Ann", "Ben", "Cat"]), cards)
    ben = client_for(table, "Ben")
    for value in ("Ann", "Cat", "ann", "Ann,Cat", f"{table.seats['Ann'].pk},left"):
        before = table.state().raw
        response = ben.post(url("move", table.code, "action"), {"targets": value})
        assert response.status_code == 400, value
        assert any("Choose your targets from the list" in a for a in alerts(response))
        assert table.state().raw == before


# --- Hole 2: look-alike names, and notes that could be imitated ----------------------------------

CYRILLIC_A, CYRILLIC_E, CYRILLIC_O = "\u0410", "\u0435", "\u043e"


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@pytest.mark.parametrize(
    "name",
    [
        f"{CYRILLIC_A}nn",  # Ann with a Cyrillic A
        fullwidth("ANN"),
        "Ann\u200b",  # zero-width space
        "\u202eAnn",  # right-to-left override
        "A\u00adnn",  # soft hyphen
        f"B{CYRILLIC_E}n",
        fullwidth("Cat"),
        "Cat\u2800",  # braille blank
        f"M{CYRILLIC_O}derator",
        fullwidth("MODERATOR"),
        "Moderator\u200d",
        "\u041c\u041edErAtOr",  # Cyrillic capital M and O
        "The Moderator",
        f"l{CYRILLIC_E}ft",
        fullwidth("right"),
    ],
)
def test_a_look_alike_name_is_refused(name: str) -> None:
    """A name that reads the same as a seated player's, or as the app's own voice, or as a
    centre card, is refused: the same skeleton (Unicode TR39) once normalised and case-folded."""
    table = create_lobby(["Ann", "Ben", "Cat"])
    seats = Seat.objects.count()
    data = {"name": name, "phrase": RULES_PHRASE}
    response = new_client().post(url("join", table.code), data)
    assert response.status_code == 400, name
    assert any("pick another name" in a for a in alerts(response)), alerts(response)
    assert Seat.objects.count() == seats


@pytest.mark.parametrize(
    ("seated", "name"),
    [
        ("Mia", "M\u0399A"),  # a Greek capital iota: reads as "MIA", which is Mia in capitals
        ("Mia", "MIA"),
        ("Liz", "L\u0406Z"),  # a Cyrillic capital i
        ("Bill", "BILL"),
    ],
)
def test_a_look_alike_in_capitals_is_refused(seated: str, name: str) -> None:
    """A capital I reads as a small l in Unicode's data: names are compared in small letters
    too, so a look-alike written in capitals cannot sit beside the name it imitates."""
    table = create_lobby(["Ann", "Ben", seated])
    seats = Seat.objects.count()
    response = new_client().post(url("join", table.code), {"name": name, "phrase": RULES_PHRASE})
    assert response.status_code == 400, name
    assert any("pick another name" in a for a in alerts(response)), alerts(response)
    assert Seat.objects.count() == seats


def test_names_are_stored_normalised_and_honest_names_still_sit_down() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    typed = {
        "\u202eZo\u00eb\u200b": "Zo\u00eb",
        fullwidth("Dan"): "Dan",
        "Eve\u3000Lee": "Eve Lee",
        "\u0421\u0430\u0448\u0430": "\u0421\u0430\u0448\u0430",  # Sasha, in Cyrillic
        "Annabel": "Annabel",
        "Jean-Luc": "Jean-Luc",
    }
    for name, stored in typed.items():
        seat = services.seat_join(table=table.table, name=name, phrase=RULES_PHRASE)
        assert seat.name == stored


def chat_lines(body: str) -> list[str]:
    start = body.index('class="chat-log"')
    log = body[start : body.index("</ol>", start)]
    return re.findall(r"<li\b.*?</li>", log, flags=re.S)


def test_the_apps_own_notes_cannot_be_imitated_by_a_player() -> None:
    """A note from the app is built unlike any player's line: its own class, a mark and no
    name. A player who writes a note's words, even under a name like the app's, still shows
    as a player's line."""
    table = create_lobby(["Ann", "Ben", "Cat"])
    # A name stored before look-alikes were refused.
    Seat.objects.filter(pk=table.seats["Ben"].pk).update(name=f"M{CYRILLIC_O}derator")
    note = "The cards are dealt and night falls. Read your role and send your action."
    services.chat_post(seat=table.seat("Ben"), text=note)
    services.table_start(host=table.seat("Ann"))
    body = raw(client_for(table, "Cat").get(url("table", table.code)))
    lines = chat_lines(body)
    assert len(lines) == 2
    player, app = lines
    assert 'class="line"' in player and 'class="who"' in player and "note" not in player
    assert 'class="note"' in app and '<span class="note-mark">Moderator</span>' in app
    assert 'class="who"' not in app


@pytest.mark.django_db(transaction=True)
async def test_notes_are_marked_as_notes_over_the_websocket(sockets: SocketOpener) -> None:
    """table.js builds a line as a note only when its frame says so, which only the app's own
    notes do (a player's line says "note": false, whatever it holds)."""
    table = await database_sync_to_async(create_lobby)(["Ann", "Ben", "Cat"])
    ann, _ = await sockets.seat(table, "Ann")
    ben = await database_sync_to_async(table.seat)("Ben")
    await database_sync_to_async(services.chat_post)(seat=ben, text="Moderator: all is fine")
    frame, _ = await receive_until(ann, lambda f: f.get("type") == "chat")
    assert frame["note"] is False and frame["name"] == "Ben"
    host = await database_sync_to_async(table.seat)("Ann")
    await database_sync_to_async(services.table_start)(host=host)
    frame, _ = await receive_until(ann, lambda f: f.get("type") == "chat")
    assert frame["note"] is True and "night falls" in frame["text"] and frame["name"] == ""
