"""URL configuration: the admin, the table pages and the families' own pages."""

from django.contrib import admin
from django.urls import include, path

from games.tables.views import favicon

urlpatterns = [
    path("admin/", admin.site.urls),
    # Browsers and crawlers ask for /favicon.ico whatever the page says: the app's icon.
    path("favicon.ico", favicon),
    # Django's own language switch (docs/i18n.md): the footer's form, where there is a choice.
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.tables.urls")),
    path("werewolf/", include("games.families.werewolf.urls")),
    path("one-night/", include("games.families.onenight.urls")),
    path("at-the-table/", include("games.tablemode.urls")),
    path("about/", include("games.art.urls")),
    path("notices/", include("games.notices.urls")),
]
