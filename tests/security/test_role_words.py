"""The leak audit's role-word recogniser (tests/security/audit.py): every role the engine
knows, in the forms the app writes it, and neither a token's name nor an everyday word."""

from __future__ import annotations

import pytest

from games.families.onenight.engine import Role
from games.families.onenight.engine.artifacts import ARTIFACTS
from games.families.onenight.engine.marks import MARK_TITLES
from tests.security.audit import role_mentions, roles_named


def _plural(title: str) -> str:
    for end, plural in (("wolf", "wolves"), ("Wolf", "Wolves"), ("man", "men"), ("ch", "ches")):
        if title.endswith(end):
            return title.removesuffix(end) + plural
    return title + "s"


@pytest.mark.parametrize("role", list(Role), ids=[r.value for r in Role])
def test_every_role_is_recognised_in_every_form_the_app_writes(role: Role) -> None:
    """Title (as a sentence and a card write it), value, CSS class, data-*, comment, hidden
    input; each names that role and no other (an "Apprentice Seer" is not a Seer)."""
    title = role.title
    forms = [
        f"You are the {title}.",
        f"<span class='role-name'>{title}</span>",
        f'<div class="card role-{role.value}">',
        f'<span data-role="{role.value}"></span>',
        f'<svg data-icon="{role.value}"></svg>',
        f"<!-- {role.value} -->",
        f'<input type="hidden" name="card" value="{role.value}">',
        f"{title.upper()} WAKES",
    ]
    if role is not Role.DISEASED:  # "diseased" has no plural
        forms.append(f"Two {_plural(title)} and a cat.")
    for form in forms:
        assert roles_named(form) == {role}, form


def test_the_count_and_the_master_only_as_the_app_names_them() -> None:
    """ "count" and "master" are everyday words: role words only as a title (its capital) or
    the value, so a vote count or a form field is no Count."""
    assert roles_named("Count the votes? The vote count is 3; count_seer; master plan.") == {
        Role.THE_COUNT
    }  # a sentence opening "Count": the title's form, so it counts (none of the app's does)
    assert roles_named("the vote count is 3; count_seer; a master plan") == set()
    assert roles_named("The Count frightens; the_count; role-the_master") == {
        Role.THE_COUNT,
        Role.THE_MASTER,
    }


def test_a_form_field_or_a_longer_word_is_no_role_word() -> None:
    """Underscores join words: the lobby's count_witch names no witch; nor does "Mark of
    Disease" name the Diseased, "village" the Villager or "wolf" the Werewolf."""
    assert roles_named('name="count_witch" id="count_the_count"') == set()
    assert roles_named("the Mark of Disease, the village, a lone wolf, a princess") == set()


@pytest.mark.parametrize("title", [*MARK_TITLES.values(), *(r.title for r in ARTIFACTS.values())])
def test_a_token_name_names_no_role(title: str) -> None:
    """A mark or an artifact is a token, not a card: "Mark of the Vampire" does not name the
    Vampire, "Claw of the Werewolf" not the Werewolf (audit.py, TOKEN_NAME); with the page's
    spacing and case too."""
    assert roles_named(f"You now have the {title}.") == set()
    assert roles_named(f"<li>{title.upper().replace(' ', chr(10) + '  ')}</li>") == set()


def test_a_role_word_beside_a_token_name_still_counts() -> None:
    """Only the token's whole name is spared."""
    text = "The vampires give the Mark of the Vampire; the Assassin gives the Mark of the Assassin."
    assert roles_named(text) == {Role.VAMPIRE, Role.ASSASSIN}
    assert [r for r, _ in role_mentions("a Vampire's Mark of the Vampire")] == [Role.VAMPIRE]
