"""Abuse limits and browser protections (docs/security.md): secure headers on every page, no
inline script anywhere, CSRF on every form, and cookie/HSTS settings fit for production."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Phase
from tests.factories import client_for, create_lobby, play_to
from tests.security.audit import POST_ROUTES

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]


def pages_of_every_phase() -> list[tuple[Client, str]]:
    pages: list[tuple[Client, str]] = [(Client(), reverse("home"))]
    lobby = create_lobby(["Ann", "Ben", "Cat"])
    pages.append((Client(), reverse("join", args=[lobby.code])))
    pages.append((client_for(lobby, "Ann"), reverse("game", args=[lobby.code])))
    for phase in (Phase.NIGHT, Phase.DAY, Phase.VOTING, Phase.REVEAL):
        table = play_to(phase)
        ann = client_for(table, "Ann")
        pages.append((ann, reverse("game", args=[table.code])))
        pages.append((ann, reverse("status", args=[table.code])))
    pages.append((Client(), "/g/NOSUCHGAME/"))  # an error page
    return pages


def test_every_page_sends_the_protective_headers() -> None:
    for client, path in pages_of_every_phase():
        response = client.get(path)
        csp = response.get("Content-Security-Policy", "")
        assert "script-src 'self'" in csp, (path, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, (path, csp)
        assert "frame-ancestors 'none'" in csp, (path, csp)
        assert response["X-Frame-Options"] == "DENY", path
        assert response["Referrer-Policy"] == "same-origin", path
        assert response["X-Content-Type-Options"] == "nosniff", path


def test_no_page_has_inline_script_or_event_handlers() -> None:
    """The CSP forbids inline script; the pages must not need any, or they would break."""
    for client, path in pages_of_every_phase():
        html = client.get(path).content.decode()
        for tag in re.findall(r"<script\b[^>]*>", html, re.I):
            assert re.search(r"\bsrc=", tag), (path, tag)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html, re.I), path
        assert not re.search(r"\son[a-z]+\s*=", html, re.I), path
        assert not re.search(r"\sstyle\s*=", html, re.I), path


@pytest.mark.parametrize("name", POST_ROUTES)
def test_every_form_needs_its_csrf_token(name: str) -> None:
    """A seated player's browser made to post from another site (no token) is refused."""
    table = play_to(Phase.DAY) if name != "deck" else create_lobby(["Ann", "Ben", "Cat"])
    browser = Client(enforce_csrf_checks=True)
    browser.get(reverse("rejoin", args=[table.code, table.seats["Ann"].token]))
    response = browser.post(reverse(name, args=[table.code]), {})
    assert response.status_code == 403
    assert b"CSRF" in response.content
    for path in (reverse("game_new"), reverse("join", args=[table.code])):
        assert Client(enforce_csrf_checks=True).post(path, {}).status_code == 403


def test_production_settings_and_check_deploy() -> None:
    """With the production variables set, cookies are Secure, HSTS is on, and Django's own
    deployment check passes without a warning."""
    env = {
        **os.environ,
        "DJANGO_SECRET_KEY": "x" * 60 + "production-test-key-not-secret",
        "DJANGO_ALLOWED_HOSTS": "onenight.example.org",
        "DJANGO_SETTINGS_MODULE": "onenight.settings",
    }
    env.pop("DJANGO_DEBUG", None)
    probe = (
        "import json, django; django.setup(); from django.conf import settings as s;"
        "print(json.dumps({k: getattr(s, k) for k in ('DEBUG', 'SESSION_COOKIE_SECURE',"
        " 'CSRF_COOKIE_SECURE', 'SESSION_COOKIE_HTTPONLY', 'SESSION_COOKIE_SAMESITE',"
        " 'SECURE_HSTS_SECONDS', 'SECURE_SSL_REDIRECT', 'ALLOWED_HOSTS')}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    values = json.loads(out.stdout.strip().splitlines()[-1])
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] and values["CSRF_COOKIE_SECURE"]
    assert values["SESSION_COOKIE_HTTPONLY"] and values["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert values["SECURE_HSTS_SECONDS"] > 0 and values["SECURE_SSL_REDIRECT"]
    assert values["ALLOWED_HOSTS"] == ["onenight.example.org"]
    check = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
