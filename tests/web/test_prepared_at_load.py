"""The server compiles the app's templates and builds its URL lookup while it loads, so the
first page or push after a restart does not hold the worker thread (and everyone behind it)
for that work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.template import engines

from onenight.templating import Jinja2Fragments, compile_templates

ROOT = Path(__file__).resolve().parents[2]


def _app_engine() -> Jinja2Fragments:
    return next(e for e in engines.all() if isinstance(e, Jinja2Fragments))


def test_compiling_covers_every_template_and_keeps_it() -> None:
    env = _app_engine().env
    env.cache.clear()
    names = compile_templates()
    assert "games/game.html" in names
    assert sorted(names) == sorted(env.list_templates())
    game_page = env.get_template("games/game.html")
    compile_templates()
    assert env.get_template("games/game.html") is game_page  # kept, not compiled again


def test_loading_the_server_prepares_templates_and_urls_before_any_request() -> None:
    probe = (
        "import onenight.asgi\n"
        "from django.template import engines\n"
        "from django.urls import get_resolver\n"
        "from onenight.templating import Jinja2Fragments\n"
        "env = next(e for e in engines.all() if isinstance(e, Jinja2Fragments)).env\n"
        "print(get_resolver()._populated)\n"
        "print(sorted(name for _, name in env.cache.keys()))\n"
    )
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "onenight.settings"}
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    *_, urls_built, compiled = done.stdout.strip().splitlines()
    assert urls_built == "True"
    assert "'games/game.html'" in compiled
    assert "'games/home.html'" in compiled
