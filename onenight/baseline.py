"""The stack's floor for the load benchmark (bench/load.py): the least Django and Channels do.

Served only when ONENIGHT_BENCH_BASELINE is on. `ping` is a view with no database and no
template; `BroadcastConsumer` relays each text frame to every socket in the same room through
the channel layer, as the game's chat does, but with no database, session or rendering, and
sends an "echo" frame straight back to its sender (the floor of a form sent over a socket).
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import HttpRequest, HttpResponse


def ping(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok", content_type="text/plain")


class BroadcastConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.room = "bench." + str(self.scope["url_route"]["kwargs"]["room"])
        await self.channel_layer.group_add(self.room, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.room, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data and text_data.startswith('{"echo"'):
            await self.send(text_data=text_data)  # a form's floor: straight back to the sender
            return
        await self.channel_layer.group_send(self.room, {"type": "relay", "text": text_data})

    async def relay(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])
