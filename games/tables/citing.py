"""A ruling's sentence and the rule behind it, kept apart (issue 38: plain words, rules one tap
away).

The engines word a ruling as one sentence ending with the section of the rules document that
makes it so ("... must agree on one victim (004 III)."): the scenario runners print it whole
(../shared/scenarios FORMAT.md: a message naming the rule). A page shows the sentence alone and
the section behind a "why?" disclosure (templates/tables/why.html, through the `citing` template
tags), so a player reads plain words and the rule is one tap away.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A section of one of our rules documents in parentheses at the end of a sentence: "(004 III).",
# "(rules/000 s6a, rules/002 s6)", "(003 Lover Deck)". Digits stay digits in every language.
_ENDING = re.compile(r"\s*\(((?:rules/)?00[0-4]\b[^()]*)\)(\.?)\s*$")


@dataclass(frozen=True, slots=True)
class Cited:
    """A sentence a player reads and the section behind it ("" when none is cited)."""

    text: str
    section: str = ""

    def __str__(self) -> str:
        """The whole ruling as one line (a log, a runner): "text (section)."."""
        if not self.section:
            return self.text
        text = self.text.rstrip()
        stop = "." if text.endswith(".") else ""
        return f"{text.removesuffix('.')} ({self.section}){stop}"


def split(message: object) -> Cited:
    """`message` as its sentence and the section it ends with, if it ends with one."""
    if isinstance(message, Cited):
        return message
    text = str(message)
    found = _ENDING.search(text)
    if found is None:
        return Cited(text)
    return Cited(text[: found.start()] + found.group(2), found.group(1))
