"""Who has a part to play in the current step, who has said they are done with it (a night's
choices, the day's speeches), and the step moving on by itself once everyone is done.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.tables.family import FamilyError

from .engine import Advance, Game
from .engine.forms import forms_for
from .engine.night import killers
from .engine.night import unsettled as night_unsettled
from .engine.roles import Targets
from .stored import send


def asked(state: Any, player: str) -> bool:
    """Whether `player` has something to do now: a form; at night, every living player (those
    without a night ability say they are done for the night, so that the count of who is done
    and the night's early end tell nothing of who holds a power: docs/security.md); in the
    day's speeches, saying they are done talking (every living player has that button, not
    only those with a day ability: the discussion ends when the whole village is done, not
    when the werewolf is)."""
    if forms_for(state, player):
        return True
    if player not in state.alive or state.pending or state.phase is None or state.over:
        return False
    if state.phase.kind == "night":
        return not state.closing
    return state.step == "speech" and state.call is None


def talking(state: Any, player: str) -> bool:
    """Whether `player` is in the day's speeches with nothing else before the table: the step
    where every living player says they are done talking (a page's "I'm done talking"). Not in
    the sheriff election nor the vote, where a player is done by voting, nor while an execution
    call is voted on."""
    return (
        player in state.alive
        and state.phase is not None
        and state.phase.kind == "day"
        and not state.over
        and not state.pending
        and state.step == "speech"
        and state.call is None
    )


def sleeping(state: Any, player: str) -> bool:
    """Whether `player` is alive tonight with no night form: their part is to say they are
    done for the night (a page's "Done for tonight")."""
    return (
        state.phase is not None
        and state.phase.kind == "night"
        and asked(state, player)
        and not forms_for(state, player)
    )


def unsettled(game: Game) -> Mapping[str, str]:
    """Tonight's choices that would keep the night from ending, by player, with the reason (the
    killers of a split pack): a killer whose own move splits the pack is not done, and every
    killer's page says why while it lasts."""
    state = game.state
    if state.phase is None or state.phase.kind != "night" or state.pending or state.over:
        return {}
    return night_unsettled(state)


def pack_to_choose(raw: Mapping[str, Any], game: Game) -> bool:
    """Whether the pack has yet to make tonight's choice: a living killer is not done (has not
    sent, or his choice splits the pack). Until it has, there is no victim to show the witch
    (004 III: she learns whom the pack attacks, then decides)."""
    state = game.state
    if state.phase is None or state.phase.kind != "night" or state.pending or state.over:
        return False
    done = done_players(raw, game)
    return bool(unsettled(game)) or any(wolf not in done for wolf in killers(state))


def answers_the_victim(game: Game, player: str) -> bool:
    """Whether `player` has a night form aimed at the pack's victim now: a living witch who
    still holds her antidote (004 II Witch; spent, the form is gone)."""
    roles = game.setup.roles
    return any(
        form.kind == "night"
        and (ability := roles[player].ability(form.key)) is not None
        and ability.targets is Targets.ATTACKED
        for form in forms_for(game.state, player)
    )


def waits_for_pack(raw: Mapping[str, Any], game: Game, player: str) -> bool:
    """Whether `player` answered tonight before the pack chose and must be asked again once it
    has (docs/rules.md 10, the witch): her page says so, and she is not done meanwhile."""
    return (
        player in (raw.get("before_pack") or ())
        and player not in done_players(raw, game)
        and answers_the_victim(game, player)
        and pack_to_choose(raw, game)
    )


def done_players(raw: Mapping[str, Any], game: Game) -> frozenset[str]:
    """The living players counted done with the current step: those who said so (by sending
    their choices, their vote, "done"). Only a player's own move changes whether they are
    done, so the public count moves by one at most with each move: a killer whose choice splits
    the pack is not done, but his partners stay as they were (a count falling or rising by two
    would tell the table that two killers disagree, or now agree; docs/security.md)."""
    done = set(raw.get("done") or ())
    return frozenset(p for p in game.state.living() if p in done)


def _everyone_done(raw: Mapping[str, Any], game: Game) -> bool:
    """Whether every living player who has something to do now has done it."""
    done = done_players(raw, game)
    state = game.state
    return all(player in done or not asked(state, player) for player in state.living())


def marked_done(raw: dict[str, Any], player: str, *, done: bool = True) -> dict[str, Any]:
    """The state with `player` counted done with the step (or, with done=False, not)."""
    others = {p for p in raw.get("done", []) if p != player}
    return {**raw, "done": sorted(others | ({player} if done else set()))}


def advance_if_all_done(raw: dict[str, Any], game: Game) -> tuple[dict[str, Any], Game]:
    """Move the step on by itself once everyone has done their part (the documents' moderator
    would): a night once every living player has sent their choices or said they are done, an
    election or a vote with every vote cast, the speeches once everyone is ready, an execution
    call once every fist is shown.

    A night where everyone is done always ends, or the table would learn that something holds
    it: a killer who split the pack is not done, so the pack agrees; a witch's antidote whose
    victim the pack has since taken back is left unused, as at the deadline (docs/rules.md 10).
    """
    state = game.state
    if state.over or state.pending or not _everyone_done(raw, game):
        return raw, game
    at_night = state.phase is not None and state.phase.kind == "night"
    try:
        return send(raw, game, Advance())
    except FamilyError:
        if not at_night:
            return raw, game
    return send(raw, game, Advance(at_deadline=True))
