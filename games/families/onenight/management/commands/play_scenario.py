"""`manage.py play_scenario FILE`: ask the One Night engine what happens in written-down games.

The format is ../shared/scenarios/FORMAT.md; reading and printing are
`games.scenario_files`'.
"""

from __future__ import annotations

from games.families.onenight.engine.scenario import run_scenario
from games.scenario_files import ScenarioCommand


class Command(ScenarioCommand):
    help = "Play One Night scenarios (FORMAT.md in shared/scenarios) through the rules engine."
    run = staticmethod(run_scenario)
