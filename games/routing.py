"""Websocket routes: one socket per open game page."""

from django.conf import settings
from django.urls import path

from games.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/game/<str:code>/", GameConsumer.as_asgi()),
]

if settings.BENCH_BASELINE:  # the load benchmark's floor (onenight/baseline.py)
    from onenight.baseline import BroadcastConsumer

    websocket_urlpatterns.append(path("ws/bench/<str:room>/", BroadcastConsumer.as_asgi()))
