"""Which language a page, a socket or the table's notes are written in (docs/i18n.md).

A page takes the reader's language from Django's LocaleMiddleware. A socket has no request, so
its frames are rendered in the language its opening handshake asked for, read the same way.
What is made once for every reader is in the site's language (settings.LANGUAGE_CODE),
whoever's move caused it: the app's notes in a table's chat (one stored line for all) and the
public status a push carries (a socket in another language renders its own instead).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation


def of_socket(scope: dict[str, Any]) -> str:
    """The language a websocket's handshake asks for (its cookie, then Accept-Language)."""
    request = HttpRequest()
    headers = dict(scope.get("headers", []))
    request.META["HTTP_ACCEPT_LANGUAGE"] = headers.get(b"accept-language", b"").decode("latin-1")
    request.COOKIES = dict(scope.get("cookies", {}))
    return translation.get_language_from_request(request)


def shared() -> AbstractContextManager[None]:
    """Write what every reader shares (notes, a pushed status) in the site's language."""
    return translation.override(settings.LANGUAGE_CODE)
