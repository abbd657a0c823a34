"""Who a request comes from, as far as the pages need to know: a keyed hash of its address.

Shared by every edge that opens tables for a browser (the core's pages, table mode's), so each
counts the same client the same way for the rate limit of `services.table_create`.
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.http import HttpRequest


def client_key(request: HttpRequest) -> str:
    """A keyed hash of the client's address: enough to rate-limit, useless to anyone reading
    the database. Behind the proxy daphne puts here the address nginx saw (its X-Real-IP,
    bin/serve), never one the client wrote in X-Forwarded-For."""
    address = request.META.get("REMOTE_ADDR") or "unknown"
    return hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256).hexdigest()[:32]
