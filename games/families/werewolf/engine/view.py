"""What one seat may know now: its role, whom its role knows, what it was told, the public
record of the game, and the forms it has. Pages, fragments, pushes and bot messages for a seat
are built from this and from nothing else (`None` as the seat is a spectator's view).

What is public follows the documents: deaths are announced; rules/001 shows a dead player's
role; rules/003 announces the morning's injuries; rules/004 announces deaths without their
causes, and the silenced player. Day tallies are public. Everything else is private: what a
player was told, the night's actions, the roles of the living.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .abilities import has_now
from .forms import Form, forms_for
from .game import Game
from .report import PhaseReport, phase_reports
from .state import Awaited, Outcome, Phase


@dataclass(frozen=True, slots=True)
class PublicPhase:
    """A phase as the whole table saw it."""

    phase: Phase
    dead: tuple[str, ...]
    revealed: Mapping[str, str]
    injured: tuple[str, ...]
    silenced: str | None
    tally: Mapping[str, float] | None
    eliminated: str | None
    idiot_revealed: str | None
    calls: tuple[tuple[str, int, int, bool], ...]
    sheriff: str | None
    outcome: Outcome | None


@dataclass(frozen=True, slots=True)
class SeatView:
    player: str | None
    role: str | None
    side: str | None
    alive: bool
    phase: Phase | None
    step: str
    known: Mapping[str, str]  # players this seat knows the role of (itself included)
    told: tuple[tuple[Phase, Mapping[str, object]], ...]
    pack: Mapping[str, str]  # tonight's choices of the pack, for its own members
    forms: tuple[Form, ...]
    awaited: Awaited | None
    thread: tuple[PublicPhase, ...]
    sheriff: str | None
    outcome: Outcome | None
    # This seat's pair from rules/003's Lover Deck: the other player -> "lover" or "rival".
    pairs: Mapping[str, str] = MappingProxyType({})


def _pairs(game: Game, player: str) -> Mapping[str, str]:
    """rules/003 Lover Deck: a lover must protect their lover and a rival must get rid of
    their rival, so each is told the other's name (never their side: a star-crossed pair learns
    it as anyone would). docs/rules.md, "Lovers and rivals know each other"."""
    setup = game.setup
    found = {b if a == player else a: kind
             for kind, pairs in (("lover", setup.lovers), ("rival", setup.rivals))
             for a, b in pairs if player in (a, b)}  # fmt: skip
    return MappingProxyType(found)


def _public(ruleset: str, report: PhaseReport) -> PublicPhase:
    return PublicPhase(
        phase=report.phase,
        dead=tuple(report.dead),
        revealed=MappingProxyType(dict(report.revealed)),
        injured=tuple(report.injured or ()),
        silenced=report.silenced if ruleset == "classic" else None,
        tally=report.tally,
        eliminated=report.eliminated,
        idiot_revealed=report.idiot_revealed,
        calls=tuple((c.accused, c.yes, c.no, c.executed) for c in report.calls),
        sheriff=report.sheriff,
        outcome=report.outcome,
    )


def _known(game: Game, player: str) -> dict[str, str]:
    """The roles this seat knows from the start: its own, and what its role is told (001: the
    werewolves know each other and the lunatic; 004: the killing werewolves open their eyes
    together; 003's pack and cult meet on night 1 and are told so)."""
    setup = game.setup
    state = game.state
    role = setup.roles[player]
    known = {player: role.name}
    if "werewolves" in role.knows:
        known |= {p: r.name for p, r in setup.roles.items() if r.side == "werewolves"}
    if "lunatic" in role.knows:
        known |= {p: r.name for p, r in setup.roles.items() if r.side == "lunatic"}
    if setup.ruleset.pack == "agreed" and _in_pack(game, player):
        known |= {p: setup.roles[p].name for p in setup.players if _in_pack(game, p)}
    if state.over:
        known = {p: r.name for p, r in setup.roles.items()}
    return known


def _in_pack(game: Game, player: str) -> bool:
    state = game.state
    role = game.setup.roles[player]
    return role.pack is not None and has_now(state, player, role.pack)


def view_for(game: Game, player: str | None) -> SeatView:
    """Everything `player` may know now (None: a spectator)."""
    setup = game.setup
    state = game.state
    reports = phase_reports(setup, game.log)
    thread = tuple(_public(setup.ruleset.name, r) for r in reports)
    if player is None:
        known: dict[str, str] = (
            {p: setup.roles[p].name for p in setup.players} if state.over else {}
        )
        for public in thread:
            known |= dict(public.revealed)
        return SeatView(
            None,
            None,
            None,
            False,
            state.phase,
            state.step,
            MappingProxyType(known),
            (),
            MappingProxyType({}),
            (),
            state.awaited,
            thread,
            state.sheriff,
            state.outcome,
        )
    role = setup.roles[player]
    known = _known(game, player)
    for public in thread:
        known |= dict(public.revealed)
    told = tuple((r.phase, MappingProxyType(r.told[player])) for r in reports if player in r.told)
    pack: Mapping[str, str] = MappingProxyType({})
    if state.phase is not None and state.phase.kind == "night" and _in_pack(game, player):
        pack = MappingProxyType(
            {
                p: str(choice[key])
                for p, choice in state.choices.items()
                if _in_pack(game, p)
                for key in choice
                if key in ("kill", "maul")
            }
        )
    return SeatView(
        player=player,
        role=role.name,
        side=role.side,
        alive=player in state.alive,
        phase=state.phase,
        step=state.step,
        known=MappingProxyType(known),
        told=told,
        pack=pack,
        forms=forms_for(state, player),
        awaited=state.awaited,
        thread=thread,
        sheriff=state.sheriff,
        outcome=state.outcome,
        pairs=_pairs(game, player),
    )
