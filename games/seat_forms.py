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


def start(fields: QueryDict, seat: Seat) -> None:
    services.game_start(host=seat)


def cancel(fields: QueryDict, seat: Seat) -> None:
    if not seat.is_host:
        raise NotAllowedError("Only the host can cancel the game.")
    services.game_cancel(game=seat.game)


def posted_targets(fields: QueryDict) -> list[str]:
    """Targets from the form: repeated `targets` fields. A seer's "left,middle" counts as two
    centre cards; any other value is one name as it stands (names may contain commas)."""
    targets: list[str] = []
    for value in fields.getlist("targets"):
        parts = value.split(",")
        if len(parts) == 2 and all(p in CENTRE_POSITIONS for p in parts):
            targets.extend(parts)
        elif value.strip(", "):
            targets.append(value)
    return targets


def night_action(fields: QueryDict, seat: Seat) -> None:
    if fields.get("step") == "copy":
        target = fields.get("targets", "")
        if target and "no_action" not in fields:
            services.doppelganger_copy(seat=seat, target=target)
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
    "start": start,
    "cancel": cancel,
    "night_action": night_action,
    "end_day": end_day,
    "ready": ready,
    "vote": vote,
}
