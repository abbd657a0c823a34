"""Getting a seat back (issue 35, item 4; games/tables/seat_codes.py): a player whose browser
lost their seat asks the host, whose screen shows that seat's code and QR code; typed on the
"not in this game" page, or scanned, it seats the new browser. Nobody else can take the seat:
the code is only on the host's screen when the host asks (the table's chat is told each time),
it lasts ten to twenty minutes, and a wrong code changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.tables import seat_codes, services
from games.tables.models import ChatLine, Seat
from tests.factories import TestTable, client_for, create_lobby, deal_game, new_client
from tests.security.audit import forum_deal, forum_lobby
from tests.security.test_watcher_rules import GRAVE_LINE, cat_dies_and_talks
from tests.werewolf.test_table_mode import Moderator

from .helpers import text

pytestmark = pytest.mark.django_db

DEAL = {
    "Ann": "werewolf",
    "Ben": "seer",
    "Cat": "robber",
    "left": "villager",
    "middle": "villager",
    "right": "drunk",
}
CODE_ON_SCREEN = re.compile(r'id="seat-code-text"[^>]*>([A-Z0-9]{4} [A-Z0-9]{4})<')


def _show_code(host: Client, table: TestTable, name: str) -> str:
    """The host asks for `name`'s seat code; returns it as the screen shows it."""
    answer = host.post(reverse("seat_code", args=[table.code]), {"seat": str(table.seats[name].pk)})
    assert answer.status_code == 200, text(answer)[:2000]
    body = text(answer)
    assert "<svg" in body and 'class="segno"' in body  # the QR code
    assert table.seats[name].token not in body  # never the private rejoin link
    found = CODE_ON_SCREEN.search(body)
    assert found is not None, body[:3000]
    return found.group(1)


def _notes(table: TestTable) -> list[str]:
    return list(
        ChatLine.objects.filter(table=table.table, note=True).values_list("text", flat=True)
    )


def test_a_player_types_the_code_the_hosts_screen_shows_and_has_their_seat_back() -> None:
    table = deal_game(**DEAL)
    host = client_for(table, "Ann")
    lost = new_client()  # the phone's own browser: no seat
    page = lost.get(reverse("table", args=[table.code]))
    assert page.status_code == 403
    body = text(page)
    assert "You are not in this game" in body and 'name="seat_code"' in body
    assert "Give a player their seat back" in text(host.get(reverse("table", args=[table.code])))
    code = _show_code(host, table, "Ben")
    assert any("showing Ben's seat code" in note for note in _notes(table))
    answer = lost.post(reverse("seat_back", args=[table.code]), {"seat_code": code.lower()})
    assert answer.status_code == 302 and answer["Location"] == reverse("table", args=[table.code])
    assert "You are <strong>Ben</strong>" in text(lost.get(reverse("table", args=[table.code])))
    assert any("Ben's seat was opened on another screen" in note for note in _notes(table))
    # The old browser keeps the seat too, as with the rejoin link.
    old = client_for(table, "Ben")
    assert "You are <strong>Ben</strong>" in text(old.get(reverse("table", args=[table.code])))


def test_the_qr_codes_link_seats_the_browser_that_scans_it() -> None:
    table = deal_game(**DEAL)
    code = _show_code(client_for(table, "Ann"), table, "Cat").replace(" ", "")
    phone = new_client()
    before = _notes(table)
    # Opening the link (as a chat app's link preview does) only asks: nothing is taken or told.
    answer = phone.get(reverse("seat_back_link", args=[table.code, code]))
    assert answer.status_code == 200 and "Take Cat's seat?" in text(answer)
    assert _notes(table) == before
    assert phone.get(reverse("table", args=[table.code])).status_code == 403
    answer = phone.post(reverse("seat_back_link", args=[table.code, code]))
    assert answer.status_code == 302
    assert "You are <strong>Cat</strong>" in text(phone.get(reverse("table", args=[table.code])))
    assert any("Cat's seat was opened on another screen" in note for note in _notes(table))


def test_a_wrong_or_old_code_or_another_tables_changes_nothing() -> None:
    table = deal_game(**DEAL)
    other = deal_game(**DEAL)
    stranger = new_client()
    before = _notes(table)
    for typed in ("", "ZZZZ ZZZZ", "not a code at all", "A" * 5000):
        answer = stranger.post(reverse("seat_back", args=[table.code]), {"seat_code": typed})
        assert answer.status_code == 400
        assert "does not open a seat" in text(answer)
    # Ben's code at another table opens nothing here.
    ben_elsewhere = seat_codes.seat_code(other.seat("Ben"), other.table)
    answer = stranger.post(reverse("seat_back", args=[table.code]), {"seat_code": ben_elsewhere})
    assert answer.status_code == 400
    # A code shown more than twenty minutes ago has lapsed; one of ten minutes ago still works.
    ben = table.seat("Ben")
    stale = seat_codes.seat_code(ben, table.table, timezone.now() - timedelta(minutes=21))
    assert stranger.get(reverse("seat_back_link", args=[table.code, stale])).status_code == 404
    recent = seat_codes.seat_code(ben, table.table, timezone.now() - timedelta(minutes=10))
    assert seat_codes.seat_with_code(table.table, recent) == ben
    assert stranger.get(reverse("table", args=[table.code])).status_code == 403
    assert _notes(table) == before


def test_only_the_host_shows_codes_and_never_their_own_or_after_the_end() -> None:
    table = deal_game(**DEAL)
    ben = client_for(table, "Ben")
    answer = ben.post(reverse("seat_code", args=[table.code]), {"seat": str(table.seats["Cat"].pk)})
    assert answer.status_code == 403 and "Only the host" in text(answer)
    assert "seat-code-text" not in text(answer)
    assert "Give a player their seat back" not in text(ben.get(reverse("table", args=[table.code])))
    with pytest.raises(services.ServiceError):
        services.seat_code_show(host=table.seat("Ann"), seat_id=table.seats["Ann"].pk)
    with pytest.raises(services.ServiceError):
        services.seat_code_show(host=table.seat("Ann"), seat_id=123456789)
    services.table_cancel(table=table.table, by=table.seat("Ann"))
    with pytest.raises(services.WrongStageError):
        services.seat_code_show(host=table.seat("Ann"), seat_id=table.seats["Ben"].pk)


def test_a_browser_holding_another_seat_keeps_it() -> None:
    """The host scanning a player's code by mistake stays the host."""
    table = deal_game(**DEAL)
    host = client_for(table, "Ann")
    code = _show_code(host, table, "Ben").replace(" ", "")
    answer = host.get(reverse("seat_back_link", args=[table.code, code]))
    assert answer.status_code == 409
    assert "You are <strong>Ann</strong> (host)" in text(
        host.get(reverse("table", args=[table.code]))
    )


def test_in_the_lobby_the_code_works_too() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    code = _show_code(client_for(table, "Ann"), table, "Ben")
    phone = new_client()
    assert phone.get(reverse("seat_back", args=[table.code])).status_code == 200
    answer = phone.post(reverse("seat_back", args=[table.code]), {"seat_code": code})
    assert answer.status_code == 302
    assert "You are <strong>Ben</strong>" in text(phone.get(reverse("table", args=[table.code])))


def test_the_not_in_this_game_page_offers_watching_as_the_watcher_rules_allow() -> None:
    """One Night's watchers read the public game only: the host may hand out the link, so the
    page offers to ask for it. A Werewolf host who is alive may not (watchers read the
    graveyard), so the page says there is none to ask for."""
    one_night = deal_game(**DEAL)
    body = text(new_client().get(reverse("table", args=[one_night.code])))
    assert "Ask the host for the watch link" in body
    host = services.table_create(family="werewolf", ruleset="forum", host_name="Ann")
    for name in ("Ben", "Cat", "Dan", "Eve", "Fay", "Gus"):
        services.seat_join(table=host.table, name=name)
    services.table_start(host=Seat.objects.get(pk=host.pk))
    body = text(new_client().get(reverse("table", args=[host.table.code])))
    assert "There is no watch link to ask for now" in body
    assert "Ask the host for the watch link" not in body
    assert 'name="seat_code"' in body


def test_table_mode_has_no_seat_to_give_back() -> None:
    """At a table the moderator's screen plays for everyone: no player's seat has a screen of
    its own, so the moderator is offered no seat codes and none can be shown."""
    mod = Moderator("forum", ["Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"])
    mod.client.post(reverse("start", args=[mod.code]))
    page = mod.page()
    assert "Give a player their seat back" not in page
    answer = mod.client.post(reverse("seat_code", args=[mod.code]), {"seat": mod.seats["Ben"]})
    assert answer.status_code == 400 and "there is no seat to give back" in text(answer)
    body = text(new_client().get(reverse("table", args=[mod.code])))
    assert 'name="seat_code"' not in body and "rejoin link" in body


def test_a_removed_seats_code_opens_nothing_and_a_second_scan_says_nothing_new() -> None:
    table = create_lobby(["Ann", "Ben", "Cat"])
    host = client_for(table, "Ann")
    ben_code = _show_code(host, table, "Ben").replace(" ", "")
    cat_code = _show_code(host, table, "Cat").replace(" ", "")
    phone = new_client()
    assert phone.post(reverse("seat_back_link", args=[table.code, cat_code])).status_code == 302
    notes = _notes(table)
    assert phone.post(reverse("seat_back_link", args=[table.code, cat_code])).status_code == 302
    assert phone.get(reverse("seat_back_link", args=[table.code, cat_code])).status_code == 302
    assert _notes(table) == notes  # the same browser again: nothing new to tell
    services.seat_remove(host=table.seat("Ann"), seat_id=table.seats["Ben"].pk)
    answer = new_client().get(reverse("seat_back_link", args=[table.code, ben_code]))
    assert answer.status_code == 404


def test_a_living_host_gets_no_code_of_a_seat_that_reads_more_than_theirs() -> None:
    """The chat notes guard only what the host reads too (docs/security.md, "Getting a seat
    back"). Forum rules (rules/001): Cat is killed on night 1 and writes in the graveyard, Fay
    and Gus read the pack's channel; Ann, the host, is a living protector. Her screen offers
    neither their codes, the service refuses to show them, and their codes, worked out anyway,
    open nothing in a browser without a seat: it never reads the graveyard."""
    table = forum_lobby()
    forum_deal(table)
    cat_dies_and_talks(table)
    assert table.seat("Ann").alive
    host = client_for(table, "Ann")
    page = text(host.get(reverse("table", args=[table.code])))
    offered = re.search(r'<details class="card seat-back">.*?</details>', page, re.S)
    assert offered is not None
    options = re.findall(r'<option value="\d+">([^<]+)</option>', offered.group(0))
    assert options == ["Ben", "Dan", "Eve"]
    assert 'id="seat-back-withheld"' in offered.group(0)
    before = _notes(table)
    for name in ("Cat", "Fay", "Gus"):
        answer = host.post(
            reverse("seat_code", args=[table.code]), {"seat": str(table.seats[name].pk)}
        )
        assert answer.status_code == 400 and "seat-code-text" not in text(answer)
        assert "reads what yours may not" in text(answer)
        code = seat_codes.seat_code(table.seat(name), table.table)
        private = new_client()
        answer = private.post(reverse("seat_back", args=[table.code]), {"seat_code": code})
        assert answer.status_code == 400
        assert private.post(reverse("seat_back_link", args=[table.code, code])).status_code == 404
        body = text(private.get(reverse("table", args=[table.code])))
        assert GRAVE_LINE not in body and 'id="seat-back-limits"' in body
    assert _notes(table) == before
    # A seat that reads no more than Ann's comes back as before.
    dan = _show_code(host, table, "Dan")
    phone = new_client()
    answer = phone.post(reverse("seat_back", args=[table.code]), {"seat_code": dan})
    assert answer.status_code == 302
    assert GRAVE_LINE not in text(phone.get(reverse("table", args=[table.code])))


def test_no_code_opens_the_hosts_own_seat_nor_a_seat_in_table_mode() -> None:
    table = deal_game(**DEAL)
    ann = seat_codes.seat_code(table.seat("Ann"), table.table)
    assert seat_codes.seat_with_code(table.table, ann) is None
    mod = Moderator("forum", ["Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"])
    mod.client.post(reverse("start", args=[mod.code]))
    seated = Seat.objects.filter(table__code=mod.code)
    assert seated.count() > 1
    for seat in seated:
        assert seat_codes.seat_with_code(seat.table, seat_codes.seat_code(seat, seat.table)) is None


def test_wrong_codes_are_limited_per_client_and_per_table(settings) -> None:
    """Ten wrong codes a minute from one client, or at one table: the next answer says to wait
    and checks nothing, not even the right code."""
    settings.WRONG_SEAT_CODES_PER_MINUTE = 10
    cache.clear()
    table = deal_game(**DEAL)
    other = deal_game(**DEAL)
    ben = seat_codes.seat_code(table.seat("Ben"), table.table)
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    for _ in range(10):
        answer = guesser.post(reverse("seat_back", args=[table.code]), {"seat_code": "ZZZZZZZZ"})
        assert answer.status_code == 400
    before = _notes(table)
    answer = guesser.post(reverse("seat_back", args=[table.code]), {"seat_code": ben})
    assert answer.status_code == 429 and "Too many wrong seat codes" in text(answer)
    assert guesser.get(reverse("seat_back_link", args=[table.code, ben])).status_code == 429
    assert guesser.get(reverse("table", args=[table.code])).status_code == 403
    assert _notes(table) == before
    # The same client at another table, and another client at this one, are refused too.
    other_ben = seat_codes.seat_code(other.seat("Ben"), other.table)
    answer = guesser.post(reverse("seat_back", args=[other.code]), {"seat_code": other_ben})
    assert answer.status_code == 429
    someone = Client(REMOTE_ADDR="198.51.100.9")
    answer = someone.post(reverse("seat_back", args=[table.code]), {"seat_code": ben})
    assert answer.status_code == 429
    # Elsewhere, from elsewhere, a right code still works.
    answer = someone.post(reverse("seat_back", args=[other.code]), {"seat_code": other_ben})
    assert answer.status_code == 302
    cache.clear()
