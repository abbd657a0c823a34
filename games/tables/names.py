"""Players' names: how a typed name is cleaned, and which names are refused.

A name is only ever shown: forms name a seat by its id and the app's own notes in the chat are
built unlike any player's line (templates/tables/chat.html). Still, players read names to know
who is who, so a name must not pass for another:

- it is normalised as Unicode NFKC (fullwidth and other compatibility forms become plain
  letters) with every invisible character removed (zero-width, bidi controls, fillers), and
  runs of spaces made one;
- it is 1 to 24 printable characters and holds no comma (games list several players with one);
- it may not be confusable with a reserved word (the app's own voice, "Moderator", and the
  words a game gives a meaning, such as One Night's centre positions) or with a seated player's
  name: two names are confusable when their skeletons, as Unicode TR39 defines them, are the
  same once case is folded ("Moderator" with a Cyrillic o, "Ann" against one with a Cyrillic A,
  "rn" against "m").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

MODERATOR = "Moderator"  # the app's own voice in the chat
MAX_NAME_LENGTH = 24
# Games list several players in one line with it ("Ann, Ben"); One Night's forms once split on it.
SEPARATOR = ","

# Characters that show nothing, or nothing of their own: Unicode's Default_Ignorable_Code_Point
# (DerivedCoreProperties.txt: soft hyphen, zero-width and bidi controls, Hangul fillers,
# variation selectors, tags) and the braille blank, which looks like a space but is not one.
INVISIBLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


class RefusedName(ValueError):
    """A name that cannot be used; the message says why, for the player who typed it."""


def is_invisible(char: str) -> bool:
    """True for a character that shows nothing of its own: a format character (category Cf)
    or one of INVISIBLE_RANGES."""
    code = ord(char)
    return unicodedata.category(char) == "Cf" or any(a <= code <= b for a, b in INVISIBLE_RANGES)


def normalise(name: str) -> str:
    """`name` as it is stored and shown: invisible characters dropped, NFKC, every run of
    white space one space, no space at either end."""
    visible = "".join(c for c in name if not is_invisible(c))
    folded = unicodedata.normalize("NFKC", visible)
    folded = "".join(c for c in folded if not is_invisible(c))  # NFKC can make some
    return re.sub(r"\s+", " ", folded).strip()


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: the one string its whole class of look-alikes
    maps to, as in Unicode's confusables.txt (TR39).

    confusable-homoglyphs keeps confusables.txt as pairs in both directions, character ->
    look-alikes. Each class is a star around its prototype: the prototype is the member with
    more than one look-alike, else the one that is a sequence ("m" -> "rn"); a class of two
    single characters takes the smaller as its prototype, which is all an equality needs. The
    library wraps right-to-left characters in marks (U+200E), which are dropped here."""
    from confusable_homoglyphs.confusables import confusables_data

    def bare(text: str) -> str:
        return text.replace("\u200e", "")

    look_alikes: dict[str, set[str]] = {}
    for char, found in confusables_data.items():
        look_alikes.setdefault(bare(char), set()).update(bare(f["c"]) for f in found)
    prototypes: dict[str, str] = {}
    for member, others in look_alikes.items():
        if len(others) > 1:
            prototypes[member] = member
            continue
        (other,) = others
        if len(look_alikes.get(other, ())) > 1 or len(other) > 1:
            prototypes[member] = other
        elif len(member) > 1:
            prototypes[member] = member
        else:
            prototypes[member] = min(member, other)
    return prototypes


def skeleton(text: str) -> str:
    """TR39's skeleton: NFD, each character replaced by its prototype, NFD again. Two strings
    with the same skeleton look alike."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """What a name reads as: the skeleton of its NFKC form, case folded, and the skeleton of
    that (a capital that looks like another script's capital may not in small letters, and the
    reverse)."""
    once = skeleton(unicodedata.normalize("NFKC", name)).casefold()
    return skeleton(unicodedata.normalize("NFKC", once))


def name_keys(name: str) -> frozenset[str]:
    """What a name may read as: its `name_key`, and that of its case-folded form. Both are
    needed: the skeleton takes a capital I for an l ("Ida" reads as "lda"), while "ALI" must
    still read as "Ali" and "MIDDLE" as "middle"."""
    return frozenset((name_key(name), name_key(name.casefold())))


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[\W_]+", name) if w]


def reads_as(name: str, words: Iterable[str]) -> bool:
    """True if every word of the name reads as one of `words` ("left", "Left middle", "left"
    with a Cyrillic e, for One Night's centre positions)."""
    keys = frozenset().union(*(name_keys(w) for w in words))
    parts = _words(name)
    return bool(parts) and all(name_keys(w) & keys for w in parts)


def _moderator_names() -> set[str]:
    """ "Moderator", the mark on the app's notes, in every language the site offers."""
    names = {MODERATOR}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names.add(_("Moderator"))
    return names


def reads_as_moderator(name: str) -> bool:
    """True if the name holds something that reads as "Moderator", the app's own voice, in any
    language the site offers (a reader in another language sees the notes' mark in theirs)."""
    marks = {m for word in _moderator_names() for m in name_keys(word)}
    return any(m in key for m in marks for key in name_keys(name))


def clean_name(name: object, reserved: Iterable[str] = ()) -> str:
    """The name as it will be stored (see `normalise`); RefusedName if it breaks a rule: empty,
    longer than MAX_NAME_LENGTH, unprintable, with a comma, reading as one of the `reserved`
    words of the game, or as the app's own voice."""
    if not isinstance(name, str) or not normalise(name):
        raise RefusedName(_("Every player needs a name that is not empty."))
    name = normalise(name)
    if len(name) > MAX_NAME_LENGTH:
        raise RefusedName(
            _("A name is at most %(most)d characters; pick a shorter one.")
            % {"most": MAX_NAME_LENGTH}
        )
    if not name.isprintable():
        raise RefusedName(_("A name cannot contain control characters."))
    if SEPARATOR in name:
        raise RefusedName(
            # Translators: %(comma)s is the comma itself, the one character names may not hold.
            _("A name cannot contain a comma (“%(comma)s”); pick another name.")
            % {"comma": SEPARATOR}
        )
    reserved = tuple(reserved)
    if reserved and reads_as(name, reserved):
        raise RefusedName(
            _("“%(name)s” has a meaning in this game; pick another name.") % {"name": name}
        )
    if reads_as_moderator(name):
        raise RefusedName(
            # Translators: %(moderator)s is "Moderator", the name the app's chat notes go by.
            _("%(moderator)s is the name of the app's own notes; pick another name.")
            % {"moderator": MODERATOR}
        )

    return name


def clashing_name(name: str, seated: Iterable[str]) -> str | None:
    """The seated name that `name` (already cleaned) would be taken for, if any: one that
    reads the same (`name_keys`), which covers the same name in another case."""
    keys = name_keys(name)
    return next((s for s in seated if name_keys(s) & keys), None)
