"""The load benchmark's URLconf (bench/settings.py): the app's pages and the floor's ping."""

from django.urls import path

from bench.floor import ping
from onenight.urls import urlpatterns as app_urlpatterns

urlpatterns = [path("bench/ping", ping), *app_urlpatterns]
