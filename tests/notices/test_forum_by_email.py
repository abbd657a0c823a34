"""A forum game (rules/001, 48 hours a phase) played to its end with a moved clock, its players
told by e-mail through a real SMTP server (aiosmtpd), and one by Web Push through a push
service on this machine, and one by direct message from the chat bot too (the relay pass of a
chat service in memory, tests/chatbot/helpers.py): each message expected is received once,
through a sender that dies in the middle of a send and a fresh one after it; quiet hours hold a
reminder until they end; an unsubscribe link stops a player's e-mails; a refused address is
dropped; and no message holds anything another seat could not see."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime, timedelta
from typing import Any
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.core.mail import EmailMessage

from games.chatbot.models import ChatAccount, SeatLink
from games.notices.models import Notice, PushDevice, Subscription
from games.tables import services
from tests.chatbot.helpers import SERVICE as CHAT
from tests.chatbot.helpers import FakeChat
from tests.factories import fixed_shuffle, new_client

from .conftest import Inbox
from .forum import HOURS, NAMES, START, Forum, notice_pass, open_forum, subscribe, wolf_kill
from .pushservice import PushService

pytestmark = pytest.mark.django_db

# Roles, sides and night actions of rules/001: none may appear in a notice.
ROLE_WORDS = (
    *("werewolf", "wolf", "seer", "protect", "lunatic", "village", "pack", "role"),
    *("affiliation", "investigat", "kill", "target", "eliminat"),
)
PARIS = ZoneInfo("Europe/Paris")


class SenderDied(BaseException):
    """The process dies in the middle of a send (not an error a sender would catch)."""


def text_of(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    content = body.get_content()
    assert isinstance(content, str)
    return content


def play(forum: Forum, inbox: Inbox) -> dict[str, Any]:
    """The game to its end, an hour at a time; what happened, for the expected messages."""
    roles = forum.roles()
    wolves = sorted(n for n, r in roles.items() if r == "werewolf")
    phases: list[tuple[str, frozenset[str], frozenset[str]]] = []  # label, alive, acted
    killed: list[str] = []
    label, died = "", False
    now = START
    while forum.refresh().stage == "playing" and now < START + timedelta(days=30):
        table = forum.table
        if table.phase_label != label:
            label = table.phase_label
            alive = frozenset(s.name for s in table.seats.all() if s.alive)
            acted: frozenset[str] = frozenset()
            if table.phase == "night":
                # Never the lunatic (its death ends the game, 001), Eve last.
                prey = [n for n in NAMES if n in alive and roles[n] not in ("werewolf", "lunatic")]
                victim = sorted(prey, key=lambda n: n == "Eve")[0]
                wolf_kill(forum, wolves[0], victim, now)
                killed.append(victim)
                acted = frozenset({wolves[0]})
            phases.append((label, alive, acted))
        if now == START + timedelta(days=4) and not died:
            # The process dies in the middle of a pass, as it sends; a fresh one goes on.
            died = True
            with (
                mock.patch.object(EmailMessage, "send", side_effect=SenderDied),
                pytest.raises(SenderDied),
            ):
                notice_pass(now)
        notice_pass(now)
        now += HOURS
    notice_pass(now)
    return {"phases": phases, "killed": killed, "wolves": wolves, "end": now}


def test_a_forum_game_told_by_email_once_each(smtp: Inbox, push_service: PushService) -> None:
    forum = open_forum()
    with fixed_shuffle():
        services.table_start(host=forum.seats["Ann"], now=START)
    for name in NAMES:
        if name == "Eve":  # quiet from noon to three in the afternoon, Paris time
            subscribe(forum, name, quiet=(12, 15))
        elif name == "Gus":
            subscription = subscribe(forum, name)
            Subscription.objects.filter(pk=subscription.pk).update(email="gus@refused.example")
        else:
            subscribe(forum, name)
    # Fay's phone takes push notifications as well.
    phone = push_service.subscription("fay-phone")
    PushDevice.objects.create(seat=forum.seats["Fay"], endpoint=phone["endpoint"], **phone["keys"])
    # Dan's seat is linked to a chat account, and he wants his notices there too; the bot's
    # relay runs with every pass (it would be a process of its own).
    chat = FakeChat()
    dan = ChatAccount.objects.create(service=CHAT, user_id=chat.user_id("Dan"), name="Dan")
    SeatLink.objects.create(seat=forum.seats["Dan"], account=dan)
    Subscription.objects.filter(seat=forum.seats["Dan"]).update(chat_dm=True)
    code = forum.table.code

    # Ben unsubscribes with the link of his first e-mail, one click, no login.
    unsubscribed = False
    real_pass = notice_pass

    def watching_pass(now: datetime) -> int:
        nonlocal unsubscribed
        sent = real_pass(now)
        chat.deliver(now)
        if not unsubscribed and smtp.to(forum.address("Ben")):
            first = text_of(smtp.to(forum.address("Ben"))[0])
            link = re.search(r"https://moderator.example.org(/notices/unsubscribe/\S+)", first)
            assert link is not None
            page = new_client().get(link.group(1))
            assert page.status_code == 200
            unsubscribed = True
        return sent

    with mock.patch(f"{__name__}.notice_pass", watching_pass):
        story = play(forum, smtp)
    assert forum.refresh().stage == "over"

    # Exactly once: no two messages alike, and none to the refused address.
    seen = Counter((m["To"], m["Subject"]) for m in smtp.messages)
    assert [k for k, n in seen.items() if n > 1] == []
    assert smtp.to("gus@refused.example") == []
    gus = Subscription.objects.get(seat=forum.seats["Gus"])
    assert gus.email == ""
    assert Notice.objects.filter(seat=forum.seats["Gus"], dropped="address refused").count() == 1

    # What each player was owed, from what happened.
    game = f"Game {code}"
    for name in ("Ann", "Cat", "Dan", "Eve", "Fay"):
        expected: list[str] = []
        for index, (label, alive, acted) in enumerate(story["phases"]):
            if name not in alive:
                continue
            if index > 0:
                expected.append(f"{game}: {label}")
            # Asked at night (every living player) and by day (the vote), until they act.
            if name not in acted:
                expected.append(f"{game}: {label} ends soon")
        if name in story["killed"]:
            expected.append(f"{game}: news for you")
        expected.append(f"{game} is over")
        got = [m["Subject"] for m in smtp.to(forum.address(name))]
        assert sorted(got) == sorted(expected), name

    # Fay's phone was pushed the same notices, once each, encrypted and signed (pushservice.py).
    assert push_service.refused == []
    pushed = [body["title"] for _name, body, _claims in push_service.received]
    assert sorted(pushed) == sorted(m["Subject"] for m in smtp.to(forum.address("Fay")))
    for _name, body, _claims in push_service.received:
        assert not [w for w in ROLE_WORDS if w in json.dumps(body).lower()], body

    # Dan's direct messages: the same notices, once each (among the game's own letters to a
    # linked seat, which do not end with the notices' footer), with nothing secret.
    notes = [m for m in chat.inbox["Dan"] if "untick them on your seat's page" in m]
    titles = [m.split("\n", 1)[0].strip("*") for m in notes]
    assert len(titles) >= 5
    assert sorted(titles) == sorted(m["Subject"] for m in smtp.to(forum.address("Dan")))
    for note in notes:
        assert not [w for w in ROLE_WORDS if w in note.lower()], note

    # Ben: what came before his click, then nothing.
    ben = smtp.to(forum.address("Ben"))
    assert len(ben) == 1 and not Subscription.objects.get(seat=forum.seats["Ben"]).email

    # Eve's reminders waited for the end of her quiet hours (15:00 in Paris), the others' not.
    for notice in Notice.objects.filter(kind="reminder", sent_at__isnull=False):
        local = notice.sent_at.astimezone(PARIS)
        assert local.hour == (15 if notice.seat_id == forum.seats["Eve"].pk else 13), notice

    # Every message, read: the game's public words only, and a one-click unsubscribe. No role,
    # and no player named (a notice tells a seat its own news only; links set aside, whose
    # signatures could spell a name by chance).
    pushed_texts = [json.dumps(body) for _name, body, _claims in push_service.received]
    for text in [f"{m['Subject']}\n{text_of(m)}" for m in smtp.messages] + pushed_texts + notes:
        words = set(re.findall(r"\w+", re.sub(r"https?://\S+", "", text)))
        assert not words & set(NAMES), text
    for message in smtp.messages:
        text = f"{message['Subject']}\n{text_of(message)}".lower()
        assert not [w for w in ROLE_WORDS if w in text], text
        assert message["List-Unsubscribe"].startswith("<https://moderator.example.org/notices/")
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert re.fullmatch(rf"Game {code}(: .+)?( is over| ends soon)?", message["Subject"])
    assert len(story["killed"]) >= 2 and len(story["phases"]) >= 5
