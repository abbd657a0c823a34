"""Browser protections (docs/security.md): secure headers on every page, no inline script or
style anywhere, CSRF on every form, and cookie and HSTS settings fit for production."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import client_for, create_lobby, new_client, play_to
from tests.security.audit import HTMX, POST_ROUTES, post_path, route_label, url

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[2]


def pages_of_every_phase() -> list[tuple[Client, str, dict[str, str]]]:
    """(browser, path, extra headers): the start page, the join page, every phase's table page,
    its htmx panel and the panel fragment, and error pages."""
    pages: list[tuple[Client, str, dict[str, str]]] = [(new_client(), url("home"), {})]
    lobby = create_lobby(["Ann", "Ben", "Cat"])
    pages.append((new_client(), url("join", lobby.code), {}))
    pages.append((client_for(lobby, "Ann"), url("table", lobby.code), {}))
    pages.append((client_for(lobby, "Ben"), url("panel", lobby.code), {}))
    for phase in ("night", "day", "voting", "reveal", "cancelled"):
        table = play_to(phase)
        ann = client_for(table, "Ann")
        pages.append((ann, url("table", table.code), {}))
        pages.append((ann, url("table", table.code), HTMX))
        pages.append((ann, url("panel", table.code), {}))
        pages.append((new_client(), url("table", table.code), {}))  # 403: not seated
    pages.append((new_client(), "/g/NOSUCHGAME/", {}))  # 404
    pages.append((new_client(), url("start", lobby.code), {}))  # 405: a form's address
    return pages


def test_every_page_sends_the_protective_headers() -> None:
    for client, path, extra in pages_of_every_phase():
        response = client.get(path, **extra)
        csp = response.get("Content-Security-Policy", "")
        assert "script-src 'self'" in csp, (path, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, (path, csp)
        assert "frame-ancestors 'none'" in csp, (path, csp)
        assert "object-src 'none'" in csp and "base-uri 'none'" in csp, (path, csp)
        assert response["X-Frame-Options"] == "DENY", path
        assert response["Referrer-Policy"] == "same-origin", path
        assert response["X-Content-Type-Options"] == "nosniff", path
        assert response["Cross-Origin-Opener-Policy"] == "same-origin", path


def test_no_page_has_inline_script_or_event_handlers() -> None:
    """The CSP forbids inline script and style; the pages must not need any, or they would
    break. htmx may not evaluate script either (allowEval off)."""
    for client, path, extra in pages_of_every_phase():
        html = client.get(path, **extra).content.decode()
        for tag in re.findall(r"<script\b[^>]*>", html, re.I):
            assert re.search(r"\bsrc=", tag), (path, tag)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html, re.I), path
        assert not re.search(r"\son[a-z]+\s*=", html, re.I), path
        assert not re.search(r"\sstyle\s*=", html, re.I), path
        assert not re.search(r"\shx-on", html, re.I), path
        if "htmx-config" in html:
            assert '"allowEval": false' in html, path


@pytest.mark.parametrize("route", POST_ROUTES, ids=route_label)
def test_every_form_needs_its_csrf_token(route: tuple[str, tuple[str, ...]]) -> None:
    """A seated player's browser made to post from another site (no token) is refused, and
    nothing changes."""
    table = play_to("day") if route[0] not in ("options", "lock") else create_lobby()
    browser = Client(enforce_csrf_checks=True)
    browser.get(url("rejoin", table.code, table.seats["Ann"].token))
    version = table.refresh().version
    response = browser.post(post_path(table.code, route), {"ready": "yes", "text": "hi"})
    assert response.status_code == 403
    assert b"CSRF" in response.content
    assert table.refresh().version == version
    for path in (url("table_new"), url("join", table.code), url("join_by_code")):
        assert Client(enforce_csrf_checks=True).post(path, {}).status_code == 403


def test_the_session_and_csrf_cookies_are_lax_and_the_session_is_http_only() -> None:
    """The seat's session cookie cannot be read by script nor sent by another site's forms."""
    table = create_lobby()
    browser = new_client()
    browser.get(url("rejoin", table.code, table.seats["Ann"].token))
    session = browser.cookies["sessionid"]
    assert session["httponly"] and session["samesite"] == "Lax"
    page = browser.get(url("table", table.code))
    csrf = page.cookies.get("csrftoken") or browser.cookies["csrftoken"]
    assert csrf["samesite"] == "Lax"


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
        " 'CSRF_COOKIE_SAMESITE', 'SECURE_HSTS_SECONDS', 'SECURE_SSL_REDIRECT',"
        " 'ALLOWED_HOSTS', 'SESSION_ENGINE')}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    values = json.loads(out.stdout.strip().splitlines()[-1])
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] and values["CSRF_COOKIE_SECURE"]
    assert values["SESSION_COOKIE_HTTPONLY"] and values["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert values["CSRF_COOKIE_SAMESITE"] == "Lax"
    assert values["SECURE_HSTS_SECONDS"] > 0 and values["SECURE_SSL_REDIRECT"]
    assert values["ALLOWED_HOSTS"] == ["onenight.example.org"]
    assert values["SESSION_ENGINE"] == "django.contrib.sessions.backends.signed_cookies"
    check = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
