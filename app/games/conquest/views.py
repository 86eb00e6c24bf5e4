"""Views (spec 8), secrets and the final ranking."""

from __future__ import annotations

from typing import Any

from app.games.conquest import data
from app.games.conquest.state import State, armies_of, controls_theatre, territories_of, valid_sets
from app.games.text import name


def _card(c: str) -> dict[str, Any]:
    t = data.CARD_TERRITORY[c]
    return {
        "id": c,
        "territory": t,
        "name": name("territory", t) if t else name("symbol", "JOKER"),
        "symbol": data.CARD_SYMBOL[c],
        "symbol_name": name("symbol", data.CARD_SYMBOL[c]),
        "joker": data.JOKERS.get(c),
    }


def _objective(state: State, seat: str) -> dict[str, Any]:
    obj = state["objective"][seat]
    return {
        "card": obj["card"],
        "aim": dict(data.OBJECTIVES.get(obj["goal"], {})),  # what the goal asks (a converted card's too)
        "text": data.objective_text(obj["goal"]),
        "dealt": data.objective_text(obj["card"]),
        "converted": obj["converted"],
    }


def _named(part: dict[str, Any] | None) -> dict[str, Any] | None:
    """A pending advance or the last roll, with the names of its territories beside the ids."""
    if not part:
        return part
    return {**part, "from_name": name("territory", part["from"]), "to_name": name("territory", part["to"])}


def _sees_private(state: State, seat: str | None) -> bool:
    return seat is not None and seat in state["status"] and state["status"][seat] != "ELIMINATED"


def view(state: State, seat: str | None) -> dict[str, Any]:
    over = state["result"] is not None
    commanders = []
    for s in state["order"]:
        commanders.append(
            {
                "seat": s,
                "colour": state["colour"][s],
                "colour_name": name("colour", state["colour"][s]),
                "kind": state["kind"][s],
                "status": state["status"][s],
                "resuming": s in state.get("resuming", []),
                "territories": len(territories_of(state, s)),
                "armies": armies_of(state, s),
                "cards": len(state["hands"][s]),
                "theatres": [h for h in data.THEATRES if controls_theatre(state, s, h)],
                "theatre_names": [name("theatre", h) for h in data.THEATRES if controls_theatre(state, s, h)],
            }
        )
    out: dict[str, Any] = {
        "game": "conquest",
        "options": dict(state["options"]),
        "round": state["round"],
        "serial": state["serial"],
        "current": state["current"],
        "phase": "ENDED" if over else state["phase"],
        "phase_name": name("phase", "ENDED" if over else state["phase"]),
        "pools": dict(state["pools"]),
        "pool_names": {h: name("theatre", h) for h in state["pools"] if h != "G"},
        "pending": _named(state["pending"]),
        "last_roll": _named(state.get("last_roll")),
        "moves_left": state["moves_left"],
        "last_move_from": state["last_move_from"],
        "territories": {t: {"owner": state["owner"][t], "armies": state["armies"][t]} for t in data.TERRITORIES},
        "commanders": commanders,
        "trades": state["trades"],
        "next_trade_value": data.trade_value(state["trades"] + 1),
        "draw_pile": len(state["draw"]),
        "discard": list(state["discard"]),
        "discard_cards": [_card(c) for c in state["discard"]],
        "result": state["result"],
        "result_reason": name("reason", state["result"]["reason"]) if over else None,
        "viewer": seat,
    }
    if over and state["options"]["mode"] == "secret_orders":
        out["objectives"] = {s: _objective(state, s) for s in state["order"]}
    if over:
        out["hands"] = {s: [_card(c) for c in state["hands"][s]] for s in state["order"]}
    if seat is not None and _sees_private(state, seat) and not over:
        me: dict[str, Any] = {
            "seat": seat,
            "hand": [_card(c) for c in sorted(state["hands"][seat], key=data.DECK.index)],
            "sets": valid_sets(state["hands"][seat]),
            "timeouts": state["timeouts"][seat],
        }
        if state["options"]["mode"] == "secret_orders":
            me["objective"] = _objective(state, seat)
        else:
            me["objective"] = {"card": None, "aim": {}, "text": data.objective_text("WORLD"), "converted": False}
        out["me"] = me
    return out


def secrets(state: State, seat: str) -> list[str]:
    if state["result"] is not None or not _sees_private(state, seat):
        return []
    out = list(state["hands"][seat])
    if state["options"]["mode"] == "secret_orders":
        out.append(state["objective"][seat]["card"])
    return out


def outcome(state: State) -> list[dict[str, Any]] | None:
    """Winners first (rank 1), then by seats in field, territories, armies."""
    result = state["result"]
    if result is None:
        return None
    winners = result["winners"]

    def key(s: str) -> tuple[bool, bool, int, int]:
        return (
            s in winners,
            state["status"][s] != "ELIMINATED",
            len(territories_of(state, s)),
            armies_of(state, s),
        )

    seats = sorted(state["order"], key=key, reverse=True)
    out, rank, prev = [], 0, None
    for i, s in enumerate(seats):
        k = key(s)
        if k != prev:
            rank, prev = i + 1, k
        out.append({"seat": s, "score": len(territories_of(state, s)), "rank": rank, "winner": s in winners})
    return out
