"""Browser protections (docs/security.md): secure headers on every page, no inline script or
style anywhere, CSRF on every form, and cookie and HSTS settings fit for production."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.testing import WebsocketCommunicator
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path as route

import onenight.urls
from tests.factories import client_for, create_lobby, new_client, play_to
from tests.security.audit import (
    HTMX,
    ORIGIN,
    POST_ROUTES,
    SocketOpener,
    post_path,
    route_label,
    url,
)

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


def assert_protected(headers: Mapping[str, str], what: object) -> None:
    """The security headers every response carries (docs/security.md)."""
    csp = headers.get("Content-Security-Policy", "")
    assert "script-src 'self'" in csp, (what, csp)
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, (what, csp)
    assert "frame-ancestors 'none'" in csp, (what, csp)
    assert "object-src 'none'" in csp and "base-uri 'none'" in csp, (what, csp)
    assert headers.get("X-Frame-Options") == "DENY", what
    assert headers.get("Referrer-Policy") == "same-origin", what
    assert headers.get("X-Content-Type-Options") == "nosniff", what
    assert headers.get("Cross-Origin-Opener-Policy") == "same-origin", what


def test_every_page_sends_the_protective_headers() -> None:
    for client, path, extra in pages_of_every_phase():
        assert_protected(client.get(path, **extra).headers, path)


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a view")


urlpatterns = [route("boom", boom), *onenight.urls.urlpatterns]


def test_every_kind_of_refusal_sends_the_protective_headers(settings: Any) -> None:
    """Issue 36, item 3: the early refusals went out without the CSP and X-Frame-Options
    (RefuseControlCharacters sat above the middleware that adds them). Each kind of refusal
    and error page, and a static file, through Django's middleware."""
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    lobby = create_lobby(["Ann", "Ben", "Cat"])
    ann = client_for(lobby, "Ann")
    csrf = Client(enforce_csrf_checks=True)
    csrf.get(url("rejoin", lobby.code, lobby.seats["Ann"].token))
    refusals: list[tuple[str, Any, int]] = [
        ("a NUL in the path", lambda: new_client().get("/%00"), 404),
        ("a NUL in a route", lambda: ann.get(f"/g/{lobby.code}/rejoin/a%00b"), 404),
        ("a NUL in a field", lambda: new_client().post("/games/new", {"host_name": "A\x00B"}), 400),
        ("a BEL in a query", lambda: ann.get(url("table", lobby.code) + "?x=%07"), 400),
        ("an ESC, htmx", lambda: ann.post(url("chat", lobby.code), {"text": "\x1b"}, **HTMX), 400),
        ("no such page", lambda: new_client().get("/g/NOSUCHGAME/"), 404),
        ("not seated", lambda: new_client().get(url("panel", lobby.code)), 403),
        ("a GET on a form", lambda: ann.get(url("start", lobby.code)), 405),
        ("no CSRF token", lambda: csrf.post(url("start", lobby.code)), 403),
        ("a foreign Host", lambda: new_client().get("/", HTTP_HOST="evil host"), 400),
        ("a body too big", lambda: ann.post(url("chat", lobby.code), {"text": "x" * 2000}), 400),
        ("a static file", lambda: new_client().get("/static/js/table.js"), 200),
    ]
    for what, ask, status in refusals:
        response = ask()
        assert response.status_code == status, (what, response.status_code)
        assert_protected(response.headers, what)


@pytest.mark.urls(__name__)
def test_the_server_error_page_sends_the_protective_headers() -> None:
    response = Client(raise_request_exception=False).get("/boom")
    assert response.status_code == 500
    assert_protected(response.headers, "500")


async def asgi_answer(
    method: str, path: str, query: bytes = b"", body: bytes = b""
) -> tuple[int, dict[str, str]]:
    """The status and headers the project's ASGI application (as daphne serves it) answers."""
    from onenight.asgi import application

    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "path": path,
        "raw_path": path.encode("latin-1"),
        "query_string": query,
        "root_path": "",
        "scheme": "http",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    talk = ApplicationCommunicator(application, scope)
    await talk.send_input({"type": "http.request", "body": body})
    start = await talk.receive_output(5)
    while (await talk.receive_output(5)).get("more_body"):
        pass
    headers = {k.decode().title(): v.decode() for k, v in start["headers"]}
    return start["status"], headers


@pytest.mark.django_db(transaction=True)
async def test_what_django_answers_before_its_middleware_sends_the_protective_headers(
    settings: Any,
) -> None:
    """A request Django's ASGI handler cannot read (a query string that is not UTF-8) is
    refused with a bare 400 before any middleware runs: onenight/refusals.py gives it the
    headers too. And the early refusals again, asked the way daphne asks."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    cases = [
        ("a body too big", "POST", "/games/new", b"", b"host_name=" + b"x" * 2000, 400),
        ("a query not in UTF-8", "GET", "/", b"a=\xff", b"", 400),
        ("a NUL in the path", "GET", "/\x00", b"", b"", 404),
        ("a NUL in a field", "POST", "/games/new", b"", b"host_name=A%00B", 400),
        ("a static file", "GET", "/static/js/table.js", b"", b"", 200),
    ]
    for what, method, path_, query, body, status in cases:
        got, headers = await asgi_answer(method, path_, query, body)
        assert got == status, (what, got)
        assert_protected(headers, what)


@pytest.mark.django_db(transaction=True)
async def test_a_socket_to_an_unknown_address_is_refused_not_a_server_error(
    sockets: SocketOpener,
) -> None:
    """Channels' router raised for a websocket address it has no route for (daphne: 500)."""
    from onenight.asgi import application

    comm = WebsocketCommunicator(
        application, "/ws/nosuch/", headers=[(b"host", b"testserver"), (b"origin", ORIGIN)]
    )
    connected, _code = await comm.connect(timeout=5)
    assert not connected
    await comm.wait(5)


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
