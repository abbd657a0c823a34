from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _a_discord_bot_runs(settings: Any) -> None:
    """The pages show the `!link` box when a bot runs."""
    settings.DISCORD_BOT_NAME = "Moderator"
