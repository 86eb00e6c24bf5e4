"""Forms drawn from a game's prompt, and orders read back from them.

See ``app.games.base`` for the prompt shape.  Reading never trusts the
browser: a value must be one of the prompt's choices, a number within its
bounds, and so on; anything else is an ``IllegalOrder`` in the player's terms.
"""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from app.games import IllegalOrder
from app.i18n import gettext

MAX_TEXT = 4000
#: The longest order in a game's notation (the longest real order is far shorter).
MAX_NOTATION = 4000
#: The longest value of any one form field.
MAX_FIELD = 4000


def too_long_field(data: MultiDict) -> bool:
    """Whether any submitted field value is longer than ``MAX_FIELD``."""
    return any(len(v) > MAX_FIELD for _k, v in data.items(multi=True))


def forms_of(prompt: dict[str, Any] | None) -> list[dict[str, Any]]:
    return list((prompt or {}).get("forms") or [])


def _choice(field: dict[str, Any], raw: str) -> Any:
    for choice in field.get("choices") or []:
        if str(choice.get("value")) == raw:
            return choice.get("value")
    raise IllegalOrder(f"{field.get('label') or field['name']}: {raw!r} is not one of the choices")


def order_from_form(prompt: dict[str, Any], form_index: str, data: MultiDict) -> dict[str, Any]:
    """The order a submitted prompt form stands for.

    :raises IllegalOrder: the submission does not fit the form.
    """
    forms = forms_of(prompt)
    try:
        spec = forms[int(form_index)]
    except (ValueError, IndexError, TypeError):
        raise IllegalOrder(gettext("That form is not part of this decision; reload the page.")) from None
    order: dict[str, Any] = dict(spec.get("base") or {})
    for field in spec.get("fields") or []:
        name, kind = field["name"], field.get("type", "text")
        label = field.get("label") or name
        required = field.get("required", True)
        if kind == "multi":
            raws = [v for v in data.getlist(name) if v != ""]
            order[name] = [_choice(field, raw) for raw in raws]
            continue
        if kind == "bool":
            order[name] = data.get(name) in ("on", "1", "true", "yes")
            continue
        raw = (data.get(name) or "").strip()
        if raw == "":
            if required:
                raise IllegalOrder(f"{label}: please fill this in.")
            continue
        if kind == "choice":
            order[name] = _choice(field, raw)
        elif kind == "int":
            try:
                value = int(raw)
            except ValueError:
                raise IllegalOrder(f"{label}: {raw!r} is not a whole number.") from None
            lo, hi = field.get("min"), field.get("max")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise IllegalOrder(f"{label}: {value} is outside {lo}..{hi}.")
            order[name] = value
        else:
            if len(raw) > MAX_TEXT:
                raise IllegalOrder(f"{label}: the text is too long.")
            order[name] = raw
    return order
