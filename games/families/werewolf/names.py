"""The engine's keys as a reader sees them (docs/i18n.md): a side, a role named inside a
sentence, what an investigator learns, a night or a day, a form's title, a decision awaited.
The keys stay data; these are the words shown for them, in the reader's language (or the
site's, inside `language.shared()`).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from .engine import NOBODY
from .engine.roles import Role
from .engine.state import Phase

# The sides a role plays for, and the side that wins.
SIDES = {
    "village": gettext_lazy("village"),
    "werewolves": gettext_lazy("werewolves"),
    "lunatic": gettext_lazy("lunatic"),
    "lovers": gettext_lazy("lovers"),
    "good": gettext_lazy("good"),
    # Translators: the side that wins when nobody wins (rules/004: "The none win").
    "none": pgettext_lazy("side", "none"),
}

# A role named inside a sentence ("they were the werewolf", "Ann (wolf beauty)"): the lower-case
# word, where the role card's title is a heading.
ROLES = {
    "werewolf": pgettext_lazy("role", "werewolf"),
    "lunatic": pgettext_lazy("role", "lunatic"),
    "seer": pgettext_lazy("role", "seer"),
    "protector": pgettext_lazy("role", "protector"),
    "villager": pgettext_lazy("role", "villager"),
    "dark_villager": pgettext_lazy("role", "dark villager"),
    "wolfsbane": pgettext_lazy("role", "wolfsbane"),
    "trapper": pgettext_lazy("role", "trapper"),
    "vigilante": pgettext_lazy("role", "vigilante"),
    "mayor": pgettext_lazy("role", "mayor"),
    "cultist": pgettext_lazy("role", "cultist"),
    "wolf_beauty": pgettext_lazy("role", "wolf beauty"),
    "white_wolf_king": pgettext_lazy("role", "white wolf king"),
    "hidden_wolf": pgettext_lazy("role", "hidden wolf"),
    "wolf_king": pgettext_lazy("role", "wolf king"),
    "wraith_rider": pgettext_lazy("role", "wraith rider"),
    "stone_ghost": pgettext_lazy("role", "stone ghost"),
    "witch": pgettext_lazy("role", "witch"),
    "hunter": pgettext_lazy("role", "hunter"),
    "guardian": pgettext_lazy("role", "guardian"),
    "knight": pgettext_lazy("role", "knight"),
    "idiot": pgettext_lazy("role", "idiot"),
    "silencer": pgettext_lazy("role", "silencer"),
    "grave_keeper": pgettext_lazy("role", "grave keeper"),
}

# What an investigator is shown ("Ann shows as: werewolf.").
APPEARANCES = {
    "werewolf": pgettext_lazy("appearance", "werewolf"),
    "villager": pgettext_lazy("appearance", "villager"),
    "lunatic": pgettext_lazy("appearance", "lunatic"),
    "good": pgettext_lazy("appearance", "good"),
}


def _known(words: dict, key: str) -> str:
    return str(words[key]) if key in words else key.replace("_", " ")


def side(key: str) -> str:
    """A side's name ("village", "werewolves")."""
    return _known(SIDES, key)


def role(key: str) -> str:
    """A role's name inside a sentence, from its key ("wolf beauty")."""
    return _known(ROLES, key)


def appearance(key: str) -> str:
    """What an investigator learns: how a player shows ("werewolf", "good"), or a role for a
    role-seeing power (rules/004's stone ghost learns roles: "grave keeper")."""
    return _known(APPEARANCES if key in APPEARANCES else ROLES, key)


def title(card: Role) -> str:
    """A role card's title ("Wolf Beauty"), marked by the engine and translated here."""
    return _(card.title) if card.title else ""


def text(message: str) -> str:
    """A sentence the engine marked as a constant (a summary, a cause of death), translated
    where it is shown; "" stays "" (gettext would give the catalogue's header)."""
    return _(message) if message else ""


def phase(at: Phase) -> str:
    """A night or a day ("night 1", "day 2") inside a sentence or as a heading."""
    if at.kind == "night":
        return _("night %(number)d") % {"number": at.number}
    return _("day %(number)d") % {"number": at.number}


def joined(items: tuple[str, ...] | list[str]) -> str:
    """Names in a list whose last needs no "and" ("Ann, Ben, Cat": a tally, a record)."""
    return _(", ").join(items)


def player(name: str | None) -> str:
    """A player named in a vote or a choice; the engine's "nobody" as the reader's word."""
    if name == NOBODY:
        # Translators: the choice of no player at all, in a vote or a night's kill.
        return _("nobody")
    return name or ""


def tally(votes: Mapping[str, float]) -> str:
    """Each player voted for and their votes ("Ann 2, Ben 1"; "" for no votes)."""
    return joined(
        [
            # Translators: one entry of a vote's tally: a player and the votes counted for them.
            _("%(player)s %(votes)s")
            % {"player": player(k), "votes": int(v) if float(v).is_integer() else v}
            for k, v in votes.items()
        ]
    )


# A form's title: what its button does (a night ability, a day's, a decision, a vote).
FORM_TITLES = {
    "kill": gettext_lazy("The pack's victim"),
    "see": gettext_lazy("Investigate"),
    "protect": gettext_lazy("Protect"),
    "maul": gettext_lazy("Maul"),
    "trap": gettext_lazy("Set a trap"),
    "charm": gettext_lazy("Charm"),
    "save": gettext_lazy("Use the antidote"),
    "poison": gettext_lazy("Poison"),
    "check": gettext_lazy("Check"),
    "guard": gettext_lazy("Guard"),
    "silence": gettext_lazy("Silence"),
    # By day, or on death: a form's title, what its button does.
    "shoot": gettext_lazy("Shoot"),
    "explode": gettext_lazy("Explode"),
    "duel": gettext_lazy("Duel"),
    "tie_break": gettext_lazy("Tie break"),
    # Translators: the sheriff's badge, passed on by a dying sheriff (rules/004).
    "badge": gettext_lazy("Badge"),
    # Translators: an open fist in an execution call (rules/003): a vote to execute.
    "yes": pgettext_lazy("fist", "Yes"),
    # Translators: the vote that elects a sheriff (rules/004).
    "sheriff": gettext_lazy("Sheriff"),
    # Translators: an execution call (rules/003): accusing a player.
    "call": pgettext_lazy("execution", "Call"),
    "vote": gettext_lazy("Vote"),
}
# A decision the game waits for: whose, and what.
AWAITED = {
    # Translators: a dead hunter's (or werewolf king's) shot that the game waits for.
    "shoot": gettext_lazy("%(player)s's shot"),
    "badge": gettext_lazy("%(player)s's badge"),
    "tie_break": gettext_lazy("%(player)s's tie break"),
}
WAITING = {
    "shoot": gettext_lazy("Waiting for %(player)s's last shot."),
    "badge": gettext_lazy("Waiting for %(player)s's badge."),
    "tie_break": gettext_lazy("Waiting for %(player)s's tie break."),
}


def form_title(key: str) -> str:
    if key in FORM_TITLES:
        return str(FORM_TITLES[key])
    return key.replace("_", " ").capitalize()


def awaited_phrase(player: str, kind: str, *, sentence: bool = False) -> str:
    """What the game waits for ("Ann's shot"; "Waiting for Ann's last shot." as a sentence)."""
    words = AWAITED if not sentence else WAITING
    if kind in words:
        return str(words[kind]) % {"player": player}
    what = kind.replace("_", " ")
    if sentence:
        return _("Waiting for %(player)s's %(what)s.") % {"player": player, "what": what}
    return _("%(player)s's %(what)s") % {"player": player, "what": what}
