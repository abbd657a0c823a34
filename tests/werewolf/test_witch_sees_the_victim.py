"""004 III: the witch learns the pack's victim, then decides whether to save it. Online every
seat sends at once, so a witch who sends her night before the pack has chosen must still be
shown its victim and asked again before the pack's choice can end the night (docs/rules.md 10,
the witch). Played through the family's moves as a page posts them (play.py `move`)."""

from __future__ import annotations

from games.families.werewolf import play
from games.families.werewolf.engine.forms import forms_for
from games.families.werewolf.panels import view_of
from games.families.werewolf.stored import game_of
from games.tables.family import SeatInfo, TableInfo

from .test_online_forms import NOW, applied, quiet_table

ROLES = {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 3}


def _cast(table: TableInfo) -> tuple[dict[str, SeatInfo], str, list[str], str, str]:
    """The seats by name, the witch, the wolves, a villager and another villager."""
    game = game_of(table.state)
    assert game.state.phase is not None and game.state.phase.kind == "night"
    role_of = {name: game.setup.roles[name].name for name in game.setup.players}
    witch = next(n for n, r in role_of.items() if r == "witch")
    wolves = [n for n, r in role_of.items() if r == "werewolf"]
    villagers = [n for n, r in role_of.items() if r == "villager"]
    return {s.name: s for s in table.seats}, witch, wolves, villagers[0], villagers[1]


def _everyone_else_done(
    table: TableInfo, seat: dict[str, SeatInfo], skip: set[str], target: str
) -> TableInfo:
    """Every living seat but `skip` sends its night (a seer looks at `target`) or is done."""
    for name in seat:
        if name in skip:
            continue
        night = [f for f in forms_for(game_of(table.state).state, name) if f.kind == "night"]
        if not night:  # "Done for tonight"
            table = applied(table, play.move(table, seat[name], "ready", {"ready": ["yes"]}, NOW))
            continue
        fields = {f.key: [str(seat[target].id)] for f in night if target in f.targets}
        table = applied(table, play.move(table, seat[name], "night", fields, NOW))
    return table


def _pack_names(table: TableInfo, seat: dict[str, SeatInfo], wolves: list[str], victim: str):
    for wolf in wolves:
        key = next(f.key for f in forms_for(game_of(table.state).state, wolf) if f.group_key)
        table = applied(
            table, play.move(table, seat[wolf], "night", {key: [str(seat[victim].id)]}, NOW)
        )
    return table


def _save_form(table: TableInfo, witch: str):
    return next(f for f in forms_for(game_of(table.state).state, witch) if f.key == "save")


def test_a_witch_who_sends_first_is_shown_the_victim_before_the_night_ends() -> None:
    table = quiet_table("classic", ROLES)
    seat, witch, wolves, victim, _other = _cast(table)
    # The witch sends first, with nobody to save yet; then everyone else but the pack.
    table = applied(table, play.move(table, seat[witch], "night", {}, NOW))
    table = _everyone_else_done(table, seat, {witch, *wolves}, victim)
    # The pack agrees: the night goes on, and the witch's page shows its victim.
    table = _pack_names(table, seat, wolves, victim)
    assert table.phase == "night", "the night ended before the witch saw the pack's victim"
    assert _save_form(table, witch).targets == (victim,)
    view = view_of(table, seat[witch])
    assert not view.done and not view.waits_for_pack
    # She saves: the night ends and the victim lives.
    table = applied(table, play.move(table, seat[witch], "night", {"save": ["yes"]}, NOW))
    assert table.phase == "day"
    assert victim in game_of(table.state).state.living()
