"""Whole multi-night Werewolf games in Chromium, one browser context per player, against real
daphne (issue 27): each ruleset played to its end through the pages, with the moments the
documents make tricky. Deals go out in the order of the host's counters (live_server's
`deals_in_order`), so each test knows who holds which role; every assertion reads the pages."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page, expect

from .live_server import GameDB, LiveServer
from .players import NewPlayerPage, create_table, join_table
from .test_accessibility import audit
from .werewolf_pages import (
    choose,
    game,
    move_on,
    never_shown,
    night,
    phase,
    press,
    ready,
    roles,
    say,
    set_pace,
    set_roles,
    sleep,
    vote,
    wait_for_table,
)

FORUM_PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
PACK_SECRET = "Cat tonight, the quiet one"
GRAVE_LINE = "I was only a villager, you know"


def _seat_players(
    url: str,
    pages: dict[str, Page],
    live_server: LiveServer,
    game: str,
    roles_: dict[str, int],
    **pace: str,
) -> str:
    host = pages["Ann"]
    with live_server.deals_in_order():
        code = create_table(url, host, "Ann", game=game)
        for name in list(pages)[1:]:
            join_table(url, code, pages[name], name)
        set_roles(host, roles_)
        if pace:
            set_pace(host, **pace)
        host.get_by_role("button", name="Deal and start the game").click()
        for page in pages.values():
            phase(page, "Night 1")
    return code


def test_a_forum_game_from_the_deal_to_the_villages_win(
    new_player_page: NewPlayerPage, live_server: LiveServer, game_db: GameDB
) -> None:
    """rules/001 with seven players: the protector saves the pack's victim on night 1, day 1's
    vote is a tie (no elimination), the pack's chat stays with the pack, the dead talk in the
    graveyard (a watcher reads it), day 2's vote ends at its deadline while no page is open,
    and the village wins on day 3 with every role and ruling shown."""
    url = live_server.url
    pages = {name: new_player_page(name, phone=name == "Cat") for name in FORUM_PLAYERS}
    code = _seat_players(
        url, pages, live_server, "werewolf:forum",
        {"protector": 1, "seer": 1, "villager": 3, "werewolf": 2},
    )  # fmt: skip
    assert roles(game_db, code) == {
        "Ann": "protector",
        "Ben": "seer",
        "Cat": "villager",
        "Dan": "villager",
        "Eve": "villager",
        "Fay": "werewolf",
        "Gus": "werewolf",
    }
    wolves = {"Fay", "Gus"}
    others = [pages[n] for n in FORUM_PLAYERS if n not in wolves]

    # Each role message: the team, what the role knows, its card.
    expect(pages["Ann"].locator("#role-message")).to_contain_text("You are the Protector")
    expect(pages["Fay"].locator("#role-message")).to_contain_text("Gus (werewolf)")
    expect(pages["Cat"].locator("#role-message")).not_to_contain_text("werewolf)")
    card = pages["Ben"].get_by_role("link", name="Your role card")
    assert re.search(r"/werewolf/forum/roles#role-seer$", card.get_attribute("href") or "")

    # The host is alive: a watcher would read the graveyard, which her seat may not, so her
    # page offers no watch link (the watcher rules, games/tables/watching.py).
    expect(pages["Ann"].get_by_label("Watch link")).to_have_count(0)
    # Each kind of page passes axe-core's checks (tests/browser/test_accessibility.py).
    barriers: dict[str, str] = {}
    for name, page in (("pack", pages["Fay"]), ("protector", pages["Ann"])):
        audit(page, f"forum night ({name})", barriers)

    # Night 1: the pack talks and both pick Cat; the protector guards Cat; the seer looks at Fay.
    say(pages["Fay"], "pack", PACK_SECRET)
    expect(pages["Gus"].locator('.chat-log[data-channel="pack"]')).to_contain_text(PACK_SECRET)
    night(pages["Fay"], {"kill": "Cat"})
    expect(pages["Gus"].locator("#pack-choices")).to_contain_text("Fay → Cat")
    night(pages["Gus"], {"kill": "Cat"})
    night(pages["Ben"], {"see": "Fay"})
    night(pages["Ann"], {"protect": "Cat"})
    phase(pages["Cat"], "Night 1")  # the night waits for those without a power too
    sleep(pages["Cat"], pages["Dan"], pages["Eve"])
    for page in pages.values():
        phase(page, "Day 1")
    expect(pages["Cat"].locator("#role-message")).not_to_contain_text("(dead)")
    expect(pages["Ben"].locator("#told")).to_contain_text("Fay")
    audit(pages["Ben"], "forum day (seer)", barriers)
    never_shown(others, PACK_SECRET)

    # Day 1: three for Dan, three for Eve, one for Ann: a tie, nobody is eliminated (001).
    for voter, target in (("Ann", "Dan"), ("Ben", "Dan"), ("Cat", "Dan"), ("Dan", "Eve")):
        vote(pages[voter], target)
    expect(pages["Eve"].locator("#status")).to_contain_text("Ben → Dan")  # a public tally
    for voter, target in (("Eve", "Ann"), ("Fay", "Eve"), ("Gus", "Eve")):
        vote(pages[voter], target)
    for page in pages.values():
        phase(page, "Night 2")
    alive = set(game(game_db, code).state.alive)
    assert alive == set(FORUM_PLAYERS)

    # Night 2: the protector may not guard Cat twice running; the pack takes Cat.
    night(pages["Fay"], {"kill": "Cat"})
    night(pages["Gus"], {"kill": "Cat"})
    night(pages["Ben"], {"see": "Gus"})
    night(pages["Ann"], {"protect": "Ann"})
    sleep(pages["Cat"], pages["Dan"], pages["Eve"])
    for page in pages.values():
        phase(page, "Day 2")
    expect(pages["Cat"].locator("#role-message")).to_contain_text("(dead)")
    expect(pages["Dan"].locator('.chat-log[data-channel="public"]')).to_contain_text("Cat")

    # Ann hands the host role to the dead Cat, whose seat reads the graveyard: Cat's page
    # shows the watch link, and a watcher follows by it.
    tools = pages["Ann"].locator("details.host-tools:has(select[name=seat])")
    tools.locator("summary").click()
    tools.locator("select[name=seat]").select_option(label="Cat")
    pages["Ann"].get_by_role("button", name="Hand over").click()
    expect(pages["Dan"].locator('.chat-log[data-channel="public"]')).to_contain_text(
        "Cat is the host now"
    )
    expect(pages["Cat"].get_by_label("Watch link")).to_have_count(1)
    link = pages["Cat"].get_by_label("Watch link").input_value()
    expect(pages["Ann"].get_by_label("Watch link")).to_have_count(0)
    watcher = new_player_page("Watcher")
    watcher.goto(link)
    expect(watcher.locator("#watching")).to_be_visible()
    phase(watcher, "Day 2")
    audit(watcher, "forum day (watcher)", barriers)
    never_shown([watcher], PACK_SECRET)

    # The dead talk in the graveyard, which the watcher reads and no living player sees.
    cat_village = pages["Cat"].locator('.channel[data-channel="public"]')
    expect(cat_village.locator(".chat-closed")).to_contain_text("graveyard")
    say(pages["Cat"], "graveyard", GRAVE_LINE)
    expect(watcher.locator('.chat-log[data-channel="graveyard"]')).to_contain_text(GRAVE_LINE)
    for name in ("Ann", "Ben", "Dan", "Eve", "Fay", "Gus"):
        expect(pages[name].locator('[data-channel="graveyard"]')).to_have_count(0)
    never_shown([pages[n] for n in ("Ann", "Ben", "Dan", "Eve", "Fay", "Gus")], GRAVE_LINE)

    # Day 2: four votes for Fay, one for Ann, Gus never votes; every page closes, and the vote
    # ends at its deadline with no browser open (the server's clock).
    for voter, target in (("Ann", "Fay"), ("Ben", "Fay"), ("Dan", "Fay"), ("Eve", "Fay")):
        vote(pages[voter], target)
    vote(pages["Fay"], "Ann")
    for page in [*pages.values(), watcher]:
        page.close()
    game_db.set_deadline(code, datetime.now(UTC) - timedelta(seconds=1))
    wait_for_table(game_db, code, lambda table: table["phase_label"] == "Night 3")
    for name in FORUM_PLAYERS:
        page = pages[name].context.new_page()
        page.goto(f"{url}/g/{code}/")
        pages[name] = page
    phase(pages["Ann"], "Night 3")
    expect(pages["Fay"].locator("#role-message")).to_contain_text("(dead)")
    expect(pages["Fay"].locator('.chat-log[data-channel="graveyard"]')).to_contain_text(GRAVE_LINE)

    # Night 3: Gus alone takes Dan; day 3 the village votes Gus out and wins.
    night(pages["Gus"], {"kill": "Dan"})
    night(pages["Ben"], {"see": "Eve"})
    night(pages["Ann"], {"protect": "Ben"})
    sleep(pages["Dan"], pages["Eve"])
    phase(pages["Eve"], "Day 3")
    for voter in ("Ann", "Ben", "Eve"):
        vote(pages[voter], "Gus")
    vote(pages["Gus"], "Ann")
    for name in FORUM_PLAYERS:
        phase(pages[name], "The end")
    reveal = pages["Cat"].locator("#reveal")
    expect(reveal).to_contain_text("village")
    for name, title in (("Fay", "Werewolf"), ("Ben", "Seer"), ("Ann", "Protector")):
        expect(reveal.locator(f"tr:has(td.who:text-is('{name}'))")).to_contain_text(title)
    expect(reveal).to_contain_text("001")  # each death with the rule behind it
    expect(reveal).to_contain_text("Fay: kill Cat")  # every night's choices
    # After the end everything may be known; before it, the pack's words never left the pack.
    assert game_db.chat_texts(code, PACK_SECRET) == [PACK_SECRET]
    audit(pages["Cat"], "forum end", barriers)
    assert not barriers, barriers


SIX = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def test_an_oxford_game_with_lovers_to_the_villages_win(
    new_player_page: NewPlayerPage, live_server: LiveServer, game_db: GameDB
) -> None:
    """rules/003 with six players and a pair of lovers: the pack meets on night 1 (no kill)
    and talks where only it can read; day 1 an accusation, a seconder and the fists execute a
    werewolf; night 2 the last werewolf mauls the trapper, and her lover dies of grief; day 2
    the village executes the last werewolf."""
    url = live_server.url
    pages = {name: new_player_page(name, phone=name == "Dan") for name in SIX}
    code = _seat_players(
        url, pages, live_server, "werewolf:oxford",
        {"trapper": 1, "villager": 3, "werewolf": 2}, lovers="1",
    )  # fmt: skip
    assert roles(game_db, code) == {
        "Ann": "trapper", "Ben": "villager", "Cat": "villager", "Dan": "villager",
        "Eve": "werewolf", "Fay": "werewolf",
    }  # fmt: skip
    assert game(game_db, code).setup.lovers == (("Ann", "Ben"),)
    expect(pages["Ann"].locator("#role-message")).to_contain_text("Ben")  # she knows her lover
    secret = "Ann is the trapper, I think"
    say(pages["Eve"], "pack", secret)
    expect(pages["Fay"].locator('.chat-log[data-channel="pack"]')).to_contain_text(secret)
    move_on(pages["Ann"])  # night 1: the pack only meets (003), the host moves on
    for page in pages.values():
        phase(page, "Day 1")

    # Day 1: Cat accuses Eve, Dan seconds, four open fists against two: Eve is executed.
    choose(pages["Cat"], "Accuse", "Eve", "Accuse")
    expect(pages["Dan"].locator("#accusation")).to_contain_text("Cat accuses Eve")
    press(pages["Dan"], "Second the call")
    for name in ("Ann", "Ben", "Cat", "Dan"):
        press(pages[name], "Open fist (execute)")
    press(pages["Eve"], "Closed fist (acquit)")
    press(pages["Fay"], "Closed fist (acquit)")
    expect(pages["Eve"].locator("#role-message")).to_contain_text("(dead)")
    for name in ("Ann", "Ben", "Cat", "Dan", "Fay"):
        ready(pages[name])
    for name in ("Ann", "Fay"):
        phase(pages[name], "Night 2")

    # Night 2: Fay mauls Ann, who dies; Ben, her lover, dies with her.
    night(pages["Fay"], {"maul": "Ann"})
    night(pages["Ann"], {"trap": "Cat"})
    sleep(pages["Ben"], pages["Cat"], pages["Dan"])
    for page in pages.values():
        phase(page, "Day 2")
    for name in ("Ann", "Ben"):
        expect(pages[name].locator("#role-message")).to_contain_text("(dead)")
    village = pages["Cat"].locator('.chat-log[data-channel="public"]')
    expect(village).to_contain_text("Ann died")
    expect(village).to_contain_text("Ben died")
    say(pages["Ben"], "graveyard", "I went with her")
    expect(pages["Eve"].locator('.chat-log[data-channel="graveyard"]')).to_contain_text(
        "I went with her"
    )
    never_shown([pages[n] for n in ("Ann", "Ben", "Cat", "Dan")], secret)  # still the pack's

    # Day 2: Cat accuses Fay, Dan seconds, two fists against one: the village wins.
    choose(pages["Cat"], "Accuse", "Fay", "Accuse")
    press(pages["Dan"], "Second the call")
    press(pages["Cat"], "Open fist (execute)")
    press(pages["Dan"], "Open fist (execute)")
    pages["Fay"].get_by_role("button", name="Closed fist (acquit)").click()
    for page in pages.values():
        phase(page, "The end")
    reveal = pages["Ben"].locator("#reveal")
    expect(reveal.locator("tr:has(td.who:text-is('Fay'))")).to_contain_text("Werewolf")
    expect(reveal).to_contain_text("003")


def test_a_1_7_0_game_where_the_hunters_last_shot_ends_it(
    new_player_page: NewPlayerPage, live_server: LiveServer, game_db: GameDB
) -> None:
    """rules/004 with six players: the guardian guards the werewolf's victim and the witch is
    shown whom the werewolf attacked; day 1 elects a sheriff (whose vote counts 1.5), the
    village votes the hunter out by 3.5 to 3, and his last shot kills the werewolf."""
    url = live_server.url
    pages = {name: new_player_page(name, phone=name == "Fay") for name in SIX}
    code = _seat_players(
        url, pages, live_server, "werewolf:classic",
        {"guardian": 1, "hunter": 1, "villager": 2, "werewolf": 1, "witch": 1},
    )  # fmt: skip
    assert roles(game_db, code) == {
        "Ann": "guardian", "Ben": "hunter", "Cat": "villager", "Dan": "villager",
        "Eve": "werewolf", "Fay": "witch",
    }  # fmt: skip

    # Night 1: Eve attacks Cat; the witch sees it (004 II) and keeps her potions; Ann guards Cat.
    night(pages["Eve"], {"kill": "Cat"})
    expect(pages["Fay"].locator("#night-action")).to_contain_text("Save Cat")
    pages["Fay"].get_by_role("button", name="Send my choices").click()
    night(pages["Ann"], {"guard": "Cat"})
    sleep(pages["Ben"], pages["Cat"], pages["Dan"])
    for page in pages.values():
        phase(page, "Day 1: sheriff election")
    expect(pages["Cat"].locator("#role-message")).not_to_contain_text("(dead)")

    # Day 1: Ann is elected sheriff; everyone is done talking; the vote.
    for name in SIX:
        choose(pages[name], "Sheriff", "Ben" if name == "Eve" else "Ann", "Vote for sheriff")
    phase(pages["Cat"], "Day 1: discussion")
    expect(pages["Cat"].locator("#role-message")).to_contain_text("The sheriff is Ann")
    for name in SIX:
        ready(pages[name])
    phase(pages["Cat"], "Day 1: vote")
    for voter, target in (("Ann", "Ben"), ("Ben", "Eve"), ("Cat", "Ben"), ("Dan", "Eve"),
                          ("Fay", "Eve")):  # fmt: skip
        vote(pages[voter], target)
    pages["Eve"].get_by_label("Vote for").select_option(label="Ben")
    pages["Eve"].get_by_role("button", name="Vote", exact=True).click()
    expect(pages["Ben"].locator(".form-decide")).to_contain_text("Your last shot")
    expect(pages["Cat"].locator('.chat-log[data-channel="public"]')).to_contain_text("Ben 3.5")
    choose(pages["Ben"], "Choose", "Eve", "Decide")
    for page in pages.values():
        phase(page, "The end")
    reveal = pages["Dan"].locator("#reveal")
    expect(reveal).to_contain_text("good")
    expect(reveal.locator("tr:has(td.who:text-is('Eve'))")).to_contain_text("Werewolf")
    expect(reveal).to_contain_text("004")
