from django.urls import path

from . import views

urlpatterns = [
    path("", views.table_home, name="table_home"),
    # One Night's narrator (its family's `narrator`) at the addresses it has always had.
    path("one-night/", views.narrator, {"family": "onenight"}, name="narrator"),
    path("one-night/reveal", views.narrator_reveal, {"family": "onenight"}, name="narrator_reveal"),
    # Werewolf's moderated game (its family's `moderated_options`).
    path("several-nights/", views.moderate, {"family": "werewolf"}, name="moderate"),
]
