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
    return {"section": _shown(section), "rules": rules}


def _shown(section: object) -> str:
    """A section as the disclosure shows it: "004 III" reads as "rules/004 III"."""
    text = str(section or "")
    return "rules/" + text if text[:2] == "00" else text


@register.inclusion_tag("tables/cited.html")
def cited(message: object, rules: str = "") -> dict[str, Any]:
    """A ruling's sentence, then the section it cites behind "why?"."""
    ruling: Cited = split(message) if message else Cited("")
    return {"ruling": ruling, "section": _shown(ruling.section), "rules": rules}
