"""A real SMTP server for the notices' tests (aiosmtpd on a free port of this machine), and a
forum game (rules/001, 48 hours a phase) whose seats ask for e-mails."""

from __future__ import annotations

import asyncio
import email
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.core.management import call_command

from .pushservice import PushService, serve


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Held:
    arrived: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)


@dataclass
class Inbox:
    """What the SMTP server received, message by message. Addresses at refused.example are
    refused outright (550); while `busy`, every message is turned away for now (421)."""

    messages: list[EmailMessage] = field(default_factory=list)
    busy: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    # A slow mail server: while `held` is set, each message's DATA says so in `arrived` and
    # waits for `held.release` before it is accepted.
    held: Held | None = None

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if address.endswith("@refused.example"):
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.held is not None:
            self.held.arrived.set()
            await asyncio.get_running_loop().run_in_executor(None, self.held.release.wait)
        if self.busy:
            return "421 4.3.2 Try again later"
        message = email.message_from_bytes(envelope.content, policy=default)
        assert isinstance(message, EmailMessage)
        with self.lock:
            self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "timeout": 10},
        }
    }
    settings.NOTICES_EMAIL = True
    settings.SITE_URL = "https://moderator.example.org"
    settings.DEFAULT_FROM_EMAIL = "moderator@moderator.example.org"
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def push_service(settings: Any, capsys: pytest.CaptureFixture[str]) -> Iterator[PushService]:
    call_command("vapid_keys")
    keys = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    settings.VAPID_PUBLIC_KEY = keys["ONENIGHT_VAPID_PUBLIC_KEY"]
    settings.VAPID_PRIVATE_KEY = keys["ONENIGHT_VAPID_PRIVATE_KEY"]
    settings.VAPID_SUBJECT = "mailto:moderator@moderator.example.org"
    settings.PUSH_LOCAL_ENDPOINTS = True
    settings.SITE_URL = "https://moderator.example.org"
    service = PushService(server_key=settings.VAPID_PUBLIC_KEY)
    server = serve(service)
    try:
        yield service
    finally:
        server.shutdown()
