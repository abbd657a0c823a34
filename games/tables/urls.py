"""The table pages. Every table URL starts with its code; the seat comes from the session."""

from django.urls import path

from games.tables import seat_back, views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new", views.table_new, name="table_new"),
    path("games/join", views.join_by_code, name="join_by_code"),
    path("g/<str:code>/", views.table_view, name="table"),
    path("g/<str:code>/join", views.join, name="join"),
    path("g/<str:code>/rejoin/<str:token>", views.rejoin, name="rejoin"),
    path("g/<str:code>/watch/<str:key>", views.watch, name="watch"),
    path("g/<str:code>/back", seat_back.seat_back, name="seat_back"),
    path("g/<str:code>/back/<str:key>", seat_back.seat_back_link, name="seat_back_link"),
    path("g/<str:code>/seat-code", seat_back.seat_code, name="seat_code"),
    path("g/<str:code>/panel", views.panel, name="panel"),
    path("g/<str:code>/options", views.options, name="options"),
    path("g/<str:code>/remove/<int:seat_id>", views.remove_seat, name="remove_seat"),
    path("g/<str:code>/lock", views.lock, name="lock"),
    path("g/<str:code>/host", views.hand_over, name="hand_over"),
    path("g/<str:code>/leave", views.leave, name="leave"),
    path("g/<str:code>/start", views.start, name="start"),
    path("g/<str:code>/cancel", views.cancel, name="cancel"),
    path("g/<str:code>/clock", views.clock, name="clock"),
    path("g/<str:code>/do/<slug:kind>", views.move, name="move"),
    path("g/<str:code>/chat", views.chat, name="chat"),
    path("g/<str:code>/again", views.play_again, name="play_again"),
]
