"""The game as dealt: players in seat order, their roles, the options and Fate's extras.

`make_setup` checks everything a deal must satisfy (FORMAT "Minimum deals", each ruleset's role
limits, rules/003's pairs and crossbows) and raises `SetupError` with a readable message.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from games.words import _, ngettext

from .errors import SetupError, shown
from .roles import OXFORD_CROSSBOW, Ability, Role
from .rulesets import RULESETS, Ruleset

NOBODY = "nobody"  # the word for "no one" in votes and kills; never a player's name (FORMAT)
MAX_PAIRS_OF_LOVERS = 2  # FORMAT oxford: "at most 2 pairs"


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything fixed at the start of a game. Build it with `make_setup`."""

    ruleset: Ruleset
    options: Mapping[str, object]
    players: tuple[str, ...]
    roles: Mapping[str, Role]
    crossbows: frozenset[str] = frozenset()  # rules/003: Fate's crossbows (not the vigilante's)
    lovers: tuple[tuple[str, str], ...] = ()
    rivals: tuple[tuple[str, str], ...] = ()
    opens_with: str = "night"
    seats: Mapping[str, int] = field(init=False, repr=False, compare=False)
    _abilities: Mapping[str, tuple[Ability, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        seats = MappingProxyType({player: i for i, player in enumerate(self.players)})
        object.__setattr__(self, "seats", seats)
        abilities = {
            p: (*self.roles[p].abilities, OXFORD_CROSSBOW)
            if p in self.crossbows
            else self.roles[p].abilities
            for p in self.players
        }
        object.__setattr__(self, "_abilities", MappingProxyType(abilities))

    def role(self, player: str) -> Role:
        return self.roles[player]

    def side(self, player: str) -> str:
        return self.roles[player].side

    def in_seat_order(self, players: Iterable[str]) -> list[str]:
        return sorted(set(players), key=self.seats.__getitem__)

    def abilities(self, player: str) -> tuple[Ability, ...]:
        """The player's abilities: their role's, and a crossbow Fate gave them (rules/003)."""
        return self._abilities[player]

    def lover_of(self, player: str) -> str | None:
        for a, b in self.lovers:
            if player == a:
                return b
            if player == b:
                return a
        return None

    def star_crossed(self) -> frozenset[str]:
        """Players in a lover pair whose two members are on opposite sides (rules/003)."""
        return frozenset(p for a, b in self.lovers if self.side(a) != self.side(b) for p in (a, b))

    def dealt(self, *, side: str | None = None, group: str | None = None) -> tuple[str, ...]:
        return tuple(
            p
            for p in self.players
            if (side is None or self.roles[p].side == side)
            and (group is None or self.roles[p].group == group)
        )


def ruleset_named(name: object) -> Ruleset:
    if not isinstance(name, str) or name not in RULESETS:
        raise SetupError(
            f"Unknown ruleset {shown(name)}: use " + ", ".join(f'"{r}"' for r in RULESETS) + "."
        )
    return RULESETS[name]


def check_options(ruleset: Ruleset, given: Mapping[str, object]) -> Mapping[str, object]:
    """The options with defaults filled in; an unknown option or value is an error (FORMAT)."""
    for name, value in given.items():
        option = ruleset.option(name)
        if option is None:
            known = ", ".join(o.name for o in ruleset.options) or "none"
            raise SetupError(
                f"Unknown option {shown(name)} for the {ruleset.name} ruleset (its options: "
                f"{known})."
            )
        if not any(type(value) is type(c) and value == c for c in option.choices):
            choices = ", ".join(_json(c) for c in option.choices)
            raise SetupError(
                f"Option {name} cannot be {shown(value)}: choose one of {choices} "
                f"({option.section})."
            )
    return ruleset.resolve_options(given)


def _json(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return f'"{value}"'


def check_players(ruleset: Ruleset, players: object) -> tuple[str, ...]:
    if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
        raise SetupError('"players" must be a list of names.')
    if not ruleset.min_players <= len(players) <= ruleset.max_players:
        message = _("A game needs %(least)d to %(most)d players, not %(count)d.")
        raise SetupError(
            message
            % {"least": ruleset.min_players, "most": ruleset.max_players, "count": len(players)}
        )
    seen: set[str] = set()
    for name in players:
        if not name:
            raise SetupError(_("A player's name cannot be empty."))
        if name == NOBODY:
            # Translators: %(nobody)s is the program's word for no one ("nobody"), quoted.
            message = _("%(nobody)s is the word for no one, not a name.")
            raise SetupError(message % {"nobody": f'"{NOBODY}"'})
        if name in seen:
            message = _("Two players are called %(name)s: names must differ.")
            raise SetupError(message % {"name": shown(name)})
        seen.add(name)
    return tuple(players)


def check_roles(ruleset: Ruleset, players: tuple[str, ...], roles: object) -> Mapping[str, Role]:
    if not isinstance(roles, Mapping):
        raise SetupError('"roles" must give every player a role.')
    for name in roles:
        if name not in players:
            raise SetupError(f"{shown(name)} has a role but is not a player.")
    dealt: dict[str, Role] = {}
    for player in players:
        if player not in roles:
            raise SetupError(f"{player} has no role.")
        name = roles[player]
        role = ruleset.roles.get(name) if isinstance(name, str) else None
        if role is None:
            known = ", ".join(ruleset.roles)
            raise SetupError(
                f"{player}: {shown(name)} is not a role of the {ruleset.name} ruleset "
                f"(its roles: {known})."
            )
        dealt[player] = role
    counts = Counter(role.name for role in dealt.values())
    for name, count in counts.items():
        limit = ruleset.roles[name].limit
        if limit is not None and count > limit:
            role = ruleset.roles[name]
            message = ngettext(
                # Translators: %(role)s is the role's name ("Seer"), %(ruleset)s the ruleset's key
                # word ("classic"), %(section)s the rule's section.
                "At most %(limit)d %(role)s in a %(ruleset)s game, not %(count)d (%(section)s).",
                "At most %(limit)d %(role)s in a %(ruleset)s game, not %(count)d (%(section)s).",
                limit,
            )
            values = {"role": _(role.title), "ruleset": ruleset.name, "section": role.section}
            raise SetupError(message % {"limit": limit, "count": count, **values})
    _check_minimum_deal(ruleset, dealt)
    return MappingProxyType(dealt)


def _check_minimum_deal(ruleset: Ruleset, dealt: Mapping[str, Role]) -> None:
    """FORMAT "Minimum deals": forum: a werewolf, fewer werewolves than others; oxford: a
    werewolf; classic: someone in each camp."""
    if ruleset.name == "classic":
        if not any(role.side == "werewolves" for role in dealt.values()):
            raise SetupError(_("A classic game needs at least one player of the werewolves camp."))
        if not any(role.side == "good" for role in dealt.values()):
            raise SetupError(_("A classic game needs at least one player of the good camp."))
        return
    wolves = sum(1 for role in dealt.values() if role.name == "werewolf")
    if wolves == 0:
        # Translators: %(ruleset)s is the ruleset's key word ("forum", "oxford").
        message = _("A %(ruleset)s game needs at least one werewolf.")
        raise SetupError(message % {"ruleset": ruleset.name})
    if ruleset.name == "forum" and wolves >= len(dealt) - wolves:
        message = _(
            "A forum game needs fewer werewolves than other players, not %(wolves)d of "
            "%(players)d (001)."
        )
        raise SetupError(message % {"wolves": wolves, "players": len(dealt)})


def _check_pairs(
    players: tuple[str, ...], value: object, what: str, taken: set[str]
) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list | tuple):
        raise SetupError(f'"{what}" must be a list of pairs of players.')
    pairs: list[tuple[str, str]] = []
    for pair in value:
        if (
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or not all(isinstance(p, str) for p in pair)
        ):
            raise SetupError(f'Each pair of "{what}" must be two players, not {shown(pair)}.')
        a, b = pair
        for p in (a, b):
            if p not in players:
                raise SetupError(f'{shown(p)} in "{what}" is not a player.')
        if a == b:
            if what == "lovers":
                message = _("%(player)s cannot be paired with themselves (lovers).")
            else:
                message = _("%(player)s cannot be paired with themselves (rivals).")
            raise SetupError(message % {"player": a})
        for p in (a, b):
            if p in taken:
                message = _("%(player)s is in two pairs: a player is in at most one (003).")
                raise SetupError(message % {"player": p})
            taken.add(p)
        pairs.append((a, b))
    return tuple(pairs)


def make_setup(
    ruleset: object,
    players: object,
    roles: object,
    options: object = None,
    *,
    crossbows: object = None,
    lovers: object = None,
    rivals: object = None,
    opens_with: str = "night",
) -> Setup:
    """A checked `Setup`. Raises SetupError naming what is wrong."""
    rules = ruleset_named(ruleset)
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise SetupError('"options" must be an object of named options.')
    chosen = check_options(rules, options)
    seated = check_players(rules, players)
    dealt = check_roles(rules, seated, roles)
    if opens_with not in rules.opens_with:
        # Translators: %(ruleset)s is the ruleset's key word ("oxford", "classic").
        message = _("A %(ruleset)s game opens with a night.")
        raise SetupError(message % {"ruleset": rules.name})
    bows: frozenset[str] = frozenset()
    love: tuple[tuple[str, str], ...] = ()
    rivalry: tuple[tuple[str, str], ...] = ()
    if rules.has_pairs:
        bows = _check_crossbows(seated, dealt, crossbows if crossbows is not None else [])
        taken: set[str] = set()
        love = _check_pairs(seated, lovers if lovers is not None else [], "lovers", taken)
        if len(love) > MAX_PAIRS_OF_LOVERS:
            message = ngettext(
                "At most %(most)d pair of lovers (003 Lover Deck).",
                "At most %(most)d pairs of lovers (003 Lover Deck).",
                MAX_PAIRS_OF_LOVERS,
            )
            raise SetupError(message % {"most": MAX_PAIRS_OF_LOVERS})
        rivalry = _check_pairs(seated, rivals if rivals is not None else [], "rivals", taken)
    return Setup(
        ruleset=rules,
        options=chosen,
        players=seated,
        roles=dealt,
        crossbows=bows,
        lovers=love,
        rivals=rivalry,
        opens_with=opens_with,
    )


def _check_crossbows(
    players: tuple[str, ...], dealt: Mapping[str, Role], value: object
) -> frozenset[str]:
    if not isinstance(value, list | tuple) or not all(isinstance(p, str) for p in value):
        raise SetupError('"crossbows" must be a list of players.')
    for p in value:
        if p not in players:
            raise SetupError(f'{shown(p)} in "crossbows" is not a player.')
        if dealt[p].side != "werewolves":
            message = _(
                # Translators: %(player)s is "Ann (Seer)": the player and their role.
                "%(player)s cannot be given a crossbow: Fate gives them only to werewolves or "
                "the dark villager (003 Werewolf Vigilante, Dark Villager)."
            )
            # Translators: a player named with their role in a refusal, e.g. "Ann (Seer)".
            player = _("%(player)s (%(role)s)") % {"player": p, "role": _(dealt[p].title)}
            raise SetupError(message % {"player": player})
    if len(set(value)) != len(value):
        raise SetupError('A player is listed twice in "crossbows".')
    return frozenset(value)
