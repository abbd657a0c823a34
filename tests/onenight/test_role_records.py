"""The role walk (issue 37): every role of One Night has every part, and nothing falls back.

A role is one record in engine/roles.py plus its wake step in the night table of each ruleset
that deals it, whose handler is a resolver of engine/resolvers.py. `problems` walks the tables
and names each missing or inconsistent part; the tests below run it on the real tables (nothing
may be missing) and on tables with one part taken away (each is found). Then every role is shown
the way players and hosts meet it: its role message, its night report, the narrator's calls and
the rules page's card.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType

import pytest

from games.families.onenight import cards, narrator
from games.families.onenight.engine import (
    CENTRE_POSITIONS,
    Requirement,
    Role,
    Ruleset,
    Team,
    action_rule,
    copied_action_rule,
    make_deal,
    resolve_night,
)
from games.families.onenight.engine.actions import ACTS_AT_ONCE, CONDITIONS
from games.families.onenight.engine.deck import Deal
from games.families.onenight.engine.messages import TOLD, night_report, role_message
from games.families.onenight.engine.resolvers import RESOLVERS
from games.families.onenight.engine.roles import (
    CENTRE_WOLF,
    NIGHTS,
    ROLES,
    Copy,
    RoleRecord,
    WakeStep,
)
from games.families.onenight.engine.roles_vampire import VAMPIRE_ROLES
from games.families.onenight.engine.tonight import Resolver
from games.families.onenight.online import NOT_YET_ONLINE

Records = Mapping[Role, RoleRecord]
Nights = Mapping[Ruleset, tuple[WakeStep, ...]]


def _own(night: tuple[WakeStep, ...], role: Role) -> WakeStep | None:
    return next((s for s in night if s.role is role and s.copied is None), None)


def problems(
    roles: Records = ROLES,
    nights: Nights = NIGHTS,
    resolvers: Mapping[str, Resolver] = RESOLVERS,
    told: Mapping[str, object] = TOLD,
) -> list[str]:
    """Every missing or inconsistent part of the role tables, in words."""
    found: list[str] = []
    for role in Role:
        record = roles.get(role)
        if record is None:
            found.append(f"{role}: no record")
            continue
        name = role.value
        if record.role is not role:
            found.append(f"{name}: the record is {record.role}'s")
        for field in ("title", "section", "does"):
            if not getattr(record, field):
                found.append(f"{name}: no {field}")
        if not isinstance(record.team, Team):
            found.append(f"{name}: no team")
        dealt_in = set(record.limits)
        if not dealt_in or any(n < 1 for n in record.limits.values()):
            found.append(f"{name}: no limits")
        if set(record.wins) != dealt_in or not all(record.wins.values()):
            found.append(f"{name}: a wins line for each ruleset that deals it")
        if bool(record.message) == (record.told is not None):
            found.append(f"{name}: a role message (its paragraphs, or a told function)")
        if record.told is not None and record.told not in told:
            found.append(f"{name}: told {record.told!r} is not a function of messages.TOLD")
        if record.action is not None:
            if record.action.role is not role:
                found.append(f"{name}: its action rule is {record.action.role}'s")
            if record.action.requirement is Requirement.NONE or not record.action.shapes:
                found.append(f"{name}: an action rule with no action")
            if not record.action.marked:
                found.append(f"{name}: its action rule has no words")
        if record.action_if not in CONDITIONS:
            found.append(f"{name}: action_if {record.action_if!r} is not a condition")
        for ruleset, night in nights.items():
            step = _own(night, role)
            if ruleset not in dealt_in:
                if any(s.role is role or s.copied is role for s in night):
                    found.append(f"{name}: a {ruleset} wake step, but {ruleset} never deals it")
                continue
            wakes = record.calls is not None
            if step is None:
                if wakes or record.action is not None:
                    found.append(f"{name}: no wake step in the {ruleset} night")
                continue
            if not wakes:
                found.append(f"{name}: a {ruleset} wake step but no narrator calls")
            if not step.wakes:
                found.append(f"{name}: no rules-page line for its {ruleset} wake step")
            if step.handler is None or step.handler not in resolvers:
                found.append(f"{name}: its {ruleset} handler {step.handler!r} is no resolver")
                continue
            resolver = resolvers[step.handler]
            if record.copy is Copy.AT_ONCE and resolver.each is None:
                found.append(f"{name}: copied, acts at once, but its resolver acts together")
            if record.copy is Copy.WITH_THEM and resolver.together is None:
                found.append(f"{name}: copied, wakes with them, but its resolver acts alone")
            if record.copy is Copy.NOTHING and not record.copies:
                found.append(f"{name}: wakes, but a Doppelganger copying it does nothing")
        if record.copy is Copy.AT_ONCE and record.action is None:
            found.append(f"{name}: copied, acts at once, but has no action rule")
        for ruleset, night in nights.items():
            copier = any(roles[s.role].copies for s in night if s.role in roles)
            copy_steps = [s for s in night if s.copied is role]
            if record.copy is Copy.OWN_STEP and copier and not copy_steps:
                found.append(f"{name}: no Doppelganger step of its own in the {ruleset} night")
            if copy_steps and record.copy_calls is None:
                found.append(f"{name}: a Doppelganger step but no narrator calls for it")
            own = _own(night, role)
            for step in copy_steps:
                if step.handler is None and record.copy is not Copy.WITH_THEM:
                    found.append(f"{name}: a Doppelganger step in {ruleset} that does nothing")
                if step.handler is not None and (own is None or own.handler != step.handler):
                    found.append(f"{name}: its Doppelganger step's handler is not its own")
    for key, resolver in resolvers.items():
        if (resolver.each is None) == (resolver.together is None):
            found.append(f"resolver {key}: acts for each player or together, one of the two")
        if not any(s.handler == key for night in nights.values() for s in night):
            found.append(f"resolver {key}: no wake step uses it")
    return found


def test_every_role_has_every_part() -> None:
    """Issue 37: a record per role, its texts, its action, its wake step where it is dealt."""
    assert problems() == []


def _without(role: Role, **changes: object) -> Records:
    records = dict(ROLES)
    records[role] = dataclasses.replace(ROLES[role], **changes)  # type: ignore[arg-type]
    return MappingProxyType(records)


def _night_without(ruleset: Ruleset, role: Role) -> Nights:
    nights = dict(NIGHTS)
    nights[ruleset] = tuple(s for s in NIGHTS[ruleset] if s.role is not role or s.copied)
    return MappingProxyType(nights)


@pytest.mark.parametrize(
    ("broken", "expected"),
    [
        (lambda: problems(roles=_without(Role.SEER, does="")), "seer: no does"),
        (
            lambda: problems(roles=_without(Role.TANNER, wins={Ruleset.HOUSE: "x"})),
            "tanner: a wins line for each ruleset that deals it",
        ),
        (
            lambda: problems(roles=_without(Role.HUNTER, message=())),
            "hunter: a role message (its paragraphs, or a told function)",
        ),
        (
            lambda: problems(roles=_without(Role.MASON, told="masonry")),
            "mason: told 'masonry' is not a function of messages.TOLD",
        ),
        (
            lambda: problems(roles=_without(Role.ROBBER, calls=None)),
            "robber: a house wake step but no narrator calls",
        ),
        (
            lambda: problems(nights=_night_without(Ruleset.OFFICIAL, Role.DRUNK)),
            "drunk: no wake step in the official night",
        ),
        (
            lambda: problems(nights=_night_without(Ruleset.HOUSE, Role.SEER)),
            "seer: no wake step in the house night",
        ),
        (
            lambda: problems(roles=_without(Role.INSOMNIAC, copy_calls=None)),
            "insomniac: a Doppelganger step but no narrator calls for it",
        ),
        (
            lambda: problems(resolvers={k: v for k, v in RESOLVERS.items() if k != "drunk"}),
            "drunk: its house handler 'drunk' is no resolver",
        ),
        (
            lambda: problems(roles=_without(Role.VILLAGER, limits={Ruleset.HOUSE: 3})),
            "villager: a wins line for each ruleset that deals it",
        ),
    ],
)
def test_a_missing_part_is_found(broken: object, expected: str) -> None:
    """The walk is a real check: a part taken away is named."""
    assert expected in broken()  # type: ignore[operator]


def test_a_card_without_a_record_cannot_be_read() -> None:
    """roles.py builds ROLES from every member of Role: a member without a record is a
    KeyError when the engine is imported, and the walk names it."""
    records = {r: rec for r, rec in ROLES.items() if r is not Role.MINION}
    assert "minion: no record" in problems(roles=records)


# --- Every role as players and hosts meet it ---------------------------------------------------

FILLER = (
    Role.VILLAGER,
    Role.VILLAGER,
    Role.WEREWOLF,
    Role.TANNER,
    Role.HUNTER,
    Role.ROBBER,
    Role.TROUBLEMAKER,
    Role.DRUNK,
)


def _deal_with(ruleset: Ruleset, role: Role) -> Deal:
    """Ann holds `role` (a Doppelganger has Ben's seer to copy; a mason its partner, Ben);
    the rest from FILLER, within the ruleset's limits."""
    hand = [role]
    if ROLES[role].copies:
        hand.append(Role.SEER)
    if role is Role.MASON:
        hand.append(Role.MASON)
    hand += [r for r in FILLER if r is not role][: 7 - len(hand)]
    players = ("Ann", "Ben", "Cat", "Dan")
    dealt = dict(zip((*players, *CENTRE_POSITIONS), hand, strict=True))
    if role is Role.ALPHA_WOLF:
        dealt[CENTRE_WOLF] = Role.WEREWOLF  # Daybreak: the centre werewolf card
    return make_deal(ruleset, players, dealt)


def _dealing(role: Role) -> list[Ruleset]:
    return [r for r in Ruleset if r in ROLES[role].limits]


CASES = [(ruleset, role) for role in Role for ruleset in _dealing(role)]


@pytest.mark.parametrize(("ruleset", "role"), CASES, ids=[f"{r}-{o}" for r, o in CASES])
def test_every_role_reads_its_own_words(ruleset: Ruleset, role: Role) -> None:
    """Its role message is its own (no other role's text shown by mistake), its night report
    follows its action, the narrator calls it, the rules page has its card."""
    deal = _deal_with(ruleset, role)
    message = role_message(deal, "Ann")
    assert message.role is role
    assert role.title in message.heading
    for other in Role:
        if other is not role and ruleset in ROLES[other].limits:
            theirs = role_message(_deal_with(ruleset, other), "Ann")
            assert message.paragraphs[0] != theirs.paragraphs[0], (role, other)

    rule = action_rule(deal, "Ann")
    targets: list[str] = []
    if ROLES[role].copies:
        targets = ["Ben"]  # copies the seer, who looks at Cat at once
        targets += ["Cat"] if copied_action_rule(Role.SEER).requirement else []
    elif rule.requirement is not Requirement.NONE:
        shape = rule.shapes[0]
        targets = ["Ben", "Cat"][: shape.players] + list(CENTRE_POSITIONS[: shape.centre])
    night = resolve_night(deal, {"Ann": targets})
    report = night_report(night, "Ann")
    sleeps = ROLES[role].calls is None
    assert (report == ("You slept through the night.",)) is sleeps, report

    calls = narrator.narration(ruleset, list(deal.cards.values()))
    mine = [c for c in calls if c.role is role]
    if sleeps:
        assert mine == []
    else:
        assert mine and mine[0].key == ROLES[role].calls.key  # type: ignore[union-attr]
        assert all(c.wake and c.sleep for c in mine)

    mine_on_page = [c for c in cards.role_cards(ruleset) if c.role is role]
    if role in NOT_YET_ONLINE:
        # Not on the rules page until its web step (online.py, docs/rules.md 8b.7).
        assert mine_on_page == []
        return
    card = mine_on_page[0]
    assert card.does and card.wakes and card.wins
    assert (card.wakes == "Does not wake.") is sleeps


def test_the_doppelganger_copies_what_the_table_says() -> None:
    """rules/002 s5, from the records: seer, robber, troublemaker and drunk act at once; the
    werewolf, minion and mason wake with them; the insomniac has step 9a; the rest sleep.
    Daybreak (docs/rules.md, "The Doppelganger and Daybreak"): the sentinel, apprentice seer,
    paranormal investigator, witch and village idiot act at once, and so do the alpha and
    mystic wolves, which then wake with the werewolves ([DR]); the revealer and curator act
    right after theirs."""
    base = {Role.SEER, Role.ROBBER, Role.TROUBLEMAKER, Role.DRUNK}
    daybreak = {
        Role.SENTINEL,
        Role.APPRENTICE_SEER,
        Role.PARANORMAL_INVESTIGATOR,
        Role.WITCH,
        Role.VILLAGE_IDIOT,
        # [DR] "Doppelgänger and Daybreak": they act at once, then wake with the werewolves.
        Role.ALPHA_WOLF,
        Role.MYSTIC_WOLF,
    }
    # Vampire's roles (docs/rules.md 8b.5): test_vampire.py.
    assert frozenset(base | daybreak) == ACTS_AT_ONCE - VAMPIRE_ROLES
    with_them = {r for r, rec in ROLES.items() if rec.copy is Copy.WITH_THEM} - VAMPIRE_ROLES
    assert with_them == {Role.WEREWOLF, Role.MINION, Role.MASON}
    labels = [
        (s.label, s.role, s.copied)
        for s in NIGHTS[Ruleset.OFFICIAL]
        if s.copied and s.copied not in VAMPIRE_ROLES
    ]
    assert labels == [
        ("1", Role.DOPPELGANGER, Role.MINION),
        ("9a", Role.DOPPELGANGER, Role.INSOMNIAC),
        ("10a", Role.DOPPELGANGER, Role.REVEALER),
        ("11a", Role.DOPPELGANGER, Role.CURATOR),
    ]
