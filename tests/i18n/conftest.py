"""The pseudo-language's catalogue, made once per test process (tests/i18n/pseudo.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.i18n import pseudo


@pytest.fixture(scope="session")
def pseudo_catalogue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    locale_dir = tmp_path_factory.mktemp("locale")
    pseudo.build(locale_dir)
    return locale_dir


@pytest.fixture
def in_pseudo(pseudo_catalogue: Path) -> Iterator[None]:
    """The test's pages, sockets and notes in the pseudo-language."""
    with pseudo.language(pseudo_catalogue):
        yield
