"""An order drawn from a prompt: the default bot of a game without one of its own."""

from __future__ import annotations

import copy
import random
from typing import Any

from app.games.text import IllegalOrder

Order = dict[str, Any]


def order_from_prompt(prompt: dict[str, Any], rng: random.Random) -> Order:
    """An order drawn from a prompt: one of its listed ``"orders"``, else one of its forms
    filled in (a choice drawn, an int drawn in its bounds, optional fields left empty)."""
    listed = prompt.get("orders")
    if listed:
        return copy.deepcopy(rng.choice(listed))
    forms = [f for f in prompt.get("forms", []) if all(_fillable(fl) for fl in f.get("fields", []))]
    if not forms:
        raise IllegalOrder("The prompt offers no order a bot can draw.")
    form = rng.choice(forms)
    order = dict(copy.deepcopy(form.get("base", {})))
    for field in form.get("fields", []):
        if not field.get("required", True) and field.get("type") != "choice":
            continue
        kind = field.get("type")
        if kind == "choice":
            order[field["name"]] = rng.choice(field["choices"])["value"]
        elif kind == "int":
            order[field["name"]] = rng.randint(int(field.get("min", 0)), int(field.get("max", field.get("min", 0))))
        elif kind == "multi":
            order[field["name"]] = []
        elif kind == "bool":
            order[field["name"]] = False
    return order


def _fillable(field: dict[str, Any]) -> bool:
    return field.get("type") != "choice" or bool(field.get("choices")) or not field.get("required", True)
