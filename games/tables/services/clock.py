"""The clock: the host's pause, resume and extension, and deadlines fired exactly once by
whoever notices (the ticker of any process, a page load, staff moving a game on).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.tables import language
from games.tables.models import Seat, Stage, Table
from games.tables.reads import table_info
from games.tables.services.common import (
    ServiceError,
    apply_change,
    bump,
    current_time,
    decide,
    expect_stage,
    family_of,
    host_of,
    locked_table,
    post_note,
)

MAX_EXTENSION_MINUTES = 14 * 24 * 60


@transaction.atomic
def clock_set(*, host: Seat, action: str, minutes: int = 0, now: datetime | None = None) -> None:
    """The host pauses the clock (the time left is kept), resumes it, or gives the current
    step `minutes` more; the table is told in the chat."""
    table = host_of(host)
    expect_stage(table, Stage.PLAYING)
    when = current_time(now)
    if action == "pause":
        if table.deadline is None:
            raise ServiceError(_("The clock is not running."))
        left = max(0, int((table.deadline - when).total_seconds()))
        with language.shared():
            post_note(table, _("The host paused the clock."))
        bump(table, deadline=None, paused_seconds=left)
    elif action == "resume":
        if table.paused_seconds is None:
            raise ServiceError(_("The clock is not paused."))
        with language.shared():
            post_note(table, _("The host started the clock again."))
        deadline = when + timedelta(seconds=table.paused_seconds)
        bump(table, deadline=deadline, paused_seconds=None)
    elif action == "extend":
        if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
            raise ServiceError(
                _("Give 1 to %(most)d more minutes.") % {"most": MAX_EXTENSION_MINUTES}
            )
        if table.paused_seconds is not None:
            bump(table, paused_seconds=table.paused_seconds + 60 * minutes)
        elif table.deadline is not None:
            bump(table, deadline=max(table.deadline, when) + timedelta(minutes=minutes))
        else:
            raise ServiceError(_("This step has no time limit to extend."))
        with language.shared():
            text = ngettext(
                "The host gave this step %(count)d more minute.",
                "The host gave this step %(count)d more minutes.",
                minutes,
            ) % {"count": minutes}
            post_note(table, text)
    else:
        raise ServiceError(_("Pause, resume or extend the clock."))


@transaction.atomic
def table_advance_if_due(*, table_id: int, now: datetime | None = None) -> bool:
    """If the table's deadline has passed, move it on exactly once. Returns True if it moved.

    Safe from any request, consumer or ticker, in any number of processes: the row is locked
    and the deadline re-read inside the transaction."""
    when = current_time(now)
    table = locked_table(table_id)
    if table.stage != Stage.PLAYING or table.deadline is None or table.deadline > when:
        return False
    info = table_info(table)
    change = decide(lambda: family_of(table).on_deadline(info, when))
    apply_change(table, change, seat=None, kind="deadline", fields={})
    return True


@transaction.atomic
def table_move_on(*, table: Table, now: datetime | None = None) -> None:
    """Staff move a game on at once, as if its deadline had passed (the family's defaults for
    whoever has not acted)."""
    table = locked_table(table.pk)
    expect_stage(table, Stage.PLAYING)
    when = current_time(now)
    info = table_info(table)
    change = decide(lambda: family_of(table).on_deadline(info, when))
    apply_change(table, change, seat=None, kind="move_on", fields={})


def table_caught_up(table: Table) -> Table:
    """`table`, moved on first and read again if its deadline has passed: a page load or a
    push notices a passed deadline as well as the ticker does."""
    if table.deadline is not None and table.deadline <= timezone.now():
        table_advance_if_due(table_id=table.pk)
        table.refresh_from_db()
    return table


def advance_due_tables(*, now: datetime | None = None) -> list[str]:
    """Move on every table whose deadline has passed; their codes. Used by the clock."""
    when = current_time(now)
    due = Table.objects.filter(deadline__lte=when, stage=Stage.PLAYING).values_list("pk", "code")
    return [code for table_id, code in due if table_advance_if_due(table_id=table_id, now=when)]
