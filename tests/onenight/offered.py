"""Every post a One Night seat's night form can make, for the tests that play random games
through the family (test_vampire_random_games.py) or through the chat bot
(tests/chatbot/test_onenight_random_chat.py)."""

from __future__ import annotations

from games.families.onenight import panels

# A move as the page posts it: its kind and its fields.
Post = tuple[str, dict[str, list[str]]]


def offered(form: panels.ActionForm) -> list[Post]:
    """Every post the form can make: each choice, each pair, each pick of its selects, and its
    "no action" where it has one."""
    posts: list[Post] = []
    if form.kind == "copy":
        posts += [("copy", {"targets": [c.value]}) for c in form.choices]
    elif form.kind == "choice":
        posts += [("action", {"targets": [c.value]}) for c in form.choices]
    elif form.kind == "pair":
        posts += [
            ("action", {"targets": [a.value, b.value]})
            for a in form.choices
            for b in form.choices
            if a != b
        ]
    elif form.kind == "selects":
        picks: list[list[str]] = [[w.value] for w in form.words] or [[]]
        for select in form.selects:
            picks = [[*p, c.value] for p in picks for c in select.choices]
        posts += [("action", {"targets": p}) for p in picks]
    if form.kind == "none" or form.allow_none:
        posts.append(("action", {"no_action": ["1"]}))
    return posts
