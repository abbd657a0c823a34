"""Settings for One Night.

Every value that differs between a laptop and a server is read from the environment here, and
only here. With no variables set the app runs on embedded defaults (SQLite in WAL mode, the
in-memory channel layer, a secret key generated on first run) and needs nothing installed.

Production variables: DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DJANGO_DEBUG, DATABASE_URL,
REDIS_URL (docs/deploy.md).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
from django.conf.locale import LANG_INFO
from django.utils.csp import CSP
from django.utils.translation import to_language

BASE_DIR = Path(__file__).resolve().parent.parent
# Where the embedded database and the generated secret key live; a server sets its own.
DATA_DIR = Path(os.environ.get("ONENIGHT_DATA_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    """A yes/no environment variable ("1", "true", "yes", "on" mean yes)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated environment variable."""
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def embedded_secret_key() -> str:
    """A random key kept in DATA_DIR, so sessions survive restarts on a laptop without setup."""
    path = DATA_DIR / "secret_key"
    if path.exists():
        return path.read_text().strip()
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    path.write_text(key)
    path.chmod(0o600)
    return key


# A server is in production mode once it is given its own secret key.
PRODUCTION = "DJANGO_SECRET_KEY" in os.environ
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or embedded_secret_key()
# Debug pages show local variables, which could include roles: off unless asked for.
DEBUG = env_bool("DJANGO_DEBUG", default=False)
# On a laptop, friends join over the local network by its IP address, which we cannot know.
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", [] if PRODUCTION else ["*"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# daphne is not an app here: `make run` and bin/serve start daphne itself, and leaving it out
# keeps every management command (play_scenario above all) from loading Twisted.
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "games.tables",
    # The game families: each registers itself with the table core when Django starts.
    "games.families.onenight",
    "games.families.werewolf",
    # The Discord bot of rules/000 (an edge, like the pages): python manage.py run_discord_bot.
    "games.chatbot",
    # Table mode: the moderator's assistant for games played in person.
    "games.tablemode",
    # Art and identity: the role and team icons' template tags and the about page (credits).
    "games.art",
    # Notices to players with no page open: e-mail, a calendar feed, "since you last looked".
    "games.notices",
]

MIDDLEWARE = [
    # The security headers first: every response Django builds passes back through them, the
    # static files whitenoise serves and the refusals of the middleware below included (a
    # response returned early only passes the middleware above it). onenight/refusals.py adds
    # them to what Django answers before this chain runs.
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # https://docs.djangoproject.com/en/6.0/ref/csp/
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # https://whitenoise.readthedocs.io/en/stable/django.html
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language, from their browser's Accept-Language (docs/i18n.md).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # A NUL or other control character in a path or field: 404 or 400 before any view or the
    # database sees it (PostgreSQL refuses NUL in text).
    "games.tables.middleware.RefuseControlCharacters",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.tables.middleware.ExplainMethodNotAllowed",
]

ROOT_URLCONF = "onenight.urls"
ASGI_APPLICATION = "onenight.asgi.application"

# Django's templates, with partials (`{% partialdef %}`): a page and the fragments htmx and the
# websocket swap in are one template (https://docs.djangoproject.com/en/6.0/ref/templates/).
# Each family keeps its templates in its own package (APP_DIRS).
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csrf",
                "django.template.context_processors.csp",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # {% translate %} and {% blocktranslate %} in every template without a {% load %}.
            "builtins": ["django.templatetags.static", "django.templatetags.i18n"],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
# DATABASE_URL (postgres://user:pass@host:5432/name) selects PostgreSQL through psycopg 3.
# Without it: SQLite with WAL (readers never wait for the writer) and IMMEDIATE transactions, so a
# transaction takes the write lock when it starts instead of failing halfway ("database is
# locked") when two requests race: https://docs.djangoproject.com/en/6.0/ref/databases/#sqlite-transaction-behavior
# Persistent connections, though Django says to disable them under ASGI: that advice is for its
# thread per request, whose connections would outlive their threads. Here one thread per process
# does the sync work (games/tables/worker.py), so a process keeps one connection.
CONN_MAX_AGE = 60
if os.environ.get("DATABASE_URL"):
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ["DATABASE_URL"], conn_max_age=CONN_MAX_AGE, conn_health_checks=True
        )
    }
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("ONENIGHT_SQLITE_PATH", str(DATA_DIR / "onenight.sqlite3")),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA foreign_keys=ON;"
                ),
            },
            "CONN_MAX_AGE": CONN_MAX_AGE,
            # A file, not memory: tests with several threads or a daphne subprocess share it.
            "TEST": {
                "NAME": os.environ.get(
                    "ONENIGHT_TEST_SQLITE_PATH", str(DATA_DIR / "test-onenight.sqlite3")
                )
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels -------------------------------------------------------------------------------
# REDIS_URL selects channels-redis so several server processes share groups (docs/deploy.md);
# without it Channels' in-memory layer serves one process.
# Redis pub/sub ignores the database number ("publishing on db 10 will be heard by a subscriber
# on db 1": https://redis.io/docs/latest/develop/interact/pubsub/), and groups are named by table
# id: the prefix keeps apps on other numbers of one Redis server from hearing each other's pushes.
if os.environ.get("REDIS_URL"):
    REDIS_DB = urlparse(os.environ["REDIS_URL"]).path.strip("/")
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [os.environ["REDIS_URL"]],
                "prefix": f"onenight-{REDIS_DB if REDIS_DB.isdigit() else 0}",
            },
        }
    }
else:
    # Channels' in-memory layer, its expiry sweep throttled (onenight/layers.py).
    CHANNEL_LAYERS = {"default": {"BACKEND": "onenight.layers.SweepingInMemoryChannelLayer"}}

# Each server process moves tables on when a stored deadline passes (games/tables/clock.py).
DEADLINE_TICKER = env_bool("ONENIGHT_TICKER", default=True)
# Each server process also stores the notices players are owed and sends those due
# (games/notices/loop.py), every NOTICES_SECONDS.
NOTICES_LOOP = env_bool("ONENIGHT_NOTICES", default=True)
NOTICES_SECONDS = float(os.environ.get("ONENIGHT_NOTICES_SECONDS", "15"))
# Each server process builds, as it starts and on a thread of its own, what the games would
# otherwise build on first use while a table waits (games/tables/warming.py).
WARM_AT_START = env_bool("ONENIGHT_WARM", default=True)

# --- Caches -----------------------------------------------------------------------------------
# "default": Django's per-process memory cache (the join caps' counts, docs/security.md).
# "derived": what the app derives from its own code and catalogues, slow to build and the same
# until they change (One Night's fake-quote patterns, games/families/onenight/quoting.py): kept
# in files, so a restart, a second process and the Discord bot read it instead of building it
# again. Its keys carry a fingerprint of the code, so a new version never reads an old entry.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "derived": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("ONENIGHT_DERIVED_CACHE", str(DATA_DIR / "derived")),
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 1000},
    },
}

# --- E-mail (games/notices) -----------------------------------------------------------------
# Django's e-mail framework (its MAILERS setting): an SMTP server from EMAIL_HOST (with its
# port, user, password and TLS), or any other backend by its dotted path in EMAIL_BACKEND (an
# e-mail service's, such as django-anymail's, set up as its documentation says). Without
# either, the app offers no e-mail notices.
SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_SERVER = os.environ.get("EMAIL_HOST", "")
MAIL_BACKEND = os.environ.get("EMAIL_BACKEND", SMTP_BACKEND)
MAILERS = {
    "default": {
        "BACKEND": MAIL_BACKEND,
        "OPTIONS": {
            "host": EMAIL_SERVER or "localhost",
            "port": int(os.environ.get("EMAIL_PORT", "25")),
            "username": os.environ.get("EMAIL_HOST_USER", ""),
            "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            "use_tls": env_bool("EMAIL_USE_TLS", default=False),
            "use_ssl": env_bool("EMAIL_USE_SSL", default=False),
            "timeout": int(os.environ.get("EMAIL_TIMEOUT", "20")),
        }
        if MAIL_BACKEND == SMTP_BACKEND
        else {},
    }
}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "werewolf@localhost")
NOTICES_EMAIL = bool(EMAIL_SERVER) or MAIL_BACKEND != SMTP_BACKEND
# Web Push (games/notices/push.py): the server's VAPID key pair, made once with
# `manage.py vapid_keys`, and a contact for the push services (mailto: or https:). Without the
# keys, the app offers no push notifications.
VAPID_PUBLIC_KEY = os.environ.get("ONENIGHT_VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("ONENIGHT_VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("ONENIGHT_VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")
# The server posts to the push endpoints browsers hand it: only public HTTPS addresses, unless
# this is on (the tests' own push service on this machine).
PUSH_LOCAL_ENDPOINTS = env_bool("ONENIGHT_PUSH_LOCAL_ENDPOINTS", default=False)


# --- Sessions and security ------------------------------------------------------------------
# A player's seat lives in the session: keep it for a couple of days across browser restarts.
# Signed cookies, not database rows: the session holds only the player's own seat tokens, it
# cannot be altered without the secret key, and no request pays a query for it
# (https://docs.djangoproject.com/en/6.0/topics/http/sessions/#using-cookie-based-sessions).
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 48
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# No inline script anywhere: every script is a static file (docs/security.md).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

if not DEBUG and PRODUCTION:
    # Behind a TLS-terminating proxy (docs/deploy.md); see `manage.py check --deploy`.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", 60 * 60 * 24 * 30))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", default=True)

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
# A server runs collectstatic and gets compressed, cache-busted names; a laptop serves the files
# straight from the source folders (no collectstatic step).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not PRODUCTION
if not PRODUCTION:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise expects it to exist

# --- Languages ------------------------------------------------------------------------------
# Every sentence is marked for translation (docs/i18n.md). The site's language, for readers whose
# browser asks for none we have and for what is shared (the chat's notes, the Discord bot):
LANGUAGE_CODE = os.environ.get("ONENIGHT_LANGUAGE", "en-gb")
USE_I18N = True
# A language is offered once its catalogue is in locale/ (manage.py makemessages -l <code>).
LOCALE_PATHS = [BASE_DIR / "locale"]


def translated_languages(locale: Path) -> list[tuple[str, str]]:
    """(code, name) of each language with a catalogue in `locale` (e.g. locale/fr/LC_MESSAGES),
    the name in the language itself ("Français"), as a reader looks for their own."""
    codes = [to_language(folder.parent.name) for folder in sorted(locale.glob("*/LC_MESSAGES"))]
    return [(code, LANG_INFO.get(code, {}).get("name_local", code)) for code in codes]


LANGUAGES = [("en-gb", "English"), *translated_languages(LOCALE_PATHS[0])]
TIME_ZONE = "UTC"
USE_TZ = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
# How many games one client (by address) may create per minute (docs/security.md). The load
# benchmark and the tests create hundreds from one address: they lift the caps with these
# variables.
GAMES_PER_MINUTE = int(os.environ.get("ONENIGHT_GAMES_PER_MINUTE", "5"))
# The caps on joining (docs/security.md, "Abuse": what each protects, how it was sized), each
# counted over the last minute: the tables one client address takes seats at, the seats one
# address takes (at any tables), and the seats taken at one table (from any addresses). At a
# party every phone on the home Wi-Fi has the same public address: 18 players (multi-night
# games are played by 8 to 18) join one table from one address at once.
JOIN_TABLES_PER_MINUTE = int(os.environ.get("ONENIGHT_JOIN_TABLES_PER_MINUTE", "3"))
JOINS_PER_MINUTE = int(os.environ.get("ONENIGHT_JOINS_PER_MINUTE", "20"))
TABLE_JOINS_PER_MINUTE = int(os.environ.get("ONENIGHT_TABLE_JOINS_PER_MINUTE", "24"))
# Wrong seat codes (games/tables/seat_codes.py) one client address, and one table, may send in
# a minute (docs/security.md, "Getting a seat back"), counted in Django's cache: the default
# cache, a LocMemCache, counts per server process.
WRONG_SEAT_CODES_PER_MINUTE = int(os.environ.get("ONENIGHT_WRONG_SEAT_CODES_PER_MINUTE", "10"))
# The Discord bot's name as players find it (issue 29, README "Discord"): when set, a One Night
# seat's page shows the `!link` command that plays it from Discord. The bot itself runs apart:
# python manage.py run_discord_bot, with DISCORD_TOKEN.
DISCORD_BOT_NAME = os.environ.get("ONENIGHT_DISCORD_BOT_NAME", "").strip()
# The app's public address (e.g. https://werewolf.example.org), for links the Discord bot sends
# (the rules page). Unset: the bot names the pages without links.
SITE_URL = os.environ.get("ONENIGHT_SITE_URL", "").strip().rstrip("/")
