"""`manage.py play_scenario FILE`: ask the rules engine what happens in written-down games.

The format is ../shared/scenarios/FORMAT.md. FILE holds one JSON object (one result object is
printed; a broken scenario prints the problem on stderr and exits with status 2) or JSON Lines
(one result line per input line, in order; a broken line prints {"error": "..."} and the run
goes on). FILE may be "-" for standard input.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.errors import RuleError
from games.engine.scenario import run_scenario


def _play_line(line: str) -> dict[str, Any]:
    """One JSON Lines entry: the result, or {"error": message}; never raises."""
    try:
        scenario = json.loads(line)
    except ValueError as error:
        return {"error": f"Not valid JSON: {error}"}
    try:
        return run_scenario(scenario)
    except RuleError as error:
        return {"error": str(error)}
    except RecursionError:
        return {"error": "The scenario is nested too deeply to read."}


def _is_single_object(text: str) -> bool:
    """True when the whole input is one JSON value (possibly spread over several lines)."""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


class Command(BaseCommand):
    help = "Play scenarios (FORMAT.md in shared/scenarios) through the rules engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a scenario file (JSON or JSON Lines), or - for stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        text = self._read(options["file"])
        out: TextIO = self.stdout._out  # write results unstyled, exactly as JSON
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > 1 and not _is_single_object(text):
            dumps = json.dumps
            out.write("\n".join(dumps(_play_line(line), ensure_ascii=False) for line in lines))
            out.write("\n")
            return
        try:
            scenario = json.loads(text)
        except ValueError as error:
            self._fail(f"Not valid JSON: {error}")
        try:
            result = run_scenario(scenario)
        except RuleError as error:
            self._fail(str(error))
        except RecursionError:
            self._fail("The scenario is nested too deeply to read.")
        out.write(json.dumps(result, ensure_ascii=False) + "\n")

    def _read(self, name: str) -> str:
        if name == "-":
            return sys.stdin.read()
        try:
            with open(name, encoding="utf-8") as handle:
                return handle.read()
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise CommandError(f"{name} is not UTF-8 text.") from None

    def _fail(self, message: str) -> None:
        self.stderr.write(message)
        sys.exit(2)
