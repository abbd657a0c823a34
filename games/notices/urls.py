"""The notices' addresses (under /notices/ in onenight/urls.py)."""

from django.urls import path

from games.notices import views

urlpatterns = [
    path("g/<str:code>/subscribe", views.subscribe, name="notices_subscribe"),
    path("g/<str:code>/defaults", views.table_defaults, name="notices_defaults"),
    path("g/<str:code>/push", views.push_device, name="notices_push"),
    path("unsubscribe/<str:token>", views.unsubscribe, name="notices_unsubscribe"),
    path("sw.js", views.service_worker, name="notices_sw"),
    path("manifest.webmanifest", views.manifest, name="notices_manifest"),
    path("calendar/<str:token>.ics", views.calendar_feed, name="notices_calendar"),
]
