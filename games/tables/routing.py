"""Websocket routes: one socket per open table page."""

from django.urls import path

from games.tables.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/table/<str:code>/", TableConsumer.as_asgi()),
]
