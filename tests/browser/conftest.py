"""Fixtures for the browser tests: a daphne server, Debian's Chromium, one context per player.

Every test in tests/browser is marked `browser`. None of them use pytest-django's database: the
server has its own (a fresh SQLite file, or the PostgreSQL database of DATABASE_URL), read
through `live_server.db` with plain SQL (live_server.py).

On a failure, a full-page screenshot of every open player page is saved to
test-artifacts/<test name>/<player>.png.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Dialog, Page, sync_playwright

from .live_server import ARTIFACTS, GameDB, LiveServer, run_live_server
from .players import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DEFAULT_TIMEOUT_MS,
    DESKTOP,
    PHONE,
    NewPlayerPage,
    PlayerPage,
)

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)
            # Every server here (ours or a test's own) follows DATABASE_URL and REDIS_URL: the
            # second run of `make test` plays them again (tests/conftest.py).
            item.add_marker(pytest.mark.backends)


@pytest.fixture(autouse=True)
def _live_server_helper() -> None:
    """Replaces pytest-django's autouse helper of the same name, which asks for its
    `transactional_db` whenever a test uses a fixture called `live_server`. Ours is a separate
    daphne process with its own database file: the test process never touches a database."""


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    """daphne serving the app on a free port (`.url`), its database read through `.db`."""
    with run_live_server() as server:
        yield server


@pytest.fixture(scope="session")
def game_db(live_server: LiveServer) -> GameDB:
    """Queries on the live server's database (dealt roles, the night, the result...)."""
    return live_server.db


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Chromium, shared by the tests of this folder.

    Package scope rather than session scope on purpose: while Playwright's sync API is open, its
    event loop counts as running in this thread, so Django's ORM raises SynchronousOnlyOperation
    and pytest-asyncio cannot start its own loop. Closing it when the tests of tests/browser are
    done keeps the database and async tests that run after them in the same process working.
    """
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


PAGES_KEY = pytest.StashKey[list[PlayerPage]]()


@pytest.fixture
def player_pages(request: pytest.FixtureRequest) -> list[PlayerPage]:
    """The pages opened by `new_player_page` in this test (used by the failure screenshots)."""
    pages: list[PlayerPage] = []
    request.node.stash[PAGES_KEY] = pages
    return pages


@pytest.fixture
def new_player_page(
    browser: Browser, live_server: LiveServer, player_pages: list[PlayerPage]
) -> Iterator[NewPlayerPage]:
    """Factory: `new_player_page("Ann", phone=True)` opens a page in a fresh browser context.

    Each context has its own cookies, so each page is a separate player. Phones get a 390x844
    touch viewport, the others a desktop window. `websocket=False` makes every websocket the
    page opens fail at once, so the page lives on its panel poll alone (static/js/table.js).
    """

    def make(name: str, *, phone: bool = False, websocket: bool = True) -> Page:
        if phone:
            context = browser.new_context(
                viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
            )
        else:
            context = browser.new_context(viewport=DESKTOP)
        if not websocket:
            # As if the server had no websocket (or a proxy dropped it): the page must get by
            # on its panel poll.
            context.route_web_socket(
                re.compile(r"/ws/"), lambda ws: ws.close(code=1011, reason="blocked by the test")
            )
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        page = context.new_page()
        entry = PlayerPage(name=name, page=page, context=context, phone=phone, websocket=websocket)
        page.on("pageerror", lambda error: entry.js_errors.append(str(error)))

        def answer(dialog: Dialog) -> None:
            entry.dialogs.append(dialog.message)
            if entry.accept_dialogs:
                dialog.accept()
            else:
                dialog.dismiss()

        page.on("dialog", answer)
        player_pages.append(entry)
        return page

    yield make
    for entry in player_pages:
        _settle(entry)
    for entry in player_pages:
        entry.context.close()


def _settle(entry: PlayerPage) -> None:
    """Take a page to about:blank before its context closes.

    A test may end while one of its pages is still on its way somewhere (a form posted by the
    page's own script, say Play again's follow or Leave the table's redirect). Closing a context
    whose page commits a navigation at that moment can wait forever in Chromium (seen here and
    in CI: `BrowserContext.close` never answered, and the run hung to CI's limit). A navigation
    to about:blank has a timeout, stops the page's scripts and sockets, and leaves nothing in
    flight for the close.
    """
    if entry.page.is_closed():
        return
    # A page that cannot even leave: the close below still tries.
    with contextlib.suppress(Exception):
        entry.page.goto("about:blank", timeout=10_000)


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "test"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed and report.when in ("setup", "call"):
        pages = item.stash.get(PAGES_KEY, [])
        folder = ARTIFACTS / _safe(item.name)
        for entry in pages:
            if entry.page.is_closed() or entry.page.url == "about:blank":
                continue
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{_safe(entry.name)}.png"
            try:
                entry.page.screenshot(path=str(path), full_page=True, timeout=5_000)
            except Exception as error:  # a broken page must not hide the real failure
                report.sections.append(("screenshot", f"{entry.name}: {error}"))
            else:
                report.sections.append(("screenshot", str(path)))
    return report
