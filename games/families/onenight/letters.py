"""A seat's view as text, for a chat bot (games.tables.family.ChatPlay.letters): the One Night
moderator's messages of rules/000 section 3 (the role, the night's instructions, the night's
result, the call to vote) and the reveal.

Built only from what `panels.view_of` gives that seat, the same view its web page is drawn
from, so a private message never holds more than the page would. Each letter has a key; the
bot sends a key once (games.chatbot.models.SeatLink.told).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.tables.family import Letter, SeatInfo, TableInfo
from games.words import listing

from . import chat_aims
from .engine import CENTRE_POSITIONS, Role
from .hold import HELD_MESSAGE
from .panels import ActionForm, OneNightView, Reveal, view_of

# The centre cards as a player types them (`left middle`): the command's words, not translated.
CENTRE = ", ".join(CENTRE_POSITIONS)


def role_letter(view: OneNightView, code: str) -> str:
    assert view.role is not None
    heading = _("**Game %(code)s: %(heading)s**") % {"code": code, "heading": view.role.heading}
    return "\n".join((heading, *view.role.paragraphs))


def _either(shapes: list[str]) -> str:
    """ "A or B or C": what a player may send."""
    either = shapes[0] if shapes else ""
    for shape in shapes[1:]:
        # Translators: two things a player may send, one or the other ("one player or one
        # centre card").
        either = _("%(one)s or %(other)s") % {"one": either, "other": shape}
    return either


# What a player sends for "no action" (rules/000 s3b: "targeting no one"): the command's words,
# not translated. `!target <game id>` alone is no action only for a role with nothing to do.
NOBODY = ("nobody", "no action")


def action_letter(
    form: ActionForm,
    code: str,
    names: Mapping[str, str] | None = None,
    step: chat_aims.Step | None = None,
    copied: Role | None = None,
) -> str:
    """The night's instructions for this seat's form (rules/000 s3b: "!target <game id>
    <players to target>"; a role with nothing to do still sends one, naming nobody). `names`:
    the players' names by seat id, as the form's choices post them. `step`: a step read by its
    aim (a Vampire card, the Copycat's centre card: chat_aims.py), whose syntax replaces the
    form's; `copied`: the card a Copycat became, where the form does not say it."""
    prompt = step.rule.description if step is not None else form.prompt
    lines = [_("**Game %(code)s, tonight:** %(prompt)s") % {"code": code, "prompt": prompt}]
    copied = form.copied or copied
    if copied is not None:
        lines.append(_("You copied the card of a %(role)s.") % {"role": copied.title})
    lines += chat_aims.syntax(step, code) if step is not None else how_to_act(form, code, names)
    lines.append(_("Your choice is final once sent."))
    return "\n".join(lines)


def how_to_act(form: ActionForm, code: str, names: Mapping[str, str] | None = None) -> list[str]:
    """The lines of the night letter that say what to send for this form: the command's shape,
    the players and centre cards to name, and how to send no action where the role may abstain
    (rules/000 s4: a role that "may" act may abstain, the drunk "must")."""
    lines: list[str] = []
    names = names or {}
    players = [names.get(c.value, c.label) for c in form.choices if c.value.isdigit()]
    if form.kind == "copy":
        lines.append(
            # Translators: the instructions of the bot's night letter. Text in backticks is
            # what a player types: keep `!target` and `nobody` as they are; <player> describes
            # what to type and is translated.
            _(
                "Send `!target %(code)s <player>` to copy that player's card, or"
                " `!target %(code)s nobody` to copy nobody."
            )
            % {"code": code}
        )
        lines.append(_("Players: %(players)s.") % {"players": listing(players)})
    elif form.kind == "none":
        lines.append(
            _(
                "You have nothing to do tonight, but the night waits for everyone: send"
                " `!target %(code)s` to say you are done."
            )
            % {"code": code}
        )
    elif form.kind == "pair":
        lines.append(
            _("Send `!target %(code)s <player>, <player>` with the two players.") % {"code": code}
        )
        lines.append(_("Players: %(players)s.") % {"players": listing(players)})
    elif form.layout:
        lines += _daybreak_how(form, code, names)
    else:
        one_card = any(c.value in CENTRE_POSITIONS for c in form.choices)
        two_cards = any("," in c.value for c in form.choices)
        shapes: list[str] = []
        if players:
            shapes.append(_("one player"))
        if one_card:
            shapes.append(_("one centre card"))
        if two_cards:
            shapes.append(_("two centre cards"))
        lines.append(
            # Translators: %(what)s is what to send ("one player or one centre card").
            _("Send `!target %(code)s <%(what)s>`.") % {"code": code, "what": _either(shapes)}
        )
        if players:
            lines.append(_("Players: %(players)s.") % {"players": listing(players)})
        if two_cards:
            lines.append(
                # Translators: %(cards)s are the centre cards' words as typed: left, middle,
                # right. Keep `left middle` as it is.
                _("Centre cards: %(cards)s (two of them: `left middle`).") % {"cards": CENTRE}
            )
        elif one_card:
            # The lone werewolf (rules/000 s6b) and the drunk (s4) take one card: no pair shown.
            lines.append(
                # Translators: %(cards)s are the centre cards' words as typed: left, middle,
                # right.
                pgettext("the centre cards to pick from", "Centre cards: %(cards)s.")
                % {"cards": CENTRE}
            )
    if form.allow_none and form.kind in ("pair", "choice"):
        lines.append(
            # Translators: keep `!target` and `nobody` as they are: they are what a player types.
            _("Or send `!target %(code)s nobody` for no action.") % {"code": code}
        )
    return lines


def _daybreak_how(form: ActionForm, code: str, names: Mapping[str, str]) -> list[str]:
    """What to send for Daybreak's forms whose values are not one card each (`form.layout`):
    the Village Idiot's direction, the Witch's centre card then player, the Paranormal
    Investigator's one or two players in order. The words are those `chat._target` reads."""
    args = {"code": code}
    offered = {part for c in form.choices for part in c.value.split(",") if part.isdigit()}
    seats = [seat for seat in names if seat in offered] or sorted(offered)  # in seat order
    players = listing([names.get(seat, seat) for seat in seats])
    if form.layout == "direction":
        order = _("Seat order: %(players)s.") % {"players": listing(list(names.values()))}
        return [
            _(
                # Translators: the Village Idiot's night letter. Keep `!target`, `left` and
                # `right` as they are: they are what a player types.
                "Send `!target %(code)s left` or `!target %(code)s right`: every other player's"
                " card moves one seat that way (`left` to the next player in seat order, `right`"
                " to the one before); yours stays."
            )
            % args,
            *([order] if names else []),
        ]
    if form.layout == "centre_then_player":
        return [
            _(
                # Translators: the Witch's night letter. Keep `!target` and `left` as they are;
                # <centre card> and <player> describe what to type and are translated.
                "Send `!target %(code)s <centre card> <player>`: the centre card you look at,"
                " then the player whose card it swaps with (you may name yourself), as in"
                " `!target %(code)s left %(player)s`."
            )
            % {**args, "player": names.get(seats[0], seats[0]) if seats else ""},
            pgettext("the centre cards to pick from", "Centre cards: %(cards)s.")
            % {"cards": CENTRE},
            _("Players: %(players)s.") % {"players": players},
        ]
    return [
        _(
            # Translators: the Paranormal Investigator's night letter. Keep `!target` as it is;
            # <player> describes what to type and is translated.
            "Send `!target %(code)s <player>` to look at one player's card, or"
            " `!target %(code)s <player> <player>` to look at two, in that order (you stop at a"
            " werewolf or the tanner)."
        )
        % args,
        _("Players: %(players)s.") % {"players": players},
    ]


def report_letter(view: OneNightView, code: str) -> str:
    heading = _("**Game %(code)s: what you learned in the night**") % {"code": code}
    return "\n".join((heading, *view.night_report))


def vote_letter(view: OneNightView, code: str) -> str:
    others = [p.name for p in view.ring if not p.is_me]
    lines = [
        _(
            # Translators: `!vote` and, below, `up` and `down` are what a player types: keep them.
            "**Game %(code)s: vote.** Vote in secret for the player to lynch: send"
            " `!vote %(code)s <player>`. Your vote is final and may not be for yourself."
        )
        % {"code": code},
        _("The circle, in random order: %(players)s.")
        % {"players": ", ".join(p.name for p in view.ring)},
    ]
    if view.vote_up is not None and view.vote_down is not None:
        lines.append(
            _(
                "Up from you is %(up)s (`!vote %(code)s up`), down is %(down)s"
                " (`!vote %(code)s down`): if everyone votes up (or everyone down), each player"
                " gets one vote and nobody dies."
            )
            % {"up": view.vote_up.name, "down": view.vote_down.name, "code": code}
        )
    elif others:
        lines.append(_("You may vote for %(players)s.") % {"players": listing(others)})
    return "\n".join(lines)


def _cards(start: Role, final: Role) -> str:
    """A card, and the card it became if it changed hands."""
    if final == start:
        return start.title
    # Translators: a card and the card it became in the night.
    return _("%(start)s → %(final)s") % {"start": start.title, "final": final.title}


def _result(won: bool, died: bool) -> str:
    """How a player's game ended, in the reveal's rows."""
    if won:
        return _("won, died") if died else _("won")
    return _("lost, died") if died else _("lost")


def reveal_text(reveal: Reveal, code: str) -> str:
    """The reveal of rules/000 s3d, for everyone: who died, why, who won, every card."""
    lines = [_("**Game %(code)s: the reveal**") % {"code": code}]
    lines.append(
        _("Died: %(players)s.") % {"players": listing(list(reveal.dead))}
        if reveal.dead
        else _("Nobody died.")
    )
    lines += [reveal.vote_reason, reveal.reason, ""]
    for row in reveal.rows:
        cards = _cards(row.start_role, row.final_role)
        if row.plays_as != row.final_role:
            # Translators: a player's cards, and the role they played as (a Doppelganger).
            cards = _("%(cards)s (as %(role)s)") % {"cards": cards, "role": row.plays_as.title}
        # Translators: who a player voted for when they voted for nobody.
        voted = row.voted_for or _("nobody")
        lines.append(
            ngettext(
                # Translators: a row of the reveal: a player, their cards, their vote, the votes
                # they received and how their game ended ("won, died").
                "- %(name)s: %(cards)s; voted for %(voted)s; %(count)d vote; %(result)s",
                "- %(name)s: %(cards)s; voted for %(voted)s; %(count)d votes; %(result)s",
                row.votes_received,
            )
            % {
                "name": row.name,
                "cards": cards,
                "voted": voted,
                "count": row.votes_received,
                "result": _result(row.won, row.died),
            }
        )
    # The centre's positions are the words a player types (left, middle, right).
    centre = "; ".join(
        f"{position}: {_cards(start, final)}" for position, start, final in reveal.centre
    )
    lines.append(_("Centre cards: %(cards)s.") % {"cards": centre})
    if reveal.copied is not None:
        lines.append(_("The Doppelganger copied the %(role)s.") % {"role": reveal.copied.title})
    # Daybreak: the tokens at dawn and the centre werewolf card, as the web reveal lists them.
    lines += list(reveal.tokens)
    lines.append(_("The night, step by step:"))
    lines += [f"{n}. {step.text}" for n, step in enumerate(reveal.log, 1)]
    return "\n".join(line for line in lines if line is not None)


def due(table: TableInfo, seat: SeatInfo) -> tuple[Letter, ...]:
    """The letters `seat` should have by now, in order, each with its key. A seat linked late
    gets what it missed (its role, its night's result), never an out-of-date call to act."""
    view = view_of(table, seat)
    code = table.code
    if view.phase == "cancelled":
        text = _("Game %(code)s was cancelled by its host. Nobody's cards are shown.")
        return (Letter("cancelled", text % {"code": code}),)
    letters: list[tuple[str, str]] = []
    if view.role is not None and view.phase != "reveal":
        letters.append(("role", role_letter(view, code)))
    # The Copycat's card (8b.4), where the view does not give it as the Doppelganger's.
    looked = chat_aims.copycat_card(table, seat) if view.phase == "night" else None
    copied = view.copied or (looked[1] if looked is not None else None)
    if view.phase == "night" and copied is not None and view.action_form is None:
        # The Doppelganger (and the Copycat) sees the card it copied at once, as its page
        # shows it.
        text = _("Game %(code)s: you copied the card of a %(role)s.")
        letters.append(("copied", text % {"code": code, "role": copied.title}))
    if view.phase == "night" and view.copy_held:
        # docs/rules.md 8a.10: the copied card waits for every other player's action.
        text = _("Game %(code)s: %(held)s") % {"code": code, "held": HELD_MESSAGE}
        letters.append(("copy:held", text))
    if view.phase == "night" and view.action_form is not None:
        aimed = chat_aims.step_now(table, seat)
        copying = view.action_form.kind == "copy" or (aimed is not None and aimed.kind == "copy")
        names = {str(s.id): s.name for s in table.seats}
        text = action_letter(view.action_form, code, names, aimed, copied)
        letters.append((f"night:{'copy' if copying else 'action'}", text))
    if view.night_report and view.phase in ("day", "voting"):
        letters.append(("report", report_letter(view, code)))
        if view.phase == "day":
            text = _(
                "Game %(code)s: it is day. Talk it over in the game's chat; when you are ready to"
                " vote, send `!ready %(code)s`."
            ) % {"code": code}
            if view.on_table:
                # Daybreak (docs/rules.md 8a.9): what lies in plain sight, the same for everyone
                # (the page's "On the table"); sent with each seat's day letter.
                text += (
                    "\n" + _("On the table:") + "\n" + "\n".join(f"- {t}" for t in view.on_table)
                )
            letters.append(("day", text))
    if view.phase == "voting" and not view.has_voted and view.me is not None:
        letters.append(("vote", vote_letter(view, code)))
    if view.phase == "reveal" and view.reveal is not None:
        letters.append(("reveal", reveal_text(view.reveal, code)))
    return tuple(Letter(key, text) for key, text in letters)


def for_the_channel(table: TableInfo) -> str | None:
    """The reveal as the game's channel shows it, once the game is over."""
    view = view_of(table, None)
    return reveal_text(view.reveal, table.code) if view.reveal is not None else None
