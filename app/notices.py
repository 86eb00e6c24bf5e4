"""What the platform itself tells every player of a game (missed deadlines, GM actions...).

A notice is an event row like the engine's, but its text is the platform's: an English
template marked with ``N_`` (so ``pybabel extract`` puts it in ``messages.pot``) and its
parameters, kept as ``{"platform": template, "args": {...}}`` in ``Event.data["msg"]`` and
rendered for each reader in their language (``app.i18n.gametext``).  A seat is passed as
``name("seat", seat_id)``, so it reads as the game names it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.games import get_rules
from app.games.options import OptionError
from app.games.text import IllegalOrder, name
from app.i18n.gametext import render
from app.i18n.terms import N_
from app.models import Event


class Refusal(ValueError):
    """A request the platform refuses, with its reason as a platform message.

    ``str(exc)`` is the English (logs); ``exc.message`` is ``{"platform": template, "args": ...}``,
    which the ``game_text`` filter shows in the reader's language.  ``template`` is marked
    with ``N_`` where it is written, so that it is in the catalogues.
    """

    def __init__(self, template: str, /, **args: Any) -> None:
        self.template = template
        self.params = args
        super().__init__(render("", self.message, "en"))

    @property
    def message(self) -> dict[str, Any]:
        return {"platform": self.template, "args": self.params}


def reason(exc: Exception) -> Any:
    """What a page shows of a refusal: its message (rendered in the reader's language), else its text."""
    if isinstance(exc, Refusal | OptionError | IllegalOrder):
        return exc.message
    return str(exc)


def seat_name(seat_id: str) -> dict[str, Any]:
    """A seat as a parameter of a notice: the game's own name for it."""
    return name("seat", seat_id)


def notice(slug: str, game_id: int, step_no: int, now: datetime, template: str, **args: Any) -> Event:
    """An event everyone in the game sees; ``Event.text`` keeps its English for logs."""
    message = {"platform": template, "args": args}
    get_rules(slug)  # an unknown game fails here, not when a reader renders the notice
    return Event(game_id=game_id, step_no=step_no, seq=-1, to=None, created_at=now,
                 text=render(slug, message, "en"), data={"msg": message})


def order_words(prompt: dict[str, Any] | None, order: dict[str, Any], notation: str, rules: Any = None) -> Any:
    """An order in words: the game's own words for it (``rules.order_words(order)``, a message, when
    the game has them: they read better than its form's labels, and an order sent in the notation
    has them too), else as the player's form names it: the form's label, then each value's label.

    ``{"parts": [...]}`` (rendered joined by " · " in the reader's language); when neither tells the
    order (a bot's, a default order in the notation, with no form of ``prompt`` drawing it), the notation.
    """
    told = getattr(rules, "order_words", None)
    if told is not None:
        try:
            return told(order)
        except IllegalOrder:
            pass
    for form in (prompt or {}).get("forms") or []:
        base = form.get("base") or {}
        fields = {f.get("name"): f for f in form.get("fields") or []}
        extra = set(order) - set(base) - set(fields)  # a flag the platform set (e.g. ``auto``) is not a value
        if any(order.get(k) != v for k, v in base.items()) or any(not isinstance(order[k], bool) for k in extra):
            continue
        parts: list[Any] = [form["label"]] if form.get("label") else []
        for fname, field in fields.items():
            if fname in order:
                parts.extend(_value_words(field, order[fname]))
        return {"parts": parts} if parts else notation
    return notation


def _value_words(field: dict[str, Any], value: Any) -> list[Any]:
    labels = {str(c.get("value")): c.get("label", c.get("value")) for c in field.get("choices") or []}
    if field.get("type") == "bool":
        return [field.get("label", "")] if value else []
    if isinstance(value, list):
        return [labels.get(str(v), str(v)) for v in value]
    return [labels.get(str(value), str(value))]


def played_for(slug: str, game_id: int, step_no: int, now: datetime, seat_id: str, words: Any,
               auto: bool, early: bool = False) -> list[Event]:
    """What the seat and every player are told when a missed order was played for a seat (``early``: the GM
    closed the step before its deadline, so the seat missed none)."""
    public = notice(slug, game_id, step_no, now,
                    N_("The GM closed the step early: {seat} had not ordered, and the default order was played.")
                    if early and not auto else
                    N_("{seat} did not order in time: auto-command played for them.")
                    if auto else N_("{seat} did not order in time: the default order was played."),
                    seat=seat_name(seat_id))
    private = notice(slug, game_id, step_no, now, N_("Played for you: {order}"), order=words)
    private.to = [seat_id]
    return [public, private]
