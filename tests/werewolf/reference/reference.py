"""A second, independent reading of ../shared/scenarios/werewolf/FORMAT.md, to test the engine
against (tests/werewolf/test_against_reference.py).

Written from FORMAT.md alone (and, for context, rules/001, 003 and 004), without reading the
engine, by a different hand.  `play(scenario) -> dict` returns the output object; every
scenario FORMAT.md calls an error raises `ReferenceError_`.

The code is deliberately straight-line: one class per ruleset, one method per phase kind,
following the sentences of FORMAT.md in order.  The classic day is split into small steps
(sheriff election, events, votes, tie break) only so that generate.py can drive them one
at a time; `ClassicGame.day` simply calls them in the order FORMAT.md gives.

AMBIGUOUS READINGS CHOSEN (each: the FORMAT.md sentence, the reading taken, the reading
rejected).  docs/rules.md gives the engine's rulings; where the two differ, one is a bug.

 General / input
  A1. "Keys not named here are errors." + oxford "Extra keys: crossbows, lovers, rivals".
      Taken: crossbows/lovers/rivals are accepted only with ruleset oxford; in forum and
      classic they are unknown keys (error).  Rejected: accept them (ignored) everywhere.
  A2. "options: named ruleset options (below)".  forum and oxford name no options, so any
      option there is an error; `options` must be an object (null is an error).
      Classic option values: victory must be "side"/"total", the four others must be JSON
      booleans (0/1 are errors).  Rejected: truthy values.
  A3. "players: 4 to 30 distinct non-empty names ... nobody is not a name."  Taken literally:
      any non-empty string other than exactly "nobody" (so " ", "Nobody" are names).
  A4. "roles: every player's role".  The keys of `roles` must be exactly the players: a
      missing player or an extra (non-player) key is an error.
  A5. A phase is an object with exactly one key, "night" or "day", whose value is an object
      (null or a list is an error).  Two nights (or days) in a row are an error.
  A6. "an empty action {} is an error" is applied to on_death reactions too: an on_death
      entry {} is an error (rejected: treat {} as "does not react").  An on_death value
      must be an object; its entries objects with keys among "shoot"/"badge".
  A7. oxford night 1 "no actions": `"actions": {}` (empty) is accepted on night 1; any
      entry in it is an error.
  A8. A reaction entry that the rules never consult (badge from a non-sheriff, shoot from a
      role that cannot shoot, from a poisoned hunter, for a player who did not die in the
      phase, or any reaction left over once the game was won) is an error.
  A9. "each dead hunter or wolf king whose on_death is {"shoot": NAME}": a dying sheriff who
      is also a hunter / wolf king may send both in one entry, {"shoot": X, "badge": Y}
      (badge passes first, then the shot).  Rejected: such an entry is not "{"shoot": NAME}".
  A10. Optional keys given as null are errors ("options": null, "phases": null, "actions":
      null, "on_death": null, "votes": null, "events": null, "sheriff_votes": null); only
      `tie_break` and `badge` take null.
  A11. "Anything sent after the game has ended is an error": a whole phase after the winning
      phase is an error even when empty ({"day": {}}).

 forum
  F1. "a player is killed if they received more votes than every other player and more
      than nobody" -- werewolves with no action entry cast no kill vote; "nobody" is a
      candidate in the tally: a tie with "nobody", or "nobody" on top, kills no one.
  F2. "not the player they protected the night before": only the immediately preceding
      night counts; a protector who did not protect last night may protect anyone.  With
      two protectors each one's own previous protection counts.
  F3. "every living werewolf {attack_blocked}": every werewolf alive at the end of the night
      (the same set as at nightfall, since a blocked attack kills no one).
  F4. "a lunatic was eliminated" is read as "some lunatic is dead" (checked after every
      phase; the game ends at the first such phase).  With several lunatics any one counts;
      `winners` for lunatic are all lunatics.
  F5. told entries of one player merge into one object (e.g. a protector who protected
      herself and was attacked gets protected/attacked/saved_from_attack together; a
      werewolf saved from its own pack gets attack_blocked and saved_from_attack).
  F6. Werewolves may kill themselves or another werewolf ("Any living player").

 oxford
  O1. "a player is in at most one pair" covers lovers and rivals together (a player cannot
      be both a lover and a rival).  Rejected: only within each list.  A pair must be a
      list of exactly two different players.  There is no limit on rival pairs.
  O2. crossbows: names must be werewolves or the dark villager; the vigilante listed there
      is an error (rejected: allowed/redundant); duplicates are an error.
  O3. "When only one wolfsbane is alive, it may protect itself, but not on two nights in a
      row": a self-protection is forbidden if the same wolfsbane protected itself the
      immediately preceding night (whether or not it was alone then, which it must have
      been).  Protecting the same other player on consecutive nights is allowed.
  O4. Trapper: each trap on the mauled player gives one hit to EACH werewolf who mauled that
      player (two mauling wolves both step in it).  Trap hits are one each, even for the
      super werewolf (the "two" applies only to maul hits).
  O5. Smite: any living player (the "another" of "a crossbow shot and a smite name another
      living player" is read, for smite, as nothing more than "living").
  O6. A call's `by` and `second` need not be in `yes`; `yes` holds distinct living players.
  O7. Win check with nobody alive: condition 2 ("no werewolf alive") gives village with no
      winners.  The win is checked after every day event, including calls that acquit.
  O8. `duel` pairs: in the order the rival pairs are given in the input, each pair sorted by
      seat (rejected: sort the pairs by seat).  Rival pairs from any sides are listed.
  O9. `winners` for village/werewolves: living side members minus every living
      star-crossed lover minus both members of every living rival pair; for lovers: the two
      lovers (seat order).
  O10. "the only werewolf alive at nightfall (the super werewolf)": counts the `werewolf`
      role only; a living dark villager does not prevent the super werewolf.
  O11. The vigilante's crossbow counts as "an unfired crossbow" outside the werewolves' side
      until the vigilante shoots; werewolf / dark villager crossbows never block their own
      side's win.

 classic
  C1. Killers are fixed at nightfall; the hidden wolf is a killer when no werewolf-camp
      player other than the hidden wolf and the stone ghost is alive; the stone ghost is a
      killer only when it is the only werewolf-camp player alive, and may "check" only when
      another werewolf-camp player is alive (it never has both).  A non-killer sending
      "kill" is an error.  Killers may kill themselves / other wolves ("any player").
  C2. Wolf beauty: tonight's charm is in effect at tonight's daybreak (if she dies at this
      daybreak, tonight's charmed player dies with her).  A charm persists until replaced.
  C3. Witch: "one potion a night" -> an action holding both save and poison is an error.
      Self-save is allowed only on night 1 and only with witch_self_save_first_night.
      The witch is told {"attacked": ...} when alive at nightfall with the antidote unused
      at nightfall (also the night she uses it).
  C4. Seer checking the wraith rider: the seer gets no told entry at all for it, and dies at
      daybreak (counter-injured: cannot shoot, irrelevant).  Seer / stone ghost / grave
      keeper / witch are told even if they die that night (state at nightfall).
  C5. Grave keeper is told only while alive at nightfall; on night 1 (no previous day) and
      after a day with `eliminated: null` nothing.
  C6. Guardian "two nights running": only the immediately preceding night; skipping a
      night resets.
  C7. Silencing has no effect on the scenario besides the `silenced` key (a silenced player
      may still vote, duel, explode, be sheriff).  Rejected: silenced players cannot act.
  C8. Explosion: any living werewolf-camp player may explode with {"by": WOLF}; only the
      white wolf king may add a target; the white wolf king may also explode without one.
      Rejected: only werewolf/white wolf king may explode; white wolf king must name one.
  C9. Knight duel: "a duel that kills a werewolf" = a werewolf-camp target (any role of
      that camp).  A failed duel (knight dies) never ends the day.
  C10. After the day ended (explosion, or a werewolf-killing duel with
      knight_duel_ends_day) or after the game was won: any further event, any non-empty
      `votes`, any non-null `tie_break` is an error; `"votes": {}` and `"tie_break": null`
      are accepted ("null ... is always allowed"; an empty vote object holds no vote).
  C11. Classic `votes` targets must be living players: "nobody" is an error in classic
      (FORMAT writes `VOTER: NAME`, forum writes `NAME | "nobody"`).  A revealed idiot may be
      voted for; a revealed idiot may not vote.
  C12. `tie_break` needs a tie in the vote and a living sheriff; it must name one of the
      tied.  Without `votes` (or with no votes cast) there is no tie.
  C13. Sheriff election: only on day 1; empty `sheriff_votes` elects no one; all votes
      weigh 1; "nobody" is not a candidate.  The sheriff's 1.5 applies to day `votes` only.
  C14. "the win is checked" after a group of simultaneous deaths (daybreak group; explosion
      with target; a vote; a duel; one shot), each group including the wolf beauty's
      charmed player.  When the win fires, the dying sheriff's badge is lost and every
      remaining reaction is an error.  A dying sheriff with no badge entry: badge lost.
  C15. A sheriff's badge may go to any living player, including a revealed idiot.
  C16. A wolf king who is both killed by the attack and poisoned cannot shoot (poisoned);
      one killed by the attack with wolf_king_shoots_if_killed_by_wolves=false cannot shoot.
  C17. "winner": "none" takes precedence; then good (werewolf camp all dead); then
      werewolves ("side": a dealt group -- divines or commoners -- entirely dead; "total":
      the whole good camp dead).  A revealed idiot is alive.
  C18. "A day entry's sheriff is the sheriff at the end of that day": a sheriff who died in
      the group that won the game has lost the badge (no reaction may follow the win), so
      the entry shows null.  Rejected: show the dead sheriff.
  C19. A revealed idiot who is (or becomes) sheriff keeps the badge and may name a
      tie_break, but casts no vote (so the 1.5 never applies to them).
  C20. The stone ghost checking the wraith rider is told "wraith_rider" and nothing happens
      (only the seer's check and the witch's poison counter-injure).
  C21. The explosion's wolf and its target die as one group (one win check); a duel kills
      one player (target or knight) as its own group.  A failed duel still uses the duel.
  C22. Day `votes` are weighed with the sheriff at the moment of the vote (after the
      day's events, which may have moved the badge).
"""

FORUM_ROLES = ("werewolf", "lunatic", "seer", "protector", "villager")
OXFORD_ROLES = (
    "werewolf",
    "dark_villager",
    "wolfsbane",
    "trapper",
    "vigilante",
    "mayor",
    "cultist",
    "villager",
)
OXFORD_LIMITS = {"dark_villager": 1, "wolfsbane": 2, "trapper": 2, "vigilante": 1, "mayor": 1}
WOLF_CAMP = (
    "werewolf",
    "wolf_beauty",
    "white_wolf_king",
    "hidden_wolf",
    "wolf_king",
    "wraith_rider",
    "stone_ghost",
)
DIVINE = ("seer", "witch", "hunter", "guardian", "knight", "idiot", "silencer", "grave_keeper")
COMMONER = ("villager",)
CLASSIC_ROLES = WOLF_CAMP + DIVINE + COMMONER
CLASSIC_OPTIONS = {
    "victory": "side",
    "witch_self_save_first_night": True,
    "guardian_repeat": False,
    "wolf_king_shoots_if_killed_by_wolves": True,
    "knight_duel_ends_day": True,
}

MISSING = object()


class ReferenceError_(Exception):
    pass


def fail(message):
    raise ReferenceError_(message)


def check_keys(obj, allowed, where, required=()):
    if not isinstance(obj, dict):
        fail(f"{where}: expected an object")
    for key in obj:
        if key not in allowed:
            fail(f"{where}: unknown key {key!r}")
    for key in required:
        if key not in obj:
            fail(f"{where}: missing key {key!r}")


def number(x):
    """Print a weight as an int when it is whole (1.5 stays 1.5)."""
    if x == int(x):
        return int(x)
    return x


class Game:
    ROLES = ()
    TOP_KEYS = ("ruleset", "options", "players", "roles", "phases")
    FIRST = ("night",)

    def __init__(self, s):
        check_keys(s, self.TOP_KEYS, "scenario", required=("ruleset", "players", "roles"))
        players = s["players"]
        if not isinstance(players, list) or not 4 <= len(players) <= 30:
            fail("players: 4 to 30 names")
        for p in players:
            if not isinstance(p, str) or p == "" or p == "nobody":
                fail(f"players: bad name {p!r}")
        if len(set(players)) != len(players):
            fail("players: names are not distinct")
        self.players = list(players)
        self.seat = {p: i for i, p in enumerate(players)}
        roles = s["roles"]
        if not isinstance(roles, dict):
            fail("roles: expected an object")
        for p in roles:
            if p not in self.seat:
                fail(f"roles: {p!r} is not a player")
        for p in players:
            if p not in roles:
                fail(f"roles: {p} has no role")
            if not isinstance(roles[p], str) or roles[p] not in self.ROLES:
                fail(f"roles: {p} has unknown role {roles[p]!r}")
        self.roles = dict(roles)
        self.options = self.parse_options(s.get("options", {}))
        self.alive = set(players)
        self.winner = None
        self.entries = []
        self.nights = 0
        self.days = 0
        self.last_kind = None

    def parse_options(self, options):
        if not isinstance(options, dict):
            fail("options: expected an object")
        if options:
            fail(f"options: unknown option {next(iter(options))!r}")
        return {}

    # -- helpers ---------------------------------------------------------------------
    def in_seats(self, names):
        return sorted(set(names), key=lambda p: self.seat[p])

    def is_living(self, name):
        return isinstance(name, str) and name in self.seat and name in self.alive

    def check_living(self, name, where):
        if not self.is_living(name):
            fail(f"{where}: {name!r} is not a living player")

    def check_actor(self, actor, act, where):
        if not isinstance(actor, str) or actor not in self.seat:
            fail(f"{where}: {actor!r} is not a player")
        if actor not in self.alive:
            fail(f"{where}: {actor} is dead and takes no action")
        if not isinstance(act, dict) or not act:
            fail(f"{where}: {actor} sent an empty or malformed action")

    def check_no_reactions(self, body, where):
        on_death = body.get("on_death", {})
        if not isinstance(on_death, dict):
            fail(f"{where}: on_death must be an object")
        if on_death:
            fail(f"{where}: this ruleset has no reactions")

    # -- phases ----------------------------------------------------------------------
    def play_phase(self, phase):
        if self.winner is not None:
            fail("a phase after the game ended")
        if not isinstance(phase, dict) or len(phase) != 1:
            fail('a phase is {"night": {...}} or {"day": {...}}')
        ((kind, body),) = phase.items()
        if kind not in ("night", "day"):
            fail(f"unknown phase kind {kind!r}")
        if self.last_kind is None and kind not in self.FIRST:
            fail(f"this ruleset cannot open with a {kind}")
        if kind == self.last_kind:
            fail(f"two {kind}s in a row")
        if not isinstance(body, dict):
            fail(f"{kind}: expected an object")
        self.last_kind = kind
        if kind == "night":
            self.nights += 1
            entry = self.night(body, self.nights)
        else:
            self.days += 1
            entry = self.day(body, self.days)
        self.entries.append(entry)
        return entry

    def run(self, phases):
        if not isinstance(phases, list):
            fail("phases: expected a list")
        for phase in phases:
            self.play_phase(phase)

    def output(self):
        out = {
            "phases": self.entries,
            "alive": self.in_seats(self.alive),
            "winner": self.winner,
            "winners": self.winners() if self.winner is not None else [],
        }
        return out


# =====================================================================================
# forum -- rules/001
# =====================================================================================


def strict_plurality(targets):
    """The target with more votes than every other (and than "nobody"), or None."""
    counts = {}
    for t in targets:
        counts[t] = counts.get(t, 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    leaders = [t for t, c in counts.items() if c == top]
    if len(leaders) == 1 and leaders[0] != "nobody":
        return leaders[0]
    return None


class ForumGame(Game):
    ROLES = FORUM_ROLES
    FIRST = ("night", "day")

    def __init__(self, s):
        super().__init__(s)
        wolves = sum(1 for p in self.players if self.roles[p] == "werewolf")
        if wolves < 1:
            fail("deal: at least one werewolf")
        if wolves >= len(self.players) - wolves:
            fail("deal: fewer werewolves than other players")
        self.protected_last_night = {}

    def side(self, p):
        role = self.roles[p]
        if role == "werewolf":
            return "werewolves"
        if role == "lunatic":
            return "lunatic"
        return "village"

    def affiliation(self, p):
        role = self.roles[p]
        if role == "werewolf":
            return "werewolf"
        if role == "lunatic":
            return "lunatic"
        return "villager"

    def night(self, body, n):
        where = f"night {n}"
        check_keys(body, ("actions", "on_death"), where)
        self.check_no_reactions(body, where)
        actions = body.get("actions", {})
        if not isinstance(actions, dict):
            fail(f"{where}: actions must be an object")
        kill_votes = []
        sees = {}
        protects = {}
        for actor, act in actions.items():
            self.check_actor(actor, act, where)
            role = self.roles[actor]
            if role == "werewolf":
                check_keys(act, ("kill",), where, required=("kill",))
                target = act["kill"]
                if target != "nobody":
                    self.check_living(target, where)
                kill_votes.append(target)
            elif role == "seer":
                check_keys(act, ("see",), where, required=("see",))
                target = act["see"]
                self.check_living(target, where)
                if target == actor:
                    fail(f"{where}: {actor} (seer) looked at herself")
                sees[actor] = target
            elif role == "protector":
                check_keys(act, ("protect",), where, required=("protect",))
                target = act["protect"]
                self.check_living(target, where)
                if self.protected_last_night.get(actor) == target:
                    fail(f"{where}: {actor} (protector) protected {target} the night before")
                protects[actor] = target
            else:
                fail(f"{where}: {actor} ({role}) has no night action")
        self.protected_last_night = protects

        chosen = strict_plurality(kill_votes)
        told = {}

        def tell(p, key, value):
            told.setdefault(p, {})[key] = value

        for seer in self.in_seats(sees):
            target = sees[seer]
            tell(seer, "seen", {target: self.affiliation(target)})
        for protector in self.in_seats(protects):
            target = protects[protector]
            tell(protector, "protected", target)
            tell(protector, "attacked", target == chosen)
        dead = []
        if chosen is not None:
            if chosen in protects.values():
                tell(chosen, "saved_from_attack", True)
                for w in self.in_seats(self.alive):
                    if self.roles[w] == "werewolf":
                        tell(w, "attack_blocked", chosen)
            else:
                dead = [chosen]
        for p in dead:
            self.alive.discard(p)
        entry = {
            "phase": where,
            "dead": self.in_seats(dead),
            "told": told,
            "revealed": {p: self.roles[p] for p in self.in_seats(dead)},
        }
        self.check_win(entry)
        return entry

    def day(self, body, n):
        where = f"day {n}"
        check_keys(body, ("votes", "on_death"), where)
        self.check_no_reactions(body, where)
        votes = body.get("votes", {})
        if not isinstance(votes, dict):
            fail(f"{where}: votes must be an object")
        targets = []
        for voter, target in votes.items():
            self.check_living(voter, where)
            if target != "nobody":
                self.check_living(target, where)
            targets.append(target)
        tally = {}
        for t in targets:
            tally[t] = tally.get(t, 0) + 1
        eliminated = strict_plurality(targets)
        dead = []
        if eliminated is not None:
            dead = [eliminated]
            self.alive.discard(eliminated)
        entry = {
            "phase": where,
            "dead": dead,
            "tally": tally,
            "eliminated": eliminated,
            "revealed": {p: self.roles[p] for p in dead},
        }
        self.check_win(entry)
        return entry

    def check_win(self, entry):
        winner = None
        wolves = [p for p in self.alive if self.roles[p] == "werewolf"]
        others = [p for p in self.alive if self.roles[p] != "werewolf"]
        if any(self.roles[p] == "lunatic" and p not in self.alive for p in self.players):
            winner = "lunatic"
        elif not wolves:
            winner = "village"
        elif len(wolves) >= len(others):
            winner = "werewolves"
        if winner is not None:
            self.winner = winner
            entry["winner"] = winner

    def winners(self):
        return [p for p in self.players if self.side(p) == self.winner]


# =====================================================================================
# oxford -- rules/003
# =====================================================================================


class OxfordGame(Game):
    ROLES = OXFORD_ROLES
    TOP_KEYS = (*Game.TOP_KEYS, "crossbows", "lovers", "rivals")

    def __init__(self, s):
        super().__init__(s)
        for role, limit in OXFORD_LIMITS.items():
            if sum(1 for p in self.players if self.roles[p] == role) > limit:
                fail(f"deal: at most {limit} {role}")
        if not any(self.roles[p] == "werewolf" for p in self.players):
            fail("deal: at least one werewolf")
        crossbows = s.get("crossbows", [])
        if not isinstance(crossbows, list):
            fail("crossbows: expected a list")
        for p in crossbows:
            if not isinstance(p, str) or p not in self.seat:
                fail(f"crossbows: {p!r} is not a player")
            if self.roles[p] not in ("werewolf", "dark_villager"):
                fail(f"crossbows: {p} is not a werewolf or the dark villager")
        if len(set(crossbows)) != len(crossbows):
            fail("crossbows: a name is repeated")
        self.unfired = set(crossbows)
        for p in self.players:
            if self.roles[p] == "vigilante":
                self.unfired.add(p)
        self.lovers = self.parse_pairs(s.get("lovers", []), "lovers")
        self.rivals = self.parse_pairs(s.get("rivals", []), "rivals")
        if len(self.lovers) > 2:
            fail("lovers: at most 2 pairs")
        in_pairs = [p for pair in self.lovers + self.rivals for p in pair]
        if len(set(in_pairs)) != len(in_pairs):
            fail("a player is in at most one pair")
        self.self_protected_on = {}  # wolfsbane -> night it last protected itself
        self.dead_now = []

    def parse_pairs(self, pairs, where):
        if not isinstance(pairs, list):
            fail(f"{where}: expected a list of pairs")
        out = []
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                fail(f"{where}: a pair is [A, B]")
            a, b = pair
            for p in (a, b):
                if not isinstance(p, str) or p not in self.seat:
                    fail(f"{where}: {p!r} is not a player")
            if a == b:
                fail(f"{where}: a pair needs two players")
            out.append((a, b))
        return out

    def side(self, p):
        if self.roles[p] in ("werewolf", "dark_villager"):
            return "werewolves"
        return "village"

    def star_crossed(self, pair):
        return self.side(pair[0]) != self.side(pair[1])

    def weight(self, p):
        return 2 if self.roles[p] == "mayor" else 1

    def kill(self, victims):
        group = set(victims)
        for a, b in self.lovers:
            if a in group and b in self.alive:
                group.add(b)
            if b in group and a in self.alive:
                group.add(a)
        for p in group:
            self.alive.discard(p)
            self.dead_now.append(p)

    def night(self, body, n):
        where = f"night {n}"
        check_keys(body, ("actions", "on_death"), where)
        self.check_no_reactions(body, where)
        actions = body.get("actions", {})
        if not isinstance(actions, dict):
            fail(f"{where}: actions must be an object")
        self.dead_now = []
        if n == 1:
            if actions:
                fail(f"{where}: oxford night 1 has no actions")
            told = {}
            wolves = [p for p in self.players if self.roles[p] == "werewolf"]
            dark = [p for p in self.players if self.roles[p] == "dark_villager"]
            cultists = [p for p in self.players if self.roles[p] == "cultist"]
            for p in self.players:
                if self.roles[p] in ("werewolf", "dark_villager"):
                    told[p] = {
                        "werewolves": list(wolves),
                        "dark_villager": dark[0] if dark else None,
                    }
                if self.roles[p] == "cultist":
                    told[p] = {"cultists": list(cultists)}
            entry = {"phase": where, "dead": [], "told": told}
            self.check_win(entry)
            return entry

        wolves_alive = [p for p in self.alive if self.roles[p] == "werewolf"]
        super_wolf = len(wolves_alive) == 1
        banes_alive = [p for p in self.alive if self.roles[p] == "wolfsbane"]
        mauls = {}
        protected = set()
        traps = {}
        for actor, act in actions.items():
            self.check_actor(actor, act, where)
            role = self.roles[actor]
            if role == "werewolf":
                check_keys(act, ("maul",), where, required=("maul",))
                self.check_living(act["maul"], where)
                mauls[actor] = act["maul"]
            elif role == "wolfsbane":
                check_keys(act, ("protect",), where, required=("protect",))
                target = act["protect"]
                self.check_living(target, where)
                if target == actor:
                    if len(banes_alive) != 1:
                        fail(
                            f"{where}: {actor} (wolfsbane) protected itself "
                            "with two wolfsbanes alive"
                        )
                    if self.self_protected_on.get(actor) == n - 1:
                        fail(f"{where}: {actor} (wolfsbane) protected itself two nights in a row")
                    self.self_protected_on[actor] = n
                protected.add(target)
            elif role == "trapper":
                check_keys(act, ("trap",), where, required=("trap",))
                self.check_living(act["trap"], where)
                traps[actor] = act["trap"]
            else:
                fail(f"{where}: {actor} ({role}) has no night action")

        hits = {}
        for mauler, target in mauls.items():
            if target not in protected:
                hits[target] = hits.get(target, 0) + (2 if super_wolf else 1)
            for _trapper, trapped in traps.items():
                if trapped == target:
                    hits[mauler] = hits.get(mauler, 0) + 1
        self.kill([p for p, h in hits.items() if h >= 2])
        injured = [p for p, h in hits.items() if h == 1 and p in self.alive]
        entry = {
            "phase": where,
            "dead": self.in_seats(self.dead_now),
            "told": {},
            "injured": self.in_seats(injured),
        }
        self.check_win(entry)
        return entry

    def day(self, body, n):
        where = f"day {n}"
        check_keys(body, ("events", "on_death"), where)
        self.check_no_reactions(body, where)
        events = body.get("events", [])
        if not isinstance(events, list):
            fail(f"{where}: events must be a list")
        self.dead_now = []
        entry = {"phase": where, "dead": [], "calls": []}
        for event in events:
            self.day_event(event, entry, where)
        entry["dead"] = self.in_seats(self.dead_now)
        return entry

    def day_event(self, event, entry, where):
        if self.winner is not None:
            fail(f"{where}: an event after the game ended")
        if not isinstance(event, dict) or len(event) != 1:
            fail(f"{where}: an event is an object with one key")
        ((kind, value),) = event.items()
        if kind == "shoot":
            check_keys(value, ("by", "target"), where, required=("by", "target"))
            by, target = value["by"], value["target"]
            self.check_living(by, where)
            if by not in self.unfired:
                fail(f"{where}: {by} has no unfired crossbow")
            self.check_living(target, where)
            if target == by:
                fail(f"{where}: {by} shot themselves")
            self.unfired.discard(by)
            self.kill([target])
        elif kind == "call":
            check_keys(
                value,
                ("accused", "by", "second", "yes"),
                where,
                required=("accused", "by", "second", "yes"),
            )
            accused, by, second, yes = value["accused"], value["by"], value["second"], value["yes"]
            for p in (accused, by, second):
                self.check_living(p, where)
            if len({accused, by, second}) != 3:
                fail(f"{where}: a call needs three different players")
            if not isinstance(yes, list):
                fail(f"{where}: yes must be a list")
            for p in yes:
                self.check_living(p, where)
            if len(set(yes)) != len(yes):
                fail(f"{where}: a yes vote is repeated")
            yes_weight = sum(self.weight(p) for p in yes)
            no_weight = sum(self.weight(p) for p in self.alive if p not in yes)
            executed = yes_weight > no_weight
            entry["calls"].append(
                {"accused": accused, "yes": yes_weight, "no": no_weight, "executed": executed}
            )
            if executed:
                self.kill([accused])
        elif kind == "smite":
            self.check_living(value, where)
            self.kill([value])
        else:
            fail(f"{where}: unknown event {kind!r}")
        self.check_win(entry)

    def check_win(self, entry):
        winner = None
        living = self.in_seats(self.alive)
        if len(living) == 2 and any(
            set(pair) == set(living) and self.star_crossed(pair) for pair in self.lovers
        ):
            winner = "lovers"
        elif not any(self.roles[p] == "werewolf" for p in living):
            winner = "village"
        else:
            wolf_votes = sum(self.weight(p) for p in living if self.side(p) == "werewolves")
            other_votes = sum(self.weight(p) for p in living if self.side(p) == "village")
            armed = any(p in self.unfired for p in living if self.side(p) == "village")
            if wolf_votes >= other_votes and not armed:
                winner = "werewolves"
        if winner is not None:
            self.winner = winner
            entry["winner"] = winner

    def living_rival_pairs(self):
        return [
            self.in_seats(pair)
            for pair in self.rivals
            if pair[0] in self.alive and pair[1] in self.alive
        ]

    def winners(self):
        living = self.in_seats(self.alive)
        if self.winner == "lovers":
            return living
        out = []
        for p in living:
            if self.side(p) != self.winner:
                continue
            if any(p in pair and self.star_crossed(pair) for pair in self.lovers):
                continue
            if any(p in pair for pair in self.living_rival_pairs()):
                continue
            out.append(p)
        return out

    def output(self):
        out = super().output()
        if self.winner is not None and self.living_rival_pairs():
            out["duel"] = self.living_rival_pairs()
        return out


# =====================================================================================
# classic -- rules/004
# =====================================================================================


class ClassicGame(Game):
    ROLES = CLASSIC_ROLES

    def __init__(self, s):
        super().__init__(s)
        for role in CLASSIC_ROLES:
            if role in ("werewolf", "villager"):
                continue
            if sum(1 for p in self.players if self.roles[p] == role) > 1:
                fail(f"deal: at most one {role}")
        if not any(self.roles[p] in WOLF_CAMP for p in self.players):
            fail("deal: nobody in the werewolf camp")
        if not any(self.roles[p] not in WOLF_CAMP for p in self.players):
            fail("deal: nobody in the good camp")
        self.sheriff = None
        self.antidote_used = False
        self.poison_used = False
        self.last_guard = None
        self.charmed = None
        self.idiots_revealed = set()
        self.duel_used = False
        self.previous_day_eliminated = None
        self.begin_phase({})

    def parse_options(self, options):
        if not isinstance(options, dict):
            fail("options: expected an object")
        out = dict(CLASSIC_OPTIONS)
        for key, value in options.items():
            if key not in CLASSIC_OPTIONS:
                fail(f"options: unknown option {key!r}")
            if key == "victory":
                if value not in ("side", "total") or not isinstance(value, str):
                    fail(f"options: bad victory {value!r}")
            elif not isinstance(value, bool):
                fail(f"options: {key} takes true or false")
            out[key] = value
        return out

    def role_of(self, p):
        return self.roles[p]

    def camp(self, p):
        return "werewolves" if self.roles[p] in WOLF_CAMP else "good"

    # -- deaths and reactions ----------------------------------------------------------
    def begin_phase(self, on_death):
        if not isinstance(on_death, dict):
            fail("on_death must be an object")
        self.on_death = on_death
        self.used_reactions = set()
        self.dead_now = []
        self.poisoned = set()
        self.counter_injured = set()
        self.exploded = set()
        self.killed_by_wolves = set()
        self.won_now = False

    def reaction(self, player, key, allowed):
        """The reaction `key` of a dying player, or MISSING.  `allowed` is unused here
        (generate.py overrides this method to decide reactions)."""
        entry = self.on_death.get(player)
        if not isinstance(entry, dict) or key not in entry:
            return MISSING
        self.used_reactions.add((player, key))
        return entry[key]

    def may_shoot(self, p):
        role = self.roles[p]
        if role not in ("hunter", "wolf_king"):
            return False
        if p in self.poisoned or p in self.counter_injured:
            return False
        if role == "wolf_king" and p in self.exploded:
            return False
        return not (
            role == "wolf_king"
            and p in self.killed_by_wolves
            and not self.options["wolf_king_shoots_if_killed_by_wolves"]
        )

    def kill_group(self, victims, where):
        group = []
        for p in victims:
            if p in self.alive and p not in group:
                group.append(p)
        for p in group:
            self.alive.discard(p)
        if any(self.roles[p] == "wolf_beauty" for p in group):  # noqa: SIM102 - as FORMAT reads
            if self.charmed is not None and self.charmed in self.alive:
                group.append(self.charmed)
                self.alive.discard(self.charmed)
        if not group:
            return
        self.dead_now.extend(group)
        dying_sheriff = self.sheriff if self.sheriff in group else None
        if dying_sheriff is not None:
            self.sheriff = None
        winner = self.classic_winner()
        if winner is not None:
            self.winner = winner
            self.won_now = True
            return
        if dying_sheriff is not None:
            badge = self.reaction(dying_sheriff, "badge", True)
            if badge is not MISSING and badge is not None:
                self.check_living(badge, where)
                self.sheriff = badge
        for p in self.in_seats(group):
            may = self.may_shoot(p)
            shot = self.reaction(p, "shoot", may)
            if shot is MISSING:
                continue
            if not may:
                fail(f"{where}: {p} ({self.roles[p]}) may not shoot")
            self.check_living(shot, where)
            self.kill_group([shot], where)
            if self.winner is not None:
                return

    def finish_reactions(self, where):
        for p, entry in self.on_death.items():
            if not isinstance(p, str) or p not in self.seat:
                fail(f"{where}: on_death: {p!r} is not a player")
            if not isinstance(entry, dict) or not entry:
                fail(f"{where}: on_death: {p} has an empty or malformed reaction")
            for key in entry:
                if key not in ("shoot", "badge"):
                    fail(f"{where}: on_death: unknown reaction {key!r}")
                if (p, key) not in self.used_reactions:
                    fail(f"{where}: on_death: {p}'s {key} cannot take effect")

    def classic_winner(self):
        if not self.alive:
            return "none"
        wolves_alive = [p for p in self.alive if self.roles[p] in WOLF_CAMP]
        if not wolves_alive:
            return "good"
        if self.options["victory"] == "side":
            for group in (DIVINE, COMMONER):
                dealt = [p for p in self.players if self.roles[p] in group]
                if dealt and not any(p in self.alive for p in dealt):
                    return "werewolves"
        else:
            if not any(p in self.alive for p in self.players if self.roles[p] not in WOLF_CAMP):
                return "werewolves"
        return None

    def winners(self):
        if self.winner == "none":
            return []
        return [p for p in self.players if self.camp(p) == self.winner]

    # -- night ---------------------------------------------------------------------------
    def killers_at_nightfall(self):
        camp_alive = [p for p in self.alive if self.roles[p] in WOLF_CAMP]
        main = [p for p in camp_alive if self.roles[p] not in ("hidden_wolf", "stone_ghost")]
        killers = set(main)
        if not main:
            killers |= {p for p in camp_alive if self.roles[p] == "hidden_wolf"}
        if len(camp_alive) == 1 and self.roles[camp_alive[0]] == "stone_ghost":
            killers.add(camp_alive[0])
        return killers, camp_alive

    def night(self, body, n):
        where = f"night {n}"
        check_keys(body, ("actions", "on_death"), where)
        self.begin_phase(body.get("on_death", {}))
        actions = body.get("actions", {})
        if not isinstance(actions, dict):
            fail(f"{where}: actions must be an object")
        killers, camp_alive = self.killers_at_nightfall()

        kills = {}
        charm = None
        witch = None
        witch_act = None
        seer_check = None  # (seer, target)
        ghost_check = None  # (stone ghost, target)
        guard = None  # (guardian, target)
        silenced = None
        for actor, act in actions.items():
            self.check_actor(actor, act, where)
            role = self.roles[actor]
            allowed = []
            if actor in killers:
                allowed.append("kill")
            if role == "wolf_beauty":
                allowed.append("charm")
            if role == "witch":
                allowed += ["save", "poison"]
            if role == "seer":
                allowed.append("check")
            if role == "stone_ghost" and len(camp_alive) > 1:
                allowed.append("check")
            if role == "guardian":
                allowed.append("guard")
            if role == "silencer":
                allowed.append("silence")
            if not allowed:
                fail(f"{where}: {actor} ({role}) has no night action")
            check_keys(act, allowed, where)
            if "kill" in act:
                self.check_living(act["kill"], where)
                kills[actor] = act["kill"]
            if "charm" in act:
                self.check_living(act["charm"], where)
                if act["charm"] == actor:
                    fail(f"{where}: {actor} (wolf_beauty) charmed herself")
                charm = act["charm"]
            if role == "witch":
                if len(act) != 1:
                    fail(f"{where}: {actor} (witch) used two potions in one night")
                witch = actor
                witch_act = act
            if "check" in act:
                self.check_living(act["check"], where)
                if act["check"] == actor:
                    fail(f"{where}: {actor} ({role}) checked themselves")
                if role == "seer":
                    seer_check = (actor, act["check"])
                else:
                    ghost_check = (actor, act["check"])
            if "guard" in act:
                self.check_living(act["guard"], where)
                guard = (actor, act["guard"])
            if "silence" in act:
                self.check_living(act["silence"], where)
                if act["silence"] == actor:
                    fail(f"{where}: {actor} (silencer) silenced themselves")
                silenced = act["silence"]

        if len(set(kills.values())) > 1:
            fail(f"{where}: the killers named different players")
        attacked = next(iter(kills.values())) if kills else None

        # guardian
        guarded = None
        if guard is not None:
            guarded = guard[1]
            if not self.options["guardian_repeat"] and self.last_guard == guarded:
                fail(f"{where}: {guard[0]} (guardian) guarded {guarded} the night before")
        self.last_guard = guarded

        # witch
        told = {}
        saved = False
        poisoned = None
        for p in self.players:
            if self.roles[p] == "witch" and p in self.alive and not self.antidote_used:
                told[p] = {"attacked": attacked}
        if witch_act is not None:
            if "save" in witch_act:
                if witch_act["save"] is not True:
                    fail(f"{where}: save takes only true")
                if self.antidote_used:
                    fail(f"{where}: {witch} (witch) has no antidote left")
                if attacked is None:
                    fail(f"{where}: {witch} (witch) saved but nobody was attacked")
                if attacked == witch and not (
                    n == 1 and self.options["witch_self_save_first_night"]
                ):
                    fail(f"{where}: {witch} (witch) may not save herself")
                self.antidote_used = True
                saved = True
            if "poison" in witch_act:
                target = witch_act["poison"]
                self.check_living(target, where)
                if target == witch:
                    fail(f"{where}: {witch} (witch) poisoned herself")
                if self.poison_used:
                    fail(f"{where}: {witch} (witch) has no poison left")
                self.poison_used = True
                poisoned = target

        # seer, stone ghost, grave keeper
        counter_seer = None
        if seer_check is not None:
            seer, target = seer_check
            role = self.roles[target]
            if role == "wraith_rider":
                counter_seer = seer
            else:
                if role in WOLF_CAMP and not (role == "hidden_wolf" and target not in killers):
                    result = "werewolf"
                else:
                    result = "good"
                told.setdefault(seer, {})["seen"] = {target: result}
        if ghost_check is not None:
            ghost, target = ghost_check
            told.setdefault(ghost, {})["seen"] = {target: self.roles[target]}
        previous = self.previous_day_eliminated
        if previous is not None:
            for p in self.players:
                if self.roles[p] == "grave_keeper" and p in self.alive:
                    result = "werewolf" if self.roles[previous] in WOLF_CAMP else "good"
                    told.setdefault(p, {})["seen"] = {previous: result}

        if charm is not None:
            self.charmed = charm

        # daybreak
        dying = []
        if attacked is not None:
            is_guarded = guarded == attacked
            if is_guarded == saved:
                dying.append(attacked)
                self.killed_by_wolves.add(attacked)
        if poisoned is not None:
            if self.roles[poisoned] == "wraith_rider":
                dying.append(witch)
                self.counter_injured.add(witch)
            else:
                dying.append(poisoned)
                self.poisoned.add(poisoned)
        if counter_seer is not None:
            dying.append(counter_seer)
            self.counter_injured.add(counter_seer)
        self.kill_group(dying, where)
        self.finish_reactions(where)

        entry = {
            "phase": where,
            "dead": self.in_seats(self.dead_now),
            "told": told,
            "attacked": attacked,
            "silenced": silenced,
        }
        if self.won_now:
            entry["winner"] = self.winner
        return entry

    # -- day -----------------------------------------------------------------------------
    def day(self, body, n):
        where = f"day {n}"
        check_keys(body, ("sheriff_votes", "events", "votes", "tie_break", "on_death"), where)
        self.begin_day(body.get("on_death", {}), n)
        if "sheriff_votes" in body:
            self.sheriff_election(body["sheriff_votes"])
        events = body.get("events", [])
        if not isinstance(events, list):
            fail(f"{where}: events must be a list")
        for event in events:
            self.day_event(event)
        if "votes" in body:
            self.day_votes(body["votes"])
        if "tie_break" in body:
            self.day_tie_break(body["tie_break"])
        return self.end_day()

    def begin_day(self, on_death, n):
        self.where = f"day {n}"
        self.day_number = n
        self.begin_phase(on_death)
        self.day_ended = False
        self.tally = {}
        self.tied = None
        self.eliminated = None
        self.idiot_now = None

    def sheriff_election(self, sheriff_votes):
        where = self.where
        if self.day_number != 1:
            fail(f"{where}: sheriff votes are for day 1 only")
        if not isinstance(sheriff_votes, dict):
            fail(f"{where}: sheriff_votes must be an object")
        counts = {}
        for voter, candidate in sheriff_votes.items():
            self.check_living(voter, where)
            self.check_living(candidate, where)
            counts[candidate] = counts.get(candidate, 0) + 1
        if counts:
            top = max(counts.values())
            leaders = [c for c, k in counts.items() if k == top]
            if len(leaders) == 1:
                self.sheriff = leaders[0]

    def day_event(self, event):
        where = self.where
        if self.winner is not None:
            fail(f"{where}: an event after the game ended")
        if self.day_ended:
            fail(f"{where}: an event after the day ended")
        if not isinstance(event, dict) or len(event) != 1:
            fail(f"{where}: an event is an object with one key")
        ((kind, value),) = event.items()
        if kind == "duel":
            check_keys(value, ("by", "target"), where, required=("by", "target"))
            knight, target = value["by"], value["target"]
            self.check_living(knight, where)
            if self.roles[knight] != "knight":
                fail(f"{where}: {knight} is not the knight")
            if self.duel_used:
                fail(f"{where}: the knight has already duelled")
            self.check_living(target, where)
            if target == knight:
                fail(f"{where}: {knight} (knight) duelled himself")
            self.duel_used = True
            if self.roles[target] in WOLF_CAMP:
                self.kill_group([target], where)
                if self.options["knight_duel_ends_day"]:
                    self.day_ended = True
            else:
                self.kill_group([knight], where)
        elif kind == "explode":
            check_keys(value, ("by", "target"), where, required=("by",))
            wolf = value["by"]
            self.check_living(wolf, where)
            if self.roles[wolf] not in WOLF_CAMP:
                fail(f"{where}: {wolf} is not a werewolf")
            victims = [wolf]
            if "target" in value:
                if self.roles[wolf] != "white_wolf_king":
                    fail(f"{where}: only the white wolf king takes a target")
                target = value["target"]
                self.check_living(target, where)
                if target == wolf:
                    fail(f"{where}: {wolf} named himself")
                victims.append(target)
            self.exploded.add(wolf)
            self.day_ended = True
            self.kill_group(victims, where)
        else:
            fail(f"{where}: unknown event {kind!r}")

    def day_votes(self, votes):
        where = self.where
        if not isinstance(votes, dict):
            fail(f"{where}: votes must be an object")
        if votes and (self.winner is not None or self.day_ended):
            fail(f"{where}: a vote after the day ended")
        tally = {}
        for voter, target in votes.items():
            self.check_living(voter, where)
            if voter in self.idiots_revealed:
                fail(f"{where}: {voter} (revealed idiot) has no vote")
            self.check_living(target, where)
            weight = 1.5 if voter == self.sheriff else 1
            tally[target] = tally.get(target, 0) + weight
        self.tally = tally
        if tally:
            top = max(tally.values())
            leaders = [t for t, w in tally.items() if w == top]
            if len(leaders) == 1:
                self.eliminate(leaders[0])
            else:
                self.tied = leaders

    def day_tie_break(self, name):
        where = self.where
        if name is None:
            return
        if self.tied is None:
            fail(f"{where}: a tie break without a tie")
        if self.sheriff is None:
            fail(f"{where}: a tie break without a living sheriff")
        if name not in self.tied:
            fail(f"{where}: the tie break {name!r} is not one of the tied")
        self.eliminate(name)

    def eliminate(self, p):
        self.eliminated = p
        if self.roles[p] == "idiot" and p not in self.idiots_revealed:
            self.idiots_revealed.add(p)
            self.idiot_now = p
        else:
            self.kill_group([p], self.where)

    def end_day(self):
        where = self.where
        self.finish_reactions(where)
        self.previous_day_eliminated = self.eliminated
        entry = {
            "phase": where,
            "dead": self.in_seats(self.dead_now),
            "sheriff": self.sheriff,
            "tally": {t: number(w) for t, w in self.tally.items()},
            "eliminated": self.eliminated,
        }
        if self.idiot_now is not None:
            entry["idiot_revealed"] = self.idiot_now
        if self.won_now:
            entry["winner"] = self.winner
        return entry


GAMES = {"forum": ForumGame, "oxford": OxfordGame, "classic": ClassicGame}


def new_game(scenario):
    """Validate the header of a scenario and return the game object (no phases played)."""
    if not isinstance(scenario, dict):
        fail("a scenario is a JSON object")
    ruleset = scenario.get("ruleset")
    if not isinstance(ruleset, str) or ruleset not in GAMES:
        fail(f"unknown ruleset {ruleset!r}")
    return GAMES[ruleset](scenario)


def play(scenario):
    game = new_game(scenario)
    game.run(scenario.get("phases", []))
    return game.output()
