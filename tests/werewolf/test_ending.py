"""The end of a multi-night game in words (issue 38 item 4): who won and why in one sentence,
the story night by night and day by day with each death's cause under its own document's
section, and what a dead seat is told of its death (nothing secret)."""

from __future__ import annotations

from games.families.werewolf.ending import end_sentence, own_death, story
from games.families.werewolf.engine import (
    Advance,
    Game,
    NightAction,
    SheriffVote,
    Vote,
    apply,
    make_setup,
    start,
)
from games.families.werewolf.engine.causes import described
from games.families.werewolf.engine.view import view_for


def played(game: Game, *moves: object) -> Game:
    for move in moves:
        game = apply(game, move)  # type: ignore[arg-type]
    return game


FORUM = ("Ann", "Ben", "Cat", "Dan", "Eve")


def forum_game() -> Game:
    """Ann the werewolf attacks Dan; Cat protects Eve. Day 1 votes Ann out."""
    roles = dict(zip(FORUM, ("werewolf", "seer", "protector", "villager", "villager"), strict=True))
    game = start(make_setup("forum", FORUM, roles))
    game = played(
        game,
        NightAction("Ann", {"kill": "Dan"}),
        NightAction("Cat", {"protect": "Eve"}),
        Advance(),
    )
    return game


def test_the_village_wins_when_the_last_werewolf_is_voted_out() -> None:
    game = forum_game()
    game = played(game, *(Vote(v, "Ann") for v in ("Ben", "Cat", "Eve", "Ann")), Advance())
    assert game.state.over
    ending = end_sentence(game)
    assert ending.text == (
        "The village wins: the last werewolf died — Ann, on day 1 (voted out by the village)."
    )
    assert ending.section.startswith("001")


def test_the_story_tells_each_night_and_day_with_causes_cited_apart() -> None:
    game = forum_game()
    game = played(game, *(Vote(v, "Ann") for v in ("Ben", "Cat", "Eve", "Ann")), Advance())
    told = dict(story(game))
    night = [line.text for line in told["night 1"]]
    assert night[0] == "The werewolves attacked Dan."
    assert "Dan died: attacked by the werewolves." in night
    assert "Ann: kill Dan." in night
    day = told["day 1"]
    assert day[0].text == "Ann was voted out."
    death = next(line for line in day if line.text == "Ann died: voted out by the village.")
    assert death.section == "001 day phase"  # the forum's own document only


def test_a_saved_victim_is_told_in_the_story() -> None:
    roles = dict(zip(FORUM, ("werewolf", "seer", "protector", "villager", "villager"), strict=True))
    game = start(make_setup("forum", FORUM, roles))
    game = played(
        game, NightAction("Ann", {"kill": "Dan"}), NightAction("Cat", {"protect": "Dan"}), Advance()
    )
    night = [line.text for line in dict(story(game))["night 1"]]
    assert night[:2] == ["The werewolves attacked Dan.", "Cat saved Dan: the attack failed."]


def test_causes_cite_the_games_own_document() -> None:
    assert described("vote", "classic")[1] == "004 III"
    assert described("vote", "forum")[1] == "001 day phase"
    assert described("attack", "classic")[1] == "004 IV"
    assert described("mauled", "oxford")[1] == "003 Werewolf"


CLASSIC = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def test_a_dead_seat_learns_when_it_died_but_no_secret_cause() -> None:
    """rules/004 announces deaths without causes: a night's death is told by its night."""
    roles = dict(
        zip(CLASSIC, ("werewolf", "seer", "witch", "villager", "villager", "hunter"), strict=True)
    )
    game = start(make_setup("classic", CLASSIC, roles))
    game = played(game, NightAction("Ann", {"kill": "Dan"}), Advance())
    assert "Dan" not in game.state.alive
    words = own_death("Dan", view_for(game, "Dan").thread)
    assert words == "You died during night 1."


def test_a_voted_out_seat_is_told_so() -> None:
    game = forum_game()
    game = played(game, *(Vote(v, "Ben") for v in ("Ann", "Cat", "Eve")), Advance())
    assert "Ben" not in game.state.alive and not game.state.over
    assert own_death("Ben", view_for(game, "Ben").thread) == (
        "You were voted out by the village on day 1."
    )


def test_the_werewolves_win_when_every_divine_role_is_out() -> None:
    """004 V.1 ("side"): the seer, the only divine role dealt, is gone."""
    roles = dict(
        zip(
            CLASSIC,
            ("werewolf", "seer", "villager", "villager", "villager", "villager"),
            strict=True,
        )
    )
    game = start(make_setup("classic", CLASSIC, roles, {"victory": "side"}))
    game = played(game, NightAction("Ann", {"kill": "Ben"}), Advance())
    assert game.state.over
    ending = end_sentence(game)
    assert ending.text == (
        "The werewolves win: every divine role is out, after Ben, on night 1 (attacked by the"
        " werewolves)."
    )
    assert ending.section == "004 V.1"


def test_the_good_camp_wins_by_its_own_name() -> None:
    roles = dict(
        zip(
            CLASSIC,
            ("werewolf", "seer", "villager", "villager", "villager", "villager"),
            strict=True,
        )
    )
    game = start(make_setup("classic", CLASSIC, roles, {"victory": "side"}))
    game = played(game, NightAction("Ann", {"kill": "Cat"}), Advance())
    while not game.state.over and game.state.step == "election":
        game = played(game, *(SheriffVote(v, "Ben") for v in game.state.living()), Advance())
    while not game.state.over and game.state.step != "voting":
        game = played(game, Advance())
    game = played(game, *(Vote(v, "Ann") for v in game.state.living()), Advance())
    assert game.state.over
    ending = end_sentence(game)
    assert ending.text.startswith("The good camp wins: the last werewolf died — Ann, on day 1")
    assert ending.section == "004 V.1"
