"""The chat form over the page's socket (issue 39), in a real browser on daphne.

While its socket is open, a page sends its chat line over it (static/js/table.js; no POST); the
line shows on the other seats' pages and once on the sender's, whose box is emptied. A refused
line stays in the box with why. With the socket closed, the same form is POSTed (htmx) and the
line still reaches the others. A line whose answer is lost with the socket is not sent again:
the reconnected page finds it in its hello and shows it once.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, Request, WebSocketRoute, expect

from .live_server import LiveServer
from .players import TABLE_SOCKET, NewPlayerPage, open_chat, seat_table, send_chat

LIVE_MS = 3_000  # well over what a line takes; only reached when the test is about to fail
RECONNECT_MS = 10_000  # the page retries after 1 s, then 2 s, 4 s...


class SocketProxy:
    """Ann's sockets go through the test: it sees what the page sends, can hold back what the
    server answers, cut the socket and keep new ones from connecting."""

    def __init__(self) -> None:
        self.sockets: list[WebSocketRoute] = []
        self.sent: list[dict[str, Any]] = []  # the page's frames
        self.blocked = False
        self.swallow_chat = False  # hold back the next line's echo and answer, then cut

    def route(self, ws: WebSocketRoute) -> None:
        if self.blocked:
            ws.close(code=1011, reason="no socket now")
            return
        server = ws.connect_to_server()
        self.sockets.append(ws)

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str):
                self.sent.append(json.loads(message))
            server.send(message)

        def from_server(message: str | bytes) -> None:
            frame = json.loads(message) if isinstance(message, str) else {}
            if self.swallow_chat and frame.get("type") in ("chat", "chat-sent"):
                if frame["type"] == "chat-sent":
                    self.swallow_chat = False
                    ws.close(code=1001, reason="lost before the answer")
                return
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def chat_frames(self) -> list[str]:
        return [f["text"] for f in self.sent if f.get("type") == "chat"]


def log_texts(page: Page) -> list[str]:
    return page.locator(".chat-log li .text").all_inner_texts()


def test_the_chat_goes_over_the_socket_and_falls_back_to_the_post(
    live_server: LiveServer, new_player_page: NewPlayerPage
) -> None:
    proxy = SocketProxy()
    ann = new_player_page("Ann")
    ben = new_player_page("Ben")
    ann.context.route_web_socket(TABLE_SOCKET, proxy.route)
    posts: list[str] = []

    def seen(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/chat"):
            posts.append(request.url)

    ann.on("request", seen)
    code = seat_table(live_server.url, ann, "Ann", {"Ben": ben})
    expect(ann.locator("#offline")).to_be_hidden()

    # --- Over the socket: no POST, the line on both pages, once ---------------------------------
    send_chat(ann, "good evening over the socket")
    expect(ben.locator(".chat-log")).to_contain_text(
        "good evening over the socket", timeout=LIVE_MS
    )
    expect(ann.get_by_label("Chat message")).to_have_value("")
    expect(ann.locator(".chat-log li.mine", has_text="over the socket")).to_have_count(1)
    assert proxy.chat_frames() == ["good evening over the socket"]
    assert posts == []

    # --- A refusal keeps the text and says why --------------------------------------------------
    open_chat(ann)
    box = ann.locator(".chat-box")
    box.get_by_label("Chat message").fill("   ")
    box.get_by_role("button", name="Send").click()
    expect(box.get_by_role("alert")).to_have_text("Type a message first.")
    expect(box.get_by_label("Chat message")).to_have_value("   ")
    send_chat(ann, "now with words")
    expect(box.get_by_role("alert")).to_have_count(0)
    expect(ben.locator(".chat-log")).to_contain_text("now with words", timeout=LIVE_MS)
    assert posts == []

    # --- The answer is lost with the socket: the line is not sent twice ------------------------
    proxy.swallow_chat = True
    open_chat(ann)
    box.get_by_label("Chat message").fill("said as the Wi-Fi dropped")
    box.get_by_role("button", name="Send").click()
    expect(ben.locator(".chat-log")).to_contain_text("as the Wi-Fi dropped", timeout=LIVE_MS)
    # Reconnected, the page finds the line in its hello: shown once, the box emptied.
    expect(ann.locator(".chat-log li.mine", has_text="as the Wi-Fi dropped")).to_have_count(
        1, timeout=RECONNECT_MS
    )
    expect(box.get_by_label("Chat message")).to_have_value("")
    expect(ann.locator("#offline")).to_be_hidden()
    assert proxy.chat_frames().count("said as the Wi-Fi dropped") == 1
    assert live_server.db.chat_texts(code, "said as the Wi-Fi dropped") == [
        "said as the Wi-Fi dropped"
    ]
    assert posts == []

    # --- No socket: the form is POSTed and the line still reaches Ben ---------------------------
    proxy.blocked = True
    proxy.sockets[-1].close(code=1001, reason="gone")
    expect(ann.locator("#offline")).to_be_visible(timeout=LIVE_MS)
    sent_frames = len(proxy.sent)
    send_chat_by_post(ann, "said without a socket")
    expect(ben.locator(".chat-log")).to_contain_text("said without a socket", timeout=LIVE_MS)
    assert len(posts) == 1
    assert len(proxy.sent) == sent_frames
    # The socket back, the page shows its own line (from the hello), once.
    proxy.blocked = False
    expect(ann.locator(".chat-log li.mine", has_text="without a socket")).to_have_count(
        1, timeout=RECONNECT_MS
    )
    every = [
        "good evening over the socket",
        "now with words",
        "said as the Wi-Fi dropped",
        "said without a socket",
    ]
    for page in (ann, ben):
        expect(page.locator(".chat-log")).to_contain_text("said without a socket")
        assert [t for t in log_texts(page) if t in every] == every, page
    assert len(posts) == 1


def send_chat_by_post(page: Page, text: str) -> None:
    """Send a line with the page's socket down: the form's htmx POST answers the emptied box."""
    open_chat(page)
    box = page.locator(".chat-box")
    box.get_by_label("Chat message").fill(text)
    with page.expect_response(lambda r: r.url.endswith("/chat")) as answer:
        box.get_by_role("button", name="Send").click()
    assert answer.value.status == 200
    expect(page.locator(".chat-box").get_by_label("Chat message")).to_have_value("")
