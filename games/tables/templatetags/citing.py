"""`{% why section %}` and `{% cited message %}`: a ruling's section behind one uniform "why?"
disclosure (games/tables/citing.py; templates/tables/why.html), on every page alike."""

from __future__ import annotations

from typing import Any

from django import template

from games.tables.citing import Cited, split

register = template.Library()


@register.inclusion_tag("tables/why.html")
def why(section: object, rules: str = "") -> dict[str, Any]:
    """The "why?" disclosure of `section` (nothing when it is empty), with a link to the rules
    page `rules` when one is given."""
    text = str(section or "")
    if text[:2] == "00":  # "004 III": the document's number reads as its name, "rules/004"
        text = "rules/" + text
    return {"section": text, "rules": rules}


@register.inclusion_tag("tables/cited.html")
def cited(message: object, rules: str = "") -> dict[str, Any]:
    """A ruling's sentence, then the section it cites behind "why?"."""
    ruling: Cited = split(message) if message else Cited("")
    return {"ruling": ruling, "rules": rules}
