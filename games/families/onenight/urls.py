"""One Night's pages outside a table."""

from django.urls import path

from games.families.onenight import views

urlpatterns = [
    path("<slug:ruleset>/rules", views.rules, name="onenight_rules"),
]
