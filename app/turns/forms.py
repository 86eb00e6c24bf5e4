"""Orders read back from a posted prompt form (pure: no request, no database).

See ``app.games.base`` for the prompt shape.  Reading never trusts the
browser: a value must be one of the prompt's choices, a number within its
bounds, and so on; anything else is an ``IllegalOrder`` in the player's terms.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Protocol

from app.games import IllegalOrder

#: The longest value of a free-text field.
MAX_TEXT = 4000


class FormData(Protocol):
    """What a posted form offers (``werkzeug.datastructures.MultiDict`` has it)."""

    def get(self, key: str, default: Any = None) -> Any: ...

    def getlist(self, key: str) -> list[Any]: ...


def forms_of(prompt: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The alternatives (forms) of a prompt."""
    return list((prompt or {}).get("forms") or [])


def form_key(spec: dict[str, Any]) -> str:
    """Which alternative of a prompt a form is (from its constant part), whatever its position.

    Anytime forms carry it: the anytime prompt may change between drawing the page and the
    post, and a stale position must not pick another decision.
    """
    canonical = json.dumps(spec.get("base") or {}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def index_of_key(prompt: dict[str, Any], key: str) -> str:
    """The position (as posted) of the alternative with ``form_key`` ``key``; "" if no longer offered."""
    found = [i for i, spec in enumerate(forms_of(prompt)) if form_key(spec) == key]
    return str(found[0]) if found else ""


def _choice(field: dict[str, Any], raw: str) -> Any:
    for choice in field.get("choices") or []:
        if str(choice.get("value")) == raw:
            return choice.get("value")
    raise IllegalOrder(f"{field.get('label') or field['name']}: {raw!r} is not one of the choices")


def order_from_form(prompt: dict[str, Any], form_index: str, data: FormData) -> dict[str, Any]:
    """The order a submitted prompt form stands for.

    :raises IllegalOrder: the submission does not fit the form.
    """
    forms = forms_of(prompt)
    try:
        spec = forms[int(form_index)]
    except (ValueError, IndexError, TypeError):
        from app.i18n import gettext  # the request's language; app.i18n needs Flask (kept out of import time)

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
