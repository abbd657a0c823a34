"""Each reader gets their own language (docs/i18n.md): a page in the one their browser asks
for, a socket's pushes in the one its page's handshake asked for, whoever moved; what every
reader shares (the chat's notes, the pushed status box) in the site's."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from games.tables.models import ChatLine
from tests.factories import THREE, deal_game, new_client, play_night
from tests.i18n import pseudo
from tests.realtime.helpers import ORIGIN, WAIT, new_session, receive_until, seat_session

ENGLISH_WORD = re.compile(r"\b(?:the|night|day|you|your)\b", re.I)


@pytest.fixture
def site_in_english(pseudo_catalogue: Path, settings: object) -> Iterator[None]:
    """English is the site's language; the pseudo-language is offered too."""
    settings.DEADLINE_TICKER = False  # type: ignore[attr-defined]
    channel_layers.backends.clear()
    with pseudo.language(pseudo_catalogue, site="en-gb"):
        yield
    channel_layers.backends.clear()


@pytest.mark.django_db
@pytest.mark.usefixtures("site_in_english")
def test_a_page_is_in_the_language_the_browser_asks_for() -> None:
    home = reverse("home")
    english = new_client().get(home).content.decode()
    assert "Start a game" in english or "Create the game" in english
    assert '<html lang="en-gb">' in english
    asked = new_client().get(home, HTTP_ACCEPT_LANGUAGE="x-pseudo,en;q=0.5").content.decode()
    assert f'<html lang="{pseudo.CODE}">' in asked
    assert pseudo.pseudo("Create the game") in asked
    assert "Create the game" not in asked
    # A language nobody translated: the site's.
    other = new_client().get(home, HTTP_ACCEPT_LANGUAGE="tlh").content.decode()
    assert '<html lang="en-gb">' in other


async def _socket(table, name: str, accept_language: bytes) -> WebsocketCommunicator:
    from onenight.asgi import application

    cookie = f"sessionid={await database_sync_to_async(new_session)(seat_session(table, name))}"
    headers = [
        (b"host", b"testserver"),
        (b"origin", ORIGIN),
        (b"cookie", cookie.encode()),
        (b"accept-language", accept_language),
    ]
    comm = WebsocketCommunicator(application, f"/ws/table/{table.code}/?version=0", headers)
    connected, _ = await comm.connect(timeout=WAIT)
    assert connected
    return comm


@pytest.fixture
async def opened() -> AsyncIterator[list[WebsocketCommunicator]]:
    sockets: list[WebsocketCommunicator] = []
    yield sockets
    for comm in sockets:
        await comm.disconnect(timeout=1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("site_in_english")
async def test_each_socket_is_pushed_its_own_language(
    opened: list[WebsocketCommunicator],
) -> None:
    table = await database_sync_to_async(lambda: deal_game(**THREE))()
    ann = await _socket(table, "Ann", b"x-pseudo")
    ben = await _socket(table, "Ben", b"en-GB,en;q=0.8")
    opened += [ann, ben]
    hello_ann, _ = await receive_until(ann, lambda f: f["type"] == "hello")
    hello_ben, _ = await receive_until(ben, lambda f: f["type"] == "hello")
    assert pseudo.pseudo("Night") in hello_ann["panel"]
    assert not ENGLISH_WORD.search(re.sub(r"<[^>]+>", " ", hello_ann["panel"]))
    assert ENGLISH_WORD.search(hello_ben["panel"])
    # Ann's move, sent from her pseudo-language page, moves the night on; Ben is still pushed
    # English, and the chat's note is in the site's language.
    await database_sync_to_async(play_night)(table)
    await receive_until(ben, lambda f: "panel" in f and "Day" in f["panel"])
    day_ann, _ = await receive_until(
        ann, lambda f: "panel" in f and pseudo.pseudo("Day") in f["panel"]
    )
    assert "Day" not in re.sub(r"<[^>]+>", " ", day_ann["panel"]).split()
    notes = await database_sync_to_async(
        lambda: list(
            ChatLine.objects.filter(table=table.table, note=True).values_list("text", flat=True)
        )
    )()
    assert notes and all(ENGLISH_WORD.search(text) for text in notes)


@pytest.mark.django_db
@pytest.mark.usefixtures("site_in_english")
def test_a_reader_chooses_another_language_in_the_footer() -> None:
    """Where more than one language is offered, every page's footer switches it (Django's
    set_language: a cookie, which the pages and the socket read)."""
    browser = new_client()
    home = browser.get(reverse("home")).content.decode()
    assert 'name="language"' in home and f'value="{pseudo.CODE}"' in home
    answer = browser.post(reverse("set_language"), {"language": pseudo.CODE, "next": "/"})
    assert answer.status_code == 302
    assert pseudo.pseudo("Create the game") in browser.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_with_one_language_there_is_no_switch() -> None:
    assert 'name="language"' not in new_client().get(reverse("home")).content.decode()
