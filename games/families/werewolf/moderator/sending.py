"""The moderator's moves played by the engine, or refused in the page's words."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from games.tables.family import FamilyError

from ..engine import Game
from ..stored import send

# The rule section an engine refusal ends with ("... (004 II Knight, IV).").
SECTION = re.compile(r"\(([^()]*\d[^()]*)\)\.?\s*$")


def sent(raw: dict[str, Any], game: Game, *moves: Any) -> tuple[dict[str, Any], Game]:
    """The moves played, or a refusal in the page's words: the engine's own message names its
    internal values (a player "not None"), so the moderator reads what to do instead, with the
    rule's section the engine cited."""
    try:
        return send(raw, game, *moves)
    except FamilyError as error:
        cited = SECTION.search(str(error))
        if cited:
            raise FamilyError(
                _("The rules do not allow that now (%(section)s): choose again on the page.")
                % {"section": cited.group(1)}
            ) from None
        raise FamilyError(_("The rules do not allow that now: choose again on the page.")) from None
