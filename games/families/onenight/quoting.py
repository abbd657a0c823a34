"""Spotting a chat message that quotes the moderator's private messages (rules/000 s5c).

Players may say what they learned in their own words ("I saw Ben was a werewolf"), but not paste
or retype the moderator's text. A message is refused when it contains a run of QUOTE_RUN or more
consecutive words that also stands in one of the sender's private messages, comparing words only:
case, spacing and punctuation are ignored, so retyping with other capitals or commas does not
get through. Short runs are allowed because everyday phrases ("it is the werewolf") are fair.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

QUOTE_RUN = 7
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """The text's words in order, lower-cased, punctuation and spacing dropped.

    Compatibility forms are folded (full-width letters, ligatures) and invisible format
    characters (soft hyphens, zero-width joiners) removed first, so they cannot split a word.
    """
    if text.isascii():  # NFKC leaves ASCII as it is, and no ASCII character is a format one
        return _WORD.findall(text.lower())
    folded = unicodedata.normalize("NFKC", text)
    visible = "".join(c for c in folded if unicodedata.category(c) != "Cf")
    return _WORD.findall(visible.casefold())


def word_runs(texts: Iterable[str], length: int = QUOTE_RUN) -> frozenset[tuple[str, ...]]:
    """Every run of `length` consecutive words in `texts` (a private message's fingerprint)."""
    runs: set[tuple[str, ...]] = set()
    for text in texts:
        w = words(text)
        runs.update(tuple(w[i : i + length]) for i in range(len(w) - length + 1))
    return frozenset(runs)


def can_quote(message: str, length: int = QUOTE_RUN) -> bool:
    """Whether `message` has enough words to hold a run (shorter ones never quote, so their
    sender's private texts need not be read)."""
    return len(words(message)) >= length


def quotes(message: str, private_runs: frozenset[tuple[str, ...]], length: int = QUOTE_RUN) -> bool:
    """True when `message` repeats a run of `length` words from the private messages."""
    if not private_runs:
        return False
    w = words(message)
    return any(tuple(w[i : i + length]) in private_runs for i in range(len(w) - length + 1))
