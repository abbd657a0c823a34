"""URL configuration: the admin and the game pages."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]

if settings.BENCH_BASELINE:
    from onenight.baseline import ping

    urlpatterns.append(path("bench/ping", ping))
