"""Filling Empire's real prompt forms with legal values, as a player choosing from them would."""

from __future__ import annotations

from typing import Any


def legal_values(spec: dict[str, Any], pick: int = 0) -> dict[str, Any]:
    """Field values of one prompt form: the ``pick``-th legal choice of each field (wrapping),
    a dependent field's choice legal with its parent's value, numbers within the seat's total."""
    data: dict[str, Any] = {}
    budget = None
    for f in spec.get("fields") or []:
        name, kind = f["name"], f.get("type", "text")
        if kind == "choice":
            choices = f["choices"]
            if f.get("depends_on"):
                parent = data.get(f["depends_on"], "")
                choices = [c for c in choices if "when" not in c or parent in c["when"]]
            if choices:
                data[name] = choices[pick % len(choices)]["value"]
        elif kind == "multi":
            values = [c["value"] for c in f["choices"]]
            data[name] = values[:f.get("exactly", 1)]
        elif kind == "int":
            if f.get("total") is not None:
                budget = f["total"] if budget is None else budget
                n = min(1, budget, f.get("max", 1))
                budget -= n
                data[name] = n
            else:
                data[name] = f.get("default", f.get("min", 0))
    return data
