"""What each of a seated player's game forms does: read its fields, call one service.

The same form reaches the server two ways: as an HTTP POST (games/views.py, always available,
also without JavaScript) or, from a game page whose websocket is live, as a frame on that socket
(games/consumers.py), which spares the request its HTTP round trip. Both read the fields here
and change the game only through games/services, so they cannot drift apart.

Each handler takes the posted fields (a QueryDict: repeated names keep every value), the seat
of the player who sent them and the URL's arguments besides the game code; it raises
ServiceError (nothing changed) when the game cannot take the request. The forms a whole table
sends at once ("ready", the vote) hand back what their service changed (`services.Taken`),
which the socket's answer uses instead of reading it again; the others return None.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import QueryDict

from games import services
from games.engine import CENTRE_POSITIONS, Role
from games.forms import VoteForm
from games.models import Seat
from games.services import NotAllowedError, ServiceError, Taken

SeatForm = Callable[..., Taken | None]


def deck(fields: QueryDict, seat: Seat) -> None:
    if "suggested" in fields:
        services.deck_update(host=seat, counts=None)
        return
    counts = {r.value: fields.get(f"count_{r.value}", "0") for r in Role}
    services.deck_update(host=seat, counts={k: v for k, v in counts.items() if v not in ("", "0")})


def remove_seat(fields: QueryDict, seat: Seat, seat_id: int) -> None:
    services.seat_remove(host=seat, seat_id=seat_id)


def lock(fields: QueryDict, seat: Seat) -> None:
    services.table_lock_set(host=seat, locked=fields.get("locked") != "no")


def start(fields: QueryDict, seat: Seat) -> None:
    services.game_start(host=seat)


def cancel(fields: QueryDict, seat: Seat) -> None:
    if not seat.is_host:
        raise NotAllowedError("Only the host can cancel the game.")
    services.game_cancel(game=seat.game)


# The centre cards as a night-action form offers them: one position, or two joined by a comma
# (a seer's pair). Fixed words, never a player's name: players are offered by seat id.
CENTRE_TARGETS: dict[str, tuple[str, ...]] = {
    **{p: (p,) for p in CENTRE_POSITIONS},
    **{f"{a},{b}": (a, b) for a in CENTRE_POSITIONS for b in CENTRE_POSITIONS},
}
# Longer than any seat id the database can hold: not worth converting.
MAX_SEAT_ID_DIGITS = 19
# What a value that is none of the form's own becomes: an id no seat has, which the service
# refuses once it has checked the phase (a late post hears that the night is over).
NOT_A_SEAT = 0


def posted_targets(fields: QueryDict) -> list[int | str]:
    """The targets of a night-action form: repeated `targets` fields, each a seat id (a
    player) or a centre value of `CENTRE_TARGETS`; empty ones (an unused select) are skipped.
    Players come back as seat ids, for the service to look up at the game's own table; centre
    cards as positions.

    No value is ever read as a name, so a player's name cannot pass for a centre card or for
    two targets."""
    targets: list[int | str] = []
    for value in fields.getlist("targets"):
        if not value.strip():
            continue
        if value in CENTRE_TARGETS:
            targets.extend(CENTRE_TARGETS[value])
        elif value.isascii() and value.isdigit() and len(value) <= MAX_SEAT_ID_DIGITS:
            targets.append(int(value))
        else:
            targets.append(NOT_A_SEAT)
    return targets


def night_action(fields: QueryDict, seat: Seat) -> None:
    if fields.get("step") == "copy":
        targets = [] if "no_action" in fields else posted_targets(fields)
        if len(targets) == 1:
            services.doppelganger_copy(seat=seat, target=targets[0])
        elif targets:
            services.doppelganger_copy(seat=seat, target=NOT_A_SEAT)
        else:
            services.night_action_submit(seat=seat, targets=[])
    elif "no_action" in fields:
        services.night_action_submit(seat=seat, targets=[])
    else:
        targets = posted_targets(fields)
        if not targets:
            raise ServiceError("Pick your target, or choose “no action”.")
        services.night_action_submit(seat=seat, targets=targets)


def end_day(fields: QueryDict, seat: Seat) -> None:
    services.day_end(host=seat)


def ready(fields: QueryDict, seat: Seat) -> Taken:
    return services.seat_ready_set(seat=seat, ready=fields.get("ready") != "no")


def vote(fields: QueryDict, seat: Seat) -> Taken:
    form = VoteForm(fields)
    if not form.is_valid():
        raise ServiceError("Choose the player you vote for.")
    return services.vote_cast(seat=seat, target_id=form.cleaned_data["target"])


# By the name of the URL each form posts to (games/urls.py).
BY_URL_NAME: dict[str, SeatForm] = {
    "deck": deck,
    "remove_seat": remove_seat,
    "lock": lock,
    "start": start,
    "cancel": cancel,
    "night_action": night_action,
    "end_day": end_day,
    "ready": ready,
    "vote": vote,
}
