"""Names that pose as something else, and targets that cannot be mistaken for them.

Issue 25, hole 1: a player who joined as "left,middle" was taken for two centre cards in the
others' night actions (the forms posted names, and the post split them on the comma): the
robber and the troublemaker could not touch that player, and a seer aiming at them saw the
centre. Forms now offer players by seat id, and names that read as centre cards or hold the
separator are refused.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games import services
from games.engine import CENTRE_POSITIONS
from games.models import NightAction, Phase, Seat
from tests.factories import Table, client_for, create_lobby, start_with_deal
from tests.web.helpers import alerts, raw, url, visible

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
    response = Client().post(url("join", table.code), {"name": name})
    assert response.status_code == 400
    assert any("pick another name" in a for a in alerts(response)), alerts(response)
    assert Seat.objects.count() == seats
    with pytest.raises(services.ServiceError, match="pick another name"):
        services.game_create(host_name=name)


def test_names_that_only_mention_a_centre_word_are_still_fine() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    for name in ("Lefty", "Middleton", "Right Said Fred"):
        seat = services.seat_join(game=table.game, name=name, rules_phrase=services.RULES_PHRASE)
        assert seat.name == name


def _table_with_a_seat_named(name: str, cards: dict[str, str]) -> Table:
    """A game dealt `cards`, in which the third seat is called `name`: renamed in the
    database, as a name stored before such names were refused would be."""
    table = create_lobby(["Ann", "Ben", "Cat"])
    Seat.objects.filter(pk=table.seats["Cat"].pk).update(name=name)
    table.seats = {s.name: s for s in Seat.objects.filter(game=table.game).order_by("position")}
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
    options = offered(raw(ben.get(url("game", table.code))))
    # Every value the form posts is a seat id or one of the centre's fixed words.
    assert all(v.isdigit() or v in CENTRE_VALUES for v in options.values()), options
    assert options[f"{odd}'s card"] == str(table.seats[odd].pk)
    assert options["The left and middle centre cards"] == "left,middle"
    response = ben.post(url("night_action", table.code), {"targets": options[f"{odd}'s card"]})
    assert response.status_code == 302
    assert NightAction.objects.get(seat=table.seats["Ben"]).targets == [odd]


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
    ann, ben = client_for(table, "Ann"), client_for(table, "Ben")
    robber = offered(raw(ann.get(url("game", table.code))))
    response = ann.post(url("night_action", table.code), {"targets": robber[f"{odd}'s card"]})
    assert response.status_code == 302
    pair = offered(raw(ben.get(url("game", table.code))))
    targets = [pair[odd], pair["Ann"]]
    assert ben.post(url("night_action", table.code), {"targets": targets}).status_code == 302
    odd_client = client_for(table, odd)
    odd_client.post(url("night_action", table.code), {"no_action": "1"})
    assert table.phase() == Phase.DAY
    stored = {a.seat.name: a.targets for a in NightAction.objects.select_related("seat")}
    assert stored == {"Ann": [odd], "Ben": [odd, "Ann"], odd: []}
    page = visible(ann.get(url("game", table.code)))
    assert f"You swapped cards with {odd}. You are now the Werewolf." in page
