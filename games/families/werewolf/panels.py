"""What one seat may see of a multi-night game, built from the engine's `view_for` and nothing
else: its role card, whom its role knows, what it was told each night, the forms it has now,
its pack's choices if it hunts with one, and the public story of the game (story.py). At the
end, everything: every role and every move. Also the public progress line, and which panel a
viewer gets: at a table-mode game the host's seat gets the moderator's screen (moderator/).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.tables.citing import Cited, split
from games.tables.family import Panel, SeatInfo, TableInfo

from . import names
from .ending import end_sentence, own_death, story
from .engine import NOBODY, Role
from .engine.forms import Form
from .engine.night import current_victim
from .engine.view import SeatView, view_for
from .moderator.screen import moderator_view
from .progress import asked, done_players, sleeping, talking, unsettled, waits_for_pack
from .steps import can_smite, label
from .stored import game_of, name_of
from .story import public_lines, told_lines

PLAIN = Cited("")  # a sentence with no rule behind it


@dataclass(frozen=True, slots=True)
class Option:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class FormView:
    """One form of the seat, with its targets as the page posts them (seat ids)."""

    kind: str
    key: str
    title: str
    summary: str
    section: str
    options: tuple[Option, ...]
    optional: bool


@dataclass(frozen=True, slots=True)
class WerewolfView:
    label: str
    me: SeatInfo | None
    role: Role | None
    alive: bool
    known: tuple[tuple[str, str], ...]
    told: tuple[tuple[str, tuple[str, ...]], ...]
    night: tuple[FormView, ...] = ()
    forms: tuple[FormView, ...] = ()
    pack: tuple[tuple[str, str], ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()  # rules/003: your lover or your rival
    done: bool = False
    # A witch who answered before the pack chose: not done, asked again once it has.
    waits_for_pack: bool = False
    # A witch whom the pack attacks and whose antidote cannot save her (004's self-save rule).
    attacked_unsaved: bool = False
    sleep: bool = False  # alive tonight without a night form: "Done for tonight"
    talking: bool = False  # in the day's speeches: "I'm done talking"
    # why the seat's choices keep the night from ending (a split pack), and the rule
    unsettled: Cited = PLAIN
    waiting_for: str = ""
    accusation: Mapping[str, str] | None = None
    can_second: bool = False
    thread: tuple[tuple[str, tuple[str, ...]], ...] = ()
    sheriff: str | None = None
    outcome: Any = None
    winner: str = ""  # the winning side, in words
    role_title: str = ""  # the seat's role card, in words (`role` is the engine's record)
    role_side: str = ""
    role_summary: str = ""
    reveal: tuple[tuple[str, str, bool, bool], ...] = ()
    # The reveal's rows for the page: (player, role title, role key for its icon, alive, won).
    reveal_rows: tuple[tuple[str, str, str, bool, bool], ...] = ()
    ending: Cited = PLAIN  # who won and why, in one sentence (issue 38 item 4)
    story: tuple[tuple[str, tuple[Cited, ...]], ...] = ()  # night by night, day by day
    death: str = ""  # a dead seat's own death, as far as it may know it while the game goes on
    is_host: bool = False
    can_smite: bool = False  # rules/003: the host, as Fate, may smite now
    ruleset: str = ""
    step: str = ""
    phase_kind: str = ""

    @property
    def idle(self) -> bool:
        """A seat in the game with nothing to do now: its page says so first (issue 38)."""
        acts = self.night or self.sleep or self.forms or self.talking or self.can_second
        return self.me is not None and self.outcome is None and not acts


def _options(form: Form, seats: Mapping[str, int]) -> tuple[Option, ...]:
    return tuple(
        Option(NOBODY, _("Nobody")) if t == NOBODY else Option(str(seats[t]), t)
        for t in form.targets
        if t == NOBODY or t in seats
    )


def _form_view(form: Form, seats: Mapping[str, int]) -> FormView:
    return FormView(
        kind=form.kind,
        key=form.key,
        title=names.form_title(form.key),
        summary=names.text(form.summary),
        section=form.section,
        options=_options(form, seats),
        optional=form.optional,
    )


def view_of(table: TableInfo, viewer: SeatInfo | None) -> WerewolfView:
    raw = table.state
    game = game_of(raw)
    seats: Mapping[str, int] = raw["seats"]
    player = name_of(raw, viewer.id) if viewer is not None else None
    seat: SeatView = view_for(game, player)
    state = game.state
    role = game.setup.roles[player] if player else None
    awaited = state.awaited
    view: dict[str, Any] = {
        "label": label(game),
        "me": viewer,
        "role": role,
        "alive": player is not None and player in state.alive,
        "known": tuple((p, names.role(r)) for p, r in seat.known.items() if p != player),
        "told": tuple((names.phase(phase), tuple(told_lines(info))) for phase, info in seat.told),
        # Only the phases that have something to tell (night 1 has nothing yet: issue 38).
        "thread": tuple(
            (names.phase(p.phase), lines) for p in seat.thread if (lines := tuple(public_lines(p)))
        ),
        "sheriff": state.sheriff,
        "outcome": state.outcome,
        "is_host": viewer is not None and viewer.is_host,
        "can_smite": viewer is not None and viewer.is_host and can_smite(game),
        "ruleset": game.setup.ruleset.name,
        "step": state.step,
        "phase_kind": state.phase.kind if state.phase else "",
        "waiting_for": names.awaited_phrase(awaited.player, awaited.kind) if awaited else "",
        "done": player is not None and player in done_players(raw, game),
        "waits_for_pack": player is not None and waits_for_pack(raw, game, player),
        "sleep": player is not None and sleeping(state, player),
        "talking": player is not None and talking(state, player),
        "unsettled": split(unsettled(game).get(player, "") if player is not None else ""),
        # The pack's choices tonight: nothing to choose once the game is over.
        "pack": ()
        if state.over
        else tuple((p, names.player(t)) for p, t in sorted(seat.pack.items())),
        "pairs": tuple(sorted(seat.pairs.items())),
    }
    forms = [_form_view(f, seats) for f in seat.forms]
    view["night"] = tuple(f for f in forms if f.kind == "night")
    view["forms"] = tuple(f for f in forms if f.kind != "night")
    save = next((f for f in view["night"] if f.key == "save"), None)
    view["attacked_unsaved"] = (
        save is not None
        and not save.options
        and player is not None
        and current_victim(state) == player
    )
    accusation = raw.get("accusation")
    if accusation:
        view["accusation"] = accusation
        view["can_second"] = (
            player is not None
            and player not in (accusation["by"], accusation["accused"])  # 003: three players
            and any(f.kind == "accuse" for f in seat.forms)
        )
    if state.over:
        winners = set(state.outcome.winners) if state.outcome else set()
        view["reveal"] = tuple(
            (p, names.title(game.setup.roles[p]), p in state.alive, p in winners)
            for p in game.setup.players
        )
        view["reveal_rows"] = tuple(
            (p, title, game.setup.roles[p].name, alive, won)
            for p, title, alive, won in view["reveal"]
        )
        view["winner"] = names.side(state.outcome.winner) if state.outcome else ""
        view["ending"] = end_sentence(game)
        view["story"] = story(game)
    elif player is not None and player not in state.alive:
        view["death"] = own_death(player, seat.thread)
    if role is not None:
        view["role_title"] = names.title(role)
        view["role_side"] = names.side(role.side)
        view["role_summary"] = names.text(role.summary)
    return WerewolfView(**view)


def public_status(table: TableInfo) -> tuple[str, str]:
    """The public progress line: who the game waits for, the votes so far where the documents
    have them cast openly (001's thread, 004's show of hands; Oxford's fists are counted only),
    or how many have done their part."""
    raw = table.state
    game = game_of(raw)
    state = game.state
    if state.over or table.options.get("table_mode"):
        # At a table the count of who is done would tell a watcher which roles still act.
        return "", ""
    awaited = state.awaited
    if awaited is not None:
        return (
            names.awaited_phrase(awaited.player, awaited.kind, sentence=True),
            # Translators: followed by the time left on the clock.
            _("Waiting ends in"),
        )
    parts = []
    if state.call is not None:
        shown = len(state.votes)
        parts.append(
            ngettext("%(count)d fist shown.", "%(count)d fists shown.", shown) % {"count": shown}
        )
    elif state.phase is not None and state.phase.kind == "day":
        votes = state.sheriff_votes if state.step == "election" else state.votes
        if votes:
            tally = names.joined(
                [
                    # Translators: a voter and whom they vote for, in the votes so far.
                    _("%(voter)s → %(player)s") % {"voter": voter, "player": names.player(target)}
                    for voter, target in sorted(votes.items())
                ]
            )
            parts.append(_("Votes so far: %(votes)s.") % {"votes": tally})
    # At night every living player is asked (those without a power say they are done), so the
    # count tells nothing of who holds one; a killer whose own choice split the pack is not
    # done (docs/security.md, "What each public line may reveal").
    active = [p for p in state.living() if asked(state, p)]
    finished = done_players(raw, game)
    done = [p for p in active if p in finished]
    if active:
        parts.append(
            ngettext(
                "%(done)d of %(count)d player has done their part.",
                "%(done)d of %(count)d players have done their part.",
                len(active),
            )
            % {"done": len(done), "count": len(active)}
        )
    # Translators: followed by the time left on the clock.
    return " ".join(parts), _("This step ends in")


def panel(table: TableInfo, viewer: SeatInfo | None, now: datetime) -> Panel:
    moderating = table.options.get("table_mode") and table.stage != "cancelled"
    if moderating and viewer is not None and viewer.is_host:
        mod = moderator_view(table)
        return Panel(
            "werewolf/moderator.html", {"mod": mod}, attention=False, phase_label=_label(table)
        )
    view = view_of(table, viewer)
    progress, clock = public_status(table)
    attention = bool(view.night or view.forms or view.sleep) and not view.done
    return Panel(
        "werewolf/panel.html",
        {"wolf": view},
        progress=progress,
        clock_label=clock,
        attention=attention,
        phase_label=_label(table),
        host_tools="werewolf/host_tools.html",
    )


def _label(table: TableInfo) -> str:
    """The phase's name in the reader's language (the table stores it in the site's)."""
    return label(game_of(table.state)) if table.stage == "playing" or table.stage == "over" else ""
