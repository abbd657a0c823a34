"""The table and the deck: who sits down, which cards are used and how they are dealt.

rules/000 section 3a: three more cards than players; the three left over go to the centre at the
fixed positions left, middle and right. Limits per role come from `roles.role_limits`.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from games.words import _, ngettext

from .artifacts import ARTIFACT_PILE, Artifact
from .errors import InvalidDeckError, InvalidPlayersError, shown
from .roles import CENTRE_POSITIONS, CENTRE_WOLF, EXPANSION_ROLES, Role, Ruleset, role_limits
from .roles_vampire import VAMPIRE_ROLES

MIN_PLAYERS = 3
MAX_PLAYERS = 13
CENTRE_SIZE = len(CENTRE_POSITIONS)
MAX_NAME_LENGTH = 24


def validate_player_name(name: object) -> str:
    """Check one player's name: non-empty, not padded, short, and not a centre position."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidPlayersError(_("Every player needs a name that is not empty."))
    if name != name.strip():
        raise InvalidPlayersError(
            _("The name %(name)s starts or ends with a space.") % {"name": shown(name)}
        )
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidPlayersError(
            ngettext(
                "The name %(name)s is longer than %(limit)d character.",
                "The name %(name)s is longer than %(limit)d characters.",
                MAX_NAME_LENGTH,
            )
            % {"name": shown(name), "limit": MAX_NAME_LENGTH}
        )
    if not name.isprintable():
        raise InvalidPlayersError(_("A name cannot contain control characters."))
    if name.lower() in CENTRE_POSITIONS or name.lower() == CENTRE_WOLF:
        raise InvalidPlayersError(
            # Translators: %(name)s is the name typed, in quotes ("left", "middle" or "right").
            _("%(name)s names a centre card; pick another name for that player.")
            % {"name": repr(name)}
        )
    return name


def validate_players(players: Sequence[str], *, strict: bool = True) -> tuple[str, ...]:
    """Check the seats: 3 to 13 distinct names.

    `strict` (the web app): every name passes `validate_player_name` and names are compared
    ignoring case, so that "ann" and "Ann" cannot both sit down (players name each other in chat
    and would be confused). Not strict (the scenario format, FORMAT.md): any non-empty, distinct
    strings other than the centre positions left, middle and right.
    """
    if not isinstance(players, list | tuple):
        raise InvalidPlayersError(_("The players must be a list of names."))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidPlayersError(
            _("A game needs %(least)d to %(most)d players, not %(count)d.")
            % {"least": MIN_PLAYERS, "most": MAX_PLAYERS, "count": len(players)}
        )
    seen: set[str] = set()
    for name in players:
        if strict:
            validate_player_name(name)
            key = name.casefold()
        elif not isinstance(name, str) or not name:
            raise InvalidPlayersError(_("Every player needs a name that is not empty."))
        elif name in CENTRE_POSITIONS or name == CENTRE_WOLF:
            raise InvalidPlayersError(
                _("%(name)s names a centre card; pick another name.") % {"name": shown(name)}
            )
        else:
            key = name
        if key in seen:
            raise InvalidPlayersError(_("Two players are called %(name)s.") % {"name": shown(name)})
        seen.add(key)
    return tuple(players)


def max_players(ruleset: Ruleset) -> int:
    """The largest table the ruleset's base cards allow (house: 15 cards, so 12 players;
    official: 16 with the Doppelganger, and 13 is the most). The expansions' cards do not
    raise it: a house table stays the group's base game, which they only vary (docs/rules.md
    8a.8)."""
    base = sum(n for role, n in role_limits(ruleset).items() if role not in EXPANSION_ROLES)
    return min(MAX_PLAYERS, base - CENTRE_SIZE)


def parse_role(name: object) -> Role:
    """The role with this lower-case name, or an error naming the unknown card."""
    if isinstance(name, str):
        try:
            return Role(name)
        except ValueError:
            pass
    raise InvalidDeckError(_("%(name)s is not a role of this game.") % {"name": shown(name)})


def not_in_rules(role: Role, ruleset: Ruleset) -> str:
    """Why a deck may not hold `role` ("The Doppelganger is not used in the house rules.")."""
    if ruleset is Ruleset.HOUSE and role in VAMPIRE_ROLES:
        # docs/rules.md 8a.8: Daybreak's cards may be added to a house deck, Vampire's not.
        # Translators: %(role)s is a card's name (the Copycat, a Vampire card).
        return _(
            "The %(role)s plays with the official rules only: Vampire's cards change how the"
            " game is won, and the house rules keep their own."
        ) % {"role": role.title}
    if ruleset is Ruleset.HOUSE:
        # Translators: %(role)s is a card's name.
        return _("The %(role)s is not used in the house rules.") % {"role": role.title}
    # Translators: %(role)s is a card's name.
    return _("The %(role)s is not used in the official rules.") % {"role": role.title}


def validate_deck(ruleset: Ruleset, cards: Iterable[Role], player_count: int) -> Counter[Role]:
    """Check that `cards` are a legal deck for `player_count` players under `ruleset`.

    Rules: players + 3 cards (rules/000 s3a, rules/002 s3); at most 2 werewolves, 2 masons and
    3 villagers and one of every other role (rules/000 s4); the Doppelganger only in the official
    rules (rules/000 s4 leaves it out); official masons come as a pair (rules/002 s5: "Both Mason
    cards must be in play").
    """
    counts = Counter(cards)
    # Daybreak: the Alpha Wolf brings one more werewolf card, set apart in the centre.
    extra = wolf_card_count(counts)
    expected = player_count + CENTRE_SIZE + extra
    total = sum(counts.values())
    if extra and total == expected and counts[Role.WEREWOLF] == 0:
        raise InvalidDeckError(
            _("The Alpha Wolf needs a werewolf card set apart in the centre: add a werewolf.")
        )
    if total != expected:
        raise InvalidDeckError(
            ngettext(
                "%(players)d players need %(cards)d cards (one each and three in the centre),"
                " but %(total)d were chosen.",
                "%(players)d players need %(cards)d cards (one each and three in the centre),"
                " but %(total)d were chosen.",
                total,
            )
            % {"players": player_count, "cards": expected, "total": total}
        )
    limits = role_limits(ruleset)
    for role, count in counts.items():
        limit = limits.get(role, 0)
        if role is Role.WEREWOLF and limit:
            limit += extra
        if limit == 0:
            raise InvalidDeckError(not_in_rules(role, ruleset))
        if count > limit:
            raise InvalidDeckError(
                ngettext(
                    "The deck may hold only one copy of the %(role)s.",
                    "The deck may hold only %(count)d copies of the %(role)s.",
                    limit,
                )
                % {"count": limit, "role": role.title}
            )
    if ruleset is Ruleset.OFFICIAL and counts[Role.MASON] == 1:
        raise InvalidDeckError(_("The official rules use both Mason cards or neither."))
    return counts


def wolf_card_count(cards: Mapping[Role, int]) -> int:
    """1 when the deck holds Daybreak's Alpha Wolf (its centre werewolf card), else 0."""
    return 1 if cards.get(Role.ALPHA_WOLF, 0) else 0


@dataclass(frozen=True, slots=True)
class Deal:
    """Who holds which card at the start of the night.

    `cards` maps every player name and every centre position to the card dealt there (with
    the Alpha Wolf, `CENTRE_WOLF` too: the centre werewolf card). `artifacts` is Daybreak's
    artifact pile, in the order the Curator draws it (empty without a Curator).
    """

    ruleset: Ruleset
    players: tuple[str, ...]
    cards: Mapping[str, Role]
    artifacts: tuple[Artifact, ...] = ()
    _dealt: Mapping[Role, tuple[str, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", MappingProxyType(dict(self.cards)))
        dealt: dict[Role, list[str]] = {}
        for player in self.players:
            dealt.setdefault(self.cards[player], []).append(player)
        object.__setattr__(self, "_dealt", {r: tuple(p) for r, p in dealt.items()})

    @property
    def positions(self) -> tuple[str, ...]:
        """Every place a card lies: the seats in order, then left, middle, right (and the
        centre werewolf card, with the Alpha Wolf)."""
        if CENTRE_WOLF in self.cards:
            return (*self.players, *CENTRE_POSITIONS, CENTRE_WOLF)
        return self.players + CENTRE_POSITIONS

    def players_dealt(self, role: Role) -> tuple[str, ...]:
        """The players (in seat order) whose start card is `role`."""
        return self._dealt.get(role, ())


def make_deal(
    ruleset: Ruleset,
    players: Sequence[str],
    cards: Mapping[str, object],
    *,
    strict: bool = True,
    artifacts: Sequence[Artifact] | None = None,
) -> Deal:
    """A validated Deal from a position → card mapping (used by scenarios and the database).

    `strict` applies the web app's name rules (see `validate_players`). With the Alpha Wolf the
    mapping also holds `CENTRE_WOLF`, a werewolf. `artifacts` is the Curator's pile (default:
    the printed order, when a Curator or Doppelganger is dealt).
    """
    table = validate_players(players, strict=strict)
    expected = set(table) | set(CENTRE_POSITIONS)
    given = set(cards)
    missing = [p for p in (*table, *CENTRE_POSITIONS) if p not in given]
    if missing:
        raise InvalidDeckError(_("No card was dealt to %(place)s.") % {"place": missing[0]})
    wolf_card = any(cards[p] == Role.ALPHA_WOLF.value for p in (*table, *CENTRE_POSITIONS))
    if wolf_card:
        if CENTRE_WOLF not in given:
            raise InvalidDeckError(
                _("With the Alpha Wolf, deal a werewolf to %(place)s too.") % {"place": CENTRE_WOLF}
            )
        expected.add(CENTRE_WOLF)
    extra = sorted(given - expected)
    if extra:
        raise InvalidDeckError(
            _("A card was dealt to %(name)s, who is not at the table.") % {"name": shown(extra[0])}
        )
    places = (*table, *CENTRE_POSITIONS, *((CENTRE_WOLF,) if wolf_card else ()))
    roles = {p: parse_role(cards[p]) for p in places}
    if wolf_card and roles[CENTRE_WOLF] is not Role.WEREWOLF:
        raise InvalidDeckError(_("The centre werewolf card must be a werewolf."))
    validate_deck(ruleset, roles.values(), len(table))
    if artifacts is None:
        artifacts = ARTIFACT_PILE if _draws_artifacts(roles.values()) else ()
    return Deal(ruleset=ruleset, players=table, cards=roles, artifacts=tuple(artifacts))


def _draws_artifacts(cards: Iterable[Role]) -> bool:
    """A deal whose night may draw an artifact: a Curator, or a Doppelganger that may copy one."""
    dealt = set(cards)
    return Role.CURATOR in dealt


def deal_cards(
    ruleset: Ruleset,
    players: Sequence[str],
    deck: Iterable[Role],
    rng: random.Random | None = None,
) -> Deal:
    """Shuffle `deck` and deal one card to each player and three to the centre.

    The shuffle uses the operating system's secure random source, so nobody can predict a deal
    from earlier ones. Pass `rng` only to make a test reproducible. With the Alpha Wolf one
    werewolf card is set apart as the centre werewolf card; with the Curator the artifact pile
    is shuffled too.
    """
    table = validate_players(players)
    cards = list(deck)
    validate_deck(ruleset, cards, len(table))
    shuffler = rng or secrets.SystemRandom()
    apart: dict[str, Role] = {}
    if wolf_card_count(Counter(cards)):
        cards.remove(Role.WEREWOLF)
        apart[CENTRE_WOLF] = Role.WEREWOLF
    shuffler.shuffle(cards)
    pile: list[Artifact] = []
    if _draws_artifacts(cards):
        pile = list(ARTIFACT_PILE)
        shuffler.shuffle(pile)
    return Deal(
        ruleset=ruleset,
        players=table,
        cards={**dict(zip(table + CENTRE_POSITIONS, cards, strict=True)), **apart},
        artifacts=tuple(pile),
    )


# A sensible starting deck for each table size: the classic base-game mix, growing with the
# table. Hosts change it freely; this is only what the lobby proposes.
_DEFAULT_ORDER: tuple[Role, ...] = (
    Role.WEREWOLF,
    Role.WEREWOLF,
    Role.SEER,
    Role.ROBBER,
    Role.TROUBLEMAKER,
    Role.VILLAGER,
    Role.INSOMNIAC,
    Role.DRUNK,
    Role.MINION,
    Role.TANNER,
    Role.HUNTER,
    Role.MASON,
    Role.MASON,
    Role.VILLAGER,
    Role.VILLAGER,
    Role.DOPPELGANGER,
)


def default_deck(ruleset: Ruleset, player_count: int) -> list[Role]:
    """A legal deck of players + 3 cards for this ruleset (the lobby's proposal).

    Precondition: 3 <= player_count <= max_players(ruleset) (12 for the house rules).
    """
    wanted = player_count + CENTRE_SIZE
    limits = role_limits(ruleset)
    order = [r for r in _DEFAULT_ORDER if r in limits]
    if ruleset is Ruleset.OFFICIAL:
        # The Doppelganger is the official rules' signature card: bring it in early.
        order.remove(Role.DOPPELGANGER)
        order.insert(5, Role.DOPPELGANGER)
    deck = order[:wanted]
    if ruleset is Ruleset.OFFICIAL and deck.count(Role.MASON) == 1:
        # Masons come as a pair in the official rules: swap the lone one for a villager.
        deck[deck.index(Role.MASON)] = Role.VILLAGER
    return deck
