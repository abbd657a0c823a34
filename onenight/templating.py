"""The template engine of the app's pages and fragments: Jinja2, through Django's backend.

Why not Django's own engine: a phase change renders every seat's whole panel in one call that
the whole table waits for, and Django's engine was two thirds of that call (2.2 of 3.3 ms for
eight voting panels, docs/benchmarks.md); Jinja2 compiles a template to Python code once and
rendered the same panels in 0.85 ms. The admin keeps Django's engine (settings.TEMPLATES).

A fragment is named as Django's template partials name it: "games/game.html#panel" is the
block "panel" of games/game.html, rendered alone with the context it is given. The page itself
renders the same block in place, so a page and the fragment pushed to it never differ.

Every render returns safe markup, so a fragment rendered once for a whole table (the status
box, the reveal card) goes into each seat's panel as it is, not escaped a second time.
"""

from __future__ import annotations

from typing import Any

import jinja2
from django.http import HttpRequest
from django.template import TemplateDoesNotExist, engines
from django.template.backends.jinja2 import Jinja2
from django.template.backends.jinja2 import Template as JinjaTemplate
from django.template.defaultfilters import capfirst, pluralize, time, yesno
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from markupsafe import Markup


def url(name: str, *args: Any) -> str:
    """The path of URL `name` with positional `args` (Django's {% url %})."""
    return reverse(name, args=args)


@jinja2.pass_context
def csrf_field(context: jinja2.runtime.Context) -> Markup:
    """The hidden CSRF field of a form (Django's {% csrf_token %}), from the context's
    "csrf_token": the request's, or the one a fragment rendered without a request is given."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return Markup("")
    return Markup('<input type="hidden" name="csrfmiddlewaretoken" value="{}">').format(token)


def clock(value: Any) -> str:
    """Hours and minutes of a datetime in the site's time zone (Django's |time:"H:i")."""
    return time(localtime(value), "H:i") if value else ""


def environment(**options: Any) -> jinja2.Environment:
    """The Jinja2 environment of settings.TEMPLATES, with the few Django tags and filters the
    templates use."""
    env = jinja2.Environment(**options)
    env.globals.update(url=url, static=static, csrf_field=csrf_field)
    env.filters.update(capfirst=capfirst, pluralize=pluralize, yesno=yesno, clock=clock)
    return env


class _Block:
    """One block of a compiled template, standing in for the template it belongs to."""

    def __init__(self, template: jinja2.Template, block: str) -> None:
        self._template = template
        self._render_block = template.blocks[block]
        self.filename = template.filename
        self.name = f"{template.name}#{block}"

    def render(self, context: dict[str, Any]) -> str:
        return "".join(self._render_block(self._template.new_context(context)))


class _SafeTemplate(JinjaTemplate):
    def render(
        self, context: dict[str, Any] | None = None, request: HttpRequest | None = None
    ) -> SafeString:
        return mark_safe(super().render(context, request))


class Jinja2Fragments(Jinja2):
    """Django's Jinja2 backend, with "template.html#block" naming a block of a template."""

    def get_template(self, template_name: str) -> _SafeTemplate:
        name, _, block = template_name.partition("#")
        template = super().get_template(name).template
        if not block:
            return _SafeTemplate(template, self)
        if block not in template.blocks:
            raise TemplateDoesNotExist(template_name, backend=self)
        return _SafeTemplate(_Block(template, block), self)


def compile_templates() -> list[str]:
    """Compile every template of the app's engine now, and keep it compiled; the names.

    Jinja2 compiles a template the first time it is asked for: games/game.html, which every
    game page and panel renders, takes about 40 ms, and on a server that time is the worker
    thread's, so the first page or push after a restart made everyone behind it wait too.
    The server calls this once while it loads (onenight/asgi.py), before it serves anything.
    """
    compiled: list[str] = []
    for engine in engines.all():
        if isinstance(engine, Jinja2Fragments):
            for name in engine.env.list_templates():
                engine.env.get_template(name)
                compiled.append(name)
    return compiled
