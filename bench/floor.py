"""The stack's floor, served beside the app by the load benchmark's own server (bench/app.py).

`ping` is a Django view with no database and no template, behind the app's middleware: the
least an HTTP request costs. `EchoConsumer` relays every text frame to every socket of its room
through the channel layer, as the chat does, with no database, session or rendering: the least
a line's fan-out costs. Production never imports this module (issue 26).
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import HttpRequest, HttpResponse


def ping(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.room = "bench-" + str(self.scope["url_route"]["kwargs"]["room"])
        await self.channel_layer.group_add(self.room, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.room, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.channel_layer.group_send(self.room, {"type": "relay", "text": text_data})

    async def relay(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])
