"""Every change to a table: one function, one transaction, the state it expects checked first.

Each service locks the table row and re-reads what it checks, so when two requests race, one
wins and the other gets a clear `ServiceError`; a change bumps the table's version and pages are
told after commit (push.py). The game's rules are its family's: these functions store what the
family decides. By concern:

- `common`: the refusals, the lock, the checks, storing a family's decision (shared by all);
- `seats`: opening a table, joining, seating, removing and leaving, seat codes;
- `host`: the host role, the lobby's lock and options, the start, cancelling, staff's look;
- `clock`: the host's clock and the deadlines;
- `play`: a seat's move, "play again";
- `chat`: the table's chat.

Callers use this package, `services.seat_join(...)`, whichever module a service lives in.
"""

from games.tables.reads import players_have_screens
from games.tables.services.chat import (
    CHAT_BURST,
    CHAT_MAX_LENGTH,
    CHAT_WINDOW,
    chat_post,
    clean_chat_text,
)
from games.tables.services.clock import (
    MAX_EXTENSION_MINUTES,
    advance_due_tables,
    clock_set,
    table_advance_if_due,
    table_caught_up,
    table_move_on,
)
from games.tables.services.common import NotAllowedError, ServiceError, WrongStageError
from games.tables.services.host import (
    HOST_GONE,
    host_hand_over,
    host_pass_if_gone,
    host_seems_gone,
    options_set,
    secrets_open,
    table_cancel,
    table_lock_set,
    table_start,
)
from games.tables.services.play import Moved, play_again, seat_move, seat_moved
from games.tables.services.seats import (
    TABLE_LOCKED,
    phrase_matches,
    seat_add,
    seat_code_show,
    seat_join,
    seat_leave,
    seat_remove,
    seat_taken_back,
    table_create,
)

__all__ = [
    "CHAT_BURST",
    "CHAT_MAX_LENGTH",
    "CHAT_WINDOW",
    "HOST_GONE",
    "MAX_EXTENSION_MINUTES",
    "TABLE_LOCKED",
    "Moved",
    "NotAllowedError",
    "ServiceError",
    "WrongStageError",
    "advance_due_tables",
    "chat_post",
    "clean_chat_text",
    "clock_set",
    "host_hand_over",
    "host_pass_if_gone",
    "host_seems_gone",
    "options_set",
    "phrase_matches",
    "play_again",
    "players_have_screens",
    "seat_add",
    "seat_code_show",
    "seat_join",
    "seat_leave",
    "seat_move",
    "seat_moved",
    "seat_remove",
    "seat_taken_back",
    "secrets_open",
    "table_advance_if_due",
    "table_cancel",
    "table_caught_up",
    "table_create",
    "table_lock_set",
    "table_move_on",
    "table_start",
]
