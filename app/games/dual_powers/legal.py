"""The legal combinations a seat's forms offer, computed with the engine from what the seat may know.

Every choice of a dependent field carries ``when`` (the values of its parent field with
which it is legal; see ``app.games.base``), and a form whose choices depend on each
other also lists its complete legal ``combos``.  Everything here comes from the public
board, the calendar and the seat's own hand: never from the deck or a hidden objective.
"""

from __future__ import annotations

from typing import Any

from app.games.base import State
from app.games.dual_powers import choices, data, position
from app.games.dual_powers.text import msg, name

Choice = dict[str, Any]
Field = dict[str, Any]
Order = dict[str, Any]


def region_choice(region: str, when: list[str] | None = None) -> Choice:
    """A region by its name and colour; its code only in ``title`` (a tooltip)."""
    out: Choice = {"value": region, "label": msg("choice.region", region=name("region", region),
                                                  colour=name("colour", region)), "title": region}
    if when is not None:
        out["when"] = when
    return out


def token_label(state: State, token: str) -> dict[str, Any]:
    at = state["board"][token]
    side = name("state", "fresh" if at["fresh"] else "exhausted")
    return msg("choice.token", token=position.tname(token), region=position.rname(at["region"]), state=side,
               strength=position.token_strength(state, token))


def unit_label(unit: str) -> dict[str, Any]:
    info = data.TOKENS[unit]
    return msg("choice.unit", unit=data.token_name(unit), recruit=info["recruit"])


def _ordered(values: dict[str, list[str]], order: dict[str, int]) -> list[str]:
    return sorted(values, key=lambda v: order.get(v, len(order)))


def chain(options: list[Order], fields: list[str], labels: dict[str, Any], state: State,
          required: dict[str, bool] | None = None) -> list[Field]:
    """Dependent choice fields (the first is the parent of the second, and so on) drawn from ``options``.

    ``fields`` past the first get ``depends_on`` the field before them; a value missing from an
    option (e.g. ``via`` of a one-step Double Move) is simply not offered for that option.
    """
    out: list[Field] = []
    for i, field_name in enumerate(fields):
        parent = fields[i - 1] if i else None
        when: dict[str, list[str]] = {}
        for opt in options:
            value = opt.get(field_name)
            if value is None:
                continue
            seen = when.setdefault(value, [])
            if parent is not None and opt.get(parent) is not None and opt[parent] not in seen:
                seen.append(opt[parent])
        items = [_item(state, field_name, value, when[value] if parent else None)
                 for value in _ordered(when, _ORDER[field_name])]
        field: Field = {"name": field_name, "label": labels[field_name], "type": "choice", "choices": items}
        if parent is not None:
            field["depends_on"] = parent
        if required is not None and not required.get(field_name, True):
            field["required"] = False
        out.append(field)
    return out


_REGION_ORDER = {r: i for i, r in enumerate(data.REGIONS)}
_ORDER: dict[str, dict[str, int]] = {
    "card": data.CARD_ORDER, "token": data.TOKEN_ORDER, "bonus_token": data.TOKEN_ORDER,
    "to": _REGION_ORDER, "via": _REGION_ORDER, "bonus_to": _REGION_ORDER,
    "bonus": {k: i for i, k in enumerate(("RECRUIT", "MOVE", "REFRESH", "DRAW", "ORGANIZE"))},
}


def _item(state: State, field_name: str, value: str, when: list[str] | None) -> Choice:
    if field_name in ("to", "via", "bonus_to"):
        return region_choice(value, when)
    if field_name == "card":
        item = card_choice(state, value)
    elif field_name == "bonus":
        item = {"value": value, "label": msg(f"choice.bonus.{value}")}
    elif value in state["board"]:
        item = {"value": value, "label": token_label(state, value), "title": value}
    elif data.TOKENS[value]["kind"] == "unit":
        item = {"value": value, "label": unit_label(value), "title": value}
    else:
        item = {"value": value, "label": position.tname(value), "title": value}
    if when is not None:
        item["when"] = when
    return item


def card_choice(state: State, card: str) -> Choice:
    label = data.card_label(card)
    if choices.would_bonus(state, data.CARDS[card]["days"]):
        label = msg("card.gives_bonus", card=label)
    out: Choice = {"value": card, "label": label, "title": card}
    if data.CARDS[card]["kind"] == "command":
        out["recruit"] = data.CARDS[card]["recruit"]
    return out


def combos(options: list[Order], fields: list[str]) -> list[dict[str, Any]]:
    """The complete legal combinations of ``fields`` (each combo names every one of them; None: left empty)."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for opt in options:
        combo = {f: opt.get(f) for f in fields}
        key = tuple(combo.values())
        if key not in seen:
            seen.add(key)
            out.append(combo)
    return out


BONUS = ("bonus", "bonus_token", "bonus_to")


def _distinct(bonuses: list[Order]) -> list[Order]:
    """Bonus actions less the repeats of interchangeable units (a Bonus Recruit of R01 or of R02,
    which bear the same values, is one choice for a player: the first in the supply is offered)."""
    out: list[Order] = []
    first: dict[tuple[Any, ...], str] = {}
    for b in bonuses:
        if b["bonus"] == "RECRUIT":
            info = data.TOKENS[b["bonus_token"]]
            kind = (info["faction"], info["recruit"], info["fresh"], info["exhausted"])
            if first.setdefault(kind, b["bonus_token"]) != b["bonus_token"]:
                continue
        out.append(b)
    return out


def with_bonuses(state: State, seat: str, options: list[Order]) -> list[Order]:
    """``options`` (action parts, each with its card) each followed by no bonus action, then by each
    bonus action legal after that very action (the card played, the date advanced, the action done)."""
    out: list[Order] = []
    for opt in options:
        out.append(dict(opt))
        if not choices.would_bonus(state, data.CARDS[opt["card"]]["days"]):
            continue
        sim = choices.sim_play(state, seat, {"type": "PLAY", **opt})
        if sim["bonus"]:
            out += [{**opt, **b} for b in _distinct(choices.bonuses(sim, seat))]
    return out


BONUS_LABELS = {"bonus": msg("field.bonus"), "bonus_token": msg("field.bonus_token"),
                "bonus_to": msg("field.bonus_to")}


def _key_part(value: Any) -> str:
    """A field's value as a page posts it: ticked boxes sorted and joined by ",", a ticked box "1"."""
    if isinstance(value, list):
        return ",".join(sorted(str(v) for v in value))
    if value is True:
        return "1"
    return str(value or "")


def action_key(option: Order, names: list[str]) -> str:
    """An action of a form as a key of its ``after`` (its fields' values joined by "|")."""
    return "|".join(_key_part(option.get(n)) for n in names)


def bonus_plan(options: list[Order], names: list[str]) -> tuple[list[dict[str, Any]], dict[str, list[int]]]:
    """The bonus actions of a form (``options`` from :func:`with_bonuses`) as a table and, per action
    (:func:`action_key`), the positions in it of those legal after that very action."""
    table: list[dict[str, Any]] = []
    at: dict[tuple[Any, ...], int] = {}
    after: dict[str, list[int]] = {}
    key = ""
    for opt in options:
        if not opt.get("bonus"):  # an action, followed by itself with each bonus action
            key = action_key(opt, names)
            continue
        triple = tuple(opt.get(f) for f in BONUS)
        if triple not in at:
            at[triple] = len(table)
            table.append(dict(zip(BONUS, triple, strict=True)))
        after.setdefault(key, []).append(at[triple])
    return table, after


def tied_bonus(state: State, options: list[Order]) -> list[Field]:
    """The optional bonus fields of a form whose ``combos`` name them (``options``: from :func:`with_bonuses`)."""
    tied = [o for o in options if o.get("bonus")]
    if not tied:
        return []
    return chain(tied, ["card", *BONUS], {"card": msg("field.card"), **BONUS_LABELS}, state,
                 {"bonus": False, "bonus_token": False, "bonus_to": False})[1:]


def bonus_fields(state: State, seat: str, cards: list[str] | None, required: bool = False) -> list[Field]:
    """The bonus action as three dependent fields: kind (after the card when ``cards`` is given), token, region.

    With ``cards``, each kind lists the cards after which it is legal (the cards that end
    the day on 15 or 31); without, the bonus is legal now (Unrest, Espionage second part).
    """
    options: list[Order] = []
    if cards is None:
        options = [dict(b) for b in choices.bonuses(state, seat)]
    else:
        for card in cards:
            if not choices.would_bonus(state, data.CARDS[card]["days"]):
                continue
            sim = choices.after_card(state, seat, card)
            options += [{"card": card, **b} for b in choices.bonuses(sim, seat)]
    if not options:
        return []
    kinds: dict[str, list[str]] = {}
    for opt in options:
        seen = kinds.setdefault(opt["bonus"], [])
        if "card" in opt and opt["card"] not in seen:
            seen.append(opt["card"])
    kind_field: Field = {"name": "bonus", "label": BONUS_LABELS["bonus"], "type": "choice",
                         "choices": [{"value": k, "label": msg(f"choice.bonus.{k}"),
                                      **({"when": kinds[k]} if cards is not None else {})}
                                     for k in _ordered(kinds, _ORDER["bonus"])]}
    if cards is not None:
        kind_field["depends_on"] = "card"
    if not required:
        kind_field["required"] = False
    rest = chain([o for o in options if "bonus_token" in o], ["bonus", "bonus_token", "bonus_to"], BONUS_LABELS,
                 state, {"bonus_token": False, "bonus_to": False})[1:]
    return [kind_field, *[f for f in rest if f["choices"]]]


def staged_bonus(state: State, seat: str, options: list[Order], keys: list[str]) -> tuple[list[Field], dict[str, Any]]:
    """The bonus fields of a form whose action is not a choice among ``combos`` (ticked units, a leader's
    choices), and what the page needs to offer only the bonus actions legal after the action chosen:
    ``bonuses``, ``after`` (per :func:`action_key` of ``keys``) and ``action_fields`` (``keys``).
    ``options``: every legal action of the form, each with its card."""
    full = with_bonuses(state, seat, options)
    fields = tied_bonus(state, full)
    if not fields:
        return [], {}
    table, after = bonus_plan(full, keys)
    return fields, {"bonuses": table, "after": after, "action_fields": keys}
