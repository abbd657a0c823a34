"""Forms of the core pages: parse and type-check what a browser posts; the services decide."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.tables.family import families
from games.tables.names import MAX_NAME_LENGTH

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def game_title(title: StrOrPromise, ruleset: StrOrPromise) -> str:
    """A game and its rules, as the pages name them ("Werewolf — Forum game (rules/001)")."""
    # Translators: a game's name and the rules it is played under.
    return _("%(game)s — %(rules)s") % {"game": _(str(title)), "rules": _(str(ruleset))}


def game_choices() -> list[tuple[str, str]]:
    """Every family's rulesets, as "family:ruleset" with a label."""
    return [
        (f"{family.name}:{ruleset}", game_title(family.title, label))
        for family in families()
        for ruleset, label in family.rulesets.items()
    ]


class CreateTableForm(forms.Form):
    host_name = forms.CharField(
        label=gettext_lazy("Your name"), max_length=MAX_NAME_LENGTH, strip=True
    )
    game = forms.ChoiceField(label=gettext_lazy("Game"))

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(data, **kwargs)
        choices = game_choices()
        game = self.fields["game"]
        assert isinstance(game, forms.ChoiceField)  # a copy of the class's field above
        game.choices = choices
        if choices:
            game.initial = choices[0][0]

    def family_and_ruleset(self) -> tuple[str, str]:
        family, _colon, ruleset = self.cleaned_data["game"].partition(":")
        return family, ruleset


class JoinCodeForm(forms.Form):
    code = forms.CharField(label=gettext_lazy("Game code"), max_length=16, strip=True)

    def clean_code(self) -> str:
        return self.cleaned_data["code"].upper().replace(" ", "").replace("-", "")


class JoinForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Your name"), max_length=MAX_NAME_LENGTH, strip=True)
    phrase = forms.CharField(label=gettext_lazy("The phrase"), max_length=100, required=False)
