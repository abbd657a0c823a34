"""`manage.py play_werewolf FILE`: ask the multi-night engine what happens in written-down games.

The format is ../shared/scenarios/werewolf/FORMAT.md; reading and printing are
`games.scenario_files`'.
"""

from __future__ import annotations

from games.families.werewolf.engine.scenario import run_scenario
from games.scenario_files import ScenarioCommand


class Command(ScenarioCommand):
    help = (
        "Play multi-night Werewolf scenarios (werewolf/FORMAT.md in shared/scenarios) through "
        "the rules engine."
    )
    run = staticmethod(run_scenario)
