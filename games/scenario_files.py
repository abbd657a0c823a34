"""What the scenario commands (`play_scenario`, `play_werewolf`) share: reading a file of one
JSON object or of JSON Lines, and printing one result per scenario.

FILE holds one JSON object (one result object is printed; a broken scenario prints the problem
on stderr and exits with status 2) or JSON Lines (one result line per input line, in order; a
broken line prints {"error": "..."} and the run goes on). FILE may be "-" for standard input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from django.core.management.base import (
    BaseCommand,
    CommandError,
    CommandParser,
    no_translations,
)

TOO_DEEP = "The scenario is nested too deeply to read."


def _parse(text: str) -> Any:
    """The JSON value in `text`; ValueError with a readable message otherwise."""
    if not text.strip():
        raise ValueError("The line is empty.")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(TOO_DEEP) from None
    except ValueError as error:
        raise ValueError(f"Not valid JSON: {error}") from None


def play_text(run: Callable[[Any], dict[str, Any]], text: str) -> dict[str, Any]:
    """One scenario's result, or {"error": message}; never raises."""
    try:
        return run(_parse(text))
    except ValueError as error:  # the engines' RuleErrors are ValueErrors too
        return {"error": str(error)}
    except RecursionError:
        return {"error": TOO_DEEP}


def _is_single_value(text: str) -> bool:
    """True when the whole input is one JSON value (possibly spread over several lines)."""
    try:
        _parse(text)
    except ValueError:
        return False
    return True


def _lines(text: str) -> list[str]:
    """The input lines; a final newline does not start another (empty) line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip("\r") for line in lines]


class ScenarioCommand(BaseCommand):
    """A command that plays scenario files through `run` (a pure engine's runner)."""

    @staticmethod
    def run(scenario: Any) -> dict[str, Any]:
        """The engine's runner: one parsed scenario in, its result out (set by each command)."""
        raise NotImplementedError

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a scenario file (JSON or JSON Lines), or - for stdin")

    # The formats are English by contract (docs/i18n.md): the engines' messages are printed
    # untranslated, whatever the site's language.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        text = self._read(options["file"])
        run = type(self).run
        out = self.stdout  # never styled (Django styles only stderr): exactly as JSON
        lines = _lines(text)
        if len(lines) > 1 and not _is_single_value(text):
            # JSON Lines: exactly one result line per input line, blank lines included.
            dumps = json.dumps
            for line in lines:
                out.write(dumps(play_text(run, line), ensure_ascii=False) + "\n")
            return
        result = play_text(run, text)
        if "error" in result and len(result) == 1:
            self._fail(result["error"])
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
