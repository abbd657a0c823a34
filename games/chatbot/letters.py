"""What the bot writes to one seat, and to a game's channel, in plain text: the One Night
moderator's messages of rules/000 section 3 (the role, the night's instructions, the night's
result, the call to vote) and the reveal.

Built only from what `games.families.onenight.panels.view_of` gives that seat, the same view its
web page is drawn from, so a private message never holds more than the page would. Each letter
has a key; the relay sends a key once (models.SeatLink.told).
"""

from __future__ import annotations

from games.families.onenight.engine import CENTRE_POSITIONS
from games.families.onenight.engine.messages import _names as names  # "A, B and C"
from games.families.onenight.panels import ActionForm, OneNightView, Reveal, view_of
from games.tables.family import SeatInfo, TableInfo

CENTRE = ", ".join(CENTRE_POSITIONS)


def role_letter(view: OneNightView, code: str) -> str:
    assert view.role is not None
    return "\n".join((f"**Game {code}: {view.role.heading}**", *view.role.paragraphs))


def action_letter(form: ActionForm, code: str) -> str:
    """The night's instructions for this seat's form (rules/000 s3b: "!target <game id>
    <players to target>"; a role with nothing to do still sends one, naming nobody)."""
    target = f"`!target {code}"
    lines = [f"**Game {code}, tonight:** {form.prompt}"]
    if form.copied is not None:
        lines.insert(1, f"You copied the card of a {form.copied.title}.")
    players = [c.label for c in form.choices if c.value.isdigit()]
    if form.kind == "copy":
        lines.append(
            f"Send {target} <player>` to copy that player's card, or {target}` to copy nobody."
        )
        lines.append(f"Players: {names(players)}.")
    elif form.kind == "none":
        lines.append(
            f"You have nothing to do tonight, but the night waits for everyone: send {target}`"
            " to say you are done."
        )
    elif form.kind == "pair":
        lines.append(f"Send {target} <player>, <player>` with the two players.")
        lines.append(f"Players: {names(players)}.")
    else:
        shapes: list[str] = []
        if players:
            shapes.append("one player")
            players = [label.removesuffix("'s card") for label in players]
        if any(c.value in CENTRE_POSITIONS for c in form.choices):
            shapes.append("one centre card")
        if any("," in c.value for c in form.choices):
            shapes.append("two centre cards")
        lines.append(f"Send {target} <{' or '.join(shapes)}>`.")
        if players:
            lines.append(f"Players: {names(players)}.")
        if len(shapes) > (1 if players else 0):
            lines.append(f"Centre cards: {CENTRE} (two of them: `left middle`).")
    if form.allow_none and form.kind in ("pair", "choice"):
        lines.append(f"Or send {target}` for no action.")
    lines.append("Your choice is final once sent.")
    return "\n".join(lines)


def report_letter(view: OneNightView, code: str) -> str:
    return "\n".join((f"**Game {code}: what you learned in the night**", *view.night_report))


def vote_letter(view: OneNightView, code: str) -> str:
    others = [p.name for p in view.ring if not p.is_me]
    lines = [
        f"**Game {code}: vote.** Vote in secret for the player to lynch: send `!vote {code}"
        " <player>`. Your vote is final and may not be for yourself.",
        f"The circle, in random order: {', '.join(p.name for p in view.ring)}.",
    ]
    if view.vote_up is not None and view.vote_down is not None:
        lines.append(
            f"Up from you is {view.vote_up.name} (`!vote {code} up`), down is"
            f" {view.vote_down.name} (`!vote {code} down`): if everyone votes up (or everyone"
            " down), each player gets one vote and nobody dies."
        )
    elif others:
        lines.append(f"You may vote for {names(others)}.")
    return "\n".join(lines)


def reveal_text(reveal: Reveal, code: str) -> str:
    """The reveal of rules/000 s3d, for everyone: who died, why, who won, every card."""
    lines = [f"**Game {code}: the reveal**"]
    lines.append(f"Died: {names(list(reveal.dead))}." if reveal.dead else "Nobody died.")
    lines += [reveal.vote_reason, reveal.reason, ""]
    for row in reveal.rows:
        cards = row.start_role.title
        if row.final_role != row.start_role:
            cards += f" → {row.final_role.title}"
        if row.plays_as != row.final_role:
            cards += f" (as {row.plays_as.title})"
        result = ("won" if row.won else "lost") + (", died" if row.died else "")
        voted = row.voted_for or "nobody"
        lines.append(
            f"- {row.name}: {cards}; voted for {voted}; {row.votes_received}"
            f" vote{'' if row.votes_received == 1 else 's'}; {result}"
        )
    centre = "; ".join(
        f"{position}: {start.title}" + (f" → {final.title}" if final != start else "")
        for position, start, final in reveal.centre
    )
    lines.append(f"Centre cards: {centre}.")
    if reveal.copied is not None:
        lines.append(f"The Doppelganger copied the {reveal.copied.title}.")
    lines.append("The night, step by step:")
    lines += [f"{n}. {step.text}" for n, step in enumerate(reveal.log, 1)]
    return "\n".join(line for line in lines if line is not None)


def due(table: TableInfo, seat: SeatInfo) -> list[tuple[str, str]]:
    """The letters `seat` should have by now, in order, each with its key. A seat linked late
    gets what it missed (its role, its night's result), never an out-of-date call to act."""
    view = view_of(table, seat)
    code = table.code
    if view.phase == "cancelled":
        return [("cancelled", f"Game {code} was cancelled by its host. Nobody's cards are shown.")]
    letters: list[tuple[str, str]] = []
    if view.role is not None and view.phase != "reveal":
        letters.append(("role", role_letter(view, code)))
    if view.phase == "night" and view.copied is not None and view.action_form is None:
        # The Doppelganger sees the card it copied at once, as its page shows it.
        letters.append(("copied", f"Game {code}: you copied the card of a {view.copied.title}."))
    if view.phase == "night" and view.action_form is not None:
        step = "copy" if view.action_form.kind == "copy" else "action"
        letters.append((f"night:{step}", action_letter(view.action_form, code)))
    if view.night_report and view.phase in ("day", "voting"):
        letters.append(("report", report_letter(view, code)))
        if view.phase == "day":
            letters.append(
                (
                    "day",
                    f"Game {code}: it is day. Talk it over in the game's chat; when you are ready"
                    f" to vote, send `!ready {code}`.",
                )
            )
    if view.phase == "voting" and not view.has_voted and view.me is not None:
        letters.append(("vote", vote_letter(view, code)))
    if view.phase == "reveal" and view.reveal is not None:
        letters.append(("reveal", reveal_text(view.reveal, code)))
    return letters


def reveal_for_all(table: TableInfo) -> str | None:
    """The reveal as the game's channel shows it, once the game is over."""
    view = view_of(table, None)
    return reveal_text(view.reveal, table.code) if view.reveal is not None else None
