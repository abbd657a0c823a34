"""What each ability does: one small function per resolver name of `roles.py`.

- `NIGHT`: folds one night action into the night's `Ledger` (night.py calls them in bands).
- `DAY`: a day ability used at once; emits its events and returns the deaths it causes.
- `ON_DEATH`: a dead player's reaction (a shot) or a trigger (the charm's death).
- `ON_ELIMINATION`: what happens instead of a vote's death (the idiot).
- `CONDITIONS`: whether a player has an ability now (`Ability.when`).
- `CHECKS`: extra rules on an ability's target (`Ability.checks`); each returns a reason or None.
- `APPEARANCES`: what a role shows an investigator when its `shows` names a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from games.words import _

from .events import AbilityUsed, Charmed, DayEnded, IdiotRevealed, Step
from .ledger import Act, Ledger
from .roles import Ability, Timing
from .state import State, refusal

Deaths = list[tuple[str, str, str | None]]  # (who, cause, by)


# --- conditions: does the player have the ability now? ---------------------------------------


def _pack_killers(state: State) -> list[str]:
    """The living players whose kill needs no awakening (every killing werewolf but the hidden
    wolf and the stone ghost, rules/004 II)."""
    return [
        p
        for p in state.alive
        if any(a.key == "kill" and a.when == "killer" for a in state.setup.roles[p].abilities)
    ]


def _camp_mates_alive(state: State, player: str) -> bool:
    side = state.setup.roles[player].side
    return any(p != player and state.setup.roles[p].side == side for p in state.alive)


def _shot_allowed(state: State, player: str) -> bool:
    """004 II: no shot when poisoned or counter-injured, nor after one's own explosion."""
    death = state.deaths.get(player)
    return death is not None and death.cause not in ("poison", "counter_injury", "explosion")


def _wolf_king_shot_allowed(state: State, player: str) -> bool:
    """004 House Rule Tips: the table decides whether the pack's own attack lets him shoot."""
    if not _shot_allowed(state, player):
        return False
    death = state.deaths[player]
    return death.cause != "attack" or bool(state.option("wolf_king_shoots_if_killed_by_wolves"))


CONDITIONS: Mapping[str, Callable[[State, str], bool]] = MappingProxyType(
    {
        "always": lambda state, player: True,
        "first_night": lambda state, player: state.phase is not None and state.phase.number == 1,
        "after_first_night": lambda state, player: (
            state.phase is not None and state.phase.number > 1
        ),
        "killer": lambda state, player: True,
        # 004 II Hidden Werewolf: awakens once every ordinary killer is out.
        "pack_gone": lambda state, player: not _pack_killers(state),
        # 004 II Stone Statue Ghost: kills once the last of its camp, checks while not.
        "last_of_camp": lambda state, player: not _camp_mates_alive(state, player),
        "not_last_of_camp": _camp_mates_alive,
        # 004 III: the witch learns the attack while she still holds the antidote.
        "holds_antidote": lambda state, player: state.used(player, "save") == 0,
        "shot_allowed": _shot_allowed,
        "wolf_king_shot_allowed": _wolf_king_shot_allowed,
    }
)


def has_now(state: State, player: str, ability: Ability) -> bool:
    return CONDITIONS[ability.when](state, player)


# --- checks on a chosen target ----------------------------------------------------------------


def _not_last_nights_target(state: State, player: str, ability: Ability, target: str) -> str | None:
    """001: the protector may not protect the same player on consecutive nights."""
    if state.last_night_target(player, ability.key) == target:
        # Translators: a refusal. %(phase)s is "night 2", %(player)s "Ann (protector)" (the
        # role's key), %(section)s the rule's section in the rule document, e.g. "001".
        message = _("%(phase)s: %(player)s protected %(target)s the night before (%(section)s).")
        return refusal(state, player, message, target=target, section=ability.section)
    return None


def _wolfsbane_self(state: State, player: str, ability: Ability, target: str) -> str | None:
    """003 Wolfsbane, FORMAT: another player; a lone wolfsbane (judged at nightfall) may protect
    itself, but not two nights in a row."""
    if target != player:
        return None
    kind = state.setup.roles[player].name
    lone = sum(1 for p in state.alive if state.setup.roles[p].name == kind) == 1
    if not lone:
        message = _(
            "%(phase)s: %(player)s cannot protect themselves while another wolfsbane lives "
            "(%(section)s)."
        )
        return refusal(state, player, message, section=ability.section)
    if state.last_night_target(player, ability.key) == player:
        message = _("%(phase)s: %(player)s protected themselves the night before (%(section)s).")
        return refusal(state, player, message, section=ability.section)
    return None


def _guardian_repeat(state: State, player: str, ability: Ability, target: str) -> str | None:
    """004 II Guardian (unless the table's house rule allows it): not the same player twice
    running."""
    if state.option("guardian_repeat"):
        return None
    if state.last_night_target(player, ability.key) == target:
        message = _("%(phase)s: %(player)s guarded %(target)s the night before (%(section)s).")
        return refusal(state, player, message, target=target, section=ability.section)
    return None


def _witch_self_save(state: State, player: str, ability: Ability, target: str) -> str | None:
    """004 House Rule Tips, FORMAT: the witch may save herself on night 1 only, and only if the
    table allows it."""
    if target != player:
        return None
    assert state.phase is not None
    if state.phase.number != 1:
        message = _(
            "%(phase)s: %(player)s cannot save herself after the first night (%(section)s)."
        )
        return refusal(state, player, message, section=ability.section)
    if not state.option("witch_self_save_first_night"):
        message = _(
            "%(phase)s: %(player)s cannot save herself (this table's house rule) (%(section)s)."
        )
        return refusal(state, player, message, section=ability.section)
    return None


CHECKS: Mapping[str, Callable[[State, str, Ability, str], str | None]] = MappingProxyType(
    {
        "not_last_nights_target": _not_last_nights_target,
        "wolfsbane_self": _wolfsbane_self,
        "guardian_repeat": _guardian_repeat,
        "witch_self_save": _witch_self_save,
    }
)


# --- what investigators see -------------------------------------------------------------------


def appearance(state: State, player: str, investigator: str) -> str:
    """What `player` shows to `investigator` ("seer", "grave_keeper")."""
    shown = state.setup.roles[player].shows[investigator]
    rule = APPEARANCES.get(shown)
    return rule(state, player) if rule else shown


APPEARANCES: Mapping[str, Callable[[State, str], str]] = MappingProxyType(
    {
        # 004 II Hidden Werewolf, FORMAT: "good" to the seer only while not yet a killer.
        "disguised": lambda state, player: "werewolf" if not _pack_killers(state) else "good",
    }
)


# --- night resolvers --------------------------------------------------------------------------


def _pack_vote(ledger: Ledger, act: Act) -> None:
    """001: the werewolves' plurality choice is tonight's one attack."""
    ledger.attacked = act.target
    ledger.attackers = act.by


def _see_affiliation(ledger: Ledger, act: Act) -> None:
    """001: the seer learns the affiliation shown by the target, from the state at nightfall."""
    assert act.target is not None
    ledger.tell(act.actor, seen={act.target: appearance(ledger.state, act.target, "seer")})


def _protect_from_pack(ledger: Ledger, act: Act) -> None:
    """001: a protected player's elimination is cancelled; then the protector, the player and
    the werewolves are told; otherwise only the protector, that the player was not targeted."""
    target = act.target
    assert target is not None
    ledger.shield(target, "protector")
    attacked = ledger.attacked == target
    ledger.tell(act.actor, protected=target, attacked=attacked)
    if attacked:
        state = ledger.state
        ledger.tell(target, saved_from_attack=True)
        for wolf in state.living():
            if state.setup.roles[wolf].side == "werewolves":
                ledger.tell(wolf, attack_blocked=target)


def _meet_pack(ledger: Ledger, act: Act) -> None:
    """003 Werewolf, Dark Villager: on the first night the pack and the dark villager learn
    each other."""
    setup = ledger.state.setup
    wolves = [p for p in setup.players if setup.roles[p].name == "werewolf"]
    dark = [p for p in setup.players if setup.roles[p].name == "dark_villager"]
    ledger.tell(act.actor, werewolves=wolves, dark_villager=dark[0] if dark else None)


def _meet_cult(ledger: Ledger, act: Act) -> None:
    """003 Cultists: on the first night the cultists learn each other."""
    setup = ledger.state.setup
    kind = setup.roles[act.actor].name
    ledger.tell(act.actor, cultists=[p for p in setup.players if setup.roles[p].name == kind])


def _wolfsbane(ledger: Ledger, act: Act) -> None:
    """003 Wolfsbane: the protected player cannot be mauled tonight (traps still spring)."""
    assert act.target is not None
    ledger.shield(act.target, "wolfsbane")


def _trap(ledger: Ledger, act: Act) -> None:
    """003 Trapper: a trap at the target's door."""
    assert act.target is not None
    ledger.traps.setdefault(act.target, []).append(act.actor)


def _maul(ledger: Ledger, act: Act) -> None:
    """003 Werewolf, Trapper, FORMAT: a maul on an unprotected player is one hit, two from the
    super werewolf (the only werewolf alive at nightfall); each trap at the target's door hits
    the mauler once, protected target or not."""
    target = act.target
    assert target is not None
    state = ledger.state
    kind = state.setup.roles[act.actor].name
    alone = sum(1 for p in state.alive if state.setup.roles[p].name == kind) == 1
    ledger.mauls.append((act.actor, target))
    if not ledger.shielded(target, "wolfsbane"):
        ledger.hits[target] += 2 if alone else 1
    for _trapper in ledger.traps.get(target, ()):
        ledger.hits[act.actor] += 1


def _pack_kill(ledger: Ledger, act: Act) -> None:
    """004 III: the pack's agreed victim is attacked tonight."""
    ledger.attacked = act.target
    ledger.attackers = act.by


def _charm(ledger: Ledger, act: Act) -> None:
    """004 II Wolf Beauty: her newest charm holds."""
    assert act.target is not None
    ledger.charms.append((act.actor, act.target))


def _sense_attack(ledger: Ledger, act: Act) -> None:
    """004 III: the witch learns the victim (or that there is none) while she holds the
    antidote."""
    ledger.tell(act.actor, attacked=ledger.attacked)


def _save(ledger: Ledger, act: Act) -> None:
    """004 II Witch: the antidote on tonight's victim."""
    assert act.target is not None
    ledger.shield(act.target, "save")


def _poison(ledger: Ledger, act: Act) -> None:
    """004 II Witch: the poisoned player dies at daybreak, guarded or not."""
    assert act.target is not None
    ledger.poisoned[act.target] = act.actor


def _check_camp(ledger: Ledger, act: Act) -> None:
    """004 II Seer: "good" or "werewolf", as the target shows itself to the seer."""
    assert act.target is not None
    ledger.checked.setdefault(act.target, []).append(act.actor)
    ledger.tell(act.actor, seen={act.target: appearance(ledger.state, act.target, "seer")})


def _guard(ledger: Ledger, act: Act) -> None:
    """004 II Guardian: protects from the werewolves' attack only."""
    assert act.target is not None
    ledger.shield(act.target, "guard")


def _learn_role(ledger: Ledger, act: Act) -> None:
    """004 II Stone Statue Ghost: the target's exact role."""
    assert act.target is not None
    ledger.tell(act.actor, seen={act.target: ledger.state.setup.roles[act.target].name})


def _silence(ledger: Ledger, act: Act) -> None:
    """004 II Silencer Elder: the target may not speak the next day."""
    ledger.silenced = act.target


def _read_grave(ledger: Ledger, act: Act) -> None:
    """004 II Grave Keeper, FORMAT: the player the previous day's vote eliminated (a revealed
    idiot included), if any."""
    state = ledger.state
    assert state.phase is not None
    day = state.phase.number - (1 if state.setup.opens_with == "night" else 0)
    eliminated = state.eliminated.get(day)
    if eliminated is not None:
        ledger.tell(act.actor, seen={eliminated: appearance(state, eliminated, "grave_keeper")})


def _counter_injury(ledger: Ledger, act: Act) -> None:
    """004 II Wraith Rider, IV: a seer who checked it learns nothing and dies at daybreak; a
    witch who poisoned it dies at daybreak and the poison does not touch it."""
    rider = act.actor
    for seer in ledger.checked.get(rider, ()):
        seen = ledger.told.get(seer, {}).get("seen")
        if isinstance(seen, dict):
            seen.pop(rider, None)
            if not seen:
                del ledger.told[seer]["seen"]
                if not ledger.told[seer]:
                    del ledger.told[seer]
        ledger.deaths.append((seer, "counter_injury", rider))
    witch = ledger.poisoned.pop(rider, None)
    if witch is not None:
        ledger.deaths.append((witch, "counter_injury", rider))


NIGHT: Mapping[str, Callable[[Ledger, Act], None]] = MappingProxyType(
    {
        "pack_vote": _pack_vote,
        "see_affiliation": _see_affiliation,
        "protect_from_pack": _protect_from_pack,
        "meet_pack": _meet_pack,
        "meet_cult": _meet_cult,
        "wolfsbane": _wolfsbane,
        "trap": _trap,
        "maul": _maul,
        "pack_kill": _pack_kill,
        "charm": _charm,
        "sense_attack": _sense_attack,
        "save": _save,
        "poison": _poison,
        "check_camp": _check_camp,
        "guard": _guard,
        "learn_role": _learn_role,
        "silence": _silence,
        "read_grave": _read_grave,
        "counter_injury": _counter_injury,
    }
)


# --- day abilities ------------------------------------------------------------------------------


def _crossbow(step: Step, actor: str, target: str | None) -> Deaths:
    """003 Vigilantes: the one arrow kills its target."""
    assert target is not None
    step.emit(AbilityUsed(actor, "shoot", target))
    return [(target, "crossbow", actor)]


def _duel(step: Step, actor: str, target: str | None) -> Deaths:
    """004 II Knight, IV: a werewolf-camp target dies (disguise and curse do not help it);
    anyone else lives and the knight dies. A duel that kills a werewolf may end the day
    (House Rule Tips)."""
    assert target is not None
    state = step.state
    step.emit(AbilityUsed(actor, "duel", target))
    if state.setup.roles[target].side == "werewolves":
        if state.option("knight_duel_ends_day"):
            step.emit(DayEnded("duel"))
        return [(target, "duel", actor)]
    return [(actor, "duel_lost", target)]


def _explode(step: Step, actor: str, target: str | None) -> Deaths:
    """004 II: the wolf dies (the white werewolf king takes his target along) and the day ends
    at once, with no vote."""
    step.emit(AbilityUsed(actor, "explode", target))
    step.emit(DayEnded("explosion"))
    deaths: Deaths = [(actor, "explosion", None)]
    if target is not None:
        deaths.append((target, "blast", actor))
    return deaths


DAY: Mapping[str, Callable[[Step, str, str | None], Deaths]] = MappingProxyType(
    {"crossbow": _crossbow, "duel": _duel, "explode": _explode}
)


# --- on death and on elimination ----------------------------------------------------------------


def _shoot_on_death(step: Step, actor: str, target: str | None) -> Deaths:
    """004 II Hunter, Werewolf King: take one living player along."""
    if target is None:
        return []
    step.emit(AbilityUsed(actor, "shoot", target))
    return [(target, "shot", actor)]


def _love_death(state: State, beauty: str) -> Deaths:
    """004 II Wolf Beauty, IV: her charmed player dies with her, whatever killed her."""
    charmed = state.charmed.get(beauty)
    if charmed is not None and charmed in state.alive:
        return [(charmed, "charm", beauty)]
    return []


ON_DEATH_REACTIONS: Mapping[str, Callable[[Step, str, str | None], Deaths]] = MappingProxyType(
    {"shoot_on_death": _shoot_on_death}
)
ON_DEATH_TRIGGERS: Mapping[str, Callable[[State, str], Deaths]] = MappingProxyType(
    {"love_death": _love_death}
)


def _idiot_reveal(step: Step, player: str) -> bool:
    """004 II Idiot: the first time the vote eliminates the idiot, the card is shown instead of
    a death, and the idiot votes no more. Returns True when the idiot is spared."""
    if step.state.used(player, "reveal"):
        return False
    step.emit(AbilityUsed(player, "reveal"))
    step.emit(IdiotRevealed(player))
    return True


ON_ELIMINATION: Mapping[str, Callable[[Step, str], bool]] = MappingProxyType(
    {"idiot_reveal": _idiot_reveal}
)


def charm_events(ledger: Ledger) -> list[Charmed]:
    """The wolf beauty's charms of the night, as events."""
    return [Charmed(beauty, target) for beauty, target in ledger.charms]


def triggers_of(state: State, player: str) -> list[Ability]:
    return [a for a in state.setup.roles[player].at(Timing.ON_DEATH) if not a.decides]
