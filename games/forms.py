"""Forms: parse and type-check what a browser posts. Rules are checked by the services."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.boundfield import BoundField
from django.utils.safestring import SafeString

from games.engine import Ruleset
from games.engine.deck import MAX_NAME_LENGTH
from games.services import MAX_DAY_MINUTES, MAX_LIMIT_MINUTES


class WidgetRenderedOnce(BoundField):
    """A field whose widget, while its form is unbound, is rendered once per process.

    Django renders every widget through its form renderer's templates: 0.15 to 0.25 ms a
    field, most of the home page's render (docs/benchmarks.md). An unbound form's field reads
    the same on every page (its id, name and initial value come from the form's class), so
    its HTML is kept, keyed by everything it is built from. A bound form (one that came back
    with errors, showing what was typed) is rendered afresh, and so is one given initial
    values of its own (they could come from the request)."""

    _rendered: dict[tuple[Any, ...], SafeString] = {}

    def as_widget(
        self,
        widget: forms.Widget | None = None,
        attrs: dict[str, Any] | None = None,
        only_initial: bool = False,
    ) -> SafeString:
        form, field = self.form, self.field
        if form.is_bound or form.initial or widget is not None or attrs or only_initial:
            return super().as_widget(widget, attrs, only_initial)
        key = (
            type(form),
            form.prefix,
            form.auto_id,
            form.use_required_attribute,
            self.name,
            type(field.widget),
            field.required,
            field.disabled,
            repr(self.value()),
            repr(field.widget.attrs),
            repr(getattr(field, "choices", None)),
        )
        html = self._rendered.get(key)
        if html is None:
            html = self._rendered[key] = super().as_widget()
        return html


class PageForm(forms.Form):
    """A form shown on a page that every visitor loads unbound (home, join). Its widgets are
    rendered once per process (`WidgetRenderedOnce`): what an instance changes in its fields
    must be part of that cache's key."""

    bound_field_class = WidgetRenderedOnce


class CreateGameForm(PageForm):
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


class JoinCodeForm(PageForm):
    code = forms.CharField(label="Game code", max_length=16, strip=True)

    def clean_code(self) -> str:
        return self.cleaned_data["code"].upper().replace(" ", "").replace("-", "")


class JoinForm(PageForm):
    name = forms.CharField(label="Your name", max_length=MAX_NAME_LENGTH, strip=True)
    rules_phrase = forms.CharField(label="The phrase", max_length=100, required=False)


class VoteForm(forms.Form):
    target = forms.IntegerField(min_value=1, max_value=2**62)
