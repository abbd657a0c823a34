from django.urls import path

from . import views

urlpatterns = [
    path("", views.table_home, name="table_home"),
    path("one-night/", views.onenight_narrator, name="narrator"),
    path("one-night/reveal", views.onenight_reveal, name="narrator_reveal"),
    path("several-nights/", views.moderate, name="moderate"),
]
