"""004 III: the witch learns the pack's victim, then decides whether to save it. Online every
seat sends at once, so a witch who sends her night before the pack has chosen must still be
shown its victim and asked again before the pack's choice can end the night (docs/rules.md 10,
the witch). Played through the family's moves as a page posts them (play.py `move`)."""

from __future__ import annotations

from games.families.werewolf import play
from games.families.werewolf.engine.forms import Form, forms_for
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


def _pack_names(
    table: TableInfo, seat: dict[str, SeatInfo], wolves: list[str], victim: str
) -> TableInfo:
    for wolf in wolves:
        key = next(f.key for f in forms_for(game_of(table.state).state, wolf) if f.group_key)
        table = applied(
            table, play.move(table, seat[wolf], "night", {key: [str(seat[victim].id)]}, NOW)
        )
    return table


def _day_by_the_clock(table: TableInfo) -> TableInfo:
    """The day goes by on the clock, step by step, to the next night."""
    for _step in range(10):
        if table.phase == "night":
            break
        table = applied(table, play.on_deadline(table, NOW))
    return table


def _save_form(table: TableInfo, witch: str) -> Form:
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


def test_what_she_sends_again_counts_even_the_same_choices() -> None:
    """Asked again, the witch may send exactly what she sent before (nothing here): it counts,
    she is done and the night ends (a move that counts never leaves the table where it was)."""
    table = quiet_table("classic", ROLES)
    seat, witch, wolves, victim, _other = _cast(table)
    table = applied(table, play.move(table, seat[witch], "night", {}, NOW))
    view = view_of(table, seat[witch])
    assert view.waits_for_pack and not view.done
    table = _everyone_else_done(table, seat, {witch, *wolves}, victim)
    table = _pack_names(table, seat, wolves, victim)
    assert not view_of(table, seat[witch]).waits_for_pack
    change = play.move(table, seat[witch], "night", {}, NOW)
    assert change.state["moves"] != table.state["moves"]
    table = applied(table, change)
    assert table.phase == "day"
    assert victim not in game_of(table.state).state.living()


def test_a_witch_who_sends_after_the_pack_is_done_at_once() -> None:
    table = quiet_table("classic", ROLES)
    seat, witch, wolves, victim, _other = _cast(table)
    table = _pack_names(table, seat, wolves, victim)
    table = applied(table, play.move(table, seat[witch], "night", {}, NOW))
    view = view_of(table, seat[witch])
    assert view.done and not view.waits_for_pack
    table = _everyone_else_done(table, seat, {witch, *wolves}, victim)
    assert table.phase == "day"


def test_the_clock_and_the_host_still_end_the_night_while_she_waits() -> None:
    for kind in ("deadline", "advance"):
        table = quiet_table("classic", ROLES)
        seat, witch, wolves, victim, _other = _cast(table)
        table = applied(table, play.move(table, seat[witch], "night", {}, NOW))
        table = _everyone_else_done(table, seat, {witch, *wolves}, victim)
        table = _pack_names(table, seat, wolves, victim)
        assert table.phase == "night"
        host = table.seats[0]
        if kind == "deadline":
            table = applied(table, play.on_deadline(table, NOW))
        else:
            table = applied(table, play.move(table, host, "advance", {}, NOW))
        assert table.phase == "day", kind
        assert victim not in game_of(table.state).state.living()


def test_the_pack_changing_its_mind_after_she_answered_does_not_ask_her_again() -> None:
    """docs/rules.md 10, the witch: only a player's own move changes whether they are done, so
    the pack's new victim is shown on her page but the night does not wait for her again."""
    table = quiet_table("classic", ROLES)
    seat, witch, wolves, victim, other = _cast(table)
    table = _everyone_else_done(table, seat, {witch, *wolves, other}, victim)
    table = _pack_names(table, seat, wolves, victim)
    table = applied(table, play.move(table, seat[witch], "night", {}, NOW))
    assert view_of(table, seat[witch]).done
    # The pack names another: split, then agreed; the witch's page shows the new victim, and
    # she stays done (her answer stands: she did not save).
    table = _pack_names(table, seat, wolves[:1], other)
    assert view_of(table, seat[witch]).done
    table = _pack_names(table, seat, wolves[1:], other)
    table = _pack_names(table, seat, wolves[:1], other)  # the one who split it is done again
    assert _save_form(table, witch).targets == (other,)
    assert view_of(table, seat[witch]).done
    table = _everyone_else_done(table, seat, set(seat) - {other}, victim)
    assert table.phase == "day"
    assert other not in game_of(table.state).state.living()
    assert victim in game_of(table.state).state.living()


def test_a_witch_without_her_antidote_does_not_wait() -> None:
    table = quiet_table("classic", ROLES)
    seat, witch, wolves, victim, other = _cast(table)
    # Night 1: she saves the victim.
    table = _pack_names(table, seat, wolves, victim)
    table = applied(table, play.move(table, seat[witch], "night", {"save": ["yes"]}, NOW))
    table = _everyone_else_done(table, seat, {witch, *wolves}, victim)
    assert table.phase == "day"
    table = _day_by_the_clock(table)
    assert table.phase == "night" and witch in game_of(table.state).state.living()
    living = set(game_of(table.state).state.living())
    seat = {s.name: s for s in table.seats if s.name in living}
    table = applied(table, play.move(table, seat[witch], "night", {}, NOW))
    view = view_of(table, seat[witch])
    assert view.done and not view.waits_for_pack
    target = next(p for p in (other, victim) if p in living)
    table = _everyone_else_done(table, seat, {witch, *wolves}, target)
    table = _pack_names(table, seat, [w for w in wolves if w in living], target)
    assert table.phase == "day"


def test_the_witch_as_the_pack_s_victim_is_asked_again_too() -> None:
    table = quiet_table("classic", ROLES)
    seat, witch, wolves, victim, _other = _cast(table)
    table = applied(table, play.move(table, seat[witch], "night", {}, NOW))
    table = _everyone_else_done(table, seat, {witch, *wolves}, victim)
    table = _pack_names(table, seat, wolves, witch)
    assert table.phase == "night"
    assert _save_form(table, witch).targets == (witch,)  # night 1: she may save herself
    table = applied(table, play.move(table, seat[witch], "night", {"save": ["yes"]}, NOW))
    assert table.phase == "day"
    assert witch in game_of(table.state).state.living()


def test_after_night_one_the_witch_attacked_is_told_her_antidote_cannot_save_her() -> None:
    """004 (the witch may save herself on the first night only): on a later night, the pack's
    victim being the witch herself, her page says so, not "nobody to save yet"."""
    table = quiet_table("classic", ROLES)
    seat, witch, wolves, victim, _other = _cast(table)
    table = _pack_names(table, seat, wolves, victim)
    table = applied(table, play.move(table, seat[witch], "night", {}, NOW))
    table = _everyone_else_done(table, seat, {witch, *wolves}, victim)
    assert table.phase == "day"
    table = _day_by_the_clock(table)
    assert table.phase == "night" and witch in game_of(table.state).state.living()
    assert not view_of(table, seat[witch]).attacked_unsaved  # no victim yet
    living = set(game_of(table.state).state.living())
    table = _pack_names(table, seat, [w for w in wolves if w in living], witch)
    assert _save_form(table, witch).targets == ()
    assert view_of(table, seat[witch]).attacked_unsaved


def test_on_discord_she_is_asked_again_with_the_victim() -> None:
    """The chat bot's letters (chat_letters.due): none while she waits for the pack, then a new
    call to act that names its victim (a letter is sent once per key)."""
    from games.families.werewolf.chat_letters import due

    table = quiet_table("classic", ROLES)
    seat, witch, wolves, victim, _other = _cast(table)
    first = {letter.key for letter in due(table, seat[witch]) if letter.key.startswith("ask:")}
    assert first
    table = applied(table, play.move(table, seat[witch], "night", {}, NOW))
    assert not [letter for letter in due(table, seat[witch]) if letter.key.startswith("ask:")]
    table = _pack_names(table, seat, wolves, victim)
    (again,) = [letter for letter in due(table, seat[witch]) if letter.key.startswith("ask:")]
    assert again.key not in first
    assert f"Tonight's victim: {victim}." in again.text
