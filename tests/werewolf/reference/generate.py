"""Random scenario generator for the Werewolf scenario format (forum, oxford, classic).

    random_scenario(rng, ruleset=None, illegal_rate=0.0, avoid_ambiguous=False) -> dict

Scenarios are built phase by phase: the generator keeps a live game object of reference.py
for the prefix, reads from it who is alive and what is legal, and feeds the new phase to it
(classic reactions -- hunter / wolf king shots, sheriff badges -- are decided while the
reference resolves the phase, through an overridden `reaction` hook, so they are legal by
construction).  Games run until a side wins or a random cut-off.

With illegal_rate > 0, that fraction of scenarios gets exactly one plausible illegal change
(the scenario is cut right after the changed phase).  With avoid_ambiguous=True the legal
part avoids every construct whose result depends on a reading listed as ambiguous at the
top of reference.py, and injections that are only illegal under such a reading are skipped.

"""

import copy
import random

from . import reference as ref

NAMES = [
    "Ann",
    "Ben",
    "Cat",
    "Dan",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jon",
    "Kim",
    "Lea",
    "Max",
    "Ned",
    "Oda",
    "Pam",
    "Quin",
    "Rex",
    "Sam",
    "Tia",
    "Uma",
    "Vic",
    "Wes",
    "Xia",
    "Yul",
    "Zoe",
    "Abe",
    "Bea",
    "Cy",
    "Dot",
    "Eli",
    "Flo",
]
WOLF_SPECIALS = [
    "wolf_beauty",
    "white_wolf_king",
    "hidden_wolf",
    "wolf_king",
    "wraith_rider",
    "stone_ghost",
]


# ------------------------------------------------------------------------------------------
# shared helpers
# ------------------------------------------------------------------------------------------


def pick_n(rng):
    if rng.random() < 0.85:
        return rng.randint(4, 16)
    return rng.randint(17, 30)


def pick_names(rng, n):
    if rng.random() < 0.1:
        return [f"P{i + 1}" for i in range(n)]
    return rng.sample(NAMES, n)


def cutoff(rng):
    r = rng.random()
    if r < 0.05:
        return 0
    if r < 0.3:
        return rng.randint(1, 8)
    return 80


def living(g):
    return g.in_seats(g.alive)


def bandwagon_votes(rng, g, voters, allow_nobody):
    """Plausible day votes: most voters follow one or two favourites; ties happen."""
    alive = living(g)
    fav1 = rng.choice(alive)
    fav2 = rng.choice(alive)
    follow = rng.uniform(0.3, 0.9)
    votes = {}
    for v in voters:
        if rng.random() > 0.85:
            continue
        r = rng.random()
        if r < follow:
            votes[v] = fav1
        elif r < follow + (1 - follow) * 0.5:
            votes[v] = fav2
        elif allow_nobody and r < follow + (1 - follow) * 0.7:
            votes[v] = "nobody"
        elif r < follow + (1 - follow) * 0.78:
            votes[v] = v
        else:
            votes[v] = rng.choice(alive)
    return votes


def finish_header(rng, sc, ruleset_options=None):
    if ruleset_options:
        sc["options"] = ruleset_options
    elif rng.random() < 0.15:
        sc["options"] = {}
    return sc


# ------------------------------------------------------------------------------------------
# forum
# ------------------------------------------------------------------------------------------


def forum_deal(rng, avoid):
    n = pick_n(rng)
    players = pick_names(rng, n)
    max_w = (n - 1) // 2
    w = rng.randint(1, max(1, min(max_w, n // 3 + 1)))
    roles = ["werewolf"] * w
    lunatics = rng.choice([0, 0, 0, 1, 1] + ([] if avoid else [2]))
    seers = rng.choice([0, 1, 1, 1, 1, 2])
    protectors = rng.choice([0, 1, 1, 1, 1, 2])
    for role, k in (("lunatic", lunatics), ("seer", seers), ("protector", protectors)):
        for _ in range(k):
            if len(roles) < n:
                roles.append(role)
    roles += ["villager"] * (n - len(roles))
    rng.shuffle(roles)
    return {
        "ruleset": "forum",
        "players": players,
        "roles": dict(zip(players, roles, strict=False)),
    }


def forum_night(rng, g):
    alive = living(g)
    wolves = [p for p in alive if g.roles[p] == "werewolf"]
    prey = [p for p in alive if g.roles[p] != "werewolf"] or alive
    target = rng.choice(prey)
    actions = {}
    for w in wolves:
        r = rng.random()
        if r < 0.72:
            actions[w] = {"kill": target}
        elif r < 0.82:
            actions[w] = {"kill": "nobody"}
        elif r < 0.92:
            actions[w] = {"kill": rng.choice(alive)}
    for p in alive:
        role = g.roles[p]
        if role == "seer" and rng.random() < 0.85:
            others = [q for q in alive if q != p]
            actions[p] = {"see": rng.choice(others)}
        elif role == "protector" and rng.random() < 0.85:
            choices = [q for q in alive if q != g.protected_last_night.get(p)]
            if target in choices and rng.random() < 0.35:
                actions[p] = {"protect": target}
            elif choices:
                actions[p] = {"protect": rng.choice(choices)}
    body = {}
    if actions or rng.random() < 0.3:
        body["actions"] = actions
    if rng.random() < 0.05:
        body["on_death"] = {}
    return body


def forum_day(rng, g):
    votes = bandwagon_votes(rng, g, living(g), allow_nobody=True)
    body = {}
    if votes or rng.random() < 0.3:
        body["votes"] = votes
    if rng.random() < 0.05:
        body["on_death"] = {}
    return body


def gen_forum(rng, avoid):
    sc = finish_header(rng, forum_deal(rng, avoid))
    g = ref.new_game(sc)
    phases = []
    kind = "day" if rng.random() < 0.3 else "night"
    limit = cutoff(rng)
    while g.winner is None and len(phases) < limit:
        body = forum_night(rng, g) if kind == "night" else forum_day(rng, g)
        phase = {kind: body}
        g.play_phase(phase)
        phases.append(phase)
        kind = "day" if kind == "night" else "night"
    if phases or rng.random() < 0.5:
        sc["phases"] = phases
    return sc, g.output()


# ------------------------------------------------------------------------------------------
# oxford
# ------------------------------------------------------------------------------------------


def oxford_deal(rng, avoid):
    n = pick_n(rng)
    players = pick_names(rng, n)
    w = max(1, min(n - 1, round(n * rng.uniform(0.15, 0.4))))
    roles = ["werewolf"] * w
    extras = []
    if rng.random() < 0.35:
        extras.append("dark_villager")
    extras += ["wolfsbane"] * rng.choice([0, 1, 1, 2])
    extras += ["trapper"] * rng.choice([0, 1, 1, 2])
    if rng.random() < 0.6:
        extras.append("vigilante")
    if rng.random() < 0.5:
        extras.append("mayor")
    extras += ["cultist"] * rng.choice([0, 0, 1, 2, 3])
    rng.shuffle(extras)
    for role in extras:
        if len(roles) < n:
            roles.append(role)
    roles += ["villager"] * (n - len(roles))
    rng.shuffle(roles)
    role_of = dict(zip(players, roles, strict=False))
    sc = {"ruleset": "oxford", "players": players, "roles": role_of}

    wolf_side = [p for p in players if role_of[p] in ("werewolf", "dark_villager")]
    village = [p for p in players if p not in wolf_side]
    crossbows = [p for p in wolf_side if rng.random() < 0.2]
    if crossbows or rng.random() < 0.1:
        sc["crossbows"] = crossbows
    free = list(players)
    lovers = []
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        if len(free) < 2:
            break
        if rng.random() < 0.4:
            a_pool = [p for p in free if p in wolf_side]
            b_pool = [p for p in free if p in village]
            if a_pool and b_pool:
                pair = [rng.choice(a_pool), rng.choice(b_pool)]
                rng.shuffle(pair)
            else:
                pair = rng.sample(free, 2)
        else:
            pair = rng.sample(free, 2)
        lovers.append(pair)
        for p in pair:
            free.remove(p)
    if lovers or rng.random() < 0.1:
        sc["lovers"] = lovers
    rivals = []
    for _ in range(rng.choice([0, 0, 0, 1] + ([1] if avoid else [2]))):
        if len(free) < 2:
            break
        pair = rng.sample(free, 2)
        rivals.append(pair)
        for p in pair:
            free.remove(p)
    if rivals or rng.random() < 0.1:
        sc["rivals"] = rivals
    return sc


def oxford_night(rng, g, n, avoid):
    if n == 1:
        if not avoid and rng.random() < 0.2:
            return {"actions": {}}
        return {}
    alive = living(g)
    wolves = [p for p in alive if g.roles[p] == "werewolf"]
    banes = [p for p in alive if g.roles[p] == "wolfsbane"]
    shared = rng.choice(alive)
    actions = {}
    for w in wolves:
        r = rng.random()
        if r < 0.55:
            actions[w] = {"maul": shared}
        elif r < 0.85:
            actions[w] = {"maul": rng.choice(alive)}
    for b in banes:
        if rng.random() < 0.8:
            if len(banes) == 1 and g.self_protected_on.get(b) != n - 1 and rng.random() < 0.35:
                actions[b] = {"protect": b}
            else:
                others = [q for q in alive if q != b]
                if shared in others and rng.random() < 0.3:
                    actions[b] = {"protect": shared}
                elif others:
                    actions[b] = {"protect": rng.choice(others)}
    for p in alive:
        if g.roles[p] == "trapper" and rng.random() < 0.8:
            actions[p] = {"trap": shared if rng.random() < 0.35 else rng.choice(alive)}
    body = {}
    if actions or rng.random() < 0.3:
        body["actions"] = actions
    if rng.random() < 0.05:
        body["on_death"] = {}
    return body


def oxford_day(rng, g, avoid):
    """Play an oxford day step by step on `g`; returns the day body."""
    g.last_kind = "day"
    g.days += 1
    where = f"day {g.days}"
    g.dead_now = []
    entry = {"phase": where, "dead": [], "calls": []}
    events = []
    count = rng.choice([0, 1, 1, 2, 2, 3, 4])
    for _ in range(count):
        if g.winner is not None:
            break
        alive = living(g)
        holders = [p for p in alive if p in g.unfired]
        r = rng.random()
        if holders and r < 0.25 and len(alive) >= 2:
            by = rng.choice(holders)
            event = {"shoot": {"by": by, "target": rng.choice([q for q in alive if q != by])}}
        elif r < 0.93 and len(alive) >= 3:
            accused, by, second = rng.sample(alive, 3)
            q = rng.uniform(0.1, 0.9)
            yes = [p for p in alive if rng.random() < q]
            rng.shuffle(yes)
            event = {"call": {"accused": accused, "by": by, "second": second, "yes": yes}}
        elif r >= 0.93:
            event = {"smite": rng.choice(alive)}
        else:
            continue
        g.day_event(event, entry, where)
        events.append(event)
    entry["dead"] = g.in_seats(g.dead_now)
    g.entries.append(entry)
    body = {}
    if events or rng.random() < 0.3:
        body["events"] = events
    if rng.random() < 0.05:
        body["on_death"] = {}
    return body


def gen_oxford(rng, avoid):
    sc = finish_header(rng, oxford_deal(rng, avoid))
    g = ref.new_game(sc)
    phases = []
    kind = "night"
    limit = cutoff(rng)
    while g.winner is None and len(phases) < limit:
        if kind == "night":
            body = oxford_night(rng, g, g.nights + 1, avoid)
            phase = {"night": body}
            g.play_phase(phase)
        else:
            body = oxford_day(rng, g, avoid)
            phase = {"day": body}
        phases.append(phase)
        kind = "day" if kind == "night" else "night"
    if phases or rng.random() < 0.5:
        sc["phases"] = phases
    return sc, g.output()


# ------------------------------------------------------------------------------------------
# classic
# ------------------------------------------------------------------------------------------


class AgentClassic(ref.ClassicGame):
    """A classic game whose dying players decide their reactions while it is resolved."""

    def __init__(self, s, rng, avoid):
        super().__init__(s)
        self.rng = rng
        self.avoid = avoid
        self.charm_tonight = None  # avoid mode: the wolf beauty charmed tonight

    def reaction(self, player, key, allowed):
        rng = self.rng
        entry = self.on_death.get(player, {})
        if allowed and key not in entry:
            alive = self.in_seats(self.alive)
            if key == "badge":
                pool = [p for p in alive if not (self.avoid and p in self.idiots_revealed)]
                r = rng.random()
                if r < 0.6 and pool:
                    self.on_death.setdefault(player, {})["badge"] = rng.choice(pool)
                elif r < 0.8:
                    self.on_death.setdefault(player, {})["badge"] = None
            elif key == "shoot":
                pool = [
                    p
                    for p in alive
                    if not (self.charm_tonight is not None and self.roles[p] == "wolf_beauty")
                ]
                if pool and rng.random() < 0.75:
                    wolves = [p for p in pool if self.roles[p] in ref.WOLF_CAMP]
                    if wolves and rng.random() < 0.5:
                        target = rng.choice(wolves)
                    else:
                        target = rng.choice(pool)
                    self.on_death.setdefault(player, {})["shoot"] = target
        return super().reaction(player, key, allowed)


def classic_deal(rng):
    n = pick_n(rng)
    players = pick_names(rng, n)
    wolves = max(1, min(n - 1, round(n * rng.uniform(0.15, 0.42))))
    k = rng.randint(0, min(wolves, len(WOLF_SPECIALS)))
    if rng.random() < 0.3:
        k = min(wolves, len(WOLF_SPECIALS))
    roles = rng.sample(WOLF_SPECIALS, k) + ["werewolf"] * (wolves - k)
    good = n - wolves
    d = rng.randint(0, min(good, len(ref.DIVINE)))
    if rng.random() < 0.5:
        d = min(good, rng.randint(3, len(ref.DIVINE)))
    roles += rng.sample(list(ref.DIVINE), d) + ["villager"] * (good - d)
    rng.shuffle(roles)
    sc = {
        "ruleset": "classic",
        "players": players,
        "roles": dict(zip(players, roles, strict=False)),
    }
    options = {}
    if rng.random() < 0.4:
        options["victory"] = rng.choice(["side", "total"])
    for key in (
        "witch_self_save_first_night",
        "guardian_repeat",
        "wolf_king_shoots_if_killed_by_wolves",
        "knight_duel_ends_day",
    ):
        if rng.random() < 0.25:
            options[key] = rng.random() < 0.5
    return finish_header(rng, sc, options)


def classic_night(rng, g, avoid):
    n = g.nights + 1
    killers, camp_alive = g.killers_at_nightfall()
    alive = living(g)
    actions = {}

    def act(p, key, value):
        actions.setdefault(p, {})[key] = value

    attacked = None
    if killers and rng.random() < 0.92:
        good = [p for p in alive if g.roles[p] not in ref.WOLF_CAMP]
        attacked = rng.choice(good) if good and rng.random() < 0.8 else rng.choice(alive)
        senders = [k for k in sorted(killers) if rng.random() < 0.7]
        if not senders:
            senders = [rng.choice(sorted(killers))]
        for k in senders:
            act(k, "kill", attacked)
    poisoned = None
    for p in alive:
        role = g.roles[p]
        others = [q for q in alive if q != p]
        if role == "witch":
            can_save = (
                attacked is not None
                and not g.antidote_used
                and (attacked != p or (n == 1 and g.options["witch_self_save_first_night"]))
            )
            can_poison = not g.poison_used and others
            if can_save and rng.random() < 0.4:
                act(p, "save", True)
            elif can_poison and rng.random() < 0.15:
                wolves = [q for q in others if g.roles[q] in ref.WOLF_CAMP]
                poisoned = (
                    rng.choice(wolves) if wolves and rng.random() < 0.5 else rng.choice(others)
                )
                act(p, "poison", poisoned)
        elif role == "seer" and others and rng.random() < 0.85:
            act(p, "check", rng.choice(others))
        elif role == "guardian" and rng.random() < 0.8:
            choices = [q for q in alive if g.options["guardian_repeat"] or q != g.last_guard]
            if attacked in choices and rng.random() < 0.3:
                act(p, "guard", attacked)
            elif choices:
                act(p, "guard", rng.choice(choices))
        elif role == "stone_ghost" and len(camp_alive) > 1 and others and rng.random() < 0.8:
            act(p, "check", rng.choice(others))
        elif role == "silencer" and others and rng.random() < 0.7:
            act(p, "silence", rng.choice(others))
    g.charm_tonight = None
    for p in alive:
        if g.roles[p] == "wolf_beauty" and rng.random() < 0.5:
            if avoid and p in (attacked, poisoned):
                continue
            others = [q for q in alive if q != p]
            if others:
                act(p, "charm", rng.choice(others))
                if avoid and g.charmed != actions[p]["charm"]:
                    g.charm_tonight = actions[p]["charm"]
    body = {}
    if actions or rng.random() < 0.3:
        body["actions"] = actions
    on_death = {}
    body["on_death"] = on_death
    g.play_phase({"night": body})
    g.charm_tonight = None
    if not on_death and rng.random() < 0.95:
        del body["on_death"]
    return body


def classic_day(rng, g, avoid):
    """Play a classic day step by step on `g`; returns the day body."""
    g.last_kind = "day"
    g.days += 1
    n = g.days
    on_death = {}
    g.begin_day(on_death, n)
    body = {}
    silenced = g.entries[-1].get("silenced") if g.entries else None

    if n == 1 and rng.random() < 0.6:
        alive = living(g)
        candidates = rng.sample(alive, min(len(alive), rng.randint(1, 3)))
        sheriff_votes = {}
        for v in alive:
            if rng.random() < 0.8:
                sheriff_votes[v] = rng.choice(candidates)
        if avoid and not sheriff_votes:
            sheriff_votes[alive[0]] = candidates[0]
        body["sheriff_votes"] = sheriff_votes
        g.sheriff_election(sheriff_votes)

    events = []
    for _ in range(3):
        if g.winner is not None or g.day_ended:
            break
        alive = living(g)
        r = rng.random()
        knights = [
            p
            for p in alive
            if g.roles[p] == "knight" and not g.duel_used and not (avoid and p == silenced)
        ]
        exploders = [
            p
            for p in alive
            if g.roles[p] in ref.WOLF_CAMP
            and not (
                avoid
                and (
                    p == silenced or g.roles[p] not in ("werewolf", "wolf_king", "white_wolf_king")
                )
            )
        ]
        if knights and r < 0.22:
            knight = knights[0]
            others = [p for p in alive if p != knight]
            wolves = [p for p in others if g.roles[p] in ref.WOLF_CAMP]
            target = rng.choice(wolves) if wolves and rng.random() < 0.5 else rng.choice(others)
            event = {"duel": {"by": knight, "target": target}}
        elif exploders and r > 0.97:
            wolf = rng.choice(exploders)
            event = {"explode": {"by": wolf}}
            others = [p for p in alive if p != wolf]
            if g.roles[wolf] == "white_wolf_king" and others and (avoid or rng.random() < 0.85):
                event["explode"]["target"] = rng.choice(others)
        else:
            continue
        events.append(event)
        g.day_event(event)
    if events or rng.random() < 0.1:
        body["events"] = events

    if g.winner is None and not g.day_ended:
        if rng.random() < 0.93:
            voters = [p for p in living(g) if p not in g.idiots_revealed]
            if g.sheriff is not None and len(living(g)) >= 3 and rng.random() < 0.2:
                # a deliberate tie among the others, the sheriff abstaining
                a, b = rng.sample(living(g), 2)
                votes = {}
                for i, v in enumerate([v for v in voters if v != g.sheriff]):
                    votes[v] = (a, b)[i % 2]
                if len(votes) % 2:
                    votes.pop(next(iter(votes)))
            else:
                votes = bandwagon_votes(rng, g, voters, allow_nobody=False)
            body["votes"] = votes
            g.day_votes(votes)
            if g.tied is not None and g.sheriff is not None and rng.random() < 0.75:
                tie_break = rng.choice([*g.tied, None])
                body["tie_break"] = tie_break
                g.day_tie_break(tie_break)
            elif rng.random() < 0.04:
                body["tie_break"] = None
                g.day_tie_break(None)
    elif not avoid:
        if rng.random() < 0.1:
            body["votes"] = {}
            g.day_votes({})
        if rng.random() < 0.1:
            body["tie_break"] = None
            g.day_tie_break(None)
    entry = g.end_day()
    g.entries.append(entry)
    if on_death or rng.random() < 0.05:
        body["on_death"] = on_death
    return body


def gen_classic(rng, avoid):
    sc = classic_deal(rng)
    g = AgentClassic(sc, rng, avoid)
    phases = []
    kind = "night"
    limit = cutoff(rng)
    while g.winner is None and len(phases) < limit:
        if kind == "night":
            phases.append({"night": classic_night(rng, g, avoid)})
        else:
            phases.append({"day": classic_day(rng, g, avoid)})
        kind = "day" if kind == "night" else "night"
    if phases or rng.random() < 0.5:
        sc["phases"] = phases
    return sc, g.output()


GENERATORS = {"forum": gen_forum, "oxford": gen_oxford, "classic": gen_classic}


# ------------------------------------------------------------------------------------------
# illegal injections
# ------------------------------------------------------------------------------------------


def states_before(sc):
    """Plain reference games: states[k] is the game just before phase k (last: the end)."""
    g = ref.new_game(sc)
    states = []
    for phase in sc.get("phases", []):
        states.append(copy.deepcopy(g))
        g.play_phase(phase)
    states.append(copy.deepcopy(g))
    return states


def kind_of(phase):
    return next(iter(phase))


def cut(sc, k, phase):
    """The scenario with phases[:k] + [phase]."""
    out = copy.deepcopy(sc)
    out["phases"] = [*copy.deepcopy(sc.get("phases", [])[:k]), phase]
    return out


def pick_phase(rng, sc, states, want):
    """A random index k (with its state) of a phase satisfying want(k, phase, state)."""
    phases = sc.get("phases", [])
    ks = [k for k, ph in enumerate(phases) if want(k, ph, states[k])]
    if not ks:
        return None
    return rng.choice(ks)


def dead_players(g):
    return [p for p in g.players if p not in g.alive]


ACTION_OF = {
    "forum": {"werewolf": "kill", "seer": "see", "protector": "protect"},
    "oxford": {"werewolf": "maul", "wolfsbane": "protect", "trapper": "trap"},
    "classic": {
        "seer": "check",
        "guardian": "guard",
        "silencer": "silence",
        "wolf_beauty": "charm",
        "witch": "poison",
        "werewolf": "kill",
    },
}


# Each injection returns a new scenario or None when it does not apply.  The flag after
# each says whether it is illegal only under an ambiguous reading of reference.py.


def inj_unknown_top_key(rng, sc, states):
    out = copy.deepcopy(sc)
    out[rng.choice(["notes", "seed", "version", "Phases"])] = "x"
    return out


def inj_unknown_role(rng, sc, states):
    out = copy.deepcopy(sc)
    p = rng.choice(out["players"])
    out["roles"][p] = rng.choice(["vampire", "Werewolf", "mason", "doctor"])
    return out


def inj_role_of_other_ruleset(rng, sc, states):
    out = copy.deepcopy(sc)
    p = rng.choice(out["players"])
    foreign = {
        "forum": ["witch", "mayor", "hunter"],
        "oxford": ["seer", "lunatic", "witch"],
        "classic": ["lunatic", "protector", "mayor", "cultist"],
    }[sc["ruleset"]]
    out["roles"][p] = rng.choice(foreign)
    return out


def inj_missing_role(rng, sc, states):
    out = copy.deepcopy(sc)
    del out["roles"][rng.choice(out["players"])]
    return out


def inj_bad_players(rng, sc, states):
    out = copy.deepcopy(sc)
    r = rng.random()
    if r < 0.35:
        out["players"].append(out["players"][0])
    elif r < 0.65:
        p = rng.choice(out["players"])
        i = out["players"].index(p)
        out["players"][i] = "nobody"
        out["roles"]["nobody"] = out["roles"].pop(p)
        out.pop("phases", None)
        for key in ("crossbows", "lovers", "rivals"):
            out.pop(key, None)
    else:
        out["players"] = out["players"][:3]
        out["roles"] = {p: out["roles"][p] for p in out["players"]}
        out.pop("phases", None)
        for key in ("crossbows", "lovers", "rivals"):
            out.pop(key, None)
    return out


def inj_bad_deal(rng, sc, states):
    out = copy.deepcopy(sc)
    out.pop("phases", None)
    players = out["players"]
    rs = sc["ruleset"]
    if rs == "forum":
        if rng.random() < 0.5:
            for p in players:
                out["roles"][p] = "villager" if out["roles"][p] == "werewolf" else out["roles"][p]
        else:
            half = (len(players) + 1) // 2
            for p in players[:half]:
                out["roles"][p] = "werewolf"
    elif rs == "oxford":
        r = rng.random()
        if r < 0.4:
            for p in players:
                if out["roles"][p] == "werewolf":
                    out["roles"][p] = "villager"
            for key in ("crossbows", "lovers"):
                out.pop(key, None)
        else:
            role, k = rng.choice(
                [
                    ("dark_villager", 2),
                    ("wolfsbane", 3),
                    ("trapper", 3),
                    ("vigilante", 2),
                    ("mayor", 2),
                ]
            )
            cands = [
                p
                for p in players
                if out["roles"][p]
                in ("villager", "cultist", "mayor", "vigilante", "trapper", "wolfsbane")
            ]
            if len(cands) < k:
                return None
            for p in rng.sample(cands, k):
                out["roles"][p] = role
            for key in ("crossbows",):
                out.pop(key, None)
    else:
        r = rng.random()
        if r < 0.3:
            for p in players:
                if out["roles"][p] in ref.WOLF_CAMP:
                    out["roles"][p] = "villager"
        elif r < 0.5:
            for p in players:
                if out["roles"][p] not in ref.WOLF_CAMP:
                    out["roles"][p] = "werewolf"
        else:
            role = rng.choice(list(ref.DIVINE) + WOLF_SPECIALS)
            for p in rng.sample(players, 2):
                out["roles"][p] = role
            if not any(out["roles"][p] in ref.WOLF_CAMP for p in players):
                return None
            if not any(out["roles"][p] not in ref.WOLF_CAMP for p in players):
                return None
    return out


def inj_bad_option(rng, sc, states):
    out = copy.deepcopy(sc)
    opts = dict(out.get("options", {}))
    if sc["ruleset"] == "classic":
        r = rng.random()
        if r < 0.4:
            opts[rng.choice(["Victory", "sheriff", "witch_self_save"])] = True
        elif r < 0.8:
            opts["victory"] = rng.choice(["half", "all", "Side", True])
        else:
            opts[rng.choice(["guardian_repeat", "knight_duel_ends_day"])] = rng.choice(
                ["yes", None, "true"]
            )
    else:
        opts[rng.choice(["victory", "guardian_repeat", "lovers"])] = rng.choice(["side", True])
    out["options"] = opts
    return out


def inj_after_end(rng, sc, states):
    g = states[-1]
    phases = sc.get("phases", [])
    if g.winner is None or not phases:
        return None
    nxt = "day" if kind_of(phases[-1]) == "night" else "night"
    out = copy.deepcopy(sc)
    alive = living(g)
    if nxt == "day" and sc["ruleset"] == "forum" and alive:
        body = {"votes": {alive[0]: rng.choice(alive)}}
    elif nxt == "day" and sc["ruleset"] == "classic" and alive:
        body = {"votes": {alive[0]: rng.choice(alive)}} if rng.random() < 0.5 else {}
    else:
        body = {}
    out["phases"].append({nxt: body})
    return out


def inj_bad_order(rng, sc, states):
    phases = sc.get("phases", [])
    out = copy.deepcopy(sc)
    r = rng.random()
    if sc["ruleset"] != "forum" and (r < 0.4 or not phases):
        out["phases"] = [{"day": {}}, *copy.deepcopy(phases)]
        return out
    ks = [k for k in range(len(phases)) if states[k + 1].winner is None]
    if not ks:
        return None
    k = rng.choice(ks)
    ph = phases[k]
    kind = kind_of(ph)
    dup = {kind: {}}
    if r < 0.7:
        out["phases"] = [*copy.deepcopy(phases[: k + 1]), dup]
    else:
        out["phases"] = [
            *copy.deepcopy(phases[:k]),
            {kind: {}, "day" if kind == "night" else "night": {}},
        ]
    return out


def role_action(rng, g, p, rs, night_no):
    """A (otherwise) well-formed night action for player p, or None."""
    role = g.roles[p]
    key = ACTION_OF[rs].get(role)
    if rs == "classic" and role in ref.WOLF_CAMP and role not in ("wolf_beauty",):
        key = "kill"
    if key is None:
        return None
    alive = [q for q in living(g) if q != p]
    if not alive:
        return None
    return {key: rng.choice(alive)}


def inj_dead_actor(rng, sc, states):
    rs = sc["ruleset"]

    def want(k, ph, g):
        if not dead_players(g):
            return False
        if kind_of(ph) == "night":
            return not (rs == "oxford" and g.nights == 0)
        return rs in ("forum", "classic")

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    kind = kind_of(ph)
    body = ph[kind]
    dead = dead_players(g)
    if kind == "night":
        actors = [p for p in dead if role_action(rng, g, p, rs, g.nights + 1)]
        if not actors:
            return None
        p = rng.choice(actors)
        body.setdefault("actions", {})[p] = role_action(rng, g, p, rs, g.nights + 1)
    else:
        p = rng.choice(dead)
        alive = living(g)
        body.setdefault("votes", {})
        body["votes"][p] = rng.choice(alive)
        body.pop("tie_break", None)
        if body.get("events"):
            body["events"] = []
    return cut(sc, k, ph)


def inj_dead_target(rng, sc, states):
    rs = sc["ruleset"]

    def want(k, ph, g):
        if not dead_players(g):
            return False
        body = ph[kind_of(ph)]
        if kind_of(ph) == "night":
            return bool(body.get("actions"))
        return bool(body.get("votes")) and rs != "oxford"

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    kind = kind_of(ph)
    body = ph[kind]
    victim = rng.choice(dead_players(g))
    if kind == "night":
        actor = rng.choice(sorted(body["actions"]))
        act = body["actions"][actor]
        key = rng.choice([key for key in act if key != "save"] or [None])
        if key is None:
            return None
        # keep killers agreeing in classic: retarget every kill
        if rs == "classic" and key == "kill":
            for a in body["actions"].values():
                if "kill" in a:
                    a["kill"] = victim
            for a in body["actions"].values():
                a.pop("save", None)
            body["actions"] = {x: a for x, a in body["actions"].items() if a}
        else:
            act[key] = victim
    else:
        voter = rng.choice(sorted(body["votes"]))
        body["votes"][voter] = victim
        body.pop("tie_break", None)
    return cut(sc, k, ph)


def inj_empty_action(rng, sc, states):
    rs = sc["ruleset"]

    def want(k, ph, g):
        return kind_of(ph) == "night" and not (rs == "oxford" and g.nights == 0)

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    ph["night"].setdefault("actions", {})[rng.choice(living(g))] = {}
    return cut(sc, k, ph)


def inj_wrong_ability(rng, sc, states):
    rs = sc["ruleset"]

    def want(k, ph, g):
        return kind_of(ph) == "night" and not (rs == "oxford" and g.nights == 0)

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    alive = living(g)
    p = rng.choice(alive)
    role = g.roles[p]
    keys = {
        "forum": ["kill", "see", "protect"],
        "oxford": ["maul", "protect", "trap"],
        "classic": ["check", "guard", "silence", "charm", "save", "poison"],
    }[rs]
    own = ACTION_OF[rs].get(role)
    bad = [
        x
        for x in keys
        if x != own
        and not (rs == "classic" and role == "witch" and x in ("save", "poison"))
        and not (rs == "classic" and role == "stone_ghost" and x == "check")
    ]
    if rng.random() < 0.3:
        bad = ["vote", "shoot", "attack", "heal"]
    key = rng.choice(bad)
    target = rng.choice(alive)
    ph["night"].setdefault("actions", {})[p] = {key: target if key != "save" else True}
    return cut(sc, k, ph)


def inj_reaction_forum_oxford(rng, sc, states):
    if sc["ruleset"] == "classic":
        return None
    phases = sc.get("phases", [])
    if not phases:
        return None
    k = rng.randrange(len(phases))
    g = states[k]
    ph = copy.deepcopy(phases[k])
    ph[kind_of(ph)]["on_death"] = {rng.choice(g.players): {"shoot": rng.choice(living(g))}}
    return cut(sc, k, ph)


def inj_reaction_living(rng, sc, states):
    """on_death for someone who does not die in that phase (classic)."""
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        return True

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    after = states[k + 1]
    ph = copy.deepcopy(sc["phases"][k])
    body = ph[kind_of(ph)]
    survivors = living(after)
    if not survivors:
        return None
    p = rng.choice(survivors)
    key = rng.choice(["shoot", "badge"])
    body.setdefault("on_death", {})[p] = {key: rng.choice(survivors)}
    return cut(sc, k, ph)


def inj_reaction_cannot(rng, sc, states):
    """A shoot from a dying player who cannot shoot, or a badge from a dying non-sheriff."""
    if sc["ruleset"] != "classic":
        return None
    cands = []
    for k, ph in enumerate(sc.get("phases", [])):
        before, after = states[k], states[k + 1]
        body = ph[kind_of(ph)]
        died = [p for p in before.alive if p not in after.alive]
        for p in died:
            entry = body.get("on_death", {}).get(p, {})
            role = before.roles[p]
            if "shoot" not in entry and role not in ("hunter", "wolf_king"):
                cands.append((k, p, "shoot"))
            if (
                "badge" not in entry
                and p != before.sheriff
                and not (kind_of(ph) == "day" and "sheriff_votes" in body)
            ):
                # could p have become sheriff during the phase by a badge? only if named
                named = any(e.get("badge") == p for e in body.get("on_death", {}).values())
                if not named:
                    cands.append((k, p, "badge"))
    if not cands:
        return None
    k, p, key = rng.choice(cands)
    ph = copy.deepcopy(sc["phases"][k])
    body = ph[kind_of(ph)]
    alive_after = living(states[k + 1])
    value = rng.choice(alive_after) if alive_after else None
    if key == "shoot" and value is None:
        return None
    body.setdefault("on_death", {}).setdefault(p, {})[key] = value
    return cut(sc, k, ph)


def inj_reaction_after_win(rng, sc, states):
    """A reaction of a player whose death group ended the game (classic)."""
    if sc["ruleset"] != "classic" or states[-1].winner is None:
        return None
    phases = sc["phases"]
    k = len(phases) - 1
    before, after = states[k], states[k + 1]
    body = phases[k][kind_of(phases[k])]
    died = [p for p in before.alive if p not in after.alive and p not in body.get("on_death", {})]
    shooters = [p for p in died if before.roles[p] in ("hunter", "wolf_king")]
    pool = shooters or died
    if not pool:
        return None
    p = rng.choice(pool)
    ph = copy.deepcopy(phases[k])
    alive_after = living(after)
    if alive_after and (p in shooters or rng.random() < 0.5):
        ph[kind_of(ph)].setdefault("on_death", {})[p] = {"shoot": rng.choice(alive_after)}
    else:
        ph[kind_of(ph)].setdefault("on_death", {})[p] = {"badge": None}
    return cut(sc, k, ph)


# ---- forum specific


def inj_forum_seer_self(rng, sc, states):
    if sc["ruleset"] != "forum":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "night" and any(g.roles[p] == "seer" for p in g.alive)

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    seer = rng.choice([p for p in living(g) if g.roles[p] == "seer"])
    ph["night"].setdefault("actions", {})[seer] = {"see": seer}
    return cut(sc, k, ph)


def inj_forum_protect_twice(rng, sc, states):
    if sc["ruleset"] != "forum":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "night" and any(
            p in g.alive and t in g.alive for p, t in g.protected_last_night.items()
        )

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    p, t = rng.choice(
        [(p, t) for p, t in g.protected_last_night.items() if p in g.alive and t in g.alive]
    )
    ph["night"].setdefault("actions", {})[p] = {"protect": t}
    return cut(sc, k, ph)


def inj_forum_bad_vote(rng, sc, states):
    if sc["ruleset"] != "forum":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "day"

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    alive = living(g)
    r = rng.random()
    votes = ph["day"].setdefault("votes", {})
    if r < 0.4:
        votes["nobody"] = rng.choice(alive)
    elif r < 0.7:
        votes[rng.choice(alive)] = rng.choice(["Nobody", "", "no one"])
    else:
        votes[rng.choice(alive)] = [rng.choice(alive)]
    return cut(sc, k, ph)


# ---- oxford specific


def inj_oxford_night1_actions(rng, sc, states):
    if sc["ruleset"] != "oxford" or not sc.get("phases"):
        return None
    g = states[0]
    ph = {"night": {"actions": {}}}
    wolves = [p for p in g.players if g.roles[p] == "werewolf"]
    w = rng.choice(wolves)
    ph["night"]["actions"][w] = {"maul": rng.choice(g.players)}
    return cut(sc, 0, ph)


def inj_oxford_bane_self(rng, sc, states):
    if sc["ruleset"] != "oxford":
        return None

    def want(k, ph, g):
        banes = [p for p in g.alive if g.roles[p] == "wolfsbane"]
        if kind_of(ph) != "night" or g.nights == 0 or not banes:
            return False
        if len(banes) == 2:
            return True
        return g.self_protected_on.get(banes[0]) == g.nights

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    banes = [p for p in living(g) if g.roles[p] == "wolfsbane"]
    b = rng.choice(banes)
    if len(banes) == 1 and g.self_protected_on.get(b) != g.nights:
        return None
    ph["night"].setdefault("actions", {})[b] = {"protect": b}
    return cut(sc, k, ph)


def inj_oxford_crossbow(rng, sc, states):
    """A second shot, a shot without a crossbow, or shooting oneself."""
    if sc["ruleset"] != "oxford":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "day" and len(g.alive) >= 2

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    alive = living(g)
    fired = [
        p
        for p in alive
        if p not in g.unfired and (g.roles[p] == "vigilante" or p in sc.get("crossbows", []))
    ]
    holders = [p for p in alive if p in g.unfired]
    unarmed = [p for p in alive if p not in g.unfired and p not in fired]
    r = rng.random()
    if fired and r < 0.5:
        by = rng.choice(fired)
        event = {"shoot": {"by": by, "target": rng.choice([q for q in alive if q != by])}}
        ph["day"]["events"] = [event]
    elif holders and r < 0.7:
        by = rng.choice(holders)
        t = rng.choice([q for q in alive if q != by])
        ph["day"]["events"] = [
            {"shoot": {"by": by, "target": t}},
            {"shoot": {"by": by, "target": t}},
        ]
    elif holders and r < 0.8:
        by = rng.choice(holders)
        ph["day"]["events"] = [{"shoot": {"by": by, "target": by}}]
    elif unarmed:
        by = rng.choice(unarmed)
        ph["day"]["events"] = [
            {"shoot": {"by": by, "target": rng.choice([q for q in alive if q != by])}}
        ]
    else:
        return None
    return cut(sc, k, ph)


def inj_oxford_bad_call(rng, sc, states):
    if sc["ruleset"] != "oxford":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "day" and len(g.alive) >= 3

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    alive = living(g)
    accused, by, second = rng.sample(alive, 3)
    call = {"accused": accused, "by": by, "second": second, "yes": []}
    r = rng.random()
    dead = dead_players(g)
    if r < 0.25:
        call["second"] = by
    elif r < 0.4:
        call["by"] = accused
    elif r < 0.6 and dead:
        call["yes"] = [rng.choice(dead)]
    elif r < 0.75:
        call["yes"] = [by, by]
    elif r < 0.85:
        del call["second"]
    elif dead:
        call["accused"] = rng.choice(dead)
    else:
        call["yes"] = "all"
    ph["day"]["events"] = [{"call": call}]
    return cut(sc, k, ph)


def inj_oxford_smite_dead(rng, sc, states):
    if sc["ruleset"] != "oxford":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "day" and dead_players(g)

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    ph["day"]["events"] = [{"smite": rng.choice(dead_players(g))}]
    return cut(sc, k, ph)


def inj_oxford_pairs(rng, sc, states):
    if sc["ruleset"] != "oxford":
        return None
    out = copy.deepcopy(sc)
    out.pop("phases", None)
    players = out["players"]
    r = rng.random()
    if r < 0.3 and len(players) >= 6:
        ps = rng.sample(players, 6)
        out["lovers"] = [ps[0:2], ps[2:4], ps[4:6]]
        out.pop("rivals", None)
    elif r < 0.55:
        a, b, c = rng.sample(players, 3)
        key = rng.choice(["lovers", "rivals"])
        out[key] = [[a, b], [a, c]]
        out.pop("rivals" if key == "lovers" else "lovers", None)
    elif r < 0.7:
        a = rng.choice(players)
        out["lovers"] = [[a, a]]
        out.pop("rivals", None)
    elif r < 0.85:
        a, b, c = rng.sample(players, 3)
        out["lovers"] = [[a, b, c]]
        out.pop("rivals", None)
    else:
        out["rivals"] = [["Zed", rng.choice(players)]]
        out.pop("lovers", None)
    return out


def inj_oxford_bad_crossbow(rng, sc, states):
    if sc["ruleset"] != "oxford":
        return None
    out = copy.deepcopy(sc)
    out.pop("phases", None)
    village = [
        p
        for p in out["players"]
        if out["roles"][p] not in ("werewolf", "dark_villager", "vigilante")
    ]
    wolves = [p for p in out["players"] if out["roles"][p] == "werewolf"]
    if village and rng.random() < 0.7:
        out["crossbows"] = [rng.choice(village)]
    else:
        out["crossbows"] = [wolves[0], wolves[0]]
    return out


# ---- classic specific


def inj_classic_killers(rng, sc, states):
    """Killers disagree, or a killer sends "nobody", or a non-killer hidden wolf kills."""
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "night"

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    actions = ph["night"].setdefault("actions", {})
    killers, _camp = g.killers_at_nightfall()
    killers = sorted(killers)
    alive = living(g)
    hidden = [p for p in alive if g.roles[p] == "hidden_wolf" and p not in killers]
    r = rng.random()
    if len(killers) >= 2 and r < 0.5 and len(alive) >= 2:
        a, b = rng.sample(killers, 2)
        t1, t2 = rng.sample(alive, 2)
        actions.setdefault(a, {})["kill"] = t1
        actions.setdefault(b, {})["kill"] = t2
        for x in actions.values():
            x.pop("save", None)
        ph["night"]["actions"] = {x: v for x, v in actions.items() if v}
    elif hidden and r < 0.75:
        h = rng.choice(hidden)
        actions[h] = {"kill": rng.choice(alive)}
    elif killers:
        actions.setdefault(rng.choice(killers), {})["kill"] = "nobody"
    else:
        return None
    return cut(sc, k, ph)


def inj_classic_witch(rng, sc, states):
    """A second potion of a kind, both potions at once, a save with no attack, a late self-save,
    save not true."""
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "night" and any(g.roles[p] == "witch" for p in g.alive)

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    night = ph["night"]
    actions = night.setdefault("actions", {})
    witch = next(p for p in living(g) if g.roles[p] == "witch")
    others = [p for p in living(g) if p != witch]
    killers, _ = g.killers_at_nightfall()
    attacked = next((a["kill"] for a in actions.values() if "kill" in a), None)
    r = rng.random()
    if g.poison_used and r < 0.2 and others:
        actions[witch] = {"poison": rng.choice(others)}
    elif g.antidote_used and r < 0.4 and attacked is not None:
        actions[witch] = {"save": True}
    elif r < 0.55 and others and attacked is not None:
        actions[witch] = {"save": True, "poison": rng.choice(others)}
    elif r < 0.7:
        for a in actions.values():
            a.pop("kill", None)
        night["actions"] = actions = {x: v for x, v in actions.items() if v}
        actions[witch] = {"save": True}
    elif r < 0.85 and killers and (g.nights >= 1 or not g.options["witch_self_save_first_night"]):
        for a in actions.values():
            a.pop("kill", None)
        night["actions"] = actions = {x: v for x, v in actions.items() if v}
        actions.setdefault(sorted(killers)[0], {})["kill"] = witch
        actions[witch] = {"save": True}
    elif others:
        actions[witch] = {"poison": witch} if rng.random() < 0.5 else {"save": "yes"}
    else:
        return None
    return cut(sc, k, ph)


def inj_classic_guard_twice(rng, sc, states):
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        return (
            kind_of(ph) == "night"
            and not g.options["guardian_repeat"]
            and g.last_guard in g.alive
            and any(g.roles[p] == "guardian" for p in g.alive)
        )

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    guardian = next(p for p in living(g) if g.roles[p] == "guardian")
    ph["night"].setdefault("actions", {})[guardian] = {"guard": g.last_guard}
    return cut(sc, k, ph)


def inj_classic_self_target(rng, sc, states):
    """seer / stone ghost / silencer / wolf beauty naming themselves."""
    if sc["ruleset"] != "classic":
        return None
    key_of = {"seer": "check", "silencer": "silence", "wolf_beauty": "charm"}

    def want(k, ph, g):
        return kind_of(ph) == "night" and any(g.roles[p] in key_of for p in g.alive)

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    p = rng.choice([p for p in living(g) if g.roles[p] in key_of])
    actions = ph["night"].setdefault("actions", {})
    actions.setdefault(p, {})[key_of[g.roles[p]]] = p
    return cut(sc, k, ph)


def inj_classic_stone_ghost(rng, sc, states):
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        if kind_of(ph) != "night":
            return False
        camp = [p for p in g.alive if g.roles[p] in ref.WOLF_CAMP]
        return (camp and all(g.roles[p] == "stone_ghost" for p in camp)) or (
            any(g.roles[p] == "stone_ghost" for p in camp) and len(camp) > 1
        )

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    camp = [p for p in living(g) if g.roles[p] in ref.WOLF_CAMP]
    ghost = next(p for p in camp if g.roles[p] == "stone_ghost")
    others = [p for p in living(g) if p != ghost]
    if not others:
        return None
    actions = ph["night"].setdefault("actions", {})
    if len(camp) == 1:
        actions[ghost] = {"check": rng.choice(others)}  # it is the killer now
    else:
        actions[ghost] = {"kill": rng.choice(others)}  # not a killer yet
    return cut(sc, k, ph)


def inj_classic_sheriff_votes(rng, sc, states):
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "day"

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    alive = living(g)
    dead = dead_players(g)
    if g.days >= 1:
        ph["day"]["sheriff_votes"] = {alive[0]: rng.choice(alive)}
    elif dead and rng.random() < 0.5:
        ph["day"]["sheriff_votes"] = {alive[0]: rng.choice(dead)}
    elif rng.random() < 0.5:
        ph["day"]["sheriff_votes"] = {alive[0]: "nobody"}
    elif dead:
        ph["day"]["sheriff_votes"] = {rng.choice(dead): alive[0]}
    else:
        return None
    return cut(sc, k, ph)


def inj_classic_idiot_vote(rng, sc, states):
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "day" and any(p in g.alive for p in g.idiots_revealed)

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    idiot = next(p for p in living(g) if p in g.idiots_revealed)
    ph["day"].pop("events", None)
    ph["day"].pop("tie_break", None)
    ph["day"].setdefault("votes", {})[idiot] = rng.choice(living(g))
    return cut(sc, k, ph)


def inj_classic_events(rng, sc, states):
    """second duel, self duel, duel by non-knight, explosion with a target by a non-white-wolf,
    explosion by a good player, event after an explosion."""
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "day" and len(g.alive) >= 2

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    day = ph["day"]
    alive = living(g)
    knights = [p for p in alive if g.roles[p] == "knight"]
    wolves = [p for p in alive if g.roles[p] in ref.WOLF_CAMP]
    good = [p for p in alive if g.roles[p] not in ref.WOLF_CAMP]
    plain_wolves = [p for p in wolves if g.roles[p] != "white_wolf_king"]
    r = rng.random()
    if knights and g.duel_used and r < 0.2:
        kn = knights[0]
        events = [{"duel": {"by": kn, "target": rng.choice([p for p in alive if p != kn])}}]
    elif knights and r < 0.35:
        events = [{"duel": {"by": knights[0], "target": knights[0]}}]
    elif knights and not g.duel_used and r < 0.45 and good:
        kn = knights[0]
        others = [p for p in alive if p != kn and g.roles[p] not in ref.WOLF_CAMP] or None
        if others is None:
            return None
        events = [
            {"duel": {"by": kn, "target": rng.choice(others)}},
            {"duel": {"by": kn, "target": rng.choice(others)}},
        ]
    elif plain_wolves and r < 0.65:
        w = rng.choice(plain_wolves)
        events = [{"explode": {"by": w, "target": rng.choice([p for p in alive if p != w])}}]
    elif good and r < 0.75:
        p = rng.choice([x for x in good if g.roles[x] != "knight"] or good)
        if g.roles[p] == "knight":
            return None
        events = [{"duel": {"by": p, "target": rng.choice([q for q in alive if q != p])}}]
    elif wolves and len(alive) >= 3:
        w = rng.choice(wolves)
        rest = [p for p in alive if p != w]
        if len(wolves) < 2:
            return None
        w2 = rng.choice([x for x in wolves if x != w])
        events = [{"explode": {"by": w}}, {"explode": {"by": w2}}]
        if rng.random() < 0.5:
            day["votes"] = {rest[0]: rest[-1]}
            events = events[:1]
        day["events"] = events
        day.pop("tie_break", None)
        day.pop("on_death", None)
        if day.get("sheriff_votes") is None:
            day.pop("sheriff_votes", None)
        return cut(sc, k, ph)
    else:
        return None
    day["events"] = events
    day.pop("votes", None)
    day.pop("tie_break", None)
    day.pop("on_death", None)
    return cut(sc, k, ph)


def inj_classic_tie_break(rng, sc, states):
    """tie_break without a tie, naming a non-tied player, or without a living sheriff."""
    if sc["ruleset"] != "classic":
        return None
    cands = []
    for k, ph in enumerate(sc.get("phases", [])):
        if kind_of(ph) != "day":
            continue
        after = states[k + 1]
        entry = after.entries[-1]
        tally = entry["tally"]
        if not tally:
            continue
        top = max(tally.values())
        tied = [p for p, w in tally.items() if w == top]
        body = ph["day"]
        if "tie_break" in body and body["tie_break"] is not None:
            continue
        # players alive after the vote who are not among the tied
        others = [
            p
            for p in states[k].players
            if p in after.alive and p not in tied and p in states[k].alive
        ]
        if (len(tied) == 1 and others) or (len(tied) > 1 and others and after.sheriff is not None):
            cands.append((k, rng.choice(others)))
        elif (
            len(tied) > 1
            and states[k].sheriff is None
            and after.sheriff is None
            and "sheriff_votes" not in body
        ):
            cands.append((k, rng.choice(tied)))
    if not cands:
        return None
    k, name = rng.choice(cands)
    ph = copy.deepcopy(sc["phases"][k])
    ph["day"]["tie_break"] = name
    ph["day"].pop("on_death", None)
    return cut(sc, k, ph)


def inj_classic_bad_vote_target(rng, sc, states):
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "day" and not ph["day"].get("events")

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    alive = [p for p in living(g) if p not in g.idiots_revealed]
    if not alive:
        return None
    ph["day"]["votes"] = {alive[0]: rng.choice([7, None, alive, "Zed"])}
    ph["day"].pop("tie_break", None)
    ph["day"].pop("on_death", None)
    return cut(sc, k, ph)


def inj_classic_vote_nobody(rng, sc, states):
    """illegal only under reading C11"""
    if sc["ruleset"] != "classic":
        return None

    def want(k, ph, g):
        return kind_of(ph) == "day" and not ph["day"].get("events")

    k = pick_phase(rng, sc, states, want)
    if k is None:
        return None
    g = states[k]
    ph = copy.deepcopy(sc["phases"][k])
    alive = [p for p in living(g) if p not in g.idiots_revealed]
    if not alive:
        return None
    ph["day"]["votes"] = {alive[0]: "nobody"}
    ph["day"].pop("tie_break", None)
    ph["day"].pop("on_death", None)
    return cut(sc, k, ph)


def inj_classic_empty_reaction(rng, sc, states):
    """an on_death entry {} for a player dying in the phase: illegal only under reading A6"""
    if sc["ruleset"] != "classic":
        return None
    cands = []
    for k, ph in enumerate(sc.get("phases", [])):
        died = [
            p
            for p in states[k].alive
            if p not in states[k + 1].alive and p not in ph[kind_of(ph)].get("on_death", {})
        ]
        cands += [(k, p) for p in died]
    if not cands:
        return None
    k, p = rng.choice(cands)
    ph = copy.deepcopy(sc["phases"][k])
    ph[kind_of(ph)].setdefault("on_death", {})[p] = {}
    return cut(sc, k, ph)


# (function, only-illegal-under-an-ambiguous-reading)
INJECTIONS = [
    (inj_unknown_top_key, False),
    (inj_unknown_role, False),
    (inj_role_of_other_ruleset, False),
    (inj_missing_role, False),
    (inj_bad_players, False),
    (inj_bad_deal, False),
    (inj_bad_option, False),
    (inj_after_end, False),
    (inj_bad_order, False),
    (inj_dead_actor, False),
    (inj_dead_target, False),
    (inj_empty_action, False),
    (inj_wrong_ability, False),
    (inj_reaction_forum_oxford, False),
    (inj_reaction_living, False),
    (inj_reaction_cannot, False),
    (inj_reaction_after_win, False),
    (inj_forum_seer_self, False),
    (inj_forum_protect_twice, False),
    (inj_forum_bad_vote, False),
    (inj_oxford_night1_actions, False),
    (inj_oxford_bane_self, False),
    (inj_oxford_crossbow, False),
    (inj_oxford_bad_call, False),
    (inj_oxford_smite_dead, False),
    (inj_oxford_pairs, False),
    (inj_oxford_bad_crossbow, False),
    (inj_classic_killers, False),
    (inj_classic_witch, False),
    (inj_classic_guard_twice, False),
    (inj_classic_self_target, False),
    (inj_classic_stone_ghost, False),
    (inj_classic_sheriff_votes, False),
    (inj_classic_idiot_vote, False),
    (inj_classic_events, False),
    (inj_classic_tie_break, False),
    (inj_classic_bad_vote_target, False),
    (inj_classic_vote_nobody, True),
    (inj_classic_empty_reaction, True),
]


# forum/classic scenarios carrying oxford keys: illegal under reading A1 only.
def inj_foreign_keys(rng, sc, states):
    if sc["ruleset"] == "oxford":
        return None
    out = copy.deepcopy(sc)
    out[rng.choice(["crossbows", "lovers", "rivals"])] = []
    return out


INJECTIONS.append((inj_foreign_keys, True))


HEADER_INJECTIONS = {
    inj_unknown_top_key,
    inj_unknown_role,
    inj_role_of_other_ruleset,
    inj_missing_role,
    inj_bad_players,
    inj_bad_deal,
    inj_bad_option,
    inj_oxford_pairs,
    inj_oxford_bad_crossbow,
    inj_foreign_keys,
}


def inject(rng, sc, avoid):
    states = states_before(sc)
    header = [x for x in INJECTIONS if x[0] in HEADER_INJECTIONS]
    play = [x for x in INJECTIONS if x[0] not in HEADER_INJECTIONS]
    for _ in range(60):
        fn, ambiguous = rng.choice(header if rng.random() < 0.2 else play)
        if avoid and ambiguous:
            continue
        out = fn(rng, sc, states)
        if out is not None:
            return out, fn.__name__
    return inj_unknown_top_key(rng, sc, states), "inj_unknown_top_key"


# ------------------------------------------------------------------------------------------
# entry points
# ------------------------------------------------------------------------------------------


def generate(rng, ruleset=None, illegal_rate=0.0, avoid_ambiguous=False):
    """(scenario, live_output_or_None, injection_name_or_None)."""
    if ruleset is None:
        ruleset = rng.choice(sorted(GENERATORS))
    sc, live = GENERATORS[ruleset](rng, avoid_ambiguous)
    if illegal_rate > 0 and rng.random() < illegal_rate:
        sc, name = inject(rng, sc, avoid_ambiguous)
        return sc, None, name
    return sc, live, None


def random_scenario(
    rng: random.Random,
    ruleset: str | None = None,
    illegal_rate: float = 0.0,
    avoid_ambiguous: bool = False,
) -> dict:
    return generate(rng, ruleset, illegal_rate, avoid_ambiguous)[0]
