"""Role messages (rules/000 s4 with the variants of s6b and s6c) and night reports.

A role message tells a player only what their start role is told: fellow werewolves, the
werewolves for a minion, the other mason (rules/000 s4; s8 step 0). A night report tells only
what the player saw.
"""

from __future__ import annotations

import pytest

from games.families.onenight.engine import NightResult, Role
from games.families.onenight.engine.deck import Deal
from games.families.onenight.engine.messages import night_report, role_message

from .builders import deal, night
from .views import mentioned, report_leaks

EVERYONE_HOUSE = deal(
    "house",
    Ann="werewolf",
    Ben="seer",
    Cat="robber",
    Dan="troublemaker",
    Eve="drunk",
    Fay="insomniac",
    Gus="villager",
    Hal="minion",
    Ivy="mason",
    Jon="mason",
    Kim="hunter",
    Lou="tanner",
    left="werewolf",
    middle="villager",
    right="villager",
)
EVERYONE_OFFICIAL = deal(
    "official",
    Ann="doppelganger",
    Ben="seer",
    Cat="robber",
    Dan="troublemaker",
    Eve="drunk",
    Fay="werewolf",
    Gus="minion",
    Hal="mason",
    Ivy="mason",
    Jon="insomniac",
    Kim="villager",
    Lou="hunter",
    Max="werewolf",
    left="tanner",
    middle="villager",
    right="villager",
)


def text(d: Deal, player: str) -> str:
    return role_message(d, player).text


@pytest.mark.parametrize("d", [EVERYONE_HOUSE, EVERYONE_OFFICIAL], ids=["house", "official"])
def test_every_role_has_a_message_naming_only_what_it_knows(d: Deal) -> None:
    """rules/000 s4: each role message gives the role and who the fellow werewolves / the
    werewolves (minion) / the other mason are - and no other player."""
    wolves = set(d.players_dealt(Role.WEREWOLF))
    masons = set(d.players_dealt(Role.MASON))
    for player in d.players:
        msg = role_message(d, player)
        role = d.cards[player]
        assert msg.role is role
        assert msg.heading == f"You are the {role.title}."
        may_name = {player}
        if role in (Role.WEREWOLF, Role.MINION):
            may_name |= wolves
        if role is Role.MASON:
            may_name |= masons
        named = {p for p in d.players if mentioned(msg.text, p)}
        assert named <= may_name, (player, named - may_name)
        if role.team.value == "town" and role is not Role.DOPPELGANGER:
            # rules/000 s6c / rules/002 s6: the town's goal when no werewolf is left.
            assert "only if nobody dies" in msg.text


def test_werewolf_pair_names_the_partner() -> None:
    """rules/000 s4 Werewolf: "You and <other Werewolf> are working together"."""
    d = deal(
        "house",
        Ann="werewolf",
        Ben="seer",
        Cat="werewolf",
        left="villager",
        middle="robber",
        right="drunk",
    )
    assert "Your fellow werewolf is Cat." in text(d, "Ann")
    assert "Your fellow werewolf is Ann." in text(d, "Cat")
    assert "centre" not in text(d, "Ann")


def test_lone_werewolf_message() -> None:
    """rules/000 s6b: the lone werewolf gets a slightly different message: it may view one
    centre card."""
    msg = text(EVERYONE_HOUSE, "Ann")
    assert "only werewolf" in msg
    assert "may look at one of the three centre cards" in msg
    assert "Doppelganger" not in msg


def test_official_werewolf_message_mentions_the_doppelganger() -> None:
    """rules/002 s5: a Doppelganger-werewolf joins the werewolves (official only)."""
    d = deal(
        "official",
        Ann="werewolf",
        Ben="doppelganger",
        Cat="werewolf",
        left="villager",
        middle="robber",
        right="drunk",
    )
    assert "Doppelganger" in text(d, "Ann")
    assert "Your fellow werewolf is Cat." in text(d, "Ann")


def test_minion_names_the_werewolves() -> None:
    """rules/000 s4 Minion: "You are trying to help <Werewolf 1> and <Werewolf 2>"."""
    assert "The werewolf is Ann." in text(EVERYONE_HOUSE, "Hal")
    assert "The werewolves are Fay and Max." in text(EVERYONE_OFFICIAL, "Gus")


def _minion_alone(ruleset: str) -> Deal:
    return deal(
        ruleset,
        Ann="minion",
        Ben="seer",
        Cat="villager",
        left="werewolf",
        middle="werewolf",
        right="villager",
    )


def test_house_minion_without_werewolves() -> None:
    """rules/000 s6c (house): with no werewolf dealt the minion gets a different message: it
    counts as the werewolf, but werewolves may still appear in the night."""
    msg = text(_minion_alone("house"), "Ann")
    assert "No player was dealt a werewolf card" in msg
    assert "count as the werewolf yourself" in msg
    assert "may" in msg and "still appear" in msg


def test_official_minion_without_werewolves() -> None:
    """rules/002 s6: with no werewolf the minion wins if somebody else dies while the minion
    and the Tanner survive."""
    msg = text(_minion_alone("official"), "Ann")
    assert "No player was dealt a werewolf card" in msg
    assert "somebody else dies while you and the Tanner stay alive" in msg
    assert "count as the werewolf" not in msg


def test_mason_pair_names_the_partner_and_lone_mason_is_told() -> None:
    """rules/000 s4 Mason: "You and <other mason> both know of each other"; a mason dealt
    alone (house) is told the other is not at the table."""
    assert "The other mason is Jon." in text(EVERYONE_HOUSE, "Ivy")
    assert "The other mason is Ivy." in text(EVERYONE_HOUSE, "Jon")
    lone = deal(
        "house",
        Ann="mason",
        Ben="seer",
        Cat="villager",
        left="mason",
        middle="werewolf",
        right="villager",
    )
    msg = text(lone, "Ann")
    assert "only mason" in msg
    assert not mentioned(msg, "Ben") and not mentioned(msg, "Cat")


def test_tanner_message() -> None:
    """rules/000 s4 Tanner: wins only by dying; a dead Tanner makes the werewolves lose."""
    msg = text(EVERYONE_HOUSE, "Lou")
    assert "win only if you die" in msg
    assert "werewolves lose" in msg


# ---------------------------------------------------------------------------------------------
# Night reports


def report(result: NightResult, player: str) -> str:
    return " ".join(night_report(result, player))


def test_house_night_reports() -> None:
    """rules/000 s3b/s4: each player hears only their own result."""
    r = night(
        EVERYONE_HOUSE,
        Ann=["middle"],
        Ben=["Ann"],
        Cat=["Dan"],
        Dan=["Gus", "Kim"],
        Eve=["left"],
    )
    assert "You looked at the middle centre card: it is the Villager." in report(r, "Ann")
    assert "You looked at Ann's card: it is the Werewolf." in report(r, "Ben")
    assert "You swapped cards with Dan. You are now the Troublemaker." in report(r, "Cat")
    assert "You swapped the cards of Gus and Kim." in report(r, "Dan")
    assert "left centre card" in report(r, "Eve")
    assert "do not know what you are now" in report(r, "Eve")
    assert "still the Insomniac" in report(r, "Fay")
    assert "The werewolf is Ann." in report(r, "Hal")
    assert "you and Jon" in report(r, "Ivy")
    assert report(r, "Gus") == "You slept through the night."
    for player in EVERYONE_HOUSE.players:
        assert report_leaks(r, player) == [], player


def test_declined_actions_are_reported() -> None:
    """rules/000 s4: "may" actions can be declined; the report says so."""
    r = night(EVERYONE_HOUSE, Eve=["left"])
    assert "You chose not to look at a centre card." in report(r, "Ann")
    assert "You chose not to look at any card." in report(r, "Ben")
    assert "You chose not to rob anyone." in report(r, "Cat")
    assert "You chose not to swap" in report(r, "Dan")


@pytest.mark.parametrize(
    ("copy", "phrase"),
    [
        (["Ben", "Cat"], "You looked at Cat's card: it is the Robber."),
        (["Cat", "Kim"], "You swapped cards with Kim. You are now the Villager."),
        (["Dan", "Kim", "Lou"], "You swapped the cards of Kim and Lou."),
        (["Eve", "right"], "right centre card"),
        (["Fay"], "You woke with the werewolves: Fay and Max."),
        (["Gus"], "The werewolves are Fay and Max."),
        (["Hal"], "You woke with the masons: Hal and Ivy."),
        (["Jon"], "You woke at the end of the night: you are now the Doppelganger."),
        (["Kim"], "You looked at Kim's card and became the Villager."),
        ([], "You chose not to copy anyone."),
    ],
)
def test_doppelganger_reports(copy: list[str], phrase: str) -> None:
    """rules/002 s5: the Doppelganger learns the copied card and the copied role's result."""
    r = night(EVERYONE_OFFICIAL, Ann=copy, Eve=["middle"])
    assert phrase in report(r, "Ann")
    for player in EVERYONE_OFFICIAL.players:
        assert report_leaks(r, player) == [], player


def test_werewolves_report_a_doppelganger_partner() -> None:
    """rules/002 s5: the werewolves see the Doppelganger who copied one of them."""
    r = night(EVERYONE_OFFICIAL, Ann=["Fay"], Eve=["middle"])
    assert "you and Ann and Max" in report(r, "Fay") or "you and Max and Ann" in report(r, "Fay")
    assert mentioned(report(r, "Gus"), "Ann")


def test_report_never_tells_the_final_card_to_roles_that_do_not_look() -> None:
    """rules/000 s3b: "players will not receive what role they are at the end of the night"
    unless their role says so: the robbed and the swapped are not told."""
    r = night(EVERYONE_HOUSE, Cat=["Ben"], Dan=["Gus", "Lou"], Eve=["left"])
    for player in ("Ben", "Gus", "Lou", "Eve"):
        final = r.final[player]
        assert not mentioned(report(r, player), f"the {final.title}"), player
        assert report_leaks(r, player) == []
