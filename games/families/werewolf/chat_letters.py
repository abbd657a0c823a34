"""A multi-night seat's view as text, for a chat bot (ChatPlay.letters, issue 40 item 2): its role
card and whom it knows, what it was told each night, its death, the call to act in the current
step (with the taps that answer it) and the end.

Built only from what `panels.view_of` gives that seat, the same view its page is drawn from, so a
private message never holds more than the page would. Only the current step's call to act is
ever due: a seat linked late gets what it learned, never an out-of-date call. Each letter has a
key, sent once (games.chatbot.models.SeatLink.told).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.tables.family import Letter, SeatInfo, TableInfo, Tap

from .panels import FormView, WerewolfView, view_of

MENU_LIMIT = 25  # the most choices one menu of a chat service holds (Discord's select menus)


def title(form: FormView) -> str:
    return form.title


def due(table: TableInfo, seat: SeatInfo) -> tuple[Letter, ...]:
    if not table.state or "setup" not in table.state or table.stage == "lobby":
        return ()
    view = view_of(table, seat)
    if view.role is None:
        return ()
    code = table.code
    letters = [_role(view, code)]
    if view.known:
        known = ", ".join(f"{p} ({r})" for p, r in view.known)
        letters.append(
            Letter(
                "known:" + ",".join(sorted(p for p, _r in view.known)),
                _("Game %(code)s: you know %(players)s.") % {"code": code, "players": known},
            )
        )
    for i, (phase, lines) in enumerate(view.told):
        for j, line in enumerate(lines):
            text = _("Game %(code)s, %(phase)s: %(line)s") % {
                "code": code,
                "phase": phase,
                "line": line,
            }
            letters.append(Letter(f"told:{i}:{j}", text))
    if table.stage == "cancelled":
        return tuple(letters)
    if view.outcome is not None:
        letters.append(_end(view, code))
        return tuple(letters)
    if not view.alive:
        letters.append(
            Letter(
                "died",
                _(
                    "Game %(code)s: you have died. You may no longer speak in the village; the"
                    " graveyard is yours."
                )
                % {"code": code},
            )
        )
    ask = _ask(table, view)
    if ask is not None:
        letters.append(ask)
    news = _pack_news(table, view)
    if news is not None:
        letters.append(news)
    return tuple(letters)


def _pack_news(table: TableInfo, view: WerewolfView) -> Letter | None:
    """The pack's choices tonight, told again each time a packmate sends or changes theirs (the
    pack's page shows them as they come); the seat's own choice is answered by its command."""
    if view.me is None or not view.pack:
        return None
    others = [(wolf, target) for wolf, target in view.pack if wolf != view.me.name]
    if not others:
        return None
    key = f"pack:{_step(table, view)}:" + ";".join(f"{wolf}={target}" for wolf, target in others)
    pack = ", ".join(f"{wolf} → {target}" for wolf, target in view.pack)
    text = _("Game %(code)s, tonight: the pack so far: %(choices)s.")
    return Letter(key, text % {"code": table.code, "choices": pack})


def _role(view: WerewolfView, code: str) -> Letter:
    lines = [
        _("**Game %(code)s: you are the %(role)s.**") % {"code": code, "role": view.role_title},
        _("You play for the %(side)s.") % {"side": view.role_side}
        + f" {view.role_summary} ({view.role.section if view.role else ''})",
    ]
    for other, kind in view.pairs:
        if kind == "lover":
            lines.append(
                _("You are in love with %(player)s: if one of you dies, so does the other.")
                % {"player": other}
            )
        else:
            lines.append(
                _("Your rival is %(player)s: you cannot both live in this village.")
                % {"player": other}
            )
    return Letter("role", "\n".join(lines))


def _step(table: TableInfo, view: WerewolfView) -> str:
    """What names the current step: its deadline is new with each step (steps.change)."""
    stamp = table.deadline.isoformat() if table.deadline else f"{table.round}:{view.label}"
    return f"{stamp}:{view.step}"


def _menu(forms: FormView, command: str, *, nobody: bool = False) -> tuple[Tap, ...]:
    taps = [Tap(o.label, f"{command} {o.label}") for o in forms.options if o.value != "nobody"]
    if nobody or any(o.value == "nobody" for o in forms.options):
        taps.append(Tap(_("Nobody"), f"{command} nobody"))
    return tuple(taps[:MENU_LIMIT])


def night_how(view: WerewolfView, code: str) -> str:
    """How to send tonight's choices: each ability, whom it may aim at, and the command."""
    lines = [_("**Game %(code)s, tonight:**") % {"code": code}]
    for form in view.night:
        if form.key == "save":
            who = form.options[0].label if form.options else _("nobody yet")
            lines.append(
                _("- %(title)s (`save`): %(summary)s Tonight's victim: %(player)s.")
                % {"title": form.title, "summary": form.summary, "player": who}
            )
            continue
        choices = ", ".join(o.label for o in form.options if o.value != "nobody")
        lines.append(
            _("- %(title)s (`%(key)s`): %(summary)s Choose from %(players)s.")
            % {"title": form.title, "key": form.key, "summary": form.summary, "players": choices}
        )
    aimed = [f for f in view.night if f.key != "save"]
    if len(view.night) == 1 and aimed:
        lines.append(_("Send `!night %(code)s <player>`.") % {"code": code})
    else:
        lines.append(
            _(
                "Send `!night %(code)s <ability> <player>` (several at once: each send replaces"
                " the last)."
            )
            % {"code": code}
        )
    lines.append(
        _("`!night %(code)s nobody` does nothing tonight. You may change your choices until dawn.")
        % {"code": code}
    )
    if view.pack:
        pack = ", ".join(f"{wolf} → {target}" for wolf, target in view.pack)
        lines.append(_("The pack so far: %(choices)s.") % {"choices": pack})
    return "\n".join(lines)


def _ask(table: TableInfo, view: WerewolfView) -> Letter | None:
    """The current step's call to act, if the seat is asked and has not answered."""
    code = table.code
    step = _step(table, view)
    if view.can_second and view.accusation:
        text = _(
            "Game %(code)s: %(by)s calls for %(player)s's execution; `!second %(code)s` seconds it."
        ) % {"code": code, "by": view.accusation["by"], "player": view.accusation["accused"]}
        key = f"second:{step}:{view.accusation['by']}:{view.accusation['accused']}"
        return Letter(key, text, ((Tap(_("Second the call"), f"second {code}"),),))
    if view.done or view.waits_for_pack:
        return None
    lines: list[str] = []
    menus: list[tuple[Tap, ...]] = []
    kinds: list[str] = []
    if view.night:
        lines.append(night_how(view, code))
        kinds.append("night")
        for form in view.night:
            if form.key != "save":
                menus.append(_menu(form, f"night {code} {form.key}", nobody=True))
            else:
                # A new letter once the pack has chosen: the witch is asked again, with its
                # victim (docs/rules.md 10, the witch).
                kinds.append(f"victim={form.options[0].value if form.options else ''}")
                if form.options:
                    menus.append((Tap(_("Use the antidote"), f"night {code} save"),))
    if view.sleep:
        kinds.append("sleep")
        lines.append(
            _(
                "Game %(code)s, tonight: you have nothing to do. Say `!ready %(code)s` when you"
                " are done (the night ends early only once everyone has)."
            )
            % {"code": code}
        )
        menus.append((Tap(_("Done for tonight"), f"ready {code}"),))
    for form in view.forms:
        kinds.append(f"{form.kind}:{form.key}")
        line, menu = _form_call(form, code)
        lines.append(line)
        if menu:
            menus.append(menu)
    if view.talking:
        kinds.append("talking")
        lines.append(
            _("Game %(code)s: say `!ready %(code)s` once you are done talking.") % {"code": code}
        )
        menus.append((Tap(_("I'm done talking"), f"ready {code}"),))
    if not lines:
        return None
    if table.deadline is not None:
        # Translators: {when} is the deadline as the chat service shows it: keep it as it is.
        lines.append(_("This step ends {when}."))
    return Letter(f"ask:{step}:{'+'.join(kinds)}", "\n".join(lines), tuple(menus))


def _form_call(form: FormView, code: str) -> tuple[str, tuple[Tap, ...]]:
    """One day form's call to act, in words, and its taps."""
    players = ", ".join(o.label for o in form.options if o.value != "nobody")
    words = {"code": code, "players": players, "title": form.title, "key": form.key}
    if form.kind == "vote":
        text = _("Game %(code)s: vote with `!vote %(code)s <player>`, from %(players)s.")
        return text % words, _menu(form, f"vote {code}")
    if form.kind == "sheriff_vote":
        text = _("Game %(code)s: elect the sheriff with `!vote %(code)s <player>`: %(players)s.")
        return text % words, _menu(form, f"vote {code}")
    if form.kind == "call_vote":
        text = _(
            "Game %(code)s: an execution is called. `!fist %(code)s open` executes,"
            " `!fist %(code)s closed` acquits; a tie acquits."
        )
        taps = (
            Tap(_("Open fist"), f"fist {code} open"),
            Tap(_("Closed fist"), f"fist {code} closed"),
        )
        return text % words, taps
    if form.kind == "accuse":
        text = _("Game %(code)s: you may call for an execution: `!accuse %(code)s <player>`.")
        return text % words, _menu(form, f"accuse {code}")
    if form.kind == "decide":
        text = _(
            "Game %(code)s: the game waits for your decision (%(title)s): `!decide %(code)s"
            " <player>` or `!decide %(code)s nobody`, from %(players)s."
        )
        return text % words, _menu(form, f"decide {code}", nobody=True)
    text = _("Game %(code)s: you may use %(title)s now: `!use %(code)s %(key)s <player>`.")
    if not form.options:
        text = _("Game %(code)s: you may use %(title)s now: `!use %(code)s %(key)s`.")
        return text % words, (Tap(form.title, f"use {code} {form.key}"),)
    return text % words, _menu(form, f"use {code} {form.key}")


def _end(view: WerewolfView, code: str) -> Letter:
    mine = next((r for r in view.reveal if view.me and r[0] == view.me.name), None)
    won = mine is not None and mine[3]
    text = (
        _("Game %(code)s is over: the %(winner)s win. You won.")
        if won
        else _("Game %(code)s is over: the %(winner)s win. You lost.")
    )
    return Letter("reveal", text % {"code": code, "winner": view.winner})


def for_the_channel(table: TableInfo) -> str | None:
    """The reveal, for the game's channel: every role, who won, and what happened."""
    if table.stage != "over" or not table.state or "setup" not in table.state:
        return None
    view = view_of(table, None)
    lines = [
        _("**Game %(code)s: the end. The %(winner)s win.**")
        % {"code": table.code, "winner": view.winner}
    ]
    if view.ending.text:
        lines.append(view.ending.text)  # who won and why; the rule stays on the web's "why?"
    for name, role, alive, won in view.reveal:
        result = _("won") if won else _("lost")
        if not alive:
            result = _("%(result)s, died") % {"result": result}
        lines.append(f"- {name}: {role} ({result})")
    for phase, told in view.story:
        if told:
            lines.append(f"__{phase}__")
            lines += [f"- {line.text}" for line in told]
    return "\n".join(lines)
