"""The paths a game's templates read from `view.paths` (games/paths.py), reversed once per game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest
from django.urls import clear_script_prefix, reverse, set_script_prefix

from games.paths import GamePaths, game_paths

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_every_path_is_the_reversed_url_of_its_name() -> None:
    paths = game_paths("ABCD")
    for name in (f.name for f in fields(GamePaths)):
        assert getattr(paths, name) == reverse(name, args=["ABCD"]), name


def test_paths_are_kept_per_game() -> None:
    assert game_paths("ABCD") is game_paths("ABCD")
    assert game_paths("ABCD") != game_paths("WXYZ")
    assert game_paths("WXYZ").ready == reverse("ready", args=["WXYZ"])


@pytest.fixture
def mounted_under_app() -> Iterator[None]:
    set_script_prefix("/app/")
    yield
    clear_script_prefix()


def test_a_server_under_another_prefix_gets_its_own_paths(mounted_under_app: None) -> None:
    assert game_paths("ABCD").vote == "/app/g/ABCD/vote"
    assert game_paths("ABCD").vote == reverse("vote", args=["ABCD"])


def test_every_path_a_template_reads_is_one_of_the_game_paths() -> None:
    """Templates render a missing attribute as an empty string: a misspelt `view.paths.X`
    would leave a form without its action, and no page would fail."""
    read = {
        name
        for template in TEMPLATES.rglob("*.html")
        for name in re.findall(r"view\.paths\.(\w+)", template.read_text(encoding="utf-8"))
    }
    assert read, "no template reads view.paths"
    assert read <= {f.name for f in fields(GamePaths)}
