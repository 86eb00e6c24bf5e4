"""Prompts: the forms of one step of the interactive turn (the seat on turn) and the
seat orders any seat may send at any time (RESUME_COMMAND, ABANDON CONFIRM)."""

from __future__ import annotations

from typing import Any

from app.games.conquest import data
from app.games.conquest.notation import format_order
from app.games.conquest.state import State, enemy_neighbours, pool_total, territories_of, tname, valid_sets
from app.games.text import Msg, listing, msg, name

NUM = data.NUMBER


def attack_pairs(state: State, seat: str) -> list[list[str]]:
    """Legal (origin, target) pairs: own origin with 2+ armies, enemy neighbour."""
    return [[a, b] for a in territories_of(state, seat) if state["armies"][a] >= 2 for b in enemy_neighbours(state, a)]


def _movable(state: State, a: str) -> int:
    """How many armies may still leave ``a`` this regroup (one stays; arrivals stay put)."""
    left = state["moves_left"]
    return int(min(state["armies"][a] - 1, left[a] if left is not None else state["armies"][a]))


def move_pairs(state: State, seat: str) -> list[list[str]]:
    """Legal regroup pairs: own to own neighbour, with armies that may still move."""
    out: list[list[str]] = []
    for a in territories_of(state, seat):
        if _movable(state, a) < 1:
            continue
        out.extend([a, b] for b in data.NEIGHBOURS[a] if state["owner"][b] == seat)
    return out


def _card_label(c: str) -> Msg:
    """A card by its name: the territory and its unit, or a joker (the code is only in the notation)."""
    t = data.CARD_TERRITORY[c]
    if t is None:
        return msg("choice.card_joker")
    return msg("choice.card", territory=tname(t), symbol=name("symbol", data.CARD_SYMBOL[c]))


def _pair_label(state: State, a: str, b: str) -> Msg:
    return msg("choice.pair", a=tname(a), n=state["armies"][a], b=tname(b), m=state["armies"][b])


def _dice(state: State, a: str, b: str) -> tuple[int, int]:
    """The dice each side rolls now (spec D4: never chosen)."""
    return min(3, state["armies"][a] - 1), min(3, state["armies"][b])


def _attack_label(state: State, a: str, b: str) -> Msg:
    d, e = _dice(state, a, b)
    return msg("choice.attack", a=tname(a), n=state["armies"][a], b=tname(b), m=state["armies"][b],
               dice=msg("dice", n=d), against=e)


def _source(state: State, a: str) -> Msg:
    return msg("choice.source", a=tname(a), n=state["armies"][a])


def _target(state: State, a: str, b: str) -> Msg:
    d, e = _dice(state, a, b)
    return msg("choice.target", b=tname(b), m=state["armies"][b], dice=msg("dice", n=d), against=e)


def trade_forms(state: State, seat: str) -> list[dict[str, Any]]:
    """One form per valid set in the hand (only legal trades), each with the bonus territories
    that set may give (a pictured territory the seat owns, spec 5.1)."""
    forms = []
    for cards in valid_sets(state["hands"][seat]):
        pictured = sorted({t for t in (data.CARD_TERRITORY[c] for c in cards)
                           if t is not None and state["owner"][t] == seat}, key=NUM.__getitem__)
        fields: list[dict[str, Any]] = []
        if pictured:
            fields.append({
                "name": "bonus",
                "label": msg("field.bonus"),
                "type": "choice",
                "required": False,
                "choices": [{"value": t, "label": tname(t)} for t in pictured],
            })
        forms.append({
            "label": msg("form.trade_set", cards=listing([_card_label(c) for c in cards])),
            "base": {"type": "TRADE", "cards": list(cards)},
            "fields": fields,
        })
    return forms


def place_form(state: State, seat: str) -> dict[str, Any]:
    g = state["pools"].get("G", 0)
    fields = []
    for t in territories_of(state, seat):
        top = g + state["pools"].get(data.THEATRE[t], 0)
        fields.append(
            {
                "name": t,
                "label": msg("choice.source", a=tname(t), n=state["armies"][t]),
                "theatre": data.THEATRE[t],
                "theatre_name": name("theatre", data.THEATRE[t]),
                "type": "int",
                "min": 0,
                "max": top,
                "required": False,
            }
        )
    return {"label": msg("form.place"), "base": {"type": "PLACE"}, "fields": fields}


def attack_form(state: State, seat: str, pairs: list[list[str]]) -> dict[str, Any]:
    return {
        "label": msg("form.attack"),
        "base": {"type": "ATTACK"},
        "fields": [
            {
                "name": "pair",
                "label": msg("field.attack_pair"),
                "type": "choice",
                "choices": [{"value": f"{a}-{b}", "label": _attack_label(state, a, b), "from": a, "to": b,
                             "from_label": _source(state, a), "to_label": _target(state, a, b)} for a, b in pairs],
            },
            {
                "name": "repeat",
                "label": msg("field.rolls"),
                "type": "choice",
                "required": False,
                "choices": [
                    {"value": 1, "label": msg("choice.one_roll")},
                    {"value": "CONQUER", "label": msg("choice.conquer")},
                ],
            },
        ],
    }


def move_form(state: State, seat: str, pairs: list[list[str]]) -> dict[str, Any]:
    movable = {a: _movable(state, a) for a, _ in pairs}
    top = max(movable.values())
    return {
        "label": msg("form.move"),
        "base": {"type": "MOVE"},
        "fields": [
            {
                "name": "pair",
                "label": msg("field.move_pair"),
                "type": "choice",
                "choices": [{"value": f"{a}-{b}", "label": _pair_label(state, a, b), "from": a, "to": b,
                             "max": movable[a], "from_label": _source(state, a), "to_label": _source(state, b)}
                            for a, b in pairs],
            },
            {"name": "count", "label": msg("field.armies"), "type": "int", "min": 1, "max": top},
        ],
    }


def _button(label: Msg, kind: str) -> dict[str, Any]:
    return {"label": label, "base": {"type": kind}, "fields": []}


def abandon_form() -> dict[str, Any]:
    """ABANDON CONFIRM: the box must be ticked (spec 7.4, E53 otherwise)."""
    return {
        "label": msg("form.abandon"),
        "base": {"type": "ABANDON"},
        "fields": [{"name": "confirm", "label": msg("field.confirm"), "type": "bool"}],
    }


def turn_prompt(state: State, seat: str) -> dict[str, Any]:
    """The prompt of the seat on turn for the current step."""
    seconds = state["options"]["timer"]
    phase, pools = state["phase"], state["pools"]
    base = {"seconds": seconds}
    if state["status"][seat] == "FULL_AUTO":
        # When no human is in command (flow.waits_for_resume), or in a state saved when a full
        # auto-command seat still owed its own turn: its deadline lets auto-command play it.
        return {
            **base,
            "kind": "auto",
            "title": msg("prompt.auto.title"),
            "example": "AUTO_COMMAND",
            "forms": [_button(msg("button.auto"), "AUTO")],
        }
    if state["pending"]:
        p = state["pending"]
        return {
            **base,
            "kind": "advance",
            "title": msg("prompt.advance.title", territory=tname(p["to"], "the")),
            "text": msg("prompt.advance.text", territory=tname(p["to"], "in"), d=p["d"]),
            "example": f"ADVANCE {p['d']}",
            "forms": [
                {
                    "label": msg("form.advance"),
                    "base": {"type": "ADVANCE"},
                    "fields": [{"name": "count", "label": msg("field.armies_in_all"), "type": "int", "min": 1,
                                "max": p["d"]}],
                },
            ],
        }
    forms: list[dict[str, Any]] = []
    hand = state["hands"][seat]
    if phase == "MOBILISATION":
        forms.extend(trade_forms(state, seat))
    if phase == "MOBILISATION" and len(hand) >= 5:
        title, kind = msg("prompt.trade_first.title", n=len(hand)), "mobilisation"
    elif phase == "MOBILISATION" and pool_total(state) > 0:
        bonus = [msg("prompt.place.only_in", n=pools[h], theatre=name("theatre", h))
                 for h in data.THEATRES if pools.get(h)]
        title = (msg("prompt.place.title_bonus", n=pool_total(state), bonus=listing(bonus)) if bonus
                 else msg("prompt.place.title", n=pool_total(state)))
        kind = "mobilisation"
        forms.append(place_form(state, seat))
    else:
        kind = "offensive" if phase != "REGROUP" else "regroup"
        title = msg("prompt.offensive.title") if phase != "REGROUP" else msg("prompt.regroup.title")
        if phase != "REGROUP":
            pairs = attack_pairs(state, seat)
            if pairs:
                forms.append(attack_form(state, seat, pairs))
            forms.append(_button(msg("button.end_offensive"), "END_OFFENSIVE"))
        mp = move_pairs(state, seat)
        if mp:
            forms.append(move_form(state, seat, mp))
        forms.append(_button(msg("button.end_turn"), "END_TURN"))
    return {**base, "kind": kind, "title": title, "example": _example(state, seat, forms), "forms": forms}


def anytime_prompt(state: State, seat: str) -> dict[str, Any] | None:
    """What a human seat still in the game may send at any time (spec 5.0, 7.3, 7.4); else None."""
    if state["result"] is not None or seat not in state["status"] or state["kind"][seat] != "human":
        return None
    status = state["status"][seat]
    if status == "FULL_AUTO" and seat not in state.get("resuming", []):
        return _seat_prompt(msg("prompt.seat.auto.title"), msg("prompt.seat.auto.text"),
                            "RESUME_COMMAND", [_button(msg("button.resume"), "RESUME"), abandon_form()], prominent=True)
    if status == "FULL_AUTO":
        return _seat_prompt(msg("prompt.seat.resuming.title"), msg("prompt.seat.resuming.text"),
                            "ABANDON CONFIRM", [abandon_form()])
    if status == "ACTIVE":
        return _seat_prompt(msg("prompt.seat.leave.title"), msg("prompt.seat.leave.text"),
                            "ABANDON CONFIRM", [abandon_form()])
    return None


def _seat_prompt(title: Msg, text: Msg, example: str, forms: list[dict[str, Any]],
                 prominent: bool = False) -> dict[str, Any]:
    """A decision about the seat itself (resume command, abandon), offered at any time."""
    out: dict[str, Any] = {"kind": "seat", "title": title, "text": text, "example": example, "forms": forms}
    if prominent:
        out["prominent"] = True
    return out


def _example(state: State, seat: str, forms: list[dict[str, Any]]) -> str:
    """A notation example drawn from the first form (what an e-mail order looks like).

    Territories are written by their ids, as printed on the board, so that the example
    reads the same in every language (the notation takes names or ids).
    """
    form = forms[0]
    kind = form["base"]["type"]
    if kind == "TRADE":
        return format_order(form["base"])
    if kind == "PLACE":
        return f"PLACE {pool_total(state)} {form['fields'][0]['name']}"
    if kind in ("ATTACK", "MOVE"):
        a, b = form["fields"][0]["choices"][0]["value"].split("-")
        return f"ATTACK {a} {b}" if kind == "ATTACK" else f"MOVE 1 {a} {b}"
    return format_order({"type": kind})
