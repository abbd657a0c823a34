"""URL configuration: the admin, the table pages and the families' own pages."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("games.tables.urls")),
    path("werewolf/", include("games.families.werewolf.urls")),
]
