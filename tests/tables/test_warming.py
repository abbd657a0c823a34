"""Warming up (games/tables/warming.py) and the kept fake-quote patterns (One Night's quoting.py):
what a game builds on first use is built as a server starts and kept across processes, so no
table waits for it (docs/benchmarks.md, "The quote patterns at start")."""

from __future__ import annotations

import sys

import pytest
from django.conf import settings
from django.test import override_settings

from games.families.onenight import quoting
from games.families.onenight.engine import Ruleset
from games.families.onenight.family import OneNight
from games.tables import warming


@pytest.fixture
def derived_cache(tmp_path):
    """A derived cache of this test's own, and no patterns kept in memory."""
    caches = {
        **settings.CACHES,
        "derived": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "derived"),
            "TIMEOUT": None,
        },
    }
    quoting.fake_patterns.cache_clear()
    with override_settings(CACHES=caches):
        yield tmp_path / "derived"
    quoting.fake_patterns.cache_clear()


def test_patterns_built_once_are_read_back_by_another_process(derived_cache, monkeypatch):
    built = quoting.fake_patterns(Ruleset.HOUSE, "en-gb")
    assert any(derived_cache.iterdir()), "the patterns were not kept"
    # Another process: nothing in memory, and it must not walk the texts again.
    quoting.fake_patterns.cache_clear()

    def walk(*args, **kwargs):
        raise AssertionError("the texts were walked again")

    monkeypatch.setattr(quoting, "every_private_text", walk)
    assert quoting.fake_patterns(Ruleset.HOUSE, "en-gb") == built
    assert quoting.fakes_one("You looked at Ben's card: it is the Werewolf.", built)


def test_another_version_of_the_texts_is_another_key(derived_cache, monkeypatch):
    quoting.fake_patterns(Ruleset.HOUSE, "en-gb")
    quoting.fake_patterns.cache_clear()
    monkeypatch.setattr(quoting, "texts_fingerprint", lambda: "another-version")
    walked: list[Ruleset] = []
    real = quoting.every_private_text

    def walk(ruleset, **kwargs):
        walked.append(ruleset)
        return real(ruleset, **kwargs)

    monkeypatch.setattr(quoting, "every_private_text", walk)
    quoting.fake_patterns(Ruleset.HOUSE, "en-gb")
    assert walked == [Ruleset.HOUSE]


def test_an_unreadable_cache_only_costs_the_walk(derived_cache, monkeypatch):
    class Broken:
        def get(self, key):
            raise OSError("disk gone")

        def set(self, key, value):
            raise OSError("disk gone")

    monkeypatch.setattr(quoting, "caches", {"derived": Broken()})
    patterns = quoting.fake_patterns(Ruleset.HOUSE, "en-gb")
    assert quoting.fakes_one("You looked at Ben's card: it is the Werewolf.", patterns)


def test_one_night_warms_every_ruleset_a_chat_line_can_ask_for(derived_cache, monkeypatch):
    asked: list[tuple[Ruleset, str | None, bool]] = []
    monkeypatch.setattr(
        "games.families.onenight.family.fake_patterns",
        lambda ruleset, language, expansions=False: asked.append((ruleset, language, expansions)),
    )
    OneNight().warm()
    assert {(r, e) for r, _language, e in asked} == {
        (Ruleset.HOUSE, False),
        (Ruleset.HOUSE, True),
        (Ruleset.OFFICIAL, False),
        (Ruleset.OFFICIAL, True),
    }


def test_warming_runs_every_family_in_every_language_and_survives_a_failure(monkeypatch):
    seen: list[tuple[str, str]] = []

    class Family:
        def __init__(self, name: str, fails: bool) -> None:
            self.name, self.fails = name, fails

        def warm(self) -> None:
            from django.utils.translation import get_language

            seen.append((self.name, get_language()))
            if self.fails:
                raise RuntimeError("boom")

    monkeypatch.setattr(warming, "families", lambda: (Family("a", True), Family("b", False)))
    with override_settings(LANGUAGES=[("en-gb", "English"), ("fr", "Français")]):
        warming.warm_families()
    assert seen == [("a", "en-gb"), ("b", "en-gb"), ("a", "fr"), ("b", "fr")]


def test_nothing_is_warmed_outside_a_server(monkeypatch):
    # Importing the application with no daphne reactor (tests, commands) starts no thread.
    monkeypatch.delitem(sys.modules, "twisted.internet.reactor", raising=False)
    assert warming.start_with_daphne() is False


def test_the_warm_command_fills_the_derived_cache(derived_cache, capsys):
    from django.core.management import call_command

    with override_settings(LANGUAGES=[("en-gb", "English")]):
        call_command("warm")
    assert "Warmed in" in capsys.readouterr().out
    quoting.fake_patterns.cache_clear()
    kept = list(derived_cache.iterdir())
    assert len(kept) == 4  # each ruleset, with and without the expansions' cards
