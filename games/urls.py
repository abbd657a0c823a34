"""Game pages. Every game URL starts with the game's code; the seat comes from the session."""

from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new", views.game_new, name="game_new"),
    path("games/join", views.join_by_code, name="join_by_code"),
    path("g/<str:code>/", views.game_page, name="game"),
    path("g/<str:code>/join", views.join, name="join"),
    path("g/<str:code>/rejoin/<str:token>", views.rejoin, name="rejoin"),
    path("g/<str:code>/status", views.status, name="status"),
    path("g/<str:code>/deck", views.deck, name="deck"),
    path("g/<str:code>/remove/<int:seat_id>", views.remove_seat, name="remove_seat"),
    path("g/<str:code>/lock", views.lock, name="lock"),
    path("g/<str:code>/start", views.start, name="start"),
    path("g/<str:code>/cancel", views.cancel, name="cancel"),
    path("g/<str:code>/action", views.night_action, name="night_action"),
    path("g/<str:code>/end-day", views.end_day, name="end_day"),
    path("g/<str:code>/ready", views.ready, name="ready"),
    path("g/<str:code>/vote", views.vote, name="vote"),
    path("g/<str:code>/again", views.play_again, name="play_again"),
]
