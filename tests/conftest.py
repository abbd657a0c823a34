"""Settings shared by the whole suite."""

from __future__ import annotations

import os

import pytest

# Servers the tests start as subprocesses (browser, multi-process, benchmark smoke) inherit this:
# a test run creates many games from 127.0.0.1, far beyond the per-client cap real users get.
os.environ.setdefault("ONENIGHT_GAMES_PER_MINUTE", "100000")


@pytest.fixture(autouse=True)
def _many_games_per_minute(settings: pytest.FixtureRequest) -> None:
    """In-process tests get the same high cap; a test of the cap sets its own value."""
    settings.GAMES_PER_MINUTE = 100000
