"""The notices' parts one by one: the form on the seat's page (and bad input refused with nothing
changed), the host's defaults, quiet hours and a deadline inside them, two senders at once,
a mail server that turns messages away, the signed links (unsubscribe, calendar) and "since you
last looked"."""

from __future__ import annotations

import html
import threading
from datetime import timedelta

import icalendar
import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.notices import links, owed, sender
from games.notices.models import Notice, Subscription, TableDefaults
from games.tables import services
from games.tables.models import ChatLine, Move, Seat
from tests.factories import fixed_shuffle, new_client

from .conftest import Held, Inbox
from .forum import HOURS, START, Forum, notice_pass, open_forum, subscribe, wolf_kill


def started(now=START) -> Forum:  # type: ignore[no-untyped-def]
    forum = open_forum()
    with fixed_shuffle():
        services.table_start(host=forum.seats["Ann"], now=now)
    forum.refresh()
    return forum


def client_of(forum: Forum, name: str):  # type: ignore[no-untyped-def]
    client = new_client()
    client.get(reverse("rejoin", args=[forum.table.code, forum.seats[name].token]))
    return client


# --- The form ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_seat_asks_for_emails_from_its_page(smtp: Inbox) -> None:
    forum = started()
    ben = client_of(forum, "Ben")
    page = ben.get(reverse("table", args=[forum.table.code]))
    assert 'id="notices"' in page.text and "/notices/calendar/" in page.text
    answer = ben.post(
        reverse("notices_subscribe", args=[forum.table.code]),
        {
            "email": "ben@players.example",
            "remind": "360",
            "quiet_from": "22",
            "quiet_to": "8",
            "time_zone": "Europe/Paris",
        },
    )
    assert answer.status_code == 302
    mine = Subscription.objects.get(seat=forum.seats["Ben"])
    assert (mine.email, mine.remind_minutes, mine.quiet_from, mine.quiet_to, mine.time_zone) == (
        "ben@players.example",
        360,
        22,
        8,
        "Europe/Paris",
    )
    # What the seat could already see is not sent again: only what comes next.
    assert notice_pass(START + HOURS) == 0
    assert (
        "E-mails go to ben@players.example"
        in ben.get(reverse("table", args=[forum.table.code])).text
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields",
    [
        {"email": "not an address", "remind": "60", "time_zone": "UTC"},
        {"email": "a@b.example", "remind": "61", "time_zone": "UTC"},
        {"email": "a@b.example", "remind": "60", "time_zone": "Mars/Olympus"},
        {"email": "a@b.example", "remind": "60", "quiet_from": "25", "time_zone": "UTC"},
        {"email": "a@b.example", "time_zone": "UTC"},
    ],
)
def test_bad_input_is_refused_and_changes_nothing(smtp: Inbox, fields: dict[str, str]) -> None:
    forum = started()
    answer = client_of(forum, "Cat").post(
        reverse("notices_subscribe", args=[forum.table.code]), fields
    )
    assert answer.status_code == 400
    assert not Subscription.objects.exists()


@pytest.mark.django_db
def test_no_email_offered_where_the_server_sends_none(settings) -> None:  # type: ignore[no-untyped-def]
    settings.NOTICES_EMAIL = False
    forum = started()
    cat = client_of(forum, "Cat")
    assert 'type="email"' not in cat.get(reverse("table", args=[forum.table.code])).text
    answer = cat.post(
        reverse("notices_subscribe", args=[forum.table.code]),
        {"email": "cat@players.example", "remind": "0", "time_zone": "UTC"},
    )
    assert answer.status_code == 400 and not Subscription.objects.exists()


@pytest.mark.django_db
def test_the_host_sets_the_tables_defaults(smtp: Inbox) -> None:
    forum = started()
    path = reverse("notices_defaults", args=[forum.table.code])
    fields = {"remind": "60", "quiet_from": "23", "quiet_to": "7"}
    assert client_of(forum, "Ben").post(path, fields).status_code == 403
    assert not TableDefaults.objects.exists()
    assert client_of(forum, "Ann").post(path, fields).status_code == 302
    defaults = TableDefaults.objects.get(table=forum.table)
    assert (defaults.remind_minutes, defaults.quiet_from, defaults.quiet_to) == (60, 23, 7)
    # The players' form proposes them; nothing is sent to anyone who did not ask.
    page = client_of(forum, "Cat").get(reverse("table", args=[forum.table.code])).text
    assert '<option value="60" selected>' in page and '<option value="23" selected>' in page
    assert not Subscription.objects.exists()


@pytest.mark.django_db
def test_a_page_without_a_seat_has_no_notices_box() -> None:
    forum = started()
    answer = new_client().post(reverse("notices_subscribe", args=[forum.table.code]), {})
    assert answer.status_code in (403, 404)
    assert not Subscription.objects.exists()


# --- Quiet hours -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_quiet_hours_hold_until_morning_unless_the_deadline_falls_inside() -> None:
    forum = started()
    mine = Subscription(
        seat=forum.seats["Ann"], time_zone="Europe/Paris", quiet_from=22, quiet_to=8
    )
    night = START.replace(hour=23)  # 00:00 in Paris
    morning = START.replace(hour=7) + timedelta(days=1)  # 08:00 in Paris
    assert owed.due_at(mine, night, night + timedelta(days=2)) == morning
    assert owed.due_at(mine, night, night + timedelta(hours=2)) == night  # the deadline is first
    assert owed.due_at(mine, START, None) == START  # 19:00 in Paris: not quiet
    mine.quiet_from, mine.quiet_to = 8, 18  # quiet by day
    assert owed.due_at(mine, START.replace(hour=9), None) == START.replace(hour=17)


# --- Exactly once -------------------------------------------------------------------------------


def _owe_everyone(forum: Forum) -> int:
    for name in forum.seats:
        subscribe(forum, name, remind_minutes=0, zone="UTC")
    services.table_advance_if_due(table_id=forum.table.pk, now=START + timedelta(days=2))
    return owed.scan(START + timedelta(days=2))


@pytest.mark.django_db(transaction=True)
def test_two_senders_at_once_send_each_notice_once(smtp: Inbox) -> None:
    forum = started()
    made = _owe_everyone(forum)
    assert made == len(forum.seats)  # nobody was killed: Day 1 begins for all seven
    assert owed.scan(START + timedelta(days=2)) == 0  # owed once
    results: list[int] = []

    def one_sender() -> None:
        try:
            results.append(sender.send_due(START + timedelta(days=2)))
        finally:
            connection.close()

    threads = [threading.Thread(target=one_sender) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(results) == made
    assert len(smtp.messages) == made
    assert len({m["To"] for m in smtp.messages}) == made
    assert sender.send_due(START + timedelta(days=3)) == 0


@pytest.mark.django_db(transaction=True)
def test_a_slow_mail_server_holds_up_no_move(smtp: Inbox) -> None:
    """While a sender waits on the mail server, in the middle of a send, a player's move goes
    through (issue 41 item 3): the sender holds no transaction a move would wait for."""
    forum = open_forum()
    for name in forum.seats:
        subscribe(forum, name, remind_minutes=0, zone="UTC")
    with fixed_shuffle():
        services.table_start(host=forum.seats["Ann"], now=START)
    made = owed.scan(START)
    assert made == len(forum.seats)  # Night 1 begins for all seven
    smtp.held = Held()
    sent: list[int] = []

    def one_sender() -> None:
        try:
            sent.append(sender.send_due(START))
        finally:
            connection.close()

    thread = threading.Thread(target=one_sender)
    thread.start()
    try:
        assert smtp.held.arrived.wait(timeout=60)  # the first message is in the middle of DATA
        roles = forum.roles()
        wolf = next(n for n, r in roles.items() if r == "werewolf")
        prey = next(n for n, r in roles.items() if r == "villager")
        wolf_kill(forum, wolf, prey, START + HOURS)  # would fail if the sender held the database
        assert Move.objects.filter(seat=forum.seats[wolf], kind="night").exists()
        assert smtp.messages == []  # still held
    finally:
        smtp.held.release.set()
        thread.join()
    assert sent == [made] and len(smtp.messages) == made


@pytest.mark.django_db
def test_a_server_that_turns_messages_away_is_tried_again_then_given_up(smtp: Inbox) -> None:
    forum = started()
    made = _owe_everyone(forum)
    smtp.busy = True
    when = START + timedelta(days=2)
    assert sender.send_due(when) == 0
    assert Notice.objects.filter(tries=1, sent_at=None).count() == made
    smtp.busy = False
    assert sender.send_due(when) == 0  # not due again yet
    assert sender.send_due(when + sender.RETRY_AFTER) == made
    assert len(smtp.messages) == made

    # A notice that keeps failing is dropped after a few tries, not retried forever.
    Notice.objects.update(sent_at=None, tries=0, due_at=when)
    smtp.busy = True
    later = when
    for _ in range(sender.MAX_TRIES + 2):
        sender.send_due(later)
        later += sender.RETRY_AFTER * sender.MAX_TRIES
    assert Notice.objects.filter(dropped="failed").count() == made
    assert Notice.objects.filter(tries__gt=sender.MAX_TRIES).count() == 0


# --- Signed links -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_unsubscribe_by_the_mail_programs_one_click_post_and_bad_links(smtp: Inbox) -> None:
    forum = started()
    subscribe(forum, "Dan")
    path = links.unsubscribe_path(forum.seats["Dan"].pk)
    client = Client(enforce_csrf_checks=True)  # the mail program: no cookie, no token
    assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert Subscription.objects.get(seat=forum.seats["Dan"]).email == ""
    subscribe(forum, "Eve")
    for bad in (
        path[:-3] + "abc",
        links.calendar_path(forum.seats["Eve"].pk)
        .replace("calendar", "unsubscribe")
        .removesuffix(".ics"),
    ):
        assert new_client().get(bad).status_code == 400
    assert Subscription.objects.get(seat=forum.seats["Eve"]).email == "eve@players.example"


@pytest.mark.django_db
def test_the_calendar_feed_holds_the_seats_deadline(smtp: Inbox) -> None:
    forum = started()
    subscribe(forum, "Fay", remind_minutes=180)
    answer = new_client().get(links.calendar_path(forum.seats["Fay"].pk))
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(answer.content)
    (event,) = calendar.walk("VEVENT")
    assert event.decoded("dtstart") == START + timedelta(days=2)
    assert str(event["summary"]) == f"Game {forum.table.code}: Night 1 ends"
    (alarm,) = event.walk("VALARM")
    assert alarm.decoded("trigger") == -timedelta(hours=3)
    # Moved on: the same feed, read again, has the new step's deadline.
    services.table_advance_if_due(table_id=forum.table.pk, now=START + timedelta(days=2))
    again = icalendar.Calendar.from_ical(
        new_client().get(links.calendar_path(forum.seats["Fay"].pk)).content
    )
    (event,) = again.walk("VEVENT")
    assert event.decoded("dtstart") == START + timedelta(days=4)
    assert new_client().get("/notices/calendar/7:forged.ics").status_code == 404
    assert b"werewolf" not in answer.content.lower()


# --- Since you last looked ----------------------------------------------------------------------


@pytest.mark.django_db
def test_coming_back_opens_on_since_you_last_looked() -> None:
    forum = started()
    code = forum.table.code
    cat = client_of(forum, "Cat")
    # Her page was last open before the night ended (its socket said so, Seat.last_seen).
    Seat.objects.filter(pk=forum.seats["Cat"].pk).update(last_seen=timezone.now())
    assert 'id="since"' not in cat.get(reverse("table", args=[code])).text
    services.table_advance_if_due(table_id=forum.table.pk, now=START + timedelta(days=2))
    Seat.objects.filter(pk=forum.seats["Cat"].pk).update(
        last_seen=timezone.now() - timedelta(days=2)
    )
    page = cat.get(reverse("table", args=[code])).text
    assert 'id="since"' in page and "Since you last looked" in page
    assert page.index('id="since"') < page.index('id="panel"')
    notes = ChatLine.objects.filter(table=forum.table, note=True, channel="public")
    assert notes.exists()
    assert all(html.escape(line.text) in page for line in notes)
    assert "the game is waiting for you" in page
    # The pack's own notes are not shown to a villager (only what the seat's page reads).
    pack_notes = ChatLine.objects.filter(table=forum.table, note=True).exclude(channel="public")
    assert all(html.escape(line.text) not in page.split('id="panel"')[0] for line in pack_notes)
    # Back a moment ago: straight to the game.
    Seat.objects.filter(pk=forum.seats["Cat"].pk).update(last_seen=timezone.now())
    assert 'id="since"' not in cat.get(reverse("table", args=[code])).text


@pytest.mark.django_db
def test_a_reminder_held_through_quiet_hours_is_dropped_once_the_seat_has_acted(
    smtp: Inbox,
) -> None:
    forum = started()
    wolf = next(n for n, r in forum.roles().items() if r == "werewolf")
    subscribe(forum, wolf, quiet=(12, 15))  # Paris: the reminder at 13:00 waits until 15:00
    reminder_time = START + timedelta(hours=42)
    assert notice_pass(reminder_time) == 0
    (held,) = Notice.objects.filter(kind="reminder")
    assert held.due_at == reminder_time + 2 * HOURS
    prey = next(n for n, r in forum.roles().items() if r == "villager")
    wolf_kill(forum, wolf, prey, reminder_time + HOURS)
    assert notice_pass(reminder_time + 2 * HOURS) == 0
    held.refresh_from_db()
    assert (held.sent_at, held.dropped) == (None, "acted")
    assert smtp.messages == []


@pytest.mark.django_db
def test_a_reminder_whose_deadline_falls_in_quiet_hours_goes_at_once(smtp: Inbox) -> None:
    forum = started()
    # Paris: quiet from noon to eight in the evening; the night ends at 19:00, inside them, so
    # the reminder due at 13:00 cannot wait for 20:00.
    subscribe(forum, "Cat", quiet=(12, 20))
    reminder_time = START + timedelta(hours=42)
    assert notice_pass(reminder_time) == 1
    (message,) = smtp.to(forum.address("Cat"))
    assert message["Subject"] == f"Game {forum.table.code}: Night 1 ends soon"
    assert Notice.objects.get(kind="reminder").sent_at == reminder_time
