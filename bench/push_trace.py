"""Which step a phase push belongs to, for bench/werewolf_load.py's played-through games.

Every form a table receives is kept (who sent it, when, how it was answered: taken with the
table's new version, or refused because the game had moved past it), and so is every step a
table's pages see (a new phase label): when its first page saw it, at which version, the
deadline the panel before it showed, and when each page saw it, by push or by its own form's
answer. From these each step is put down to what ended it:

- **a form** (a night choice, a vote, "I'm done talking", the host's "Move on now"): the taken
  form whose answer carried the step's version (the lowest version a page showed it at); its
  push is timed from that form's sending;
- **the clock**: no taken form carried it and the step before it had a deadline that had
  passed when the first page saw the new step; its push is timed from the deadline (the ticker
  notices a deadline within a second, docs/benchmarks.md);
- **unknown**: neither (reported, so that nothing is hidden).

It also gives each step's spread (the first page to the last) and, for comparison with the
earlier rounds, every push timed from the last form the table received, whatever it was.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.stats import summarize

DEADLINE = re.compile(r'class="countdown" data-deadline="([^"]+)"')


@dataclass
class Post:
    kind: str
    seat: int
    sent: float
    answered: float | None = None
    status: str = "pending"  # "taken", "refused" or "failed"
    version: int | None = None  # the table's version in a taken form's answer


@dataclass
class Change:
    """A step of one table as its pages saw it."""

    label: str
    version: int  # the lowest version any page showed it at
    first: float
    deadline_before: float | None  # the previous panel's deadline, on the loop's clock
    last_post: Post | None  # the last form the table had received when the first page saw it
    seen: dict[int, tuple[float, str]] = field(default_factory=dict)  # seat -> (when, how)


def deadline_of(panel: str, loop_now: float) -> float | None:
    """The countdown's deadline in `panel`, as a time of the event loop's clock."""
    match = DEADLINE.search(panel)
    if not match or not match.group(1):
        return None
    try:
        when = dt.datetime.fromisoformat(match.group(1)).timestamp()
    except ValueError:
        return None
    return when - time.time() + loop_now


class TableTrace:
    """The forms and steps of one table."""

    def __init__(self) -> None:
        self.posts: list[Post] = []
        self.changes: dict[str, Change] = {}

    def sent(self, kind: str, seat: int, now: float) -> Post:
        post = Post(kind, seat, now)
        self.posts.append(post)
        return post

    def saw(
        self, seat: int, label: str, version: int, now: float, how: str, panel_before: str
    ) -> None:
        change = self.changes.get(label)
        if change is None:
            last = self.posts[-1] if self.posts else None
            change = Change(label, version, now, deadline_of(panel_before, now), last)
            self.changes[label] = change
        change.version = min(change.version, version)
        change.seen.setdefault(seat, (now, how))

    def trigger(self, change: Change) -> tuple[str, float]:
        """What ended the step before `change`, and when."""
        for post in self.posts:
            if post.status == "taken" and post.version == change.version:
                return f"form: {post.kind}", post.sent
        if change.deadline_before is not None and change.deadline_before <= change.first:
            return "clock", change.deadline_before
        return "unknown", change.last_post.sent if change.last_post else change.first


def analyse(tables: list[TableTrace], slowest: int = 12) -> dict[str, Any]:
    """Pushes by what ended their step; the spread of each step; the slowest steps."""
    by_trigger: dict[str, list[float]] = defaultdict(list)
    by_how: dict[str, list[float]] = defaultdict(list)
    from_last_post: list[float] = []
    spread: list[float] = []
    rows: list[dict[str, Any]] = []
    for trace in tables:
        for change in trace.changes.values():
            if not change.seen:
                continue
            cause, t0 = trace.trigger(change)
            family = cause.split(":")[0]
            times = [t for t, _how in change.seen.values()]
            spread.append((max(times) - min(times)) * 1000)
            for when, how in change.seen.values():
                ms = (when - t0) * 1000
                by_trigger[cause].append(ms)
                by_trigger[f"all, {family}"].append(ms)
                by_trigger["all"].append(ms)
                by_how[how].append(ms)
                if change.last_post is not None:
                    from_last_post.append((when - change.last_post.sent) * 1000)
            worst = max(times) - t0
            last = change.last_post
            rows.append(
                {
                    "step": change.label,
                    "cause": cause,
                    "slowest_page_ms": round(worst * 1000, 1),
                    "first_page_ms": round((min(times) - t0) * 1000, 1),
                    "pages": len(times),
                    "last_form": None
                    if last is None
                    else f"{last.kind} ({last.status}) {round((change.first - last.sent) * 1000)}"
                    " ms before the first page saw the step",
                    "deadline_ms_before_first_page": None
                    if change.deadline_before is None
                    else round((change.first - change.deadline_before) * 1000, 1),
                }
            )
    rows.sort(key=lambda r: -r["slowest_page_ms"])
    return {
        "push_by_trigger_ms": {k: summarize(v) for k, v in sorted(by_trigger.items())},
        "push_by_delivery_ms": {k: summarize(v) for k, v in sorted(by_how.items())},
        "push_from_last_form_ms": summarize(from_last_post),
        "step_spread_ms": summarize(spread),
        "slowest_steps": rows[:slowest],
    }
