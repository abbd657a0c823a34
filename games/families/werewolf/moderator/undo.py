"""Undo at a table: the state before each of the moderator's moves, kept so that a mis-tap
can be taken back."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.tables.family import NotNow

UNDO_DEPTH = 50


def remember(raw: dict[str, Any]) -> dict[str, Any]:
    """The state before a move, kept for `undo` (only what a move changes: the move count and
    the table's own lists)."""
    snapshot = {
        "moves": len(raw["moves"]),
        "done": list(raw.get("done") or []),
        "addressed": dict(raw.get("addressed") or {}),
        "called": list(raw.get("called") or []),
        "accusation": raw.get("accusation"),
    }
    return {**raw, "undo": [*(raw.get("undo") or [])[-(UNDO_DEPTH - 1) :], snapshot]}


def undo(raw: dict[str, Any]) -> dict[str, Any]:
    history = list(raw.get("undo") or [])
    if not history:
        raise NotNow(_("There is nothing to undo."))
    last = history.pop()
    return {
        **raw,
        "moves": raw["moves"][: last["moves"]],
        "done": last["done"],
        "addressed": last["addressed"],
        "called": last.get("called", []),
        "accusation": last["accusation"],
        "undo": history,
    }
