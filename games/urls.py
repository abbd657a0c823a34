"""Game pages."""

urlpatterns: list = []
