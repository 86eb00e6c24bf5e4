"""Orders read back from a posted prompt form (pure: no request, no database).

See ``app.games.base`` for the prompt shape.  Reading never trusts the
browser: a value must be one of the prompt's choices, a number within its
bounds, a legal combination of tied choices, and so on; anything else is an
``IllegalOrder`` whose message is the platform's, naming fields and choices by
their labels, so that it reads in the player's language.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlencode

from app.games import IllegalOrder
from app.games.prompting import group_form, legal_combos, tied_fields, tied_groups
from app.games.text import EMPTY, listing
from app.i18n.terms import N_
from app.usertext import clean

#: The longest value of a free-text field.
MAX_TEXT = 4000
#: The longest part of a posted value quoted back in a refusal.
QUOTE = 40
#: The name of the one select that lists a form's legal combinations of tied choices.
COMBO = "combo"

NOT_THIS_DECISION = N_("That form is not part of this decision; reload the page.")
FILL_IN = N_("{field}: please fill this in.")
NOT_A_CHOICE = N_("{field}: “{value}” is not one of the choices.")
NOT_WHOLE = N_("{field}: “{value}” is not a whole number.")
OUTSIDE = N_("{field}: {value} is not between {low} and {high}.")
TOO_SMALL = N_("{field}: {value} is less than {low}.")
TOO_BIG = N_("{field}: {value} is more than {high}.")
TEXT_TOO_LONG = N_("{field}: the text is too long (at most {n} characters).")
NOT_WITH = N_("{field}: {choice} is not possible with {parent}.")
NOT_WITH_NONE = N_("{field}: {choice} needs a choice of {parent_field}.")
NOT_A_COMBINATION = N_("This combination is not possible: {choices}.")


class FormData(Protocol):
    """What a posted form offers (``werkzeug.datastructures.MultiDict`` has it)."""

    def get(self, key: str, default: Any = None) -> Any: ...

    def getlist(self, key: str) -> list[Any]: ...


def refusal(template: str, /, **args: Any) -> IllegalOrder:
    """An ``IllegalOrder`` with a platform message (labels in ``args`` may be game messages,
    rendered in the reader's language); its English text for logs."""
    message = {"platform": template, "args": args}
    english = template.format(**{k: v if isinstance(v, int | float) and not isinstance(v, bool)
                                 else EMPTY.render(v) for k, v in args.items()})
    return IllegalOrder(english, message)


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


def combo_value(combo: dict[str, Any]) -> str:
    """A legal combination as the value of an option of the ``combo`` select ("card=C12&action=MOVE")."""
    return urlencode([(k, str(v)) for k, v in combo.items() if v is not None])


def combo_select(spec: dict[str, Any], kept: FormData | None = None) -> dict[str, Any] | None:
    """What a page draws for a form's tied choices (None when it has none).

    ``fields`` (the tied fields, in order), ``names``, ``kept`` (the values of the post being
    shown again, field name -> posted value, read from its fields or its ``combo``: the script
    starts its narrowing selects from them) and ``options``: one per legal combination, with its
    ``value`` (:func:`combo_value`), ``pairs`` (field name -> posted value), ``labels`` (the
    choices' labels, to be joined with " · ") and ``selected`` (it is the kept post's).
    """
    group = tied_fields(spec)
    if not group:
        return None
    names = [f["name"] for f in group]
    posted: dict[str, str] = {}
    if kept is not None:
        combo = posted_combos(kept)
        for name in names:
            value = kept.get(name)
            value = combo.get(name) if value is None else value
            if value is not None:
                posted[name] = str(value)
    options = []
    for combo_ in legal_combos(spec):
        pairs = {k: str(v) for k, v in combo_.items() if v is not None}
        labels = [_label_of(f, combo_[f["name"]]) for f in group if combo_.get(f["name"]) is not None]
        selected = bool(posted) and all(posted.get(n, "") == pairs.get(n, "") for n in names)
        options.append({"value": combo_value(combo_), "labels": labels, "pairs": pairs, "selected": selected})
    return {"fields": group, "names": names, "kept": posted, "options": options}


def combo_selects(spec: dict[str, Any], kept: FormData | None = None) -> list[dict[str, Any]]:
    """:func:`combo_select` for each group of tied choices that do not depend on each other
    (``prompting.tied_groups``): a page draws one select per group."""
    out = []
    for group in tied_groups(spec):
        drawn = combo_select(group_form(spec, group), kept)
        if drawn is not None:
            out.append(drawn)
    return out


def posted_combos(data: FormData) -> dict[str, str]:
    """Field name -> value of every posted ``combo`` (a game's own form may draw one per group
    of tied choices that do not depend on each other)."""
    raws = data.getlist(COMBO) if hasattr(data, "getlist") else [data.get(COMBO)]
    out: dict[str, str] = {}
    for raw in raws:
        out.update(parse_qsl(str(raw or ""), keep_blank_values=True))
    return out


def _label_of(field: dict[str, Any], value: Any) -> Any:
    for choice in field.get("choices") or []:
        if choice.get("value") == value:
            return choice.get("label") or str(value)
    return str(value)


def _quote(raw: str) -> str:
    raw = clean(raw)
    return raw if len(raw) <= QUOTE else raw[:QUOTE] + "…"


def _choice(field: dict[str, Any], raw: str) -> Any:
    for choice in field.get("choices") or []:
        if str(choice.get("value")) == raw:
            return choice.get("value")
    raise refusal(NOT_A_CHOICE, field=field.get("label") or field["name"], value=_quote(raw))


def order_from_form(prompt: dict[str, Any], form_index: str, data: FormData,
                    validate: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
    """The order a submitted prompt form stands for.

    A tied field (``tied_fields``) absent from the post is read from the posted ``combo``
    (the page without JavaScript draws one select of the legal combinations).  A combination
    the form does not offer is refused; with ``validate`` (the rules' check of the order),
    by the rules' own reason when they give one, which speaks of the game.

    :raises IllegalOrder: the submission does not fit the form.
    """
    forms = forms_of(prompt)
    try:
        spec = forms[int(form_index)]
    except (ValueError, IndexError, TypeError):
        raise refusal(NOT_THIS_DECISION) from None
    tied = {f["name"] for f in tied_fields(spec)}
    combo = posted_combos(data) if tied else {}
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
        posted = data.get(name)
        if posted is None and name in tied:
            posted = combo.get(name)
        raw = str(posted or "").strip()
        if raw == "":
            if required:
                raise refusal(FILL_IN, field=label)
            continue
        if kind == "choice":
            order[name] = _choice(field, raw)
        elif kind == "int":
            order[name] = _whole(field, label, raw)
        else:
            if len(raw) > MAX_TEXT:
                raise refusal(TEXT_TOO_LONG, field=label, n=MAX_TEXT)
            order[name] = raw
    if tied:
        try:
            _check_tied(spec, order)
        except IllegalOrder as tie:
            if validate is not None:
                try:
                    validate(order)  # the rules' reason, when they refuse it too
                except IllegalOrder:
                    raise
                except Exception:  # a check that cannot read this order: the form's reason stands
                    raise tie from None
            raise
    return order


def _whole(field: dict[str, Any], label: Any, raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise refusal(NOT_WHOLE, field=label, value=_quote(raw)) from None
    lo, hi = field.get("min"), field.get("max")
    if lo is not None and hi is not None and not lo <= value <= hi:
        raise refusal(OUTSIDE, field=label, value=value, low=lo, high=hi)
    if lo is not None and value < lo:
        raise refusal(TOO_SMALL, field=label, value=value, low=lo)
    if hi is not None and value > hi:
        raise refusal(TOO_BIG, field=label, value=value, high=hi)
    return value


def _check_tied(spec: dict[str, Any], order: dict[str, Any]) -> None:
    """Refuse a combination of tied choices that the form does not offer."""
    fields = spec.get("fields") or []
    by_name = {f["name"]: f for f in fields}
    for field in fields:
        parent_name = field.get("depends_on")
        if not parent_name or field["name"] not in order:
            continue
        value = order[field["name"]]
        choice: dict[str, Any] = next((c for c in field.get("choices") or [] if c.get("value") == value), {})
        when = choice.get("when")
        if when is None or order.get(parent_name) in when:
            continue
        parent = by_name.get(parent_name, {"name": parent_name})
        label = field.get("label") or field["name"]
        if parent_name not in order:
            raise refusal(NOT_WITH_NONE, field=label, choice=_label_of(field, value),
                          parent_field=parent.get("label") or parent_name)
        raise refusal(NOT_WITH, field=label, choice=_label_of(field, value),
                      parent=_label_of(parent, order[parent_name]))
    combos = spec.get("combos")
    if combos:
        names = [f["name"] for f in fields if any(f["name"] in c for c in combos)]
        if not any(all(c.get(k) == order.get(k) for k in names) for c in combos):
            raise refusal(NOT_A_COMBINATION, choices=listing(
                [_label_of(by_name[k], order[k]) for k in names if k in order]))
