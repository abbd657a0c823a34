"""Forms: parse and type-check what a browser posts. Rules are checked by the services."""

from __future__ import annotations

from django import forms

from games.engine import Ruleset
from games.engine.deck import MAX_NAME_LENGTH
from games.services import MAX_DAY_MINUTES, MAX_LIMIT_MINUTES


class CreateGameForm(forms.Form):
    host_name = forms.CharField(label="Your name", max_length=MAX_NAME_LENGTH, strip=True)
    ruleset = forms.ChoiceField(
        label="Rules",
        choices=[(Ruleset.HOUSE.value, "House rules"), (Ruleset.OFFICIAL.value, "Official rules")],
        initial=Ruleset.HOUSE.value,
    )
    day_minutes = forms.IntegerField(
        label="Day length (minutes)", min_value=1, max_value=MAX_DAY_MINUTES, initial=30
    )
    night_minutes = forms.IntegerField(
        label="Night time limit (minutes, optional)",
        min_value=1,
        max_value=MAX_LIMIT_MINUTES,
        required=False,
    )
    vote_minutes = forms.IntegerField(
        label="Vote time limit (minutes, optional)",
        min_value=1,
        max_value=MAX_LIMIT_MINUTES,
        required=False,
    )
    rules_phrase = forms.ChoiceField(
        label="Players type the rules phrase to join",
        choices=[("default", "Yes for house rules, no for official"), ("yes", "Yes"), ("no", "No")],
        initial="default",
    )

    def require_phrase(self) -> bool | None:
        return {"default": None, "yes": True, "no": False}[self.cleaned_data["rules_phrase"]]


class JoinCodeForm(forms.Form):
    code = forms.CharField(label="Game code", max_length=16, strip=True)

    def clean_code(self) -> str:
        return self.cleaned_data["code"].upper().replace(" ", "").replace("-", "")


class JoinForm(forms.Form):
    name = forms.CharField(label="Your name", max_length=MAX_NAME_LENGTH, strip=True)
    rules_phrase = forms.CharField(label="The phrase", max_length=100, required=False)


class VoteForm(forms.Form):
    target = forms.IntegerField(min_value=1, max_value=2**62)
