"""A client that plays a seat through the JSON API alone, as a bot outside the platform would.

It reads only the API's answers: from the seat's prompt it builds an order (one form's
``base`` with a value for each field, drawn from the field's legal choices and bounds) and
posts it as JSON; a refusal (422) makes it try another draw, and after a few, the prompt's
``example`` in the notation.  See docs/api.md ("Writing a bot").
"""

from __future__ import annotations

import random
from typing import Any

#: Draws from the prompt's forms before the notation example is tried.
DRAWS = 12


def draw(prompt: dict[str, Any], rnd: random.Random, attempt: int) -> dict[str, Any]:
    """One order drawn from the prompt's forms (a form's base, each field filled within its bounds)."""
    forms = prompt.get("forms") or []
    form = rnd.choice(forms)
    order = dict(form.get("base") or {})
    fields = form.get("fields") or []
    ints = [f for f in fields if f.get("type") == "int"]
    # fields of counts often share one budget (place 5 armies): put it all on one of them, or spread it
    budget_field = rnd.choice(ints) if ints and attempt % 2 == 0 else None
    for field in fields:
        kind, name, required = field.get("type", "text"), field["name"], field.get("required", True)
        choices = [c["value"] for c in field.get("choices") or []]
        if kind == "choice":
            if choices and (required or rnd.random() < 0.7):
                order[name] = rnd.choice(choices)
        elif kind == "multi":
            order[name] = rnd.sample(choices, rnd.randint(0, len(choices))) if choices else []
        elif kind == "bool":
            order[name] = rnd.random() < 0.5
        elif kind == "int":
            lo = field.get("min") if field.get("min") is not None else 0
            hi = field.get("max") if field.get("max") is not None else lo + 3
            if budget_field is not None:
                value = hi if field is budget_field else lo
            else:
                value = rnd.randint(lo, hi)
            if required or value:
                order[name] = value
        elif required:
            order[name] = ""
    return order


def orders_to_try(prompt: dict[str, Any], rnd: random.Random) -> list[dict[str, Any]]:
    """The request bodies a client tries for one prompt, in order."""
    bodies: list[dict[str, Any]] = [{"order": draw(prompt, rnd, i)} for i in range(DRAWS)]
    if prompt.get("example"):
        bodies.append({"notation": prompt["example"]})
    return bodies
