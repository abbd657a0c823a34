"""The home and join pages' forms: an unbound form's widgets are rendered once per process
(games/forms.WidgetRenderedOnce), a bound one's every time."""

from __future__ import annotations

from django.forms.boundfield import BoundField

from games.forms import CreateGameForm, JoinCodeForm, JoinForm


def rendered_by_django(form: CreateGameForm | JoinForm | JoinCodeForm, name: str) -> str:
    return BoundField(form, form.fields[name], name).as_widget()


def test_an_unbound_form_renders_as_django_renders_it_and_only_once() -> None:
    for form_class in (CreateGameForm, JoinForm, JoinCodeForm):
        for name in form_class.base_fields:
            first = str(form_class()[name])
            assert first == rendered_by_django(form_class(), name)
            assert str(form_class()[name]) is first  # the kept HTML, not a new render


def test_a_bound_form_shows_what_was_typed_and_its_errors() -> None:
    unbound = str(JoinForm()["name"])
    form = JoinForm({"name": "Zoë <b>", "rules_phrase": ""})
    assert str(form["name"]) == rendered_by_django(form, "name")
    assert 'value="Zoë &lt;b&gt;"' in str(form["name"]) and str(form["name"]) != unbound
    invalid = CreateGameForm({"host_name": "", "ruleset": "house", "day_minutes": "0"})
    assert not invalid.is_valid()
    assert 'aria-invalid="true"' in str(invalid["day_minutes"])
    assert 'aria-invalid="true"' not in str(CreateGameForm()["day_minutes"])


def test_a_prefixed_or_differently_started_form_is_kept_apart() -> None:
    plain = str(CreateGameForm()["day_minutes"])
    assert 'id="id_day_minutes"' in plain and 'value="30"' in plain
    prefixed = str(CreateGameForm(prefix="again")["day_minutes"])
    assert 'id="id_again-day_minutes"' in prefixed
    other = str(CreateGameForm(initial={"day_minutes": 7})["day_minutes"])
    assert 'value="7"' in other and str(CreateGameForm()["day_minutes"]) == plain


def test_a_field_changed_by_an_instance_is_not_served_from_another_instances_render() -> None:
    plain = str(JoinForm()["name"])
    optional = JoinForm()
    optional.fields["name"].required = False
    assert "required" in plain and "required" not in str(optional["name"])
    assert str(JoinForm()["name"]) == plain
