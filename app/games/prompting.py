"""Prompt forms read by the platform and the default bot: dependent choices and legal combinations.

A form's choice fields may be tied together (see "Prompts" in ``app.games.base``): a
field with ``"depends_on"`` offers each choice only with the parent values in its
``"when"``, and a form's ``"combos"`` lists the legal combinations of some fields.
:func:`tied_fields` names those fields and :func:`legal_combos` lists what may be
chosen together; pages draw only those, the reading of a post refuses anything else,
and :func:`order_from_prompt` (the default bot) draws only among them.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from app.games.text import IllegalOrder

Order = dict[str, Any]
Field = dict[str, Any]
Combo = dict[str, Any]
"""Field name -> the chosen value (None: an optional field left empty)."""


def tied_fields(form: dict[str, Any]) -> list[Field]:
    """The choice fields of ``form`` whose values depend on each other, in the form's order:
    every field with ``depends_on``, its parents up the chain, and the fields named in ``combos``."""
    fields = list(form.get("fields") or [])
    by_name = {f.get("name"): f for f in fields}
    names: set[str] = set()
    for combo in form.get("combos") or []:
        names.update(combo)
    for field in fields:
        current: Field | None = field if field.get("depends_on") else None
        while current is not None and current.get("name") not in names:
            names.add(current["name"])
            current = by_name.get(current.get("depends_on"))
    return [f for f in fields if f.get("name") in names and f.get("type", "text") == "choice"]


def tied_groups(form: dict[str, Any]) -> list[list[Field]]:
    """The tied fields (:func:`tied_fields`) split into groups that do not depend on each other
    (a field, the fields up its ``depends_on`` chain, and the fields named together in ``combos``),
    in the form's order: each group is drawn as a select of its own, so three independent offers
    list 3 x 81 combinations, not 81 cubed."""
    group = tied_fields(form)
    names = [f["name"] for f in group]
    root = {n: n for n in names}

    def find(n: str) -> str:
        while root[n] != n:
            root[n] = root[root[n]]
            n = root[n]
        return n

    def join(a: str, b: str) -> None:
        if a in root and b in root:
            root[find(a)] = find(b)

    for field in group:
        if field.get("depends_on"):
            join(field["name"], field["depends_on"])
    for combo in form.get("combos") or []:
        keys = [k for k in combo if k in root]
        for k in keys[1:]:
            join(keys[0], k)
    out: dict[str, list[Field]] = {}
    for field in group:
        out.setdefault(find(field["name"]), []).append(field)
    return list(out.values())


def group_form(form: dict[str, Any], group: list[Field]) -> dict[str, Any]:
    """The part of ``form`` that one group of tied fields is: its fields and the ``combos`` naming them."""
    names = {f["name"] for f in group}
    combos = [c for c in form.get("combos") or [] if names & set(c)]
    return {"fields": group, **({"combos": combos} if combos else {})}


def choice_allowed(field: Field, choice: dict[str, Any], chosen: dict[str, Any]) -> bool:
    """Whether ``choice`` of ``field`` may go with the parent's value in ``chosen``."""
    parent = field.get("depends_on")
    when = choice.get("when")
    return not parent or when is None or chosen.get(parent) in when


def fits_combos(form: dict[str, Any], chosen: dict[str, Any]) -> bool:
    """Whether ``chosen`` (some fields' values) agrees with at least one of the form's ``combos``
    on the fields it names (always, when the form has none)."""
    combos = form.get("combos")
    if not combos:
        return True
    return any(all(combo.get(k) == v for k, v in chosen.items() if k in combo) for combo in combos)


def legal_combos(form: dict[str, Any]) -> list[Combo]:
    """Every legal combination of the form's tied fields (:func:`tied_fields`), in the order of
    their choices; ``[]`` when the form has no tied fields (or no legal combination)."""
    group = tied_fields(form)
    found: list[Combo] = []
    if not group:
        return found
    chosen: dict[str, Any] = {}

    def walk(i: int) -> None:
        if i == len(group):
            found.append(dict(chosen))
            return
        field = group[i]
        values = [None] if not field.get("required", True) else []  # an optional field left empty first
        values += [c.get("value") for c in field.get("choices") or [] if choice_allowed(field, c, chosen)]
        for value in values:
            chosen[field["name"]] = value
            if fits_combos(form, chosen):
                walk(i + 1)
        chosen.pop(field["name"], None)

    walk(0)
    return found


def order_from_prompt(prompt: dict[str, Any], rng: random.Random) -> Order:
    """An order drawn from a prompt: one of its listed ``"orders"``, else one of its forms
    filled in (a choice drawn, an int drawn in its bounds, optional fields left empty; tied
    choices drawn among their legal combinations only)."""
    listed = prompt.get("orders")
    if listed:
        return copy.deepcopy(rng.choice(listed))
    forms = [f for f in prompt.get("forms", []) if _fillable(f)]
    if not forms:
        raise IllegalOrder("The prompt offers no order a bot can draw.")
    form = rng.choice(forms)
    order = dict(copy.deepcopy(form.get("base", {})))
    tied = {f["name"] for f in tied_fields(form)}
    for field in form.get("fields", []):
        if field.get("name") in tied:
            continue
        if not field.get("required", True) and field.get("type") != "choice":
            continue
        kind = field.get("type")
        if kind == "choice":
            if field.get("choices"):
                order[field["name"]] = rng.choice(field["choices"])["value"]
        elif kind == "int":
            order[field["name"]] = rng.randint(int(field.get("min", 0)), int(field.get("max", field.get("min", 0))))
        elif kind == "multi":
            order[field["name"]] = []
        elif kind == "bool":
            order[field["name"]] = False
    if tied:
        combo = rng.choice(legal_combos(form))
        order.update({k: copy.deepcopy(v) for k, v in combo.items() if v is not None})
    return order


def _fillable(form: dict[str, Any]) -> bool:
    if tied_fields(form) and not legal_combos(form):
        return False
    return all(_fillable_field(fl) for fl in form.get("fields", []))


def _fillable_field(field: dict[str, Any]) -> bool:
    return field.get("type") != "choice" or bool(field.get("choices")) or not field.get("required", True)
