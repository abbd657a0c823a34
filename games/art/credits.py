"""What the about page credits: every vendored icon (static/icons/credits.json, written by
bin/vendor-icons) and the other third-party work the app ships or runs on."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings


@dataclass(frozen=True, slots=True)
class IconCredit:
    """One vendored icon: its file under static/, its name in the collection, its author."""

    file: str
    used_for: str  # "role:seer", "team:village"
    icon: str
    author: str
    url: str
    licence: str
    licence_url: str

    @property
    def key(self) -> str:
        return self.used_for.partition(":")[2]

    @property
    def kind(self) -> str:
        return self.used_for.partition(":")[0]


@dataclass(frozen=True, slots=True)
class Software:
    """A library the app ships (vendored) or runs on, with its licence."""

    name: str
    url: str
    licence: str
    vendored: bool = False


# The app's own dependencies (pyproject.toml) and the vendored script (static/vendor/).
SOFTWARE: tuple[Software, ...] = (
    Software("htmx 2.0.11", "https://htmx.org/", "BSD Zero-Clause (0BSD)", vendored=True),
    Software("segno", "https://github.com/heuer/segno", "BSD 3-Clause"),
    Software("Django", "https://www.djangoproject.com/", "BSD 3-Clause"),
    Software("Channels, Daphne, channels-redis", "https://github.com/django/channels", "BSD"),
    Software("django-htmx", "https://github.com/adamchainz/django-htmx", "MIT"),
    Software("WhiteNoise", "https://github.com/evansd/whitenoise", "MIT"),
    Software("dj-database-url", "https://github.com/jazzband/dj-database-url", "BSD 3-Clause"),
    Software("psycopg", "https://www.psycopg.org/", "LGPL 3.0"),
    Software("confusable_homoglyphs", "https://github.com/vhf/confusable_homoglyphs", "MIT"),
    Software("discord.py", "https://github.com/Rapptz/discord.py", "MIT"),
)


def credits_file() -> Path:
    return Path(settings.STATICFILES_DIRS[0]) / "icons" / "credits.json"


@cache
def icon_credits() -> tuple[IconCredit, ...]:
    """Every vendored icon's credit, in the mapping's order."""
    rows = json.loads(credits_file().read_text(encoding="utf-8"))
    return tuple(
        IconCredit(
            file=row["file"],
            used_for=row["for"],
            icon=row["icon"],
            author=row["author"],
            url=row["url"],
            licence=row["licence"],
            licence_url=row["licence_url"],
        )
        for row in rows
    )


def icon_authors() -> tuple[str, ...]:
    """The icons' authors, each once, in alphabetical order."""
    return tuple(sorted({c.author for c in icon_credits()}))
