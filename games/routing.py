"""Websocket routes: one socket per open game page."""

from django.urls import path

from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/game/<str:code>/", GameConsumer.as_asgi()),
]
