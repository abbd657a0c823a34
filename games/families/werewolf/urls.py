"""The multi-night family's pages outside a table."""

from django.urls import path

from games.families.werewolf import views

urlpatterns = [
    path("<slug:ruleset>/roles", views.roles, name="werewolf_roles"),
]
