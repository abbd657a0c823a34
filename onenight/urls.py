"""URL configuration: the admin and the game pages."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]
